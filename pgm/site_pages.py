"""Render the files of the site: each game's folder, and the pages about the event.

Everything is returned as (path relative to the output, content) so the caller decides
how to write it: into a staging folder, or file by file with atomic renames.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from html import escape
from typing import TYPE_CHECKING, Any

from pgm.config import ConfigSet
from pgm.fragments import fragment_once
from pgm.site_model import GameEntry, group_games, player_index, utc_text

if TYPE_CHECKING:
    import jinja2

    from pgm.games import LoadedGame

Files = list[tuple[str, str | bytes]]


def common_context(configs: ConfigSet, root: str) -> dict[str, Any]:
    event = configs.event
    return {"event": event, "lang": event.lang, "canonical": None, "root": root,
            "live_poll_seconds": event.live_poll_seconds}


def render_game_files(env: jinja2.Environment, configs: ConfigSet, game: LoadedGame
                      ) -> Iterator[tuple[str, str | bytes]]:
    """(path in the site, content) of each of the game's files, made one at a time: a
    record of thousands of turns has thousands of pages, and the worker writes each
    before it makes the next."""
    slug = game.entry.slug
    common = common_context(configs, "../" * (slug.count("/") + 1))
    common["game_url"] = _canonical(configs.event.base_url, f"{slug}/")
    return ((f"{slug}/{name}", content) for name, content in game.render(env, common))


def render_site_files(env: jinja2.Environment, configs: ConfigSet, entries: list[GameEntry],
                      keep: bool = True) -> Iterator[tuple[str, Iterator[str]]]:
    """The pages about the whole event, one at a time and each as the pieces of text
    it is made of: the pages of a large event are megabytes each, and a full build
    writes each piece as it is made. With ``keep``, rows and items are kept per game
    for the next build in this process (a watch session), which then makes only the
    changed games' again."""
    event = configs.event
    common = common_context(configs, "")
    if not keep:
        common["fragment"] = fragment_once(env)
    description = functools.cache(lambda: _description(configs))

    def index(games: list[GameEntry], latest_update: str) -> dict[str, Any]:
        return dict(common, description=description(), divisions=group_games(games),
                    spoiler_free=event.spoiler_free, any_live=any(e.live for e in entries),
                    any_in_progress=any(e.in_progress for e in entries),
                    latest_update=latest_update, latest_update_utc=utc_text(latest_update))

    pages: dict[str, Callable[[], dict[str, Any]]] = {
        "index.html": lambda: index(entries, _latest_update(entries)),
        "players.html": lambda: _players(common, entries, keep, event.spoiler_free),
        "404.html": lambda: dict(common, root=_absolute_root(event.base_url)),
    }
    for name, context in pages.items():
        # the 404 page stands in for any missing address: it is no page of its own to
        # point search engines at
        canonical = None if name == "404.html" else _canonical(event.base_url, name)
        yield name, env.get_template(name).generate(context(), canonical=canonical)
    # The index once more with what pgm-live.js refreshes in place left out, for live.json.
    still = _still if keep else _still.__wrapped__
    shown = env.get_template("index.html").generate(
        index([still(entry) for entry in entries], ""),
        canonical=_canonical(event.base_url, "index.html"))
    yield "live.json", live_json(entries, event.spoiler_free, keep, shown)
    if event.base_url:
        yield from sitemaps(event.base_url, entries, keep)


def _description(configs: ConfigSet) -> str:
    """The event's description as markup; the markdown parser is loaded only for one."""
    event = configs.event
    if not event.description:
        return ""
    from pgm.markdown import render_markdown

    return render_markdown(event.description, event.allow_html, breaks=False)


def live_json(entries: list[GameEntry], spoiler_free: bool, keep: bool = True,
              shown: Iterable[str] | None = None) -> Iterator[str]:
    """What the event index polls to refresh the rows of games in progress: compact
    JSON, ``{"games": [...]}`` with one object per game (kept per entry with ``keep``).
    A game's ``live`` says whether its pages follow the record (how often the index
    polls), ``in_progress`` whether its end is still to come (what "Games in progress"
    counts): a finished game followed for corrections is live and not in progress.

    ``shown`` is the event index as made with every game's status, turns and update time
    left out (its pieces of text); ``"index"`` is then a digest of it. It changes when
    anything else the index shows does (the title, the description, a game's label or
    errors, the set of games, the templates), so an open index downloads itself only
    then, not after every move."""
    game = _live_game if keep else _live_game.__wrapped__
    yield '{"games":['
    for number, entry in enumerate(entries):
        yield f"{',' if number else ''}{game(entry, spoiler_free)}"
    if shown is None:
        yield "]}"
        return
    digest = hashlib.sha256()
    for piece in shown:
        digest.update(piece.encode())
    yield f'],"index":"{digest.hexdigest()[:16]}"}}'


def _latest_update(entries: list[GameEntry]) -> str:
    """The time the index's "Games in progress · updated" gives: of the games in
    progress, not of a file changed long after them (a set of positions, a correction
    to a finished game still followed with ``live: true``)."""
    return max((e.updated for e in entries if e.in_progress), default="") or \
        max((e.updated for e in entries), default="")


@functools.lru_cache(maxsize=65_536)
def _live_game(entry: GameEntry, spoiler_free: bool) -> str:
    status = entry.short_status if spoiler_free else entry.status
    return json.dumps({"slug": entry.slug, "live": entry.live,
                       "in_progress": entry.in_progress, "turns": entry.turns,
                       "status": status, "updated": entry.updated},
                      ensure_ascii=False, separators=(",", ":"))


@functools.lru_cache(maxsize=65_536)
def _still(entry: GameEntry) -> GameEntry:
    """``entry`` less what the event index refreshes in place from live.json: the status
    (which a stop at an error or the end of the game changes too: the spoiler-free
    status says so), the number of turns, the row's class and the update time. Equal
    for every move of a game, so the index's rows made of it are kept across moves."""
    return dataclasses.replace(entry, status="", turns=0, live=False, updated="",
                               stopped_at=None, unfinished=False)


def _canonical(base_url: str | None, path: str) -> str | None:
    return f"{base_url.rstrip('/')}/{path}" if base_url else None


def _absolute_root(base_url: str | None) -> str:
    """The 404 page is served at any depth, so its links need an absolute root."""
    return base_url.rstrip("/") + "/" if base_url else "/"


def _players(common: dict[str, Any], entries: list[GameEntry], keep: bool,
             spoiler_free: bool) -> dict[str, Any]:
    """The values of ``players.html``: the players by division (``player_groups``), and
    every player once with all their games (``players``) for a theme's page made before
    divisions were; in the order of the standings, or by name in a spoiler-free event,
    whose order would tell the results."""
    groups = player_index(entries, keep, by_standing=not spoiler_free)
    everyone = groups if len(groups) < 2 else \
        player_index(entries, keep, by_division=False, by_standing=not spoiler_free)
    return dict(common, player_groups=groups,
                players=tuple(player for group in everyone for player in group.players),
                spoiler_free=spoiler_free)


SITEMAP_MAX_URLS = 50_000
SITEMAP_MAX_BYTES = 52_428_800
"""What one sitemap file may hold: URLs, and bytes uncompressed
(https://www.sitemaps.org/protocol.html). Read at each build, so a test can set less."""

SITEMAP_XMLNS = "http://www.sitemaps.org/schemas/sitemap/0.9"
_URLSET_HEAD = f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_XMLNS}">\n'
_URLSET_TAIL = "</urlset>\n"


def sitemaps(base_url: str, entries: list[GameEntry], keep: bool = True,
             max_urls: int | None = None, max_bytes: int | None = None
             ) -> Iterator[tuple[str, Iterator[str]]]:
    """``sitemap.xml`` listing every page of the site (the event's pages and each game's
    page and turn pages); or, when they are more than one file may list (``max_urls``
    URLs, ``max_bytes`` bytes: the protocol's limits by default), ``sitemap-1.xml``,
    ``sitemap-2.xml``... each as full as the limits let it be, then ``sitemap.xml`` as
    their sitemap index, written last. No game's slug holds a dot, so no game's folder
    can take one of these names. Each file's lines are made before it is yielded, and the
    second file's before the first is named: at most two files' worth is held."""
    max_urls = SITEMAP_MAX_URLS if max_urls is None else max_urls
    max_bytes = SITEMAP_MAX_BYTES if max_bytes is None else max_bytes
    base = base_url.rstrip("/")
    files = _sitemap_files(_sitemap_lines(base, entries, keep), max_urls,
                           max_bytes - len(_URLSET_HEAD) - len(_URLSET_TAIL))
    first = next(files)
    following = next(files, None)
    if following is None:
        yield "sitemap.xml", iter([_URLSET_HEAD, *first[0], _URLSET_TAIL])
        return
    listed: list[tuple[str, str]] = []
    for lines, latest in itertools.chain([first, following], files):
        name = f"sitemap-{len(listed) + 1}.xml"
        listed.append((name, latest))
        yield name, iter([_URLSET_HEAD, *lines, _URLSET_TAIL])
    yield "sitemap.xml", _sitemap_index(base, listed)


def _sitemap_lines(base: str, entries: list[GameEntry], keep: bool
                   ) -> Iterator[tuple[str, str]]:
    """Each ``<url>`` line of the site, with the time it gives (``<lastmod>``)."""
    game_urls = _game_urls if keep else _game_urls.__wrapped__
    latest = max((entry.updated for entry in entries), default="")
    for page in ("index.html", "players.html"):
        yield _url(base, page, latest), latest
    for entry in entries:
        for line in game_urls(base, entry.slug, entry.turns, entry.updated):
            yield line, entry.updated


def _sitemap_files(lines: Iterator[tuple[str, str]], max_urls: int, max_bytes: int
                   ) -> Iterator[tuple[list[str], str]]:
    """The lines in files of at most ``max_urls`` lines and ``max_bytes`` bytes (a line
    longer than that alone in its file), each with its latest time; one file, empty,
    when there are no lines."""
    lines_now: list[str] = []
    size, latest = 0, ""
    for line, updated in lines:
        length = len(line) if line.isascii() else len(line.encode("utf-8"))
        if lines_now and (len(lines_now) >= max_urls or size + length > max_bytes):
            yield lines_now, latest
            lines_now, size, latest = [], 0, ""
        lines_now.append(line)
        size += length
        latest = max(latest, updated)
    yield lines_now, latest


def _sitemap_index(base: str, files: list[tuple[str, str]]) -> Iterator[str]:
    """A sitemap index (https://www.sitemaps.org/protocol.html#index) of the site's
    sitemap files, each with the latest time of the pages it lists."""
    yield (f'<?xml version="1.0" encoding="UTF-8"?>\n'
           f'<sitemapindex xmlns="{SITEMAP_XMLNS}">\n')
    for name, latest in files:
        lastmod = f"<lastmod>{latest}</lastmod>" if latest else ""
        yield f"<sitemap><loc>{escape(f'{base}/{name}', quote=False)}</loc>{lastmod}</sitemap>\n"
    yield "</sitemapindex>\n"


@functools.lru_cache(maxsize=65_536)
def _game_urls(base: str, slug: str, turns: int, updated: str) -> tuple[str, ...]:
    """A game's lines of the sitemap: its page and every turn page, last changed when
    its record was (what a search engine reads to know which pages to fetch again)."""
    pages = ["index.html"] + [f"{n}.html" for n in range(1, turns + 1)]
    return tuple(_url(base, f"{slug}/{page}", updated) for page in pages)


def _url(base: str, path: str, updated: str) -> str:
    lastmod = f"<lastmod>{updated}</lastmod>" if updated else ""
    return f"<url><loc>{escape(f'{base}/{path}', quote=False)}</loc>{lastmod}</url>\n"

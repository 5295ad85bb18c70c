"""Render the files of the site: each game's folder, and the pages about the event.

Everything is returned as (path relative to the output, content) so the caller decides
how to write it: into a staging folder, or file by file with atomic renames.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from pgm.config import ConfigSet
from pgm.markdown import render_markdown
from pgm.site_model import GameEntry, group_games, player_index

if TYPE_CHECKING:
    from pgm.games import LoadedGame

Files = list[tuple[str, str | bytes]]


def common_context(configs: ConfigSet, root: str) -> dict[str, Any]:
    event = configs.event
    return {"event": event, "lang": "en", "canonical": None, "root": root,
            "event_css": [Path(css).name for css in event.css],
            "live_poll_seconds": event.live_poll_seconds}


def render_game_files(env: jinja2.Environment, configs: ConfigSet, game: LoadedGame) -> Files:
    slug = game.entry.slug
    common = common_context(configs, "../" * (slug.count("/") + 1))
    return [(f"{slug}/{name}", content) for name, content in game.render(env, common)]


def render_site_files(env: jinja2.Environment, configs: ConfigSet,
                      entries: list[GameEntry]) -> Files:
    event = configs.event
    common = common_context(configs, "")
    any_live = any(e.live for e in entries)
    pages = {
        "index.html": dict(common, description=render_markdown(event.description,
                                                              event.allow_html)
                           if event.description else "", divisions=group_games(entries),
                           spoiler_free=event.spoiler_free, any_live=any_live),
        "players.html": dict(common, players=player_index(entries),
                             spoiler_free=event.spoiler_free),
        "404.html": dict(common, root=_absolute_root(event.base_url)),
    }
    files: Files = [(name, env.get_template(name).render(
        context, canonical=_canonical(event.base_url, name))) for name, context in pages.items()]
    files.append(("live.json", json.dumps(live_summary(entries, event.spoiler_free),
                                          ensure_ascii=False, separators=(",", ":"))))
    if event.base_url:
        urls = ["index.html", "players.html"] + [
            f"{e.slug}/{page}" for e in entries
            for page in ["index.html"] + [f"{n}.html" for n in range(1, e.turns + 1)]]
        files.append(("sitemap.xml", _sitemap(event.base_url, urls)))
    return files


def live_summary(entries: list[GameEntry], spoiler_free: bool) -> dict[str, Any]:
    """What the event index polls to refresh the rows of games in progress."""
    return {"games": [{"slug": e.slug, "live": e.live, "turns": e.turns,
                       "status": ("in progress" if e.live else "finished") if spoiler_free
                       else e.status, "updated": e.updated} for e in entries]}


def _canonical(base_url: str | None, path: str) -> str | None:
    return f"{base_url.rstrip('/')}/{path}" if base_url else None


def _absolute_root(base_url: str | None) -> str:
    """The 404 page is served at any depth, so its links need an absolute root."""
    return base_url.rstrip("/") + "/" if base_url else "/"


def _sitemap(base_url: str, urls: list[str]) -> str:
    base = base_url.rstrip("/")
    items = "".join(f"<url><loc>{escape(f'{base}/{u}', quote=False)}</loc></url>\n" for u in urls)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{items}</urlset>\n")

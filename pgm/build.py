"""``pgm build``: records in, static site out.

Two phases: read and replay every record and build the indexes, then render every page
into a staging folder that replaces the previous site in one step. A broken record does
not stop the build: its game is rendered up to the problem and the build reports it.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import jinja2

from pgm.config import ConfigSet, GameSettings, load_configs
from pgm.crossword import replay
from pgm.crossword_pages import crossword_entry_fields, render_crossword_game
from pgm.diagnostics import Diagnostic, Severity
from pgm.discover import Source, assign_slugs, find_records, guess_division, guess_round, \
    guess_table
from pgm.gcg import parse_gcg
from pgm.markdown import render_markdown
from pgm.output import (
    MARKER,
    OutputError,
    check_output,
    discard,
    publish,
    staging_folder,
    write_file,
)
from pgm.render import make_environment
from pgm.resources import builtin_dir
from pgm.site_model import GameEntry, group_games, player_index, results


class BuildError(Exception):
    """The build cannot start or finish; nothing was changed in the output folder."""


@dataclass(frozen=True)
class BuildOptions:
    event_dir: Path
    out: Path | None = None
    strict: bool = False
    base_url: str | None = None


@dataclass
class BuildResult:
    out: Path
    games: int = 0
    pages: int = 0
    seconds: float = 0.0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    broken_games: list[str] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)

    def failed(self, strict: bool) -> bool:
        return self.errors > 0 or (strict and self.warnings > 0)


@dataclass
class _Game:
    """One record read and replayed, with what the pages need to render it."""

    source: Source
    entry: GameEntry
    data: bytes
    render: Callable[[jinja2.Environment, dict[str, Any]], Iterator[tuple[str, str | bytes]]]


Progress = Callable[[int], None]


def build(options: BuildOptions, progress: Callable[[int], Progress] | None = None
          ) -> BuildResult:
    started = time.perf_counter()
    event = options.event_dir
    if not event.is_dir():
        raise BuildError(f"{event} is not a folder")
    out = options.out or event / "_site"
    # Only a folder pgm made is skipped as output; any other is searched, so that an
    # output folder holding records is noticed and refused.
    records, skipped = find_records(event, exclude=[out] if (out / MARKER).is_file() else [])
    try:
        check_output(out, event, records)
    except OutputError as exc:
        raise BuildError(str(exc)) from None
    configs = load_configs(event, sorted({r.parent for r in records}),
                           {"base_url": options.base_url})
    if configs.has_errors:
        raise BuildError("the event configuration has errors:\n" +
                         "\n".join(str(d) for d in configs.diagnostics))
    result = BuildResult(out, diagnostics=list(configs.diagnostics))
    result.diagnostics += [Diagnostic(s.split(":")[0], 0, Severity.WARNING, s) for s in skipped]
    sources = assign_slugs(event, records)
    tick = progress(len(sources)) if progress else None
    games = []
    for source in sources:
        game = _read_game(source, configs)
        if tick:
            tick(1)
        if game is None:
            continue
        games.append(game)
        result.diagnostics += game.entry.diagnostics
        if game.entry.errors:
            result.broken_games.append(source.relative)
    result.games = len(games)
    result.pages = _write_site(configs, games, out)
    result.seconds = time.perf_counter() - started
    return result


def _read_game(source: Source, configs: ConfigSet) -> _Game | None:
    settings = configs.settings_for(source.path)
    if settings.draft:
        return None
    data = source.path.read_bytes()
    record = parse_gcg(data, source.relative)
    game = replay(record, distribution=settings.distribution, board=settings.board,
                  lexicon=settings.lexicon)
    if settings.orientation and "orientation" not in record.pragmas:
        game = replace(game, rules=replace(game.rules, orientation=settings.orientation))
    fields = crossword_entry_fields(game)
    entry = _entry(source, settings, "crossword", record.title, fields, game.diagnostics)

    def render(env: jinja2.Environment, common: dict[str, Any]
               ) -> Iterator[tuple[str, str | bytes]]:
        return render_crossword_game(env, entry, game, data, common)

    return _Game(source, entry, data, render)


def _entry(source: Source, settings: GameSettings, kind: str, record_title: str,
           fields: dict[str, Any], diagnostics: tuple[Diagnostic, ...]) -> GameEntry:
    players: tuple[str, ...] = fields["players"]
    scores: tuple[int, ...] | None = fields["scores"]
    live = settings.live if settings.live is not None else fields["live"]
    label = settings.title or record_title or " vs ".join(players) or source.relative
    if scores and not live:
        status = " – ".join(f"{p} {s}" for p, s in zip(players, scores, strict=False))
    elif scores:
        status = "in progress: " + "–".join(str(s) for s in scores)
    else:
        status = "in progress" if live else "finished"
    return GameEntry(
        slug=source.slug, relative=source.relative, kind=kind, label=label, players=players,
        scores=scores, live=live, status=status,
        result_by_seat=results(scores, not live) if scores else (),
        turns=fields["turns"],
        division=settings.division or guess_division(source.relative),
        round=settings.round or guess_round(source.relative),
        table=settings.table or guess_table(source.relative),
        diagnostics=diagnostics)


# ---------------------------------------------------------------------------------------
# Writing


def _write_site(configs: ConfigSet, games: list[_Game], out: Path) -> int:
    theme_dir = _theme_dir(configs)
    env = make_environment(theme_dir)
    stage = staging_folder(out)
    try:
        pages = _render_all(env, configs, games, stage, theme_dir)
        publish(stage, out)
    except jinja2.TemplateError as exc:
        discard(stage)
        raise BuildError(f"template error in {_failing_template(exc)}: {exc.message}") from None
    except OSError as exc:
        discard(stage)
        raise BuildError(f"cannot write the site: {exc.strerror}: {exc.filename}") from None
    except BaseException:
        discard(stage)
        raise
    return pages


def _failing_template(exc: BaseException) -> str:
    """The template and line an error was raised from (Jinja rewrites the traceback)."""
    where = getattr(exc, "filename", None) or "a template"
    line = getattr(exc, "lineno", None)
    trace = exc.__traceback__
    while trace is not None:
        name = trace.tb_frame.f_code.co_filename
        if name.endswith((".html", ".xml")):
            where, line = name, trace.tb_lineno
        trace = trace.tb_next
    return f"{where}, line {line}" if line else where


def _render_all(env: jinja2.Environment, configs: ConfigSet, games: list[_Game], stage: Path,
                theme_dir: Path | None) -> int:
    event = configs.event
    _copy_static(configs, stage, theme_dir)
    entries = [g.entry for g in games]
    common = _common(configs)
    pages = 0
    for name, context in (("index.html", dict(
            common, root="", description=render_markdown(event.description, event.allow_html)
            if event.description else "", divisions=group_games(entries),
            spoiler_free=event.spoiler_free, problems=[])),
            ("players.html", dict(common, root="", players=player_index(entries),
                                  spoiler_free=event.spoiler_free)),
            ("404.html", dict(common, root=_absolute_root(event.base_url)))):
        write_file(stage / name, env.get_template(name).render(
            context, canonical=_canonical(event.base_url, name)))
        pages += 1
    urls = ["index.html", "players.html"]
    for game in games:
        depth = game.source.slug.count("/") + 1
        game_common = dict(common, root="../" * depth)
        for name, content in game.render(env, game_common):
            path = stage / game.source.slug / name
            write_file(path, content)
            if name.endswith(".html"):
                pages += 1
                urls.append(f"{game.source.slug}/{name}")
    if event.base_url:
        write_file(stage / "sitemap.xml", _sitemap(event.base_url, urls))
    return pages


def _common(configs: ConfigSet) -> dict[str, Any]:
    event = configs.event
    return {"event": event, "lang": "en", "canonical": None,
            "event_css": [Path(css).name for css in event.css]}


def _canonical(base_url: str | None, path: str) -> str | None:
    return f"{base_url.rstrip('/')}/{path}" if base_url else None


def _absolute_root(base_url: str | None) -> str:
    """The 404 page is served at any depth, so its links need an absolute root."""
    return base_url.rstrip("/") + "/" if base_url else "/"


def _sitemap(base_url: str, urls: list[str]) -> str:
    from xml.sax.saxutils import escape

    base = base_url.rstrip("/")
    items = "".join(f"<url><loc>{escape(f'{base}/{u}')}</loc></url>\n" for u in urls)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{items}</urlset>\n")


def _theme_dir(configs: ConfigSet) -> Path | None:
    name = configs.event.theme_dir
    if not name:
        return None
    path = _inside_event(configs.root, name, "theme_dir")
    if not path.is_dir():
        raise BuildError(f"{configs.root / 'event.yaml'}: key 'theme_dir': folder {name} "
                         "does not exist")
    return path


def _inside_event(root: Path, name: str, key: str) -> Path:
    path = (root / name).resolve()
    if not path.is_relative_to(root.resolve()):
        raise BuildError(f"{root / 'event.yaml'}: key '{key}': {name} is outside the event "
                         "folder")
    return path


def _copy_static(configs: ConfigSet, stage: Path, theme_dir: Path | None) -> None:
    """Built-in static files first, then the theme's, then the event's css files: later
    ones replace earlier ones of the same name."""
    target = stage / "static"
    shutil.copytree(builtin_dir("static"), target)
    if theme_dir is not None and (theme_dir / "static").is_dir():
        shutil.copytree(theme_dir / "static", target, dirs_exist_ok=True)
    for css in configs.event.css:
        source = _inside_event(configs.root, css, "css")
        if not source.is_file():
            raise BuildError(f"{configs.root / 'event.yaml'}: key 'css': file {css} does not "
                             "exist")
        shutil.copyfile(source, target / source.name)

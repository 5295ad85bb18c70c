"""``pgm build``: records in, static site out.

Two phases: read and replay every record and build the indexes, then render. A first
build (or one after templates or the event configuration changed) renders everything
into a staging folder swapped in with one rename. Later builds compare fingerprints
kept in the output and rewrite only the changed games and the index pages, each file
by an atomic rename; a build with nothing changed writes nothing.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import jinja2

from pgm import __version__
from pgm.config import ConfigSet, load_configs
from pgm.diagnostics import Diagnostic, Severity
from pgm.discover import Source, assign_slugs, find_records
from pgm.games import LoadedGame, load_game
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
from pgm.site_model import GameEntry
from pgm.site_pages import Files, render_game_files, render_site_files
from pgm.state import STATE_NAME, BuildState, GameState, atomic_write, fingerprint, \
    load_state, tree_fingerprint


class BuildError(Exception):
    """The build cannot start or finish; nothing was changed in the output folder."""


@dataclass(frozen=True)
class BuildOptions:
    event_dir: Path
    out: Path | None = None
    strict: bool = False
    base_url: str | None = None
    keep_last_good: bool = False
    """Keep a game's pages when its record stops replaying cleanly (an editor's
    half-written save while watching); the pages come back once it parses again."""


@dataclass
class BuildResult:
    out: Path
    games: int = 0
    pages: int = 0
    rendered_games: int = 0
    """Games replayed and rendered by this build (0: nothing had changed)."""
    files_written: int = 0
    seconds: float = 0.0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    broken_games: list[str] = field(default_factory=list)
    kept_games: list[str] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)

    def failed(self, strict: bool) -> bool:
        return self.errors > 0 or (strict and self.warnings > 0)


Progress = Callable[[int], None]


@dataclass
class _Plan:
    """Every game of the event, either replayed now or carried over from the state."""

    fresh: list[tuple[LoadedGame, str]] = field(default_factory=list)
    kept: dict[str, GameState] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)


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
    theme_dir = _theme_dir(configs)
    site_print = _site_fingerprint(configs, theme_dir)
    state = load_state(out) if (out / MARKER).is_file() else None
    incremental = state is not None and state.site_fingerprint == site_print
    result = BuildResult(out, diagnostics=list(configs.diagnostics))
    result.diagnostics += [Diagnostic(s.split(":")[0], 0, Severity.WARNING, s) for s in skipped]
    sources = assign_slugs(event, records)
    plan = _plan(sources, configs, state if incremental else None, options.keep_last_good,
                 progress)
    _summarise(plan, result)
    env = make_environment(theme_dir)
    try:
        if incremental and state is not None:
            _write_incremental(env, configs, plan, state, out, result)
        else:
            _write_full(env, configs, plan, out, theme_dir, site_print, result)
    except jinja2.TemplateError as exc:
        raise BuildError(f"template error in {_failing_template(exc)}: {exc.message}") from None
    except OSError as exc:
        raise BuildError(f"cannot write the site: {exc.strerror}: {exc.filename}") from None
    result.seconds = time.perf_counter() - started
    return result


def _plan(sources: list[Source], configs: ConfigSet, state: BuildState | None,
          keep_last_good: bool, progress: Callable[[int], Progress] | None) -> _Plan:
    plan = _Plan()
    tick = progress(len(sources)) if progress else None
    for source in sources:
        settings = configs.settings_for(source.path)
        if tick:
            tick(1)
        if settings.draft:
            continue
        data = source.path.read_bytes()
        game_print = fingerprint(data, repr(settings), source.relative)
        old = state.games.get(source.slug) if state else None
        plan.order.append(source.slug)
        if old is not None and old.fingerprint == game_print:
            plan.kept[source.slug] = old
            continue
        game = load_game(source, settings, data)
        if keep_last_good and old is not None and old.clean and game.entry.errors:
            # The last good pages stay; the new problems are still reported.
            entry = replace(old.entry, diagnostics=game.entry.diagnostics)
            plan.kept[source.slug] = GameState(old.fingerprint, entry, old.files, True)
            continue
        plan.fresh.append((game, game_print))
    return plan


def _summarise(plan: _Plan, result: BuildResult) -> None:
    entries = [g.entry for g, _ in plan.fresh] + [s.entry for s in plan.kept.values()]
    result.games = len(entries)
    result.rendered_games = len(plan.fresh)
    for entry in entries:
        result.diagnostics += entry.diagnostics
        if entry.errors:
            result.broken_games.append(entry.relative)


def _entries(plan: _Plan) -> list[GameEntry]:
    fresh = {g.entry.slug: g.entry for g, _ in plan.fresh}
    return [fresh[slug] if slug in fresh else plan.kept[slug].entry for slug in plan.order]


# ---------------------------------------------------------------------------------------
# Full build: everything into a staging folder, swapped in at once


def _write_full(env: jinja2.Environment, configs: ConfigSet, plan: _Plan, out: Path,
                theme_dir: Path | None, site_print: str, result: BuildResult) -> None:
    if plan.kept:  # a full build renders every game, whatever the state said
        raise AssertionError("full builds start without a state")
    stage = staging_folder(out)
    try:
        _copy_static(configs, stage, theme_dir)
        state = BuildState(site_print)
        entries = _entries(plan)
        for game, game_print in plan.fresh:
            files = render_game_files(env, configs, game)
            for path, content in files:
                write_file(stage / path, content)
            state.games[game.entry.slug] = GameState(game_print, game.entry,
                                                     [p for p, _ in files],
                                                     not game.entry.errors)
            result.pages += sum(1 for p, _ in files if p.endswith(".html"))
        site = render_site_files(env, configs, entries)
        for path, content in site:
            write_file(stage / path, content)
        result.pages += sum(1 for p, _ in site if p.endswith(".html"))
        state.site_files = [p for p, _ in site]
        write_file(stage / STATE_NAME, state.to_json())
        result.files_written = sum(1 for p in stage.rglob("*") if p.is_file())
        publish(stage, out)
    except BaseException:
        discard(stage)
        raise


# ---------------------------------------------------------------------------------------
# Incremental build: changed games and the index pages, file by file


def _write_incremental(env: jinja2.Environment, configs: ConfigSet, plan: _Plan,
                       state: BuildState, out: Path, result: BuildResult) -> None:
    removed = [slug for slug in state.games if slug not in plan.order]
    result.pages = sum(sum(1 for f in g.files if f.endswith(".html"))
                       for g in plan.kept.values())
    if not plan.fresh and not removed:
        result.pages += sum(1 for f in state.site_files if f.endswith(".html"))
        return
    # Render everything first: a template error must not leave half an update behind.
    rendered = [(game, game_print, render_game_files(env, configs, game))
                for game, game_print in plan.fresh]
    site = render_site_files(env, configs, _entries(plan))
    new_state = BuildState(state.site_fingerprint, dict(plan.kept), [p for p, _ in site])
    for game, game_print, files in rendered:
        result.files_written += _write_files(out, files)
        old = state.games.get(game.entry.slug)
        _remove_stale(out, old.files if old else [], {p for p, _ in files})
        new_state.games[game.entry.slug] = GameState(game_print, game.entry,
                                                     [p for p, _ in files],
                                                     not game.entry.errors)
        result.pages += sum(1 for p, _ in files if p.endswith(".html"))
    result.files_written += _write_files(out, site)
    for slug in removed:
        _remove_stale(out, state.games[slug].files, set())
    result.pages += sum(1 for p, _ in site if p.endswith(".html"))
    atomic_write(out / STATE_NAME, new_state.to_json())


def _write_files(out: Path, files: Files) -> int:
    """Pages first, then ``game.json`` and index pages, so no link or poll points at a
    page that is not there yet."""
    ordered = sorted(files, key=lambda f: (f[0].endswith(("game.json", "index.html",
                                                          "live.json")), f[0]))
    return sum(atomic_write(out / path, content) for path, content in ordered)


def _remove_stale(out: Path, old_files: list[str], keep: set[str]) -> None:
    """Delete files this site listed before and no longer produces (and emptied folders)."""
    folders = set()
    for name in old_files:
        if name in keep:
            continue
        path = out / name
        path.unlink(missing_ok=True)
        folders.add(path.parent)
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        while folder != out and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent


# ---------------------------------------------------------------------------------------
# Inputs that shape the whole site


def _site_fingerprint(configs: ConfigSet, theme_dir: Path | None) -> str:
    css = [_inside_event(configs.root, name, "css") for name in configs.event.css]
    return fingerprint(__version__, repr(configs.event),
                       tree_fingerprint(builtin_dir("templates"), builtin_dir("static"),
                                        theme_dir),
                       *(p.read_bytes() if p.is_file() else b"" for p in css))


def _failing_template(exc: BaseException) -> str:
    """The template and line an error was raised from (Jinja rewrites the traceback)."""
    where = getattr(exc, "filename", None) or "a template"
    line = getattr(exc, "lineno", None)
    trace = exc.__traceback__
    while trace is not None:
        name = trace.tb_frame.f_code.co_filename
        if name.endswith((".html", ".xml", ".json")):
            where, line = name, trace.tb_lineno
        trace = trace.tb_next
    return f"{where}, line {line}" if line else where


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

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
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from pgm import __version__
from pgm.config import ConfigSet, load_configs
from pgm.diagnostics import Diagnostic, Severity
from pgm.discover import assign_slugs, find_records, relative_posix
from pgm.event_moves import NAME as MOVES_NAME
from pgm.event_moves import replace_event_moves, write_event_moves
from pgm.output import (
    MARKER,
    OutputError,
    check_output,
    discard,
    publish,
    remove_leftovers,
    staging_folder,
    write_file,
)
from pgm.render import make_environment
from pgm.resources import builtin_dir
from pgm.site_model import GameEntry
from pgm.site_pages import render_site_files
from pgm.state import (
    BuildState,
    GameState,
    atomic_write,
    fingerprint,
    load_state,
    save_state,
    tree_fingerprint,
)
from pgm.workers import GameTask, default_jobs, remove_stale, run_tasks


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
    jobs: int = field(default_factory=default_jobs)
    """Worker processes for rendering games (1: no workers)."""


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
    """Every game of the event: to be (re)rendered now, or carried over from the state."""

    tasks: list[GameTask] = field(default_factory=list)
    kept: dict[str, GameState] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)


def build(options: BuildOptions, progress: Callable[[int], Progress] | None = None
          ) -> BuildResult:
    started = time.perf_counter()
    event = options.event_dir
    if not event.is_dir():
        raise BuildError(f"{event} is not a folder")
    out = options.out or event / "_site"
    if options.base_url and not options.base_url.startswith(("http://", "https://")):
        raise BuildError(f"--base-url must be an absolute address such as "
                         f"https://example.org/event/, not {options.base_url!r}")
    # Only a folder pgm made is skipped as output; any other is searched, so that an
    # output folder holding records is noticed and refused.
    records, skipped = find_records(event, exclude=[out] if (out / MARKER).is_file() else [])
    try:
        check_output(out, event, records)
    except OutputError as exc:
        raise BuildError(str(exc)) from None
    configs = load_configs(event, sorted({r.parent for r in records}),
                           {"base_url": options.base_url})
    configs.records = records
    if configs.has_errors:
        raise BuildError("the event configuration has errors:\n" +
                         "\n".join(str(d) for d in configs.diagnostics))
    theme_dir = _theme_dir(configs)
    site_print = _site_fingerprint(configs, theme_dir)
    remove_leftovers(out)
    state = load_state(out) if (out / MARKER).is_file() else None
    if state is not None and state.site_fingerprint != site_print:
        state = None  # templates, configuration or pgm changed: render everything
    result = BuildResult(out, diagnostics=list(configs.diagnostics))
    result.diagnostics += [Diagnostic(s.split(":")[0], 0, Severity.WARNING, s) for s in skipped]
    try:
        if state is not None:
            _build_incremental(options, configs, theme_dir, state, out, result, progress)
        else:
            _build_full(options, configs, theme_dir, site_print, out, result, progress)
    except jinja2.TemplateError as exc:
        raise BuildError(f"template error in {_failing_template(exc)}: {exc.message}") from None
    except OSError as exc:
        raise BuildError(f"cannot write the site: {exc.strerror}: {exc.filename}") from None
    result.seconds = time.perf_counter() - started
    return result


def _plan(options: BuildOptions, configs: ConfigSet, state: BuildState | None, target: Path
          ) -> _Plan:
    """Which games need rendering: all of them without a state, else the changed ones."""
    plan = _Plan()
    for source in assign_slugs(configs.root, configs.records):
        settings = configs.settings_for(source.path)
        if settings.draft:
            continue
        game_print = fingerprint(source.path.read_bytes(), repr(settings), source.relative)
        old = state.games.get(source.slug) if state else None
        plan.order.append(source.slug)
        if old is not None and old.fingerprint == game_print:
            plan.kept[source.slug] = old
        else:
            plan.tasks.append(GameTask(source, settings, game_print, target, state is not None,
                                       old, options.keep_last_good))
    return plan


def _run(plan: _Plan, options: BuildOptions, configs: ConfigSet, theme_dir: Path | None,
         result: BuildResult, progress: Callable[[int], Progress] | None
         ) -> dict[str, GameState]:
    """Render the planned games; returns the state of every game of the event."""
    states = dict(plan.kept)
    tick = progress(len(plan.tasks)) if progress and plan.tasks else None
    for task, outcome in zip(plan.tasks, run_tasks(plan.tasks, configs, theme_dir,
                                                   options.jobs, tick), strict=True):
        states[task.source.slug] = outcome.state
        result.rendered_games += not outcome.kept
        result.files_written += outcome.files_written
    for slug in plan.order:
        entry = states[slug].entry
        result.pages += sum(1 for f in states[slug].files if f.endswith(".html"))
        result.diagnostics += entry.diagnostics
        if entry.errors:
            result.broken_games.append(entry.relative)
    result.games = len(plan.order)
    return states


def _entries(plan: _Plan, states: dict[str, GameState]) -> list[GameEntry]:
    return [states[slug].entry for slug in plan.order]


def _export_order(configs: ConfigSet, entries: list[GameEntry]) -> list[str]:
    """Slugs in the order ``pgm export`` finds the records (the event's moves.csv)."""
    found = {relative_posix(configs.root, path): index
             for index, path in enumerate(configs.records)}
    return [e.slug for e in sorted(entries, key=lambda e: found.get(e.relative, len(found)))]


# ---------------------------------------------------------------------------------------
# Full build: everything into a staging folder, swapped in at once


def _build_full(options: BuildOptions, configs: ConfigSet, theme_dir: Path | None,
                site_print: str, out: Path, result: BuildResult,
                progress: Callable[[int], Progress] | None) -> None:
    stage = staging_folder(out)
    try:
        plan = _plan(options, configs, None, stage)
        _copy_static(configs, stage, theme_dir)
        states = _run(plan, options, configs, theme_dir, result, progress)
        env = make_environment(theme_dir)
        entries = _entries(plan, states)
        site = render_site_files(env, configs, entries)
        for path, content in site:
            write_file(stage / path, content)
        layout = write_event_moves(stage, stage / MOVES_NAME, _export_order(configs, entries))
        result.pages += sum(1 for p, _ in site if p.endswith(".html"))
        state = BuildState(site_print, states, [p for p, _ in site] + [MOVES_NAME], layout)
        save_state(stage, state)
        result.files_written += len(site) + 2
        publish(stage, out)
    except BaseException:
        discard(stage)
        raise


# ---------------------------------------------------------------------------------------
# Incremental build: changed games and the index pages, file by file


def _build_incremental(options: BuildOptions, configs: ConfigSet, theme_dir: Path | None,
                       state: BuildState, out: Path, result: BuildResult,
                       progress: Callable[[int], Progress] | None) -> None:
    plan = _plan(options, configs, state, out)
    removed = [slug for slug in state.games if slug not in plan.order]
    states = _run(plan, options, configs, theme_dir, result, progress)
    unchanged = all(s is state.games.get(slug) for slug, s in states.items())
    if not result.rendered_games and not removed and unchanged:
        result.pages += sum(1 for p in state.site_files if p.endswith(".html"))
        return
    env = make_environment(theme_dir)
    entries = _entries(plan, states)
    site = render_site_files(env, configs, entries)
    result.pages += sum(1 for p, _ in site if p.endswith(".html"))
    result.files_written += sum(atomic_write(out / path, content) for path, content in site)
    same = frozenset(slug for slug, s in states.items() if s is state.games.get(slug))
    layout = replace_event_moves(out, _export_order(configs, entries), state.moves_layout, same)
    result.files_written += 1
    for slug in removed:
        remove_stale(out, state.games[slug].paths, set())
    new_state = BuildState(state.site_fingerprint, states, [p for p, _ in site] + [MOVES_NAME],
                           layout)
    save_state(out, new_state, keep=True)


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

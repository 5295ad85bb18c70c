"""``pgm build``: records in, static site out.

Two phases: read and replay every record and build the indexes, then render. A first
build (or one after templates or the event configuration changed) renders everything
into a staging folder swapped in with one rename. Later builds compare fingerprints
kept in the output and rewrite only the changed games and the index pages, each file
by an atomic rename; a build with nothing changed writes nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pgm.build_errors import BuildError, OutputFolderError
from pgm.changes import Change, Plan, plan_games
from pgm.config import ConfigSet, base_url_problem, load_configs
from pgm.config_kept import load_kept_configs
from pgm.diagnostics import Diagnostic, Severity
from pgm.discover import (
    Source,
    make_sources,
    shown_name,
    skipped_warnings,
    tree_files,
    walk_records,
)
from pgm.event_checks import name_variants, players_at_two_tables, repeated_games, same_places
from pgm.file_io import atomic_write
from pgm.in_place import STAGING_MARK, InPlaceWrites, remove_killed_rebuilds
from pgm.output import (
    MARKER,
    OutputError,
    carry_over,
    check_output,
    discard,
    keep_times_if_unchanged,
    publish,
    remove_leftovers,
    site_folder,
    staging_folder,
)
from pgm.record_inputs import in_built_site, no_records
from pgm.site_inputs import copy_static, site_fingerprint, theme_dir, why_remade
from pgm.site_lock import writing_alone
from pgm.state import (
    BuildState,
    GameState,
    load_state,
    save_state,
)
from pgm.wrong_folder import wrong_folder

if TYPE_CHECKING:
    from pgm.event_moves import Layout
    from pgm.site_model import GameEntry


@dataclass(frozen=True)
class BuildOptions:
    event_dir: Path
    out: Path | None = None
    strict: bool = False
    base_url: str | None = None
    keep_last_good: bool = False
    """Keep a game's pages when its record stops replaying cleanly (an editor's
    half-written save while watching); the pages come back once it parses again."""
    jobs: int | None = None
    """Worker processes for rendering games (1: no workers; None: one per core)."""
    preview: bool = False
    """A local preview (``pgm serve``): built with no public address, whatever
    ``base_url`` says, so that the pages that name the site's address (the 404 page,
    canonical links, the sitemap) lead within the preview, wherever it is opened."""
    good_configs: dict[Path, bytes] | None = field(default=None, compare=False)
    """While watching: each ``event.yaml``'s last text without errors, read in place of
    a save with errors (pgm.config_kept); None: a configuration with errors stops the
    build."""


@dataclass
class BuildResult:
    out: Path
    games: int = 0
    pages: int = 0
    rebuilt: list[str] = field(default_factory=list)
    """The records replayed and rendered by this build (none: nothing had changed),
    named as its diagnostics name them."""
    files_written: int = 0
    seconds: float = 0.0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    broken_games: list[str] = field(default_factory=list)
    """Records with errors, those not shown among them."""
    not_shown: list[str] = field(default_factory=list)
    """Records that could not be read, or that pgm failed on: a page says so."""
    kept: list[str] = field(default_factory=list)
    """The records whose games' last good pages were kept while they do not replay,
    named as ``rebuilt`` names them. Such a record is tried again at every build."""
    kept_saved: list[str] = field(default_factory=list)
    """Those of ``kept`` saved again since the build before (a new mistake, or the same
    still there): the others were only tried again."""
    settling: list[str] = field(default_factory=list)
    """Records just saved in a way that looks caught half-way (turns taken back, a new
    warning): their last pages are kept until they are left alone a moment
    (``pgm.state.SAVE_SETTLE_NS``), and ``pgm watch`` builds again then."""
    removed: list[str] = field(default_factory=list)
    """Records gone since the build before (deleted, renamed, made drafts), whose games'
    files a rebuild took away."""
    in_progress: list[str] = field(default_factory=list)
    """Records of games in progress: their pages follow the record (and say so)."""
    idle: list[str] = field(default_factory=list)
    """Those of ``in_progress`` unchanged for over a day (``IDLE_SECONDS``): an archive's
    abandoned games, or records that lost their last lines, more likely than play."""
    followed: list[str] = field(default_factory=list)
    """Records that end their games and still have their pages follow them, for
    corrections (``live: true``)."""
    records: int = 0
    """Records found, drafts too (``games`` leaves drafts out)."""
    missing: str | None = None
    """A file the site had, found missing (deleted by hand): the site was made again."""
    remade: str = ""
    """Why the whole site was made again when the pgm, theme or configuration it was
    made with changed (``pgm.site_inputs.why_remade``); "" when it was not."""
    kept_configs: list[str] = field(default_factory=list)
    """The ``event.yaml`` files with errors read at their last good version (watching)."""
    incremental: bool = False
    """Only the changed records were rendered; the site's other games were kept."""

    @property
    def rendered_games(self) -> int:
        return len(self.rebuilt)

    @property
    def kept_games(self) -> int:
        return len(self.kept)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)

    def failed(self, strict: bool) -> bool:
        return self.errors > 0 or (strict and self.warnings > 0)


Progress = Callable[[int], None]

_WRITE_BUFFER = 1 << 20
"""Pages about the event are written in pieces of a few hundred bytes."""


@dataclass(frozen=True)
class _Event:
    """What a build found in the event folder."""

    configs: ConfigSet
    sources: tuple[Source, ...]
    """Every record, sorted by path."""
    found: list[str]
    """Every record's path below the event folder, in the order ``pgm export`` finds them."""
    theme_files: list[tuple[str, str]]
    """The theme's files: the only ones read, as templates, and copied, as static files
    (``pgm.discover.tree_files``)."""
    empty: Diagnostic | None = None
    """The warning of an event with no records yet (see pgm.record_inputs.no_records)."""


def build(options: BuildOptions, progress: Callable[[int], Progress] | None = None,
          waiting: Callable[[str], None] | None = None) -> BuildResult:
    """Build the site, or update it; one build at a time writes a site (see
    pgm.site_lock): ``waiting`` hears when this one waits for another."""
    with contextlib.ExitStack() as held:
        def hold(out: Path) -> None:
            held.enter_context(writing_alone(out, waiting))
        return _build(options, progress, hold)


def _build(options: BuildOptions, progress: Callable[[int], Progress] | None,
           hold: Callable[[Path], None]) -> BuildResult:
    started = time.perf_counter()
    event_dir = options.event_dir
    if not event_dir.is_dir():
        raise BuildError(f"{event_dir} " + ("is not a folder" if event_dir.exists()
                                            else "does not exist"))
    if (site := in_built_site(event_dir)) is not None:
        raise BuildError(f"{shown_name(str(event_dir))}: {site}")
    out = options.out or event_dir / "_site"
    if options.base_url is not None and (problem := base_url_problem(options.base_url)):
        raise BuildError(f"--base-url {problem}")
    event, state, skipped = _read_event(options, out, hold)
    site_print = site_fingerprint(event.configs, event.theme_files)
    remove_leftovers(out)
    replaced = None
    result = BuildResult(out, diagnostics=[*event.configs.set_aside,
                                           *event.configs.diagnostics],
                         records=len(event.found),
                         kept_configs=sorted({d.path for d in event.configs.set_aside}))
    if state is not None:
        if state.site_fingerprint == site_print:
            result.missing = state.first_missing(out)
        else:
            result.remade = why_remade(state.site_fingerprint, site_print)
        if state.site_fingerprint != site_print or result.missing:
            # templates, configuration or pgm changed, or a file of the site went
            # missing: render everything
            replaced, state = state, None
    if event.empty is not None:  # an event with no records yet (_read_event refused others)
        result.diagnostics.append(event.empty)
    wrong = wrong_folder(event_dir, (overlay.folder for overlay in event.configs.overlays))
    if wrong is not None:
        result.diagnostics.append(wrong)
    result.diagnostics += skipped_warnings(skipped)
    try:
        if state is not None:
            _build_incremental(options, event, state, out, result, progress)
        else:
            _build_full(options, event, site_print, out, result, progress, replaced)
    except Exception as exc:
        error = _build_error(exc)
        if error is None:
            raise
        raise error from None
    result.seconds = time.perf_counter() - started
    return result


def _read_event(options: BuildOptions, out: Path, hold: Callable[[Path], None]
                ) -> tuple[_Event, BuildState | None, list[str]]:
    """The records, their slugs and the configuration, the previous build's state (if
    ``out`` is a site pgm built and its state is readable) and problems met on the way.

    Every game the previous build made keeps its slug, even when templates or the
    configuration changed and everything is rendered again: a record added since
    never takes the address of a game that had it."""
    root = options.event_dir
    found, skipped = walk_records(root)
    empty = None if found else no_records(root)
    if empty is not None and empty.severity is Severity.ERROR:
        raise BuildError(f"{empty.path}: {empty.message}")  # the wrong folder: write nothing
    try:
        check_output(out, root, _records_below(out, root, found))
    except OutputError as exc:
        raise OutputFolderError(str(exc)) from None
    hold(out)  # the site's lock, before its state is read
    state = load_state(out, found) if (out / MARKER).is_file() else None
    sources = make_sources(root, found, state.slugs() if state is not None else None)
    overrides = {"base_url": options.base_url}
    if options.good_configs is None:
        configs = load_configs(root, found, overrides)
    else:
        configs = load_kept_configs(root, found, overrides, options.good_configs)
    if options.preview:
        configs.event = replace(configs.event, base_url=None)
    if configs.has_errors:
        raise BuildError("the event configuration has errors:\n" +
                         "\n".join(str(d) for d in configs.diagnostics))
    theme = theme_dir(configs)
    theme_files, odd = tree_files(theme, root.resolve()) if theme else ([], [])
    # a theme's folder is below the event: a link in it is named once, not by both walks
    return _Event(configs, sources, found, theme_files, empty), state, \
        skipped + [problem for problem in odd if problem not in skipped]


def _records_below(out: Path, root: Path, found: list[str]) -> list[Path]:
    """The records whose plain path lies below ``out``: the only ones the output check
    can refuse, found by their paths below the event instead of one ``abspath`` each
    (the default output folder is inside the event, and a watch session checks again
    at every rebuild)."""
    inside = os.path.join(os.path.abspath(out), "")
    event = os.path.join(os.path.abspath(root), "")
    if not inside.startswith(event):
        return []
    below = inside[len(event):].replace(os.sep, "/")
    return [Path(root, relative) for relative in found if relative.startswith(below)]


def _build_error(exc: Exception) -> BuildError | None:
    """The message for a template error, a failed write or an output folder pgm cannot
    replace; None for anything else.
    Jinja is imported only when a page is rendered, so a build that rendered nothing
    cannot have met a template error."""
    jinja2 = sys.modules.get("jinja2")
    if jinja2 is not None and isinstance(exc, jinja2.TemplateNotFound):
        return BuildError(f"template error in {_failing_template(exc)}: {_not_found(exc)}")
    if jinja2 is not None and isinstance(exc, jinja2.TemplateError):
        return BuildError(f"template error in {_failing_template(exc)}: {exc.message}")
    if isinstance(exc, OutputError):  # a file of the user's in the way of the new site
        return BuildError(str(exc))
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc) or type(exc).__name__
        where = f": {exc.filename}" if exc.filename is not None else ""
        return BuildError(f"cannot write the site: {reason}{where}")
    if jinja2 is not None:
        from pgm.render import template_frame

        if template_frame(exc) is not None:  # a template did something it cannot (1 + "x")
            return BuildError(f"template error in {_failing_template(exc)}: "
                              f"{type(exc).__name__}: {exc}")
    return None


def _not_found(exc: Exception) -> str:
    """What a ``TemplateNotFound`` (or ``TemplatesNotFound``, of an include of a list)
    missed, and where pgm looked: Jinja's message is the bare name."""
    names = list(getattr(exc, "templates", None) or [getattr(exc, "name", None)])
    if not all(isinstance(name, str) for name in names):
        return str(exc)
    if all(name.startswith("!default/") for name in names):
        looked = "pgm's templates"
    else:
        looked = "the theme's folder and pgm's templates"
    listed = ", ".join(repr(name) for name in names)
    if len(names) == 1:
        return f"template {listed} not found (looked in {looked})"
    return f"none of the templates {listed} found (looked in {looked})"


def _run(plan: Plan, options: BuildOptions, event: _Event, target: Path, in_place: bool,
         result: BuildResult, progress: Callable[[int], Progress] | None,
         last_site: Path | None = None, writes: InPlaceWrites | None = None
         ) -> dict[str, GameState]:
    """Render the planned games; returns the state of every game of the event.
    ``last_site``: the site a full build replaces (see ``GameTask.last_site``);
    ``writes``: where a rebuild in place keeps what it is to commit."""
    states = dict(plan.kept)
    if plan.changes:
        states.update(_render_games(plan, options, event, target, in_place, result, progress,
                                    last_site, writes))
    for slug in plan.order:
        game = states[slug]
        result.pages += game.pages
        result.diagnostics += _from_here(options.event_dir, game.diagnostics)
        if any(d.severity is Severity.ERROR for d in game.diagnostics):
            result.broken_games.append(game.entry.relative)
        if game.entry.failed:
            result.not_shown.append(game.entry.relative)
        if game.entry.in_progress:
            result.in_progress.append(game.entry.relative)
            if _idle(game.entry.updated):
                result.idle.append(game.entry.relative)
        elif game.entry.live:
            result.followed.append(game.entry.relative)
    entries = [states[slug].entry for slug in plan.order]

    def named(relative: str) -> str:
        return shown_name(str(options.event_dir / relative))

    result.diagnostics += _from_here(options.event_dir, repeated_games(entries, named) +
                                     name_variants(entries, named) +
                                     same_places(entries, named) +
                                     players_at_two_tables(entries, named))
    result.games = len(plan.order)
    return states


def _from_here(event_dir: Path, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Problems of the event's files named from where pgm runs (the event folder as
    given, then the file's path in it), as ``pgm check`` and the event.yaml's problems
    name them, so that a terminal or an editor opens them; the site names a record by
    its path in the event."""
    return [replace(d, path=shown_name(str(event_dir / d.path))) for d in diagnostics]


def _render_games(plan: Plan, options: BuildOptions, event: _Event, target: Path,
                  in_place: bool, result: BuildResult,
                  progress: Callable[[int], Progress] | None, last_site: Path | None,
                  writes: InPlaceWrites | None) -> dict[str, GameState]:
    """The changed games' new states. The worker machinery and the game kinds are
    imported here, so a build with nothing to render never loads them."""
    from pgm.workers import GameTask, default_jobs, run_tasks

    tick = progress(len(plan.changes)) if progress else None
    # The task list is not kept here: run_tasks holds what it needs.
    outcomes = run_tasks([GameTask(c.source, c.settings, c.fingerprint, target, in_place,
                                   c.previous, options.keep_last_good, last_site)
                          for c in plan.changes],
                         event.configs, tuple(event.theme_files), options.jobs or default_jobs(),
                         tick)
    states = {}
    try:
        for change, outcome in zip(plan.changes, outcomes, strict=True):
            if writes is not None:
                writes.staged += outcome.staged
                writes.stale += outcome.stale
                before = set(change.previous.paths) if change.previous else set()
                writes.new += (path for path in outcome.state.paths if path not in before)
            outcome.state.remember(change.record)
            states[change.source.slug] = outcome.state
            named = shown_name(str(options.event_dir / change.source.relative))
            if outcome.settling:
                result.settling.append(named)
            else:
                (result.kept if outcome.kept else result.rebuilt).append(named)
            if outcome.kept and not outcome.settling and _saved_again(change):
                result.kept_saved.append(named)
            result.files_written += outcome.files_written
    finally:
        # Stopped here (Ctrl-C between two outcomes), the workers are stopped before
        # the build removes what it wrote: none of theirs is written after.
        outcomes.close()
    return states


def _saved_again(change: Change) -> bool:
    """Whether the record's bytes differ from those the build before read."""
    before = change.previous.record if change.previous else None
    return before is None or before.digest != change.record.digest


def _entries(plan: Plan, states: dict[str, GameState]) -> list[GameEntry]:
    return [states[slug].entry for slug in plan.order]


def _export_order(event: _Event, states: dict[str, GameState]) -> list[str]:
    """Slugs in the order ``pgm export`` finds the records (the event's moves.csv)."""
    slugs = {source.relative: source.slug for source in event.sources}
    return [slugs[relative] for relative in event.found if slugs[relative] in states]


def _render_site(event: _Event, entries: list[GameEntry], keep: bool
                 ) -> Iterator[tuple[str, Iterator[str]]]:
    from pgm.render import make_environment
    from pgm.site_pages import render_site_files

    return render_site_files(make_environment(event.theme_files), event.configs, entries, keep)


# ---------------------------------------------------------------------------------------
# Full build: everything into a staging folder, swapped in at once


def _build_full(options: BuildOptions, event: _Event, site_print: str, out: Path,
                result: BuildResult, progress: Callable[[int], Progress] | None,
                replaced: BuildState | None = None) -> None:
    """``replaced``: the state of the site in ``out``, if it has one that can be read:
    what pgm made there, and what each game was (in progress, its last good pages kept
    with ``keep_last_good``)."""
    from pgm.event_moves import NAME as MOVES_NAME
    from pgm.event_moves import write_event_moves
    from pgm.workers import interrupts_held

    stage = staging_folder(out)
    try:
        plan = plan_games(event.configs, event.sources, None)
        if replaced is not None:
            plan.changes = [replace(c, previous=_same_game(replaced, c)) for c in plan.changes]
        static = copy_static(event.configs, stage, event.theme_files)
        last_site = out if replaced is not None else None
        states = _run(plan, options, event, stage, False, result, progress, last_site)
        if replaced is not None:
            result.removed += _gone(options.event_dir, replaced, states)
        site = []
        for path, chunks in _render_site(event, _entries(plan, states), keep=False):
            with open(stage / path, "w", encoding="utf-8", newline="",
                      buffering=_WRITE_BUFFER) as handle:
                handle.writelines(chunks)
            site.append(path)
        layout = write_event_moves(stage, stage / MOVES_NAME, _export_order(event, states))
        result.pages += sum(1 for p in site if p.endswith(".html"))
        save_state(stage, BuildState(site_print, states, site + [MOVES_NAME], layout,
                                     plan.drafts, static))
        result.files_written += len(site) + 2
        if last_site is not None:
            keep_times_if_unchanged(stage, last_site, [*static, *site, MOVES_NAME, MARKER])
        if (out / MARKER).is_file():
            carry_over(out, stage, _made_by_pgm(replaced, out, stage))
        with interrupts_held():  # the old site out of the way and the new one not in
            publish(stage, out)
    except BaseException:
        with interrupts_held():  # a second Ctrl-C does not leave half a staging folder
            discard(stage)
        raise


def _gone(event_dir: Path, replaced: BuildState, states: dict[str, GameState]) -> list[str]:
    """The records of the games the replaced site shows and the new one does not
    (deleted, renamed, made drafts), named from where pgm runs."""
    kept = {state.entry.relative for state in states.values()}
    return [shown_name(str(event_dir / game.entry.relative))
            for game in replaced.games.values() if game.entry.relative not in kept]


def _made_by_pgm(replaced: BuildState | None, out: Path, stage: Path
                 ) -> Callable[[str], bool]:
    """Whether a path below the site being replaced is pgm's: its marker and what the
    site's state lists. Without a state that can be read (a site of an older pgm),
    pgm's are what the new site has again and every file of a folder that holds a
    ``game.json`` (a game's: one removed or made a draft since must go, spoilers and
    all); all else is kept, a user's logo in ``static/`` too."""
    listed: Callable[[str], bool]
    if replaced is None:
        site = site_folder(out)

        def listed(relative: str) -> bool:
            return os.path.lexists(stage / relative) or _in_game_folder(site, relative)
    elif replaced.static_files is None:  # an older pgm's state lists no static files
        made = replaced.made_paths()

        def listed(relative: str) -> bool:
            return relative in made or (relative.startswith("static/")
                                        and os.path.lexists(stage / relative))
    else:
        listed = replaced.made_paths().__contains__
    return lambda relative: relative == MARKER or listed(relative)


def _in_game_folder(site: Path, relative: str) -> bool:
    folder = relative.rstrip("/").rpartition("/")[0]
    return bool(folder) and (site / folder / "game.json").is_file()


def _same_game(state: BuildState, change: Change) -> GameState | None:
    """The state ``state`` has of the game at ``change``'s slug, if it was made from the
    same record path (a new record that took a removed one's slug is another game)."""
    old = state.games.get(change.source.slug)
    return old if old is not None and old.entry.relative == change.source.relative else None


# ---------------------------------------------------------------------------------------
# Incremental build: changed games and the index pages, file by file


def _build_incremental(options: BuildOptions, event: _Event, state: BuildState, out: Path,
                       result: BuildResult, progress: Callable[[int], Progress] | None
                       ) -> None:
    remove_killed_rebuilds(out, state.games)
    result.incremental = True
    plan = plan_games(event.configs, event.sources, state)
    mark = out / f"{STAGING_MARK}{os.getpid()}"
    if plan.changes:
        mark.touch()
    # Ctrl-C and SIGTERM wait from when every file is made until the site's state is
    # saved (renames and small writes): the site is then this build's, not half of it.
    with contextlib.ExitStack() as putting_in_place:
        try:
            made = _made_in_place(options, event, state, out, plan, result, progress,
                                  putting_in_place)
            if made is not None:
                states, pages, removed = made
                site, layout = _update_event_files(event, states, state, pages, out, result)
        finally:
            mark.unlink(missing_ok=True)
        if made is None:
            result.pages += sum(1 for p in state.site_files if p.endswith(".html"))
            return
        if removed or plan.replaced:
            from pgm.workers import remove_stale

            for slug in removed:
                remove_stale(out, state.games[slug].paths, set())
                result.removed.append(shown_name(str(options.event_dir /
                                                     state.games[slug].entry.relative)))
            for old in plan.replaced:  # a removed record's slug, taken by a new one
                remove_stale(out, old.paths, set(states[old.entry.slug].paths))
        save_state(out, BuildState(state.site_fingerprint, states, site, layout, plan.drafts,
                                   state.static_files), keep=True)


def _made_in_place(options: BuildOptions, event: _Event, state: BuildState, out: Path,
                   plan: Plan, result: BuildResult,
                   progress: Callable[[int], Progress] | None,
                   putting_in_place: contextlib.ExitStack
                   ) -> tuple[dict[str, GameState], list[tuple[str, str]], list[str]] | None:
    """Render the changed games beside the files they replace and the event's pages,
    then put the games' files in place: (every game's state, the event's pages, the
    games removed), or None when nothing changed. Once everything is made,
    ``putting_in_place`` holds interruptions back (``interrupts_held``) until the caller
    is done."""
    from pgm.workers import interrupts_held

    writes = InPlaceWrites()
    folders = _folders_to_make(out, plan)
    try:
        states = _run(plan, options, event, out, True, result, progress, None, writes)
        removed = [slug for slug in state.games if slug not in states]
        unchanged = plan.drafts == state.drafts and \
            all(s is state.games.get(slug) for slug, s in states.items())
        if not result.rendered_games and not removed and unchanged:
            return None
        # Every page made before any is written: a template error writes nothing.
        pages = [(path, "".join(chunks))
                 for path, chunks in _render_site(event, _entries(plan, states), keep=True)]
        listed = set(state.site_files)
        writes.new += (path for path, _ in pages if path not in listed)
        writes.refuse_users_files(out, state, dict(pages))
        putting_in_place.enter_context(interrupts_held())
    except BaseException:
        with interrupts_held():  # a second Ctrl-C does not leave some of them
            writes.discard(out, (change.source.slug for change in plan.changes))
            for folder in folders:
                with contextlib.suppress(OSError):  # one that holds a file is not emptied
                    folder.rmdir()
        raise
    writes.commit(out)
    return states, pages, removed


def _folders_to_make(out: Path, plan: Plan) -> list[Path]:
    """The folders of the games new to the site that are not there yet, deepest first:
    a rebuild that fails (or is stopped) removes those it made once it has emptied them
    of its files, and no other."""
    missing: set[Path] = set()
    for change in plan.changes:
        if change.previous is not None:
            continue  # a game of the site: its folder is there
        folder = out / change.source.slug
        while folder != out and not os.path.lexists(folder):
            missing.add(folder)
            folder = folder.parent
    return sorted(missing, key=lambda folder: len(folder.parts), reverse=True)


def _update_event_files(event: _Event, states: dict[str, GameState], state: BuildState,
                        site: list[tuple[str, str]], out: Path, result: BuildResult
                        ) -> tuple[list[str], Layout]:
    """The pages about the event (``site``, made) and its moves.csv, each replaced only
    if its bytes change; returns the site files and the moves.csv layout."""
    from pgm.event_moves import NAME as MOVES_NAME
    from pgm.event_moves import replace_event_moves

    result.pages += sum(1 for p, _ in site if p.endswith(".html"))
    result.files_written += sum(atomic_write(out / path, content) for path, content in site)
    same = frozenset(slug for slug, s in states.items() if s is state.games.get(slug))
    layout, written = replace_event_moves(out, _export_order(event, states),
                                          state.moves_layout, same)
    result.files_written += written
    return [p for p, _ in site] + [MOVES_NAME], layout


def _failing_template(exc: BaseException) -> str:
    """The template and line an error was raised from (Jinja rewrites the traceback)."""
    from pgm.render import template_frame

    where, line = template_frame(exc) or (getattr(exc, "filename", None) or "a template",
                                          getattr(exc, "lineno", None))
    return f"{where}, line {line}" if line else where


IDLE_SECONDS = 86_400
"""How long a game in progress may go without a move before the build asks whether its
play is over: longer than any session of play."""


def _idle(updated: str) -> bool:
    """Whether a record's time (ISO, ``GameEntry.updated``) is over ``IDLE_SECONDS`` ago."""
    if not updated:
        return False
    return time.time() - datetime.fromisoformat(updated).timestamp() > IDLE_SECONDS

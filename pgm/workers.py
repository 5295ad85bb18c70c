"""Load, replay and render games, in parallel worker processes when there are many.

A worker gets a small task (where the record is, its settings, where to write) and
returns a small outcome (the index entry and the files written), so the main process
never holds the pages of the whole event: memory stays flat as events grow.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from pgm.config import ConfigSet, GameSettings
from pgm.discover import Source
from pgm.file_io import read_regular, stage_write
from pgm.output import write_files
from pgm.render import Theme, make_environment, placed, template_failure, template_frame
from pgm.resources import builtin_dir
from pgm.site_pages import render_game_files
from pgm.state import COARSE_SETTLED_NS, SAVE_SETTLE_NS, GameState, coarse_time

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from types import FrameType

    from pgm.diagnostics import Diagnostic
    from pgm.games import LoadedGame
    from pgm.site_model import GameEntry

_MIN_GAMES_FOR_WORKERS = 8

_Handler = Callable[[int, "FrameType | None"], object] | int | None
"""A signal's handler, as ``signal.signal`` takes and gives it."""


@dataclass(frozen=True)
class GameTask:
    source: Source
    settings: GameSettings
    fingerprint: str
    target: Path
    """Folder to write into: a staging folder, or the live output folder."""
    in_place: bool
    """Write by atomic rename and remove files the game no longer has (incremental)."""
    previous: GameState | None = None
    keep_last_good: bool = False
    last_site: Path | None = None
    """The site a full build replaces: a file written the same as there keeps its times;
    while the record does not replay cleanly (``keep_last_good``), the game is rendered
    from that site's copy of the record, the one its last good pages were made from."""
    parent: int | None = None
    """Process id of the build, when run in a worker process."""


@dataclass(frozen=True)
class GameOutcome:
    state: GameState
    kept: bool
    """The last good pages were kept (the record does not replay cleanly right now)."""
    files_written: int
    staged: tuple[tuple[str, str], ...] = ()
    """In place: (temporary file, file it replaces) for each file written, in the order
    to rename them once every changed game and index page is made
    (``pgm.in_place.InPlaceWrites``)."""
    stale: tuple[str, ...] = ()
    """In place: the game's files, relative to the output folder, to remove then."""
    settling: bool = False
    """The last pages were kept because the record, just saved, looks caught half-way
    (``_unsettled``): the watch builds again once it has been left alone."""


@dataclass
class _Worker:
    configs: ConfigSet
    env: jinja2.Environment
    load_game: Callable[[Source, GameSettings, bytes], LoadedGame]


_WORKER: list[_Worker] = []


def _init(configs: ConfigSet, theme: Theme) -> None:
    _WORKER[:] = [_Worker(configs, make_environment(theme), _game_loader())]


def _game_loader() -> Callable[[Source, GameSettings, bytes], LoadedGame]:
    """The readers, replays and page makers of every game kind are imported when a game
    is rendered, not before: a rebuild with nothing changed never needs them. The pool
    asks for them before it forks, so workers start with them loaded."""
    from pgm.games import load_game

    return load_game


def _init_process(configs: ConfigSet, theme: Theme) -> None:
    """A worker leaves Ctrl-C to the build, and must not outlive a build that was
    killed: it would go on writing into a staging folder the next build has already
    cleaned away."""
    _leave_stopping_to_the_build()
    _die_with_parent()
    _init(configs, theme)
    _collect_less()


_STOPS: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)
"""What stops a build: Ctrl-C, and what ``timeout``, CI runners, systemd and ``docker
stop`` send."""


def _leave_stopping_to_the_build() -> None:
    """Ctrl-C reaches every process of the terminal's group, the workers too; one stopped
    by it while it takes its next task holds the task queue's lock for ever, and the
    pool, which waits for it, with it. A worker ignores it: the build decides, and
    kills its workers (``_stop_workers``). SIGTERM kills a worker, as the pool's own
    ``terminate`` expects, not the build's handler it was forked with. Both signals are
    held from the fork (``_forking``) until then."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)


_YOUNG_OBJECTS = 50_000


def _collect_less() -> None:
    """A worker makes a few small objects per square, tile and turn, nearly all freed by
    reference counting at once; the collector's default of a pass every 700 new objects
    (which also walks everything inherited from the build process) costs about 1% of a
    worker's time for cycles that hardly occur."""
    gc.freeze()
    gc.set_threshold(_YOUNG_OBJECTS)


_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    import ctypes.util  # loaded by _run_in_pool before the workers fork

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # not Linux: the orphan check in run_task still stops it
    if os.getppid() == 1:
        os._exit(1)


def run_task(task: GameTask) -> GameOutcome:
    worker = _WORKER[0]
    if task.parent is not None and os.getppid() != task.parent:
        os._exit(1)  # the build that started this worker is gone
    try:
        return _game_outcome(worker, task)
    except jinja2.TemplateError as exc:
        placed(exc, template_frame(exc))  # to reach the build's process with its place
        raise
    except Exception as exc:
        where = template_frame(exc)
        if where is not None:  # to reach the build's process with its place
            raise template_failure(exc, where) from None
        raise


def _game_outcome(worker: _Worker, task: GameTask) -> GameOutcome:
    """The game's outcome; a record that cannot be read, or that pgm fails on, is the
    record's failure (a page saying so), and the rest of the event is built. A theme's
    template failing and a disk refusing a write are the build's: every game meets them."""
    try:
        data, info = read_regular(task.source.path)
    except OSError as exc:
        # tried again at the next build, whatever its fingerprint says
        return _failed(worker, task, None, f"cannot read the record: {exc.strerror}", "")
    try:
        return _load_and_render(worker, task, data, info.st_mtime_ns)
    except OSError:
        raise
    except Exception as exc:  # noqa: BLE001 - a bug met on one record must not stop the rest
        if _raised_by_theme(exc):
            raise
        problem = (f"pgm failed on this record ({type(exc).__name__}: {exc}); please report "
                   "it, with the record")
        return _kept_through_failure(worker, task, data, problem) or \
            _failed(worker, task, data, problem, task.fingerprint)


def _kept_through_failure(worker: _Worker, task: GameTask, data: bytes, problem: str
                          ) -> GameOutcome | None:
    """While watching, a game pgm fails on as saved now keeps the pages it had, as a
    record saved half-way does: spectators keep the game, the problem is printed."""
    previous = task.previous
    if not task.keep_last_good or previous is None or previous.entry.failed:
        return None
    from pgm.games import failed_game

    failed = failed_game(task.source, task.settings, data, problem)
    try:  # a full build remakes them from the last copy, which may meet the same bug
        return _keep_last_good(worker, task, previous, failed.entry.diagnostics)
    except OSError:
        raise
    except Exception as exc:  # noqa: BLE001 - as in _game_outcome
        if _raised_by_theme(exc):
            raise
        return None


def _raised_by_theme(exc: Exception) -> bool:
    """Whether a template of the event's theme raised ``exc`` (a template error with no
    place, such as a template the theme names and does not have, counts as the theme's);
    pgm's own templates failing on one record's values are that record's failure."""
    where = template_frame(exc)
    if where is None:
        return isinstance(exc, jinja2.TemplateError)
    return not where[0].startswith(_BUILTIN_TEMPLATES)


_BUILTIN_TEMPLATES = os.path.join(builtin_dir("templates"), "")


def _load_and_render(worker: _Worker, task: GameTask, data: bytes, saved_ns: int
                     ) -> GameOutcome:
    """``saved_ns``: when the record was last written."""
    game = worker.load_game(task.source, task.settings, data)
    previous = task.previous
    if task.keep_last_good and previous is not None:
        kept = _kept_while_watching(worker, task, previous, game.entry, saved_ns)
        if kept is not None:
            return kept
    # Any build, not only pgm watch's: a director's build (or a cron job's) while a line
    # is half typed must not stop the spectators' pages from following the game.
    if previous is not None and _followed_through_error(task, previous, game.entry):
        game = worker.load_game(task.source, replace(task.settings, live=True), data)
    entry = game.entry
    return _render(worker, task, game).outcome(task.fingerprint, entry, not entry.errors, False)


def _failed(worker: _Worker, task: GameTask, data: bytes | None, problem: str,
            fingerprint: str) -> GameOutcome:
    """The outcome of a record that could not be read or shown: a page that says so,
    kept under ``fingerprint`` ("" for none: the next build tries again)."""
    from pgm.games import failed_game

    game = failed_game(task.source, task.settings, data, problem)
    return _render(worker, task, game).outcome(fingerprint, game.entry, False, False)


def _kept_while_watching(worker: _Worker, task: GameTask, previous: GameState,
                         entry: GameEntry, saved_ns: int) -> GameOutcome | None:
    """The game's last pages, kept while the record as saved now (``entry``) is broken
    (``_broken_by_save``) or looks caught half-way (``_unsettled``); None to render it."""
    if _broken_by_save(previous, entry) and not _moved_on(previous, entry):
        return _keep_last_good(worker, task, previous, entry.diagnostics)
    if _unsettled(previous, entry, saved_ns):
        held = _keep_last_good(worker, task, previous, previous.diagnostics)
        return replace(held, settling=True) if held is not None else None
    return None


def _keep_last_good(worker: _Worker, task: GameTask, previous: GameState,
                    problems: tuple[Diagnostic, ...]) -> GameOutcome | None:
    """The game's last good pages, while its record does not replay: kept as
    they are in place, or made again from the replaced site's copy of the record by a
    full build (templates or configuration changed). The state keeps ``problems`` (the
    record's as saved now), for the build to report, and no fingerprint, so that the
    next build looks at the record again, even put back as it was (an editor's undo).
    None when there is no copy to make them from."""
    if task.in_place:
        return GameOutcome(GameState("", previous.entry, previous.files, previous.clean,
                                     kept_for=problems), True, 0)
    last_good = _last_good_game(worker, task, previous)
    if last_good is None:
        return None
    return _render(worker, task, last_good).outcome("", last_good.entry, previous.clean, True,
                                                    problems)


@dataclass(frozen=True)
class _Written:
    """What rendering a game wrote (see ``GameOutcome``)."""

    names: list[str]
    """The game's files, inside its folder."""
    count: int
    staged: tuple[tuple[str, str], ...] = ()
    stale: tuple[str, ...] = ()

    def outcome(self, fingerprint: str, entry: GameEntry, clean: bool, kept: bool,
                kept_for: tuple[Diagnostic, ...] | None = None) -> GameOutcome:
        """The outcome of the game these files are of, its state made of the rest."""
        return GameOutcome(GameState(fingerprint, entry, self.names, clean, kept_for=kept_for),
                           kept, self.count, self.staged, self.stale)


def _render(worker: _Worker, task: GameTask, game: LoadedGame) -> _Written:
    """Render and write ``game``. Into a staging folder each file is written as soon as
    it is made, so that a record of thousands of turns never holds its pages in memory;
    should one fail, those written are removed. In place, every file is made before any
    is written, and written beside the one it replaces, for the build to rename once it
    has made every changed game and index page: the live site gets all of the build or
    nothing new."""
    files = render_game_files(worker.env, worker.configs, game)
    slug = len(game.entry.slug) + 1
    paths: list[str] = []
    if task.in_place:
        made = list(files)
        paths = [path for path, _ in made]
        staged = _stage_in_place(task, made)
        keep = set(paths)
        stale = tuple(p for p in task.previous.paths if p not in keep) if task.previous else ()
        return _Written([path[slug:] for path in paths], len(staged), staged, stale)
    try:
        write_files(task.target, _noting(files, paths), task.last_site)
    except BaseException:
        for path in paths:
            (task.target / path).unlink(missing_ok=True)
        raise
    return _Written([path[slug:] for path in paths], len(paths))


def _noting(files: Iterator[tuple[str, str | bytes]], paths: list[str]
            ) -> Iterator[tuple[str, str | bytes]]:
    """``files``, each path noted in ``paths`` as it goes by."""
    for path, content in files:
        paths.append(path)
        yield path, content


def _last_good_game(worker: _Worker, task: GameTask, previous: GameState) -> LoadedGame | None:
    """The game as the site being replaced shows it, from its copy of the record (the
    ``input.*`` file every game folder holds); None when there is none to read."""
    if task.last_site is None:
        return None
    names = [name for name in previous.files if name.startswith("input.")]
    try:
        data = read_regular(task.last_site / previous.entry.slug / names[0])[0] if names else None
    except OSError:
        return None
    return worker.load_game(task.source, task.settings, data) if data is not None else None


def _broken_by_save(previous: GameState, entry: GameEntry) -> bool:
    """Whether the record, as saved now, lost what its last pages show: it has errors
    where they had none, its replay stops at an error where theirs did not (a game in
    progress may carry an error that stops nothing, such as an unknown encoding), or it
    has no turn where they had some (an editor empties a file before writing it anew)."""
    if previous.entry.failed:
        return False  # a page saying the game cannot be shown is no good page to keep
    return (previous.clean and bool(entry.errors)) or \
        (entry.stopped_at is not None and previous.entry.stopped_at is None) or \
        (entry.turns == 0 and previous.entry.turns > 0)


def _unsettled(previous: GameState, entry: GameEntry, saved_ns: int) -> bool:
    """Whether the record, saved less than ``SAVE_SETTLE_NS`` ago, takes back turns its
    last pages show or brings a warning they did not have: what a save caught half-way
    looks like (a file written in pieces, cut at the end of a line; a running total half
    typed when an editor saves every second, ``+27 2`` of ``+27 398``). Its last pages
    are kept until it has been left alone that long; then it is published as it is (an
    annotator taking a move back, a total that is wrong). A save with an error is
    ``_broken_by_save``'s to judge."""
    if previous.entry.failed or entry.errors or not _just_saved(saved_ns):
        return False
    return entry.turns < previous.entry.turns or \
        bool(_problems(entry) - _problems(previous.entry))


def _just_saved(saved_ns: int) -> bool:
    """Whether a file written at ``saved_ns`` was saved less than ``SAVE_SETTLE_NS`` ago.
    A time in the future (a file synced from a machine whose clock is ahead) is no save
    just made: it would be held until the clock caught up. File systems that keep whole
    seconds round a time down, by up to two (FAT): the wait is longer there."""
    age = time.time_ns() - saved_ns
    return 0 <= age < SAVE_SETTLE_NS + (COARSE_SETTLED_NS if coarse_time(saved_ns) else 0)


def _problems(entry: GameEntry) -> Counter[tuple[str, str]]:
    """The record's problems without their lines: a line inserted above them (a note)
    moves them, and makes none new."""
    return Counter((d.severity.value, d.message) for d in entry.diagnostics)


def _moved_on(previous: GameState, entry: GameEntry) -> bool:
    """Whether a game in progress, saved with an error, still shows more turns than its
    last pages (moves pasted in at once, one of them mistyped): those are published up
    to the error, and the game stays in progress, its pages following the record, until
    the annotator puts the line right, whatever is added after it meanwhile. A save
    that shows fewer keeps the last pages."""
    return previous.entry.live and entry.turns > previous.entry.turns


def _followed_through_error(task: GameTask, previous: GameState, entry: GameEntry) -> bool:
    """Whether a game in progress whose replay now stops at an error stays in progress
    (see ``_moved_on``): where its record really ends is not known until the line is put
    right. Not when ``event.yaml`` says whether the game is live, nor for an error that
    stops nothing (the record's end is then known, and may end the game)."""
    return previous.entry.live and entry.stopped_at is not None and task.settings.live is None


def _stage_in_place(task: GameTask, files: list[tuple[str, str | bytes]]
                    ) -> tuple[tuple[str, str], ...]:
    """Each changed file written beside the one it replaces, in the order to rename them:
    turn pages first, then the game's index, then game.json, so that no link points at
    a page that is not there yet, and a page that polls game.json and finds it changed
    finds itself changed too."""
    ordered = sorted(files, key=lambda f: (f[0].endswith("game.json"),
                                           f[0].endswith("index.html"), f[0]))
    staged = []
    for path, content in ordered:
        temp = stage_write(task.target / path, content, task.parent)
        if temp is not None:
            staged.append((str(temp), str(task.target / path)))
    return tuple(staged)


def remove_stale(out: Path, old_files: list[str], keep: set[str]) -> None:
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


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


def run_tasks(tasks: list[GameTask], configs: ConfigSet, theme: Theme, jobs: int,
              tick: Callable[[int], None] | None = None
              ) -> Generator[GameOutcome, None, None]:
    """Outcomes in task order; worker processes only when they pay for themselves.
    Closed before the last outcome (the build failed, or was stopped), it stops its
    workers before it returns."""
    if jobs <= 1 or len(tasks) < _MIN_GAMES_FOR_WORKERS:
        _init(configs, theme)
        for task in tasks:
            yield run_task(task)
            if tick:
                tick(1)
        return
    yield from _run_in_pool(tasks, configs, theme, jobs, tick)


def _run_in_pool(tasks: list[GameTask], configs: ConfigSet, theme: Theme, jobs: int,
                 tick: Callable[[int], None] | None) -> Iterator[GameOutcome]:
    """``run_tasks`` in worker processes. The pool's modules are imported here, and
    before the workers fork, so that each worker starts with them loaded: a build that
    renders in its own process (a record or two changed, ``--jobs 1``) never loads
    them, some 15 ms of its start."""
    import ctypes.util  # noqa: F401 - for _die_with_parent, in every worker
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _game_loader()
    context = multiprocessing.get_context("fork")
    parent = os.getpid()
    tasks = [replace(task, parent=parent) for task in tasks]
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_process,
                               initargs=(configs, theme))
    try:
        # A bounded window of tasks in flight: submitting every game at once would hold
        # all their futures and results in this process as the event grows.
        window: deque[Future[list[GameOutcome]]] = deque()
        pending = _chunks(tasks, jobs)
        with _forking():  # the first task starts the workers
            for chunk in itertools.islice(pending, jobs * 2):
                window.append(pool.submit(run_chunk, chunk))
        while window:
            outcomes = window.popleft().result()
            for chunk in itertools.islice(pending, 1):
                window.append(pool.submit(run_chunk, chunk))
            for outcome in outcomes:
                yield outcome
                if tick:
                    tick(1)
        pool.shutdown()
    except BaseException:
        # Ctrl-C or SIGTERM (KeyboardInterrupt), a worker's failure, or the build no
        # longer reading (GeneratorExit: it failed, or was stopped, between two
        # outcomes): the workers are stopped before the build removes what it wrote.
        with interrupts_held():
            _stop_workers(pool)
        raise


@contextlib.contextmanager
def _forking() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back from this thread while it forks the workers, which
    are forked holding them too, until they have set them aside
    (``_leave_stopping_to_the_build``): one that came meanwhile would stop a worker
    half-started, and the pool with it."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


_STOP_SECONDS = 30.0
"""How long a build stopping waits for its workers to be gone: a process killed while
it waits on a disk (a network share) ends only once the disk answers."""


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers and wait until they are gone, so that none writes a file
    after the build has removed its own. Not the pool's shutdown alone: that waits for
    the tasks under way to finish, and for a worker stopped while it held the task
    queue's lock, for ever. The pool then finds its workers gone and winds itself
    down. (Python 3.14's ``ProcessPoolExecutor.kill_workers`` does the same, bar the
    wait.)"""
    from multiprocessing.connection import wait

    processes = tuple((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()
    running = [process.sentinel for process in processes]
    deadline = time.monotonic() + _STOP_SECONDS
    while running and (left := deadline - time.monotonic()) > 0:
        gone = wait(running, left)
        running = [sentinel for sentinel in running if sentinel not in gone]


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) and SIGTERM back while the block runs, and act on the first
    that came once it is over: for what must not stop half-way (the site being put in
    place, files of the build being removed, its workers being stopped). Only the main
    thread has handlers to set; elsewhere (``pgm serve``'s builds) the block runs as it
    is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def hold(signum: int, _frame: object) -> None:
        came.append(signum)

    previous: dict[int, _Handler] = {}
    try:
        for signum in _STOPS:
            previous[signum] = signal.signal(signum, hold)
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        if came:
            _deliver(came[0], previous.get(came[0]))


def _deliver(signum: int, handler: _Handler) -> None:
    """Act on a signal held back, as ``handler`` (the one held back from) would have."""
    if callable(handler):
        handler(signum, None)  # Python's own for Ctrl-C raises KeyboardInterrupt
    elif handler in (signal.SIG_DFL, None):
        signal.raise_signal(signum)


_CHUNK = 8
"""Games per message to and from a worker: each message costs the pool's threads in
the build process about half a millisecond of CPU, which the workers do not get."""


def run_chunk(tasks: list[GameTask]) -> list[GameOutcome]:
    return [run_task(task) for task in tasks]


def _chunks(tasks: list[GameTask], jobs: int) -> Iterator[list[GameTask]]:
    """Tasks in groups of up to ``_CHUNK``, smaller towards the end, so that no worker
    is left waiting while another works through a whole last group."""
    start = 0
    while start < len(tasks):
        size = max(1, min(_CHUNK, (len(tasks) - start) // (jobs * 4)))
        yield tasks[start:start + size]
        start += size

"""Builds stopped half-way by Ctrl-C (SIGINT to the terminal's whole process group) or by
SIGTERM (``timeout``, CI runners, systemd, ``docker stop``): the build stops within a
bounded wait, ends by that signal, leaves no process behind, the previous site as it
was, and nothing of its own: no staging folder, no temporary file, in the output or
beside it.

Each test drives real ``pgm build`` (or ``pgm watch``) processes, in a session of their
own, on an event big enough for its worker processes to be rendering when the signal
comes; a few attempts at different moments make sure the signal meets the pool at work.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import CORPUS, ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads worker processes from /proc")

GAMES = 192
"""Enough for the workers to render for a few seconds."""

STOPPED_WITHIN = 30.0
"""Seconds a stopped build may take to end: far more than it needs, far less than the
hang it replaces (a build waiting for ever for a worker stopped holding a lock)."""


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """An event of ``GAMES`` real records and its site, built once for the module."""
    root = tmp_path_factory.mktemp("interrupted")
    records = sorted((CORPUS / "gcg").glob("*.gcg"))
    event = root / "ev"
    for number in range(GAMES):
        path = event / f"round-{number // 16 + 1}" / f"table-{number % 16 + 1}.gcg"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(records[number % len(records)].read_bytes() +
                         f"\n#note copy {number}\n".encode())
    (event / "event.yaml").write_text("title: Before\n", encoding="utf-8")
    site = root / "site"
    done = subprocess.run(_pgm("build", event, "-o", site), stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, timeout=600, check=False)
    assert done.returncode in (0, 1)  # warnings or errors of the corpus: built all the same
    return event, site


def _pgm(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "pgm", *map(str, args)] + \
        (["--quiet", "--jobs", "2"] if args[0] == "build" else [])


def _copy(built: tuple[Path, Path], into: Path) -> tuple[Path, Path]:
    event, site = into / "ev", into / "site"
    shutil.copytree(built[0], event)
    shutil.copytree(built[1], site, symlinks=True)
    return event, site


def _files(folder: Path) -> dict[str, bytes | None]:
    """Every file below ``folder`` with its bytes, and every folder (None)."""
    return {str(path.relative_to(folder)): path.read_bytes() if path.is_file() else None
            for path in sorted(folder.rglob("*"))}


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    """``pgm`` in a session (and process group) of its own, with Ctrl-C handled as a
    terminal's foreground job has it, whatever the test runner ignores, and two cores at
    most: ``pgm watch`` starts a worker per core, and many would be done too soon."""
    cores = sorted(os.sched_getaffinity(0))[:2]

    def prepare() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.sched_setaffinity(0, cores)

    with log.open("ab") as stderr:
        return subprocess.Popen(args, cwd=ROOT, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=stderr,
                                start_new_session=True, preexec_fn=prepare)


def _group(pgid: int) -> list[int]:
    """The live processes (zombies aside) of process group ``pgid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()  # after the command's name
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(entry.name))
    return found


def _workers(pid: int) -> list[int]:
    try:
        return [int(child) for child in
                Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _wait_for(condition: Callable[[], bool], process: subprocess.Popen[bytes] | None,
              seconds: float = 120.0) -> bool:
    """Whether ``condition`` came true within ``seconds`` (while ``process`` runs)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (process is None or process.poll() is None):
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def _at_work(pid: int) -> bool:
    """Whether build ``pid`` has its worker processes (one per core, two at most)."""
    return len(_workers(pid)) >= min(2, len(os.sched_getaffinity(0)))


def _nothing_left(pgid: int, site: Path) -> None:
    """No process of the stopped ``pgm`` (its workers) lives on, and nothing of its build
    is left in the output folder or beside it."""
    assert _wait_for(lambda: not _group(pgid), None, 10), _group(pgid)
    assert _leftovers(site) == []


def _leftovers(site: Path) -> list[str]:
    """What a build may leave in the output folder or beside it: staging folders, old
    sites, temporary files, marks of a rebuild in place, the site's lock."""
    beside = [path.name for path in site.parent.iterdir() if path.name.startswith(".")]
    inside = [str(path.relative_to(site)) for path in site.rglob(".*")
              if path.name.endswith(".tmp") or ".pgm-new-" in path.name
              or path.name.startswith(".pgm-staging-")]
    return beside + inside


MOMENTS = ((0, 0.0), (8, 0.3), (GAMES // 3, 0.0))
"""When each attempt sends its signal: once the build has written this many games (none:
as soon as its workers are there), and this many seconds after."""


def _stop_attempts(args: list[str], site: Path, change: Callable[[int], None],
                   written: Callable[[int], int], signum: int, whole_group: bool,
                   log: Path) -> list[int]:
    """Run ``args`` once per ``MOMENTS``, each after ``change`` (given the attempt's
    number) gave it something to build, and send ``signum`` at that moment, to the
    process or to its whole group (``written``: how many games build ``pid`` has
    written). Returns the exit status of each build met with its workers at work, once
    it is checked that it left the site as it was, and nothing of its own."""
    stopped = []
    for attempt, (games, delay) in enumerate(MOMENTS):
        before = _files(site)
        change(attempt)
        process = _start(args, log)
        pid = process.pid
        try:
            assert _wait_for(lambda: _at_work(pid) and written(pid) >= games,  # noqa: B023
                             process), log.read_text(errors="replace")[-2000:]
            time.sleep(delay)
            if not _at_work(process.pid):  # too late: the workers were done
                process.wait(STOPPED_WITHIN)
                continue
            if whole_group:
                os.killpg(process.pid, signum)
            else:
                os.kill(process.pid, signum)
            stopped.append(process.wait(STOPPED_WITHIN))
        finally:
            if process.poll() is None:  # hung: fail, and leave no process behind
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        _nothing_left(process.pid, site)
        assert _files(site) == before
    assert stopped, "every build finished before its signal: make the event bigger"
    return stopped


def _staged(site: Path) -> Callable[[int], int]:
    """How many games a full build (process ``pid``) has in its staging folder."""
    def written(pid: int) -> int:
        stage = site.parent / f".{site.name}.pgm-new-{pid}"
        inside = site / f".pgm-new-{pid}"  # a site that is a mount point is staged in it
        return sum(len(list(folder.glob("round-*/table-*")))
                   for folder in (stage, inside) if folder.is_dir())
    return written


def _waiting(site: Path) -> Callable[[int], int]:
    """How many games a rebuild in place (process ``pid``) has files of waiting beside
    the ones they replace."""
    def written(pid: int) -> int:
        return len({path.parent for path in site.glob(f"round-*/table-*/.*.{pid}.tmp")})
    return written


def _retitle(event: Path) -> Callable[[int], None]:
    """A change to event.yaml: the whole site is built anew."""
    def change(attempt: int) -> None:
        (event / "event.yaml").write_text(f"title: After {attempt}\n", encoding="utf-8")
    return change


def _append_to_every_record(event: Path) -> Callable[[int], None]:
    """A line added to every record in place, and a round of new games: each game is
    rebuilt in place, and new ones get folders of their own."""
    def change(attempt: int) -> None:
        records = sorted(event.rglob("*.gcg"))
        for record in records:
            with record.open("ab") as handle:
                handle.write(f"#note correction {attempt}\n".encode())
        for table, record in enumerate(records[:4]):
            new = event / f"round-0-new-{attempt}" / f"table-{table + 1}.gcg"  # built first
            new.parent.mkdir(exist_ok=True)
            new.write_bytes(record.read_bytes())
    return change


def test_ctrl_c_stops_a_full_build_its_workers_too(built, tmp_path) -> None:
    """Ctrl-C reaches every process of the terminal's group: the workers leave it to
    the build, which stops them, removes its staging folder, and ends by the signal
    (status 130 in a shell)."""
    event, site = _copy(built, tmp_path)
    log = tmp_path / "stderr.txt"
    build = _pgm("build", event, "-o", site)
    stopped = _stop_attempts(build, site, _retitle(event), _staged(site), signal.SIGINT, True,
                             log)
    assert stopped == [-signal.SIGINT] * len(stopped), log.read_text(errors="replace")[-2000:]
    assert "Stopped by Ctrl-C (SIGINT)" in log.read_text(errors="replace")


@pytest.mark.parametrize("whole_group", [False, True], ids=["process", "group"])
def test_sigterm_stops_a_rebuild_in_place_and_leaves_no_temporary_file(
        built, tmp_path, whole_group: bool) -> None:
    """SIGTERM to the build (``timeout``, ``kill``, ``docker stop``) or to all its
    processes (systemd): the files waiting beside the ones they replace, the workers'
    too, are removed, and the build ends by the signal (status 143 in a shell)."""
    event, site = _copy(built, tmp_path)
    log = tmp_path / "stderr.txt"
    build = _pgm("build", event, "-o", site)
    stopped = _stop_attempts(build, site, _append_to_every_record(event), _waiting(site),
                             signal.SIGTERM, whole_group, log)
    assert stopped == [-signal.SIGTERM] * len(stopped), log.read_text(errors="replace")[-2000:]
    assert "Stopped by SIGTERM" in log.read_text(errors="replace")


def test_sigterm_stops_a_full_build(built, tmp_path) -> None:
    event, site = _copy(built, tmp_path)
    log = tmp_path / "stderr.txt"
    build = _pgm("build", event, "-o", site)
    stopped = _stop_attempts(build, site, _retitle(event), _staged(site), signal.SIGTERM, False,
                             log)
    assert stopped == [-signal.SIGTERM] * len(stopped), log.read_text(errors="replace")[-2000:]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_watch_stopped_during_a_rebuild_exits_cleanly(built, tmp_path, signum: int) -> None:
    """``pgm watch`` ends as it is meant to end, by Ctrl-C or a service stopped
    (SIGTERM), even while its workers rebuild: status 0, nothing left, the site as it
    was."""
    event, site = _copy(built, tmp_path)
    log = tmp_path / "stderr.txt"
    process = _start(_pgm("watch", event, "-o", site), log)
    try:
        assert _wait_for(lambda: "file(s) written" in log.read_text(errors="replace"),
                         process), log.read_text(errors="replace")
        before = _files(site)
        _append_to_every_record(event)(0)
        waiting = _waiting(site)
        assert _wait_for(lambda: _at_work(process.pid) and waiting(process.pid) >= 8,
                         process), log.read_text(errors="replace")
        if signum == signal.SIGINT:
            os.killpg(process.pid, signum)
        else:
            os.kill(process.pid, signum)
        assert process.wait(STOPPED_WITHIN) == 0, log.read_text(errors="replace")[-2000:]
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    _nothing_left(process.pid, site)
    assert _files(site) == before


@pytest.fixture
def sigterm_interrupts():
    """SIGTERM raising KeyboardInterrupt in this process, as ``pgm build`` has it; the
    signals taken are listed."""
    came: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        came.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield came
    finally:
        signal.signal(signal.SIGTERM, previous)


def _signal_this_process() -> None:
    """Send SIGTERM to this process and give Python the moments it takes to act on it."""
    os.kill(os.getpid(), signal.SIGTERM)
    for _ in range(50):
        time.sleep(0.001)


def test_a_signal_held_back_is_acted_on_once_the_block_is_done(sigterm_interrupts) -> None:
    from pgm.workers import interrupts_held

    handler = signal.getsignal(signal.SIGTERM)
    done = []
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        _signal_this_process()
        done.append("the rest of the block")
    assert done == ["the rest of the block"]
    assert sigterm_interrupts == [signal.SIGTERM]  # taken once, by the handler held back
    assert signal.getsignal(signal.SIGTERM) is handler


def test_a_signal_while_a_rebuild_puts_its_files_in_place_waits_for_it(
        tmp_path, monkeypatch, sigterm_interrupts) -> None:
    """Stopped once every file is made, a rebuild in place finishes putting them in
    place and saves the site's state before it stops: the site is this build's, whole,
    with no temporary file, and the next build has nothing to do."""
    from pgm.build import BuildOptions, build
    from pgm.in_place import InPlaceWrites

    records = sorted((CORPUS / "gcg").glob("*.gcg"))[:3]
    event = tmp_path / "ev"
    for number, record in enumerate(records):
        (event / "r1").mkdir(parents=True, exist_ok=True)
        (event / "r1" / f"table-{number + 1}.gcg").write_bytes(record.read_bytes())
    site = tmp_path / "site"
    build(BuildOptions(event, site, jobs=1))
    for record in event.rglob("*.gcg"):
        with record.open("ab") as handle:
            handle.write(b"#note a correction\n")
    commit = InPlaceWrites.commit

    def interrupted(self: InPlaceWrites, out: Path) -> None:
        assert self.staged  # files are waiting beside the ones they replace
        _signal_this_process()
        commit(self, out)

    monkeypatch.setattr(InPlaceWrites, "commit", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build(BuildOptions(event, site, jobs=1))
    assert sigterm_interrupts == [signal.SIGTERM]
    assert _leftovers(site) == []
    monkeypatch.undo()
    assert all(b"a correction" in (site / "r1" / f"table-{n + 1}" / "input.gcg").read_bytes()
               for n in range(len(records)))
    again = build(BuildOptions(event, site, jobs=1))
    assert again.rendered_games == 0 and again.files_written == 0

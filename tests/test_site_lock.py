"""One build at a time writes a site: a build started while another writes the same
output folder (cron's `pgm build` during `pgm watch`) waits for it, says so, and then
builds; the lock file is there only while a build holds it."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading

from conftest import CORPUS, ROOT
from sitehelpers import make_event

import pgm.build
from pgm.build import BuildOptions, build
from pgm.site_lock import lock_file, writing_alone

GOOD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
HOLD = """
import sys, time
from pathlib import Path
from pgm.site_lock import writing_alone
with writing_alone(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_a_build_waits_for_the_build_writing_the_site_then_builds(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD})
    out = tmp_path / "site"
    with subprocess.Popen([sys.executable, "-c", HOLD, str(out)], cwd=ROOT, text=True,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE) as holder:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline() == "held\n"
        heard: list[str] = []
        asked = threading.Event()
        results = []

        def waiting(text: str) -> None:
            heard.append(text)
            asked.set()

        builder = threading.Thread(target=lambda: results.append(
            build(BuildOptions(event, out, jobs=1), waiting=waiting)))
        builder.start()
        try:
            assert asked.wait(60)
            assert heard == [f"waiting for another pgm build writing {out} "
                             f"(process {holder.pid}) to finish"]
            assert builder.is_alive() and not out.exists()  # nothing written meanwhile
        finally:
            holder.stdin.write("\n")
            holder.stdin.flush()
            builder.join(120)
        assert not builder.is_alive()
    [result] = results
    assert not result.errors and (out / "g/1.html").is_file()
    assert not lock_file(out).exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_killed_builds_lock_file_is_taken_and_removed(tmp_path) -> None:
    """A build killed while it held the lock leaves its file (the lock itself goes with
    the process): the next build takes it without waiting, and removes it."""
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD})
    out = tmp_path / "site"
    lock_file(out).write_text("999999999\n", encoding="ascii")
    heard: list[str] = []
    assert not build(BuildOptions(event, out, jobs=1), waiting=heard.append).errors
    assert heard == [] and not lock_file(out).exists()


def test_the_lock_is_held_while_the_state_is_read_and_the_site_written(tmp_path,
                                                                     monkeypatch) -> None:
    """Held from before the previous build's state is read, by the build's own process:
    a second lock taken there meanwhile (another open file) would have to wait."""
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD})
    out = tmp_path / "site"
    seen: list[bool] = []
    load_state = pgm.build.load_state

    def looking(*args, **kwargs):
        handle = os.open(lock_file(out), os.O_RDWR)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            seen.append(False)
        except BlockingIOError:
            seen.append(True)
        finally:
            os.close(handle)
        return load_state(*args, **kwargs)

    assert not build(BuildOptions(event, out, jobs=1)).errors
    monkeypatch.setattr(pgm.build, "load_state", looking)
    (event / "h.gcg").write_bytes(GOOD)
    assert not build(BuildOptions(event, out, jobs=1)).errors
    assert seen == [True]
    with writing_alone(out):  # and let go after
        pass

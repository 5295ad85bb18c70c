"""An output folder that cannot be renamed (a Docker volume, an NFS web root, a bind
mount), and the staging folders killed builds leave.

The mount tests mount a tmpfs (or bind-mount a folder) in a mount namespace of their own
(``unshare -m``), as root: the CI machine runs the tests as root, so a mount that fails
there fails the test. A driver script runs every build inside that namespace and copies
the mounted folder out after each one, for the test to read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CORPUS
from sitehelpers import make_event, run_build, site_files

from pgm.output import MARKER, discard, staging_folder
from pgm.state import STATE_NAME

GOOD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
OTHER = (CORPUS / "gcg/MAGPIE-DATA__exchange_with_seven_in_bag.gcg").read_bytes()

USERS = {"CNAME": b"games.example.org\n", "photos/prize.jpg": b"\xff\xd8 a photo",
         "static/club-logo.png": b"\x89PNG the club's logo"}
"""A user's files in the site: one at its top, a folder of their own, and one in pgm's
``static/`` folder."""

DRIVER = r"""
import json, os, shutil, subprocess, sys
from pathlib import Path
from unittest import mock

from click.testing import CliRunner

from pgm.cli import main

job = json.loads(sys.argv[1])
mount, out, event = Path(job["mount"]), Path(job["out"]), Path(job["event"])
if job["bind"]:
    subprocess.run(["mount", "--bind", job["bind"], str(mount)], check=True)
else:
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(mount)], check=True)
if job["patch"] == "lost+found":  # at the root of an ext4 volume
    (mount / "lost+found").mkdir()
elif job["patch"] == "not told a mount":  # os.path.ismount and mountinfo both miss it
    mock.patch("pgm.output.mount_point", return_value=False, create=True).start()
elif job["patch"] == "no renameat2":  # a filesystem that cannot swap two folders (NFS)
    mock.patch("ctypes.util.find_library", return_value=None).start()
report = []
for step in job["steps"]:
    for name, text in step["event"].items():
        if text is None:
            (event / name).unlink()
        else:
            (event / name).write_bytes(text.encode("latin-1"))
    for name, text in step["site"].items():
        (mount / name).parent.mkdir(parents=True, exist_ok=True)
        (mount / name).write_bytes(text.encode("latin-1"))
    built = CliRunner().invoke(main, ["build", str(event), "-o", str(out), "--jobs", "1"])
    shutil.copytree(mount, step["copy"], symlinks=True)
    ref = CliRunner().invoke(main, ["build", str(event), "-o", step["ref"], "--jobs", "1"])
    report.append({"code": built.exit_code, "output": built.output, "ref": ref.exit_code})
print(json.dumps(report))
"""


def _text(data: bytes) -> str:
    return data.decode("latin-1")


def _in_mount(tmp_path: Path, bind: bool, link: bool, patch: str | None,
              steps: list[dict[str, dict[str, str | None]]]) -> list[dict[str, object]]:
    """Run ``steps`` (files to write in the event and in the site, then a build) in a
    mount namespace with ``tmp_path/mnt`` mounted; the site after step N is copied to
    ``tmp_path/copy-N`` and the same event built into a plain ``tmp_path/ref-N``."""
    mount = tmp_path / "mnt"
    mount.mkdir()
    out = mount
    if link:
        out = tmp_path / "public"
        out.symlink_to("mnt", target_is_directory=True)
    volume = tmp_path / "volume"
    volume.mkdir()
    job = {"mount": str(mount), "out": str(out), "event": str(tmp_path / "ev"),
           "bind": str(volume) if bind else "", "patch": patch,
           "steps": [{**step, "copy": str(tmp_path / f"copy-{n}"),
                      "ref": str(tmp_path / f"ref-{n}")} for n, step in enumerate(steps)]}
    done = subprocess.run(["unshare", "-m", sys.executable, "-c", DRIVER, json.dumps(job)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report: list[dict[str, object]] = json.loads(done.stdout.splitlines()[-1])
    assert os.listdir(mount) == []  # the mount went with its namespace
    return report


def _pgms_hidden(folder: Path) -> list[str]:
    """What of pgm's own is hidden in ``folder``, besides the site's marker and state:
    staging folders, folders moved aside, temporary files, the lock."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob(".*")
                  if p.relative_to(folder).as_posix() not in (MARKER, STATE_NAME))


@pytest.mark.parametrize(("bind", "link", "patch"), [
    (False, False, None),
    (False, False, "lost+found"),
    (False, True, None),  # a link to the mount point
    (True, False, None),  # a bind mount of a folder of the same filesystem
    (False, False, "no renameat2"),
    (False, False, "not told a mount"),  # the swap fails with EBUSY: detected then
], ids=["tmpfs", "tmpfs-lost+found", "link-to-tmpfs", "bind-mount", "tmpfs-no-renameat2",
        "tmpfs-not-told"])
def test_a_site_is_built_and_rebuilt_into_a_mount_point(tmp_path, bind, link, patch) -> None:
    make_event(tmp_path / "ev", {"event.yaml": "title: Club night\n",
                                 "round-1/table-1.gcg": GOOD, "round-1/table-2.gcg": OTHER,
                                 "round-2/table-1.gcg": OTHER})
    dead = _dead_pid()
    killed = {f".pgm-new-{dead}/{MARKER}": "pgm",  # a killed build's, staged in the mount
              f".pgm-new-{dead}/round-9/table-1/game.json": "{}"}
    steps: list[dict[str, dict[str, str | None]]] = [
        {"event": {}, "site": {}},
        # a full rebuild: the title changes, a game goes, and a whole round with it
        {"event": {"event.yaml": "title: Club night, final\n", "round-1/table-2.gcg": None,
                   "round-2/table-1.gcg": None},
         "site": {**{name: _text(data) for name, data in USERS.items()}, **killed}},
        # a rebuild in place: one record changes
        {"event": {"round-1/table-1.gcg": _text(GOOD.rstrip(b"\n")) + "\n#note a late note\n"},
         "site": {}},
    ]
    report = _in_mount(tmp_path, bind, link, patch, steps)
    for number, step in enumerate(report):
        assert step["code"] == 0, step["output"]
        assert step["ref"] == 0
        copy, ref = tmp_path / f"copy-{number}", tmp_path / f"ref-{number}"
        users = USERS if number else {}
        # the site is whole and the same as one built into a plain folder; the user's
        # files are there as they were, and so is a volume's lost+found
        site = site_files(copy)
        assert {path: site.pop(path) for path in users} == users
        assert site == site_files(ref)
        assert (copy / "lost+found").is_dir() == (patch == "lost+found")
        assert _pgms_hidden(copy) == []
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert "<h1>Club night, final</h1>" in (tmp_path / "copy-1" / "index.html").read_text()
    assert not (tmp_path / "copy-1" / "round-2").exists()
    assert not (tmp_path / "copy-1" / "round-1" / "table-2").exists()
    game = tmp_path / "copy-2" / "round-1" / "table-1"
    assert any("a late note" in page.read_text() for page in game.glob("*.html"))
    if link:
        assert os.readlink(tmp_path / "public") == "mnt"


def _event(tmp_path: Path) -> Path:
    return make_event(tmp_path / "ev", {"event.yaml": "title: Club night\n", "g.gcg": GOOD})


def _dead_pid() -> int:
    """The id of a process that has ended."""
    done = subprocess.Popen(["true"])
    done.wait()
    return done.pid


def _staging(folder: Path, marked: bool = True) -> Path:
    """A staging folder a build left half-written: a game's first pages."""
    (folder / "g").mkdir(parents=True)
    (folder / "g" / "1.html").write_text("<p>half a site</p>")
    if marked:
        (folder / MARKER).write_text("pgm")
    return folder


def test_a_build_removes_the_staging_folders_of_killed_builds_but_not_of_live_ones(
        tmp_path) -> None:
    event = _event(tmp_path)
    out = tmp_path / "out"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    killed = [_staging(tmp_path / f".out.pgm-new-{_dead_pid()}"),
              # its removal cut short took the marker (workers still writing in it)
              _staging(tmp_path / f".out.pgm-new-{_dead_pid()}", marked=False),
              _staging(tmp_path / f".out.pgm-old-{_dead_pid()}"),
              _staging(out / f".pgm-new-{_dead_pid()}")]  # staged in a mount point
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("the user's")
    link = tmp_path / f".out.pgm-new-{_dead_pid()}"
    link.symlink_to(mine, target_is_directory=True)  # a link is the user's
    with subprocess.Popen(["sleep", "60"]) as alive, subprocess.Popen(["sleep", "60"]) as other:
        try:
            time.sleep(0.1)
            live = _staging(tmp_path / f".out.pgm-new-{alive.pid}")  # a build still writing
            # a build killed an hour ago, whose process id a later process was given
            reused = _staging(tmp_path / f".out.pgm-new-{other.pid}")
            an_hour_ago = time.time() - 3600
            for path in (reused, reused / MARKER):
                os.utime(path, (an_hour_ago, an_hour_ago))
            (event / "event.yaml").write_text("title: Club night, round 2\n")  # full build
            result = run_build(str(event), "-o", str(out))
        finally:
            alive.kill()
            other.kill()
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == \
        sorted([live.name, link.name])
    assert [p for p in [*killed, reused] if os.path.lexists(p)] == []
    assert (live / MARKER).is_file() and (live / "g" / "1.html").is_file()
    assert (mine / "notes.txt").read_text() == "the user's"
    assert not any("pgm-new" in path for path in site_files(out))
    assert "<h1>Club night, round 2</h1>" in (out / "index.html").read_text()


def test_a_staging_folder_whose_removal_was_cut_short_goes_with_the_next_build(
        tmp_path, monkeypatch) -> None:
    """A build stopped with Ctrl-C removes its staging folder while its worker processes
    still write in it: the folder stays, and the next build removes it."""
    event = _event(tmp_path)
    out = tmp_path / "out"
    stage = staging_folder(out)
    (stage / "g").mkdir()
    (stage / "g" / "1.html").write_text("<p>turn 1</p>")
    rmtree = shutil.rmtree

    def worker_still_writing(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        rmtree(path, *args, **kwargs)
        os.makedirs(stage / "g", exist_ok=True)  # as pgm.output.write_files does
        (stage / "g" / "2.html").write_text("<p>turn 2</p>")

    monkeypatch.setattr(shutil, "rmtree", worker_still_writing)
    discard(stage)
    monkeypatch.setattr(shutil, "rmtree", rmtree)
    assert stage.is_dir()  # the case to mend
    left = tmp_path / f".out.pgm-new-{_dead_pid()}"  # as the killed build's, not this one's
    stage.rename(left)
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    assert not left.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_an_old_site_set_aside_by_a_killed_build_is_put_back_not_removed(tmp_path) -> None:
    """A build killed between moving the old site aside and the new one in (where the
    filesystem cannot swap two folders) leaves no site: the next build puts the old one
    back, with the user's files in it, instead of removing it as a leftover."""
    event = _event(tmp_path)
    out = tmp_path / "out"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    (out / "CNAME").write_text("games.example.org\n")
    pid = _dead_pid()
    os.rename(out, tmp_path / f".out.pgm-old-{pid}")
    _staging(tmp_path / f".out.pgm-new-{pid}")
    (event / "event.yaml").write_text("title: Club night, round 2\n")
    result = run_build(str(event), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "CNAME").read_text() == "games.example.org\n"
    assert "<h1>Club night, round 2</h1>" in (out / "index.html").read_text()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []

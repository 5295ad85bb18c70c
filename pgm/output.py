"""The output folder: refuse dangerous targets, build beside it, swap it in atomically.

pgm only ever deletes what it created: a folder it built carries a marker file, and an
existing folder without the marker is never replaced. The new site is written to a
sibling staging folder and exchanged with the old one in a single rename, so a
spectator never loads a half-written page and a failed build leaves the previous site.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path

MARKER = ".pgm-site"
_MARKER_TEXT = "This folder was written by pgm build; pgm may replace it.\n"


class OutputError(Exception):
    """An output folder pgm must not use; the message says why and what to do."""


def check_output(out: Path, event: Path, records: list[Path]) -> None:
    """Refuse the event folder itself, a folder holding its records, or a repository."""
    out_real, event_real = out.resolve(), event.resolve()
    if out_real == event_real or out_real in event_real.parents:
        raise OutputError(f"the output folder {out} contains the event folder {event_real}; "
                          "choose a folder of its own, e.g. the default EVENT/_site")
    if out_real.is_relative_to(event_real):
        # Records are found without following links, so their plain absolute paths say
        # whether one lies inside the output folder.
        inside = os.path.join(os.path.abspath(out), "")
        for record in records:
            if os.path.abspath(record).startswith(inside):
                raise OutputError(f"the output folder {out} contains the record {record}; "
                                  "choose another folder")
    if out.exists() and not out.is_dir():
        raise OutputError(f"the output path {out} exists and is not a folder")
    if out.is_dir():
        if (out / ".git").exists():
            raise OutputError(f"the output folder {out} holds a .git repository; "
                              "pgm will not replace it")
        if any(out.iterdir()) and not (out / MARKER).is_file():
            raise OutputError(f"the output folder {out} is not empty and was not made by "
                              "pgm build; empty it or choose another folder (pgm only "
                              "replaces folders it created)")


def staging_folder(out: Path) -> Path:
    """A fresh folder beside ``out`` (same filesystem, so the final rename is atomic)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(out)
    stage = out.parent / f".{out.name}.pgm-new-{os.getpid()}"
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir()
    (stage / MARKER).write_text(_MARKER_TEXT, encoding="utf-8")
    return stage


def remove_leftovers(out: Path) -> None:
    """Staging and old folders of a build that was killed; only ones pgm marked."""
    for pattern in (f".{out.name}.pgm-new-*", f".{out.name}.pgm-old-*"):
        for folder in out.parent.glob(pattern):
            pid = folder.name.rsplit("-", 1)[-1]
            if (folder / MARKER).is_file() and not build_alive(pid):
                shutil.rmtree(folder, ignore_errors=True)


def build_alive(pid: str) -> bool:
    """Whether another build that may still be writing owns a folder or file."""
    if not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def publish(stage: Path, out: Path) -> None:
    """Put ``stage`` in place of ``out``; the old site (if any) is removed afterwards."""
    if not out.exists():
        os.rename(stage, out)
        return
    if _exchange(stage, out):
        shutil.rmtree(stage)
        return
    old = out.parent / f".{out.name}.pgm-old-{os.getpid()}"
    os.rename(out, old)
    os.rename(stage, out)
    shutil.rmtree(old)


def discard(stage: Path) -> None:
    if stage.exists():
        shutil.rmtree(stage, ignore_errors=True)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step with Linux ``renameat2``; False where unsupported.
    ctypes is loaded here, the one place that needs it, not at every start of pgm."""
    import ctypes
    import ctypes.util

    libc_name = ctypes.util.find_library("c")
    if not libc_name:
        return False
    try:
        libc = ctypes.CDLL(libc_name, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return bool(result == 0)


def write_files(folder: Path, files: Iterable[tuple[str, str | bytes]]) -> None:
    """Write new files under ``folder`` of the staging tree, making each subfolder once:
    a game's pages share one folder, and asking for it per page costs a system call."""
    root = os.fspath(folder)
    made: set[str] = set()
    for name, content in files:
        parent = name.rpartition("/")[0]
        if parent not in made:
            os.makedirs(os.path.join(root, parent), exist_ok=True)
            made.add(parent)
        _write_new(f"{root}/{name}",
                   content.encode("utf-8") if isinstance(content, str) else content)


def _write_new(path: str, data: bytes) -> None:
    """Create or truncate ``path`` and write ``data`` with bare system calls: a turn page
    is a few kilobytes, and a Python file object's buffer and bookkeeping would cost
    as much again as the write itself."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)

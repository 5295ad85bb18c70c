"""The renames that put a built site in place, and the removal of what they replaced.

A full build swaps its staging folder for the output folder in one step (:func:`exchange`).
A mount point (a Docker volume, an NFS web root, a bind mount) cannot be renamed, and a
folder beside it may lie on another filesystem: the site is then staged in a hidden folder
inside it, and each entry at its top is put in place by a rename of its own
(:func:`publish_entries`). Each game's folder, the static files and each page then change
in one step; only the site as a whole does not.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
from collections.abc import Collection
from pathlib import Path

REPLACED = ".pgm-replaced"
"""The folder, inside a staging folder, that what a publish takes away is moved to (on
the same filesystem, so in one rename) before it is removed with the staging folder."""


def mount_point(folder: Path) -> bool:
    """Whether the resolved ``folder`` is a mount point: a filesystem's root, or a folder
    bind-mounted from the same filesystem, which ``os.path.ismount`` cannot tell (Linux
    lists both in /proc/self/mountinfo)."""
    if os.path.ismount(folder):
        return True
    try:
        with open("/proc/self/mountinfo", "rb") as handle:
            table = handle.read()
    except OSError:
        return False
    wanted = os.fsencode(folder)
    return any(len(fields) > 4 and _OCTAL.sub(_byte, fields[4]) == wanted
               for fields in (line.split(b" ") for line in table.splitlines()))


_OCTAL = re.compile(rb"\\([0-7]{3})")
"""mountinfo writes a space, tab, newline or backslash in a path as ``\\040`` and so on."""


def _byte(escape: re.Match[bytes]) -> bytes:
    return bytes([int(escape[1], 8)])


def publish_entries(stage: Path, site: Path, drop: Collection[str], marker: str) -> None:
    """Put each entry at the top of ``stage`` (a folder inside ``site``) in place of the
    one of its name in ``site`` by one rename, and take away the entries named in
    ``drop`` (pgm's, which the new site has no more); every other entry of ``site`` (the
    user's) stays as it is. ``marker`` goes in first, so that a build cut short leaves a
    site pgm made; then the folders (the static files before the pages that use them),
    the pages, and pgm's own files (``.pgm-state.json``) last: until then the state
    describes the site that is there. ``stage`` is removed at the end, with what was
    replaced."""
    if not (site / marker).is_file():
        _link_or_copy(stage / marker, site / marker)
    aside = stage / REPLACED
    aside.mkdir(exist_ok=True)
    turns: list[list[str]] = [[], [], []]
    with os.scandir(stage) as entries:
        for entry in entries:
            if entry.name not in (marker, REPLACED):
                turns[_turn(entry)].append(entry.name)
    turns[0].sort(key=lambda name: (name != "static", name))
    for name in [*turns[0], *sorted(turns[1])]:
        _put(stage / name, site / name, aside / name)
    for name in drop:
        if os.path.lexists(site / name):
            os.rename(site / name, aside / name)
    for name in sorted(turns[2]):
        _put(stage / name, site / name, aside / name)
    remove_tree(stage, marker)


def _turn(entry: os.DirEntry[str]) -> int:
    """0 for a folder, 1 for a page or other file, 2 for pgm's own files."""
    if entry.is_dir(follow_symlinks=False):
        return 0
    return 2 if entry.name.startswith(".pgm-") else 1


def _put(new: Path, there: Path, aside: Path) -> None:
    """Put ``new`` at ``there`` by one rename. Where the filesystem cannot swap two
    folders (NFS), the old one is moved to ``aside`` first: its name is missing for that
    moment, but never holds half of each."""
    if not os.path.lexists(there):
        os.rename(new, there)
    elif not _is_folder(new) and not _is_folder(there):
        os.replace(new, there)
    elif not exchange(new, there):  # swapped, the old one is at ``new``: removed with it
        os.rename(there, aside)
        os.rename(new, there)


def _is_folder(path: Path) -> bool:
    return stat.S_ISDIR(os.lstat(path).st_mode)


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def remove_tree(folder: Path, marker: str, ignore_errors: bool = False) -> None:
    """Remove ``folder``, which pgm made, even one given a mode read-only for its owner
    (the mode of the folder it replaced). Its ``marker`` goes last, and is put back when
    the folder cannot go (a worker of a build cut short still writing in it): a removal
    cut short leaves a folder the next build knows as pgm's, and removes."""
    with contextlib.suppress(OSError):
        os.chmod(folder, stat.S_IMODE(os.lstat(folder).st_mode) | stat.S_IRWXU)
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return
    except OSError:
        if ignore_errors:
            return
        raise
    for name in names:
        if name != marker:
            _remove(folder / name, ignore_errors)
    try:
        kept = (folder / marker).read_bytes()
    except OSError:
        kept = None
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(folder / marker)
        os.rmdir(folder)
    except OSError:
        if kept is not None and os.path.isdir(folder):
            with contextlib.suppress(OSError):
                (folder / marker).write_bytes(kept)
        if not ignore_errors:
            raise


def _remove(path: Path, ignore_errors: bool) -> None:
    try:
        if _is_folder(path):
            shutil.rmtree(path, ignore_errors=ignore_errors)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError:
        if not ignore_errors:
            raise


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step with Linux ``renameat2``; False where unsupported.
    ``renameat2`` swaps a link itself, not its target: callers pass resolved paths.
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
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    error = ctypes.get_errno()
    if error in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EPERM):  # unsupported
        return False
    raise OSError(error, os.strerror(error), os.fspath(b), None, os.fspath(a))

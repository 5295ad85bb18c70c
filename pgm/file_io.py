"""Files read and written so that nothing half-made is ever seen or left: a record
read only if it is a regular file (a named pipe never blocks a build), and each page
written beside the one it replaces, then renamed onto it."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


def read_regular(path: Path) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file and the stamp of the very file read, taken before
    reading it (a write that lands meanwhile gives the file a newer stamp). Opened
    without waiting, so that a named pipe put in a record's place is refused with
    :class:`NotRegularFile` instead of waiting for a writer forever."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with open(fd, "rb", buffering=0) as handle:  # read whole: no buffer needed
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
        return handle.read(), info


class NotRegularFile(OSError):
    """A named pipe, device or socket where a file is read: never read (a pipe would
    wait for a writer forever, a device may never end)."""


def atomic_write(path: Path, content: str | bytes) -> bool:
    """Replace ``path`` in one rename (temp file in the same folder); False if unchanged.

    A web server serving the folder hands out either the old file or the new one,
    never a mix, and never a 404 for a file that existed.
    """
    temp = stage_write(path, content)
    if temp is None:
        return False
    os.replace(temp, path)
    return True


def holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a file that holds ``data``, byte for byte."""
    try:
        return path.read_bytes() == data
    except OSError:
        return False


def stage_write(path: Path, content: str | bytes, owner: int | None = None) -> Path | None:
    """Write ``content`` to a temporary file beside ``path``, to be renamed onto it
    (``os.replace``) when the caller is ready; None when ``path`` holds it already.
    ``owner`` (default this process) names the build the file is for, whose
    :func:`remove_staged` finds it should the build fail."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    if holds(path, data):
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f".{path.name}.{owner or os.getpid()}.tmp"
    # No fsync: readers need atomicity, not durability across power loss, and a live
    # rebuild should take milliseconds.
    try:
        temp.write_bytes(data)
    except BaseException:  # a full disk: no half-written file is left
        temp.unlink(missing_ok=True)
        raise
    return temp


def remove_staged(folder: Path, owner: int) -> None:
    """The temporary files :func:`stage_write` left in ``folder`` for build ``owner``."""
    for temp in folder.glob(f".*.{owner}.tmp"):
        temp.unlink(missing_ok=True)

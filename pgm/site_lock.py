"""One build at a time writes a site.

A ``pgm build`` run from cron while ``pgm watch`` follows the same games, or two
terminals building the same event, would otherwise read the site's state at the same
time and write over each other: an older page over a newer one, and a state file that
misses the other's pages, whose next rebuild then refuses them as someone else's files.
A build waits for the one writing before it, holding a lock on a file beside the output
folder (where its staging folder goes too: a full build replaces the folder itself).
The lock is the operating system's, so a killed build never leaves it held (only its
empty file, which the next build takes and removes).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from pgm.output import site_folder

try:
    import fcntl
except ImportError:  # Windows: builds there are not kept apart
    fcntl = None  # type: ignore[assignment]


def lock_file(out: Path) -> Path:
    """The lock of the site in ``out``: ``.NAME.pgm-lock`` beside the folder."""
    target = site_folder(out)
    return target.parent / f".{target.name}.pgm-lock"


@contextlib.contextmanager
def writing_alone(out: Path, waiting: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the site's lock while the block runs; when another build holds it, say so
    through ``waiting`` and wait for it to finish. The lock file is there only while a
    build holds it."""
    def said(holder: str) -> None:
        if waiting is not None:
            waiting(f"waiting for another pgm build writing {out}{holder} to finish")

    path = lock_file(out)
    handle = _locked(path, said) if fcntl is not None else None
    if handle is None:
        yield
        return
    try:
        with contextlib.suppress(OSError):  # a file opened for reading only names nobody
            os.ftruncate(handle, 0)
            os.write(handle, f"{os.getpid()}\n".encode())
        yield
    finally:
        with contextlib.suppress(OSError):  # gone, or a folder that no longer lets it go
            os.unlink(path)
        os.close(handle)  # which lets the lock go


def _locked(path: Path, said: Callable[[str], None]) -> int | None:
    """An open lock file at ``path``, locked by this process; None where no file can be
    made there (a folder of the web server's that only the site's own folder in it is
    writable in: an update in place writes nothing else there, and goes on unlocked).
    The build before may remove the file it held as it finishes: a lock taken on a
    file no longer there is taken again on the file there now. ``said`` hears who holds
    it, once."""
    while True:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except PermissionError:  # another user's (a killed cron build's): locked all the same
            try:
                handle = os.open(path, os.O_RDONLY)
            except OSError:
                return None
        except OSError:
            return None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            said(_holder(handle))
            said = _say_nothing
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            if os.path.samestat(os.fstat(handle), os.stat(path)):
                return handle
        except FileNotFoundError:
            pass
        os.close(handle)


def _say_nothing(_holder: str) -> None:
    pass


def _holder(handle: int) -> str:
    """`` (process N)``: the build holding the lock, as it wrote itself in."""
    text = os.pread(handle, 32, 0).decode("ascii", "replace").strip()
    return f" (process {text})" if text.isdigit() else ""

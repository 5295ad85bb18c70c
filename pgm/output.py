"""The output folder: refuse dangerous targets, build beside it, swap it in atomically.

pgm only ever deletes what it created: a folder it built carries a marker file, and an
existing folder without the marker is never replaced. The new site is written to a
sibling staging folder and exchanged with the old one in a single rename, so a
spectator never loads a half-written page and a failed build leaves the previous site.

An output folder given as a link (``public -> /srv/www/club``) stays a link: the site is
staged beside the folder it leads to and swapped into that folder, and the folder a full
build replaces passes its mode, group and owner on to the new one.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

MARKER = ".pgm-site"
_MARKER_TEXT = "This folder was written by pgm build; pgm may replace it.\n"


class OutputError(Exception):
    """An output folder pgm must not use; the message says why and what to do."""


def check_output(out: Path, event: Path, records: list[Path]) -> None:
    """Refuse the event folder itself, a folder holding its records, or a repository; for
    a link, these rules apply to the folder it leads to."""
    _check_link(out)
    out_real, event_real = out.resolve(), event.resolve()
    if out_real == event_real or out_real in event_real.parents:
        what = "is" if out_real == event_real else "contains"
        raise OutputError(f"the output folder {out} {what} the event folder {event_real}; "
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
                              "pgm will not replace it: build into another folder and "
                              "copy the site into the repository (e.g. with rsync)")
        if any(out.iterdir()) and not (out / MARKER).is_file():
            raise OutputError(f"the output folder {out} is not empty and was not made by "
                              "pgm build, which replaces only folders it made; build into "
                              "a new or empty folder, then add your own files to it: "
                              "later builds keep them")


def _check_link(out: Path) -> None:
    """Refuse a link pgm cannot follow to a folder: a loop of links, or a link to a
    folder that does not exist in a folder that does not exist either."""
    try:
        os.path.realpath(out, strict=True)
    except FileNotFoundError:
        pass
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OutputError(f"the output folder {out} is a loop of links; point it at "
                              "a folder") from None
    target = site_folder(out)
    if os.path.islink(out) and not out.exists() and not target.parent.is_dir():
        raise OutputError(f"the output folder {out} is a link to {target}, and "
                          f"{target.parent} does not exist; create it or change the link")


def built_site_holding(path: Path) -> Path | None:
    """The site pgm built (the folder with its marker) that the absolute ``path`` is or
    lies in; None when there is none."""
    return next((above for above in (path, *path.parents) if (above / MARKER).is_file()),
                None)


def site_folder(out: Path) -> Path:
    """The folder the site goes to: ``out`` itself, or the folder it leads to when it is a
    link. The link is the user's: pgm stages beside its target and swaps the target,
    and never replaces or moves the link."""
    return Path(os.path.realpath(out))


def staging_folder(out: Path) -> Path:
    """A fresh folder beside ``out``'s target (same filesystem, so the final rename is
    atomic), with the owner, group and mode of the folder it will replace, set before
    anything is written in it: its subfolders then inherit a setgid group."""
    out.parent.mkdir(parents=True, exist_ok=True)
    target = site_folder(out)
    remove_leftovers(out)
    stage = target.parent / f".{target.name}.pgm-new-{os.getpid()}"
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir()
    _take_attributes(stage, target, writable=True)
    (stage / MARKER).write_text(_MARKER_TEXT, encoding="utf-8")
    return stage


def _take_attributes(stage: Path, target: Path, writable: bool) -> None:
    """Give ``stage`` the group, owner and mode of the folder ``target`` (if there is one):
    a web server's docroot set up by hand (group www-data, setgid) stays so. An owner
    or group this user cannot give is left as it is. ``writable``: keep the folder
    writable for its owner while pgm still writes in it."""
    try:
        want = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        return
    have = os.stat(stage)
    if have.st_gid != want.st_gid:  # the group first: a user may give a group of theirs
        with contextlib.suppress(PermissionError):
            os.chown(stage, -1, want.st_gid)
    if have.st_uid != want.st_uid:  # another owner only as root
        with contextlib.suppress(PermissionError):
            os.chown(stage, want.st_uid, -1)
    mode = stat.S_IMODE(want.st_mode)
    os.chmod(stage, mode | stat.S_IRWXU if writable else mode)


def remove_leftovers(out: Path) -> None:
    """Staging and old folders of a build that was killed; only ones pgm marked (never a
    link: a link is the user's)."""
    target = site_folder(out)
    for pattern in (f".{target.name}.pgm-new-*", f".{target.name}.pgm-old-*"):
        for folder in target.parent.glob(pattern):
            pid = folder.name.rsplit("-", 1)[-1]
            if not folder.is_symlink() and (folder / MARKER).is_file() \
                    and not build_alive(pid):
                _remove_tree(folder, ignore_errors=True)


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


def carry_over(out: Path, stage: Path, made: Callable[[str], bool]) -> None:
    """Put in ``stage`` every file of the site in ``out`` that pgm did not make (``made``
    says, from a path below the site), at the same place: a ``CNAME`` for GitHub Pages,
    an ``.htaccess``, a folder of photos. A full build replaces the whole folder, and
    pgm never deletes what it did not create. Files are linked, not moved, so that a
    build that fails after this leaves them where they were; a link stays a link and an
    empty folder is made again.

    A file of the user's where the new site puts one of its own fails the build before
    anything changes: pgm overwrites neither."""
    site = site_folder(out)
    for folder, subfolders, files in os.walk(site):
        here = os.path.relpath(folder, site)
        prefix = "" if here == "." else here.replace(os.sep, "/") + "/"
        links = [d for d in subfolders if os.path.islink(os.path.join(folder, d))]
        subfolders[:] = [d for d in subfolders if d not in links]
        for name in files + links:
            relative = prefix + name
            if not made(relative) and not _killed_builds_file(prefix, name, made):
                _carry(site / relative, stage / relative, relative)
        if prefix and not files and not links and not subfolders and not made(prefix):
            (stage / here).mkdir(parents=True, exist_ok=True)


_TEMPORARY = re.compile(r"\.(.+)\.\d+\.tmp")
"""A file a killed build left while it wrote the one it names (``pgm.file_io.stage_write``)."""


def _killed_builds_file(prefix: str, name: str, made: Callable[[str], bool]) -> bool:
    """Whether ``name`` is a file a killed build left beside one of pgm's: a user's file
    that only looks like one (``.draft.2024.tmp``) is the user's."""
    temporary = _TEMPORARY.fullmatch(name)
    return temporary is not None and made(prefix + temporary.group(1))


def _carry(source: Path, target: Path, relative: str) -> None:
    """Link ``source``, a file of the user's, to ``target`` in the new site (a copy
    across filesystems, a link made again), unless the new site has a file there."""
    if os.path.lexists(target):
        raise OutputError(f"{source} is not a file pgm made, and the new site has a file "
                          f"of its own at {relative}; move yours elsewhere and build again")
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_symlink():
        os.symlink(os.readlink(source), target)
        return
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def publish(stage: Path, out: Path) -> None:
    """Put ``stage`` in place of ``out``'s target, with that folder's mode as it is now;
    the old site (if any) is removed afterwards."""
    target = site_folder(out)
    if not target.exists():
        os.rename(stage, target)
        return
    _take_attributes(stage, target, writable=False)
    if _exchange(stage, target):
        _remove_tree(stage)
        return
    old = target.parent / f".{target.name}.pgm-old-{os.getpid()}"
    os.rename(target, old)
    os.rename(stage, target)
    _remove_tree(old)


def discard(stage: Path) -> None:
    if stage.exists():
        _remove_tree(stage, ignore_errors=True)


def _remove_tree(folder: Path, ignore_errors: bool = False) -> None:
    """Remove a folder pgm made, even one given a mode read-only for its owner (the
    mode of the folder it replaced)."""
    with contextlib.suppress(OSError):
        os.chmod(folder, stat.S_IMODE(os.lstat(folder).st_mode) | stat.S_IRWXU)
    shutil.rmtree(folder, ignore_errors=ignore_errors)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
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

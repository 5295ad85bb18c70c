"""The output folder: refuse dangerous targets, build beside it, swap it in atomically.

pgm only ever deletes what it created: a folder it built carries a marker file, and an
existing folder without the marker is never replaced. The new site is written to a
sibling staging folder and exchanged with the old one in a single rename, so a
spectator never loads a half-written page and a failed build leaves the previous site.

An output folder given as a link (``public -> /srv/www/club``) stays a link: the site is
staged beside the folder it leads to and swapped into that folder, and the folder a full
build replaces passes its mode, group and owner on to the new one.

An output folder that is a mount point (a Docker volume, an NFS web root, a bind mount)
cannot be renamed: the site is staged in a hidden folder inside it and each entry at its
top is renamed into place (``pgm.output_swap``); the user's entries there stay.

A build killed half-way leaves its staging folder; the next one removes it once the
process that made it is gone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from pgm.build_pids import build_alive as build_alive
from pgm.output_swap import exchange, mount_point, publish_entries, remove_tree

MARKER = ".pgm-site"
_MARKER_TEXT = "This folder was written by pgm build; pgm may replace it.\n"
_INSIDE = re.compile(r"\.pgm-new-(\d+)")
"""A staging folder inside the output folder (a mount point), named with its build's
process id."""


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
        if not (out / MARKER).is_file() and _holds_others(site_folder(out)):
            raise OutputError(f"the output folder {out} is not empty and was not made by "
                              "pgm build, which replaces only folders it made; build into "
                              "a new or empty folder, then add your own files to it: "
                              "later builds keep them")


def _holds_others(folder: Path) -> bool:
    """Whether ``folder`` holds anything but a staging folder pgm left in it and, at a
    mount point, the filesystem's ``lost+found``."""
    with os.scandir(folder) as entries:
        names = [entry.name for entry in entries
                 if not (_INSIDE.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False))]
    return bool(names) and (names != ["lost+found"] or not mount_point(folder))


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
    anything is written in it: its subfolders then inherit a setgid group. Inside the
    target when that is a mount point, which cannot be renamed (see :func:`publish`)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    target = site_folder(out)
    remove_leftovers(out)
    if mount_point(target):
        return _new_stage(target / f".pgm-new-{os.getpid()}", target)
    return _new_stage(target.parent / f".{target.name}.pgm-new-{os.getpid()}", target)


def _new_stage(stage: Path, target: Path) -> Path:
    """Make the staging folder ``stage`` for the site in ``target``, marked as pgm's."""
    if stage.exists():
        remove_tree(stage, MARKER)
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
    """Staging folders and old sites of builds that were killed, beside the output folder
    or (staged in a mount point) inside it, once the process that made them is gone;
    never a link: a link is the user's.

    A staging folder is known by its name: removing it may have been cut short after its
    marker went (pgm 0.1 let ``shutil.rmtree`` take the marker in any order, and a killed
    build's workers went on writing). An old site needs its marker; and when the site
    itself is missing (a build killed between moving the old site aside and the new one
    in), it is put back instead."""
    target = site_folder(out)
    beside = re.compile(rf"\.{re.escape(target.name)}\.pgm-(new|old)-(\d+)")
    found = [(folder, match[1], match[2]) for folder, match in _named(target.parent, beside)]
    found += [(folder, "new", match[1]) for folder, match in _named(target, _INSIDE)]
    for folder, kind, pid in sorted(found, key=lambda item: item[1] != "old"):
        if build_alive(pid, _made_at(folder)):
            continue
        if kind == "new":
            remove_tree(folder, MARKER, ignore_errors=True)
        elif (folder / MARKER).is_file():
            if os.path.lexists(target):
                remove_tree(folder, MARKER, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.rename(folder, target)


def _named(folder: Path, name: re.Pattern[str]) -> list[tuple[Path, re.Match[str]]]:
    """The folders (not links) in ``folder`` whose whole name matches ``name``."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    return [(Path(entry.path), match) for entry in entries
            if (match := name.fullmatch(entry.name)) and entry.is_dir(follow_symlinks=False)]


def _made_at(folder: Path) -> float | None:
    """When ``folder`` was made, at the latest: its marker's time, or its own."""
    try:
        return min(os.stat(path).st_mtime for path in (folder, folder / MARKER)
                   if os.path.lexists(path))
    except (OSError, ValueError):
        return None


def carry_over(out: Path, stage: Path, made: Callable[[str], bool]) -> None:
    """Put in ``stage`` every file of the site in ``out`` that pgm did not make (``made``
    says, from a path below the site), at the same place: a ``CNAME`` for GitHub Pages,
    an ``.htaccess``, a folder of photos. A full build replaces the whole folder, and
    pgm never deletes what it did not create. Files are linked, not moved, so that a
    build that fails after this leaves them where they were; a link stays a link and an
    empty folder is made again.

    A file of the user's where the new site puts one of its own fails the build before
    anything changes: pgm overwrites neither.

    Staged inside a mount point, an entry at the top that holds only the user's files
    and that the new site does not have is left where it is instead (``lost+found``, a
    folder of photos); the entries of pgm's that the new site no longer has are noted
    for :func:`publish` to take away."""
    site = site_folder(out)
    carried: dict[str, list[str]] = {}  # by entry at the top: the user's files below it
    pgms: set[str] = set()  # the entries at the top holding something pgm made
    for folder, subfolders, files in os.walk(site):
        here = os.path.relpath(folder, site)
        prefix = "" if here == "." else here.replace(os.sep, "/") + "/"
        if not prefix:  # pgm's staging folders: this build's, or a live one's
            subfolders[:] = [d for d in subfolders if not _INSIDE.fullmatch(d)]
        links = [d for d in subfolders if os.path.islink(os.path.join(folder, d))]
        subfolders[:] = [d for d in subfolders if d not in links]
        top = prefix.partition("/")[0]
        if prefix and made(prefix):
            pgms.add(top)
        for name in files + links:
            relative = prefix + name
            if made(relative) or _killed_builds_file(prefix, name, made):
                pgms.add(top or name)
            else:
                carried.setdefault(top or name, []).append(relative)
        if prefix and not files and not links and not subfolders and not made(prefix):
            carried.setdefault(top, []).append(prefix)  # an empty folder, made again
    _PLANS[os.fspath(stage)] = _carry_all(site, stage, carried, pgms)


@dataclass(frozen=True)
class _Plan:
    """What a publish does to the entries at the top of the site it replaces, besides
    putting the new site's in place."""

    drop: tuple[str, ...] = ()
    """pgm's entries, which the new site has no more."""
    keep: tuple[str, ...] = ()
    """The user's, which the new site does not have either."""


_PLANS: dict[str, _Plan] = {}
"""By staging folder: the plan :func:`carry_over` made for :func:`publish`."""


def _carry_all(site: Path, stage: Path, carried: dict[str, list[str]], pgms: set[str]
               ) -> _Plan:
    """Carry the user's files into ``stage``, by entry at the top of ``site``; staged in
    it (a mount point), leave there the entries that are the user's alone."""
    inside = stage.parent == site
    drop, keep = [], []
    for name in sorted(carried.keys() | pgms):
        new = os.path.lexists(stage / name)
        if not new and name not in pgms:
            keep.append(name)
            if inside:
                continue
        for relative in carried.get(name, ()):
            if relative.endswith("/"):
                (stage / relative).mkdir(parents=True, exist_ok=True)
            else:
                _carry(site / relative, stage / relative, relative)
        if not os.path.lexists(stage / name):
            drop.append(name)
    return _Plan(tuple(drop), tuple(keep))


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
    the old site (if any) is removed afterwards. A staging folder inside the target (a
    mount point) is published entry by entry (``pgm.output_swap.publish_entries``); so
    is one beside a target that turns out not to be renamed (EBUSY: a mount point not
    told as one) or to lie on another filesystem (EXDEV), after a copy into it."""
    target = site_folder(out)
    plan = _PLANS.pop(os.fspath(stage), _Plan())
    if stage.parent == target:
        publish_entries(stage, target, plan.drop, MARKER)
        return
    if not target.exists():
        os.rename(stage, target)
        return
    _take_attributes(stage, target, writable=False)
    old = target.parent / f".{target.name}.pgm-old-{os.getpid()}"
    try:
        swapped = exchange(stage, target)
        if not swapped:
            os.rename(target, old)
    except OSError as exc:
        if exc.errno not in (errno.EBUSY, errno.EXDEV):
            raise
        _publish_copied(stage, target, plan)
        return
    if swapped:
        remove_tree(stage, MARKER)
        return
    os.rename(stage, target)
    remove_tree(old, MARKER)


def _publish_copied(stage: Path, target: Path, plan: _Plan) -> None:
    """Copy ``stage`` into a staging folder inside ``target`` and publish that, entry by
    entry; the user's entries the new site does not have stay where they are."""
    inside = _new_stage(target / f".pgm-new-{os.getpid()}", target)
    try:
        for name in os.listdir(stage):
            if name == MARKER or name in plan.keep:
                continue
            if os.path.isdir(stage / name) and not os.path.islink(stage / name):
                shutil.copytree(stage / name, inside / name, symlinks=True)
            else:
                shutil.copy2(stage / name, inside / name, follow_symlinks=False)
        publish_entries(inside, target, plan.drop, MARKER)
    except BaseException:
        remove_tree(inside, MARKER, ignore_errors=True)
        raise
    remove_tree(stage, MARKER)


def discard(stage: Path) -> None:
    """Remove the staging folder of a build that failed; the site stays as it was."""
    _PLANS.pop(os.fspath(stage), None)
    if stage.exists():
        remove_tree(stage, MARKER, ignore_errors=True)


def write_files(folder: Path, files: Iterable[tuple[str, str | bytes]],
                last_site: Path | None = None) -> None:
    """Write new files under ``folder`` of the staging tree, making each subfolder once:
    a game's pages share one folder, and asking for it per page costs a system call.
    A file the same as ``last_site``'s (the site the build replaces) keeps its times
    (see :func:`keep_times_if_unchanged`)."""
    root = os.fspath(folder)
    old_root = os.fspath(last_site) if last_site is not None else None
    made: set[str] = set()
    for name, content in files:
        parent = name.rpartition("/")[0]
        if parent not in made:
            os.makedirs(os.path.join(root, parent), exist_ok=True)
            made.add(parent)
        _write_new(f"{root}/{name}",
                   content.encode("utf-8") if isinstance(content, str) else content,
                   f"{old_root}/{name}" if old_root is not None else None)


def _write_new(path: str, data: bytes, old: str | None = None) -> None:
    """Create or truncate ``path`` and write ``data`` with bare system calls: a turn page
    is a few kilobytes, and a Python file object's buffer and bookkeeping would cost
    as much again as the write itself. With the times of ``old`` if it holds ``data``."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if old is not None and (times := _times_if_holding(old, data)) is not None:
            os.utime(fd, ns=times)
    finally:
        os.close(fd)


def keep_times_if_unchanged(stage: Path, last_site: Path, relatives: Iterable[str]) -> None:
    """Give each of these files of ``stage`` the times of the file it replaces in
    ``last_site`` when the two hold the same bytes. A full build (a new pgm, theme or
    ``event.yaml``) makes every file anew, mostly as it was: rsync, ``s3 sync`` and FTP
    mirror tools, which send a file whose time changed, then send only what did."""
    for relative in relatives:
        path, old = stage / relative, last_site / relative
        with contextlib.suppress(OSError):
            if not path.is_file() or path.is_symlink() or \
                    path.stat().st_size != old.stat().st_size:  # read only a likely twin
                continue
            times = _times_if_holding(os.fspath(old), path.read_bytes())
            if times is not None:
                os.utime(path, ns=times)


def _times_if_holding(old: str, data: bytes) -> tuple[int, int] | None:
    """(access, modification) times in nanoseconds of the regular file ``old`` if it
    holds ``data``; None if not, or if there is none."""
    try:
        found = os.stat(old, follow_symlinks=False)
        if not stat.S_ISREG(found.st_mode) or found.st_size != len(data):
            return None
        fd = os.open(old, os.O_RDONLY | os.O_CLOEXEC)
        try:
            same = os.read(fd, len(data) + 1) == data
        finally:
            os.close(fd)
    except OSError:
        return None
    return (found.st_atime_ns, found.st_mtime_ns) if same else None

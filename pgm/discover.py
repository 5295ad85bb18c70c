"""Find the records of an event and give each game a stable folder name (its slug).

Slugs come from the record's path below the event folder (``Round 3/Table 1.gcg`` ->
``round-3/table-1``), so links to turn pages stay valid as long as the file keeps its
name. A record the previous build knew (a draft too) keeps the slug it had there,
whatever records were added since; the others get theirs in sorted path order, names
that collide after slugging (with each other or with a kept slug) taking ``-2``, ``-3``.
A folder takes a number likewise where a game has its slug, so no game is ever inside
another game's folder. A first build of the same files therefore always gives the same
slugs.
"""

from __future__ import annotations

import codecs
import functools
import os
import re
import stat
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pgm.diagnostics import Diagnostic, Severity
from pgm.output import MARKER
from pgm.text_fold import without_accents
from pgm.utf16 import utf16_encoding

RECORD_EXTENSIONS = (".gcg", ".gn", ".cgp", ".ubf")
_MAX_SLUG_PART = 60
_RESERVED = {"static", "players", "index", "404", "sitemap", "con", "prn", "aux", "nul"}
"""Names no slug part takes: the site's own folder ``static/`` (slugs hold no dot, so
they can meet no file pgm writes, such as ``index.html`` or ``moves.csv``), stems of
pages at the site root, and names some systems refuse. A name added here moves the
games that had it, so the set stays as it is."""
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*(?:/[a-z0-9]+(?:-[a-z0-9]+)*)*")


@dataclass(frozen=True)
class Source:
    """One record file of the event."""

    path: Path
    relative: str
    """Path below the event folder, with '/' separators."""
    slug: str


def skipped_warnings(problems: Iterable[str]) -> list[Diagnostic]:
    """The problems a walk met (``PATH: why; skipped``, the path from where pgm runs) as
    warnings about the whole file, printed as every other problem is."""
    return [Diagnostic(shown_name(path), 0, Severity.WARNING, why)
            for path, _, why in (problem.partition(": ") for problem in problems)]


CONFIG_NAME = "event.yaml"
"""The name of an event's configuration file, in its folder and in any folder below."""

_CONFIG_SPELLINGS = frozenset({CONFIG_NAME, "event.yml", "event.yaml.txt", "event.yml.txt"})
"""``event.yaml`` as it is also written (``Event.yaml`` is read on Windows and macOS, not
on the Linux server the site may be built on; Notepad adds ``.txt``): lower-cased, these
names are warned of."""

_SYSTEM_FOLDERS = frozenset({"$recycle.bin", "recycler", "system volume information"})
"""Folders Windows keeps on a drive or a synced folder, lower-cased: the Recycle Bin holds
deleted records (and their ``$I`` info files, binary), which are no games of the event."""


def walk_records(root: Path, extensions: Collection[str] = RECORD_EXTENSIONS
                 ) -> tuple[list[str], list[str]]:
    """Record files below ``root`` in sorted order, as paths below it with '/'
    separators, and problems met on the way. By default the files ``pgm build`` reads,
    which ``pgm check`` and ``pgm export`` read too (pgm.record_inputs), so that all
    three find the same records; ``extensions`` chooses others.

    Hidden folders, sites pgm built and links leading out of the event are skipped:
    nothing outside the event folder is ever read. Paths are strings: a rebuild lists an
    event of thousands of records every time, and strings are cheaper to make and to
    compare than ``Path`` objects."""
    found: list[str] = []
    problems: list[str] = []
    _walk(str(root), "", root.resolve(), found, problems, extensions)
    return found, problems


def _walk(folder: str, prefix: str, real_root: Path, found: list[str], problems: list[str],
          extensions: Collection[str]) -> None:
    """A folder's records in name order, then its subfolders' in name order (the order
    of ``os.walk``); folders are not followed into when they are links."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError:
        return
    subfolders = []
    for entry in entries:
        if _is_folder(entry):
            if entry.name.startswith((".", "_")) or entry.name.lower() in _SYSTEM_FOLDERS:
                continue
            if entry.is_symlink():
                # a link within the event leads to records read where they are; one out
                # of it (a club's shared drive) is said, or its round goes missing unseen
                if _leads_out(entry, real_root):
                    problems.append(f"{Path(entry.path)}: links outside the event folder; "
                                    "skipped")
            elif not _is_site(entry):
                subfolders.append(entry)
        elif editor_file(entry.name):
            continue
        elif os.path.splitext(entry.name)[1].lower() in extensions \
                and not entry.name.startswith("."):
            # Folders are not followed into, so only a file link can lead outside.
            reason = _left_out(entry, real_root)
            if reason:
                problems.append(f"{Path(entry.path)}: {reason}; skipped")
                continue
            found.append(prefix + entry.name)
        elif entry.name.lower() in _CONFIG_SPELLINGS and entry.name != CONFIG_NAME:
            problems.append(f"{Path(entry.path)}: {_config_misnamed(entry.name)}")
        elif entry.name == "config.txt":
            problems.append(f"{Path(entry.path)}: not read: pgm takes what pgm.pl's "
                            f"config.txt said from {CONFIG_NAME} (title, division, round, "
                            "games:); see README, Coming from pgm.pl")
        elif reason := _near_miss(entry, real_root, extensions, entries):
            problems.append(f"{Path(entry.path)}: {reason}")
    for entry in subfolders:
        _walk(entry.path, f"{prefix}{entry.name}/", real_root, found, problems, extensions)


def _config_misnamed(name: str) -> str:
    """The warning for ``event.yaml`` saved under another spelling of its name."""
    if name.lower().endswith(".txt"):
        return (f"not read: pgm reads an event's configuration from a file named "
                f"{CONFIG_NAME}; rename it to {CONFIG_NAME} (Notepad adds .txt unless "
                "\"Save as type\" is \"All files\")")
    return (f"pgm reads an event's configuration only from a file named {CONFIG_NAME}, "
            "all in lower case (other spellings are not read on Linux, where sites are "
            f"often built): rename it to {CONFIG_NAME}")


def _near_miss(entry: os.DirEntry[str], real_root: Path, extensions: Collection[str],
              beside: Iterable[os.DirEntry[str]]) -> str:
    """Why a file that looks meant as a record is skipped, and its name to show it, or
    "" for any other file: a record named ``.txt`` as well (``game.gcg.txt``, as
    Windows' Notepad saves it, with the extension hidden) or only (``game.txt``, which
    starts like a GCG file). Such a file is not read (a name is what tells pgm a record,
    and a ``.txt`` copy beside the record would be a second game), but passed over in
    silence it would be a game missing from the site with nobody told.

    An editor's backups and autosaves (``game.gcg~``, ``game.gcg.bak``, ``.orig``,
    ``#game.gcg#``, ``.game.gcg.swp``) are skipped in silence: the editor made them
    beside the record it shows, and a warning for each at every build would teach a
    director to read no warning at all."""
    name = entry.name
    stem, extension = os.path.splitext(name)
    if name.startswith(".") or not _may_be_misnamed(extension.lower()):
        return ""
    wrapped = os.path.splitext(stem)[1]
    if extension.lower() == ".txt" and wrapped.lower() in extensions:
        return _rename_to(f"named {wrapped}{extension}", stem, beside)
    if ".gcg" in extensions and not _left_out(entry, real_root) and _starts_like_gcg(entry):
        named = f"named {extension}" if extension else "named without an extension"
        return _rename_to(f"a GCG record {named}", stem + ".gcg", beside)
    return ""


def misnamed_record(path: Path) -> str:
    """Why a file given by name (``pgm check game.gcg.txt``) is not read as a record,
    worded as the walk of its folder words it; "" if it does not look meant as one."""
    folder = path.parent
    try:
        with os.scandir(folder) as listing:
            beside = list(listing)
    except OSError:
        return ""
    entry = next((e for e in beside if e.name == path.name), None)
    return _near_miss(entry, folder.resolve(), RECORD_EXTENSIONS, beside) if entry else ""


def _may_be_misnamed(extension: str) -> bool:
    """Whether a file of this (lower-cased) extension may be a record under the wrong
    name, so that its head is worth a look: ``.txt``, as Notepad saves; none, as a file
    copied from a mail often is; or ``.gcg`` mistyped by one letter (``.gc``, ``.gcgg``,
    ``.gcf``, ``.ggc``). Other files (a poster, a results sheet) are never opened."""
    if extension in ("", ".txt"):
        return True
    return _one_slip(extension[1:], "gcg")


def _one_slip(typed: str, meant: str) -> bool:
    """Whether ``typed`` is ``meant`` with one letter left out, added or changed, or two
    next to each other swapped."""
    if len(typed) == len(meant):
        differ = [i for i, (a, b) in enumerate(zip(typed, meant, strict=True)) if a != b]
        return len(differ) == 1 or (len(differ) == 2 and differ[1] == differ[0] + 1
                                    and typed[differ[0]] == meant[differ[1]]
                                    and typed[differ[1]] == meant[differ[0]])
    shorter, longer = sorted((typed, meant), key=len)
    return len(longer) == len(shorter) + 1 and \
        any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))


def editor_file(name: str) -> bool:
    """Whether a file's ``name`` is one an editor or a file manager leaves beside the
    files it shows (``x~``, ``#x#``, ``.#x``, ``.x.swp``, ``x.bak``, ``x.orig``,
    ``.DS_Store``, ``Thumbs.db``, Office's lock file ``~$x``): the backups and autosaves
    a record's walk passes over in silence (see ``_near_miss``), and which a theme's files
    leave out likewise."""
    return name.endswith("~") or name.startswith((".#", "~$")) or name in _EDITOR_NAMES or \
        (len(name) > 1 and name.startswith("#") and name.endswith("#")) or \
        name.lower().endswith(_EDITOR_SUFFIXES)


def without_editor_files(files: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Files listed as (path below a folder, full path), but those an editor leaves beside
    the files it shows (:func:`editor_file`): a theme's ``logo.svg~`` is neither read,
    published nor a change to rebuild for."""
    return [(relative, path) for relative, path in files
            if not editor_file(relative.rpartition("/")[2])]


_EDITOR_NAMES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
_EDITOR_SUFFIXES = (".swp", ".swo", ".swx", ".bak", ".orig")


def _rename_to(what: str, name: str, beside: Iterable[os.DirEntry[str]]) -> str:
    """The warning of a near miss ``what`` whose record name would be ``name``; another
    name when a record of that name is beside it already (this may be its copy)."""
    shown = shown_name(name)
    if any(other.name == name for other in beside):
        return (f"skipped: {what}, and {shown} beside it is shown; if it is another game, "
                f"give it a name of its own ending in {os.path.splitext(shown)[1]}")
    return f"skipped: {what}; rename it to {shown} to show it"


_GCG_START = re.compile(r"^[ \t]*#(?:player[12]|character-encoding)[ \t]", re.MULTILINE)
"""A line a GCG file starts with: a file of notes that only mentions GCG does not."""
_HEAD = 1024
"""Bytes of a ``.txt`` file looked at: the pragmas at the top of a GCG file."""


def _starts_like_gcg(entry: os.DirEntry[str]) -> bool:
    """Whether a ``.txt`` file holds a GCG record: one of its first lines is a player or
    encoding pragma (in UTF-16 too, as Notepad's "Unicode" saves it). Only the head is
    read, and without waiting: a named pipe answers nothing."""
    try:
        fd = os.open(entry.path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        head = os.read(fd, _HEAD) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return False
    finally:
        os.close(fd)
    encoding = utf16_encoding(head)  # pragmas are ASCII: any other encoding reads them
    text = head.decode(encoding, errors="replace").removeprefix("\ufeff") if encoding \
        else head.removeprefix(codecs.BOM_UTF8).decode("latin-1")
    return _GCG_START.search(text) is not None


def _left_out(entry: os.DirEntry[str], real_root: Path | None) -> str:
    """Why a file pgm meets is not read, or "" when it is: the one rule for records
    and for the files of templates and themes. Read are regular files and links to
    them, but no link leading out of ``real_root`` (when given): nothing outside the
    event folder is read. Reading a named pipe would wait for a writer forever, and a
    device may never end."""
    if _leads_out(entry, real_root):
        return "links outside the event folder"
    odd = _not_regular(entry)
    return f"{odd}, not a regular file" if odd else ""


def _leads_out(entry: os.DirEntry[str], real_root: Path | None) -> bool:
    return real_root is not None and entry.is_symlink() and \
        not Path(os.path.realpath(entry.path)).is_relative_to(real_root)


def tree_files(folder: Path, real_root: Path | None) -> tuple[list[tuple[str, str]], list[str]]:
    """The files below ``folder`` that pgm reads and copies (a theme's templates and
    ``static/``, pgm's own), sorted, as (path below ``folder`` with '/', full path), and
    the problems met. The fingerprint of the site and the copy of static files take
    these files and no others. Links are followed, to files and to folders, as long as
    they stay inside ``real_root`` (the resolved event folder; None for pgm's own
    folders); a link to a folder it is in is not followed twice."""
    found: list[tuple[str, str]] = []
    problems: list[str] = []
    real = os.path.realpath(folder)
    if real_root is not None and not Path(real).is_relative_to(real_root):
        problems.append(f"{folder}: links outside the event folder; skipped")
    elif os.path.isdir(real):
        _walk_tree(str(folder), "", real_root, {real}, found, problems)
    return sorted(found), problems


def _walk_tree(folder: str, prefix: str, real_root: Path | None, inside: set[str],
               found: list[tuple[str, str]], problems: list[str]) -> None:
    """``inside``: the real paths of the folders being walked, so that a link to one of
    them ends there instead of going round for ever."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError as exc:
        problems.append(f"{Path(folder)}: cannot read the folder: {exc.strerror}; skipped")
        return
    for entry in entries:
        if _is_folder(entry) and not _leads_out(entry, real_root):
            real = os.path.realpath(entry.path)
            if real in inside:
                problems.append(f"{Path(entry.path)}: links to a folder it is in; skipped")
                continue
            _walk_tree(entry.path, f"{prefix}{entry.name}/", real_root, inside | {real},
                       found, problems)
            continue
        reason = _left_out(entry, real_root)
        if reason:
            problems.append(f"{Path(entry.path)}: {reason}; skipped")
        else:
            found.append((prefix + entry.name, entry.path))


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _not_regular(entry: os.DirEntry[str]) -> str:
    """What a record's directory entry is when it is not a regular file (a link is
    followed: a link to a record inside the event is read as the record); "" for a
    regular file."""
    try:
        if entry.is_file():  # the listing's file type: no system call but for a link
            return ""
        mode = entry.stat().st_mode
    except OSError:
        return "a broken link" if entry.is_symlink() else "unreadable"
    return special_kind(mode)


def special_kind(mode: int) -> str:
    """A file type other than a regular file, in words."""
    for test, kind in ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return kind
    return "a special file"


def _is_site(entry: os.DirEntry[str]) -> bool:
    """A site pgm built, wherever it was built to: its game folders hold each record
    again (``input.gcg``), which must not become games of the event. Any other folder
    is searched, so that an output folder holding records is noticed and refused."""
    return os.path.isfile(os.path.join(entry.path, MARKER))


def relative_posix(root: Path, path: Path) -> str:
    """``path`` below ``root`` with '/' separators; by string, because the records of a
    large event are many and ``Path.relative_to`` is slow."""
    prefix = os.path.join(str(root), "")
    text = str(path)
    if text.startswith(prefix):
        return text[len(prefix):].replace(os.sep, "/")
    return path.relative_to(root).as_posix()


def shown_name(text: str) -> str:
    """A path as pgm shows it (pages, ``game.json``, ``moves.csv``, messages): as it is,
    except the bytes of a file name that are not UTF-8, which Python keeps as surrogate
    escapes (so that the file can still be opened) and which no UTF-8 text can hold.
    They are read as ISO-8859-1, as a record's own text that is not UTF-8 is, and
    0x80-0x9F as Windows-1252: ``b"caf\\xe9.gcg"`` is shown ``café.gcg``. Several names
    may show alike; pgm keeps the path as it is wherever it tells records apart.

    In a locale that is not UTF-8 (``LC_ALL=C`` without Python's UTF-8 mode) every
    byte beyond ASCII is such an escape: a name whose bytes are UTF-8 is shown as
    UTF-8 all the same, so that its page's address does not depend on the locale."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape").decode("utf-8")
        except UnicodeDecodeError:
            return _SURROGATE.sub(lambda m: _LATIN1_BYTE.get(m.group(), "\ufffd"), text)
    return text


_SURROGATE = re.compile("[\ud800-\udfff]")
_LATIN1_BYTE = {chr(0xDC00 + byte): bytes([byte]).decode("cp1252", errors="replace")
                for byte in range(0x80, 0x100)}
"""Each byte a file name's surrogate escape stands for, as a character: Windows-1252,
which is ISO-8859-1 but for 0x80-0x9F; the five bytes it leaves undefined become
U+FFFD."""


def name_bytes(text: str) -> bytes:
    """A path below the event in UTF-8, with a file name's bytes that are not UTF-8 as
    they are (see :func:`shown_name`): what pgm hashes and enciphers to know a record
    again, one for each file."""
    return text.encode("utf-8", "surrogateescape")


@functools.lru_cache(maxsize=65_536)
def slugify(text: str) -> str:
    """Lower-case ASCII words joined by hyphens; never empty, never a dot name. A name
    is slugged as it is shown (``caf\\xe9.gcg`` as ``café.gcg``: ``cafe``)."""
    ascii_text = without_accents(shown_name(text)).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:_MAX_SLUG_PART].strip("-")
    if not slug:
        slug = "game"
    if slug in _RESERVED:
        slug += "-game"
    return slug


def assign_slugs(root: Path, paths: list[Path], previous: Mapping[str, str] | None = None
                 ) -> list[Source]:
    return list(make_sources(root, [relative_posix(root, p) for p in paths], previous))


def make_sources(root: Path, relatives: list[str], previous: Mapping[str, str] | None = None
                 ) -> tuple[Source, ...]:
    """The records below ``root`` sorted by path, each with its slug. ``previous`` maps
    records (paths below ``root``) to the slugs the last build gave them, which they
    keep: a record added later never takes an existing game's address.

    The same listing and slugs as the last call give the same sources: a watch session
    lists the event again and again, and slugging thousands of names each time would be
    most of a rebuild. The previous slugs are compared by identity first (a rebuild
    with nothing changed has the same state), then by value."""
    key = (str(root), tuple(relatives))
    if _last_sources:
        last_key, last_previous, last = _last_sources[0]
        if last_key == key and (previous is last_previous or previous == last_previous):
            _last_sources[0] = (key, previous, last)
            return last
    sources = _slugged(root, sorted(relatives), previous or {})
    _last_sources[:] = [(key, previous, sources)]
    return sources


_last_sources: list[tuple[tuple[str, tuple[str, ...]], Mapping[str, str] | None,
                          tuple[Source, ...]]] = []


def _slugged(root: Path, relatives: list[str], previous: Mapping[str, str]
             ) -> tuple[Source, ...]:
    taken: set[str] = set()
    folders: set[str] = set()
    """Every folder a slug lives in: a new game may not take a folder's name."""
    kept: dict[str, str] = {}
    # In slug order, where a game comes before any slug inside its folder: of a game and
    # one that an older build put inside its folder, the game outside keeps its address.
    for old, relative in sorted((previous[r], r) for r in relatives if r in previous):
        if kept_slug(old) and old not in taken and old not in folders and \
                not _folders_of(old) & taken:
            kept[relative] = old
            _take(old, taken, folders)
    sources = []
    paths: dict[str, Path] = {}
    slug_folders: dict[str, str] = {"": ""}
    alone = _games_in_own_folder(relatives)
    for relative in relatives:
        folder_names, _, name = relative.rpartition("/")
        slug = kept.get(relative)
        if slug is None:
            base = _slug_folder(folder_names, slug_folders, taken)
            base = base[:-1] if relative in alone else base + slugify(os.path.splitext(name)[0])
            slug, n = base, 2
            while slug in taken or slug in folders:
                slug, n = f"{base}-{n}", n + 1
            _take(slug, taken, folders)
        # One Path per folder, joined with each name: parsing every path whole is slow.
        folder = paths.get(folder_names) or paths.setdefault(folder_names,
                                                             Path(root, folder_names))
        sources.append(Source(folder / name, relative, slug))
    return tuple(sources)


def _games_in_own_folder(relatives: list[str]) -> set[str]:
    """The records laid out as pgm.pl kept them, ``FOLDER/input.gcg`` alone in its
    folder, with nothing below it: the game takes the folder's address, so that the
    links an archive's readers kept (``.../r01b05/``) still lead to the game."""
    folders = [relative.rpartition("/")[0] for relative in relatives]
    records_in = Counter(folders)
    holding_more = {outer for folder in records_in for outer in _folders_of(folder)}
    return {relative for relative, folder in zip(relatives, folders, strict=True)
            if folder and records_in[folder] == 1 and folder not in holding_more
            and os.path.splitext(relative[len(folder) + 1:])[0].lower() == "input"}


def _slug_folder(folder_names: str, slug_folders: dict[str, str], taken: set[str]) -> str:
    """The folder part, ending in '/', of a new slug for the records in ``folder_names``
    (a path below the event): each folder slugged, taking ``-2``, ``-3`` where a game
    has that slug already, so that no game is put inside another game's folder. Made
    when the folder's first new record is slugged and then kept for its others."""
    done = slug_folders.get(folder_names)
    if done is None:
        parent, _, name = folder_names.rpartition("/")
        start = _slug_folder(parent, slug_folders, taken) + slugify(name)
        found, n = start, 2
        while found in taken:
            found, n = f"{start}-{n}", n + 1
        done = slug_folders[folder_names] = found + "/"
    return done


def _folders_of(slug: str) -> set[str]:
    parts = slug.split("/")
    return {"/".join(parts[:i]) for i in range(1, len(parts))}


def _take(slug: str, taken: set[str], folders: set[str]) -> None:
    taken.add(slug)
    folders.update(_folders_of(slug))


@functools.lru_cache(maxsize=65_536)
def kept_slug(slug: str) -> bool:
    """Whether a slug from a previous build may be kept: one pgm could have made (so a
    damaged state file cannot lead a game out of the site, or onto ``static/``)."""
    return _SLUG.fullmatch(slug) is not None and \
        not any(part in _RESERVED for part in slug.split("/"))


_ROUND = re.compile(r"(?:^|[^a-z])(?:(?:round|rnd|(?<![0-9])rd|r)[\s_#-]*(\d+)"
                    r"|(?:ronde|ronda|runda|runde|rodada|turno|tour|manche)[\s_#-]*(\d{1,3})(?!\d))",
                    re.IGNORECASE)
_TABLE = re.compile(r"(?:^|[^a-z])(?:table|board|tbl|t|b|stol|stół|stolik|tisch|tafel|mesa"
                    r"|taula|tavolo)[\s_#-]*(\d+)(?:([a-d])(?![a-z0-9]))?", re.IGNORECASE)
"""A word after a digit counts (``r3t5``, ``nsc2024r3``), and so do ``Rnd 3`` and
``Table #7``, but not the ``rd`` of an
ordinal: ``3rd-4th.gcg`` names no round. Clubs that keep their records in French,
Polish, German, Spanish, Catalan, Portuguese or Italian name rounds ``ronde-1``,
``manche-1``, ``tour-1``, ``runda-1``, ``Runde 1``, ``ronda-1``, ``rodada-1`` or
``turno-1`` and tables ``stol-1``, ``Tisch 1``, ``mesa-1``, ``taula-1`` or ``tavolo-1``;
those words take a number of at most three digits, so that ``Tour 2024`` is a tour, not
its 2024th round."""


def _round_number(found: re.Match[str]) -> str:
    return str(int(found.group(1) or found.group(2)))


def guess_round(relative: str) -> str | None:
    """The round a path names (``round-03/...``, ``r3-...``), as a plain number. The
    innermost folder that names one decides; the file name only when no folder does, as
    a record downloaded from elsewhere keeps the round of the event it came from."""
    *folders, name = relative.split("/")
    for part in reversed(folders):
        found = _ROUND.search(part)
        if found:
            return _round_number(found)
    found = _ROUND.search(name)
    return _round_number(found) if found else None


def guess_table(relative: str) -> str | None:
    """The table a file name names (``table-05``, ``r3t5``, ``r1b2``), as a plain number,
    with the letter of a table split in two (``table-1b``: games played side by side), a
    to d: other letters are more likely words (``board-2x``, ``t3s``) than halves. A name
    that names none leaves it to its folder: pgm.pl kept each game in a folder of its
    own (``r01b05/input.gcg``)."""
    *folders, name = relative.split("/")
    found = _TABLE.search(name) or (_table_folder(folders[-1]) if folders else None)
    return f"{int(found.group(1))}{(found.group(2) or '').lower()}" if found else None


def _table_folder(folder: str) -> re.Match[str] | None:
    """The table a folder of its own names: one that starts with the word written out
    (``table-3/``, ``Board 5/``) or names the round too (``r01b05/``); a division's name
    of a letter and a number (``B1/``, ``Liga B1/``) names none."""
    found = _TABLE.search(folder)
    if found is None:
        return None
    spelt_out = found.start() == 0 and len(folder[:found.start(1)].rstrip(" _#-")) > 1
    return found if spelt_out or names_round(folder) else None


DIVISION_JOIN = " / "
"""Between the folders that together name a division."""


def guess_division(relative: str, folders: int = 1) -> str | None:
    """The division: the first ``folders`` folders that name no round, joined (see
    ``GameSettings.division_folders``). One by default: a folder per day, per player or
    for late games below a division's is no division of its own."""
    named = [part for part in relative.split("/")[:-1] if not names_round(part)]
    return DIVISION_JOIN.join(named[:folders]) or None


def names_round(folder: str) -> bool:
    """Whether a folder's name names a round (``round-3``, ``R3``), as
    :func:`guess_round` reads it: such a folder is never a division."""
    return _ROUND.search(folder) is not None

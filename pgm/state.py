"""What a built site remembers about its inputs, so a rebuild redoes only what changed.

``.pgm-state.json`` in the output holds a fingerprint of everything that shapes the
whole site (pgm version, templates, static files, event configuration), per game a
fingerprint of its record and settings, its index entry and the files it wrote, and the
slugs of the drafts, which they keep as the games do theirs. The file is published with
the site, so a draft is written sealed (:func:`seal_draft`): its record's name, which
often names the players, is not there to read, though a guess of it can be confirmed.
Unchanged games are neither replayed nor rendered again; files pgm did not list here
are never deleted.

A record is read and hashed only when its file's stamp (size, times, inode) is not the
one kept with its digest: a rebuild of a large event then costs a ``stat`` per record.
A stamp is kept only for a file that had been left alone for a while before it was read
(``SETTLED_NS``), so that a second write within the same tick of the file clock, which
could leave every part of the stamp as it was, is still noticed.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from pgm.diagnostics import Diagnostic, Severity
from pgm.discover import name_bytes
from pgm.file_io import read_regular
from pgm.site_model import GameEntry

STATE_NAME = ".pgm-state.json"
_FORMAT = 4

Stamp = tuple[int, int, int, int]
"""A record file's size, modification and change times (ns) and inode number."""

SETTLED_NS = 100_000_000
"""How long a file must have been left alone before it is read for its stamp to be kept.
A write changes the stamp only if it lands in a later tick of the file clock; the
kernel stamps files from a clock that ticks every few milliseconds and lags up to a
tick behind the one pgm reads."""

SAVE_SETTLE_NS = 1_000_000_000
"""While watching, how long a record just saved is left alone before a save that looks
caught half-way is published (``pgm.workers._unsettled``): an editor that saves every
second or so is then seen between two saves."""

COARSE_SETTLED_NS = 3_000_000_000
"""The same for file systems that keep times in whole seconds or coarser (FAT keeps
2 s), told by file times without a fraction of a millisecond."""


@dataclass(frozen=True)
class RecordPrint:
    """What a record's bytes hash to, and the file stamp that vouches for it."""

    digest: str
    stamp: Stamp | None
    """None when the file was written too recently to tell a later write by its stamp."""


@dataclass
class GameState:
    fingerprint: str
    entry: GameEntry
    files: Sequence[str]
    """Names of the game's files inside its folder (``entry.slug``)."""
    clean: bool = True
    """Whether the record replayed without errors (watch mode keeps the last clean pages
    while an editor's half-written save does not parse)."""
    record: RecordPrint | None = None
    """The record file as last read; it spares reading it again while its stamp holds."""
    kept_for: tuple[Diagnostic, ...] | None = None
    """While the game's last good pages are kept, the problems of its record as it is
    now: the build reports them, and the site (the entry) goes on showing the game as
    it was, so that spectators see no half-saved line come and go."""
    _json_text: bytes | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Every game has an index.html, a 1.html, a 2.html...: a large event keeps one
        # tuple of each list of names (games of as many turns share one), not one a game.
        names = tuple(self.files)
        shared = _shared_names.get(names)
        if shared is None:
            shared = _shared_names[names] = tuple(sys.intern(name) for name in names)
        self.files = shared

    def __reduce__(self) -> tuple[type[GameState], tuple[Any, ...]]:
        """Sent back from a worker through ``__init__``, so the names are shared."""
        return GameState, (self.fingerprint, self.entry, self.files, self.clean, self.record,
                           self.kept_for)

    @property
    def paths(self) -> list[str]:
        """The game's files, relative to the output folder."""
        return [f"{self.entry.slug}/{name}" for name in self.files]

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The problems of the game's record, for the build to report."""
        return self.entry.diagnostics if self.kept_for is None else self.kept_for

    @property
    def pages(self) -> int:
        return _pages(tuple(self.files))

    def remember(self, record: RecordPrint) -> None:
        """Keep ``record`` for the next build; the state on disk catches up with the next
        save (a rebuild with nothing changed writes nothing)."""
        if record != self.record:
            self.record = record
            self._json_text = None

    def json_text(self, keep: bool) -> bytes:
        """This game's member of the state file's ``games`` object (``"slug":{...}`` in
        UTF-8); ``keep`` it for the next save, as a watch session saves again and again
        with most games unchanged."""
        text = self._json_text
        if text is None:
            record = self.record or RecordPrint("", None)
            text = _json_bytes(self.entry.slug) + b":" + _json_bytes(
                {"fingerprint": self.fingerprint, "files": "\n".join(self.files),
                 "clean": self.clean, "digest": record.digest, "stamp": record.stamp,
                 "entry": _entry_json(self.entry)})
            if keep:
                self._json_text = text
        return text


def _json_bytes(value: Any) -> bytes:
    """Compact JSON in UTF-8. A path (a record's, a theme's static file) that holds a
    file name's bytes that are not UTF-8 (surrogate escapes, see
    pgm.discover.shown_name) is written with ``\\u`` escapes, which read back as the
    very same path: so the next build knows the record again, its draft's slug, and the
    theme's file as pgm's."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode()
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":")).encode()


_shared_names: dict[tuple[str, ...], tuple[str, ...]] = {}
"""Each distinct list of a game's file names, once."""


@functools.lru_cache(maxsize=1024)
def _pages(names: tuple[str, ...]) -> int:
    """Counted once per distinct list of names, which games share."""
    return sum(1 for name in names if name.endswith(".html"))


@dataclass
class BuildState:
    site_fingerprint: str = ""
    games: dict[str, GameState] = field(default_factory=dict)
    """By slug."""
    site_files: list[str] = field(default_factory=list)
    moves_layout: list[tuple[str, int]] = field(default_factory=list)
    """Where each game's rows are in the event's ``moves.csv`` (pgm.event_moves)."""
    drafts: dict[str, str] = field(default_factory=dict)
    """The slugs of records left out as drafts, by path below the event folder."""
    static_files: list[str] | None = None
    """The files pgm copied into ``static/`` (its own, the theme's, the event's
    stylesheets); None in the state of an older pgm, which did not list them."""
    _slugs: dict[str, str] | None = field(default=None, init=False, repr=False,
                                          compare=False)

    def slugs(self) -> dict[str, str]:
        """Each game's slug by its record's path below the event folder, drafts' too:
        the addresses the next build keeps. Made once per state, so that a watch
        session's rebuilds with nothing changed hand the slugging the very same mapping."""
        if self._slugs is None:
            self._slugs = dict(self.drafts)
            self._slugs.update((game.entry.relative, slug) for slug, game in self.games.items())
        return self._slugs

    def made_paths(self) -> set[str]:
        """The paths below the site that the build of this state made: its state, each
        game's files, the event's pages, its static files, and the folders holding them
        (``round-1/``), so that a full build tells them from the files a user put in the
        site (``pgm.output.carry_over``)."""
        made = {STATE_NAME, *self.site_files, *(self.static_files or ())}
        for slug, game in self.games.items():
            made.update(f"{slug}/{name}" for name in game.files)
        folders: set[str] = set()
        for path in made:
            parts = path.split("/")[:-1]
            folders.update("/".join(parts[:depth]) + "/" for depth in range(1, len(parts) + 1))
        return made | folders

    def first_missing(self, out: Path) -> str | None:
        """A file this state lists that is no longer in ``out`` (deleted by hand, or by a
        sync that went wrong), None when all are there: the rebuild then makes the site
        again instead of saying nothing changed. One listing per folder, not a ``stat``
        per file: a game's folder holds a page per turn."""
        by_folder: dict[str, list[str]] = {}
        for path in [*self.site_files, *(self.static_files or ())]:
            folder, _, name = path.rpartition("/")
            by_folder.setdefault(folder, []).append(name)
        for slug, game in self.games.items():
            by_folder.setdefault(slug, []).extend(game.files)
        now_ns = time.time_ns()
        for folder, names in by_folder.items():
            missing = _first_not_in(os.path.join(out, folder), names, now_ns)
            if missing is not None:
                return f"{folder}/{missing}" if folder else missing
        return None

    def chunks(self, keep: bool = False) -> Iterator[bytes]:
        """The compact JSON in UTF-8, game by game, so that it can be written without
        being held whole; with ``keep``, each game's part is kept on its state, so the
        next save after a rebuild that carried most games over only writes their bytes.
        A game's part is filed under its entry's slug, the key it has in ``games``."""
        head = _json_bytes({"format": _FORMAT, "site": self.site_fingerprint,
                            "site_files": self.site_files, "static_files": self.static_files,
                            "moves_layout": self.moves_layout,
                            "drafts": dict(map(seal_draft, self.drafts.items()))})
        yield head[:-1] + b',"games":{'
        for number, (_, game) in enumerate(sorted(self.games.items())):
            if number:
                yield b","
            yield game.json_text(keep)
        yield b"}}"


def save_state(folder: Path, state: BuildState, keep: bool = False) -> None:
    """Write the state into ``folder`` by one rename, and keep it for the next build
    (with each game's text when ``keep``: a rebuild in a watch session)."""
    path = folder / STATE_NAME
    temp = folder / f".{STATE_NAME}.{os.getpid()}.tmp"
    try:
        with open(temp, "wb", buffering=_WRITE_BUFFER) as handle:
            handle.writelines(state.chunks(keep))
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
    _remember(path, state)


_WRITE_BUFFER = 1 << 20
"""A game's part of the state is a few hundred bytes; a system call costs more."""

_remembered: list[tuple[tuple[int, int, int], BuildState]] = []


def _remember(path: Path, state: BuildState) -> None:
    """Keep the state just written, so the next build in this process (``pgm watch``)
    need not parse it again; it is used only while the file is the same file."""
    _remembered[:] = [(_identity(path), state)]


def _identity(path: Path) -> tuple[int, int, int]:
    """A state file is replaced by rename, never rewritten in place: a new inode."""
    info = path.stat()
    return info.st_ino, info.st_size, info.st_mtime_ns


_holding: dict[str, int] = {}
"""Folders found holding every file listed in them, with their modification time then:
a watch session's next rebuild lists a folder again only if something in it changed
(a file removed from a folder changes its time)."""


def _first_not_in(folder: str, names: list[str], now_ns: int) -> str | None:
    """The first of ``names`` not in ``folder``. A folder's time is trusted once it is
    older than ``SETTLED_NS``, as a record's stamp is: a file removed in the same tick
    of the file clock as the listing would leave it as it was."""
    try:
        changed = os.stat(folder).st_mtime_ns
        if _holding.get(folder) == changed:
            return None
        present = set(os.listdir(folder))
    except OSError:
        return names[0] if names else None
    missing = next((name for name in names if name not in present), None)
    if missing is None and changed < now_ns - SETTLED_NS:
        _holding[folder] = changed
    return missing


def load_state(out: Path, records: Sequence[str] = ()) -> BuildState | None:
    """The state of the site in ``out``; ``records``: the event's records (paths below
    it), the only drafts whose slugs can be read back."""
    try:
        if _remembered and _remembered[0][0] == _identity(out / STATE_NAME):
            return _remembered[0][1]
    except OSError:
        return None
    try:
        data = json.loads((out / STATE_NAME).read_text(encoding="utf-8"))
        if data.get("format") != _FORMAT:
            return None
        games = {slug: GameState(g["fingerprint"], _entry_from_json(g["entry"]),
                                 _names_from_json(g["files"]),
                                 g["clean"], _record_from_json(g["digest"], g["stamp"]))
                 for slug, g in data["games"].items()}
        layout = [(str(slug), int(length)) for slug, length in data.get("moves_layout", [])]
        drafts = data.get("drafts")
        drafts = unseal_drafts(drafts, records) if isinstance(drafts, dict) and drafts \
            else {}
        static = data.get("static_files")
        return BuildState(data["site"], games, data.get("site_files", []), layout, drafts,
                          [str(path) for path in static] if isinstance(static, list) else None)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def seal_draft(draft: tuple[str, str]) -> tuple[str, str]:
    """(record, slug) of a draft as the published state keeps it: a digest of the
    record's path, and the slug enciphered with a key made from that path, so that the
    build that has the record finds and reads it, and a reader of the site has only
    guesses to try."""
    relative, slug = draft
    return _draft_key(relative), _enciphered(slug.encode(), relative).hex()


def unseal_drafts(sealed: dict[str, Any], records: Sequence[str]) -> dict[str, str]:
    """The (record, slug) pairs of ``sealed`` drafts whose records are among ``records``;
    a state written before drafts were sealed has them as they are."""
    drafts = {}
    for relative in records:
        plain = sealed.get(relative)
        if isinstance(plain, str):
            drafts[relative] = plain
            continue
        value = sealed.get(_draft_key(relative))
        if isinstance(value, str):
            drafts[relative] = _enciphered(bytes.fromhex(value), relative).decode()
    return drafts


def _draft_key(relative: str) -> str:
    return hashlib.sha256(b"pgm draft\0" + name_bytes(relative)).hexdigest()


def _enciphered(data: bytes, relative: str) -> bytes:
    """``data`` XOR a key stream made from the record's path: its own inverse."""
    blocks = (hashlib.sha256(b"pgm draft slug\0%d\0" % n + name_bytes(relative)).digest()
              for n in range(len(data) // 32 + 1))
    return bytes(a ^ b for a, b in zip(data, b"".join(blocks), strict=False))


_ENTRY_FIELDS = tuple(f.name for f in fields(GameEntry))


def _names_from_json(text: str) -> tuple[str, ...]:
    """A game's file names, kept in the state file as one line each: parsed once per
    distinct list, as most games of an event share theirs."""
    names = _names_by_text.get(text)
    if names is None:
        names = _names_by_text[text] = tuple(text.split("\n")) if text else ()
    return names


_names_by_text: dict[str, tuple[str, ...]] = {}


def _record_from_json(digest: str, stamp: list[int] | None) -> RecordPrint | None:
    if not digest:
        return None
    return RecordPrint(digest, (stamp[0], stamp[1], stamp[2], stamp[3]) if stamp else None)


def _entry_json(entry: GameEntry) -> dict[str, Any]:
    data = {name: getattr(entry, name) for name in _ENTRY_FIELDS}
    data["diagnostics"] = [{"path": d.path, "line": d.line, "severity": d.severity.value,
                            "message": d.message, "column": d.column,
                            **({} if d.on_pages else {"on_pages": False})}
                           for d in entry.diagnostics]
    return data


def _entry_from_json(data: dict[str, Any]) -> GameEntry:
    data = dict(data)
    data["diagnostics"] = tuple(Diagnostic(d["path"], d["line"], Severity(d["severity"]),
                                           d["message"], d["column"], d.get("on_pages", True))
                                for d in data["diagnostics"])
    for key in ("players", "result_by_seat"):
        data[key] = tuple(data[key])
    data["scores"] = tuple(data["scores"]) if data["scores"] is not None else None
    return GameEntry(**data)


def fingerprint(*parts: bytes | str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        # a record's path may hold a file name's bytes that are not UTF-8 (name_bytes)
        digest.update(name_bytes(part) if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()


def record_print(path: Path, known: RecordPrint | None, now_ns: int) -> RecordPrint:
    """The digest of a file's bytes (a record, a template): ``known`` while the file's
    stamp is the one kept with it, else read and hashed. ``now_ns``
    (``time.time_ns()``) must be taken before this call, so that a file written after
    it is never taken as settled."""
    if known is not None and known.stamp is not None and \
            _stamp(os.stat(path)) == known.stamp:
        return known
    data, info = read_regular(path)
    return RecordPrint(hashlib.sha256(data).hexdigest(),
                       _stamp(info) if _settled(info, now_ns) else None)


def _settled(info: os.stat_result, now_ns: int) -> bool:
    coarse = coarse_time(info.st_mtime_ns) or coarse_time(info.st_ctime_ns)
    age = COARSE_SETTLED_NS if coarse else SETTLED_NS
    return max(info.st_mtime_ns, info.st_ctime_ns) < now_ns - age


def coarse_time(ns: int) -> bool:
    """Whether a file time is of a file system that keeps whole seconds or coarser (see
    ``COARSE_SETTLED_NS``): a time without a fraction of a millisecond."""
    return ns % 1_000_000 == 0


def _stamp(info: os.stat_result) -> Stamp:
    return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino


def tree_fingerprint(*trees: Sequence[tuple[str, str]]) -> str:
    """Fingerprint of the files of templates, static files and themes, each tree listed
    by ``pgm.discover.tree_files`` (the files the build reads and copies, no others); a
    file is read again only when its stamp changed, as a record is. A file that cannot
    be read counts as such: the copy refuses it."""
    digest = hashlib.sha256()
    now_ns = time.time_ns()
    for files in trees:
        for relative, path in files:
            known = _file_prints.get(path)
            try:
                found = _file_prints[path] = record_print(Path(path), known, now_ns)
            except OSError:
                digest.update(name_bytes(f"{relative}\0\0"))
                continue
            digest.update(name_bytes(f"{relative}\0{found.digest}\0"))
    return digest.hexdigest()


_file_prints: dict[str, RecordPrint] = {}
"""By path: what the files of the templates and themes of this process hash to."""

"""The ``games:`` entries of ``event.yaml``: which records each pattern names, and what
an entry that names none may have meant.

A pattern names records by their path below the folder of its ``event.yaml``, or by
file name at any depth; it may be written as a TD writes paths (``./r1/t1.gcg``,
Windows' ``r1\\t1.gcg``). An entry that matches no record is a warning naming the
closest record paths: a misspelt ``draft: true`` entry would otherwise publish the game.

``title`` below the event's root is a game's: a subfolder's ``event.yaml`` or a pattern
that sets one for several games lists each as that title, with no players' names, when
it was most likely meant to name a section (``division``) or an event of its own.
"""

from __future__ import annotations

import difflib
import fnmatch
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from pgm.diagnostics import DiagnosticSink
from pgm.discover import shown_name


class Glob(NamedTuple):
    """One ``games:`` entry: the records its pattern matches get its settings."""

    pattern: str
    """As written: messages quote it."""
    settings: dict[str, Any]
    line: int
    """Where the pattern is written: the warning when it matches no record points there."""
    path: str
    """What is matched: ``pattern`` written plainly (see :func:`make_glob`)."""
    anchored: bool
    """Written with a folder part, if only ``./``: it names a path below the folder of
    its ``event.yaml``, never a file name at any depth as a bare ``final.gcg`` does. (A
    ``*`` still crosses folders, as in every pattern: ``./*.gcg`` is every record.)"""

    @property
    def names_one(self) -> bool:
        """Written without ``*``, ``?`` or ``[``: it names one record, not a group."""
        return not any(mark in self.path for mark in "*?[")


def make_glob(pattern: str, settings: dict[str, Any], line: int) -> Glob:
    """A ``games:`` entry, its pattern written plainly: Windows' ``r1\\t1.gcg`` and
    ``./r1//t1.gcg`` are ``r1/t1.gcg`` (``posixpath.normpath``, as for ``css``).

    Writing it plainly does not move an entry onto a record it did not name. pgm names
    records with '/' only, never with a ``.``, ``..`` or empty folder part, so a
    pattern written with a backslash or such a part matched no record as written. A
    pattern written with a folder part, if only ``./``, stays one: ``./final.gcg`` is
    the ``final.gcg`` beside the ``event.yaml``, not every ``final.gcg`` below it as a
    bare ``final.gcg`` is. A file name holding a backslash (allowed outside Windows)
    keeps its entry when the pattern as written matches it
    (:func:`_as_written_if_it_matches`). Case is not folded: ``r1/T1.gcg`` and
    ``r1/t1.gcg`` may be two records; a wrong case gets a suggestion instead."""
    written = pattern.replace("\\", "/")
    return Glob(pattern, settings, line, posixpath.normpath(written), "/" in written)


def matches(glob: Glob, relative: str, name: str) -> bool:
    """A ``games:`` pattern names a record by its path below the overlay's folder or,
    unless anchored, by its file name alone, as it is or as pgm shows it: a name whose
    bytes are not UTF-8 cannot be written in ``event.yaml`` (``café.gcg`` names
    ``caf\\xe9.gcg``)."""
    pattern = glob.path
    if _names(pattern, relative) or (not glob.anchored and _names(pattern, name)):
        return True
    shown = shown_name(relative)
    return shown != relative and (_names(pattern, shown) or (
        not glob.anchored and _names(pattern, shown_name(name))))


def _names(pattern: str, path: str) -> bool:
    """Whether ``pattern`` names ``path``: as a pattern, or as it is (a file name may hold
    ``[``, which a pattern reads as a set of letters: ``Table 6 [final].gcg``). A
    record's extension matches in any case (``*.gcg`` names ``Table 2.GCG``, saved so on
    Windows), or an entry meant to keep a game a draft would publish it."""
    if path == pattern or fnmatch.fnmatchcase(path, pattern):
        return True
    stem, extension = posixpath.splitext(path)
    return extension != extension.lower() and \
        fnmatch.fnmatchcase(stem + extension.lower(), pattern)


def check_games(games: tuple[Glob, ...], folder: Path, by_folder: dict[Path, list[str]],
                sink: DiagnosticSink) -> tuple[Glob, ...]:
    """The ``games:`` entries of the ``event.yaml`` in ``folder``, checked against the
    records below it (``by_folder``: the event's record names by folder). An entry that
    matches none is a warning naming the closest record paths; one whose pattern
    matches a record as written is matched as written (:func:`_as_written_if_it_matches`).
    """
    if not games or not by_folder:
        return games
    below = _records_below(folder, by_folder)
    checked = []
    for glob in games:
        glob = _as_written_if_itmatches(glob, below)
        if not any(matches(glob, relative, name) for relative, name in below):
            sink.warning(glob.line, _no_record(glob, below))
        checked.append(glob)
    return tuple(checked)


def _records_below(folder: Path, by_folder: dict[Path, list[str]]) -> list[tuple[str, str]]:
    """(path below ``folder``, file name) of every record below it."""
    below = []
    for found, names in by_folder.items():
        if found.is_relative_to(folder):
            prefix = found.relative_to(folder).as_posix()
            below += [(_joined(prefix, name), name) for name in names]
    return below


def _as_written_if_itmatches(glob: Glob, below: list[tuple[str, str]]) -> Glob:
    """``glob`` matched by its pattern as written when that matches a record: a file name
    may hold a backslash outside Windows (``r1\\t1.gcg`` in the event's root), and that
    record keeps its entry rather than handing it to ``r1/t1.gcg``."""
    if glob.path == glob.pattern:
        return glob
    written = glob._replace(path=glob.pattern, anchored=False)
    return written if any(matches(written, *record) for record in below) else glob


def _no_record(glob: Glob, below: list[tuple[str, str]]) -> str:
    """The warning for an entry that matches no record, with what it may have meant."""
    written = glob.pattern.translate(_ESCAPES)
    close = _close_to(glob, posixpath.normpath(written.replace("\\", "/")), below)
    hint = ""
    if close:
        *first, last = [f"'{path}'" for path in close]
        hint = f" (did you mean {', '.join(first) + ' or ' if first else ''}{last}?)"
    message = f"games entry '{written}' matches no record{hint}; its settings apply to nothing"
    if written != glob.pattern:
        message += ". In double quotes a backslash starts an escape (\\t is a tab): write / "
        message += "between folders"
    return message


_ESCAPES = {code: f"\\x{code:02x}" for code in range(32)} | {9: "\\t", 10: "\\n", 13: "\\r"}
"""Control characters as YAML's double quotes write them: a message shows them so, and
``"r1\\t1.gcg"``, which YAML reads with a tab, is taken for ``r1/t1.gcg`` to find what
it meant."""


def _close_to(glob: Glob, meant: str, below: list[tuple[str, str]]) -> list[str]:
    """Up to three record paths close to ``meant``, an entry's plain pattern (for a bare
    name, file names too), as pgm shows them, which can be written in ``event.yaml``.
    One that differs only in case comes alone: ``r1/T1.gcg`` is not folded onto
    ``r1/t1.gcg``, which may be another record, but is surely meant. A pattern with
    wildcards gets patterns instead: its last part moved to the closest record folders
    where it matches (``rnd1/*.gcg`` -> ``r1/*.gcg``)."""
    folder, _, last = meant.rpartition("/")
    if any(c in meant for c in "*?["):
        folders = _folders_matching(last, below)
        return [posixpath.join(found, last) for found in _closest(folder, folders)]
    known = dict.fromkeys(shown_name(relative) for relative, _ in below)
    if not glob.anchored:
        known.update(dict.fromkeys(shown_name(name) for _, name in below))
    return _closest(meant, list(known))


def _closest(text: str, known: list[str]) -> list[str]:
    """The one of ``known`` equal to ``text`` but for case, else up to three close ones."""
    folded = text.casefold()
    return ([item for item in known if item.casefold() == folded][:1] or
            difflib.get_close_matches(text, known, n=3))


def _folders_matching(last: str, below: list[tuple[str, str]]) -> list[str]:
    """The folders (as pgm shows them) of the records whose name ``last`` matches."""
    return list(dict.fromkeys(
        shown_name(relative).rpartition("/")[0] for relative, name in below
        if fnmatch.fnmatch(name, last) or fnmatch.fnmatch(shown_name(name), last)))


def _joined(prefix: str, name: str) -> str:
    return name if prefix == "." else f"{prefix}/{name}"


def titled_alike(folder: Path, title: tuple[str, int] | None, games: tuple[Glob, ...],
                 by_folder: dict[Path, list[str]], settings_for: Callable[[Path], Any],
                 sink: DiagnosticSink) -> None:
    """Warn of a ``title`` that the ``event.yaml`` in ``folder`` gives several games
    alike: its own (``title``: the value and its line; None for the event's root, whose
    title is the event's) and each of its ``games:`` patterns'. The games counted are
    those listed (not drafts) whose title it is in the end (``settings_for``): one
    titled by an entry of its own is not."""
    if title is None and not any("title" in glob.settings for glob in games):
        return
    below = [(folder / relative, relative, name)
             for relative, name in _records_below(folder, by_folder)]

    def titled(value: str, glob: Glob | None) -> int:
        return sum(1 for path, relative, name in below
                   if path.suffix.lower() not in _POSITION_SUFFIXES
                   and (glob is None or matches(glob, relative, name))
                   and (found := settings_for(path)).title == value and not found.draft)

    if title is not None and (count := titled(title[0], None)) > 1:
        sink.warning(title[1], f"key 'title' titles each of its {count} games alike: "
                     f"{_in_place_of(title[0])} (below the event's root, title is each "
                     f"game's own); to name a section, write division: {title[0]} instead; "
                     f"if {shown_name(str(folder))} is an event of its own, build that "
                     "folder for its site")
    for glob in games:
        value = glob.settings.get("title")
        if value is not None and not glob.names_one and (count := titled(value, glob)) > 1:
            sink.warning(glob.line, f"games entry '{glob.pattern}' titles each of its "
                         f"{count} games alike: {_in_place_of(value)}; give each game an "
                         "entry of its own for its title, or, to name a section, write "
                         f"division: {value} in this entry instead")


_POSITION_SUFFIXES = (".cgp", ".ubf")
"""Sets of positions and boards: a title is theirs to name what they hold, no game's."""


def _in_place_of(title: str) -> str:
    return f"{title!r}, in place of the players' names"

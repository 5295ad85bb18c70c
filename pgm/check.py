"""``pgm check``: replay records and report their diagnostics, as text or JSON.

Each record format registers one reporter: a function from the file's bytes, its
display path and its settings (``event.yaml``, see pgm.record_inputs) to the JSON
object documented in README and the diagnostics behind it.
"""

from __future__ import annotations

import importlib
import os
import shlex
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pgm.config import GameSettings
from pgm.diagnostics import Diagnostic, Severity
from pgm.discover import CONFIG_NAME, Source, misnamed_record, shown_name
from pgm.event_checks import name_variants, players_at_two_tables, repeated_games, same_places
from pgm.file_io import read_regular
from pgm.record_inputs import RecordInput, no_records
from pgm.site_model import GameEntry

Reporter = Callable[[bytes, str, GameSettings], tuple[dict[str, Any], list[Diagnostic]]]


# The reporter per file extension, imported when first needed (check one format, load one).
_REPORTERS = {".cgp": "pgm.cgp_report:cgp_report",
              ".gcg": "pgm.crossword_report:crossword_report",
              ".gn": "pgm.gungi_report:gungi_report",
              ".ubf": "pgm.ubf_report:ubf_report"}


def _reporter(extension: str) -> Reporter | None:
    target = _REPORTERS.get(extension)
    if target is None:
        return None
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


def supported_extensions() -> list[str]:
    return sorted(_REPORTERS)


def is_record(record: RecordInput) -> bool:
    """A file of a kind pgm reads: ``gather`` also passes on files named that are not
    (``pgm check *``) or that do not exist (``pgm check r1/tabel-3.gcg``, a typo), each
    reported as such and not counted as a record checked: "Checked 1 record" would say
    a file was there."""
    return not record.empty_folder and record.path.suffix.lower() in _REPORTERS and \
        os.path.lexists(record.path)


def check_file(path: Path, settings: GameSettings | None = None
               ) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Replay one record with the ``event.yaml`` settings of its event (none: the
    defaults); a file that cannot be read is itself a diagnostic."""
    display = shown_name(str(path))
    reporter = _reporter(path.suffix.lower())
    if reporter is None or not os.path.lexists(path):
        diag = Diagnostic(display, 0, Severity.ERROR, _not_a_record(path))
        return _no_game(display, [diag]), [diag]
    try:
        data, _ = read_regular(path)
    except OSError as exc:
        diag = Diagnostic(display, 0, Severity.ERROR, f"cannot read file: {exc.strerror}")
        return _no_game(display, [diag]), [diag]
    return reporter(data, display, settings or GameSettings())


def _not_a_record(path: Path) -> str:
    """What a path given to check that names no record is: missing (a typo), the event's
    configuration, or a file of another kind."""
    if not path.exists() and not path.is_symlink():
        return "no such file or folder"
    if path.name == CONFIG_NAME:
        return (f"{CONFIG_NAME} is checked with the records of its event: "
                f"pgm check {shlex.quote(shown_name(str(path.parent)))}")
    return misnamed_record(path) or \
        f"unknown record type (expected {', '.join(supported_extensions())})"


def event_warnings(records: Sequence[RecordInput]) -> list[Diagnostic]:
    """What ``pgm build`` finds across the games of an event, for the records of each
    event checked together: a game recorded twice, a player's name spelled two ways,
    two games listed at one place (two events' folders built as one site).
    A director checks before building (or in CI), and ``build --strict`` fails on
    these. Each record is loaded again as the build loads it, for its index entry: a
    second replay, only where an event has two records or more to compare. Drafts are
    left out, as the build leaves them out, and so are files in no event: unrelated
    files that happen to be named together."""
    by_event: defaultdict[Path, list[RecordInput]] = defaultdict(list)
    for record in records:
        if record.event is not None and is_record(record) and not record.settings.draft:
            by_event[record.event].append(record)
    found = []
    for group in by_event.values():
        if len(group) < 2:
            continue
        shown = {record.relative: shown_name(str(record.path)) for record in group}
        entries = [entry for record in group if (entry := _entry(record)) is not None]
        found += [replace(d, path=shown[d.path])
                  for d in repeated_games(entries, shown.__getitem__) +
                  name_variants(entries, shown.__getitem__) +
                  same_places(entries, shown.__getitem__) +
                  players_at_two_tables(entries, shown.__getitem__)]
    return found


def _entry(record: RecordInput) -> GameEntry | None:
    """The record's entry on the event index; None when it cannot be read (its report
    says so)."""
    from pgm.games import load_game  # the site's loaders: only for an event's records

    try:
        data, _ = read_regular(record.path)
    except OSError:
        return None
    source = Source(record.path, record.relative, record.relative)
    return load_game(source, record.settings, data).entry


def check_empty_folder(path: Path) -> tuple[dict[str, Any], list[Diagnostic]]:
    """A folder given to check that holds no record: said, not passed over in silence
    (an error unless it is an event's folder, see :func:`no_records`)."""
    diag = no_records(path)
    return _no_game(diag.path, [diag]), [diag]


def other_files(diagnostics: Sequence[Diagnostic]) -> list[dict[str, Any]]:
    """The ``check --json`` objects of files that are no records but have problems (an
    ``event.yaml``, a file passed by), one per file in the order met."""
    by_path: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        by_path.setdefault(diagnostic.path, []).append(diagnostic)
    return [_no_game(path, found) for path, found in by_path.items()]


def _no_game(path: str, diagnostics: list[Diagnostic]) -> dict[str, Any]:
    """An object for a path that holds no game: an empty folder, an ``event.yaml``."""
    return {
        "path": path,
        "game": None,
        "players": [],
        "diagnostics": [diagnostic.to_json() for diagnostic in diagnostics],
        "events": [],
    }

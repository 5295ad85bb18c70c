"""``pgm export``: the move table of records, one row per event, as CSV or JSON.

Rows are made from the very objects ``pgm check --json`` prints (``pgm.check``), not
from a second walk over the replays, so the table cannot disagree with the check: an
event of the report is a row, a record that stops at an error has rows up to it.

Columns, in order (README, "Exporting moves"):

=============  ==================================================================
``game``       the record's path as found (the ``path`` of its report)
``turn``       1-based number of the event in the record (the turn page number)
``player``     nickname (crossword, Upwords) or ``black``/``white`` (Gungi)
``rack``       the rack as recorded, empty when unknown (empty for Gungi)
``position``   the play's coordinate (``8D``), empty for other events and Gungi
``word``       the play's tiles as written (``RETAINS``); an exchange's tiles without
               the sign (``LLNVVW``, ``4`` for a count: ``kind`` says it is one), an
               end-of-game rack line's tiles in parentheses (``(OPEG)``); empty for
               other events and Gungi
``score``      the recorded score of the event (empty for Gungi)
``cumulative`` the player's total after the event (empty for Gungi)
``kind``       the event kind of the report (``play``, ``exchange``, ``drop``, ...)
``notation``   a Gungi ply as written (``U*c-r-t``), empty for crossword games
=============  ==================================================================

Every CSV pgm writes (``pgm export``, each game's ``moves.csv``, which the event's
``moves.csv`` is joined from) goes through :func:`csv_cell`, so a nickname such as
``=HYPERLINK(...)`` is text to a spreadsheet, never a formula.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from typing import Any

from pgm.check import check_file
from pgm.diagnostics import Diagnostic
from pgm.record_inputs import RecordInput

FORMATS = ("csv", "json")


@dataclass(frozen=True)
class MoveRow:
    """One event of one record; None is an empty cell in CSV and null in JSON."""

    game: str
    turn: int
    player: str
    rack: str | None
    position: str | None
    word: str | None
    score: int | None
    cumulative: int | None
    kind: str
    notation: str | None = None


COLUMNS = tuple(f.name for f in fields(MoveRow))
CSV_HEADER = ",".join(COLUMNS) + "\n"
"""The first line of every CSV pgm writes."""

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a text cell as a formula (OWASP, "CSV
Injection")."""


def rows_of_report(report: dict[str, Any]) -> list[MoveRow]:
    """The rows of one ``pgm check --json`` object (none for boards and unread files)."""
    return [MoveRow(*cells) for cells in _cells_of_report(report)]


def moves_csv(report: dict[str, Any]) -> str:
    """The CSV ``pgm export`` writes for one record, made from its ``pgm check --json``
    object: the site's per-game ``moves.csv`` (the record is not replayed twice). Its
    rows go to the writer as plain tuples, one call for the whole game."""
    return _csv_text(_cells_of_report(report))


def csv_cell(value: Any) -> Any:
    """A cell as pgm's CSV holds it: a text starting with one of :data:`FORMULA_STARTS`
    gets a ``'`` in front (``'=HYPERLINK(...)``, ``'@bob``), the spreadsheet's own mark
    for text, so that opening the file runs nothing; numbers (a score of -7), None (an
    empty cell) and every other text are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _csv_text(rows: Iterable[Iterable[Any]]) -> str:
    """The header and ``rows`` (cells in column order, None empty) as pgm writes CSV."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows([csv_cell(value) for value in row] for row in rows)
    return out.getvalue()


def _cells_of_report(report: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The cells of each row of a report, in column order; None for an empty cell."""
    game = report.get("game")
    path = report["path"]
    if game in ("crossword", "upwords"):
        return [(path, turn, event["player"], event["rack"], event["position"],
                 written_tiles(event), event["stated_score"],
                 event["cumulative"][event["seat"]], event["kind"], None)
                for turn, event in enumerate(report["events"], start=1)]
    if game == "gungi":
        return [(path, turn, event["player"], None, None, None, None, None, event["kind"],
                 event["notation"])
                for turn, event in enumerate(report["events"], start=1)]
    return []


def written_tiles(event: dict[str, Any]) -> str | None:
    """The ``word`` cell of a GCG event of ``pgm check --json``: the tiles the event
    line names, as the record writes them: a play's word, an exchange's tiles (or their
    number when only that is recorded) without the record's ``-``, which the ``kind``
    column says already and which a spreadsheet reads as a minus sign (``-GMNNPY`` is a
    formula to it), an end-of-game rack line's ``(TILES)``; None for the other events."""
    tiles = event.get("tiles")
    kind = event["kind"]
    if kind == "exchange":
        count = event.get("exchange_count")
        return tiles or (str(count) if count is not None else None)
    if tiles and kind in _PARENTHESISED:
        return f"({tiles})"
    return event["word"]  # type: ignore[no-any-return]


_PARENTHESISED = ("end_rack_points", "end_rack_penalty")


def export_rows(records: Iterable[RecordInput]) -> tuple[list[MoveRow], list[Diagnostic]]:
    """Every row of the ``records`` (see pgm.record_inputs), and their diagnostics."""
    rows: list[MoveRow] = []
    diagnostics: list[Diagnostic] = []
    for record in records:
        report, found = check_file(record.path, record.settings)
        rows.extend(rows_of_report(report))
        diagnostics.extend(found)
    return rows, diagnostics


def write_rows(rows: list[MoveRow], fmt: str) -> str:
    """The table as text: CSV (a header row, LF line ends) or a JSON array of objects."""
    if fmt == "json":
        return json.dumps([asdict(row) for row in rows], ensure_ascii=False, indent=1) + "\n"
    if fmt != "csv":
        raise ValueError(f"unknown export format {fmt!r} (expected one of {FORMATS})")
    return _csv_text([getattr(row, name) for name in COLUMNS] for row in rows)


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
``=HYPERLINK(...)`` is text to a spreadsheet, never a formula. ``pgm export -o`` replaces
only files that pgm itself wrote (:func:`save`).
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from pgm.check import check_file
from pgm.config import CONFIG_NAME
from pgm.diagnostics import Diagnostic
from pgm.discover import RECORD_EXTENSIONS
from pgm.file_io import stage_write
from pgm.output import built_site_holding
from pgm.record_inputs import RecordInput

FORMATS = ("csv", "json", "excel")
SEPARATORS = {",": ",", ";": ";", "tab": "\t"}
"""The cells' separator by its name on the command line: a comma, or a semicolon as
spreadsheets expect where the comma is the decimal mark (France, Poland, Germany)."""


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
"""The first line of every CSV pgm writes; how ``pgm export -o`` knows its own files."""

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


def _csv_text(rows: Iterable[Iterable[Any]], separator: str = ",", excel: bool = False) -> str:
    """The header and ``rows`` (cells in column order, None empty) as pgm writes CSV;
    for Excel, with a byte order mark, without which Excel reads UTF-8 as the Windows
    code page (``HÃ©lÃ¨ne``), and CRLF line ends."""
    out = io.StringIO()
    if excel:
        out.write("\ufeff")
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n" if excel else "\n")
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


def format_for(output: Path | None) -> str:
    """The format an export takes when none is asked for: the one its file is named for
    (``moves.json``), CSV on standard output or under any other name."""
    return "json" if output is not None and output.suffix.lower() == ".json" else "csv"


def separator_for(output: Path | None) -> str:
    """The separator's name when none is asked for: a tab for a file named for
    tab-separated values (``moves.tsv``), which a spreadsheet opens by its name, else
    a comma."""
    return "tab" if output is not None and output.suffix.lower() in (".tsv", ".tab") else ","


def write_rows(rows: list[MoveRow], fmt: str, separator: str = ",") -> str:
    """The table as text: CSV (a header row, LF line ends), CSV for Excel (see
    :func:`_csv_text`) or a JSON array of objects."""
    if fmt == "json":
        return json.dumps([asdict(row) for row in rows], ensure_ascii=False, indent=1) + "\n"
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r} (expected one of {FORMATS})")
    return _csv_text(([getattr(row, name) for name in COLUMNS] for row in rows),
                     separator, excel=fmt == "excel")


# ---------------------------------------------------------------------------------------
# pgm export -o FILE: written in one rename, and never over a file pgm did not write


class ExportTargetError(Exception):
    """An ``-o`` file the export must not or cannot be written to; the message names it
    and says why."""


def check_target(output: Path, records: Iterable[Path]) -> None:
    """Refuse ``output`` when writing the export there could destroy what pgm did not
    make: one of the ``records`` exported, an ``event.yaml``, a name pgm would read as a
    record (``.gcg``...), or an existing file that is not an export pgm wrote (see
    :func:`is_export`). A folder that does not exist is an error too (nothing is made)."""
    parent = output.parent
    if not parent.is_dir():
        why = "does not exist" if not parent.exists() else "is not a folder"
        raise ExportTargetError(f"cannot write {output}: the folder {parent} {why}")
    try:
        found = output.stat()
    except FileNotFoundError:  # a new file, or a link to one
        found = None
    except OSError as exc:
        raise ExportTargetError(f"cannot write {output}: {exc.strerror}") from None
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise ExportTargetError(f"cannot write {output}: it is a folder")
    site = built_site_holding(Path(os.path.realpath(parent))) or \
        built_site_holding(Path(os.path.realpath(output)).parent)
    if site is not None:  # where the path is, or where its link leads (written there)
        raise ExportTargetError(
            f"will not write the export into {site}, a site pgm built: pgm build writes "
            "its moves.csv files (without draft games) and would not know of yours; "
            "write the export outside the site")
    if found is not None:
        for record in records:
            if _same_file(found, record):
                which = "one of the records" if record == output else \
                    f"the record {record}, one of those"
                raise ExportTargetError(
                    f"will not write the export over {output}: it is {which} exported; "
                    "name another file, e.g. moves.csv")
    for name in {output.name, Path(os.path.realpath(output)).name}:
        if name.casefold() == CONFIG_NAME:
            raise ExportTargetError(
                f"will not write the export to {output}: {CONFIG_NAME} is an event's "
                "configuration; name another file, e.g. moves.csv")
        suffix = os.path.splitext(name)[1].lower()
        if suffix in RECORD_EXTENSIONS:
            raise ExportTargetError(
                f"will not write the export to {output}: pgm reads {suffix} files as "
                "records, so the next check or build would read it as a broken one; "
                "name the file .csv or .json")
    if found is not None and stat.S_ISREG(found.st_mode) and not is_export(output):
        saved = "; a CSV for Excel looks like a spreadsheet's own, which pgm leaves to " \
            "you" if _starts_with_bom(output) else ""
        raise ExportTargetError(
            f"will not write the export over {output}: the file exists and is not an "
            f"export pgm wrote (pgm export replaces only its own CSV or JSON files{saved}); "
            "remove it or name another file")


def _starts_with_bom(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(3) == b"\xef\xbb\xbf"
    except OSError:
        return False


def is_export(path: Path) -> bool:
    """Whether the regular file ``path`` holds an export pgm wrote, or nothing: a CSV
    starting with :data:`CSV_HEADER` (its own first line, LF-ended as pgm writes it:
    every ``moves.csv`` of a site too; any separator) or a JSON array of objects with
    exactly pgm's keys in pgm's order. An empty file has nothing to lose (``mktemp``'s).
    A CSV for Excel is not known again: its byte order mark and CRLF line ends are what
    a spreadsheet writes when it saves the file, which is then the director's."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(max(map(len, _CSV_HEADERS)))
            if not head or head.startswith(_CSV_HEADERS):
                return True
            if not head.lstrip().startswith(b"["):
                return False
            rows = json.loads(head + handle.read())
    except (OSError, ValueError):  # unreadable, not UTF-8, not JSON
        return False
    return isinstance(rows, list) and all(
        isinstance(row, dict) and tuple(row) == COLUMNS for row in rows)


_CSV_HEADERS = tuple(f"{separator.join(COLUMNS)}\n".encode() for separator in SEPARATORS.values())


def _same_file(found: os.stat_result, path: Path) -> bool:
    try:
        return os.path.samestat(found, path.stat())
    except OSError:
        return False


def save(output: Path, text: str, records: Iterable[Path]) -> None:
    """Write the export ``text`` to ``output`` once :func:`check_target` allows it: to a
    new file beside it (``.NAME.PID.tmp``) renamed over it at once, so that the file
    is the old export or the whole new one, never half of either (a link is followed, and
    a replaced file keeps its permissions). A device or pipe (``/dev/stdout``) is
    written as it is. Any failure is an :class:`ExportTargetError`; nothing is left."""
    check_target(output, records)
    data = text.encode("utf-8")
    try:
        try:
            found: os.stat_result | None = output.stat()
        except FileNotFoundError:
            found = None
        if found is not None and not stat.S_ISREG(found.st_mode):
            with open(output, "wb") as handle:
                handle.write(data)
            return
        _replace(Path(os.path.realpath(output)), data,
                 stat.S_IMODE(found.st_mode) if found is not None else None)
    except OSError as exc:
        raise ExportTargetError(f"cannot write {output}: {exc.strerror or exc}") from None


def _replace(path: Path, data: bytes, mode: int | None) -> None:
    """Replace ``path`` by a file of ``data`` in one rename in its own folder, as the
    site's files are (:func:`pgm.file_io.stage_write`); ``mode`` is the replaced file's (a
    new file gets the usual 0o666 less the umask). No temporary file is left."""
    temp = None
    try:
        temp = stage_write(path, data)
        if temp is None:
            return  # it holds the export already
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, path)
    finally:
        if temp is not None:
            temp.unlink(missing_ok=True)

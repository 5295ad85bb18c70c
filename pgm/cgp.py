"""CGP, the Crossword Game Position format: read positions and write them back.

``BOARD RACKS SCORES ZEROS [OPCODES]`` on one line (``shared/specs/cgp-format.txt``).
The board is square, of any size :mod:`pgm.board` reads: the board ``bdn`` names, else
the known board of its size, else a plain board of that size (no premium squares).
The reader collects problems as diagnostics naming the field; it never raises. The
writer produces the form the reader reads back to the same position, with multi-letter
tiles in brackets and opcodes in the order (and dash style) they were read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from pgm.board import (
    LAYOUTS,
    MAX_SIZE,
    MIN_SIZE,
    Layout,
    get_layout,
    layout_of_size,
    plain_layout,
    plain_size,
)
from pgm.diagnostics import Diagnostic, DiagnosticSink
from pgm.scoring import RACK_SIZE
from pgm.tiles import (
    BLANK,
    DEFAULT_DISTRIBUTION,
    Distribution,
    TileCodec,
    TileError,
    distribution_for_lexicon,
    get_distribution,
    rack_label,
)

KNOWN_OPCODES = {"bb", "bdn", "cr", "etl", "gid", "ld", "lex", "lm", "mcnz", "ti", "tmr", "to",
                 "var", "l1", "l2"}
_INTEGER_OPCODES = {"bb", "etl", "mcnz", "ti", "to"}
_CHALLENGE_RULES = {"single", "double", "triple", "void", "5pt", "10pt"}
_INT = re.compile(r"^-?\d+$")


@dataclass(frozen=True)
class Operation:
    name: str
    """Opcode without MAGPIE's leading dash (``lex``, ``ld``, ``lm``)."""
    value: str
    dashed: bool = False


@dataclass(frozen=True)
class CgpPosition:
    """A position: the board, racks and scores in order of who moves next, and opcodes."""

    cells: tuple[str, ...]
    """Board labels row by row, ``""`` for empty."""
    racks: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    zeros: int
    operations: tuple[Operation, ...] = ()
    layout: Layout = field(default_factory=lambda: LAYOUTS["CrosswordGame"])
    distribution: Distribution = field(
        default_factory=lambda: get_distribution(DEFAULT_DISTRIBUTION))

    def operation(self, name: str) -> str | None:
        return next((op.value for op in self.operations if op.name == name), None)

    def rows(self) -> list[tuple[str, ...]]:
        size = self.layout.size
        return [self.cells[r * size:(r + 1) * size] for r in range(size)]


@dataclass(frozen=True)
class CgpResult:
    position: CgpPosition | None
    diagnostics: tuple[Diagnostic, ...]


# ---------------------------------------------------------------------------------------
# Writing


def write_board(cells: tuple[str, ...], size: int) -> str:
    return "/".join(write_row(cells[r * size:(r + 1) * size]) for r in range(size))


@lru_cache(maxsize=65_536)
def write_row(row: tuple[str, ...]) -> str:
    """One board row in CGP; rows repeat from turn to turn, so each is written once."""
    out, empty = [], 0
    for label in row:
        if not label:
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        out.append(f"[{label}]" if len(label) > 1 else label)
    if empty:
        out.append(str(empty))
    return "".join(out)


def write_rack(rack: tuple[str, ...] | None) -> str:
    rack = rack or ()
    text = "".join(rack)
    if len(text) == len(rack) and "" not in rack and "_" not in text:
        return text  # one letter a tile, none unknown: the usual rack, written as it is
    return "".join(f"[{t}]" if len(t) > 1 else t for t in rack if t != "_")


def write_operation(name: str, value: str, dashed: bool = False) -> str:
    return f"{'-' if dashed else ''}{name} {value};".replace(" ;", ";")


def write_cgp(position: CgpPosition) -> str:
    return cgp_line(write_board(position.cells, position.layout.size),
                    [write_rack(rack) for rack in position.racks], position.scores,
                    position.zeros,
                    [write_operation(op.name, op.value, op.dashed) for op in position.operations])


def cgp_line(board: str, racks: list[str], scores: Sequence[int], zeros: int,
             operations: list[str]) -> str:
    """A CGP from its fields already written (``write_board``, ``write_rack``,
    ``write_operation``), for writers that keep some of them from position to position."""
    line = f"{board} {'/'.join(racks)} {'/'.join(map(str, scores))} {zeros}"
    ops = " ".join(operations)
    return f"{line} {ops}" if ops else line


# ---------------------------------------------------------------------------------------
# Reading


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def _shown(row: str) -> str:
    """A board row as a message quotes it; a row past any board's length is cut short."""
    return repr(row) if len(row) <= 80 else repr(row[:80]) + "…"


def parse_cgp(text: str, path: str = "<cgp>", line: int = 1) -> CgpResult:
    """Read one CGP string; ``line`` is where it stands in its file, for diagnostics."""
    sink = DiagnosticSink(path)
    position = _Reader(sink, line).read(text)
    return CgpResult(position, tuple(sink.items))


@dataclass
class _Reader:
    sink: DiagnosticSink
    line: int

    def error(self, message: str) -> None:
        self.sink.error(self.line, message)

    def read(self, text: str) -> CgpPosition | None:
        parts = text.split(None, 4)
        if len(parts) < 4:
            self.error(f"a CGP needs 4 fields (board, racks, scores, consecutive zero turns); "
                       f"found {len(parts)}")
            return None
        board, racks_text, scores_text, zeros_text = parts[:4]
        operations = self._operations(parts[4] if len(parts) > 4 else "")
        names = {op.name: op.value for op in operations}
        dist = self._distribution(names)
        codec = TileCodec(dist)
        board_read = self._board(board.split("/"), self._named_layout(names), names.get("bdn"),
                                 codec)
        cells, layout = board_read if board_read else (None, None)
        scores = self._scores(scores_text)
        racks = self._racks(racks_text, scores_text, codec, len(scores) if scores else None)
        zeros = self._zeros(zeros_text)
        self._check_values(operations, len(racks or ()))
        if cells is None or layout is None or racks is None or scores is None or zeros is None:
            return None
        if not self._within_bag(cells, racks, dist):
            return None
        return CgpPosition(cells, racks, scores, zeros, tuple(operations), layout, dist)

    def _operations(self, text: str) -> list[Operation]:
        operations = []
        for chunk in text.split(";"):
            chunk = chunk.strip()
            if not chunk:
                continue
            name, _, value = chunk.partition(" ")
            dashed = name.startswith("-")
            name = name.lstrip("-")
            if name not in KNOWN_OPCODES:
                self.sink.warning(self.line, f"unknown opcode {name!r} kept as it is")
            operations.append(Operation(name, " ".join(value.split()), dashed))
        return operations

    def _distribution(self, ops: dict[str, str]) -> Distribution:
        name = ops.get("ld")
        if name:
            try:
                return get_distribution(name)
            except KeyError:
                self.error(f"opcode ld: unknown letter distribution {name!r}")
        lexicon = ops.get("lex")
        guessed = distribution_for_lexicon(lexicon) if lexicon else None
        return get_distribution(guessed or DEFAULT_DISTRIBUTION)

    def _named_layout(self, ops: dict[str, str]) -> Layout | None:
        """The board ``bdn`` names, when pgm knows it: a known board or a plain one by
        the name pgm gives it (``plain 11x11``). Without it the rows choose the board."""
        name = ops.get("bdn")
        if not name:
            return None
        layout = get_layout(name)
        if layout is not None:
            return layout
        size = plain_size(name)
        if size is not None and MIN_SIZE <= size <= MAX_SIZE:
            return plain_layout(size)
        self.sink.warning(self.line, f"opcode bdn: unknown board {name!r}; the board is "
                                     "chosen by its size (one of a size no known board has "
                                     "is drawn plain, without premium squares)")
        return None

    def _board(self, rows: list[str], named: Layout | None, bdn: str | None,
               codec: TileCodec) -> tuple[tuple[str, ...], Layout] | None:
        """The squares row by row and the board: the one ``bdn`` names (``named``), else
        the known board of the rows' number, else a plain board of that size. A board is
        square: as many rows as each row has squares."""
        count = len(rows)
        if named is not None and count != named.size:
            self.error(f"board: {count} row{_s(count)}; expected {named.size} for bdn {bdn} "
                       f"(a {named.size}x{named.size} board)")
            return None
        if not MIN_SIZE <= count <= MAX_SIZE:
            self.error(f"board: {count} row{_s(count)}; pgm reads square boards of "
                       f"{MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}")
            return None
        squares_by_row: list[list[str]] = []
        for number, row in enumerate(rows, start=1):
            squares = self._row(row, number, codec)
            if squares is None:
                return None
            squares_by_row.append(squares)
        widths = [len(squares) for squares in squares_by_row]
        if named is None and len(set(widths)) == 1 and widths[0] != count:
            self.error(f"board: {count} rows; expected {widths[0]}, as many as each row has "
                       "squares (a board is square)")
            return None
        if named is not None:
            expected, why = named.size, f"for bdn {bdn}"
        elif count in widths:
            expected, why = count, f"as the board has {count} rows"
        else:
            expected = Counter(widths).most_common(1)[0][0]
            why = f"as row {widths.index(expected) + 1} has"
        for number, (row, width) in enumerate(zip(rows, widths, strict=True), start=1):
            if width != expected:
                self.error(f"board row {number} ({_shown(row)}) has {width} square{_s(width)}; "
                           f"expected {expected}, {why}")
                return None
        layout = named or layout_of_size(count)
        return tuple(label for squares in squares_by_row for label in squares), layout

    def _row(self, row: str, number: int, codec: TileCodec) -> list[str] | None:
        """One row's squares; a row longer than the largest board is an error, found
        before the squares of a run like ``99999999`` are made."""
        squares: list[str] = []
        for token in re.findall(r"[0-9]+|\[[^\]]*\]?|[^0-9\[]+", row):
            if "0" <= token[0] <= "9":
                if len(token) > 3 or len(squares) + int(token) > MAX_SIZE:
                    break
                squares.extend([""] * int(token))
                continue
            try:
                squares.extend(codec.split(token))
            except TileError as exc:
                self.error(f"board row {number} ({_shown(row)}): {exc}")
                return None
            if len(squares) > MAX_SIZE:
                break
        else:
            return squares
        self.error(f"board row {number} ({_shown(row)}) has more than {MAX_SIZE} squares; "
                   f"pgm reads square boards of {MIN_SIZE}x{MIN_SIZE} to "
                   f"{MAX_SIZE}x{MAX_SIZE}")
        return None

    def _racks(self, text: str, scores: str, codec: TileCodec,
               players: int | None) -> tuple[tuple[str, ...], ...] | None:
        """The racks; ``players`` is how many scores there are (None when they cannot be
        read). Of a rack count and a score count that differ, the one that is not two
        (the usual game) is named as wrong."""
        parts = text.split("/")
        if len(parts) == 2 and players is not None and players != 2:
            self.error(f"scores: {players} scores ({scores!r}) for 2 racks ({text!r}); "
                       "expected 2, one per rack, separated by '/'")
            return None
        if len(parts) < 2 or (players is not None and len(parts) != players):
            expected = players if players is not None else "at least 2"
            self.error(f"racks: {len(parts)} rack{'s' if len(parts) != 1 else ''} ({text!r}); "
                       f"expected {expected}, "
                       "one per player, separated by '/'")
            return None
        racks = []
        for part in parts:
            try:
                labels = codec.split(part, allow=BLANK)
            except TileError as exc:
                self.error(f"racks: {part!r}: {exc}")
                return None
            if len(labels) > RACK_SIZE:
                self.sink.warning(self.line, f"racks: {part!r} has {len(labels)} tiles; a rack "
                                             f"holds at most {RACK_SIZE}")
            racks.append(tuple(t if t == BLANK else t.upper() for t in labels))
        return tuple(racks)

    def _scores(self, text: str) -> tuple[int, ...] | None:
        parts = text.split("/")
        if not all(_INT.match(p) for p in parts):
            self.error(f"scores: {text!r} is not numbers separated by '/'")
            return None
        if len(parts) < 2:
            self.error(f"scores: {text!r} has {len(parts)} score; expected one per player")
            return None
        return tuple(int(p) for p in parts)

    def _zeros(self, text: str) -> int | None:
        if not text.isdigit():
            self.error(f"consecutive zero turns: {text!r} is not a number")
            return None
        return int(text)

    def _check_values(self, operations: list[Operation], players: int) -> None:
        last_moves = [op for op in operations if op.name == "lm"]
        if len(last_moves) > 1:
            written = ", ".join(repr(op.value) for op in last_moves)
            self.error(f"opcode lm: given {len(last_moves)} times ({written}); the lm opcode "
                       "can only be given once (several moves are a GCG record); the first "
                       "is shown")
        for op in operations:
            if op.name in _INTEGER_OPCODES and not _INT.match(op.value):
                self.error(f"opcode {op.name}: {op.value!r} is not a number")
            elif op.name == "tmr":
                timers = op.value.split("/")
                if not all(_INT.match(t) for t in timers) or (players and len(timers) != players):
                    self.error(f"opcode tmr: {op.value!r} should be one number of milliseconds "
                               "per player, separated by '/'")
            elif op.name == "gid" and " " in op.value:
                self.error(f"opcode gid: {op.value!r} contains a space; a game id must not "
                           "contain any spaces")
            elif op.name == "cr" and op.value.lower() not in _CHALLENGE_RULES:
                self.sink.warning(self.line, f"opcode cr: unknown challenge rule {op.value!r}")

    def _within_bag(self, cells: tuple[str, ...], racks: tuple[tuple[str, ...], ...],
                    dist: Distribution) -> bool:
        bag = dist.full_bag()
        on_board = Counter(rack_label(c) for c in cells if c)
        on_racks = Counter(t for rack in racks for t in rack)
        for label, count in sorted((on_board + on_racks).items()):
            if count > bag[label]:
                where = "board" if on_board[label] > bag[label] else "board and racks"
                self.error(f"{count} {label!r} tiles on the {where}, but the {dist.name} set "
                           f"has {bag[label]}")
                return False
        return True

"""Board layouts and coordinates for crossword games.

Layouts are stored as data (one string per row, MAGPIE's legend) so that a new board is
a new table, not new code. Squares are ``(row, col)`` pairs counted from 0.

A CGP position may be on a square board of any size (the format only counts its rows and
squares). A size no named board has is a *plain* board (:func:`plain_layout`): no premium
squares and no start square, named ``plain 11x11``. Sizes run from :data:`MIN_SIZE` (the
smallest board a word fits on) to :data:`MAX_SIZE` (larger input is taken for a mistake,
and would only make pages no one can read).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache


class Premium(str, enum.Enum):
    NONE = ""
    DL = "DL"
    TL = "TL"
    QL = "QL"
    DW = "DW"
    TW = "TW"
    QW = "QW"

    @property
    def letter_multiplier(self) -> int:
        return {"DL": 2, "TL": 3, "QL": 4}.get(self.value, 1)

    @property
    def word_multiplier(self) -> int:
        return {"DW": 2, "TW": 3, "QW": 4}.get(self.value, 1)

    @property
    def description(self) -> str:
        return {
            "": "", "DL": "double letter", "TL": "triple letter", "QL": "quadruple letter",
            "DW": "double word", "TW": "triple word", "QW": "quadruple word",
        }[self.value]


_LEGEND = {" ": Premium.NONE, "'": Premium.DL, '"': Premium.TL, "^": Premium.QL,
           "-": Premium.DW, "=": Premium.TW, "~": Premium.QW}

_STANDARD15 = (
    "=  '   =   '  =",
    " -   \"   \"   - ",
    "  -   ' '   -  ",
    "'  -   '   -  '",
    "    -     -    ",
    " \"   \"   \"   \" ",
    "  '   ' '   '  ",
    "=  '   -   '  =",
    "  '   ' '   '  ",
    " \"   \"   \"   \" ",
    "    -     -    ",
    "'  -   '   -  '",
    "  -   ' '   -  ",
    " -   \"   \"   - ",
    "=  '   =   '  =",
)

_SUPER21 = (
    "~  '   =  '  =   '  ~",
    " -  \"   -   -   \"  - ",
    "  -  ^   - -   ^  -  ",
    "'  =  '   =   '  =  '",
    " \"  -   \"   \"   -  \" ",
    "  ^  -   ' '   -  ^  ",
    "   '  -   '   -  '   ",
    "=      -     -      =",
    " -  \"   \"   \"   \"  - ",
    "  -  '   ' '   '  -  ",
    "'  =  '   -   '  =  '",
    "  -  '   ' '   '  -  ",
    " -  \"   \"   \"   \"  - ",
    "=      -     -      =",
    "   '  -   '   -  '   ",
    "  ^  -   ' '   -  ^  ",
    " \"  -   \"   \"   -  \" ",
    "'  =  '   =   '  =  '",
    "  -  ^   - -   ^  -  ",
    " -  \"   -   -   \"  - ",
    "~  '   =  '  =   '  ~",
)


@dataclass(frozen=True)
class Layout:
    """A square board's premium squares and its name in records and CGP."""

    name: str
    premiums: tuple[tuple[Premium, ...], ...]
    bingo_bonus: int = 50
    plain: bool = False
    """Known only by its size (:func:`plain_layout`): no premium squares, no start square."""

    @cached_property
    def size(self) -> int:
        return len(self.premiums)

    @property
    def center(self) -> tuple[int, int]:
        return (self.size // 2, self.size // 2)

    @property
    def start(self) -> tuple[int, int] | None:
        """The square the first play must cover (marked with a star); None on a plain
        board, whose rules are not known."""
        return None if self.plain else self.center

    def premium(self, row: int, col: int) -> Premium:
        return self.premiums[row][col]

    @cached_property
    def premium_squares(self) -> dict[int, tuple[int, int]]:
        """The letter and word multipliers of each premium square, by its index in a
        position's cells (row by row), for scoring."""
        squares = (p for row in self.premiums for p in row)
        return {index: (p.letter_multiplier, p.word_multiplier)
                for index, p in enumerate(squares) if p is not Premium.NONE}

    @cached_property
    def line_ends(self) -> dict[int, tuple[tuple[int, int], ...]]:
        """By step (1 along a row, ``size`` down a column): each square's first and last
        square on that line, as indices into a position's cells."""
        size = self.size
        squares = range(size * size)
        along_row = tuple((i - i % size, i - i % size + size - 1) for i in squares)
        down_column = tuple((i % size, i % size + size * (size - 1)) for i in squares)
        return {1: along_row, size: down_column}


def _layout(name: str, rows: tuple[str, ...]) -> Layout:
    return Layout(name, tuple(tuple(_LEGEND[c] for c in row) for row in rows))


LAYOUTS = {
    "CrosswordGame": _layout("CrosswordGame", _STANDARD15),
    "SuperCrosswordGame": _layout("SuperCrosswordGame", _SUPER21),
}
_ALIASES = {"standard15": "CrosswordGame", "standard21": "SuperCrosswordGame",
            "crosswordgame": "CrosswordGame", "supercrosswordgame": "SuperCrosswordGame",
            "standard": "CrosswordGame", "super": "SuperCrosswordGame"}


MIN_SIZE = 2
"""The smallest board pgm reads: two squares make the shortest word."""
MAX_SIZE = 64
"""The largest board pgm reads (columns A to BL), over nine times the squares of the
21x21 board: a bound against absurd input (a row of ``99999999`` empty squares)."""
_PLAIN = re.compile(r"^plain ?([0-9]+)[x×]([0-9]+)$", re.IGNORECASE)


def get_layout(name: str) -> Layout | None:
    key = _ALIASES.get(name.lower(), name)
    return LAYOUTS.get(key)


def plain_size(name: str) -> int | None:
    """The size a plain board's name gives (``plain 11x11``, ``plain11x11``: 11), also
    outside the sizes pgm reads; None when the name is not of that form."""
    found = _PLAIN.match(name.strip())
    if found is None or found.group(1) != found.group(2) or len(found.group(1)) > 4:
        return None
    return int(found.group(1))


@cache
def plain_layout(size: int) -> Layout:
    """A ``size`` x ``size`` board without premium squares, for a CGP board of a size no
    known board has."""
    return Layout(f"plain {size}x{size}", ((Premium.NONE,) * size,) * size, plain=True)


def layout_of_size(size: int) -> Layout:
    """The known board of this size (15: CrosswordGame, 21: SuperCrosswordGame), else a
    plain one."""
    return _BY_SIZE.get(size) or plain_layout(size)


_BY_SIZE = {layout.size: layout for layout in LAYOUTS.values()}


@cache
def column_name(col: int) -> str:
    """A, B, ..., Z, AA, AB, ... (the CGP spec's "Excel column notation")."""
    name = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        name = chr(ord("A") + rem) + name
    return name


def column_index(name: str) -> int:
    index = 0
    for char in name.upper():
        index = index * 26 + (ord(char) - ord("A") + 1)
    return index - 1


@dataclass(frozen=True)
class Placement:
    """Where a play starts and which way it runs."""

    row: int
    col: int
    horizontal: bool

    def square(self, offset: int) -> tuple[int, int]:
        if self.horizontal:
            return (self.row, self.col + offset)
        return (self.row + offset, self.col)

    def coordinate(self) -> str:
        """``8D`` for across (row first), ``D8`` for down (column first)."""
        if self.horizontal:
            return f"{self.row + 1}{column_name(self.col)}"
        return f"{column_name(self.col)}{self.row + 1}"


_ROW_FIRST = re.compile(r"^(\d{1,9})([A-Za-z]+)$")
_COL_FIRST = re.compile(r"^([A-Za-z]+)(\d{1,9})$")


@lru_cache(maxsize=4096)
def parse_coordinate(text: str) -> Placement | None:
    """Read ``8D``/``8d`` (across) or ``D8``/``d8`` (down); None when not a coordinate.
    Columns past Z are in Excel's notation (``27AA``, ``AB3``). Kept for the few hundred
    coordinates a board has, which every game repeats."""
    match = _ROW_FIRST.match(text)
    if match:
        return Placement(int(match.group(1)) - 1, column_index(match.group(2)), True)
    match = _COL_FIRST.match(text)
    if match:
        return Placement(int(match.group(2)) - 1, column_index(match.group(1)), False)
    return None

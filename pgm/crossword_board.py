"""Crossword boards as turn pages show them: board rows from the templates' ``square``
and ``row`` macros, each square and row made once per distinct input, and one game's
boards turn by turn redone only where a turn changed them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

import jinja2
from markupsafe import Markup

from pgm.board import Layout, column_name, parse_coordinate
from pgm.crossword_model import Turn
from pgm.fragments import memo
from pgm.page_plan import Holes, PagePlan
from pgm.render import markup
from pgm.scoring import square_name
from pgm.tiles import Distribution, is_blank

JUST_PLAYED, PLAYED_THROUGH = 1, 2
"""How a turn's board marks a square (0: not at all): a tile the turn placed, or a tile
of the main word that the turn played through (which a spectator reading the board, by
sight or by ear, would otherwise not tell from the rest)."""

_MARK_CLASS = ("", "n", "t")
_WIDE_CLASS = ("", "", "w2", "w3")
"""The class of a tile by the letters on it (Spanish CH, Catalan L·L), which the
stylesheet sets smaller to fit its square beside the points."""
_MARK_TEXT = ("", ", just played", ", played through")

Marks = tuple[tuple[int, int], ...]
"""The marked squares of a display row: (column, mark), left to right."""

_PREMIUM_CLASS = {"": "", "DL": "dl", "TL": "tl", "QL": "ql", "DW": "dw", "TW": "tw", "QW": "qw"}


@dataclass(frozen=True)
class Square:
    letter: str
    """The letter shown (upper case, also for blanks); empty for an empty square."""
    points: str
    css: str
    """Short classes the stylesheet knows: premium (tw, dw, tl, dl, qw, ql), c (centre),
    b (blank), n (just played), t (played through); a tile is known by its ``data-l``."""
    label: str
    """Accessible name: coordinate, content and premium."""


@dataclass(frozen=True)
class Orientation:
    """How coordinates are labelled: ``lettered-rows`` shows the board transposed, so a
    record's ``E5`` (row E, column 5) lands where its author saw it."""

    lettered_rows: bool = False

    def row_header(self, index: int) -> str:
        return column_name(index) if self.lettered_rows else str(index + 1)

    def column_header(self, index: int) -> str:
        return str(index + 1) if self.lettered_rows else column_name(index)

    def cell(self, row: int, col: int) -> tuple[int, int]:
        """Board square shown at display (row, col)."""
        return (col, row) if self.lettered_rows else (row, col)

    @staticmethod
    def name(row: int, col: int) -> str:
        """A square's coordinate as the record writes it: transposing the board turns
        "column G, row 8" into "row G, column 8", so the name is the same either way."""
        return square_name(row, col)


@cache
def _column_headers(size: int, orientation: Orientation) -> tuple[str, ...]:
    return tuple(orientation.column_header(c) for c in range(size))


@cache
def _empty_squares(layout: Layout, orientation: Orientation) -> tuple[tuple[Square, ...], ...]:
    """Empty squares never change, so each board shape builds them once."""
    rows = []
    for r in range(layout.size):
        row = []
        for c in range(layout.size):
            br, bc = orientation.cell(r, c)
            premium = layout.premium(br, bc)
            centre = (br, bc) == layout.start
            css = " ".join(filter(None, [_PREMIUM_CLASS[premium.value],
                                         "c" if centre else ""]))
            name = orientation.name(br, bc)
            described = premium.description + (" (centre)" if centre else "")
            row.append(Square("", "", css, f"{name}, empty" + (f", {described}"
                                                               if described else "")))
        rows.append(tuple(row))
    return tuple(rows)


def _tile_square(label: str, layout: Layout, dist: Distribution, row: int, col: int,
                 mark: int, orientation: Orientation) -> Square:
    blank = is_blank(label)
    points = 0 if blank else dist.points(label)
    css = " ".join(filter(None, ("b" if blank else "", _MARK_CLASS[mark],
                                 _WIDE_CLASS[min(len(label), 3)])))
    name = orientation.name(row, col)
    what = f"blank as {label.upper()}" if blank else label
    premium = layout.premium(row, col).description
    text = f"{name}, {what}, {points} point{'s' if points != 1 else ''}{_MARK_TEXT[mark]}"
    if premium:
        text += f", on {premium}"
    return Square(label.upper(), "" if blank else str(points), css, text)


_RowKey = tuple[int, tuple[str, ...], Marks]
"""A board row: its index, its squares' labels, its squares this turn marks."""


_SQUARE_TESTED = ("css", "letter", "points")
"""The fields of a ``Square`` that the ``square`` macro tests before it prints them."""


class _Shape:
    """What is kept for one board shape (layout, tile set, orientation): its rows by
    contents, its squares by place, and each row's markup around its squares."""

    def __init__(self, layout: Layout, dist: Distribution, orientation: Orientation) -> None:
        self.layout = layout
        self.dist = dist
        self.orientation = orientation
        self.rows: dict[_RowKey, Markup] = {}
        squares = layout.size * layout.size
        self.squares: tuple[list[dict[str, str]], ...] = tuple(
            [{} for _ in range(squares)] for _ in _MARK_CLASS)
        """Square markup by mark (as it stands, just played, played through), display
        square and label. Bounded by the tile set, so never trimmed."""
        self.row_frames: dict[int, tuple[str, str] | None] = {}
        """The markup before and after the squares of each display row (None: the row
        macro is called for every row)."""
        self.empty: tuple[tuple[tuple[str, ...], ...], list[Markup]] | None = None
        """The squares' markup and the rows of the empty board (``empty_board``)."""


class BoardRenderer:
    """Board rows from the template's ``square`` and ``row`` macros, each rendered once
    per distinct input: consecutive turns of a game share all but a few rows, a new row
    shares all but a few squares, and empty squares are shared by every game. A row's
    own markup is planned once per row (pgm.page_plan), so a new row costs a join."""

    def __init__(self, env: jinja2.Environment, row_limit: int = 8_000_000) -> None:
        module = env.get_template("partials/fragments.html").module
        self._square_macro = module.square  # type: ignore[attr-defined]
        self._square_plans: dict[tuple[bool, ...], PagePlan | None] = {}
        self._row_macro = module.row  # type: ignore[attr-defined]
        self._head = memo(env, "partials/fragments.html", "board_head")
        self._shapes: dict[tuple[str, str, bool], _Shape] = {}
        self._row_limit = row_limit
        """Characters of row markup kept; a row is about a kilobyte."""
        self._row_size = 0

    def board(self, cells: tuple[str, ...], layout: Layout, dist: Distribution,
              new: Iterable[tuple[int, int]], orientation: Orientation,
              through: Iterable[tuple[int, int]] = ()) -> dict[str, Any]:
        """The values ``partials/board.html`` prints: ``new`` squares are highlighted, and
        the ``through`` squares marked as played through."""
        marks_by_row = _marks_by_row([(square, JUST_PLAYED) for square in new] +
                                     [(square, PLAYED_THROUGH) for square in through],
                                     orientation)
        shape = self.shape(layout, dist, orientation)
        return self.frame(layout.size, self.head(layout.size, orientation),
                          [self.row(shape, cells, r, marks_by_row.get(r, ()))
                           for r in range(layout.size)])

    @staticmethod
    def frame(size: int, head: Markup, rows: list[Markup]) -> dict[str, Any]:
        """The values ``partials/board.html`` prints, around rendered ``rows``."""
        return {"board_size": size, "board_head": head, "board_rows": markup("".join(rows))}

    def head(self, size: int, orientation: Orientation) -> Markup:
        """The column headers of a board of ``size``."""
        return self._head(_column_headers(size, orientation))

    def row(self, shape: _Shape, cells: tuple[str, ...], r: int, marks: Marks) -> Markup:
        """Display row ``r`` of a board of ``shape`` (see :meth:`shape`) with its squares
        marked as ``marks`` says, keyed by its raw contents so that a row seen before (on
        an earlier turn, or in another game) costs a dictionary lookup."""
        size = shape.layout.size
        raw = cells[r::size] if shape.orientation.lettered_rows else cells[r * size:(r + 1) * size]
        key = (r, raw, marks)
        html = shape.rows.get(key)
        if html is None:
            html = self._new_row(shape, key)
        return html

    def shape(self, layout: Layout, dist: Distribution, orientation: Orientation) -> _Shape:
        """The kept squares and rows of boards of this layout, tile set and orientation."""
        key = (layout.name, dist.name, orientation.lettered_rows)
        shape = self._shapes.get(key)
        if shape is None:
            shape = self._shapes[key] = _Shape(layout, dist, orientation)
        return shape

    def rows_and_squares(self, shape: _Shape, cells: tuple[str, ...],
                         by_row: dict[int, Marks]) -> tuple[list[Markup], list[list[str]]]:
        """Every row of a board of ``shape`` holding ``cells``, marked as ``by_row`` says,
        and the markup of each of its squares, by display row and column."""
        size = shape.layout.size
        lettered = shape.orientation.lettered_rows
        rows, squares = [], []
        for r in range(size):
            raw = cells[r::size] if lettered else cells[r * size:(r + 1) * size]
            squares.append(self.squares(shape, r, raw, by_row.get(r, ())))
            rows.append(self.row(shape, cells, r, by_row.get(r, ())))
        return rows, squares

    def empty_board(self, shape: _Shape) -> tuple[tuple[tuple[str, ...], ...], list[Markup]]:
        """The squares' markup and the rows of an empty board of ``shape``, made once."""
        if shape.empty is None:
            rows, squares = self.rows_and_squares(
                shape, ("",) * (shape.layout.size * shape.layout.size), {})
            shape.empty = (tuple(map(tuple, squares)), rows)
        return shape.empty[0], list(shape.empty[1])

    def _new_row(self, shape: _Shape, key: _RowKey) -> Markup:
        r, raw, marks = key
        if self._row_size >= self._row_limit:
            for each in self._shapes.values():
                each.rows.clear()
            self._row_size = 0
        html = shape.rows[key] = self.row_html(shape, r, self.squares(shape, r, raw, marks))
        self._row_size += len(html)
        return html

    def squares(self, shape: _Shape, r: int, raw: tuple[str, ...], marks: Marks
                ) -> list[str]:
        """The markup of each square of display row ``r`` holding ``raw``, marked as
        ``marks`` says."""
        start = r * shape.layout.size
        marked = dict(marks)
        parts = []
        for c, label in enumerate(raw):
            mark = marked.get(c, 0)
            html = shape.squares[mark][start + c].get(label)
            parts.append(html if html is not None else self.square(shape, r, c, label, mark))
        return parts

    def square(self, shape: _Shape, r: int, c: int, label: str, mark: int) -> str:
        """The markup of the square at display (r, c) holding ``label`` (empty: "")."""
        known = shape.squares[mark][r * shape.layout.size + c]
        html = known.get(label)
        if html is None:
            html = known[label] = self._square_html(_square(shape, r, c, label, mark))
        return html

    def _square_html(self, square: Square) -> str:
        """The ``square`` macro's markup, from a plan per kind of square (which of its
        class, letter and points it has): a worker meets some ten thousand squares."""
        kind = (bool(square.css), bool(square.letter), bool(square.points))
        if kind not in self._square_plans:
            self._square_plans[kind] = self._square_plan(kind)
        plan = self._square_plans[kind]
        if plan is None:  # a theme's square macro does more with a square than print it
            return str(self._square_macro(square))
        return plan.fill(square.__dict__)

    def _square_plan(self, kind: tuple[bool, ...]) -> PagePlan | None:
        given = [name for name, present in zip(_SQUARE_TESTED, kind, strict=True) if present]
        return PagePlan.of(lambda markers: self._square_macro(Holes(
            {**dict.fromkeys(_SQUARE_TESTED, ""), **markers})), given + ["label"], truthy=given)

    def row_html(self, shape: _Shape, r: int, squares: list[str]) -> Markup:
        """Display row ``r`` around the markup of its ``squares``."""
        if r not in shape.row_frames:
            shape.row_frames[r] = self._row_frame(shape, r)
        frame = shape.row_frames[r]
        if frame is None:
            return Markup(self._row_macro(shape.orientation.row_header(r),
                                          markup("".join(squares))))
        return markup("".join([frame[0], *squares, frame[1]]))

    def _row_frame(self, shape: _Shape, r: int) -> tuple[str, str] | None:
        """What the row macro puts before and after the squares of row ``r``, planned
        (pgm.page_plan); None when it does more with them than print them once."""
        header = shape.orientation.row_header(r)
        plan = PagePlan.of(lambda markers: self._row_macro(header, **markers), ["squares"])
        return plan.around() if plan else None


def _square(shape: _Shape, r: int, c: int, label: str, mark: int) -> Square:
    """The square at display (r, c) holding ``label`` (empty: "")."""
    if not label:
        return _empty_squares(shape.layout, shape.orientation)[r][c]
    br, bc = shape.orientation.cell(r, c)
    return _tile_square(label, shape.layout, shape.dist, br, bc, mark, shape.orientation)


def _marks_by_row(marked: list[tuple[tuple[int, int], int]], orientation: Orientation
                  ) -> dict[int, Marks]:
    """Display row -> the marks of the ``marked`` board squares in it, left to right."""
    by_row: dict[int, Marks] = {}
    for square, mark in sorted(marked):
        r, c = orientation.cell(*square)  # the transpose is its own inverse
        by_row[r] = by_row.get(r, ()) + ((c, mark),)
    return by_row


def played_through(turn: Turn, size: int) -> list[tuple[int, int]]:
    """The board squares of the tiles a play's main word runs through, which it did not
    place: from the square the record names, along the play, to the first empty one."""
    placement = parse_coordinate(turn.event.position) if turn.placed else None
    if placement is None:
        return []
    placed = {(t.row, t.col) for t in turn.placed}
    cells = turn.position.cells
    dr, dc = (0, 1) if placement.horizontal else (1, 0)
    r, c, through = placement.row, placement.col, []
    while 0 <= r < size and 0 <= c < size and cells[r * size + c]:
        if (r, c) not in placed:
            through.append((r, c))
        r, c = r + dr, c + dc
    return through


class TurnBoards:
    """The board rows of one game's turn pages, in turn order.

    A turn changes the board only on the squares it placed or took back (a withdrawn
    phoney), so each page redoes just those squares and the ones the previous turn
    highlighted, keeps the others' markup from the page before, and joins the rows they
    lie in again; a game that starts on an empty board starts from the empty board's
    markup, kept per board shape. Asked out of order, it renders every row.
    """

    def __init__(self, renderer: BoardRenderer, layout: Layout, dist: Distribution,
                 orientation: Orientation, start: tuple[str, ...] = ()) -> None:
        self._renderer = renderer
        self._size = layout.size
        self._shape = renderer.shape(layout, dist, orientation)
        self._orientation = orientation
        self._rows: list[Markup] = []
        self._squares: list[list[str]] = []
        """The markup of each square of the rows, by display row and column."""
        self._highlighted: list[tuple[int, int]] = []
        """The board squares the last page marked."""
        self._last = -2
        self._head = renderer.head(layout.size, orientation)
        if start and not any(start):
            squares, self._rows = renderer.empty_board(self._shape)
            self._squares = [list(row) for row in squares]
            self._last = -1

    def board(self, index: int, turn: Turn) -> dict[str, Any]:
        """The values ``partials/board.html`` prints for ``turn``, the ``index``-th."""
        placed = [(t.row, t.col) for t in turn.placed]
        through = played_through(turn, self._size)
        if index == self._last + 1 and self._rows:
            self._redo(turn.position.cells, placed, through,
                       self._highlighted + [(t.row, t.col) for t in turn.removed])
        else:
            self._render_all(turn.position.cells, [(square, JUST_PLAYED) for square in placed]
                             + [(square, PLAYED_THROUGH) for square in through])
        self._highlighted = placed + through
        self._last = index
        return self._renderer.frame(self._size, self._head, self._rows)

    def final(self, index: int, cells: tuple[str, ...]) -> dict[str, Any]:
        """The values ``partials/board.html`` prints for the board after the ``index``-th
        turn with nothing highlighted (the game page's final position): once the last turn
        page is made, only its highlighted squares are redone."""
        if index == self._last and self._rows:
            self._redo(cells, [], [], self._highlighted)
            self._highlighted, self._last = [], -2
        else:
            self._render_all(cells, [])
        return self._renderer.frame(self._size, self._head, self._rows)

    def _redo(self, cells: tuple[str, ...], placed: list[tuple[int, int]],
              through: list[tuple[int, int]], others: list[tuple[int, int]]) -> None:
        """Redo the board squares ``placed`` and played ``through`` (marked so), and the
        ``others`` (not marked, unless also among the first), and the rows they lie in."""
        renderer, shape, size, squares = self._renderer, self._shape, self._size, self._squares
        known = shape.squares
        lettered = self._orientation.lettered_rows
        rows = set()
        for board_squares, mark in ((others, 0), (placed, JUST_PLAYED),
                                    (through, PLAYED_THROUGH)):
            by_place = known[mark]
            for row, col in board_squares:
                r, c = (col, row) if lettered else (row, col)
                label = cells[row * size + col]
                # the kept markup looked up here: a dozen squares a turn, most of them known
                html = by_place[r * size + c].get(label)
                squares[r][c] = html if html is not None else \
                    renderer.square(shape, r, c, label, mark)
                rows.add(r)
        for r in rows:
            self._rows[r] = renderer.row_html(shape, r, squares[r])

    def _render_all(self, cells: tuple[str, ...], marked: list[tuple[tuple[int, int], int]]
                    ) -> None:
        """Every row and square, the ``marked`` board squares with their marks."""
        by_row = _marks_by_row(marked, self._orientation)
        self._rows, self._squares = self._renderer.rows_and_squares(self._shape, cells,
                                                                     by_row)

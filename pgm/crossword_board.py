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

from pgm.board import Layout, column_name
from pgm.crossword_model import Turn
from pgm.fragments import memo
from pgm.page_plan import Holes, PagePlan
from pgm.render import markup
from pgm.scoring import square_name
from pgm.tiles import Distribution, is_blank

_PREMIUM_CLASS = {"": "", "DL": "dl", "TL": "tl", "QL": "ql", "DW": "dw", "TW": "tw", "QW": "qw"}


@dataclass(frozen=True)
class Square:
    letter: str
    """The letter shown (upper case, also for blanks); empty for an empty square."""
    points: str
    css: str
    """Short classes the stylesheet knows: premium (tw, dw, tl, dl, qw, ql), c (centre),
    b (blank), n (just played); a tile is known by its ``data-l``."""
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
                 new: bool, orientation: Orientation) -> Square:
    blank = is_blank(label)
    points = 0 if blank else dist.points(label)
    css = " ".join(filter(None, ("b" if blank else "", "n" if new else "")))
    name = orientation.name(row, col)
    what = f"blank as {label.upper()}" if blank else label
    premium = layout.premium(row, col).description
    text = f"{name}, {what}, {points} point{'s' if points != 1 else ''}"
    if new:
        text += ", just played"
    if premium:
        text += f", on {premium}"
    return Square(label.upper(), "" if blank else str(points), css, text)


_RowKey = tuple[int, tuple[str, ...], tuple[int, ...]]
"""A board row: its index, its squares' labels, the columns played on this turn."""


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
        self.squares: tuple[list[dict[str, str]], list[dict[str, str]]] = (
            [{} for _ in range(squares)], [{} for _ in range(squares)])
        """Square markup by display square and label: as it stands, and just played.
        Bounded by the tile set, so never trimmed."""
        self.row_frames: dict[int, tuple[str, str] | None] = {}
        """The markup before and after the squares of each display row (None: the row
        macro is called for every row)."""


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
              new: Iterable[tuple[int, int]], orientation: Orientation) -> dict[str, Any]:
        """The values ``partials/board.html`` prints: ``new`` squares are highlighted."""
        fresh_by_row = _fresh_by_row(new, orientation)
        shape = self.shape(layout, dist, orientation)
        return self.frame(layout.size, self.head(layout.size, orientation),
                          [self.row(shape, cells, r, fresh_by_row.get(r, ()))
                           for r in range(layout.size)])

    @staticmethod
    def frame(size: int, head: Markup, rows: list[Markup]) -> dict[str, Any]:
        """The values ``partials/board.html`` prints, around rendered ``rows``."""
        return {"board_size": size, "board_head": head, "board_rows": markup("".join(rows))}

    def head(self, size: int, orientation: Orientation) -> Markup:
        """The column headers of a board of ``size``."""
        return self._head(_column_headers(size, orientation))

    def row(self, shape: _Shape, cells: tuple[str, ...], r: int,
            fresh: tuple[int, ...]) -> Markup:
        """Display row ``r`` of a board of ``shape`` (see :meth:`shape`) with the squares
        in columns ``fresh`` highlighted, keyed by its raw contents so that a row seen
        before (on an earlier turn, or in another game) costs a dictionary lookup."""
        size = shape.layout.size
        raw = cells[r::size] if shape.orientation.lettered_rows else cells[r * size:(r + 1) * size]
        key = (r, raw, fresh)
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

    def _new_row(self, shape: _Shape, key: _RowKey) -> Markup:
        r, raw, fresh = key
        if self._row_size >= self._row_limit:
            for each in self._shapes.values():
                each.rows.clear()
            self._row_size = 0
        html = shape.rows[key] = self.row_html(shape, r, self.squares(shape, r, raw, fresh))
        self._row_size += len(html)
        return html

    def squares(self, shape: _Shape, r: int, raw: tuple[str, ...], fresh: tuple[int, ...]
                ) -> list[str]:
        """The markup of each square of display row ``r`` holding ``raw``, the columns
        ``fresh`` highlighted."""
        start = r * shape.layout.size
        as_is, just_played = shape.squares
        parts = []
        for c, label in enumerate(raw):
            new = c in fresh
            html = (just_played if new else as_is)[start + c].get(label)
            parts.append(html if html is not None else self.square(shape, r, c, label, new))
        return parts

    def square(self, shape: _Shape, r: int, c: int, label: str, new: bool) -> str:
        """The markup of the square at display (r, c) holding ``label`` (empty: "")."""
        known = shape.squares[new][r * shape.layout.size + c]
        html = known.get(label)
        if html is None:
            html = known[label] = self._square_html(_square(shape, r, c, label, new))
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


def _square(shape: _Shape, r: int, c: int, label: str, new: bool) -> Square:
    """The square at display (r, c) holding ``label`` (empty: "")."""
    if not label:
        return _empty_squares(shape.layout, shape.orientation)[r][c]
    br, bc = shape.orientation.cell(r, c)
    return _tile_square(label, shape.layout, shape.dist, br, bc, new, shape.orientation)


def _fresh_by_row(new: Iterable[tuple[int, int]], orientation: Orientation
                  ) -> dict[int, tuple[int, ...]]:
    """Display row -> the columns of the ``new`` board squares in it, left to right."""
    by_row: dict[int, tuple[int, ...]] = {}
    for square in sorted(new):
        r, c = orientation.cell(*square)  # the transpose is its own inverse
        by_row[r] = by_row.get(r, ()) + (c,)
    return by_row


class TurnBoards:
    """The board rows of one game's turn pages, in turn order.

    A turn changes the board only on the squares it placed or took back (a withdrawn
    phoney), so each page redoes just those squares and the ones the previous turn
    highlighted, keeps the others' markup from the page before, and joins the rows they
    lie in again. Asked out of order, it renders every row.
    """

    def __init__(self, renderer: BoardRenderer, layout: Layout, dist: Distribution,
                 orientation: Orientation) -> None:
        self._renderer = renderer
        self._size = layout.size
        self._shape = renderer.shape(layout, dist, orientation)
        self._orientation = orientation
        self._rows: list[Markup] = []
        self._squares: list[list[str]] = []
        """The markup of each square of the rows, by display row and column."""
        self._highlighted: list[tuple[int, int]] = []
        self._last = -2
        self._head = renderer.head(layout.size, orientation)

    def board(self, index: int, turn: Turn) -> dict[str, Any]:
        """The values ``partials/board.html`` prints for ``turn``, the ``index``-th."""
        cell = self._orientation.cell
        fresh = [cell(t.row, t.col) for t in turn.placed]  # the transpose is its own inverse
        if index == self._last + 1 and self._rows:
            self._redo(turn.position.cells, fresh, self._highlighted +
                       [cell(t.row, t.col) for t in turn.removed])
        else:
            self._render_all(turn.position.cells, [(t.row, t.col) for t in turn.placed])
        self._highlighted, self._last = fresh, index
        return self._renderer.frame(self._size, self._head, self._rows)

    def final(self, index: int, cells: tuple[str, ...]) -> dict[str, Any]:
        """The values ``partials/board.html`` prints for the board after the ``index``-th
        turn with nothing highlighted (the game page's final position): once the last turn
        page is made, only its highlighted squares are redone."""
        if index == self._last and self._rows:
            self._redo(cells, [], self._highlighted)
            self._highlighted, self._last = [], -2
        else:
            self._render_all(cells, [])
        return self._renderer.frame(self._size, self._head, self._rows)

    def _redo(self, cells: tuple[str, ...], fresh: list[tuple[int, int]],
              others: list[tuple[int, int]]) -> None:
        """Redo the ``fresh`` squares (highlighted) and the ``others`` (not, unless also
        fresh), and the rows they lie in."""
        renderer, shape, size = self._renderer, self._shape, self._size
        cell = self._orientation.cell
        rows = set()
        for squares, new in ((others, False), (fresh, True)):
            for r, c in squares:
                row, col = cell(r, c)
                self._squares[r][c] = renderer.square(shape, r, c, cells[row * size + col], new)
                rows.add(r)
        for r in rows:
            self._rows[r] = renderer.row_html(shape, r, self._squares[r])

    def _render_all(self, cells: tuple[str, ...], placed: list[tuple[int, int]]) -> None:
        """Every row and square, ``placed`` (board squares) highlighted."""
        by_row = _fresh_by_row(placed, self._orientation)
        renderer, shape, size = self._renderer, self._shape, self._size
        lettered = self._orientation.lettered_rows
        self._rows, self._squares = [], []
        for r in range(size):
            raw = cells[r::size] if lettered else cells[r * size:(r + 1) * size]
            self._squares.append(renderer.squares(shape, r, raw, by_row.get(r, ())))
            self._rows.append(renderer.row(shape, cells, r, by_row.get(r, ())))

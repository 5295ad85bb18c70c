"""Place a play on a crossword board and score it from the board itself.

Scores are recomputed rather than trusted so that a recording error (a wrong score on
an annotation sheet) is caught at its line. The board is a flat tuple of labels, row by
row, ``""`` for an empty square, which makes positions cheap to keep for every turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, partial
from typing import NamedTuple

from pgm.board import Layout, Placement, column_name
from pgm.tiles import RACK_LABELS, TILE_TEXTS, Distribution, Memo, tile_text

RACK_SIZE = 7

Cells = tuple[str, ...]


class PlacementError(ValueError):
    """A play that cannot be put on the board as written."""


class OccupiedSquareError(PlacementError):
    """A play puts a letter on a square that holds another: no crossword game allows it,
    but Upwords does (a record that forgot ``#game-type upwords``)."""


@dataclass(frozen=True)
class PlacedTile:
    row: int
    col: int
    label: str


@cache
def _placed_tiles(size: int) -> tuple[Memo[PlacedTile], ...]:
    """By square index on a board ``size`` wide, the tile of each label placed there, made
    once: every game puts the same letters on the same squares, and a list index and a
    dict lookup cost a fraction of building the frozen value."""
    return tuple(Memo(partial(PlacedTile, index // size, index % size))
                 for index in range(size * size))


class ScoredPlay(NamedTuple):
    """The outcome of putting one play on the board (a named tuple: one is made for
    every play of every game, and it is only read)."""

    cells: Cells
    """The board after the play."""
    placed: tuple[PlacedTile, ...]
    """The new tiles, in the order they were written."""
    played: list[str]
    """Their labels on the rack (``?`` for a blank), which the replay counts: made here,
    where each label is at hand."""
    words: tuple[str, ...]
    """Every word formed: the main word first, then the cross-words."""
    score: int
    bingo: bool
    notation: str
    """The play in CGP ``lm`` form: coordinate and tiles, ``.`` for played-through."""
    touches: bool
    """Whether the play uses a tile that was on the board before it."""
    warnings: tuple[str, ...] = ()


def square_name(row: int, col: int) -> str:
    return f"{column_name(col)}{row + 1}"


def place_play(cells: Cells, layout: Layout, dist: Distribution, placement: Placement,
               labels: list[str]) -> ScoredPlay:
    """Put ``labels`` (``.`` = played through) on the board starting at ``placement``.

    Squares are handled by their index in ``cells`` (a step is 1 across, the board's
    size down): every play of every game comes through here, so index arithmetic and
    slices replace (row, col) pairs.
    """
    step = 1 if placement.horizontal else layout.size
    new, placed, played, squares, notation = _lay_tiles(cells, layout.size, placement, step,
                                                        labels)
    words, score, touches, warnings = _score(new, layout, dist, step, squares, len(labels))
    bingo = len(placed) == RACK_SIZE
    if bingo:
        score += layout.bingo_bonus
    return ScoredPlay(new, tuple(placed), played, tuple(words), score, bingo,
                      f"{placement.coordinate()} {notation}", touches, tuple(warnings))


def _lay_tiles(cells: Cells, size: int, placement: Placement, step: int, labels: list[str],
               ) -> tuple[Cells, list[PlacedTile], list[str], list[int], str]:
    """The board with the new tiles, the tiles, their rack labels, their squares and the
    ``lm`` notation."""
    row, col = placement.row, placement.col
    on_board = 0 <= row < size and 0 <= col < size
    room = (size - (col if placement.horizontal else row)) if on_board else 0
    board = list(cells)
    tiles = _placed_tiles(size)
    placed: list[PlacedTile] = []
    played: list[str] = []
    squares: list[int] = []
    notation: list[str] = []
    index = row * size + col
    for label in labels[:room]:
        current = board[index]
        if current or label == ".":
            _check_through(current, label, index, size)
            notation.append(".")
        else:
            board[index] = label
            placed.append(tiles[index][label])
            played.append(RACK_LABELS[label])
            squares.append(index)
            notation.append(TILE_TEXTS[label])
        index += step
    if not on_board:
        raise PlacementError(f"{placement.coordinate()} is not on the board (rows 1-{size}, "
                             f"columns A-{column_name(size - 1)})")
    if len(labels) > room:
        raise PlacementError(f"the play runs off the board at tile {room + 1} "
                             f"(the play at {placement.coordinate()} is {len(labels)} tiles long)")
    if not placed:
        raise PlacementError("the play places no new tile")
    return tuple(board), placed, played, squares, "".join(notation)


def _check_through(current: str, label: str, index: int, size: int) -> None:
    """A play goes through a tile on the board with ``.`` or that tile's letter."""
    if not current:
        raise PlacementError(f"'.' marks a played-through tile at "
                             f"{_square_of(index, size)}, but that square is empty")
    if label != "." and current.upper() != label.upper():
        raise OccupiedSquareError(f"{_square_of(index, size)} already holds {current!r}, "
                             f"the play has {label!r} there")


def _square_of(index: int, size: int) -> str:
    return square_name(*divmod(index, size))


def _score(cells: Cells, layout: Layout, dist: Distribution, along: int, squares: list[int],
           written_length: int) -> tuple[list[str], int, bool, list[str]]:
    """The words a play forms, their score, whether the play touches older tiles, and
    warnings; ``along`` is the play's step, ``squares`` the indices of its new tiles."""
    points = dist.label_points
    premiums = layout.premium_squares
    words: list[str] = []
    total = 0
    warnings: list[str] = []
    main = _word(cells, layout.line_ends[along], squares[0], squares[-1], along)
    if len(main) > 1:
        words.append(tile_text(main))
        total += _word_score(cells, main, squares, points, premiums)
    if len(main) != written_length:
        warnings.append(f"the word on the board is {tile_text(main)}, "
                        f"longer than the {written_length} tiles written")
    crossed = False
    across = layout.size if along == 1 else 1
    ends = layout.line_ends[across]
    for index in squares:
        first, last = ends[index]
        # Most new tiles form no cross-word: look at the two neighbours first.
        if (index > first and cells[index - across]) or (index < last and cells[index + across]):
            cross = _word(cells, ends, index, index, across)
            words.append(tile_text(cross))
            total += _word_score(cells, cross, [index], points, premiums)
            crossed = True
    # A tile next to the new ones is in the main word or makes a cross-word.
    touches = crossed or len(main) > len(squares)
    return words, total, touches, warnings


def _word(cells: Cells, ends: tuple[tuple[int, int], ...], start: int, end: int,
          step: int) -> Cells:
    """The tiles of the contiguous run through the occupied squares ``start`` to ``end``
    one way (``step`` 1 across, the board's size down; ``ends`` are ``Layout.line_ends``
    for that step)."""
    first, last = ends[start]
    while start > first and cells[start - step]:
        start -= step
    while end < last and cells[end + step]:
        end += step
    return cells[start:end + step:step]


def _word_score(cells: Cells, tiles: Cells, new_squares: list[int], points: Memo[int],
                premiums: dict[int, tuple[int, int]]) -> int:
    """Letter premiums and word multipliers count only on the squares covered this
    turn (``new_squares``, all within the word): the face values are summed first, then
    each new square on a premium adds its letter bonus and multiplies the word."""
    letters = sum(map(points.__getitem__, tiles))
    multiplier = 1
    for index in new_squares:
        if index in premiums:
            letter_multiplier, word_multiplier = premiums[index]
            letters += points[cells[index]] * (letter_multiplier - 1)
            multiplier *= word_multiplier
    return letters * multiplier

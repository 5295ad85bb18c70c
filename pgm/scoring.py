"""Place a play on a crossword board and score it from the board itself.

Scores are recomputed rather than trusted so that a recording error (a wrong score on
an annotation sheet) is caught at its line. The board is a flat tuple of labels, row by
row, ``""`` for an empty square, which makes positions cheap to keep for every turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from pgm.board import Layout, Placement, column_name
from pgm.tiles import Distribution

RACK_SIZE = 7

Cells = tuple[str, ...]


class PlacementError(ValueError):
    """A play that cannot be put on the board as written."""


@dataclass(frozen=True)
class PlacedTile:
    row: int
    col: int
    label: str


@dataclass(frozen=True)
class ScoredPlay:
    """The outcome of putting one play on the board."""

    cells: Cells
    """The board after the play."""
    placed: tuple[PlacedTile, ...]
    """The new tiles, in the order they were written."""
    words: tuple[str, ...]
    """Every word formed: the main word first, then the cross-words."""
    score: int
    bingo: bool
    notation: str
    """The play in CGP ``lm`` form: coordinate and tiles, ``.`` for played-through."""
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
    new, placed, squares, notation = _lay_tiles(cells, layout.size, placement, step, labels)
    words, score, warnings = _score(new, layout, dist, step, squares, len(labels))
    bingo = len(placed) == RACK_SIZE
    if bingo:
        score += layout.bingo_bonus
    return ScoredPlay(new, tuple(placed), tuple(words), score, bingo,
                      f"{placement.coordinate()} {notation}", tuple(warnings))


def _lay_tiles(cells: Cells, size: int, placement: Placement, step: int, labels: list[str],
               ) -> tuple[Cells, list[PlacedTile], list[int], str]:
    """The board with the new tiles, the tiles, their squares and the ``lm`` notation."""
    row, col = placement.row, placement.col
    on_board = 0 <= row < size and 0 <= col < size
    room = (size - (col if placement.horizontal else row)) if on_board else 0
    board = list(cells)
    placed: list[PlacedTile] = []
    squares: list[int] = []
    notation: list[str] = []
    index = row * size + col
    for offset, label in enumerate(labels):
        if offset >= room:
            raise PlacementError(f"the play runs off the board at tile {offset + 1} "
                                 f"({placement.coordinate()} is {len(labels)} tiles long)")
        current = board[index]
        if label == ".":
            if not current:
                raise PlacementError(f"'.' marks a played-through tile at "
                                     f"{_square_of(index, size)}, but that square is empty")
            notation.append(".")
        elif current:
            if current.upper() != label.upper():
                raise PlacementError(f"{_square_of(index, size)} already holds {current!r}, "
                                     f"the play has {label!r} there")
            notation.append(".")
        else:
            board[index] = label
            placed.append(PlacedTile(*divmod(index, size), label))
            squares.append(index)
            notation.append(f"[{label}]" if len(label) > 1 else label)
        index += step
    if not placed:
        raise PlacementError("the play places no new tile")
    return tuple(board), placed, squares, "".join(notation)


def _square_of(index: int, size: int) -> str:
    return square_name(*divmod(index, size))


def _score(cells: Cells, layout: Layout, dist: Distribution, along: int, squares: list[int],
           written_length: int) -> tuple[list[str], int, list[str]]:
    """The words a play forms and their score; ``along`` is the play's step, ``squares``
    the indices of its new tiles."""
    size = layout.size
    across = size if along == 1 else 1
    new_squares = set(squares)
    words: list[str] = []
    total = 0
    warnings: list[str] = []
    main = _word_through(cells, size, squares[0], along)
    if len(main) > 1:
        words.append(_letters(cells, main))
        total += _word_score(cells, layout, dist, main, new_squares)
    if len(main) != written_length:
        warnings.append(f"the word on the board is {_letters(cells, main)}, "
                        f"longer than the {written_length} tiles written")
    for index in squares:
        cross = _word_through(cells, size, index, across)
        if len(cross) > 1:
            words.append(_letters(cells, cross))
            total += _word_score(cells, layout, dist, cross, new_squares)
    return words, total, warnings


def _word_through(cells: Cells, size: int, index: int, step: int) -> range:
    """The squares of the contiguous run of tiles through ``index`` one way (``step`` 1
    across, ``size`` down), as indices into ``cells``."""
    if step == 1:
        first = index - index % size
        last = first + size - 1
    else:
        first = index % size
        last = first + size * (size - 1)
    start = end = index
    while start > first and cells[start - step]:
        start -= step
    while end < last and cells[end + step]:
        end += step
    return range(start, end + step, step)


def _letters(cells: Cells, squares: range) -> str:
    return "".join(cells[squares.start:squares.stop:squares.step])


def _word_score(cells: Cells, layout: Layout, dist: Distribution, squares: range,
                new_squares: set[int]) -> int:
    """Letter premiums and word multipliers count only on squares covered this turn."""
    points = dist.label_points
    letter_multipliers = layout.letter_multipliers
    word_multipliers = layout.word_multipliers
    letters = 0
    multiplier = 1
    for index in squares:
        value = points[cells[index]]
        if index in new_squares:
            value *= letter_multipliers[index]
            multiplier *= word_multipliers[index]
        letters += value
    return letters * multiplier


def touches_tiles(cells: Cells, size: int, placed: tuple[PlacedTile, ...]) -> bool:
    """Whether a play connects to tiles that were on the board before it."""
    new = {(t.row, t.col) for t in placed}
    for tile in placed:
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            r, c = tile.row + dr, tile.col + dc
            if 0 <= r < size and 0 <= c < size and (r, c) not in new and cells[r * size + c]:
                return True
    return False

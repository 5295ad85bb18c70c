"""Place a play on a crossword board and score it from the board itself.

Scores are recomputed rather than trusted so that a recording error (a wrong score on
an annotation sheet) is caught at its line. The board is a flat tuple of labels, row by
row, ``""`` for an empty square, which makes positions cheap to keep for every turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from pgm.board import Layout, Placement, column_name
from pgm.tiles import Distribution, is_blank

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
    """Put ``labels`` (``.`` = played through) on the board starting at ``placement``."""
    size = layout.size
    board = list(cells)
    placed: list[PlacedTile] = []
    notation: list[str] = []
    for offset, label in enumerate(labels):
        row, col = placement.square(offset)
        if not (0 <= row < size and 0 <= col < size):
            raise PlacementError(f"the play runs off the board at tile {offset + 1} "
                                 f"({placement.coordinate()} is {len(labels)} tiles long)")
        current = board[row * size + col]
        if label == ".":
            if not current:
                raise PlacementError(f"'.' marks a played-through tile at {square_name(row, col)}, "
                                     "but that square is empty")
            notation.append(".")
        elif current:
            if current.upper() != label.upper():
                raise PlacementError(f"{square_name(row, col)} already holds {current!r}, "
                                     f"the play has {label!r} there")
            notation.append(".")
        else:
            board[row * size + col] = label
            placed.append(PlacedTile(row, col, label))
            notation.append(f"[{label}]" if len(label) > 1 else label)
    if not placed:
        raise PlacementError("the play places no new tile")
    new = tuple(board)
    words, score, warnings = _score(new, layout, dist, placement, placed, len(labels))
    bingo = len(placed) == RACK_SIZE
    if bingo:
        score += layout.bingo_bonus
    return ScoredPlay(new, tuple(placed), tuple(words), score, bingo,
                      f"{placement.coordinate()} {''.join(notation)}", tuple(warnings))


def _score(cells: Cells, layout: Layout, dist: Distribution, placement: Placement,
           placed: list[PlacedTile], written_length: int) -> tuple[list[str], int, list[str]]:
    new_squares = {(t.row, t.col) for t in placed}
    words: list[str] = []
    total = 0
    warnings: list[str] = []
    first = placed[0]
    main = _word_through(cells, layout.size, first.row, first.col, placement.horizontal)
    if len(main) > 1:
        words.append(_letters(cells, layout.size, main))
        total += _word_score(cells, layout, dist, main, new_squares)
    if len(main) != written_length:
        warnings.append(f"the word on the board is {_letters(cells, layout.size, main)}, "
                        f"longer than the {written_length} tiles written")
    for tile in placed:
        cross = _word_through(cells, layout.size, tile.row, tile.col, not placement.horizontal)
        if len(cross) > 1:
            words.append(_letters(cells, layout.size, cross))
            total += _word_score(cells, layout, dist, cross, new_squares)
    return words, total, warnings


def _word_through(cells: Cells, size: int, row: int, col: int,
                  horizontal: bool) -> list[tuple[int, int]]:
    """The squares of the contiguous run of tiles through (row, col) in one direction."""
    dr, dc = (0, 1) if horizontal else (1, 0)
    while row - dr >= 0 and col - dc >= 0 and cells[(row - dr) * size + col - dc]:
        row, col = row - dr, col - dc
    squares = []
    while row < size and col < size and cells[row * size + col]:
        squares.append((row, col))
        row, col = row + dr, col + dc
    return squares


def _letters(cells: Cells, size: int, squares: list[tuple[int, int]]) -> str:
    return "".join(cells[r * size + c] for r, c in squares)


def _word_score(cells: Cells, layout: Layout, dist: Distribution,
                squares: list[tuple[int, int]], new_squares: set[tuple[int, int]]) -> int:
    """Letter premiums and word multipliers count only on squares covered this turn."""
    letters = 0
    multiplier = 1
    for row, col in squares:
        label = cells[row * layout.size + col]
        value = 0 if is_blank(label) else dist.points(label)
        if (row, col) in new_squares:
            premium = layout.premium(row, col)
            value *= premium.letter_multiplier
            multiplier *= premium.word_multiplier
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

"""What the Upwords templates show, computed from a replayed Upwords game.

An Upwords square is a stack, and its height is half of what it says: a letter three
tiles up scores differently and can be covered fewer times than a letter on the board.
So every square carries its height twice, as a number drawn on the square and in its
accessible name ("E5: R, height 3, just played"), both made here so the two agree.
Templates receive these frozen values and only lay them out.
"""

from __future__ import annotations

from dataclasses import dataclass

from pgm.board import column_name, parse_coordinate
from pgm.crossword_view import PlayerLine, SheetRow, describe_other_event, plural, sheet_row
from pgm.diagnostics import Diagnostic
from pgm.gcg import EventKind
from pgm.scoring import square_name
from pgm.site_model import isolated
from pgm.ubf import SIZE, Stack, UpwordsBoard
from pgm.upwords import UpwordsGame, UpwordsTurn

Square = tuple[int, int]


@dataclass(frozen=True)
class StackSquare:
    letter: str
    """The top tile as shown (``Qu`` for the Q tile); empty on an empty square."""
    height: int
    """Tiles in the stack, 0 when empty."""
    css: str
    label: str
    """Accessible name: coordinate, top letter, height, whether the play touched it."""


@dataclass(frozen=True)
class StackBoardView:
    column_headers: tuple[str, ...]
    rows: tuple[tuple[str, tuple[StackSquare, ...]], ...]
    """(row header, squares) from row 1 at the top."""


def tile_text(letter: str) -> str:
    """The ``Q`` of a record is the ``Qu`` tile."""
    return "Qu" if letter == "Q" else letter


def board_view(board: UpwordsBoard, stacked: frozenset[Square] = frozenset(),
               through: frozenset[Square] = frozenset()) -> StackBoardView:
    rows = []
    for row in range(SIZE):
        squares = tuple(_square(board.at(row, col), row, col, (row, col) in stacked,
                                (row, col) in through) for col in range(SIZE))
        rows.append((str(row + 1), squares))
    return StackBoardView(tuple(column_name(c) for c in range(SIZE)), tuple(rows))


def _square(stack: Stack | None, row: int, col: int, new: bool, through: bool
            ) -> StackSquare:
    name = square_name(row, col)
    if stack is None:
        return StackSquare("", 0, "sq", f"{name}: empty")
    letter = tile_text(stack.letter)
    label = f"{name}: {letter}, height {stack.height}"
    css = f"sq tile h{stack.height}"
    if new:
        label += ", just played"
        css += " new"
    elif through:
        label += ", played through"
        css += " through"
    return StackSquare(letter, stack.height, css, label)


def play_squares(turn: UpwordsTurn) -> tuple[frozenset[Square], frozenset[Square]]:
    """The squares a play put tiles on, and the squares it played through."""
    event = turn.event
    if event.kind is not EventKind.PLAY or not turn.stacked:
        return frozenset(), frozenset()
    placement = parse_coordinate(event.position)
    if placement is None:
        return frozenset(turn.stacked), frozenset()
    written = {placement.square(offset) for offset in range(len(turn.tiles))}
    stacked = frozenset(turn.stacked)
    return stacked, frozenset(s for s in written - stacked
                              if 0 <= s[0] < SIZE and 0 <= s[1] < SIZE)


# ---------------------------------------------------------------------------------------
# Moves in words


def word_display(turn: UpwordsTurn) -> str:
    """The written squares of a play with played-through letters in parentheses:
    ``S(H)O(RT)``; the record's own text for anything else."""
    event = turn.event
    placement = parse_coordinate(event.position) if event.kind is EventKind.PLAY else None
    if placement is None or not turn.stacked:
        return event.word
    stacked = set(turn.stacked)
    out: list[str] = []
    for offset, written in enumerate(turn.tiles):
        row, col = placement.square(offset)
        stack = turn.position.board.at(row, col) if 0 <= row < SIZE and 0 <= col < SIZE \
            else None
        letter = tile_text(stack.letter) if stack else written
        out.append(letter if (row, col) in stacked else f"({letter})")
    return "".join(out).replace(")(", "")


def describe(turn: UpwordsTurn, game: UpwordsGame) -> str:
    """One sentence saying what happened, for the page, its title and screen readers,
    the player's name :func:`~pgm.site_model.isolated` in it."""
    event = turn.event
    name = isolated(game.record.players[turn.player].name)
    kind = event.kind
    if kind is EventKind.PLAY:
        direction = "down" if event.position[:1].isalpha() else "across"
        text = (f"{name} played {word_display(turn)} at {event.position.upper()} "
                f"{direction} for {plural(event.score, 'point')}")
        if not turn.stacked:
            return text
        board = turn.position.board
        on_stacks = sum(1 for r, c in turn.stacked if (board.at(r, c) or Stack("", 1)).height > 1)
        placed = plural(len(turn.stacked), "tile")
        return text + (f" ({placed}, {on_stacks} on top of other tiles)" if on_stacks
                       else f" ({placed})")
    if kind is EventKind.END_RACK_POINTS and event.score >= 0:
        # Upwords has no rule that gives a player the tiles on the opponent's rack: the
        # points are said as recorded, not with the crossword games' reason for them.
        return f"{name} gets {plural(event.score, 'point')} for the tiles left ({event.tiles})"
    return describe_other_event(event, name, len(event.tiles))


# ---------------------------------------------------------------------------------------
# Panels


def player_lines(game: UpwordsGame, index: int) -> tuple[PlayerLine, ...]:
    """Scores as recorded after ``turns[index]``, and each player's rack as far as the
    record tells it (see ``_racks_held``)."""
    position = game.turns[index].position
    known = _racks_held(game.turns, index, len(position.scores))
    lines = []
    for seat, player in enumerate(game.record.players[: len(position.scores)]):
        others = [s for i, s in enumerate(position.scores) if i != seat]
        score = position.scores[seat]
        lines.append(PlayerLine(player.name, player.nick, score,
                                score - max(others) if others else 0, known.get(seat, ""),
                                position.to_move == seat))
    return tuple(lines)


_FROM_HELD_RACK = frozenset({EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE,
                             EventKind.END_RACK_PENALTY})
"""Events whose line states the rack its player holds when it comes: a withdrawal states
the rack before the play it takes back, and a time penalty need not state one."""


def _racks_held(turns: tuple[UpwordsTurn, ...], index: int, seats: int) -> dict[int, str]:
    """Seat -> rack after ``turns[index]``: a player holds, from their last draw until
    their next line, the rack that line states, since no one else's move changes it.
    Unknown when the record ends first, or that line is not made from the rack held."""
    known: dict[int, str] = {}
    seen: set[int] = set()
    for turn in turns[index + 1:]:
        if turn.player in seen:
            continue
        seen.add(turn.player)
        if turn.event.kind in _FROM_HELD_RACK and turn.event.rack:
            known[turn.player] = turn.event.rack
        if len(seen) == seats:
            break
    return known


def score_sheet(game: UpwordsGame, diagnostics_by_line: dict[int, list[Diagnostic]]
                ) -> tuple[SheetRow, ...]:
    """The rows of ``partials/sheet.html``, as crossword games have them."""
    turns = game.turns
    return tuple(sheet_row(turn, game.record.players[turn.player].name, word_display(turn),
                           describe(turn, game), diagnostics_by_line,
                           phoney=_withdrawn(turns, index))
                 for index, turn in enumerate(turns))


def _withdrawn(turns: tuple[UpwordsTurn, ...], index: int) -> bool:
    """Whether the play of ``turns[index]`` is taken back by the next line (a phoney)."""
    if index + 1 >= len(turns):
        return False
    play, taken = turns[index], turns[index + 1]
    return (play.event.kind is EventKind.PLAY and taken.event.kind is EventKind.WITHDRAWAL
            and taken.player == play.player)

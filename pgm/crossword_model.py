"""The replayed crossword game: positions between events and the turns that lead to them.

These are plain frozen values so that every turn page can hold its own position without
copying, and so that renderers never need to know how the replay computed them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pgm.cgp import cgp_line, write_operation, write_rack, write_row
from pgm.crossword_rules import Rules
from pgm.diagnostics import Diagnostic, Severity
from pgm.gcg import Event, EventKind, GcgRecord
from pgm.scoring import Cells, PlacedTile
from pgm.tiles import BLANK, RACK_LABELS, UNKNOWN

CLOSING_KINDS = frozenset((EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY,
                           EventKind.TIME_PENALTY))
"""The lines that close a game once it is over: the tiles left, scored or taken, and
the clock's penalties."""
SCORELESS_KINDS = frozenset((EventKind.PASS, EventKind.EXCHANGE, EventKind.WITHDRAWAL))
"""The turns that count towards the scoreless turns ending a game."""


def game_end_index(states: Sequence[Any]) -> int | None:
    """The index of the event that ended the game, of a game over at its last event:
    the first of the trailing ``states`` (positions, or replay states: anything with a
    ``game_over``) that are all over; None while the game is not over."""
    index = len(states)
    while index and states[index - 1].game_over:
        index -= 1
    return None if index == len(states) else index


def racks_unpenalised(rack_sizes: Sequence[int], after: Iterable[Any]) -> list[int]:
    """The seats that held tiles (``rack_sizes``) when the scoreless turns ended the game
    and whose penalty is none of the lines ``after`` (turns or replay steps: anything
    with an ``event`` and a ``player``)."""
    taken = {line.player for line in after if line.event.kind is EventKind.END_RACK_PENALTY}
    return [seat for seat, size in enumerate(rack_sizes) if size > 0 and seat not in taken]


@dataclass(frozen=True)
class Position:
    """The state of the game between two events."""

    cells: Cells
    scores: tuple[int, ...]
    to_move: int | None
    """Seat index of the player to move; None once the game is over."""
    scoreless_turns: int
    bag: int
    """Tiles left in the bag."""
    rack_sizes: tuple[int, ...]
    game_over: bool = False
    racks: tuple[tuple[str, ...] | None, ...] = ()
    """Each player's rack where the record tells it (may be partial), else None."""
    last_move: str = ""
    """The most recent move in CGP ``lm`` form."""


@dataclass(frozen=True)
class Turn:
    """One replayed event: what was recorded, what the board says, and the position after."""

    number: int
    """1-based index of the event in the record; the turn page is ``{number}.html``."""
    event: Event
    player: int
    position: Position
    placed: tuple[PlacedTile, ...] = ()
    removed: tuple[PlacedTile, ...] = ()
    """Tiles taken back by a phoney withdrawal."""
    words: tuple[str, ...] = ()
    computed_score: int | None = None
    rack: tuple[str, ...] | None = None
    """The rack the event was made from, split into tiles (None if unknown)."""
    withdrawn: bool = False
    """A play that the next event withdraws as a phoney."""


@dataclass(frozen=True)
class CrosswordGame:
    record: GcgRecord
    rules: Rules
    start: Position
    turns: tuple[Turn, ...]
    diagnostics: tuple[Diagnostic, ...]
    stopped_at: int | None = None
    """Line of the event that stopped the replay, if one did."""
    left_out_racks: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """(index in ``turns``, -1 for ``start``; seats) for each position whose racks the
    record gives hold, with the board, more of a tile than the set: the seats whose
    racks its CGP leaves out (``crossword_state.racks_to_leave_out``), so that the CGP
    is one a CGP reader accepts."""

    @property
    def final(self) -> Position:
        return self.turns[-1].position if self.turns else self.start

    @property
    def complete(self) -> bool:
        """Whether the record ends the game: the game is over and its closing lines
        follow. After the play that goes out, a line for the tiles left (points, a
        rack's penalty, or a time penalty); after the last scoreless turn, the penalty of
        every rack left (a line for one rack gives a result the next may change). Until
        the annotator has written them, the game is still in progress and its pages keep
        following the record (so do Upwords games). Lines after the closing ones (warned
        of) do not open the game again."""
        end = game_end_index([turn.position for turn in self.turns])
        if end is None:
            return False
        after = self.turns[end + 1:]
        kinds = {turn.event.kind for turn in after}
        if not kinds & CLOSING_KINDS:
            return False
        ender = self.turns[end]
        if ender.event.kind in SCORELESS_KINDS and EventKind.END_RACK_POINTS not in kinds:
            return not racks_unpenalised(ender.position.rack_sizes, after)
        return True

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)

    @cached_property
    def _cgp_texts(self) -> dict[int, str]:
        return {}

    def cgp(self, index: int) -> str:
        """CGP of the position after ``turns[index]`` (``-1``: before the first event);
        kept, because the turn page and ``game.json`` both show it."""
        text = self._cgp_texts.get(index)
        if text is None:
            text = self._cgp_texts[index] = self._write_cgp(index)
        return text

    def _write_cgp(self, index: int) -> str:
        """The position's CGP: the players in the order they move next, each rack as far
        as the record tells it, except racks that the record gives beyond what the set
        holds beside the other racks (``left_out_racks``): those are written empty
        (unknown), so that every CGP pgm writes reads back with pgm's reader."""
        position = self.turns[index].position if index >= 0 else self.start
        seats = len(position.scores)
        first = position.to_move
        if first is None:
            first = (self.turns[index].player + 1) % seats if index >= 0 else 0
        order = [*range(first, seats), *range(first)]
        racks = position.racks or (None,) * seats
        left_out = self._left_out.get(index)
        if left_out:
            racks = tuple(None if seat in left_out else rack for seat, rack in enumerate(racks))
        operations = [self._fixed_operations]
        if position.last_move:
            operations.append(write_operation("lm", position.last_move))
        scores = position.scores
        return cgp_line(self._board_rows.board(self, index), [write_rack(racks[s]) for s in order],
                        [scores[s] for s in order], position.scoreless_turns, operations)

    @cached_property
    def _left_out(self) -> dict[int, tuple[int, ...]]:
        return dict(self.left_out_racks)

    @cached_property
    def _fixed_operations(self) -> str:
        """The CGP opcodes every position of the game has, written."""
        rules = self.rules
        lexicon = (write_operation("lex", rules.lexicon),) if rules.lexicon else ()
        return " ".join(lexicon + (write_operation("ld", rules.distribution.name),
                                   write_operation("bdn", rules.layout.name)))

    @cached_property
    def _board_rows(self) -> _BoardRows:
        return _BoardRows(self.rules.layout.size)

    def position_before(self, index: int) -> Position:
        """Position before ``turns[index]``."""
        return self.turns[index - 1].position if index > 0 else self.start


class _BoardRows:
    """The CGP rows of one game's boards, kept from turn to turn: a turn changes only the
    rows where it placed or took back tiles (nothing else changes the board), so turn
    pages, which ask in order, write a row or two per turn instead of the board. Asked
    out of order, it writes the whole board."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.index: int | None = None
        """The turn whose board ``rows`` are (-1: the start)."""
        self.rows: list[str] = []

    def board(self, game: CrosswordGame, index: int) -> str:
        cells = game.turns[index].position.cells if index >= 0 else game.start.cells
        size = self.size
        if index >= 0 and self.index == index - 1:
            turn = game.turns[index]
            for row in {tile.row for tile in turn.placed + turn.removed}:
                self.rows[row] = write_row(cells[row * size:(row + 1) * size])
        else:
            self.rows = [write_row(cells[r * size:(r + 1) * size]) for r in range(size)]
        self.index = index
        return "/".join(self.rows)


def off_board_counts(rules: Rules, cells: Cells) -> dict[str, int]:
    """The full set minus the tiles on the board, by rack label (a blank as ``?``), in
    the set's order."""
    counts = dict(rules.distribution.counts)
    for label, count in Counter(filter(None, cells)).items():
        label = RACK_LABELS[label]
        counts[label] = counts.get(label, 0) - count
    return counts


def unseen_tiles(rules: Rules, position: Position,
                 off_board: dict[str, int] | None = None) -> dict[str, int]:
    """Tiles the player to move cannot see, in the set's order: the bag plus the
    opponents' racks.

    Computed as the full set minus the board minus the mover's own known tiles; once
    the game is over (nobody to move) it is everything off the board. ``off_board`` is
    :func:`off_board_counts` of the position, when the caller keeps it.
    """
    unseen = dict(off_board) if off_board is not None else off_board_counts(rules,
                                                                             position.cells)
    if position.to_move is not None and position.racks:
        for tile in position.racks[position.to_move] or ():
            if tile != UNKNOWN:
                unseen[tile] = unseen.get(tile, 0) - 1
    return {label: count for label, count in unseen.items() if count > 0}


def vowel_consonant_counts(rules: Rules, tiles: dict[str, int]) -> tuple[int, int, int]:
    """(vowels, consonants, blanks) among ``tiles``."""
    blanks = tiles.get(BLANK, 0)
    vowels = sum(map(tiles.__getitem__, rules.distribution.vowels.intersection(tiles)))
    return vowels, sum(tiles.values()) - vowels - blanks, blanks

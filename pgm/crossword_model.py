"""The replayed crossword game: positions between events and the turns that lead to them.

These are plain frozen values so that every turn page can hold its own position without
copying, and so that renderers never need to know how the replay computed them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache

from pgm.cgp import CgpPosition, Operation, write_cgp
from pgm.crossword_rules import Rules
from pgm.diagnostics import Diagnostic, Severity
from pgm.gcg import Event, GcgRecord
from pgm.scoring import Cells, PlacedTile
from pgm.tiles import BLANK, UNKNOWN, rack_label


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

    @property
    def final(self) -> Position:
        return self.turns[-1].position if self.turns else self.start

    @property
    def complete(self) -> bool:
        return self.final.game_over

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
        position = self.turns[index].position if index >= 0 else self.start
        seats = len(position.scores)
        first = position.to_move
        if first is None:
            first = (self.turns[index].player + 1) % seats if index >= 0 else 0
        order = [(first + k) % seats for k in range(seats)]
        racks = position.racks or (None,) * seats
        operations = []
        if self.rules.lexicon:
            operations.append(Operation("lex", self.rules.lexicon))
        operations.append(Operation("ld", self.rules.distribution.name))
        operations.append(Operation("bdn", self.rules.layout.name))
        if position.last_move:
            operations.append(Operation("lm", position.last_move))
        return write_cgp(CgpPosition(
            position.cells, tuple(tuple(racks[s] or ()) for s in order),
            tuple(position.scores[s] for s in order), position.scoreless_turns,
            tuple(operations), self.rules.layout, self.rules.distribution))

    def position_before(self, index: int) -> Position:
        """Position before ``turns[index]``."""
        return self.turns[index - 1].position if index > 0 else self.start


@lru_cache(maxsize=256)
def board_counts(cells: Cells) -> dict[str, int]:
    """How many of each label lie on the board (blanks as played, lower case). The replay
    checks the supply before each turn and the turn pages count the unseen tiles after
    it, both on the positions of one game, so those of the last game or two are kept.
    Read only."""
    return dict(Counter(filter(None, cells)))


def off_board_counts(rules: Rules, cells: Cells) -> dict[str, int]:
    """The full set minus the tiles on the board, by rack label (a blank as ``?``), in
    the set's order."""
    counts = dict(rules.distribution.counts)
    for label, count in board_counts(cells).items():
        label = rack_label(label)
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
    vowels = sum(n for t, n in tiles.items() if rules.distribution.is_vowel(t))
    return vowels, sum(tiles.values()) - vowels - blanks, blanks

"""What the crossword replay works on: the game between events and each event replayed,
before the racks are known.

The racks a record tells are found walking back from the end (``pgm.crossword_racks``),
so the replay runs on these named tuples and builds each frozen ``Position`` and ``Turn``
once, at the end, with its racks. Named tuples rather than dataclasses because one of
each is made for every event of every game, and a frozen dataclass costs three times as
much to build.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from pgm.crossword_model import Position, Turn
from pgm.gcg import Event
from pgm.scoring import Cells, PlacedTile
from pgm.tiles import UNKNOWN, Distribution

Rack = tuple[str, ...] | None
Racks = tuple[Rack, ...]


class State(NamedTuple):
    """A ``Position`` without its racks."""

    cells: Cells
    scores: tuple[int, ...]
    to_move: int | None
    scoreless_turns: int
    bag: int
    rack_sizes: tuple[int, ...]
    game_over: bool = False
    last_move: str = ""

    def position(self, racks: Racks) -> Position:
        return Position(self.cells, self.scores, self.to_move, self.scoreless_turns, self.bag,
                        self.rack_sizes, self.game_over, racks, self.last_move)


class Step(NamedTuple):
    """A ``Turn`` whose position has no racks yet."""

    number: int
    event: Event
    player: int
    state: State
    rack: Rack
    placed: tuple[PlacedTile, ...] = ()
    removed: tuple[PlacedTile, ...] = ()
    words: tuple[str, ...] = ()
    computed_score: int | None = None
    withdrawn: bool = False

    def turn(self, racks: Racks) -> Turn:
        return Turn(self.number, self.event, self.player, self.state.position(racks),
                    self.placed, self.removed, self.words, self.computed_score, self.rack,
                    self.withdrawn)


class TileTally:
    """What the set has left off the board, by rack label (``?`` for blanks), kept up to
    date play by play, so that checking a rack against the set needs no count of the
    board: it runs for every play of every game."""

    def __init__(self, distribution: Distribution) -> None:
        self.distribution = distribution
        self.spare: defaultdict[str, int] = defaultdict(int, distribution.counts)
        """The set's count less the board's, per label; below zero when the board holds
        more than the set has (a recording error)."""
        self.gone = {label for label, count in distribution.counts.items() if count <= 0}
        """Labels with none spare."""
        self.short = 0
        """How many labels are below zero."""
        self.on_board = 0
        """How many tiles are on the board."""

    def add(self, labels: list[str]) -> None:
        """Count tiles put on the board, by rack label."""
        spare = self.spare
        for label in labels:
            spare[label] -= 1
            if spare[label] == 0:
                self.gone.add(label)
            elif spare[label] == -1:
                self.short += 1
        self.on_board += len(labels)

    def remove(self, labels: list[str]) -> None:
        """Count tiles taken back from the board, by rack label."""
        spare = self.spare
        for label in labels:
            spare[label] += 1
            if spare[label] == 1:
                self.gone.discard(label)
            elif spare[label] == 0:
                self.short -= 1
        self.on_board -= len(labels)

    def excess(self, rack: Rack) -> list[str]:
        """Messages for each tile the board and ``rack`` hold more of than the set has."""
        known = [t for t in rack if t != UNKNOWN] if rack and UNKNOWN in rack else rack or ()
        if self._within_set(known):
            return []
        counts = self.distribution.counts
        held = Counter({label: counts.get(label, 0) - left
                        for label, left in self.spare.items()})
        held.update(known)
        return [f"{count} {label!r} tiles on the board and rack, but the "
                f"{self.distribution.name} set has {counts.get(label, 0)}"
                for label, count in sorted(held.items()) if count > counts.get(label, 0)]

    def _within_set(self, known: Sequence[str]) -> bool:
        """The usual case, checked first: no tile of the rack is used up, and only those
        it holds twice or more need counting. (Rack labels are tiles of the set: the
        codec checks them.)"""
        if self.short or not self.gone.isdisjoint(known):
            return False
        distinct = set(known)
        if len(distinct) == len(known):
            return True
        spare = self.spare
        for tile in distinct:
            count = known.count(tile)
            if count > 1 and spare[tile] < count:
                return False
        return True

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

from pgm.cgp import write_rack
from pgm.crossword_model import Position, Turn
from pgm.diagnostics import Diagnostic, Severity
from pgm.gcg import Event, EventKind, GcgRecord
from pgm.scoring import Cells, PlacedTile
from pgm.tiles import RACK_LABELS, UNKNOWN, Distribution

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
    played: Sequence[str] = ()
    """The rack labels of ``placed`` (``ScoredPlay.played``), for the racks' walk."""

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
        self.reported: dict[str, int] = {}
        """For each tile :meth:`excess` has found too many of since it last found the
        board and rack within the set: the most it has reported."""

    def add(self, labels: Sequence[str]) -> None:
        """Count tiles put on the board, by rack label."""
        spare = self.spare
        for label in labels:
            spare[label] -= 1
            if spare[label] == 0:
                self.gone.add(label)
            elif spare[label] == -1:
                self.short += 1
        self.on_board += len(labels)

    def remove(self, labels: Sequence[str]) -> None:
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
        """Messages for each tile the board and ``rack`` hold more of than the set has,
        once: a tile found too many of again at the next lines is not reported again
        unless there are more of it (one mistyped tile on the board would otherwise be
        reported at every line after it)."""
        known = [t for t in rack if t != UNKNOWN] if rack and UNKNOWN in rack else rack or ()
        if self._within_set(known):
            if self.reported:
                self.reported.clear()
            return []
        counts = self.distribution.counts
        held = Counter({label: counts.get(label, 0) - left
                        for label, left in self.spare.items()})
        held.update(known)
        over = {label: count for label, count in held.items()
                if count > counts.get(label, 0)}
        reported = self.reported
        for label in [label for label in reported if label not in over]:
            del reported[label]
        messages = []
        for label, count in sorted(over.items()):
            if count > reported.get(label, 0):
                reported[label] = count
                messages.append(f"{count} {label!r} tiles on the board and rack, but the "
                                f"{self.distribution.name} set has {counts.get(label, 0)}")
        return messages

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


Excess = tuple[tuple[str, int, int], ...]
"""Tiles the racks together are too many of: (label, on the board and racks, in the set)."""


class BeyondSet(NamedTuple):
    """What :func:`racks_beyond_set` finds."""

    positions: list[tuple[int, tuple[int, ...], Excess]]
    """For each position whose racks hold too many of a tile: its index in ``turns``
    (-1 for ``start``), the seats whose racks its CGP leaves out (see
    :func:`racks_to_leave_out`) and the tiles only the racks together are too many of
    (empty when one rack alone is: the replay has warned of that rack at its line)."""
    stated: list[tuple[int, Excess]]
    """For each turn whose line states a rack that the positions do not show (the rack
    tracker left tiles out that the board took): its index in ``turns`` and the tiles
    that rack and the other players' racks before it are too many of together."""


def racks_beyond_set(distribution: Distribution, start: Position, turns: Sequence[Turn]
                     ) -> BeyondSet:
    """The positions whose racks, with the board, hold more of a tile than the set has,
    and the lines whose stated rack does, with the other players' racks.

    Each line of a record tells a rack, and the racks of a position come from several
    lines (the next line of each player), which a recording mistake can make contradict
    each other: Josh's next rack and Lola's next rack may hold eleven I's between them
    beside the board's, each fitting alone. Runs for every position of every game, so
    the usual case is a dictionary look-up per rack tile.
    """
    counts = distribution.counts
    spare: defaultdict[str, int] = defaultdict(int, counts)
    spare[UNKNOWN] = 1 << 30  # an unknown tile is any tile
    found = BeyondSet([], [])
    position = start
    for index in range(-1, len(turns)):
        if index >= 0:
            turn = turns[index]
            for placed in turn.placed:
                spare[RACK_LABELS[placed.label]] -= 1
            for placed in turn.removed:
                spare[RACK_LABELS[placed.label]] += 1
            position = turn.position
        if index + 1 < len(turns) and (stated := _stated_excess(turns[index + 1], position,
                                                                spare, counts)):
            found.stated.append((index + 1, stated))
        held: dict[str, int] = {}
        for rack in position.racks:
            if rack:
                for tile in rack:
                    held[tile] = held.get(tile, 0) + 1
        for tile, count in held.items():
            if count > spare[tile]:
                break
        else:
            continue
        over = [tile for tile, count in held.items() if count > spare[tile]]
        racks = position.racks
        together = tuple(
            (tile, counts.get(tile, 0) - spare.get(tile, 0) + held[tile], counts.get(tile, 0))
            for tile in sorted(over)
            if all(rack.count(tile) <= spare.get(tile, 0) for rack in racks if rack))
        mover = first_in_order(position, turns[index].player if index >= 0 else None)
        found.positions.append((index, racks_to_leave_out(spare, racks, mover), together))
    return found


def _stated_excess(turn: Turn, before: Position, spare: dict[str, int],
                   counts: dict[str, int]) -> Excess:
    """The tiles that the rack ``turn``'s line states and the other players' racks at
    ``before`` hold too many of beside the board, when the positions do not show that
    rack whole (so that :func:`racks_beyond_set` cannot see it among them); tiles the
    stated rack alone is too many of are left out: the replay warns of them. A
    withdrawal's rack is the phoney's, checked at the phoney's line."""
    stated = turn.rack
    shown = before.racks[turn.player] if turn.player < len(before.racks) else None
    if (not stated or stated == shown or turn.event.kind is EventKind.WITHDRAWAL
            or not Counter(stated) - Counter(shown or ())):
        return ()
    held = Counter(tile for tile in stated if tile != UNKNOWN)
    for seat, rack in enumerate(before.racks):
        if rack and seat != turn.player:
            held.update(tile for tile in rack if tile != UNKNOWN)
    return tuple((tile, counts.get(tile, 0) - spare[tile] + count, counts.get(tile, 0))
                 for tile, count in sorted(held.items())
                 if spare[tile] < count and stated.count(tile) <= spare[tile])


def first_in_order(position: Position, last_player: int | None) -> int:
    """The seat a CGP of ``position`` starts with: the player to move, or once the game
    is over the one after the last mover."""
    if position.to_move is not None:
        return position.to_move
    return (last_player + 1) % len(position.scores) if last_player is not None else 0


def racks_to_leave_out(spare: dict[str, int], racks: Sequence[Rack], first: int
                       ) -> tuple[int, ...]:
    """The seats whose racks a CGP leaves out so that it holds no more of a tile than the
    set (``spare``: the set less the board, by rack label).

    Going round from ``first``, the player to move, each rack is kept while it fits
    beside the board and the racks kept before it. The mover's rack is what the position
    is about (what they can play, what they cannot see), and it is the rack the record
    tells nearest to the position (the mover's next line), so it is kept, and the rack of
    a player who moves later, which contradicts it, is the one left out; the CGP then
    gives that player's rack as unknown rather than a rack that cannot be right.
    """
    seats = len(racks)
    kept: Counter[str] = Counter()
    left_out = []
    for seat in [(first + k) % seats for k in range(seats)]:
        rack = racks[seat]
        if not rack:
            continue
        tiles = Counter(rack)
        if all(kept[tile] + count <= spare.get(tile, 0) for tile, count in tiles.items()):
            kept.update(tiles)
        else:
            left_out.append(seat)
    return tuple(sorted(left_out))


def warn_of_racks_beyond_set(record: GcgRecord, distribution: Distribution, start: Position,
                             turns: Sequence[Turn], items: list[Diagnostic]
                             ) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Warn, at its line, of each event after which the racks the record gives hold more
    of a tile together than the set leaves beside the board (each rack fitting alone),
    and of each line whose rack does with the other players' racks; the warnings are
    added to ``items``. Gives ``CrosswordGame.left_out_racks``."""
    found = racks_beyond_set(distribution, start, turns)
    for index, seats, excess in found.positions:
        if excess and index >= 0:
            items.append(_racks_warning(record, distribution, turns[index], seats, excess))
    for index, excess in found.stated:
        before = turns[index - 1].position if index else start
        items.append(_stated_rack_warning(record, distribution, turns[index], before, excess))
    return tuple((index, seats) for index, seats, _excess in found.positions)


def _stated_rack_warning(record: GcgRecord, distribution: Distribution, turn: Turn,
                         before: Position, excess: Excess) -> Diagnostic:
    """The warning for a line's rack that the other players' racks leave no room for:
    the positions show the rack as the player's other lines tell it, so the page's
    rack table and the line disagree, and the annotator should know which is wrong."""
    labels = {label for label, _held, _count in excess}
    seats = len(before.racks)
    holders = " and ".join(
        f"{record.players[seat].nick}'s {write_rack(rack)}"
        for seat in [(turn.player + k) % seats for k in range(1, seats)]
        if (rack := before.racks[seat]) and not labels.isdisjoint(rack))
    held, has = _excess_words(excess)
    nick = record.players[turn.player].nick
    return Diagnostic(record.path, turn.event.line, Severity.WARNING,
                      f"the rack {turn.event.rack} cannot be right: with {holders} and the "
                      f"board it makes {held} tiles, but the {distribution.name} set has "
                      f"{has}; {nick}'s rack is shown as their other lines tell it")


def _excess_words(excess: Excess) -> tuple[str, str]:
    """How many of each tile are held and how many the set has, as both warnings say
    them: ("11 'I' and 7 'N'", "9 and 6")."""
    return (" and ".join(f"{held} {label!r}" for label, held, _count in excess),
            " and ".join(str(count) for _label, _held, count in excess))


def _racks_warning(record: GcgRecord, distribution: Distribution, turn: Turn,
                   seats: tuple[int, ...], excess: Excess) -> Diagnostic:
    """The warning for racks that the board leaves no room for together: the racks
    holding the tiles, in the order their players move next, and which the CGP leaves
    out."""
    racks = turn.position.racks
    labels = {label for label, _held, _count in excess}
    first = first_in_order(turn.position, turn.player)
    order = [(first + k) % len(racks) for k in range(len(racks))]
    holders = " and ".join(f"{record.players[seat].nick}'s {write_rack(rack)}"
                           for seat in order
                           if (rack := racks[seat]) and not labels.isdisjoint(rack))
    held, has = _excess_words(excess)
    left = " and ".join(f"{record.players[seat].nick}'s" for seat in seats)
    left += " racks" if len(seats) > 1 else " rack"
    return Diagnostic(record.path, turn.event.line, Severity.WARNING,
                      f"the racks after this line cannot all be right: the board with "
                      f"{holders} holds {held} tiles, but the {distribution.name} set has "
                      f"{has}; the position's CGP leaves out {left}")


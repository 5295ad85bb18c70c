"""What each player holds between events, as far as the record tells.

A player's rack changes only through their own events, and each turn line records the
rack the move was made from, so the rack held after event *i* is the rack of that
player's next line. Walking the events backwards gives every position its racks in
one pass; ``#rackN`` and ``#incomplete`` pragmas and end-of-game lines fill in the rest.

A withdrawn phoney is the exception: its tiles go back to the rack and the tiles drawn
after it back to the bag, so the phoney, its withdrawal and the player's next move are
all made from one rack. Records often list only some of it (liwords writes the tiles
played), so that rack is what all their rack fields tell together. Between the phoney
and its withdrawal the player holds that rack less the tiles on the board, and tiles
drawn that no line names. A rack shorter than the tiles held is partial: the view says
how many tiles are unknown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pgm.crossword_rules import Rules
from pgm.crossword_state import Rack, Racks, Step
from pgm.gcg import EventKind, GcgRecord
from pgm.scoring import RACK_SIZE, PlacedTile
from pgm.tiles import BLANK, UNKNOWN, TileError, rack_label

# Sets of kinds, because naming a kind (``EventKind.PLAY``) is slow on Python 3.11 and
# these are asked of every event.
_GAME_END = frozenset({EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY})
_MADE_FROM_RACK = frozenset({EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE,
                             EventKind.CHALLENGE_BONUS})
"""Events whose rack, when known, is what the player held before them."""
_WITHDRAWAL = EventKind.WITHDRAWAL


def known_racks(record: GcgRecord, rules: Rules, steps: list[Step],
                withdrawals: Sequence[int] = ()) -> tuple[list[Racks], Racks]:
    """The racks after each replayed event, and the racks before the first one;
    ``withdrawals`` are the indices of the steps that withdraw the play before them."""
    seats = len(steps[0].state.scores) if steps else max(len(record.players), 1)
    held: list[Rack] = _final_racks(record, rules, steps, seats)
    shared = _shared_racks(steps, withdrawals) if withdrawals else {}
    after: list[Racks] = [()] * len(steps)
    for index in range(len(steps) - 1, -1, -1):
        step = steps[index]
        for seat, stated, _line in step.event.racks_after:
            if seat < seats:
                held[seat] = _split(rules, stated)
        rack = step.rack
        if shared and index in shared:
            rack = shared[index]
            if step.event.kind is _WITHDRAWAL:
                rack = _after_withdrawal(after, index, step.player, held, rack)
        after[index] = tuple(held)
        # Back to the racks before the step: the rack its move was made from, if known.
        if rack is not None:
            kind = step.event.kind
            if kind in _MADE_FROM_RACK:
                held[step.player] = rack
            elif kind is _WITHDRAWAL:
                held[step.player] = _before_withdrawal(rack, step.removed)
    for seat, stated, _line in record.initial_racks:
        if seat < seats:
            held[seat] = _split(rules, stated)
    return after, tuple(held)


def _shared_racks(steps: list[Step], withdrawals: Sequence[int]) -> dict[int, Rack]:
    """Step index -> the one rack that a withdrawn phoney, its withdrawal and the
    player's next move (and a phoney withdrawn again after it) are made from: all their
    rack fields together."""
    groups: list[list[int]] = []
    ending: dict[int, list[int]] = {}
    """The groups by their last step, to carry on a chain of phonies."""
    for withdrawal in withdrawals:
        phoney = withdrawal - 1
        group = ending.pop(phoney, None)
        if group is None:
            group = [phoney]
            groups.append(group)
        group.append(withdrawal)
        player = steps[withdrawal].player
        following = next((j for j in range(withdrawal + 1, len(steps))
                          if steps[j].player == player), None)
        if following is not None and steps[following].event.kind in _MADE_FROM_RACK:
            group.append(following)
        ending[group[-1]] = group
    shared: dict[int, Rack] = {}
    for group in groups:
        rack = _union([steps[i].rack for i in group])
        if rack is not None and len(rack) <= RACK_SIZE:
            shared.update((i, rack) for i in group)
    return shared


def _union(racks: list[Rack]) -> Rack:
    """The fewest tiles that hold each of ``racks`` (unknown tiles left out); the first
    rack as written when it holds all the others."""
    known = [r for r in racks if r is not None]
    if not known:
        return None
    counts: Counter[str] = Counter()
    for rack in known:
        counts |= Counter(t for t in rack if t != UNKNOWN)
    for rack in known:
        if UNKNOWN not in rack and Counter(rack) == counts:
            return rack
    return tuple(sorted(counts.elements()))


def _after_withdrawal(after: list[Racks], index: int, player: int, held: list[Rack],
                      rack: Rack) -> Rack:
    """The rack the player holds from the withdrawal on: the withdrawn phoney's, with
    what later lines tell of it (end-of-game lines, ``#rackN``) when no move of theirs
    follows; the positions after the withdrawal, told already, are mended."""
    old = held[player]
    merged = _union([rack, old])
    if merged is None or len(merged) > RACK_SIZE:
        held[player] = rack
        merged = rack
    if merged == old:
        return merged
    held[player] = merged
    for j in range(index + 1, len(after)):
        racks = after[j]
        if racks[player] is not old:
            break
        after[j] = racks[:player] + (merged,) + racks[player + 1:]
    return merged


def _final_racks(record: GcgRecord, rules: Rules, steps: list[Step], seats: int) -> list[Rack]:
    held: list[Rack] = [None] * seats
    if not steps:
        return held
    final = steps[-1].state
    if record.incomplete_rack and final.to_move is not None:
        held[final.to_move] = _split(rules, record.incomplete_rack)
    for step in steps:
        kind = step.event.kind
        if kind not in _GAME_END:
            continue
        if kind is EventKind.END_RACK_POINTS:
            held[step.player] = ()
            if seats == 2:
                held[1 - step.player] = _split(rules, step.event.tiles)
        else:
            held[step.player] = _split(rules, step.event.tiles)
    return held


def _before_withdrawal(rack: tuple[str, ...], removed: tuple[PlacedTile, ...]) -> Rack:
    """Between a phoney and its withdrawal the player holds the phoney's rack less the
    tiles that sit on the board (and the tiles drawn after the phoney, which no line
    names: the rack is partial)."""
    leave = Counter(t for t in rack if t != UNKNOWN) - Counter(rack_label(t.label)
                                                               for t in removed)
    return tuple(sorted(leave.elements()))


def _split(rules: Rules, rack: str) -> Rack:
    if rack.upper() == "UNKNOWN":
        return None
    try:
        labels = rules.codec.split(rack.replace(".", BLANK), allow=BLANK + UNKNOWN)
    except TileError:
        return None
    return tuple(t if t in (BLANK, UNKNOWN) else t.upper() for t in labels)

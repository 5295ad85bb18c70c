"""What each player holds between events, as far as the record tells.

A player's rack changes only through their own events, and each turn line records the
rack the move was made from, so the rack held after event *i* is the rack of that
player's next line. Walking the events backwards gives every position its racks in
one pass; ``#rackN`` and ``#incomplete`` pragmas and end-of-game lines fill in the rest.
"""

from __future__ import annotations

from collections import Counter

from pgm.crossword_rules import Rules
from pgm.crossword_state import Rack, Racks, Step
from pgm.gcg import EventKind, GcgRecord
from pgm.scoring import PlacedTile
from pgm.tiles import BLANK, UNKNOWN, TileError, rack_label

# Sets of kinds, because naming a kind (``EventKind.PLAY``) is slow on Python 3.11 and
# these are asked of every event.
_GAME_END = frozenset({EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY})
_MADE_FROM_RACK = frozenset({EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE,
                             EventKind.CHALLENGE_BONUS})
"""Events whose rack, when known, is what the player held before them."""
_WITHDRAWAL = EventKind.WITHDRAWAL


def known_racks(record: GcgRecord, rules: Rules, steps: list[Step]) -> tuple[list[Racks], Racks]:
    """The racks after each replayed event, and the racks before the first one."""
    seats = len(steps[0].state.scores) if steps else max(len(record.players), 1)
    held: list[Rack] = _final_racks(record, rules, steps, seats)
    after: list[Racks] = [()] * len(steps)
    for index in range(len(steps) - 1, -1, -1):
        step = steps[index]
        for seat, rack, _line in step.event.racks_after:
            if seat < seats:
                held[seat] = _split(rules, rack)
        after[index] = tuple(held)
        # Back to the racks before the step: the rack its move was made from, if known.
        if step.rack is not None:
            kind = step.event.kind
            if kind in _MADE_FROM_RACK:
                held[step.player] = step.rack
            elif kind is _WITHDRAWAL:
                held[step.player] = _before_withdrawal(step.rack, step.removed)
    for seat, rack, _line in record.initial_racks:
        if seat < seats:
            held[seat] = _split(rules, rack)
    return after, tuple(held)


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
    """Between a phoney and its withdrawal the player holds the withdrawal's rack less the
    tiles that sit on the board."""
    leave = Counter(rack) - Counter(rack_label(t.label) for t in removed)
    return tuple(sorted(leave.elements()))


def _split(rules: Rules, rack: str) -> Rack:
    if rack.upper() == "UNKNOWN":
        return None
    try:
        labels = rules.codec.split(rack.replace(".", BLANK), allow=BLANK + UNKNOWN)
    except TileError:
        return None
    return tuple(t if t in (BLANK, UNKNOWN) else t.upper() for t in labels)

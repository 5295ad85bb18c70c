"""What each player holds between events, as far as the record tells.

A player's rack changes only through their own events, and each turn line records the
rack the move was made from, so the rack held after event *i* is the rack of that
player's next line. Walking the events backwards gives every position its racks in
one pass; ``#rackN`` and ``#incomplete`` pragmas and end-of-game lines fill in the rest.
"""

from __future__ import annotations

from collections import Counter

from pgm.crossword_model import Turn
from pgm.crossword_rules import Rules
from pgm.gcg import EventKind, GcgRecord
from pgm.tiles import BLANK, UNKNOWN, TileError, rack_label

Rack = tuple[str, ...] | None


def with_known_racks(record: GcgRecord, rules: Rules,
                     turns: list[Turn]) -> tuple[list[Turn], tuple[Rack, ...]]:
    """Turns with ``position.racks`` filled in, and the racks before the first event."""
    seats = len(turns[0].position.scores) if turns else max(len(record.players), 1)
    held: list[Rack] = _final_racks(record, rules, turns, seats)
    result = list(turns)
    for index in range(len(turns) - 1, -1, -1):
        turn = turns[index]
        for seat, rack, _line in turn.event.racks_after:
            if seat < seats:
                held[seat] = _split(rules, rack)
        result[index] = turn.with_position(turn.position.with_racks(tuple(held)))
        _step_back(turn, held, rules)
    for seat, rack, _line in record.initial_racks:
        if seat < seats:
            held[seat] = _split(rules, rack)
    return result, tuple(held)


def _final_racks(record: GcgRecord, rules: Rules, turns: list[Turn], seats: int) -> list[Rack]:
    held: list[Rack] = [None] * seats
    if not turns:
        return held
    final = turns[-1].position
    if record.incomplete_rack and final.to_move is not None:
        held[final.to_move] = _split(rules, record.incomplete_rack)
    for turn in turns:
        kind = turn.event.kind
        if kind is EventKind.END_RACK_POINTS:
            held[turn.player] = ()
            if seats == 2:
                held[1 - turn.player] = _split(rules, turn.event.tiles)
        elif kind is EventKind.END_RACK_PENALTY:
            held[turn.player] = _split(rules, turn.event.tiles)
    return held


def _step_back(turn: Turn, held: list[Rack], rules: Rules) -> None:
    """Update ``held`` from the racks after ``turn`` to the racks before it."""
    kind = turn.event.kind
    if kind.is_turn or kind is EventKind.CHALLENGE_BONUS:
        if turn.rack is not None:
            held[turn.player] = turn.rack
    elif kind is EventKind.WITHDRAWAL and turn.rack is not None:
        # Between a phoney and its withdrawal the player holds the rack less the tiles
        # that sit on the board.
        leave = Counter(turn.rack) - Counter(rack_label(t.label) for t in turn.removed)
        held[turn.player] = tuple(sorted(leave.elements()))


def _split(rules: Rules, rack: str) -> Rack:
    if rack.upper() == "UNKNOWN":
        return None
    try:
        labels = rules.codec.split(rack.replace(".", BLANK), allow=BLANK + UNKNOWN)
    except TileError:
        return None
    return tuple(t if t in (BLANK, UNKNOWN) else t.upper() for t in labels)

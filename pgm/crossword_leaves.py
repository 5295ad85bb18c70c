"""Warn of a rack that lacks tiles its player kept from their previous move.

A player's rack changes only at their own moves: a pass keeps it whole, a play or an
exchange keeps what was not played or exchanged (the leave) and adds the tiles drawn, and
a phoney taken back returns its tiles. So a rack written in full that lacks a tile of the
leave is most often a rack copied from the wrong line, which turns the tile tracking
quietly wrong: the replay goes on with the racks as written (pgm.crossword_racks starts
afresh there), and this warning says where. A ``#rackN`` line between the two moves is
the record changing the rack on purpose (an overdraw ruling), and is not warned of.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pgm.crossword_racks import rack_tiles
from pgm.crossword_rules import Rules
from pgm.crossword_state import Step
from pgm.diagnostics import DiagnosticSink
from pgm.gcg import EventKind
from pgm.scoring import RACK_SIZE
from pgm.tiles import UNKNOWN, take


class _Kept(NamedTuple):
    """What a player surely still holds after a move, and how to say why."""

    tiles: Sequence[str]
    line: int
    why: str
    held: int
    """How many tiles the player holds until their next move."""


def check_kept_tiles(rules: Rules, steps: Sequence[Step], sink: DiagnosticSink) -> None:
    """One warning at each move whose rack, written in full, lacks a tile of the leave."""
    kept: dict[int, _Kept] = {}
    in_part = _racks_in_part(steps)
    for step in steps:
        event = step.event
        if event.kind in _MOVES and step.player not in in_part:
            _move(rules, step, kept, sink)
        for seat, _text, _line in event.racks_after:
            kept.pop(seat, None)  # the record sets the rack itself


_MOVES = (EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE)


def _racks_in_part(steps: Sequence[Step]) -> set[int]:
    """The seats whose record writes some rack in part: liwords writes a player's rack
    as the tiles played, so a bingo's seven are the tiles played too, not the rack
    after the leave, and such a player's racks are no account of what they kept."""
    held: dict[int, int] = {}
    in_part = set()
    for step in steps:
        if step.event.kind not in _MOVES:
            continue
        rack = step.rack
        if rack is not None and UNKNOWN not in rack and len(rack) < held.get(step.player,
                                                                              RACK_SIZE):
            in_part.add(step.player)
        held[step.player] = step.state.rack_sizes[step.player]
    return in_part


def _move(rules: Rules, step: Step, kept: dict[int, _Kept], sink: DiagnosticSink) -> None:
    """Check the move's rack against the leave of the player's move before, and keep
    this one's leave for their next."""
    rack = step.rack
    before = kept.pop(step.player, None)
    if rack is None or UNKNOWN in rack:
        return
    if before is not None and len(rack) == before.held:
        _warn_of_lost(before, rack, step, sink)
    leave = _leave(rules, step, rack)
    if leave:
        kept[step.player] = _Kept(leave, step.event.line, _why(step),
                                  step.state.rack_sizes[step.player])


def _leave(rules: Rules, step: Step, rack: tuple[str, ...]) -> Sequence[str] | None:
    """The tiles the move left on the rack; None when the rack did not hold what left."""
    kind = step.event.kind
    if kind is EventKind.PASS or step.withdrawn:
        return rack
    gone = step.played if kind is EventKind.PLAY else _exchanged(rules, step)
    if gone is None:
        return None
    left, lacking = take(rack, gone)
    return None if lacking else left


def _exchanged(rules: Rules, step: Step) -> tuple[str, ...] | None:
    """The tiles an exchange names; None for a count only (``-3``) or unknown tiles."""
    event = step.event
    tiles = rack_tiles(rules, event.tiles) if event.exchange_count is None else None
    return tiles if tiles and UNKNOWN not in tiles else None


def _why(step: Step) -> str:
    event = step.event
    if event.kind is EventKind.PASS:
        return f"a pass with {event.rack} keeps the rack"
    if event.kind is EventKind.EXCHANGE:
        return f"{event.rack} less the tiles exchanged"
    if step.withdrawn:
        return f"the tiles of {event.rack} come back when the play is taken back"
    return f"{event.rack} less the tiles played"


def _warn_of_lost(before: _Kept, rack: tuple[str, ...], step: Step,
                  sink: DiagnosticSink) -> None:
    _, lost = take(rack, before.tiles)
    if not lost:
        return
    event = step.event
    tiles = "".join(sorted(lost))
    sink.warning(event.line, f"{event.nick}'s rack {event.rack} lacks {tiles}, kept from "
                             f"line {before.line} ({before.why}): a rack changes only at "
                             "its player's moves (a rack copied from another line? tiles "
                             f"lost to an overdraw ruling are told by a #rack{step.player + 1}"
                             f" line after line {before.line})")

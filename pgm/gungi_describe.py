"""One plain-English sentence per Gungi ply, for turn pages and alt text.

Kept out of the replay because it is presentation, and out of the templates because it
needs the positions before and after the ply (who stood where, what was captured).
The text is plain (no markup); templates escape it like any other string.
"""

from __future__ import annotations

from collections.abc import Callable

from pgm.gn import Ply
from pgm.gn_moves import Move, MoveKind, Spot
from pgm.gungi_ending import EndKind, GameEnd
from pgm.gungi_position import Position, square_name
from pgm.gungi_units import Colour, Face, Unit


def describe(ply: Ply, before: Position, after: Position, end: GameEnd | None = None) -> str:
    """E.g. "Black's Spy from 6-4 strikes White's Bow on 5-2, tier 1; White is in check".

    ``end`` is the game's end when this ply brought it; a captured Commander is seen in
    the positions, a checkmate or repetition only by the replay.
    """
    mover = before.to_move
    sentence = _SENTENCES[ply.move.kind](ply.move, before, mover)
    notes = _consequences(before, after, mover)
    if end is not None and end.kind is not EndKind.COMMANDER_CAPTURED:
        notes.append(f"; {end.words}")
    return sentence + "".join(notes)


def _consequences(before: Position, after: Position, mover: Colour) -> list[str]:
    notes: list[str] = []
    if after.winner is not None and before.winner is None:
        notes.append(f"; {after.winner.title} wins")
    if after.arrangement_over and not before.arrangement_over:
        notes.append("; the initial arrangement is complete")
    if after.rearrangement is not None and before.rearrangement is None:
        notes.append(f"; {mover.title} must place the captured Lance as {after.rearrangement}")
    if after.recovery is not None and before.recovery is None:
        notes.append(f"; it cannot move again from there, so {mover.title} decides on recovery")
    for side in sorted(after.in_check - before.in_check, key=lambda c: c.value):
        notes.append(f"; {side.title} is in check")
    return notes


def _unit(position: Position, spot: Spot | None, code: str, mover: Colour) -> Unit:
    """The unit at ``spot``; the code stands in if the square does not have it."""
    if spot is not None:
        tower = position.towers[spot.square]
        if spot.tier < len(tower):
            return tower[spot.tier]
    return Unit.of(code, mover)


def _whose(unit: Unit) -> str:
    return f"{unit.colour.title}'s {unit.face.title}"


def _article(face: Face) -> str:
    return "an" if face.title[0] in "AEIOU" else "a"


def _drop(move: Move, before: Position, mover: Colour) -> str:
    face = Unit.of(move.code, mover).face
    at = move.target
    return f"{mover.title} drops {_article(face)} {face.title} on {at.square_name}, tier {at.tier}"


def _move(move: Move, before: Position, mover: Colour) -> str:
    unit = _unit(before, move.source, move.code, mover)
    source = move.source.square_name if move.source else "?"
    at = move.target
    top = before.top(at.square)
    if top is not None and top.colour is not unit.colour:
        verb = "strikes" if move.kind is MoveKind.MOBILE_STRIKE else "captures"
        victim = f"{_whose(top)} on {at.square_name}, tier {at.tier}"
        return f"{_whose(unit)} from {source} {verb} {victim}"
    onto = f" onto its {top.face.title}" if top is not None else ""
    return f"{_whose(unit)} moves from {source} to {at.square_name}{onto}, tier {at.tier}"


def _immobile_strike(move: Move, before: Position, mover: Colour) -> str:
    unit = _unit(before, move.source, move.code, mover)
    victim = _unit(before, move.target, "O-", mover.other)
    source_tier = move.source.tier if move.source else 0
    side = "below" if move.target.tier < source_tier else "above"
    where = move.target.square_name
    return f"{_whose(unit)} on {where} strikes {_whose(victim)} {side} it, tier {move.target.tier}"


def _recovery(move: Move, before: Position, mover: Colour) -> str:
    unit = _unit(before, move.target, move.code, mover)
    where = move.target.square_name
    if move.kind is MoveKind.RECOVER_SELF:
        face = unit.face.title
        return f"{mover.title} takes its {face} on {where} back into hand (forced recovery)"
    if move.kind is MoveKind.RECOVER_OPPONENT:
        return (
            f"{_whose(unit)} on {where} goes to {mover.other.title}'s hand (forced recovery "
            "after a capture)"
        )
    return f"{mover.title} leaves its {unit.face.title} on {where} (no forced recovery)"


def _substitution(move: Move, before: Position, mover: Colour) -> str:
    unit = _unit(before, move.source, move.code, mover)
    source = move.source.square_name if move.source else "?"
    return (
        f"{_whose(unit)} on {source} swaps places with its Commander on "
        f"{square_name(move.target.square)}"
    )


def _tier_exchange(move: Move, before: Position, mover: Colour) -> str:
    unit = _unit(before, move.source, move.code, mover)
    partner = _unit(before, move.target, move.code, mover)
    return (
        f"{_whose(unit)} on {move.target.square_name} changes places with its "
        f"{partner.face.title} (tiers 0 and 2)"
    )


_SENTENCES: dict[MoveKind, Callable[[Move, Position, Colour], str]] = {
    MoveKind.DROP: _drop,
    MoveKind.MOVE: _move,
    MoveKind.MOBILE_STRIKE: _move,
    MoveKind.IMMOBILE_STRIKE: _immobile_strike,
    MoveKind.RECOVER_SELF: _recovery,
    MoveKind.RECOVER_OPPONENT: _recovery,
    MoveKind.NO_RECOVERY: _recovery,
    MoveKind.SUBSTITUTION: _substitution,
    MoveKind.TIER_EXCHANGE: _tier_exchange,
}

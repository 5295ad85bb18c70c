"""Whether a side in check can get out of it: the legal plies that checkmate detection needs.

RULES.md §9: "a player in check must end it; if no move or drop can, that player is
checkmated and loses". :func:`can_escape` looks for one ply after which the Commander of
the side to move is no longer attacked (the check of :mod:`pgm.gungi_rules`), or which
captures the other Commander and so ends the game at once. It is asked only when the side
to move is in check, and stops at the first way out, so only a real checkmate costs a
full search.

Every candidate ply goes through :func:`pgm.gungi_plies.apply`, so the part-A rules
(heights, duplicate faces, nothing on a Commander, the Pawn and Bronze file rules, Land
Link) are the replay's own; moves are generated from the move sets of
:mod:`pgm.gungi_rules`, blocking and Mobile Range Expansion included. The candidates are:

- moves and mobile strikes of the side's top units, the Commander's first;
- substitution of a Samurai on top of its tower, orthogonally next to its Commander (the
  engine's reading; RULES.md §7 AMBIGUOUS for a Samurai on tier 1-2 with nothing above);
- immobile strikes on an enemy unit just above or below one of the side's units (not a
  Fortress's);
- drops, on every square where a drop could stop *every* unit that gives check: a square
  its move passes over or the square it stands on (buried under a unit dropped on a Spy
  or Clandestinite), and for a Fortress or Catapult any square while a Bow, Spy or
  Clandestinite gives check (its new zone may stop the jump). A drop changes nothing
  else that check depends on, so a drop anywhere else cannot end it.

Readings (RULES.md marks them AMBIGUOUS or leaves them to the engine):

- A 1-3 tier exchange is never a way out: it is not allowed in check (the engine;
  VALIDATION.md part B).
- A move that leaves a forced recovery owed is judged as played with ``=``: declining is
  always allowed, and lifting the unit off the board could only open a line.
- A move that captures a Lance is followed by its forced rearrangement: the Fortress or
  Catapult is tried on every empty square of the captor's territory.
- Land Link does not need an allied unit, and a move onto an enemy top always captures it
  (as in :mod:`pgm.gungi_plies`, following the engine and RULES.md).
"""

from __future__ import annotations

from collections.abc import Iterator

from pgm.gn_moves import Move, MoveKind, Spot
from pgm.gungi_plies import Refusal, apply
from pgm.gungi_position import MAX_HEIGHT, SIZE, Position, col_of, on_board, row_of, square_of
from pgm.gungi_rules import (
    Verdict,
    Zones,
    commander_attacked,
    destinations,
    reach,
    route,
    zones,
)
from pgm.gungi_units import IMMOBILE, JUMPERS, Colour, Face

_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def can_escape(position: Position) -> bool:
    """Whether ``position.to_move`` has a ply after which its Commander is not attacked."""
    mover = position.to_move
    for move in candidates(position):
        after = apply(position, move)
        if not isinstance(after, Refusal) and _safe(after, mover):
            return True
    return False


def _safe(after: Position, mover: Colour) -> bool:
    if after.winner is mover:
        return True  # it took the other Commander: the game is over, and won
    if after.rearrangement is not None:
        return any(_safe(placed, mover) for placed in _rearrangements(after, mover))
    return not commander_attacked(after, mover)


def _rearrangements(position: Position, mover: Colour) -> Iterator[Position]:
    code = position.rearrangement
    assert code is not None  # only called while a captured Lance is owed
    for square, tower in enumerate(position.towers):
        if not tower and mover.owns_row(row_of(square)):
            placed = apply(position, Move(MoveKind.DROP, code, _spot(square, 0)))
            if not isinstance(placed, Refusal):
                yield placed


def candidates(position: Position) -> Iterator[Move]:
    """Plies the side to move might end a check with; :func:`apply` refuses the impossible."""
    mover = position.to_move
    z = zones(position)
    tops = [square for square, tower in position.occupied() if tower[-1].colour is mover]
    tops.sort(key=lambda square: position.towers[square][-1].face is not Face.COMMANDER)
    for source in tops:
        yield from _moves(position, source, z)
    yield from _substitutions(position, mover)
    yield from _immobile_strikes(position, mover)
    yield from _drops(position, mover, z)


def _spot(square: int, tier: int) -> Spot:
    return Spot(col_of(square), row_of(square), tier)


def _moves(position: Position, source: int, z: Zones) -> Iterator[Move]:
    tower = position.towers[source]
    unit = tower[-1]
    if unit.face in IMMOBILE:
        return
    start = _spot(source, len(tower) - 1)
    for target in destinations(position, source, z):
        there = position.towers[target]
        capture = bool(there) and there[-1].colour is not unit.colour
        if not capture and len(there) >= MAX_HEIGHT:
            continue
        tier = len(there) - 1 if capture else len(there)
        yield Move(MoveKind.MOVE, unit.code, _spot(target, tier), start)


def _substitutions(position: Position, mover: Colour) -> Iterator[Move]:
    for square, tier in position.find(Face.COMMANDER, mover):
        if tier != len(position.towers[square]) - 1:
            continue
        for dc, dr in _ORTHOGONAL:
            col, row = col_of(square) + dc, row_of(square) + dr
            if not on_board(col, row):
                continue
            beside = position.towers[square_of(col, row)]
            if beside and beside[-1].colour is mover and beside[-1].face is Face.SAMURAI:
                source = _spot(square_of(col, row), len(beside) - 1)
                yield Move(MoveKind.SUBSTITUTION, beside[-1].code, _spot(square, tier), source)


def _immobile_strikes(position: Position, mover: Colour) -> Iterator[Move]:
    for square, tower in position.occupied():
        for tier, unit in enumerate(tower):
            if unit.colour is not mover or unit.face is Face.FORTRESS:
                continue
            for other in (tier - 1, tier + 1):
                if 0 <= other < len(tower) and tower[other].colour is not mover:
                    yield Move(MoveKind.IMMOBILE_STRIKE, unit.code, _spot(square, other),
                               _spot(square, tier))


def _drops(position: Position, mover: Colour, z: Zones) -> Iterator[Move]:
    codes = [code for code, _ in position.hand(mover).counts]
    if not codes:
        return
    anywhere, fortress = _drop_squares(position, mover, z)
    for code in codes:
        squares = fortress if Face(code[0]) in IMMOBILE else anywhere
        for square in sorted(squares):
            height = len(position.towers[square])
            if height < MAX_HEIGHT:
                yield Move(MoveKind.DROP, code, _spot(square, height))


def _drop_squares(position: Position, mover: Colour, z: Zones
                  ) -> tuple[frozenset[int], frozenset[int]]:
    """Where a drop could stop every unit giving check: (any unit, a Fortress or Catapult).

    A unit striking from inside the Commander's tower cannot be stopped by a drop.
    """
    board = frozenset(range(SIZE * SIZE))
    anywhere, fortress = board, board
    enemy = mover.other
    for square, tier in position.find(Face.COMMANDER, mover):
        tower = position.towers[square]
        below = tower[tier - 1] if tier > 0 else None
        if below is not None and below.colour is enemy and below.face is not Face.FORTRESS:
            return frozenset(), frozenset()
        for source, attacker_tower in position.occupied():
            attacker, level = attacker_tower[-1], len(attacker_tower) - 1
            if source == square or attacker.colour is not enemy:
                continue
            if reach(position, source, level, attacker, square, z).verdict is not Verdict.REACHABLE:
                continue
            stoppers = route(source, level, attacker, square, z) | {source}
            anywhere &= stoppers
            if attacker.face not in JUMPERS:
                fortress &= stoppers
    return anywhere, fortress

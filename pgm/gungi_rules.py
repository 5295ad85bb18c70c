"""Gungi move sets and what they decide: reach, Mobile Range Expansion zones and check.

These are the checks of VALIDATION.md part B. They only ever produce *warnings*: the
notation records what was played, and a record that breaks a movement rule is still worth
showing. Part A (whether a ply can be applied at all) lives in :mod:`pgm.gungi_plies`.

Move sets come from ``gungi_data/movesets.json`` (a copy of specs/gungi/movesets.json, the
reference library's table). Each entry is a list of steps in the mover's frame (``F`` =
toward the enemy); a single step ending in ``*`` slides until blocked. The steps also give
the squares a multi-square move passes over, which is what blocks non-jumpers.

Interpretations (RULES.md §8 leaves them open):

- Mobile Range Expansion is a *union*: a unit standing in an allied Fortress or Catapult
  zone may use its own tier's set or the next tier's (the engine's intent; the engine's
  loop never actually tries the next tier).
- A Fortress zone is its own square and every square straight ahead of it to the edge; a
  Catapult zone is the radius-2 diamond around it clipped to its owner's territory. Both
  count whether or not units stand on the Fortress or Catapult.
- Check means the Commander could be captured by the other side's next ply: a mobile
  strike by one of its top units, or an immobile strike from the tier just below.
"""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

from pgm.gungi_position import Position, col_of, on_board, row_of, square_name, square_of
from pgm.gungi_units import EXPANSION_IMMUNE, JUMPERS, Colour, Face, Unit

_STEPS = {
    "F": (0, 1),
    "B": (0, -1),
    "L": (-1, 0),
    "R": (1, 0),
    "FL": (-1, 1),
    "FR": (1, 1),
    "BL": (-1, -1),
    "BR": (1, -1),
}


@dataclass(frozen=True)
class Vector:
    """One move-set entry in the mover's frame (dy > 0 is forward)."""

    dx: int
    dy: int
    slide: bool
    """Repeat the single step (dx, dy) any distance until something is in the way."""
    path: tuple[tuple[int, int], ...]
    """Offsets of the squares a fixed move passes over before it lands."""


def _vector(steps: list[str]) -> Vector:
    if len(steps) == 1 and steps[0].endswith("*"):
        dx, dy = _STEPS[steps[0][:-1]]
        return Vector(dx, dy, True, ())
    points: list[tuple[int, int]] = []
    x = y = 0
    for step in steps:
        x, y = x + _STEPS[step][0], y + _STEPS[step][1]
        points.append((x, y))
    return Vector(x, y, False, tuple(points[:-1]))


@functools.cache
def move_sets() -> dict[Face, tuple[tuple[Vector, ...], ...]]:
    """Face → the vectors of tiers 0, 1 and 2 (loaded once, on first use)."""
    source = resources.files("pgm").joinpath("gungi_data/movesets.json")
    raw: dict[str, dict[str, list[list[str]]]] = json.loads(source.read_text("utf-8"))
    return {
        Face[name]: tuple(tuple(_vector(e) for e in tiers[str(t)]) for t in range(3))
        for name, tiers in raw.items()
    }


def vectors(face: Face, tier: int, expanded: bool = False) -> tuple[Vector, ...]:
    sets = move_sets()[face]
    if expanded and face not in EXPANSION_IMMUNE and tier < 2:
        return sets[tier] + sets[tier + 1]
    return sets[tier]


def _board_step(unit: Unit, dx: int, dy: int) -> tuple[int, int]:
    """Black's moves are mirrored in both axes: its forward is toward row 0."""
    return dx * unit.colour.forward, dy * unit.colour.forward


def can_move_from(unit: Unit, square: int, tier: int) -> bool:
    """Whether any move-set vector stays on the board: the forced-recovery test.

    RULES.md §7 judges it by board edges alone (other units do not count).
    """
    col, row = col_of(square), row_of(square)
    for vector in vectors(unit.face, tier):
        dc, dr = _board_step(unit, vector.dx, vector.dy)
        if on_board(col + dc, row + dr):
            return True
    return False


@dataclass(frozen=True)
class Zones:
    """Squares where each side's units gain the next tier's moves."""

    black: frozenset[int]
    white: frozenset[int]

    def of(self, colour: Colour) -> frozenset[int]:
        return self.black if colour is Colour.BLACK else self.white


def zones(position: Position) -> Zones:
    found: dict[Colour, set[int]] = {Colour.BLACK: set(), Colour.WHITE: set()}
    for square, tower in position.occupied():
        for unit in tower:
            if unit.face is Face.FORTRESS:
                found[unit.colour].update(_fortress_zone(square, unit.colour))
            elif unit.face is Face.CATAPULT:
                found[unit.colour].update(_catapult_zone(square, unit.colour))
    return Zones(frozenset(found[Colour.BLACK]), frozenset(found[Colour.WHITE]))


def _fortress_zone(square: int, colour: Colour) -> set[int]:
    col, row = col_of(square), row_of(square)
    squares = set()
    while on_board(col, row):
        squares.add(square_of(col, row))
        row += colour.forward
    return squares


def _catapult_zone(square: int, colour: Colour) -> set[int]:
    col, row = col_of(square), row_of(square)
    return {
        square_of(col + dc, row + dr)
        for dc in range(-2, 3)
        for dr in range(-2, 3)
        if abs(dc) + abs(dr) <= 2 and on_board(col + dc, row + dr) and colour.owns_row(row + dr)
    }


class Verdict(enum.Enum):
    REACHABLE = "reachable"
    OUT_OF_SET = "out of move set"
    BLOCKED = "blocked"
    JUMP_BLOCKED = "jump blocked"


@dataclass(frozen=True)
class Reach:
    verdict: Verdict
    at: int | None = None
    """The square in the way, for the two blocked verdicts."""


def reach(position: Position, source: int, tier: int, unit: Unit, target: int, z: Zones) -> Reach:
    """Can ``unit`` (standing on tier ``tier`` of ``source``) land on ``target``?

    When no vector fits, a vector that fits the geometry but is blocked is the more useful
    explanation, so it wins over "not in the move set".
    """
    expanded = source in z.of(unit.colour)
    best = Reach(Verdict.OUT_OF_SET)
    for vector in vectors(unit.face, tier, expanded):
        passed = _passed_squares(source, vector, unit, target)
        if passed is None:
            continue
        found = _path_verdict(position, passed, unit, z)
        if found.verdict is Verdict.REACHABLE:
            return found
        best = found
    return best


def _passed_squares(source: int, vector: Vector, unit: Unit, target: int) -> list[int] | None:
    """Squares passed over on the way to ``target``, or None if the vector misses it."""
    col, row = col_of(source), row_of(source)
    if vector.slide:
        dc, dr = _board_step(unit, vector.dx, vector.dy)
        passed: list[int] = []
        col, row = col + dc, row + dr
        while on_board(col, row):
            if square_of(col, row) == target:
                return passed
            passed.append(square_of(col, row))
            col, row = col + dc, row + dr
        return None
    dc, dr = _board_step(unit, vector.dx, vector.dy)
    if not on_board(col + dc, row + dr) or square_of(col + dc, row + dr) != target:
        return None
    steps = (_board_step(unit, px, py) for px, py in vector.path)
    return [square_of(col + pc, row + pr) for pc, pr in steps]


def _path_verdict(position: Position, passed: list[int], unit: Unit, z: Zones) -> Reach:
    """Non-jumpers stop at any unit; jumpers only at an enemy top inside an enemy zone."""
    for square in passed:
        top = position.top(square)
        if top is None:
            continue
        if unit.face not in JUMPERS:
            return Reach(Verdict.BLOCKED, square)
        if top.colour is not unit.colour and square in z.of(top.colour):
            return Reach(Verdict.JUMP_BLOCKED, square)
    return Reach(Verdict.REACHABLE)


def reach_problem(position: Position, source: int, tier: int, target: int) -> str | None:
    """Why the top unit of ``source`` could not move to ``target``, or None if it could."""
    unit = position.towers[source][tier]
    z = zones(position)
    found = reach(position, source, tier, unit, target, z)
    who = f"{unit.colour.title}'s {unit.face.title} on tier {tier}"
    route = f"from {square_name(source)} to {square_name(target)}"
    bonus = " even with its zone bonus" if source in z.of(unit.colour) else ""
    if found.verdict is Verdict.OUT_OF_SET:
        return f"{who} cannot move {route}{bonus} (not in its move set on that tier)"
    if found.verdict is Verdict.BLOCKED:
        blocker = square_name(found.at or 0)
        return f"{who} cannot pass {blocker} {route}: only Bow, Spy and Clandestinite jump"
    if found.verdict is Verdict.JUMP_BLOCKED:
        blocker = square_name(found.at or 0)
        return (
            f"{who} cannot jump over the enemy unit on {blocker} {route}: it stands in an "
            "enemy Fortress or Catapult zone"
        )
    return None


def in_check(position: Position) -> frozenset[Colour]:
    """The sides whose Commander the other side could capture with its next ply."""
    z = zones(position)
    return frozenset(colour for colour in Colour if commander_attacked(position, colour, z))


def commander_attacked(position: Position, colour: Colour, z: Zones | None = None) -> bool:
    """Whether the other side could capture ``colour``'s Commander with its next ply."""
    if z is None:
        z = zones(position)
    return any(
        _attacked(position, square, tier, colour.other, z)
        for square, tier in position.find(Face.COMMANDER, colour)
    )


def destinations(position: Position, source: int, z: Zones) -> Iterator[int]:
    """Every square the top unit of ``source`` can reach in one move, blocking included
    (what it may do there, stack or capture, is for the landing rules to say)."""
    tower = position.towers[source]
    unit, tier = tower[-1], len(tower) - 1
    seen: set[int] = set()
    for vector in vectors(unit.face, tier, source in z.of(unit.colour)):
        for target in _vector_squares(source, vector, unit):
            if target in seen:
                continue
            seen.add(target)
            if reach(position, source, tier, unit, target, z).verdict is Verdict.REACHABLE:
                yield target


def _vector_squares(source: int, vector: Vector, unit: Unit) -> list[int]:
    """Where ``vector`` could land on an empty board: one square, or a whole ray."""
    col, row = col_of(source), row_of(source)
    dc, dr = _board_step(unit, vector.dx, vector.dy)
    squares = []
    col, row = col + dc, row + dr
    while on_board(col, row):
        squares.append(square_of(col, row))
        if not vector.slide:
            break
        col, row = col + dc, row + dr
    return squares


def route(source: int, tier: int, unit: Unit, target: int, z: Zones) -> frozenset[int]:
    """Every square that a move of ``unit`` (on tier ``tier`` of ``source``) to ``target``
    passes over, by any vector that lands there: where a unit put in the way might stop it."""
    squares: set[int] = set()
    for vector in vectors(unit.face, tier, source in z.of(unit.colour)):
        passed = _passed_squares(source, vector, unit, target)
        if passed is not None:
            squares.update(passed)
    return frozenset(squares)


def _attacked(position: Position, square: int, tier: int, by: Colour, z: Zones) -> bool:
    tower = position.towers[square]
    for neighbour in (tier - 1, tier + 1):
        if 0 <= neighbour < len(tower):
            unit = tower[neighbour]
            if unit.colour is by and unit.face is not Face.FORTRESS:
                return True
    if tier != len(tower) - 1:
        return False  # only a top unit can be taken by a mobile strike
    for source, attacker_tower in position.occupied():
        attacker = attacker_tower[-1]
        if source == square or attacker.colour is not by:
            continue
        found = reach(position, source, len(attacker_tower) - 1, attacker, square, z)
        if found.verdict is Verdict.REACHABLE:
            return True
    return False

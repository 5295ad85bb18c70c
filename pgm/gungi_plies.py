"""What each of the nine move forms checks and does: VALIDATION.md part A, sections A3-A9.

Each handler takes the position before the ply and the move, and returns either the
position after it or a :class:`Refusal` naming the broken rule. Handlers do not pass the
turn, check group numbers or look at pending obligations: :func:`pgm.gungi.step` does that
once for every form.

Interpretations (RULES.md marks these AMBIGUOUS or CONFLICT; none is exercised by a corpus
file unless said):

- A move onto an enemy-topped tower always captures its top (the engine's reading); a move
  token that lands on tier = height there, i.e. stacks on an enemy, is refused.
- Betrayal recolours the enemy units left under a capturing Bronze without turning them
  over (the engine; RULES.md's text would also flip them). It follows mobile strikes
  only: an immobile strike takes a unit out of the middle of a tower, not its top.
- Forced recovery is offered after a move or mobile strike only, judged at the landing
  square and tier (authored__2 needs this), and moves the unit to a hand without flipping
  it (authored__2: Black's Spy reaches White's hand as ``YN``).
- A captured Lance turns into its Fortress/Catapult side and must be dropped by the
  captor at once, on an empty square of the captor's territory (VALIDATION.md A45).
- Land Link does not require the Fortress, Catapult, Spy or Clandestinite to be allied
  (neither RULES.md nor the engine checks colour).
- A 1-3 tier exchange is refused only if the same player's previous turn was an exchange
  in the same tower ("not twice in a row").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from pgm.gn_moves import Move, MoveKind, Spot
from pgm.gungi_position import MAX_HEIGHT, Position, Recovery, Tower, square_name
from pgm.gungi_rules import can_move_from
from pgm.gungi_units import (
    BACK_FACES,
    FORCED_RECOVERY,
    FRONT_FACES,
    IMMOBILE,
    LAND_LINK,
    Colour,
    Face,
    Unit,
)


@dataclass(frozen=True)
class Refusal:
    """A part-A rule the ply breaks; the replay stops at it."""

    message: str


Outcome = Position | Refusal


def apply(position: Position, move: Move) -> Outcome:
    """The position after ``move`` by ``position.to_move`` (turn not yet passed)."""
    return _HANDLERS[move.kind](position, move)


def _drop(position: Position, move: Move) -> Outcome:
    mover, at = position.to_move, move.target
    if position.hand(mover).count(move.code) == 0:
        return Refusal(f"{mover.title} has no {move.code} in hand")
    tower = position.towers[at.square]
    unit = Unit.of(move.code, mover)
    problem = (
        _territory_problem(position, mover, at)
        or _height_problem(tower, at, "a drop")
        or _drop_problem(position, tower, unit, at)
    )
    if problem:
        return Refusal(problem)
    dropped = position.with_towers({at.square: (*tower, unit)})
    dropped = dropped.with_hand(mover, dropped.hand(mover).remove(move.code))
    if position.rearrangement is not None:
        dropped = dataclasses.replace(dropped, rearrangement=None)
    if not dropped.arrangement_over and all(h.total == 0 for h in dropped.hands):
        dropped = dataclasses.replace(dropped, arrangement_over=True)
    return dropped


def _territory_problem(position: Position, mover: Colour, at: Spot) -> str | None:
    """Arrangement and rearrangement drops stay in the dropper's own three rows."""
    arranging = not position.arrangement_over
    if (arranging or position.rearrangement) and not mover.owns_row(at.row):
        rows = "6-8" if mover is Colour.BLACK else "0-2"
        when = "during the arrangement" if arranging else "in a forced rearrangement"
        return f"{when} {mover.title} drops only in its own territory (rows {rows})"
    return None


def _drop_problem(position: Position, tower: Tower, unit: Unit, at: Spot) -> str | None:
    mover = unit.colour
    arranging = not position.arrangement_over
    if position.rearrangement is not None and tower:
        return "a forced rearrangement goes on an empty square"
    if tower:
        problem = _drop_on_problem(tower[-1], unit, arranging)
        if problem:
            return problem
    if unit.face in (Face.PAWN, Face.BRONZE) and position.count_in_file(at.col, unit.face, mover):
        return f"{mover.title} already has a {unit.face.title} in file {at.col}"
    return _duplicate(tower, unit)


def _drop_on_problem(top: Unit, unit: Unit, arranging: bool) -> str | None:
    if top.face is Face.COMMANDER:
        return "nothing may be placed on a Commander"
    if unit.face in IMMOBILE:
        return f"a {unit.face.title} may only be dropped on an empty square"
    if not arranging and top.face not in LAND_LINK:
        return (
            f"after the arrangement a unit may only be dropped on an empty square or on a "
            f"Fortress, Catapult, Spy or Clandestinite, not on a {top.face.title}"
        )
    if top.face is Face.SPY and unit.face not in BACK_FACES:
        return "only units showing a back side (I E N L K X A Z V G) may be dropped on a Spy"
    if top.face is Face.CLANDESTINITE and unit.face not in FRONT_FACES:
        return "only units showing a front side may be dropped on a Clandestinite"
    return None


def _height_problem(tower: Tower, at: Spot, what: str) -> str | None:
    """Landing on top (not capturing): the tier must be the height, and the tower not full."""
    if len(tower) >= MAX_HEIGHT:
        return f"the tower on {at.square_name} already holds {MAX_HEIGHT} units"
    if at.tier != len(tower):
        return (
            f"tier mismatch: {at.square_name} holds {len(tower)} unit(s), so {what} "
            f"there lands on tier {len(tower)}, not {at.tier}"
        )
    return None


def _duplicate(tower: Tower, unit: Unit) -> str | None:
    if any(u.colour is unit.colour and u.face is unit.face for u in tower):
        return (
            f"the tower already holds a {unit.colour.title} {unit.face.title}: no tower may "
            "hold two allied units showing the same side"
        )
    return None


def _acting(position: Position, at: Spot, code: str, on_top: bool) -> Unit | Refusal:
    """The mover's unit the token names at ``at`` (VALIDATION.md A21, A28)."""
    mover, tower = position.to_move, position.towers[at.square]
    if at.tier >= len(tower):
        return Refusal(f"no unit on {at} ({at.square_name} holds {len(tower)} unit(s))")
    unit = tower[at.tier]
    if unit.code != code:
        return Refusal(f"the unit on {at} is {unit.colour.title}'s {unit.code}, not {code}")
    if unit.colour is not mover:
        return Refusal(f"the {code} on {at} belongs to {unit.colour.title}, not {mover.title}")
    if on_top and at.tier != len(tower) - 1:
        above = len(tower) - 1 - at.tier
        return Refusal(f"only the top unit may move: {above} unit(s) stand above {at}")
    return unit


def _move(position: Position, move: Move) -> Outcome:
    assert move.source is not None  # every move form with '<' has a source
    source, target = move.source, move.target
    unit = _acting(position, source, move.code, on_top=True)
    if isinstance(unit, Refusal):
        return unit
    tower = position.towers[target.square]
    top = tower[-1] if tower else None
    capture = top is not None and top.colour is not unit.colour
    problem = _landing_problem(position, move, unit, tower, capture)
    if problem:
        return Refusal(problem)
    below = tower[:-1] if capture else tower
    if capture and unit.face is Face.BRONZE:
        below = tuple(u.recoloured(unit.colour) for u in below)  # betrayal
    moved = position.with_towers(
        {source.square: position.towers[source.square][:-1], target.square: (*below, unit)}
    )
    if top is not None and capture:
        moved = moved.take(top, unit.colour)
    stuck = unit.face in FORCED_RECOVERY and not can_move_from(unit, target.square, target.tier)
    if stuck and not moved.game_over:
        recovery = Recovery(target.square, target.tier, capture)
        moved = dataclasses.replace(moved, recovery=recovery)
    return moved


def _landing_problem(
    position: Position, move: Move, unit: Unit, tower: Tower, capture: bool
) -> str | None:
    assert move.source is not None
    target = move.target
    if move.source.square == target.square:
        return "a move must leave its square"
    if unit.face in IMMOBILE:
        return f"a {unit.face.title} never moves"
    if move.kind is MoveKind.MOBILE_STRIKE and not capture:
        return f"'x' needs an enemy unit on top of {target.square_name}"
    if capture and target.tier != len(tower) - 1:
        return (
            f"tier mismatch: capturing the top of {target.square_name} ({len(tower)} unit(s)) "
            f"leaves the {unit.face.title} on tier {len(tower) - 1}, not {target.tier} "
            "(a move onto an enemy unit always captures it)"
        )
    if not capture:
        problem = _height_problem(tower, target, "a move")
        if problem:
            return problem
        if tower and tower[-1].face is Face.COMMANDER:
            return "nothing may be stacked on a Commander"
    if unit.face is Face.BRONZE:
        count = position.count_in_file(target.col, Face.BRONZE, unit.colour)
        if count - (move.source.col == target.col) > 0:  # the mover itself does not count
            return f"{unit.colour.title} already has a Bronze in file {target.col}"
    return _duplicate(tower[:-1] if capture else tower, unit)


def _immobile_strike(position: Position, move: Move) -> Outcome:
    assert move.source is not None
    source, tier = move.source, move.target.tier
    unit = _acting(position, source, move.code, on_top=False)
    if isinstance(unit, Refusal):
        return unit
    tower = position.towers[source.square]
    if unit.face is Face.FORTRESS:
        return Refusal("a Fortress cannot strike")
    if abs(source.tier - tier) != 1:
        return Refusal("an immobile strike hits the tier directly above or below the attacker")
    if tier >= len(tower):
        return Refusal(f"no unit on tier {tier} of {source.square_name}")
    victim = tower[tier]
    if victim.colour is unit.colour:
        return Refusal(f"the {victim.code} on tier {tier} is {unit.colour.title}'s own unit")
    struck = position.with_towers({source.square: tower[:tier] + tower[tier + 1 :]})
    return struck.take(victim, unit.colour)


def _recovery(position: Position, move: Move) -> Outcome:
    owed, at = position.recovery, move.target
    assert owed is not None  # replay() only routes +, ^ and = here while one is open
    if at.square != owed.square or at.tier != owed.tier:
        where = f"{square_name(owed.square)}-{owed.tier}"
        return Refusal(f"the open forced recovery concerns the unit on {where}, not {at}")
    tower = position.towers[at.square]
    unit = tower[at.tier]
    if unit.code != move.code:
        return Refusal(f"the unit on {at} is {unit.code}, not {move.code}")
    if move.kind is MoveKind.RECOVER_SELF and owed.captured:
        return Refusal("the move captured, so the recovered unit goes to the opponent: use ^")
    if move.kind is MoveKind.RECOVER_OPPONENT and not owed.captured:
        return Refusal("the move did not capture, so the unit returns to its owner: use +")
    decided = dataclasses.replace(position, recovery=None)
    if move.kind is MoveKind.NO_RECOVERY:
        return decided
    keeper = unit.colour if move.kind is MoveKind.RECOVER_SELF else unit.colour.other
    decided = decided.with_towers({at.square: tower[:-1]})
    return decided.with_hand(keeper, decided.hand(keeper).add(unit.code))


def _substitution(position: Position, move: Move) -> Outcome:
    assert move.source is not None
    source, target = move.source, move.target
    samurai = _acting(position, source, move.code, on_top=True)
    if isinstance(samurai, Refusal):
        return samurai
    if samurai.face is not Face.SAMURAI:
        return Refusal("only a Samurai may substitute for its Commander")
    tower = position.towers[target.square]
    commander = tower[target.tier] if target.tier < len(tower) else None
    if (
        commander is None
        or commander.face is not Face.COMMANDER
        or commander.colour is not samurai.colour
        or target.tier != len(tower) - 1
    ):
        return Refusal(f"{target} must hold {samurai.colour.title}'s Commander on top")
    if abs(source.col - target.col) + abs(source.row - target.row) != 1:
        return Refusal("the Samurai and its Commander must be orthogonally adjacent")
    problem = _duplicate(tower[:-1], samurai)
    if problem:
        return Refusal(problem)
    home = position.towers[source.square]
    return position.with_towers(
        {source.square: (*home[:-1], commander), target.square: (*tower[:-1], samurai)}
    )


def _tier_exchange(position: Position, move: Move) -> Outcome:
    assert move.source is not None
    source, tier = move.source, move.target.tier
    captain = _acting(position, source, move.code, on_top=False)
    if isinstance(captain, Refusal):
        return captain
    problem = _exchange_problem(position, captain, source, tier)
    if problem:
        return Refusal(problem)
    tower = position.towers[source.square]
    return position.with_towers({source.square: (tower[2], tower[1], tower[0])})


def _exchange_problem(position: Position, captain: Unit, source: Spot, tier: int) -> str | None:
    tower = position.towers[source.square]
    if captain.face is not Face.CAPTAIN:
        return "only a Captain may make a 1-3 tier exchange"
    if len(tower) != MAX_HEIGHT:
        return f"a 1-3 tier exchange needs a full tower; {source.square_name} holds {len(tower)}"
    if {source.tier, tier} != {0, 2}:
        return "a 1-3 tier exchange swaps tiers 0 and 2"
    partner = tower[tier]
    if partner.colour is not captain.colour:
        return f"the {partner.code} on tier {tier} is not {captain.colour.title}'s"
    if partner.face is Face.COMMANDER:
        return "the Commander cannot take part in a tier exchange"
    if tier == 0 and partner.face in IMMOBILE:
        return f"a {partner.face.title} may not be lifted to tier 2"
    if position.exchange_tower(captain.colour) == source.square:
        return f"{captain.colour.title} exchanged tiers in this tower on its previous turn"
    return None


_HANDLERS: dict[MoveKind, Callable[[Position, Move], Outcome]] = {
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

"""Immutable Gungi positions: 81 towers, two hands, whose turn, and what is still owed.

A site renders one page per ply, so the replay keeps every position. Positions are frozen
and share structure: a ply builds a new tuple of 81 tower references and the towers it
touched, never copies units, so a position costs about 2 KB beyond the one before it
(measured on the corpus).

Squares are numbered ``9 * row + col`` (col and row 0-8, as in the notation); a tower is a
tuple of :class:`~pgm.gungi_units.Unit` listed bottom to top, so ``tower[-1]`` is the top and
``tower[t]`` is the unit on tier ``t``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from pgm.gungi_units import CODES, START_HAND, Colour, Face, Unit

Tower = tuple[Unit, ...]
MAX_HEIGHT = 3
SIZE = 9


def square_of(col: int, row: int) -> int:
    return SIZE * row + col


def col_of(square: int) -> int:
    return square % SIZE


def row_of(square: int) -> int:
    return square // SIZE


def square_name(square: int) -> str:
    """``c-r``, as the notation and the JSON report name squares."""
    return f"{col_of(square)}-{row_of(square)}"


def on_board(col: int, row: int) -> bool:
    return 0 <= col < SIZE and 0 <= row < SIZE


@dataclass(frozen=True)
class Hand:
    """Units a side can drop, by code, in the canonical code order; no zero counts."""

    counts: tuple[tuple[str, int], ...] = ()

    @classmethod
    def starting(cls) -> Hand:
        return cls(START_HAND)

    def count(self, code: str) -> int:
        return dict(self.counts).get(code, 0)

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)

    def as_dict(self) -> dict[str, int]:
        return dict(self.counts)

    def add(self, code: str) -> Hand:
        return self._with(code, self.count(code) + 1)

    def remove(self, code: str) -> Hand:
        """One fewer ``code``; callers check :meth:`count` first."""
        return self._with(code, self.count(code) - 1)

    def _with(self, code: str, count: int) -> Hand:
        counts = dict(self.counts)
        counts[code] = count
        return Hand(tuple((c, counts[c]) for c in CODES if counts.get(c, 0) > 0))


@dataclass(frozen=True)
class Recovery:
    """A forced-recovery decision the mover owes before the turn can pass."""

    square: int
    tier: int
    captured: bool
    """Whether the move that opened it captured: that decides ``^`` (True) or ``+``."""


@dataclass(frozen=True)
class Position:
    towers: tuple[Tower, ...]
    """81 towers indexed by square; empty tuple for an empty square."""
    hands: tuple[Hand, Hand]
    """Black's hand, White's hand (use :meth:`hand`)."""
    to_move: Colour
    """Who plays the next ply: stays the mover while a recovery or rearrangement is owed."""
    arrangement_over: bool = False
    """True once all 46 units have been placed; until then only drops are legal."""
    captured: tuple[Unit, ...] = ()
    """Every captured unit as it stood on the board, oldest first (colour = its old owner)."""
    recovery: Recovery | None = None
    rearrangement: str | None = None
    """Code (``FL``/``TL``) the mover must drop in its territory after capturing a Lance."""
    exchange_towers: tuple[int | None, int | None] = (None, None)
    """Square of each side's tier exchange if that side's last turn was one (Black, White)."""
    winner: Colour | None = None
    """Set when a Commander is captured; the game is then over."""
    in_check: frozenset[Colour] = frozenset()
    """Sides whose Commander is attacked; only computed once the arrangement is over."""

    @classmethod
    def start(cls) -> Position:
        hand = Hand.starting()
        return cls(tuple(() for _ in range(SIZE * SIZE)), (hand, hand), Colour.BLACK)

    @property
    def game_over(self) -> bool:
        return self.winner is not None

    def hand(self, colour: Colour) -> Hand:
        return self.hands[_index(colour)]

    def top(self, square: int) -> Unit | None:
        tower = self.towers[square]
        return tower[-1] if tower else None

    def exchange_tower(self, colour: Colour) -> int | None:
        return self.exchange_towers[_index(colour)]

    def occupied(self) -> Iterator[tuple[int, Tower]]:
        """Squares with at least one unit, in square order."""
        return ((sq, t) for sq, t in enumerate(self.towers) if t)

    def find(self, face: Face, colour: Colour) -> Iterator[tuple[int, int]]:
        """(square, tier) of every ``colour`` unit showing ``face``."""
        for square, tower in self.occupied():
            for tier, unit in enumerate(tower):
                if unit.face is face and unit.colour is colour:
                    yield square, tier

    def count_in_file(self, col: int, face: Face, colour: Colour) -> int:
        """How many ``colour`` units show ``face`` in file ``col`` (the Pawn/Bronze rules)."""
        return sum(
            unit.face is face and unit.colour is colour
            for row in range(SIZE)
            for unit in self.towers[square_of(col, row)]
        )

    # -- building the next position ------------------------------------------------------

    def with_towers(self, changes: Mapping[int, Tower]) -> Position:
        towers = list(self.towers)
        for square, tower in changes.items():
            towers[square] = tower
        return dataclasses.replace(self, towers=tuple(towers))

    def with_hand(self, colour: Colour, hand: Hand) -> Position:
        hands = list(self.hands)
        hands[_index(colour)] = hand
        return dataclasses.replace(self, hands=(hands[0], hands[1]))

    def with_exchange(self, colour: Colour, square: int | None) -> Position:
        towers = list(self.exchange_towers)
        towers[_index(colour)] = square
        return dataclasses.replace(self, exchange_towers=(towers[0], towers[1]))

    def take(self, unit: Unit, captor: Colour) -> Position:
        """Account for ``unit`` captured by ``captor`` (the board is updated by the caller).

        The unit turns over and joins the captor's hand. A captured Commander has no
        other side and goes to no hand: the captor wins. A captured Lance comes back as a
        Fortress or Catapult that the captor must place at once (forced rearrangement).
        """
        taken = dataclasses.replace(self, captured=(*self.captured, unit))
        if unit.face is Face.COMMANDER:
            return dataclasses.replace(taken, winner=captor)
        code = unit.flipped().code
        taken = taken.with_hand(captor, taken.hand(captor).add(code))
        if unit.face is Face.LANCE:
            taken = dataclasses.replace(taken, rearrangement=code)
        return taken


def _index(colour: Colour) -> int:
    return 0 if colour is Colour.BLACK else 1

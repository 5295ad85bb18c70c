"""The nine move forms of the .gn notation: their record types and the grammar of one token.

A ply token is read on its own, without any game state, so that :mod:`pgm.gn` can report
a malformed token at its exact column and the replay (:mod:`pgm.gungi`) only ever sees
well-formed moves. Whether the move is *possible* is the replay's business.

=====================  =======================  =========================================
kind (``MoveKind``)    written as               ``source`` / ``target``
=====================  =======================  =========================================
``move``               ``U<c-r-t>c-r-t``        from / to
``drop``               ``U*c-r-t``              None / where it lands
``mobile_strike``      ``U<c-r-txc-r-t``        attacker / captured unit's place
``immobile_strike``    ``U<c-r-txt``            attacker / captured unit (same square)
``recover_self``       ``U+c-r-t``              None / the unit lifted to the mover's hand
``recover_opponent``   ``U^c-r-t``              None / the unit lifted to the other hand
``no_recovery``        ``U=c-r-t``              None / the unit that stays
``substitution``       ``U<c-r-t&c-r-t``        Samurai / Commander
``tier_exchange``      ``U<c-r-t&t``            Captain / partner (same square)
=====================  =======================  =========================================

The two single-square forms (immobile strike, tier exchange) are stored with a full
``target`` on the source square so that every move has the same shape.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from pgm.gungi_units import CODES, START_HAND, Face, normalise_code


class MoveKind(enum.Enum):
    """The nine forms; the values are the stable names used in JSON reports."""

    MOVE = "move"
    DROP = "drop"
    MOBILE_STRIKE = "mobile_strike"
    IMMOBILE_STRIKE = "immobile_strike"
    RECOVER_SELF = "recover_self"
    RECOVER_OPPONENT = "recover_opponent"
    NO_RECOVERY = "no_recovery"
    SUBSTITUTION = "substitution"
    TIER_EXCHANGE = "tier_exchange"

    @property
    def is_recovery_decision(self) -> bool:
        """``+``, ``^`` and ``=``: the only plies allowed while a recovery is open."""
        return self in _RECOVERY_DECISIONS


_RECOVERY_DECISIONS = frozenset(
    {MoveKind.RECOVER_SELF, MoveKind.RECOVER_OPPONENT, MoveKind.NO_RECOVERY}
)


@dataclass(frozen=True)
class Spot:
    """A place in a tower: column and row 0-8, tier 0-2 (0 = bottom), as written."""

    col: int
    row: int
    tier: int

    @property
    def square(self) -> int:
        """Board index 0-80 (9 * row + col), the key of :attr:`Position.towers`."""
        return 9 * self.row + self.col

    @property
    def square_name(self) -> str:
        """``c-r``, the square naming of the notation and of the JSON report."""
        return f"{self.col}-{self.row}"

    def __str__(self) -> str:
        return f"{self.col}-{self.row}-{self.tier}"


@dataclass(frozen=True)
class Move:
    """One ply's instruction, exactly as the token states it."""

    kind: MoveKind
    code: str
    """Upper-case unit code of the acting unit (the mover, dropper or recovered unit)."""
    target: Spot
    source: Spot | None = None
    """Where the acting unit stands; None for drops and recovery decisions."""


_SQ = r"[0-9]+-[0-9]+-[0-9]+"
_TOKEN = re.compile(
    rf"""(?P<unit>[A-Za-z][A-Za-z-])
    (?: (?P<op>[*+^=])(?P<at>{_SQ})
      | <(?P<src>{_SQ})
        (?: >(?P<to>{_SQ})
          | [xX](?P<strike>{_SQ})
          | [xX](?P<strike_tier>[0-9]+)
          | &(?P<swap>{_SQ})
          | &(?P<swap_tier>[0-9]+) ) )""",
    re.VERBOSE,
)
_SINGLE = {
    "*": MoveKind.DROP,
    "+": MoveKind.RECOVER_SELF,
    "^": MoveKind.RECOVER_OPPONENT,
    "=": MoveKind.NO_RECOVERY,
}
_DOUBLE = {"to": MoveKind.MOVE, "strike": MoveKind.MOBILE_STRIKE, "swap": MoveKind.SUBSTITUTION}
_TIER_ONLY = {"strike_tier": MoveKind.IMMOBILE_STRIKE, "swap_tier": MoveKind.TIER_EXCHANGE}
FORMS_HINT = (
    "U*c-r-t, U<c-r-t>c-r-t, U<c-r-txc-r-t, U<c-r-txt, U+c-r-t, U^c-r-t, U=c-r-t, "
    "U<c-r-t&c-r-t or U<c-r-t&t"
)


@dataclass(frozen=True)
class TokenError:
    """Why a token is not a ply, and the 0-based offset in the token to point at."""

    message: str
    offset: int = 0


def parse_token(token: str) -> Move | TokenError:
    """Read one ply token; never raises."""
    match = _TOKEN.fullmatch(token)
    if match is None:
        return TokenError(f"cannot read {shown(token)} as a ply; the forms are {FORMS_HINT}")
    code = normalise_code(match["unit"])
    if code is None:
        return TokenError(_bad_code_message(match["unit"]))
    if match["op"]:
        at = _spot(match, "at")
        return at if isinstance(at, TokenError) else Move(_SINGLE[match["op"]], code, at)
    source = _spot(match, "src")
    if isinstance(source, TokenError):
        return source
    for group, kind in _DOUBLE.items():
        if match[group]:
            target = _spot(match, group)
            if isinstance(target, TokenError):
                return target
            return Move(kind, code, target, source)
    for group, kind in _TIER_ONLY.items():
        if match[group]:
            tier = _number(match[group], match.start(group), "tier", 2)
            if isinstance(tier, TokenError):
                return tier
            return Move(kind, code, Spot(source.col, source.row, tier), source)
    return TokenError(f"cannot read {shown(token)} as a ply")  # unreachable: no other branch


def clip(text: str, limit: int = 40) -> str:
    """Input echoed in a message, cut short so that a huge word cannot flood the report."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(token: str) -> str:
    return repr(clip(token))


def _bad_code_message(unit: str) -> str:
    if unit[1] == "-":
        return f"unknown unit code {unit!r}: only the Commander (O-) has no back side"
    near = [code for code in CODES if code[0] == unit[0].upper() or code[1] == unit[1].upper()]
    named = "; ".join(f"{code}: {_faces(code)}"
                      for code in near or [code for code, _count in START_HAND])
    return (f"unknown unit code {unit!r}: a code is the side shown, then the side on its "
            f"back ({named})")


def _faces(code: str) -> str:
    """``Samurai, back Pike``: what a code's two letters stand for."""
    shown, back = Face(code[0]), code[1]
    return shown.title if back == "-" else f"{shown.title}, back {Face(back).title}"


def _spot(match: re.Match[str], group: str) -> Spot | TokenError:
    """The ``c-r-t`` in ``group``, range-checked number by number."""
    start = match.start(group)
    parts: list[int] = []
    numbers = match[group].split("-")
    for text, what, highest in zip(numbers, ("column", "row", "tier"), (8, 8, 2), strict=True):
        value = _number(text, start, what, highest)
        if isinstance(value, TokenError):
            return value
        parts.append(value)
        start += len(text) + 1
    return Spot(*parts)


def _number(text: str, offset: int, what: str, highest: int) -> int | TokenError:
    """A single-digit coordinate; tiers stop at 2 because towers hold three units."""
    if len(text) > 1 or int(text) > highest:
        extra = " (a tower holds at most 3 units)" if what == "tier" else ""
        return TokenError(f"{what} {text} is out of range 0-{highest}{extra}", offset)
    return int(text)

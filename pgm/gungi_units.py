"""Gungi units: colours, faces and the two-letter codes of the .gn notation.

The reader (:mod:`pgm.gn`) needs the codes to reject a token such as ``QZ``, and the replay
(:mod:`pgm.gungi`) needs faces and colours to move units around, so this vocabulary lives
apart from both and imports neither.

A unit is written face-up letter first, hidden letter second (``YN`` = Spy showing,
Clandestinite hidden); ``-`` marks the Commander's missing back (``O-``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Colour(enum.Enum):
    """The two sides. Black moves first and owns rows 6-8; White owns rows 0-2."""

    BLACK = "black"
    WHITE = "white"

    @property
    def other(self) -> Colour:
        return Colour.WHITE if self is Colour.BLACK else Colour.BLACK

    @property
    def title(self) -> str:
        """``Black`` / ``White``, for sentences."""
        return self.value.capitalize()

    @property
    def letter(self) -> str:
        """``b`` / ``w``, the prefix of a unit label such as ``b:PZ``."""
        return self.value[0]

    @property
    def forward(self) -> int:
        """Row step that points toward the enemy (White +1, Black -1)."""
        return 1 if self is Colour.WHITE else -1

    def owns_row(self, row: int) -> bool:
        """Whether ``row`` is in this side's territory (where arrangement drops go)."""
        return row <= 2 if self is Colour.WHITE else row >= 6


class Face(enum.Enum):
    """The 20 unit sides. Member names match the keys of ``movesets.json``."""

    ARROW = "A"
    BOW = "B"
    BRONZE = "Z"
    CAPTAIN = "C"
    CATAPULT = "T"
    CLANDESTINITE = "N"
    COMMANDER = "O"
    DRAGON_KING = "K"
    FORTRESS = "F"
    GOLD = "G"
    HIDDEN_DRAGON = "H"
    LANCE = "L"
    PAWN = "P"
    PHOENIX = "X"
    PIKE = "E"
    PISTOL = "I"
    PRODIGY = "R"
    SAMURAI = "S"
    SILVER = "V"
    SPY = "Y"

    @property
    def title(self) -> str:
        """``Hidden Dragon`` etc., for sentences."""
        return self.name.replace("_", " ").title()


FRONT_FACES = frozenset(Face(c) for c in "OCSYTFHRBP")
"""Sides printed on the front of a unit; only these may be dropped on a Clandestinite."""
BACK_FACES = frozenset(Face(c) for c in "IENLKXAZVG")
"""Sides printed on the back; only these may be dropped on a Spy."""
LAND_LINK = frozenset({Face.FORTRESS, Face.CATAPULT, Face.SPY, Face.CLANDESTINITE})
"""After the arrangement a drop onto an occupied square needs one of these on top."""
JUMPERS = frozenset({Face.BOW, Face.SPY, Face.CLANDESTINITE})
"""Faces whose moves pass over occupied squares."""
FORCED_RECOVERY = frozenset({Face.PAWN, Face.SPY, Face.LANCE})
"""Faces that may be lifted off the board when they land where they cannot move again."""
IMMOBILE = frozenset({Face.FORTRESS, Face.CATAPULT})
"""Faces with empty move sets that may never stand on another unit."""
EXPANSION_IMMUNE = frozenset(
    {Face.PRODIGY, Face.HIDDEN_DRAGON, Face.COMMANDER, Face.PHOENIX, Face.DRAGON_KING}
)
"""Faces that gain nothing from a Fortress or Catapult zone."""

CODES: tuple[str, ...] = (
    "PZ", "ZP", "PV", "VP", "PG", "GP", "BA", "AB", "RX", "XR", "HK", "KH",
    "FL", "LF", "TL", "LT", "YN", "NY", "SE", "ES", "CI", "IC", "O-",
)  # fmt: skip
"""The 23 codes that can ever occur: the starting hand plus every unit flipped."""

START_HAND: tuple[tuple[str, int], ...] = (
    ("PZ", 7), ("PV", 1), ("PG", 1), ("BA", 2), ("RX", 1), ("HK", 1),
    ("FL", 1), ("TL", 1), ("YN", 3), ("SE", 2), ("CI", 2), ("O-", 1),
)  # fmt: skip
"""Each side's 23 units before the arrangement, all showing their front."""


def normalise_code(text: str) -> str | None:
    """The canonical (upper-case) code for ``text``, or None if no unit has that code.

    Lower case is accepted because the reference decoder upper-cases identifiers.
    """
    code = text.upper()
    return code if code in CODES else None


@dataclass(frozen=True)
class Unit:
    """One physical unit: its owner and the side it is showing."""

    colour: Colour
    """Who controls it now (capture and betrayal change this)."""
    face: Face
    """The side showing; this is what moves and what the rules look at."""
    back: Face | None
    """The hidden side; None only for the Commander."""

    @classmethod
    def of(cls, code: str, colour: Colour) -> Unit:
        """The unit a valid code (see :data:`CODES`) denotes for ``colour``."""
        back = None if code[1] == "-" else Face(code[1])
        return cls(colour, Face(code[0]), back)

    @property
    def code(self) -> str:
        return self.face.value + (self.back.value if self.back else "-")

    @property
    def label(self) -> str:
        """Colour and code, e.g. ``b:PZ``: the form the JSON report uses."""
        return f"{self.colour.letter}:{self.code}"

    def flipped(self) -> Unit:
        """The same unit turned over, as happens on capture (the Commander cannot turn)."""
        if self.back is None:
            return self
        return Unit(self.colour, self.back, self.face)

    def recoloured(self, colour: Colour) -> Unit:
        return Unit(colour, self.face, self.back)

"""How a Gungi game ends: a captured Commander, checkmate, or the same position four times.

:class:`Referee` watches a replay turn by turn and names the ply that ended the game.
Checkmate and repetition are found by pgm's own reading of the rules, so what it finds
only ever leads to *warnings* (a Result tag that disagrees, plies played after the end):
the replay never refuses a ply because of it. A Commander captured in plies played after
them is a fact of the record, and it decides the game: the Result must agree with it.

Readings (RULES.md §4 and §9 mark them AMBIGUOUS or CONFLICT):

- Check and checkmate are looked for only once the initial arrangement is over, as for
  check itself: the reference engine's checkmates after 45 of 46 drops are library
  behaviour. A checkmate by the arrangement's last drop counts (scenario_two).
- Checkmate is judged when a turn is over (after a forced-recovery decision or a
  rearrangement drop, not before it), and only when the side to move is in check: there
  is no stalemate rule.
- Foul play (RULES.md §9, CONFLICT): a checkmate by a Pawn drop, or with a Bronze, does
  not end the game. The engine refuses such plies and the written rules make them a
  loss "if called out", so neither ends the game by checkmate there: it is a warning,
  and the game goes on. "With a Bronze" is read as the written rules say it, a turn
  whose ply is a Bronze's (move, strike or drop); the engine checks Bronze drops only.
- Repetition (RULES.md §9, AMBIGUOUS): the fourth time the same position stands at the
  start of a turn, anywhere in the game, draws it. That is the majority: the engine
  counts every occurrence (``k_MAX_POSITION_REPETITIONS = 4``) and VALIDATION.md says
  four occurrences, where the written rules say "four times in a row". A position is
  every tower, unit by unit with its owner and both sides, both hands, and the side to
  move (VALIDATION.md part B; the engine's own comparison, face-up letters only, never
  matches). Checkmate comes first, as in the engine.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

from pgm.gn import Result
from pgm.gn_moves import Move, MoveKind
from pgm.gungi_escape import can_escape
from pgm.gungi_position import Position
from pgm.gungi_units import Colour, Face, Unit

REPETITIONS = 4
"""The occurrence of one position that draws the game (RULES.md §9)."""


class EndKind(enum.Enum):
    """How the game ended; the values are the names ``pgm check --json`` uses."""

    COMMANDER_CAPTURED = "commander_captured"
    CHECKMATE = "checkmate"
    REPETITION = "repetition"


@dataclass(frozen=True)
class GameEnd:
    ply: int
    """The number (from 1) of the ply after which the game is over."""
    line: int
    """That ply's line in the record."""
    kind: EndKind
    winner: Colour | None
    """None for a draw."""

    @property
    def result(self) -> Result:
        """The Result tag the ending calls for."""
        if self.winner is None:
            return Result.DRAW
        return Result.BLACK_WON if self.winner is Colour.BLACK else Result.WHITE_WON

    @property
    def words(self) -> str:
        """E.g. "checkmate: Black wins", for the middle of a sentence."""
        if self.winner is None:
            return "draw by repetition"
        if self.kind is EndKind.CHECKMATE:
            return f"checkmate: {self.winner.title} wins"
        return f"{self.winner.title} captured the Commander and wins"

    @property
    def status(self) -> str:
        """The line a page shows for the position the game ended in."""
        if self.winner is None:
            return ("Draw by repetition: this position (the same towers, hands and side to "
                    f"move) occurs for the {_ordinal(REPETITIONS)} time.")
        if self.kind is EndKind.CHECKMATE:
            return (f"Checkmate: {self.winner.other.title} is in check and no ply ends it. "
                    f"{self.winner.title} wins.")
        return f"{self.winner.title} captured the Commander and wins."

    @property
    def account(self) -> str:
        """What ended the game and where, for a diagnostic about the Result tag."""
        where = f"ply {self.ply} (line {self.line})"
        if self.winner is None:
            return (f"the position after {where} occurs for the {_ordinal(REPETITIONS)} "
                    "time, a draw by repetition")
        if self.kind is EndKind.CHECKMATE:
            return f"{self.winner.title} checkmates {self.winner.other.title} with {where}"
        return f"{self.winner.title} captured the Commander with {where}"


def _ordinal(n: int) -> str:
    return {2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")


def position_key(position: Position) -> Hashable:
    """What makes two positions the same for the repetition rule."""
    return position.towers, position.hands, position.to_move


class Referee:
    """Follows one replay and says after which ply, if any, the game ended.

    Give it every ply in order with :meth:`after`. Once it has named a checkmate or a
    repetition it only looks for a captured Commander: a record may play on after what
    pgm's reading found (the replay reports those plies), and a capture there is a fact
    of the record that decides the game all the same.
    """

    def __init__(self, start: Position) -> None:
        self.seen: Counter[Hashable] = Counter()
        self.found: GameEnd | None = None
        """The checkmate or repetition named, if any; after it only a capture counts."""
        self.turn_move: Move | None = None
        """The first ply of the turn being played (a forced recovery adds a second)."""
        if start.arrangement_over and start.recovery is None and start.rearrangement is None:
            self.seen[position_key(start)] += 1

    def after(self, before: Position, after: Position, move: Move, number: int, line: int
              ) -> tuple[GameEnd | None, list[str]]:
        """The ending ply ``number`` brings, if any, and warnings about foul play."""
        mover = before.to_move
        if before.recovery is None and before.rearrangement is None:
            self.turn_move = move
        if after.winner is not None:
            return GameEnd(number, line, EndKind.COMMANDER_CAPTURED, after.winner), []
        if self.found is not None:
            return None, []  # a ply after the end: the replay warns about it
        self.found, warnings = self._judge(after, move, mover, number, line)
        return self.found, warnings

    def _judge(self, after: Position, move: Move, mover: Colour, number: int, line: int
               ) -> tuple[GameEnd | None, list[str]]:
        """Checkmate or repetition once ``mover``'s turn is over, and foul-play warnings."""
        if after.to_move is mover or not after.arrangement_over:
            return None, []  # the turn goes on, or the arrangement does
        warnings: list[str] = []
        if after.to_move in after.in_check and not can_escape(after):
            foul = _foul(self.turn_move or move, mover)
            if foul is None:
                return GameEnd(number, line, EndKind.CHECKMATE, mover), []
            warnings.append(
                f"{after.to_move.title} is in check and no ply ends it, but {foul} is foul "
                "play, so this checkmate does not end the game")
        key = position_key(after)
        self.seen[key] += 1
        if self.seen[key] == REPETITIONS:
            return GameEnd(number, line, EndKind.REPETITION, None), warnings
        return None, warnings


def _foul(move: Move, mover: Colour) -> str | None:
    """What is forbidden about mating with ``move`` (a turn's first ply), or None."""
    face = Unit.of(move.code, mover).face
    if move.kind is MoveKind.DROP and face is Face.PAWN:
        return "a checkmate by a Pawn drop"
    if face is Face.BRONZE:  # only moves, strikes and drops are ever made by a Bronze
        return "a checkmate with a Bronze"
    return None

"""Gungi replay: a :class:`~pgm.gn.GnRecord` to one immutable position per ply, plus diagnostics.

Layers: :mod:`pgm.gn` reads text into a record; this module walks the record's plies,
checks turn order and pending obligations (VALIDATION.md A2, A6), hands each ply to
:mod:`pgm.gungi_plies` (part A: can it be applied at all?) and asks :mod:`pgm.gungi_rules`
about movement and check (part B). A part-A problem is an **error**: the replay stops
there and keeps every position before it. A part-B problem is a **warning** and the replay
goes on, because the record still says what was played.

Rule readings the corpus needs (RULES.md §2, §4, §9):

- Black plays the first ply. ``N.`` says Black plays the group's first ply, ``N...`` White;
  the second ply of a group is played by whoever is to move. The turn passes after every
  ply except one that leaves a forced recovery or rearrangement owed: the same player then
  plays again (authored__2, groups 28-32).
- The arrangement ends when all 46 units are on the board; there is no marker for it.
  Check is only looked for after that: the reference engine's checkmates during the
  arrangement (scenario_one after 45 drops) are library behaviour, not RULES.md.
- The game ends when a Commander is captured, at checkmate, or when the same position
  occurs for the fourth time (:mod:`pgm.gungi_ending` says how those are read). A
  captured Commander is a fact of the record: the Result tag must agree (an error) and no
  ply may follow (an error that stops the replay). Checkmate and repetition are found by
  pgm's reading of the rules, so a Result that disagrees with them and plies after them
  are warnings, and the replay goes on; a Commander captured in those plies decides the
  game all the same (the Result must agree with the capture). Foul-play losses and
  resignations are not detected: a decided Result on a game with no ending found is
  taken as written.
- A player may leave its own Commander attacked (RULES.md is silent): this is a warning,
  the replay continues (authored__1, ply 48).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from pgm import gn
from pgm.diagnostics import Diagnostic, DiagnosticSink
from pgm.gn import GnRecord, Ply, Result
from pgm.gn_moves import Move, MoveKind
from pgm.gungi_ending import EndKind, GameEnd, Referee
from pgm.gungi_plies import Refusal, apply
from pgm.gungi_position import Position, square_name
from pgm.gungi_rules import in_check, reach_problem
from pgm.gungi_units import Colour, Face


@dataclass(frozen=True)
class GungiReplay:
    record: GnRecord
    start: Position
    """Before the first ply: empty board, full hands, Black to move (unless set up)."""
    positions: tuple[Position, ...]
    """The position after each replayed ply: ``positions[i]`` follows ``record.plies[i]``."""
    diagnostics: tuple[Diagnostic, ...]
    """The reader's diagnostics and the replay's, in the order of their places in the
    file: a build lists them as ``pgm check`` does."""
    stopped_at: int | None
    """Index of the ply refused by an error, or None if every playable ply was replayed."""
    end: GameEnd | None = None
    """How the game ended, which its Result must say, or None while it has not: a captured
    Commander, else the checkmate or repetition pgm found."""
    overruled: GameEnd | None = None
    """A checkmate or repetition pgm found before a Commander was captured in the plies
    played after it: the game was first over there, and the capture (``end``) decides it."""

    @property
    def first_end(self) -> GameEnd | None:
        """The ply after which the game was first over, for the pages' account of it."""
        return self.overruled or self.end

    @property
    def final(self) -> Position:
        return self.positions[-1] if self.positions else self.start

    @property
    def stopped_line(self) -> int | None:
        """The line of the error that stopped the replay: a ply that cannot be played,
        or a reading error after which the plies cannot be trusted; None if none did."""
        if self.stopped_at is not None:
            return self.record.plies[self.stopped_at].line
        return self.record.cut_line

    def before(self, index: int) -> Position:
        """The position ply ``index`` was played from."""
        return self.positions[index - 1] if index > 0 else self.start


def load(data: bytes | str, path: str) -> GungiReplay:
    """Read and replay a .gn file in one step."""
    return replay(gn.parse(data, path))


def replay(record: GnRecord, start: Position | None = None) -> GungiReplay:
    """Replay ``record`` from the empty board, or from ``start`` (a set-up position)."""
    sink = DiagnosticSink(record.path)
    start = start or Position.start()
    if start.arrangement_over:
        start = dataclasses.replace(start, in_check=in_check(start))
    position = turn_start = start
    positions: list[Position] = []
    stopped: int | None = None
    referee, end, overruled = Referee(start), None, None
    late: list[Ply] = []
    for index, ply in enumerate(record.plies[: record.playable]):
        after = step(position, ply)
        if isinstance(after, Refusal):
            sink.error(ply.line, f"{ply.notation}: {after.message}", ply.column)
            stopped = index
            break
        found = _warnings(position, after, ply.move, turn_start)
        ending, fouls = referee.after(position, after, ply.move, index + 1, ply.line)
        found += fouls
        if end is not None:
            late.append(ply)
        if ending is not None:  # after a checkmate or repetition, only a capture
            overruled, end = end, ending
        for warning in found:
            sink.warning(ply.line, f"{ply.notation}: {warning}", ply.column)
        if after.to_move is not position.to_move:
            turn_start = after
        positions.append(after)
        position = after
    if late and end is not None:
        _warn_late(late, overruled or end, sink)
    if stopped is None:
        _check_result(record, end, overruled, sink)
    diagnostics = tuple(sorted(record.diagnostics + tuple(sink.items),
                               key=lambda d: (d.line, d.column or 0)))
    return GungiReplay(record, start, tuple(positions), diagnostics, stopped, end, overruled)


def step(position: Position, ply: Ply) -> Position | Refusal:
    """The position after one ply, or the part-A rule it breaks (no part-B checks here).

    This is everything :func:`replay` does per ply except collecting warnings.
    """
    problem = _turn_problem(position, ply)
    after = Refusal(problem) if problem else apply(position, ply.move)
    return after if isinstance(after, Refusal) else _pass_turn(position, after, ply.move)


def _turn_problem(position: Position, ply: Ply) -> str | None:
    """Turn order and owed decisions (VALIDATION.md A2.9-10, A3.14, A6.32, A13)."""
    mover, move = position.to_move, ply.move
    if position.winner is not None:
        return f"the game is over: {position.winner.title} captured the Commander"
    if ply.opens is not None and ply.opens.first_mover is not mover:
        first, group = ply.opens.first_mover.title, f"{ply.group}{ply.opens.value}"
        return f"{group} means {first} plays first, but {mover.title} is to move"
    if position.rearrangement is not None:
        if move.kind is not MoveKind.DROP or move.code != position.rearrangement:
            code = position.rearrangement
            return f"{mover.title} must first drop the captured Lance as {code} (rearrangement)"
    elif position.recovery is not None:
        if not move.kind.is_recovery_decision:
            where = square_name(position.recovery.square)
            return f"{mover.title} must first decide the forced recovery on {where} (+, ^ or =)"
    elif move.kind.is_recovery_decision:
        return "no forced recovery is open: +, ^ and = only follow the move that opened one"
    if not position.arrangement_over and move.kind is not MoveKind.DROP:
        return "only drops are allowed until all 46 units are placed (initial arrangement)"
    return None


def _pass_turn(before: Position, after: Position, move: Move) -> Position:
    mover = before.to_move
    owes = after.recovery is not None or after.rearrangement is not None
    exchanged = move.target.square if move.kind is MoveKind.TIER_EXCHANGE else None
    after = dataclasses.replace(after, to_move=mover if owes else mover.other)
    after = after.with_exchange(mover, exchanged)
    if after.arrangement_over:
        after = dataclasses.replace(after, in_check=in_check(after))
    return after


def _warnings(before: Position, after: Position, move: Move, turn_start: Position) -> list[str]:
    """Part-B findings for one applied ply."""
    mover = before.to_move
    found: list[str] = []
    if move.kind in (MoveKind.MOVE, MoveKind.MOBILE_STRIKE) and move.source is not None:
        problem = reach_problem(before, move.source.square, move.source.tier, move.target.square)
        if problem:
            found.append(problem)
    if move.kind is MoveKind.SUBSTITUTION and mover not in before.in_check:
        found.append("a Samurai may substitute for its Commander only while it is in check")
    if move.kind is MoveKind.TIER_EXCHANGE and mover in before.in_check:
        found.append("a 1-3 tier exchange is not allowed while in check")
    turn_over = after.to_move is not mover
    if turn_over and after.arrangement_over and mover in after.in_check:
        found.append(_self_check(mover, turn_start, after))
    return found


def _self_check(mover: Colour, turn_start: Position, after: Position) -> str:
    if mover in turn_start.in_check:
        return f"{mover.title} is still in check after its turn (a player in check must end it)"
    if set(turn_start.find(Face.COMMANDER, mover)) != set(after.find(Face.COMMANDER, mover)):
        return f"{mover.title}'s Commander moves into check"
    return (
        f"{mover.title} left own Commander attacked (the written rules allow it; as in chess, "
        "players treat it as illegal)"
    )


def _warn_late(late: list[Ply], end: GameEnd, sink: DiagnosticSink) -> None:
    """Plies after a checkmate or repetition: one warning, at the first, saying how many
    follow it (after a captured Commander a ply cannot be played at all)."""
    first, more = late[0], len(late) - 1
    message = f"{first.notation}: played after the game ended with ply {end.ply} ({end.words})"
    if more:
        plies = f"{more} pl{'ies' if more > 1 else 'y'}"
        message += f", and so {'are' if more > 1 else 'is'} the {plies} after it " \
                   f"(to line {late[-1].line})"
    sink.warning(first.line, message, first.column)


def _check_result(record: GnRecord, end: GameEnd | None, overruled: GameEnd | None,
                  sink: DiagnosticSink) -> None:
    """The Result tag against the game's end (VALIDATION.md A10.50, part B). A result
    still ``*`` is one not filled in yet (a game entered while it is played): a warning.
    A decided result that disagrees is an error after a captured Commander, also one
    captured after the ``overruled`` checkmate or repetition, and a warning after a
    checkmate or repetition, which pgm's reading of the rules found."""
    tag = record.tag("Result")
    if end is None or tag is None or record.result is None or record.result is end.result:
        return
    expected = end.result.value
    if record.result is Result.UNFINISHED:
        sink.warning(tag.line, f'Result "*", but {end.account}: the game is over, and its '
                               f'result is "{expected}"', tag.column)
        return
    message = f'Result "{tag.value}" disagrees with the game: {end.account}, so it should ' \
              f'be "{expected}"'
    if overruled is not None:
        message += f"; the capture decides the game, even after {overruled.account}"
    if end.kind is EndKind.COMMANDER_CAPTURED:
        sink.error(tag.line, message, tag.column)
    else:
        sink.warning(tag.line, message, tag.column)

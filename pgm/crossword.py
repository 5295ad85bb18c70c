"""Replay a GCG record: the position after every event, with scores checked on the board.

A recorded score that disagrees with the board is a warning at its line and the replay
goes on with the recorded figures (annotators' totals are what the players signed).
A play that cannot be placed is an error: the replay stops there and keeps every
position before it, so a site can still show the game up to the problem.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from pgm.board import parse_coordinate
from pgm.crossword_model import CrosswordGame, Position, Turn, board_counts
from pgm.crossword_racks import with_known_racks
from pgm.crossword_rules import Rules, choose_rules
from pgm.diagnostics import DiagnosticSink
from pgm.gcg import Event, EventKind, GcgRecord
from pgm.scoring import (
    RACK_SIZE,
    Cells,
    PlacementError,
    ScoredPlay,
    place_play,
    touches_tiles,
)
from pgm.tiles import BLANK, UNKNOWN, TileError, rack_label

MAX_SCORELESS_TURNS = 6


def recorded_totals(sink: DiagnosticSink, event: Event, player: int,
                    scores: tuple[int, ...]) -> tuple[int, ...]:
    """The scores after ``event``: the recorded total, checked against the previous total
    plus the event's score (a mismatch is a warning; the record's figure is kept). Shared
    by every GCG-based replay."""
    expected = scores[player] + event.score
    if expected != event.cumulative:
        sink.warning(event.line, f"cumulative score is {event.cumulative}, but "
                                 f"{scores[player]} {event.score:+d} = {expected}")
    updated = list(scores)
    updated[player] = event.cumulative
    return tuple(updated)


class _StopReplay(Exception):
    pass


@dataclass
class _Replay:
    record: GcgRecord
    rules: Rules
    sink: DiagnosticSink
    turns: list[Turn] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.start_position = self.start()
        """Kept for a withdrawal of the very first play, which returns to it."""

    @property
    def players(self) -> int:
        return max(len(self.record.players), 1)

    def start(self) -> Position:
        n = self.players
        sizes = [0] * n
        bag = self.rules.distribution.total
        for seat in range(n):
            sizes[seat] = min(RACK_SIZE, bag)
            bag -= sizes[seat]
        size = self.rules.layout.size
        return Position(("",) * (size * size), (0,) * n, 0, 0, bag, tuple(sizes))

    def run(self) -> tuple[Position, int | None]:
        position = start = self.start_position
        self._check_stated_racks(self.record.initial_racks, start)
        for number, event in enumerate(self.record.events, start=1):
            try:
                turn = self._event(number, event, position)
            except _StopReplay:
                return start, event.line
            self.turns.append(turn)
            position = turn.position
            self._check_stated_racks(event.racks_after, position)
        return start, None

    def _check_stated_racks(self, racks: tuple[tuple[int, str, int], ...],
                            position: Position) -> None:
        for _seat, text, line in racks:
            rack = self._rack(Event(line, EventKind.PASS, "", text, 0, 0))
            self._check_supply(line, position.cells, rack)

    # -- one event ---------------------------------------------------------------------

    def _event(self, number: int, event: Event, before: Position) -> Turn:
        player = self._player(event, before)
        rack = self._rack(event)
        handler = {
            EventKind.PLAY: self._play, EventKind.PASS: self._pass,
            EventKind.EXCHANGE: self._exchange, EventKind.WITHDRAWAL: self._withdrawal,
            EventKind.CHALLENGE_BONUS: self._challenge_bonus,
            EventKind.END_RACK_POINTS: self._end_rack_points,
            EventKind.END_RACK_PENALTY: self._end_rack_penalty,
            EventKind.TIME_PENALTY: self._time_penalty,
        }[event.kind]
        if event.kind.is_turn:
            self._check_turn_order(event, player, before)
        turn = handler(Turn(number, event, player, before, rack=rack), before)
        scores = recorded_totals(self.sink, event, player, before.scores)
        position = replace(turn.position, scores=scores)
        return replace(turn, position=position)

    def _player(self, event: Event, before: Position) -> int:
        seats = [i for i, p in enumerate(self.record.players) if p.nick == event.nick]
        if not seats:
            known = ", ".join(p.nick for p in self.record.players) or "none"
            self.sink.error(event.line, f"no player has the nickname {event.nick!r} "
                                        f"(players: {known})")
            raise _StopReplay
        if len(seats) > 1 and before.to_move in seats and event.kind.is_turn:
            return before.to_move
        if len(seats) > 1 and self.turns and event.kind is not EventKind.END_RACK_POINTS:
            last = self.turns[-1].player
            return last if last in seats else seats[0]
        return seats[0]

    def _check_turn_order(self, event: Event, player: int, before: Position) -> None:
        if before.game_over and self._lost_challenge_of_out_play(event, player):
            return
        if before.game_over:
            self.sink.warning(event.line, f"{event.nick} moves after the game has ended")
        elif before.to_move is not None and player != before.to_move:
            expected = self.record.players[before.to_move].nick
            self.sink.warning(event.line, f"{event.nick} moves out of turn: "
                                          f"it was {expected}'s turn")

    def _lost_challenge_of_out_play(self, event: Event, player: int) -> bool:
        """A pass right after the opponent went out is a challenge of the out-play that
        failed (double challenge: the challenger loses the turn); the game stays over."""
        last = self.turns[-1] if self.turns else None
        return (event.kind is EventKind.PASS and last is not None
                and last.event.kind is EventKind.PLAY and last.player != player)

    def _rack(self, event: Event) -> tuple[str, ...] | None:
        if not event.rack or event.rack.upper() == "UNKNOWN":
            return None
        try:
            labels = self.rules.codec.split(event.rack.replace(".", BLANK), allow=BLANK + UNKNOWN)
        except TileError as exc:
            self.sink.warning(event.line, f"rack {event.rack!r} is not valid ({exc}); "
                                          "it is treated as unknown")
            return None
        return tuple(label.upper() if label != BLANK else label for label in labels)

    # -- turns -------------------------------------------------------------------------

    def _next_seat(self, player: int) -> int:
        return (player + 1) % self.players

    def _after_turn(self, turn: Turn, before: Position, scoreless: bool, **changes: object) -> Turn:
        zeros = before.scoreless_turns + 1 if scoreless else 0
        over = before.game_over or zeros >= MAX_SCORELESS_TURNS
        position = replace(before, to_move=None if over else self._next_seat(turn.player),
                           scoreless_turns=zeros, game_over=over, **changes)  # type: ignore[arg-type]
        return replace(turn, position=position)

    def _play(self, turn: Turn, before: Position) -> Turn:
        event = turn.event
        placement = parse_coordinate(event.position)
        if placement is None:
            self.sink.error(event.line, f"{event.position!r} is not a coordinate "
                                        "(expected e.g. 8D across or D8 down)")
            raise _StopReplay
        scored = self._place(event, before, placement)
        self._check_play(turn, before, scored)
        sizes = list(before.rack_sizes)
        sizes[turn.player] -= len(scored.placed)
        drawn = min(len(scored.placed), before.bag)
        sizes[turn.player] += drawn
        went_out = before.bag == 0 and sizes[turn.player] <= 0
        turn = replace(turn, placed=scored.placed, words=scored.words,
                       computed_score=scored.score)
        turn = self._after_turn(turn, before, scoreless=False, cells=scored.cells,
                                bag=before.bag - drawn, rack_sizes=tuple(sizes),
                                last_move=scored.notation)
        if went_out:
            turn = replace(turn, position=replace(turn.position, game_over=True, to_move=None))
        return turn

    def _place(self, event: Event, before: Position, placement: object) -> ScoredPlay:
        rules = self.rules
        try:
            labels = rules.codec.split(event.word, allow=".")
            return place_play(before.cells, rules.layout, rules.distribution,
                              placement, labels)  # type: ignore[arg-type]
        except (TileError, PlacementError) as exc:
            self.sink.error(event.line, f"cannot place {event.position} {event.word}: {exc}")
            raise _StopReplay from None

    def _check_play(self, turn: Turn, before: Position, scored: ScoredPlay) -> None:
        event = turn.event
        line = event.line
        for warning in scored.warnings:
            self.sink.warning(line, warning)
        if scored.score != event.score:
            self.sink.warning(line, f"{event.position} {event.word} is recorded as "
                                    f"{event.score:+d}, but the board scores it {scored.score:+d}")
        size = self.rules.layout.size
        first_play = not any(before.cells)
        if first_play and self.rules.layout.center not in {(t.row, t.col) for t in scored.placed}:
            self.sink.warning(line, "the first play does not cover the centre square")
        elif not first_play and not touches_tiles(scored.cells, size, scored.placed):
            self.sink.warning(line, f"{event.position} {event.word} does not touch any tile "
                                    "on the board")
        played = Counter(rack_label(t.label) for t in scored.placed)
        self._check_subset(line, played, turn.rack, "played tiles")
        self._check_supply(line, before.cells, turn.rack)

    def _check_subset(self, line: int, tiles: Counter[str], rack: tuple[str, ...] | None,
                      what: str) -> None:
        if rack is None or UNKNOWN in rack:
            return
        missing = tiles - Counter(rack)
        if missing:
            listed = "".join(sorted(missing.elements()))
            self.sink.warning(line, f"{what} {listed} are not on the rack {''.join(rack)}")

    def _check_supply(self, line: int, cells: Cells, rack: tuple[str, ...] | None) -> None:
        """More of a tile on the board and rack than the bag ever held is a recording error."""
        held: Counter[str] = Counter()
        for label, count in board_counts(cells).items():
            held[rack_label(label)] += count
        held.update(t for t in (rack or ()) if t != UNKNOWN)
        tiles = self.rules.distribution.tiles
        for label, count in sorted(held.items()):
            supply = tiles[label].count if label in tiles else 0
            if count > supply:
                self.sink.warning(line, f"{count} {label!r} tiles on the board and rack, "
                                        f"but the {self.rules.distribution.name} set has "
                                        f"{supply}")

    def _pass(self, turn: Turn, before: Position) -> Turn:
        return self._after_turn(turn, before, scoreless=True, last_move="-")

    def _exchange(self, turn: Turn, before: Position) -> Turn:
        event = turn.event
        if event.exchange_count is not None:
            count, notation = event.exchange_count, f"-{event.exchange_count}"
        else:
            try:
                tiles = self.rules.codec.split(event.tiles, allow=BLANK + UNKNOWN)
            except TileError as exc:
                self.sink.warning(event.line, f"exchanged tiles {event.tiles!r}: {exc}")
                tiles = []
            count, notation = len(tiles), f"-{event.tiles}"
            self._check_subset(event.line, Counter(t.upper() for t in tiles), turn.rack,
                               "exchanged tiles")
        if before.bag < RACK_SIZE:
            self.sink.warning(event.line, f"exchange of {count} with only {before.bag} tiles "
                                          "in the bag")
        if event.score != 0:
            self.sink.warning(event.line, f"an exchange scores +0, not {event.score:+d}")
        return self._after_turn(turn, before, scoreless=True, last_move=notation)

    # -- events around turns -----------------------------------------------------------

    def _withdrawal(self, turn: Turn, before: Position) -> Turn:
        event = turn.event
        phoney = self.turns[-1] if self.turns else None
        is_own_play = (phoney is not None and phoney.event.kind is EventKind.PLAY
                       and phoney.player == turn.player)
        if phoney is None or not is_own_play:
            self.sink.warning(event.line, f"'--' withdraws a play, but the previous event is not "
                                          f"a play by {event.nick}; the board is left as it is")
            return replace(turn, position=before)
        self.turns[-1] = replace(phoney, withdrawn=True)
        if event.score != -phoney.event.score:
            self.sink.warning(event.line, f"withdrawal takes back {event.score:+d}, but the "
                                          f"play scored {phoney.event.score:+d}")
        if event.rack and phoney.event.rack and event.rack != phoney.event.rack:
            self.sink.warning(event.line, f"withdrawal rack {event.rack} differs from the "
                                          f"rack of the play, {phoney.event.rack}")
        earlier = self.turns[-2].position if len(self.turns) > 1 else self.start_position
        position = replace(earlier, to_move=before.to_move, scores=before.scores,
                           scoreless_turns=earlier.scoreless_turns + 1,
                           last_move=f"challenge {phoney.position.last_move}")
        if position.scoreless_turns >= MAX_SCORELESS_TURNS:
            position = replace(position, game_over=True, to_move=None)
        return replace(turn, position=position, removed=phoney.placed)

    def _challenge_bonus(self, turn: Turn, before: Position) -> Turn:
        event = turn.event
        last_turns = [t for t in self.turns if t.event.kind is not EventKind.CHALLENGE_BONUS]
        if not last_turns or last_turns[-1].event.kind is not EventKind.PLAY \
                or last_turns[-1].player != turn.player:
            self.sink.warning(event.line, f"challenge bonus for {event.nick}, whose last event "
                                          "is not a play that could be challenged")
        if event.score < 0:
            self.sink.warning(event.line, f"a challenge bonus is positive, not {event.score:+d}")
        return replace(turn, rack=None, position=before)

    def _end_rack_points(self, turn: Turn, before: Position) -> Turn:
        event = turn.event
        value = self._tiles_value(event)
        if value is not None and event.score not in (2 * value, value):
            self.sink.warning(event.line, f"({event.tiles}) is worth {value}: expected "
                                          f"+{2 * value} (twice the rack), recorded "
                                          f"{event.score:+d}")
        if not before.game_over:
            self.sink.warning(event.line, "points for the opponent's rack, but no player has "
                                          "gone out")
        return self._game_end(turn, before)

    def _end_rack_penalty(self, turn: Turn, before: Position) -> Turn:
        event = turn.event
        value = self._tiles_value(event)
        if value is not None and event.score not in (-value, -2 * value):
            self.sink.warning(event.line, f"({event.tiles}) is worth {value}: expected "
                                          f"-{value}, recorded {event.score:+d}")
        if event.rack and event.rack != event.tiles:
            self.sink.warning(event.line, f"rack {event.rack} differs from the penalised "
                                          f"tiles ({event.tiles})")
        return self._game_end(turn, before)

    def _time_penalty(self, turn: Turn, before: Position) -> Turn:
        event = turn.event
        if event.score > 0:
            self.sink.warning(event.line, f"a time penalty is negative, not {event.score:+d}")
        if not before.game_over:
            self.sink.warning(event.line, "time penalty before the end of the game")
        return replace(turn, rack=None, position=before)

    def _game_end(self, turn: Turn, before: Position) -> Turn:
        return replace(turn, rack=None, position=replace(before, game_over=True, to_move=None))

    def _tiles_value(self, event: Event) -> int | None:
        try:
            tiles = self.rules.codec.split(event.tiles, allow=BLANK)
        except TileError as exc:
            self.sink.warning(event.line, f"({event.tiles}): {exc}")
            return None
        return sum(self.rules.distribution.points(t.upper() if t != BLANK else t) for t in tiles)


def replay(record: GcgRecord, *, distribution: str | None = None, board: str | None = None,
           lexicon: str | None = None) -> CrosswordGame:
    """Replay a parsed record; keyword arguments are the event's defaults (config)."""
    sink = DiagnosticSink(record.path)
    sink.items.extend(record.diagnostics)
    rules = choose_rules(record, sink, distribution=distribution, board=board, lexicon=lexicon)
    run = _Replay(record, rules, sink)
    start, stopped = run.run()
    turns, start_racks = with_known_racks(record, rules, run.turns)
    start = replace(start, racks=start_racks)
    return CrosswordGame(record, rules, start, tuple(turns), tuple(sink.items), stopped)

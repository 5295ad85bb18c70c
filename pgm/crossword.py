"""Replay a GCG record: the position after every event, with scores checked on the board.

A recorded score that disagrees with the board is a warning at its line and the replay
goes on with the recorded figures (annotators' totals are what the players signed).
A play that cannot be placed is an error: the replay stops there and keeps every
position before it, so a site can still show the game up to the problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from pgm.board import Placement, parse_coordinate
from pgm.cgp import write_rack
from pgm.crossword_ending import EndLines
from pgm.crossword_leaves import check_kept_tiles
from pgm.crossword_model import CrosswordGame
from pgm.crossword_racks import check_stated_racks, known_racks
from pgm.crossword_readings import Trial, reread_exchange, reread_rack
from pgm.crossword_rules import Rules, choose_rules
from pgm.crossword_state import Rack, State, Step, TileTally, warn_of_racks_beyond_set
from pgm.crossword_typos import Reading, SpellingNotes, as_written, read_play
from pgm.diagnostics import Diagnostic, DiagnosticSink, Folded, Severity
from pgm.gcg import Event, EventKind, GcgRecord
from pgm.gcg_model import unknown_nickname
from pgm.scoring import RACK_SIZE, OccupiedSquareError, PlacementError, ScoredPlay, place_play
from pgm.tiles import BLANK, UNKNOWN, TileError, take, tile_text

MAX_SCORELESS_TURNS = 6
_PLAY, _EXCHANGE = EventKind.PLAY, EventKind.EXCHANGE  # naming a kind is slow on 3.11
_RACK_SYMBOLS = BLANK + UNKNOWN


class RunningTotals:
    """Each player's total as the recorded scores add up, kept beside the recorded totals.

    A recorded total is accepted when it follows from the recorded total before it or
    from this true one: one mistyped total is then blamed at its own line only, not at
    the correct line after it (which follows from the true total), nor at the lines that
    carry the typo forward (which follow from the recorded one). Shared by every
    GCG-based replay: one per game, every event through :meth:`check`."""

    def __init__(self, seats: int) -> None:
        self.sums = [0] * seats

    def check(self, sink: DiagnosticSink, event: Event, player: int,
              scores: tuple[int, ...]) -> tuple[int, ...]:
        """The scores after ``event``: the recorded total (a total that follows from
        neither the previous recorded total nor the true one is a warning; the record's
        figure is kept)."""
        true = self.sums[player]
        self.sums[player] = true + event.score
        recorded = scores[player]
        expected = recorded + event.score
        if event.cumulative not in (expected, true + event.score):
            message = (f"cumulative score is {event.cumulative}, but {recorded} "
                       f"{event.score:+d} = {expected}")
            if true != recorded:
                message += (f" (the recorded scores add up to {true} {event.score:+d} = "
                            f"{true + event.score})")
            sink.warning(event.line, message)
        return _with_total(scores, player, event.cumulative)


def scores_added_up(turns: Iterable[Any], seats: int) -> tuple[int, ...]:
    """Each player's scores added up over ``turns`` (replayed events with ``player`` and
    ``event``): what the recorded totals say unless one of them was mistyped."""
    sums = [0] * seats
    for turn in turns:
        sums[turn.player] += turn.event.score
    return tuple(sums)


def _with_total(scores: tuple[int, ...], player: int, total: int) -> tuple[int, ...]:
    updated = list(scores)
    updated[player] = total
    return tuple(updated)


def _other_tiles(rack: Rack, other: Rack) -> bool:
    """Whether two known racks hold different tiles: the same rack written in another
    order or case (``ABELTU``, ``abeltu``) is the same rack."""
    return rack is not None and other is not None and sorted(rack) != sorted(other)


class _StopReplay(Exception):
    pass


class LateTurns:
    """Turns after the end of the game, reported once, at the first, with how many
    follow (a record of thousands of passes gives one warning, not thousands). Shared
    by every GCG-based replay: :meth:`close` once the replay is done."""

    def __init__(self, sink: DiagnosticSink) -> None:
        self._folded = Folded(sink, Severity.WARNING)

    def add(self, event: Event) -> None:
        self._folded.add(event.line, f"{event.nick} moves after the game has ended")

    def close(self) -> None:
        self._folded.close(_and_the_turns_after)


def _and_the_turns_after(message: str, more: int, last_line: int) -> str:
    turns = f"{more:,} turn{'s' if more > 1 else ''}"
    return (f"{message}, and so {'do' if more > 1 else 'does'} the {turns} after it "
            f"(to line {last_line})")


class _Move(NamedTuple):
    """What an event handler starts from (a named tuple: one is made for every event)."""

    number: int
    event: Event
    player: int
    rack: Rack
    before: State
    scores: tuple[int, ...]
    """The scores after the event: the recorded totals (checked once the handler is done,
    so that its warnings come first)."""

    def step(self, state: State, **details: Any) -> Step:
        """The replayed event; ``details`` are Step fields (``rack`` defaults to the move's)."""
        details.setdefault("rack", self.rack)
        return Step(self.number, self.event, self.player, state, **details)

    def same_board(self, **changes: Any) -> State:
        """The state before, with the new scores: events that do not touch the board."""
        return self.before._replace(scores=self.scores, **changes)


@dataclass
class _Replay:
    record: GcgRecord
    rules: Rules
    sink: DiagnosticSink
    steps: list[Step] = field(default_factory=list)
    withdrawals: list[int] = field(default_factory=list)
    """The indices in ``steps`` of the withdrawals of the play before them."""

    def __post_init__(self) -> None:
        self.players = max(len(self.record.players), 1)
        """How many seats the game has (at least one)."""
        self.start_state = self.start()
        """Kept for a withdrawal of the very first play, which returns to it."""
        self.tally = TileTally(self.rules.distribution)
        self.seats: dict[str, list[int]] = {}
        """The seats of each nickname (two players may share one)."""
        for seat, player in enumerate(self.record.players):
            self.seats.setdefault(player.nick, []).append(seat)
        self.late = LateTurns(self.sink)
        self.totals = RunningTotals(self.players)
        self.ending = EndLines(self.record, self.rules, self.sink)
        self.plain_rack = self.rules.codec.plain_symbols[_RACK_SYMBOLS]
        """The characters of a rack that are a tile each (most racks have no others)."""
        self.last_turn_line = self.record.last_turn_line()
        """A line for the tiles left above it does not end the game (see ``_closing``)."""
        self.off_centre_start = False
        """Whether the first play missed the centre square (see ``_looks_like_upwords``)."""
        self.spellings = SpellingNotes(self.rules.codec, self.sink) \
            if self.rules.codec.aliases else None
        """The tiles a record spells another way, when the set has such tiles."""

    def start(self) -> State:
        n = self.players
        sizes = [0] * n
        bag = self.rules.distribution.total
        for seat in range(n):
            sizes[seat] = min(RACK_SIZE, bag)
            bag -= sizes[seat]
        size = self.rules.layout.size
        return State(("",) * (size * size), (0,) * n, 0, 0, bag, tuple(sizes))

    def run(self) -> int | None:
        """Replay the events into ``steps``; the line that stopped it, if one did: an
        event that cannot be replayed, or a line of the record that cannot be read."""
        state = self.start_state
        self._check_stated_racks(self.record.initial_racks)
        try:
            for number, event in enumerate(self.record.readable_events(), start=1):
                try:
                    step = self._event(number, event, state)
                except _StopReplay:
                    return event.line
                self.steps.append(step)
                state = step.state
                if event.racks_after:
                    self._check_stated_racks(event.racks_after)
        finally:
            self.late.close()
            if self.spellings is not None:
                self.spellings.close()
        if self.record.unreadable_line is not None:
            return self.record.unreadable_line
        self.ending.close(self.steps)
        return None

    def _check_stated_racks(self, racks: tuple[tuple[int, str, int], ...]) -> None:
        for _seat, text, line in racks:
            rack = self._rack(Event(line, EventKind.PASS, "", text, 0, 0), reread=True)
            self._check_supply(line, rack)

    # -- one event ---------------------------------------------------------------------

    def _event(self, number: int, event: Event, before: State) -> Step:
        if event.kind is EventKind.END_RACK_POINTS and event.score < 0:
            event = self._penalty_without_rack(event)
        player = self._player(event, before)
        if self.spellings is not None:
            self.spellings.add(event)
        # a play's or an exchange's rack is read with its tiles, which the same slip
        # may have been typed into
        kind = event.kind
        rack = self._read_rack(event) if kind is _PLAY or kind is _EXCHANGE \
            else self._rack(event, reread=True)
        if event.kind.is_turn:
            self._check_turn_order(event, player, before)
        scores = _with_total(before.scores, player, event.cumulative)
        step = _HANDLERS[event.kind](self, _Move(number, event, player, rack, before, scores))
        self.totals.check(self.sink, event, player, before.scores)
        return step

    def _penalty_without_rack(self, event: Event) -> Event:
        """``>doug:  (OPEG) -7 444``: points taken away for the tiles left are the penalty
        for the player's own rack (international rules), which the format writes with the
        rack before the parentheses. Read as that line, with one warning, not as points
        scored for an opponent's rack, minus seven (a string of contradictory warnings).
        Crossword games only: Upwords writes its end lines so, as the rules score them."""
        tiles = event.tiles
        self.sink.warning(event.line, "a penalty for the tiles left is written without the "
                                      f"rack before them: read as '>{event.nick}: {tiles} "
                                      f"({tiles}) {event.score} {event.cumulative}'")
        return replace(event, kind=EventKind.END_RACK_PENALTY, rack=tiles)

    def _player(self, event: Event, before: State) -> int:
        seats = self.seats.get(event.nick)
        if not seats:
            self.sink.error(event.line, unknown_nickname(event.nick, self.record.players))
            raise _StopReplay
        if len(seats) > 1 and before.to_move in seats and event.kind.is_turn:
            return before.to_move
        if len(seats) > 1 and self.steps and event.kind is not EventKind.END_RACK_POINTS:
            last = self.steps[-1].player
            return last if last in seats else seats[0]
        return seats[0]

    def _check_turn_order(self, event: Event, player: int, before: State) -> None:
        if before.game_over and self._lost_challenge_of_out_play(event, player):
            return
        if before.game_over:
            self.late.add(event)
        elif before.to_move is not None and player != before.to_move:
            expected = self.record.players[before.to_move].nick
            self.sink.warning(event.line, f"{event.nick} moves out of turn: "
                                          f"it was {expected}'s turn")

    def _lost_challenge_of_out_play(self, event: Event, player: int) -> bool:
        """A pass right after the opponent went out is a challenge of the out-play that
        failed (double challenge: the challenger loses the turn); the game stays over."""
        last = self.steps[-1] if self.steps else None
        return (event.kind is EventKind.PASS and last is not None
                and last.event.kind is EventKind.PLAY and last.player != player)

    def _rack(self, event: Event, *, reread: bool = False) -> Rack:
        """The event's rack (None: unknown); a rack of more tiles than a rack holds is
        warned of, and kept as recorded, unless (``reread``) it is one that writes the
        letters of a multi-letter tile for the tile (see ``reread_rack``)."""
        rack = self._read_rack(event)
        if rack is not None and len(rack) > RACK_SIZE:
            note = ""
            if reread:
                rack, note = reread_rack(self.rules, event.rack, rack)
            self._warn_of_big_rack(event, rack, note)
        return rack

    def _warn_of_big_rack(self, event: Event, rack: Rack, note: str = "") -> None:
        if note:
            self.sink.warning(event.line, note)
        elif rack is not None and len(rack) > RACK_SIZE:
            self.sink.warning(event.line, f"rack {event.rack} holds {len(rack)} tiles; a rack "
                                          f"holds at most {RACK_SIZE}")

    def _read_rack(self, event: Event) -> Rack:
        if not event.rack or event.rack.upper() == "UNKNOWN":
            return None
        text = event.rack.replace(".", BLANK)
        if text.isascii() and self.plain_rack.issuperset(text):
            return tuple(text.upper())  # what the split below gives, without the call
        try:
            labels = self.rules.codec.split(text, allow=_RACK_SYMBOLS)
        except TileError as exc:
            self.sink.warning(event.line, f"rack {event.rack!r} is not valid ({exc}); "
                                          "it is treated as unknown")
            return None
        if len(labels) == len(text) and text.isascii():
            return tuple(text.upper())  # one tile a letter: the same, faster
        return tuple(map(str.upper, labels))  # the blank, ``?``, is its own upper case

    # -- turns -------------------------------------------------------------------------

    def _scoreless(self, move: _Move, last_move: str) -> State:
        """The state after a pass or an exchange: six in a row end the game."""
        before = move.before
        zeros = before.scoreless_turns + 1
        over = before.game_over or zeros >= MAX_SCORELESS_TURNS
        to_move = None if over else (move.player + 1) % self.players
        return State(before.cells, move.scores, to_move, zeros, before.bag, before.rack_sizes,
                     over, last_move)

    def _play(self, move: _Move) -> Step:
        event, before, player = move.event, move.before, move.player
        placement = parse_coordinate(event.position)
        if placement is None:
            example = "D8 across or 8D down" if self.rules.orientation == "lettered-rows" \
                else "8D across or D8 down"
            self.sink.error(event.line, f"{event.position!r} is not a coordinate "
                                        f"(expected e.g. {example})")
            raise _StopReplay
        scored, rack, reading = self._read_play(move, placement)
        played = scored.played
        if rack is not move.rack:
            move = move._replace(rack=rack)
        self._check_play(move, scored, played, reading)
        self.tally.add(played)
        drawn = min(len(scored.placed), before.bag)
        sizes = list(before.rack_sizes)
        sizes[player] += drawn - len(scored.placed)
        went_out = before.bag == 0 and sizes[player] <= 0
        over = before.game_over or went_out
        to_move = None if over else (player + 1) % self.players
        state = State(scored.cells, move.scores, to_move, 0, before.bag - drawn, tuple(sizes),
                      over, scored.notation)
        return Step(move.number, event, player, state, move.rack, scored.placed, (),
                    scored.words, scored.score, False, played)

    def _read_play(self, move: _Move, placement: Placement
                   ) -> tuple[ScoredPlay, Rack, Reading | None]:
        """The play on the board and its rack, as read, and how (see
        ``pgm.crossword_typos``; None when taken as written, as it agrees with its line),
        with the warnings of how a line that disagrees with itself is read; one that
        cannot be placed stops the replay."""
        event, rack = move.event, move.rack
        rules = self.rules
        try:
            labels = rules.codec.split(event.word, allow=".")
        except TileError as exc:
            self.sink.error(event.line, f"cannot place {event.position} {event.word}: {exc}")
            raise _StopReplay from None
        cells = move.before.cells
        try:
            scored = place_play(cells, rules.layout, rules.distribution, placement, labels)
        except PlacementError as exc:
            written = Trial(labels, rack, None, exc)
        else:
            if as_written(rules, event, labels, rack, scored):
                if rack is not None and len(rack) > RACK_SIZE:
                    self._warn_of_big_rack(event, rack)
                return scored, rack, None
            written = Trial(labels, rack, scored, None)
        reading = read_play(rules, cells, placement, event, written)
        trial = reading.trial
        self._warn_of_big_rack(event, trial.rack)
        for note in reading.notes:
            self.sink.warning(event.line, note)
        if trial.scored is None:
            upwords = "; tiles stack only in Upwords, whose records say #game-type upwords" \
                if isinstance(trial.error, OccupiedSquareError) and self._looks_like_upwords() \
                else ""
            self.sink.error(event.line,
                            f"cannot place {event.position} {event.word}: {trial.error}{upwords}")
            raise _StopReplay
        return trial.scored, trial.rack, reading

    def _looks_like_upwords(self) -> bool:
        """Whether a record may be an Upwords game that lacks its ``#game-type``: it names
        none, and its first play missed the centre square (Upwords starts on the four
        squares around E5). A Scrabble record's play onto a filled square is a typo."""
        return "game-type" not in self.record.pragmas and self.off_centre_start

    def _check_play(self, move: _Move, scored: ScoredPlay, played: list[str],
                    reading: Reading | None) -> None:
        """Warnings about a play placed on the board; ``played`` are its rack labels,
        ``reading`` how its line was read (None: as written, which agrees with it)."""
        event = move.event
        line = event.line
        for warning in scored.warnings:
            self.sink.warning(line, warning)
        if len(played) > RACK_SIZE and (move.rack is None or len(move.rack) <= RACK_SIZE):
            self.sink.warning(line, f"{event.position} {event.word} places {len(played)} "
                                    f"tiles; a rack holds at most {RACK_SIZE}")
        if scored.score != event.score:
            self.sink.warning(line, f"{event.position} {event.word} is recorded as "
                                    f"{event.score:+d}, but the board scores it {scored.score:+d}"
                                    f"{reading.score_hint if reading else ''}")
        first_play = not self.tally.on_board
        if first_play and self.rules.layout.center not in {(t.row, t.col) for t in scored.placed}:
            self.off_centre_start = True
            self.sink.warning(line, "the first play does not cover the centre square")
        elif not first_play and not scored.touches:
            self.sink.warning(line, f"{event.position} {event.word} does not touch any tile "
                                    "on the board")
        if reading is not None:  # else the rack is known to hold them (``as_written``)
            self._check_subset(line, played, move.rack, "played tiles", reading.rack_hint)
        self._check_supply(line, move.rack)

    def _check_subset(self, line: int, tiles: list[str], rack: Rack, what: str,
                      hint: str = "") -> None:
        if rack is None or UNKNOWN in rack:
            return
        lacked = take(rack, tiles)[1]
        if lacked:
            listed = tile_text(sorted(lacked))
            self.sink.warning(line, f"{what} {listed} are not on the rack {tile_text(rack)}"
                                    f"{hint}")

    def _check_supply(self, line: int, rack: Rack) -> None:
        """More of a tile on the board and rack than the bag ever held is a recording error."""
        for message in self.tally.excess(rack):
            self.sink.warning(line, message)

    def _pass(self, move: _Move) -> Step:
        self._check_supply(move.event.line, move.rack)
        if move.event.score != 0:
            self.sink.warning(move.event.line, f"a pass scores +0, not {move.event.score:+d}")
        return move.step(self._scoreless(move, "-"))

    def _exchange(self, move: _Move) -> Step:
        event, before = move.event, move.before
        tiles: list[str] = []
        error = None
        if event.exchange_count is None:
            try:
                tiles = self.rules.codec.split(event.tiles, allow=BLANK + UNKNOWN)
            except TileError as exc:
                error = exc
        rack = move.rack
        if rack is not None and len(rack) > RACK_SIZE:
            rack, tiles, note = reread_exchange(self.rules, event, rack, tiles)
            self._warn_of_big_rack(event, rack, note)
            move = move._replace(rack=rack)
        unreadable = error is not None
        if unreadable:
            self.sink.warning(event.line, f"exchanged tiles {event.tiles!r}: {error}")
        if event.exchange_count is not None:
            count, notation = event.exchange_count, f"-{event.exchange_count}"
        else:
            # GCG 1.3 writes unknown exchanged tiles as ``_``; CGP has no such tile, so a
            # partly known exchange is written as its count.
            known = [t.upper() for t in tiles if t != UNKNOWN]
            count = len(tiles)
            notation = (("-" + write_rack(tuple(known))) if len(known) == count
                        else f"-{count}") if count else ""
            self._check_subset(event.line, known, rack, "exchanged tiles")
        self._check_supply(event.line, rack)
        if not 0 < count <= RACK_SIZE and not unreadable:
            self.sink.warning(event.line, f"an exchange of {count} tiles: a rack holds 1 to "
                                          f"{RACK_SIZE}")
        if before.bag < RACK_SIZE:
            what = "exchange" if unreadable else f"exchange of {count}"
            self.sink.warning(event.line, f"{what} with only {before.bag} tiles in the bag")
        if event.score != 0:
            self.sink.warning(event.line, f"an exchange scores +0, not {event.score:+d}")
        return move.step(self._scoreless(move, notation))

    # -- events around turns -----------------------------------------------------------

    def _withdrawal(self, move: _Move) -> Step:
        event = move.event
        phoney = self.steps[-1] if self.steps else None
        is_own_play = (phoney is not None and phoney.event.kind is EventKind.PLAY
                       and phoney.player == move.player)
        if phoney is None or not is_own_play:
            self.sink.warning(event.line, f"'--' withdraws a play, but the previous event is not "
                                          f"a play by {event.nick}; the board is left as it is")
            return move.step(move.same_board())
        self.steps[-1] = phoney._replace(withdrawn=True)
        self.withdrawals.append(len(self.steps))
        self.tally.remove(phoney.played)
        if event.score != -phoney.event.score:
            self.sink.warning(event.line, f"withdrawal takes back {event.score:+d}, but the "
                                          f"play scored {phoney.event.score:+d}")
        if _other_tiles(move.rack, phoney.rack):
            self.sink.warning(event.line, f"withdrawal rack {event.rack} differs from the "
                                          f"rack of the play, {phoney.event.rack}")
        earlier = self.steps[-2].state if len(self.steps) > 1 else self.start_state
        zeros = earlier.scoreless_turns + 1
        over = zeros >= MAX_SCORELESS_TURNS or earlier.game_over
        # the next player moves, even when the phoney went out (the game it ended goes on)
        state = earlier._replace(to_move=None if over else (move.player + 1) % self.players,
                                 scores=move.scores, scoreless_turns=zeros, game_over=over,
                                 last_move=f"challenge {phoney.state.last_move}")
        return move.step(state, removed=phoney.placed)

    def _challenge_bonus(self, move: _Move) -> Step:
        event = move.event
        # The last event before the bonuses, found from the end (a game of many bonuses
        # would otherwise copy its steps at each one).
        last = next((t for t in reversed(self.steps)
                     if t.event.kind is not EventKind.CHALLENGE_BONUS), None)
        if last is None or last.event.kind is not EventKind.PLAY or last.player != move.player:
            self.sink.warning(event.line, f"challenge bonus for {event.nick}, whose last event "
                                          "is not a play that could be challenged")
        if event.score < 0:
            self.sink.warning(event.line, f"a challenge bonus is positive, not {event.score:+d}")
        elif self.steps and self.steps[-1].event.kind is EventKind.PLAY \
                and self.steps[-1].player == move.player:
            # CGP writes a play challenged without success as ``8D WORD +5``.
            last_move = f"{move.before.last_move} +{event.score}"
            return move.step(move.same_board(last_move=last_move), rack=None)
        return move.step(move.same_board(), rack=None)

    def _end_rack_points(self, move: _Move) -> Step:
        self.ending.points(move.event, move.player, move.before, self.tally.spare)
        return self._closing(move, "points for the opponent's rack, but no player has gone "
                                   "out")

    def _end_rack_penalty(self, move: _Move) -> Step:
        self.ending.penalty(move.event, move.player, move.before, self.tally.spare)
        return self._closing(move, "a penalty for the tiles left on the rack, but no player "
                                   "has gone out and there have not been "
                                   f"{MAX_SCORELESS_TURNS} scoreless turns")

    def _closing(self, move: _Move, too_soon: str) -> Step:
        """A line for the tiles left ends the game, unless it comes before the game is
        over (``too_soon`` says why it is warned of) and moves follow it: a stray line
        an annotator typed, after which the game goes on (ending it there would freeze
        a game in progress, with a result)."""
        if move.before.game_over:
            return self._game_end(move)
        if move.event.line < self.last_turn_line:
            self.sink.warning(move.event.line, f"{too_soon}; moves follow, so the game goes on")
            return move.step(move.same_board(), rack=None)
        self.sink.warning(move.event.line, f"{too_soon}; the game ends here")
        return self._game_end(move)

    def _time_penalty(self, move: _Move) -> Step:
        event = move.event
        if event.score > 0:
            self.sink.warning(event.line, f"a time penalty is negative, not {event.score:+d}")
        if not move.before.game_over:
            self.sink.warning(event.line, "time penalty before the end of the game")
        return move.step(move.same_board(), rack=None)

    def _game_end(self, move: _Move) -> Step:
        return move.step(move.same_board(game_over=True, to_move=None), rack=None)


_HANDLERS: dict[EventKind, Callable[[_Replay, _Move], Step]] = {
    EventKind.PLAY: _Replay._play, EventKind.PASS: _Replay._pass,
    EventKind.EXCHANGE: _Replay._exchange, EventKind.WITHDRAWAL: _Replay._withdrawal,
    EventKind.CHALLENGE_BONUS: _Replay._challenge_bonus,
    EventKind.END_RACK_POINTS: _Replay._end_rack_points,
    EventKind.END_RACK_PENALTY: _Replay._end_rack_penalty,
    EventKind.TIME_PENALTY: _Replay._time_penalty,
}


def replay(record: GcgRecord, *, distribution: str | None = None, board: str | None = None,
           lexicon: str | None = None) -> CrosswordGame:
    """Replay a parsed record; keyword arguments are the event's defaults (config)."""
    sink = DiagnosticSink(record.path)
    sink.items.extend(record.diagnostics)
    rules = choose_rules(record, sink, distribution=distribution, board=board, lexicon=lexicon)
    run = _Replay(record, rules, sink)
    stopped = run.run()
    check_stated_racks(record, rules, run.steps, run.start_state, sink)
    check_kept_tiles(rules, run.steps, sink)
    racks, start_racks = known_racks(record, rules, run.steps, run.start_state, run.withdrawals)
    turns = tuple(step.turn(after) for step, after in zip(run.steps, racks, strict=True))
    start = run.start_state.position(start_racks)
    left_out = warn_of_racks_beyond_set(record, rules.distribution, start, turns, sink.items)
    # in line order, as an editor shows the file: the parse, the rules and the replay
    # each add their own (the tile set is chosen from every line, after the parse)
    in_order = tuple(sorted(sink.items, key=_line))
    return CrosswordGame(record, rules, start, turns, in_order, stopped, left_out)


def _line(diagnostic: Diagnostic) -> int:
    return diagnostic.line

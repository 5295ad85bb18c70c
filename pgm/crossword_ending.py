"""The lines that end a crossword game, checked against the board and each other.

When a player goes out with the bag empty, the tiles off the board are the tiles left on
the other racks, so the tiles of an end-of-game line (``>emely: (EGOP) +14``, ``>doug:
EGOP (EGOP) -7``) are known from the board alone. The player going out scores twice
their value (the usual rule), or their value once while the holder loses it on a line
of their own (international rules): the two lines go together, in either order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from pgm.cgp import write_rack
from pgm.crossword_model import (
    CLOSING_KINDS,
    SCORELESS_KINDS,
    game_end_index,
    racks_unpenalised,
)
from pgm.crossword_rules import Rules
from pgm.crossword_state import State, Step
from pgm.diagnostics import DiagnosticSink
from pgm.gcg import Event, EventKind, GcgRecord
from pgm.tiles import BLANK, TileError


class EndLines:
    """The checks of one game's end-of-game lines: each as it is replayed, then those
    that need the whole record (:meth:`close`)."""

    def __init__(self, record: GcgRecord, rules: Rules, sink: DiagnosticSink) -> None:
        self.record = record
        self.rules = rules
        self.sink = sink
        self.once: list[tuple[Event, int, int]] = []
        """(event, player, value) of each line scoring the other racks once: right only
        beside a line taking it from a holder."""
        self.scored: dict[int, tuple[Counter[str], int]] = {}
        """The tiles and value of each line scoring the other racks, by line."""
        self.taken: dict[int, tuple[Counter[str], int]] = {}
        """The tiles and value of each line taking a rack from its holder, by line."""

    def tiles(self, event: Event) -> list[str] | None:
        """The tiles of a line's ``(...)``, by rack label (``?`` for a blank)."""
        try:
            tiles = self.rules.codec.split(event.tiles, allow=BLANK)
        except TileError as exc:
            self.sink.warning(event.line, f"({event.tiles}): {exc}")
            return None
        return [t if t == BLANK else t.upper() for t in tiles]

    def value(self, tiles: Sequence[str]) -> int:
        points = self.rules.distribution.label_points
        return sum(points[t] for t in tiles)

    def points(self, event: Event, player: int, before: State,
               off_board: Mapping[str, int]) -> None:
        """A line scoring the tiles left on the other racks for ``player``."""
        tiles = self.tiles(event)
        if tiles is None:
            return
        holders = [seat for seat in range(len(before.rack_sizes)) if seat != player]
        value = self.value(tiles)
        self.scored[event.line] = (Counter(tiles), value)
        if value and event.score == value:
            self.once.append((event, player, value))
        elif event.score != 2 * value:
            self.sink.warning(event.line, self._expected_points(event, value, holders))
        out = _gone_out(before)
        if out is None:
            self._check_supply(event, tiles, off_board)
            return
        if player not in out:
            self._warn_not_out(event, player, out, value)
        self._check_left(event, tiles, [s for s in range(len(before.rack_sizes))
                                        if s not in out], before, off_board)

    def _warn_not_out(self, event: Event, player: int, out: set[int], value: int) -> None:
        """A line scoring the tiles left for a player who still holds tiles: the
        record most likely names the wrong player, so say whose line it is (with the
        line's score when it follows either rule, else twice the rack)."""
        nicks = [self.record.players[seat].nick for seat in sorted(out)
                 if seat < len(self.record.players)]
        if not nicks:
            return
        score = event.score if event.score in (value, 2 * value) else 2 * value
        self.sink.warning(event.line, f"{event.nick} did not go out ({' and '.join(nicks)} "
                                      f"did), so the tiles left on {event.nick}'s rack score "
                                      f"for {nicks[0]}: expected '>{nicks[0]}: "
                                      f"({event.tiles}) +{score}'")

    def penalty(self, event: Event, player: int, before: State,
                off_board: Mapping[str, int]) -> None:
        """A line taking the value of the tiles left on ``player``'s rack."""
        tiles = self.tiles(event)
        value = self.value(tiles) if tiles is not None else None
        if value is not None and event.score not in (-value, -2 * value):
            self.sink.warning(event.line, f"({event.tiles}) is worth {value}: expected "
                                          f"-{value}, recorded {event.score:+d}")
        if event.rack and event.rack != event.tiles:
            self.sink.warning(event.line, f"rack {event.rack} differs from the penalised "
                                          f"tiles ({event.tiles})")
        if tiles is None or value is None:
            return
        self.taken[event.line] = (Counter(tiles), value)
        out = _gone_out(before)
        holders = [s for s in range(len(before.rack_sizes)) if out is None or s not in out]
        if out is not None and holders == [player]:
            self._check_left(event, tiles, holders, before, off_board)
        else:
            self._check_supply(event, tiles, off_board)

    def close(self, steps: Sequence[Step]) -> None:
        """The checks that need every line: once the replay reached the end."""
        for event, player, value in self.once:
            if not any(step.event.kind is EventKind.END_RACK_PENALTY and step.player != player
                       for step in steps):
                holders = [s for s in range(len(self.record.players)) if s != player]
                self.sink.warning(event.line, self._expected_points(event, value, holders)
                                  + " without such a line")
        self._check_counted_once(steps)
        self._check_points_after_going_out(steps)
        self._check_penalties_after_scoreless_end(steps)

    def _check_counted_once(self, steps: Sequence[Step]) -> None:
        """The tiles left are counted once: by one line scoring them twice, or by one
        scoring them once beside the holder's line taking them. A second line scoring
        the same rack, a holder's second line, or a holder's line beside one scoring the
        rack twice counts it again. A withdrawn play takes back the ending before it."""
        scored: list[Event] = []
        taken: list[tuple[Event, int]] = []
        doubled: tuple[Event, int] | None = None
        """The line scoring the rack twice, and its seat, once one is read."""
        two = len(self.record.players) == 2
        for step in steps:
            event, kind, player = step.event, step.event.kind, step.player
            if kind is EventKind.WITHDRAWAL:
                scored.clear()
                taken.clear()
                doubled = None
            elif kind is EventKind.END_RACK_POINTS and event.line in self.scored:
                tiles, value = self.scored[event.line]
                # In a game of more players, the racks left may be scored a line each.
                first = next((e for e in scored
                              if two or (e.nick == event.nick
                                         and self.scored[e.line][0] == tiles)), None)
                if first is not None:
                    holders = [s for s in range(len(self.record.players)) if s != player]
                    self.sink.warning(event.line, f"({event.tiles}) scored again: line "
                                                  f"{first.line} already scores the tiles "
                                                  f"left for {first.nick}, and they count "
                                                  f"once: expected no second line (+"
                                                  f"{2 * value} on one line, or +{value} with "
                                                  f"a line of -{value} for "
                                                  f"{self._racks_of(holders)})")
                    continue
                scored.append(event)
                if value and event.score == 2 * value:
                    doubled = (event, player)
                    holder = next((e for e, seat in taken if seat != player), None)
                    if holder is not None:
                        self._warn_thrice(event, value, holder, event)
            elif kind is EventKind.END_RACK_PENALTY and event.line in self.taken:
                first = next((e for e, seat in taken if seat == player), None)
                if first is not None:
                    self.sink.warning(event.line, f"({event.tiles}) taken again: line "
                                                  f"{first.line} already takes "
                                                  f"{event.nick}'s rack, which counts once: "
                                                  "expected no second line")
                    continue
                taken.append((event, player))
                if doubled is not None and doubled[1] != player:
                    double = doubled[0]
                    self._warn_thrice(event, self.scored[double.line][1], event, double)

    def _warn_thrice(self, later: Event, value: int, holder: Event, doubled: Event) -> None:
        """``doubled`` scores the tiles left twice and ``holder`` takes them from their
        holder too: a warning at ``later``, the second of the two."""
        self.sink.warning(later.line, f"({doubled.tiles}) counted three times: line "
                                      f"{doubled.line} scores it twice for {doubled.nick} "
                                      f"(+{2 * value}) and line {holder.line} takes "
                                      f"{holder.score:+d} from {holder.nick}: expected "
                                      f"+{2 * value} without line {holder.line}, or +{value} "
                                      f"at line {doubled.line} with it (international rules)")

    def _check_points_after_going_out(self, steps: Sequence[Step]) -> None:
        """The player who goes out scores the tiles left on the other racks, on a line of
        its own: a record without it has scores short of final, which the index would
        show as the result."""
        for index in range(len(steps) - 1, -1, -1):
            last = steps[index]
            if last.event.kind is EventKind.PLAY and not last.withdrawn:
                break
        else:
            return
        state = last.state
        if not (state.game_over and state.bag == 0 and state.rack_sizes[last.player] <= 0):
            return
        after = steps[index + 1:]
        if any(step.event.kind is EventKind.END_RACK_POINTS for step in after):
            return
        # with no closing line yet the game is in progress (live, the line is on its way)
        closed = any(step.event.kind in CLOSING_KINDS for step in after)
        short = "the final scores are short of them" if closed else (
            "the game stays in progress until it is written, and its scores are short of "
            "final")
        self.sink.warning(last.event.line, f"{last.event.nick} went out, but the record "
                                           "ends without the points for the tiles left on "
                                           "the other racks (a line like '>nick: (TILES) "
                                           f"+N'): {short}")

    def _check_penalties_after_scoreless_end(self, steps: Sequence[Step]) -> None:
        """A game that the scoreless turns end takes each rack's tiles from its holder,
        on a line of their own: until every rack's line is written the scores are short
        of final, and the game stays in progress (see ``CrosswordGame.complete``)."""
        index = game_end_index([step.state for step in steps])
        if index is None or steps[index].event.kind not in SCORELESS_KINDS:
            return
        ender, after = steps[index], steps[index + 1:]
        kinds = {step.event.kind for step in after}
        # moves after the end are warned of on their own; points for the racks left
        # follow rules of their own
        if not kinds <= CLOSING_KINDS or EventKind.END_RACK_POINTS in kinds:
            return
        missing = racks_unpenalised(ender.state.rack_sizes, after)
        if not missing:
            return
        if not after:
            self.sink.warning(ender.event.line, "the scoreless turns end the game here, but "
                                                "the record ends without the penalties for "
                                                "the tiles left on the racks (a line like "
                                                "'>nick: TILES (TILES) -N' for each player): "
                                                "the game stays in progress, and its scores "
                                                "are short of final")
            return
        self.sink.warning(after[-1].event.line, "the scoreless turns ended the game at line "
                                                f"{ender.event.line}, but no line takes the "
                                                f"tiles left on {self._racks_of(missing)}: the "
                                                "game stays in progress until one does")

    def _expected_points(self, event: Event, value: int, holders: Sequence[int]) -> str:
        return (f"({event.tiles}) is worth {value}: expected +{2 * value} (twice the rack), "
                f"or +{value} with a line of -{value} for {self._racks_of(holders)} "
                f"(international rules), recorded {event.score:+d}")

    def _check_left(self, event: Event, tiles: Sequence[str], holders: Sequence[int],
                    before: State, off_board: Mapping[str, int]) -> None:
        """After a player went out, the tiles off the board are those on ``holders``'
        racks: the line's tiles must be those (when the board has as many off it as the
        racks hold; otherwise the record lacks a play, and only too many are told)."""
        left = Counter({t: n for t, n in off_board.items() if n > 0})
        if left.total() != sum(before.rack_sizes[seat] for seat in holders):
            self._check_supply(event, tiles, off_board)
            return
        if Counter(tiles) != left:
            expected = tuple(left.elements())
            self.sink.warning(event.line, f"({event.tiles}) differs from the tiles left on "
                                          f"{self._racks_of(holders)}, which are the tiles "
                                          f"off the board: ({write_rack(expected)}), worth "
                                          f"{self.value(expected)}")

    def _check_supply(self, event: Event, tiles: Sequence[str],
                      off_board: Mapping[str, int]) -> None:
        """The line's tiles must be off the board."""
        for tile, count in sorted(Counter(tiles).items()):
            left = max(off_board.get(tile, 0), 0)
            if count > left:
                self.sink.warning(event.line, f"({event.tiles}) holds {count} {tile!r}, but "
                                              f"{left} {'is' if left == 1 else 'are'} left "
                                              "off the board")

    def _racks_of(self, seats: Sequence[int]) -> str:
        names = [self.record.players[seat].nick for seat in seats
                 if seat < len(self.record.players)]
        if len(names) == 1:
            return f"{names[0]}'s rack"
        return f"the racks of {', '.join(names)}" if names else "the other racks"


def _gone_out(before: State) -> set[int] | None:
    """The seats that went out, when the game ended so (the bag empty)."""
    if not before.game_over or before.bag:
        return None
    out = {seat for seat, size in enumerate(before.rack_sizes) if size <= 0}
    return out or None

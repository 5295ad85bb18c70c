"""What each player holds between events, as far as the record tells.

A player's rack changes only through their own plays, exchanges and withdrawals, so for
each player a game is a chain of *spans*: stretches of positions over which the rack
stays the same. Lines tell what a span's rack holds: the rack field of the move that
ends it (often only the tiles played: liwords writes those), a challenge bonus line
(the rack after the play), ``#rackN``, ``#incomplete`` and the end-of-game tiles. Each
is a lower bound of the rack (unknown tiles left out), so a span's known tiles are all
they tell together.

From one span to the next the rack loses the tiles played or exchanged and gains the
tiles drawn. So a span's known tiles less what left tell of the next rack (the leave
stays), and the next span's known tiles tell of this one except what may have been
drawn: with the bag empty nothing was, and the rack before a play is the rack after it
and the tiles played. One walk back and one forward along each chain settle it. A
bound is taken only while it fits the tiles held, and a leave only from a rack that held
what left it. A line that contradicts what earlier lines said of a rack (more tiles than
held together) starts a span of its own: the record changed the rack there, and
nothing is carried across.

A withdrawn phoney is a side step: its tiles go back to the rack and the tiles drawn
after it back to the bag, so the phoney, its withdrawal and the player's next move are
all made from one span's rack. Between the phoney and its withdrawal the player holds
that rack less the tiles on the board, and tiles drawn that no line names.

A rack with fewer known tiles than held is partial: the view says how many tiles are
unknown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from pgm.crossword_rules import Rules
from pgm.crossword_state import Rack, Racks, State, Step
from pgm.diagnostics import DiagnosticSink
from pgm.gcg import Event, EventKind, GcgRecord
from pgm.scoring import RACK_SIZE, PlacedTile
from pgm.tiles import BLANK, RACK_LABELS, UNKNOWN, TileError

# Kinds held in names, because naming a kind (``EventKind.PLAY``) is slow on Python 3.11
# and these are asked of every event.
_PLAY = EventKind.PLAY
_EXCHANGE = EventKind.EXCHANGE
_WITHDRAWAL = EventKind.WITHDRAWAL
_CHALLENGE_BONUS = EventKind.CHALLENGE_BONUS
_END_RACK_POINTS = EventKind.END_RACK_POINTS
_END_RACK_PENALTY = EventKind.END_RACK_PENALTY
_TIME_PENALTY = EventKind.TIME_PENALTY
_MADE_FROM_RACK = frozenset({EventKind.PASS, EventKind.EXCHANGE, EventKind.WITHDRAWAL})
"""Besides plays, events whose rack, when known, is what the player held before them
(a withdrawal's: before the phoney)."""


class _Span:
    """Positions over which one player's rack stays the same, and what is known of it.

    Counts are made only where a rack is known in part: most spans have one whole rack
    stated (a rack field as long as the rack), which nothing can add to."""

    __slots__ = ("size", "stated", "placed", "out", "loose", "drawn", "told", "parent",
                 "whole", "widened", "board", "_known", "shown")

    def __init__(self, size: int, parent: _Span | None = None,
                 placed: tuple[PlacedTile, ...] = ()) -> None:
        self.size = size
        """How many tiles the rack holds."""
        self.stated: list[tuple[str, ...]] = []
        """The racks lines state for it, as written (``_`` for tiles they do not name)."""
        self.placed = placed
        """The tiles played at the move ending the span (a phoney: the move starting it)."""
        self.out: Sequence[str] = ()
        """The named tiles exchanged at the move ending the span."""
        self.loose = 0
        """Tiles that left it unnamed (an exchange by count)."""
        self.drawn = 0
        """Tiles drawn at the move ending the span."""
        self.told = False
        """The move ending the span has its rack field (which holds what it spent)."""
        self.parent = parent
        """For the span between a phoney and its withdrawal, the span the phoney was
        made from (and the withdrawal returns to)."""
        self.whole = False
        """Known to the last tile by one line (the others, if any, saying the same, in
        any order): nothing can add to it. Set by :meth:`judge`."""
        self.widened = False
        """Other spans' lines told more of it than its own."""
        self.board: dict[str, int] | None = None
        """The tiles on the board at its last position, by rack label; kept when lines
        may tell more of it than one whole rack (see :meth:`tell`)."""
        self._known: Counter[str] | None = None
        self.shown: Rack = None
        """What positions show: :meth:`tell`, once all is known."""

    def judge(self) -> None:
        """Settle ``whole``, once every line has been read."""
        stated = self.stated
        if not stated:
            self.whole = self.size <= 0
        else:
            first = stated[0]
            self.whole = (len(first) == self.size and UNKNOWN not in first
                          and (stated.count(first) == len(stated)
                               or all(sorted(rack) == sorted(first) for rack in stated)))

    @property
    def known(self) -> Counter[str]:
        """Tiles the rack surely holds: all the lines say together."""
        known = self._known
        if known is None:
            stated = self.stated
            known = _counts(stated[0]) if stated else Counter()
            for rack in stated[1:]:
                for tile, count in _counts(rack).items():
                    if count > known[tile]:
                        known[tile] = count
            self._known = known
        return known

    def most(self) -> int:
        """At most how many tiles are known (without counting them)."""
        known = self._known
        return sum(known.values()) if known is not None else sum(map(len, self.stated))

    def spent(self) -> Counter[str]:
        """The named tiles that left the rack at the move ending the span."""
        if self.placed:
            return Counter(RACK_LABELS[t.label] for t in self.placed)
        return Counter(self.out)

    def add(self, rack: tuple[str, ...], strict: bool) -> bool:
        """A line says the rack holds ``rack``; False, and nothing added, when
        ``strict`` and it contradicts what earlier lines said (more tiles than held
        together)."""
        stated = self.stated
        if not stated:
            self._known = None
        elif rack != stated[-1]:
            merged = self.known | _counts(rack)
            if strict and sum(merged.values()) > self.size:
                return False
            self._known = merged
        stated.append(rack)
        return True

    def widen(self, tiles: Counter[str]) -> None:
        """The rack holds ``tiles`` too, as other lines tell: taken when they fit."""
        if not tiles or self.whole:
            return
        known = self.known
        merged = known | tiles
        if merged != known and sum(merged.values()) <= self.size:
            self._known = merged
            self.widened = True

    def tell(self, counts: dict[str, int]) -> Rack:
        """The rack as positions show it: None when no tile is known but some are held.
        What several lines tell together is held to the tiles of the set (``counts``)
        off the board: lines that contradict the board do not add up."""
        stated = self.stated
        if self.whole or (not self.widened and len(stated) == 1 and UNKNOWN not in stated[0]):
            return stated[0] if stated else ()
        known = self.known
        board = self.board
        if board and any(n > counts.get(t, 0) - board.get(t, 0) for t, n in known.items()):
            known = +Counter({t: min(n, counts.get(t, 0) - board.get(t, 0))
                              for t, n in known.items()})
        whole = [rack for rack in stated if UNKNOWN not in rack]
        if sum(known.values()) > self.size:
            # The lines contradict each other or the tiles held: the last one's word.
            return whole[-1] if whole else None
        for rack in whole:
            if Counter(rack) == known:
                return rack
        if known:
            return tuple(sorted(known.elements()))
        return () if self.size <= 0 else None


def known_racks(record: GcgRecord, rules: Rules, steps: list[Step], start: State,
                withdrawals: Collection[int] = ()) -> tuple[list[Racks], Racks]:
    """The racks after each replayed event, and the racks at ``start``, before the first
    one; ``withdrawals`` are the indices of the steps that withdraw the play before
    them."""
    first = tuple(_Span(size) for size in start.rack_sizes)
    walk = _Walk(rules, first)
    at = walk.run(steps, start.bag, set(withdrawals))
    for seat, stated, _line in record.initial_racks:
        if seat < len(first):
            walk.state(first[seat], rack_tiles(rules, stated))
    incomplete = _incomplete_seat(record, steps)
    if incomplete is not None:
        walk.state(walk.current[incomplete], rack_tiles(rules, record.incomplete_rack or ""))
    for chain in walk.chains:
        for span in chain:
            span.judge()
        _settle(chain)
    for side in walk.sides:  # a phoney's leave: what is known of the rack it was made from
        side.judge()
        if side.parent is not None and not side.whole:
            spent = side.spent()
            if not spent - side.parent.known:
                side.widen(side.parent.known - spent)
    counts = rules.distribution.counts
    for group in (*walk.chains, walk.sides):
        for span in group:
            span.shown = span.tell(counts)
    after: list[Racks] = []
    previous: tuple[_Span, ...] = ()
    racks: Racks = ()
    for spans in at:
        if spans is not previous:
            racks = tuple([span.shown for span in spans])
            previous = spans
        after.append(racks)
    return after, tuple([span.shown for span in first])


_HOLDS_STATED_RACK = frozenset({EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE,
                                EventKind.CHALLENGE_BONUS, EventKind.END_RACK_PENALTY,
                                EventKind.TIME_PENALTY})
"""Events whose rack field, when there is one, is (or is part of) the rack the player
holds at that line: what a ``#rackN`` line since their last event said it is. A
withdrawal's is the rack before the phoney, and a line scoring the other racks has none."""


def check_stated_racks(record: GcgRecord, rules: Rules, steps: Sequence[Step], start: State,
                       sink: DiagnosticSink) -> None:
    """Warn of a ``#rackN`` line that the player's next event line contradicts.

    A player's rack changes only at their own events, so the rack a ``#rackN`` line
    gives (after an overdraw ruling, say) is the one their next line is made from. Racks
    that agree, or one of them partial and fitting the other, are silent."""
    stated: list[tuple[int, int, str, int, int]] = [
        (-1, seat, text, line, start.rack_sizes[seat])
        for seat, text, line in record.initial_racks if seat < len(start.rack_sizes)]
    for index, step in enumerate(steps):
        sizes = step.state.rack_sizes
        stated.extend((index, seat, text, line, sizes[seat])
                      for seat, text, line in step.event.racks_after if seat < len(sizes))
    for index, seat, text, line, size in stated:
        rack = rack_tiles(rules, text)
        if not rack:
            continue
        following = next((s for s in steps[index + 1:] if s.player == seat), None)
        if following is None or following.event.kind not in _HOLDS_STATED_RACK:
            continue
        event = following.event
        later = rack_tiles(rules, event.rack) if event.rack else None
        if not later:
            continue
        told, then = _counts(rack), _counts(later)
        if sum((told | then).values()) > max(size, told.total(), then.total()):
            sink.warning(line, f"#rack{seat + 1} {text} differs from {event.rack}, the rack "
                               f"of {event.nick}'s next line (line {event.line}): the rack "
                               "changes with no event of theirs between")


def _incomplete_seat(record: GcgRecord, steps: list[Step]) -> int | None:
    """The seat whose rack ``#incomplete`` gives: the player on turn after the last
    event, unless a ``#rackN`` line after that event gives their rack, which overrides
    it (the spec), whichever of the two lines comes first."""
    if not record.incomplete_rack or not steps:
        return None
    seat = steps[-1].state.to_move
    if seat is None or any(stated == seat for stated, _rack, _line
                           in steps[-1].event.racks_after):
        return None
    return seat


class _Walk:
    """Each player's positions split into spans, with what each line says of them."""

    def __init__(self, rules: Rules, first: tuple[_Span, ...]) -> None:
        self.rules = rules
        self.current = list(first)
        """Each player's span at the position reached."""
        self.chains = [[span] for span in first]
        """Each player's spans in order, but for phoneys'."""
        self.sides: list[_Span] = []
        """The spans between a phoney and its withdrawal."""
        self.moved = False
        """A span of ``current`` changed since the last position."""
        self.board: dict[str, int] = {}
        """The tiles on the board at the position reached, by rack label."""

    def run(self, steps: list[Step], bag: int, withdrawals: set[int]
            ) -> list[tuple[_Span, ...]]:
        """The spans of every position after an event."""
        current = self.current
        seats = len(current)
        now = tuple(current)
        at: list[tuple[_Span, ...]] = []
        for index, step in enumerate(steps):
            event = step.event
            kind = event.kind
            player = step.player
            span = current[player]
            if kind is _PLAY:
                if step.rack is not None:
                    if span.stated:
                        span = self.state(span, step.rack, player)
                    else:
                        span.stated.append(step.rack)
                    span.told = True
                self._play(step, span, bag)
            elif kind in _MADE_FROM_RACK:
                self._made_from_rack(index, step, span, withdrawals)
            elif kind is not _TIME_PENALTY:
                self._other(event, span, player)
            if event.racks_after:
                for seat, stated, _line in event.racks_after:
                    if seat < seats:
                        self.state(current[seat], rack_tiles(self.rules, stated), seat)
            if self.moved:
                now = tuple(current)
                self.moved = False
            at.append(now)
            bag = step.state.bag
        for span in current:
            span.board = dict(self.board)
        return at

    def _close(self, span: _Span) -> None:
        """``span`` ends at the position reached: keep its board unless one line told
        the whole rack."""
        stated = span.stated
        if len(stated) != 1 or len(stated[0]) != span.size or UNKNOWN in stated[0]:
            span.board = dict(self.board)

    def state(self, span: _Span, rack: Rack, player: int | None = None) -> _Span:
        """A line says the rack of ``span`` holds ``rack``. One that contradicts what
        earlier lines said of it (more tiles than held together) starts a span of its
        own for ``player``: the record changed the rack there, and nothing is carried
        over. The span that holds ``rack``."""
        if rack is None or span.add(rack, strict=player is not None) or player is None:
            return span
        span.loose = span.drawn = span.size
        span.told = True
        self._close(span)
        span = self.current[player] = _Span(span.size)
        self.chains[player].append(span)
        self.moved = True
        span.add(rack, strict=False)
        return span

    def _play(self, step: Step, span: _Span, bag: int) -> None:
        """A play made from the rack of ``span``: a phoney's span is a side step."""
        player = step.player
        state = step.state
        if step.withdrawn:
            new = _Span(state.rack_sizes[player], span, step.placed)
            self.sides.append(new)
        else:
            span.placed, span.drawn = step.placed, bag - state.bag
            self._close(span)
            new = _Span(state.rack_sizes[player])
            self.chains[player].append(new)
        self.current[player] = new
        self.moved = True
        board = self.board
        for label in step.played:
            board[label] = board.get(label, 0) + 1

    def _made_from_rack(self, index: int, step: Step, span: _Span,
                        withdrawals: set[int]) -> None:
        """A pass, an exchange or a withdrawal, made from the rack of ``span``."""
        kind = step.event.kind
        player = step.player
        if kind is _WITHDRAWAL and index in withdrawals and span.parent is not None:
            self._close(span)
            board = self.board
            for tile in step.removed:
                board[RACK_LABELS[tile.label]] -= 1
            span = self.current[player] = span.parent
            self.moved = True
        span = self.state(span, step.rack, player)
        if kind is _EXCHANGE:
            span.told = step.rack is not None
            _exchange(self.rules, step, span)
            self._close(span)
            new = self.current[player] = _Span(step.state.rack_sizes[player])
            self.chains[player].append(new)
            self.moved = True

    def _other(self, event: Event, span: _Span, player: int) -> None:
        """Lines that tell of a rack without changing it."""
        kind = event.kind
        if kind is _CHALLENGE_BONUS:
            # The rack after the challenged play (liwords: the tiles played next).
            self.state(span, rack_tiles(self.rules, event.rack) if event.rack else None, player)
        elif kind is _END_RACK_POINTS:
            tiles = rack_tiles(self.rules, event.tiles)
            if len(self.current) == 2 and span.size and not self.current[1 - player].size:
                # Written for the player still holding tiles (the opponent went out):
                # the tiles left are that player's own (the replay warns of the line).
                self.state(span, self._left(span.size) or tiles, player)
                return
            self.state(span, (), player)
            if len(self.current) == 2:
                other = self.current[1 - player]
                self.state(other, self._left(other.size) or tiles, 1 - player)
        elif kind is _END_RACK_PENALTY:
            self.state(span, self._left(span.size) or rack_tiles(self.rules, event.tiles), player)

    def _left(self, size: int) -> Rack:
        """The tiles off the board when they are exactly a rack of ``size`` (the bag
        empty and the other racks too): what an end-of-game line must name, so a line
        naming others (the replay warns of it) does not change the rack shown."""
        board = self.board
        left = [label for label, count in self.rules.distribution.counts.items()
                for _ in range(count - board.get(label, 0))]
        return tuple(left) if size and len(left) == size else None


def _exchange(rules: Rules, step: Step, span: _Span) -> None:
    """What leaves a rack at an exchange, and how many tiles come in."""
    event = step.event
    if event.exchange_count is not None:
        span.loose = span.drawn = event.exchange_count
        return
    try:
        tiles = rules.codec.split(event.tiles, allow=BLANK + UNKNOWN)
    except TileError:
        span.loose = span.drawn = RACK_SIZE  # nothing of the rack is carried over
        return
    span.out = [t.upper() for t in tiles if t != UNKNOWN]
    span.loose = len(tiles) - len(span.out)
    span.drawn = len(tiles)


def _settle(chain: list[_Span]) -> None:
    """Carry what is known of each rack in ``chain`` to the racks before and after it.
    A span known whole takes nothing."""
    for j in range(len(chain) - 2, -1, -1):
        span = chain[j]
        if span.whole:
            continue
        # The rack before a move holds what left it (its rack field says so, if it has
        # one) and what of the next rack was not drawn: at most ``drawn`` tiles of each
        # kind may have been.
        after = chain[j + 1].known
        drawn = span.drawn
        if after and (not drawn or max(after.values()) > drawn):
            kept = after if not drawn else Counter(
                {t: n - drawn for t, n in after.items() if n > drawn})
            span.widen(span.spent() + kept)
        elif not span.told:
            span.widen(span.spent())
    for j in range(len(chain) - 1):
        span, later = chain[j], chain[j + 1]
        if later.whole or span.most() <= len(span.placed) + len(span.out) + span.loose:
            continue  # nothing known is kept (a rack field of the tiles played)
        # The tiles kept stay on the rack (when it held what left it).
        spent = span.spent()
        if spent - span.known:
            continue
        left = span.known - spent
        if span.loose:
            loose = span.loose
            left = Counter({t: n - loose for t, n in left.items() if n > loose})
        later.widen(left)


def _counts(rack: tuple[str, ...]) -> Counter[str]:
    """The tiles of a rack a line names, by label."""
    counts = Counter(rack)
    if UNKNOWN in counts:
        del counts[UNKNOWN]
    return counts


def rack_tiles(rules: Rules, rack: str) -> Rack:
    """A rack field's tiles by label (``?`` a blank); None when it cannot be read. A
    rack of more tiles than a rack holds is read as the replay reads it (Spanish ``CH``
    typed for ``[CH]``: ``TileCodec.rack_reading``), so that a #rackN line and the
    lines made from it agree."""
    if rack.upper() == "UNKNOWN":
        return None
    try:
        labels = rules.codec.split(rack.replace(".", BLANK), allow=BLANK + UNKNOWN)
    except TileError:
        return None
    tiles = [t if t in (BLANK, UNKNOWN) else t.upper() for t in labels]
    if len(tiles) > RACK_SIZE:
        return tuple(rules.codec.rack_reading(rack, tiles, RACK_SIZE))
    return tuple(tiles)

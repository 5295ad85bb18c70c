"""Replay an Upwords game recorded as GCG (``#game-type upwords``): stacks after every event.

Upwords is played on a 10x10 board without premium squares with tiles that stack: a
letter played on a square that holds a *different* letter goes on top of it (the stack
grows by one), a letter equal to the top letter is played through (as is ``.``). The
record is read by :func:`pgm.gcg.parse_gcg`; coordinates are GCG's (``5E`` across,
``E5`` down, rows 1-10, columns A-J); the ``Qu`` tile is written ``Q``, and a play that
types it as it reads (``Qu``, or ``QU`` with a warning: no word has "QUU") is read so.

Rules checked, and why each is an error or a warning (as in ``pgm.crossword``: errors
are what a replay cannot go past, warnings are recorded moves the board can still show):

* **error** (the replay stops there): an unknown player, a coordinate that is not one or
  a play that runs off the board, a character that is not a letter A-Z or ``.``, a ``.``
  on an empty square, a play that puts no tile down, and a sixth tile on a stack: the
  stacking limit is 5 and a taller stack is no Upwords position at all.
* **warning**: a play that covers every letter of a word already on the board in its
  line in one turn (the rules forbid it, but the position is real and the game went on
  from it, so the record is shown as played); a first play that covers none of the four
  centre squares; a later play that neither touches, stacks on nor plays through a
  tile; letters played that are not on the recorded rack; an exchange of more than one
  tile (the classic rules allow one a turn; house rules differ); a move out of turn; a
  wrong running total.

Scores are taken as recorded: editions and house rules score Upwords differently (2 per
tile on a flat word, the stack heights otherwise, bonuses for Qu or for all seven tiles),
so the board's score is not checked and ``computed_score`` is null. The game is complete
when the record ends it with an end-of-game rack event (``(TILES)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from pgm.board import Placement, parse_coordinate
from pgm.crossword import RunningTotals
from pgm.diagnostics import Diagnostic, DiagnosticSink, Severity
from pgm.gcg import Event, EventKind, GcgRecord
from pgm.gcg_model import unknown_nickname
from pgm.scoring import square_name
from pgm.ubf import LETTERS, MAX_HEIGHT, SIZE, Stack, UpwordsBoard, write_ubf

GAME_TYPE = "upwords"
BOARD_NAME = "Upwords"
"""The 10x10 board without premium squares."""
CENTRE = frozenset({(4, 4), (4, 5), (5, 4), (5, 5)})
"""The four centre squares (E5, F5, E6, F6); the first word must cover one."""

Square = tuple[int, int]

_QU = re.compile(r"([Qq])[Uu]")
"""The ``Qu`` tile typed as it reads, two characters for one square."""

_QU_UPPER = re.compile(r"[Qq]U")
"""The same with an upper-case U, which reads as a Qu tile and a U tile."""


def _one_char_a_tile(typed: str) -> str:
    """Tiles as written, with the ``Qu`` tile typed as it reads (``QuIT``) as ``Q``."""
    return _QU.sub(r"\1", typed)


def is_upwords(record: GcgRecord) -> bool:
    """Whether the record's ``#game-type`` says Upwords (any case)."""
    return record.pragmas.get("game-type", "").strip().lower() == GAME_TYPE


@dataclass(frozen=True)
class UpwordsPosition:
    """The state between two events: the stacks, the totals and who moves next."""

    board: UpwordsBoard
    scores: tuple[int, ...]
    to_move: int | None
    """Seat index of the player to move; None once the game is over."""
    game_over: bool = False


@dataclass(frozen=True)
class UpwordsTurn:
    """One replayed event and the position after it."""

    number: int
    """1-based index of the event in the record."""
    event: Event
    player: int
    position: UpwordsPosition
    stacked: tuple[Square, ...] = ()
    """Squares that received a tile this turn, in the order written."""
    words: tuple[str, ...] = ()
    """Words formed: the main word first, then the cross-words through new tiles; the
    ``Qu`` tile is spelt ``QU`` in them."""
    tiles: str = ""
    """A play's word one character a square, as placed: ``QuIT`` and ``QUIT`` are
    ``QIT`` (the event keeps the word as the record writes it)."""


@dataclass(frozen=True)
class UpwordsGame:
    record: GcgRecord
    start: UpwordsPosition
    turns: tuple[UpwordsTurn, ...]
    diagnostics: tuple[Diagnostic, ...]
    stopped_at: int | None = None
    """Line of the event that stopped the replay, if one did."""

    @property
    def final(self) -> UpwordsPosition:
        return self.turns[-1].position if self.turns else self.start

    @property
    def complete(self) -> bool:
        return self.final.game_over

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)

    def ubf(self, index: int) -> str:
        """UBF of the board after ``turns[index]`` (``-1``: before the first event)."""
        position = self.turns[index].position if index >= 0 else self.start
        return write_ubf(position.board)


class _StopReplay(Exception):
    pass


@dataclass(frozen=True)
class _Play:
    board: UpwordsBoard
    stacked: tuple[Square, ...]
    through: tuple[Square, ...]
    """Squares the play passes over without adding a tile."""


@dataclass
class _Replay:
    record: GcgRecord
    sink: DiagnosticSink
    turns: list[UpwordsTurn] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.last_turn_line = self.record.last_turn_line()
        self.totals = RunningTotals(self.seats)

    @property
    def seats(self) -> int:
        return max(len(self.record.players), 1)

    def run(self, start: UpwordsPosition) -> int | None:
        """Replay the events into ``turns``; the line that stopped it, if one did: an
        event that cannot be replayed, or a line of the record that cannot be read."""
        position = start
        for number, event in enumerate(self.record.readable_events(), start=1):
            try:
                turn = self._event(number, event, position)
            except _StopReplay:
                return event.line
            self.turns.append(turn)
            position = turn.position
        return self.record.unreadable_line

    def _event(self, number: int, event: Event, before: UpwordsPosition) -> UpwordsTurn:
        player = self._player(event, before)
        turn = UpwordsTurn(number, event, player, before)
        if event.kind.is_turn:
            self._check_turn_order(event, player, before)
            turn = replace(turn, position=replace(before, to_move=(player + 1) % self.seats))
        if event.kind is EventKind.PLAY:
            turn = self._play(turn, before)
        elif event.kind is EventKind.WITHDRAWAL:
            turn = self._withdrawal(turn, before)
        elif event.kind is EventKind.EXCHANGE:
            self._check_exchange(event)
        elif event.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
            turn = self._closing(turn, before)
        scores = self.totals.check(self.sink, event, player, before.scores)
        return replace(turn, position=replace(turn.position, scores=scores))

    def _closing(self, turn: UpwordsTurn, before: UpwordsPosition) -> UpwordsTurn:
        """A line for the tiles left ends the game, unless moves follow it: a stray line
        typed mid-game, after which the game goes on (as in crossword games; Upwords
        racks are not tracked, so the moves after it are what tell). No turn therefore
        comes after the end of an Upwords game."""
        if turn.event.line < self.last_turn_line:
            self.sink.warning(turn.event.line, "a line for the tiles left before the end of "
                                               "the game; moves follow, so the game goes on")
            return turn
        return replace(turn, position=replace(before, game_over=True, to_move=None))

    def _player(self, event: Event, before: UpwordsPosition) -> int:
        seats = [i for i, p in enumerate(self.record.players) if p.nick == event.nick]
        if not seats:
            self.sink.error(event.line, unknown_nickname(event.nick, self.record.players))
            raise _StopReplay
        if len(seats) > 1 and event.kind.is_turn and before.to_move in seats:
            return before.to_move
        if len(seats) > 1 and self.turns and self.turns[-1].player in seats:
            return self.turns[-1].player
        return seats[0]

    def _check_turn_order(self, event: Event, player: int, before: UpwordsPosition) -> None:
        if before.to_move is not None and player != before.to_move:
            expected = self.record.players[before.to_move].nick
            self.sink.warning(event.line, f"{event.nick} moves out of turn: "
                                          f"it was {expected}'s turn")

    # -- plays -------------------------------------------------------------------------

    def _play(self, turn: UpwordsTurn, before: UpwordsPosition) -> UpwordsTurn:
        event = turn.event
        placement = parse_coordinate(event.position)
        if placement is None:
            self.sink.error(event.line, f"{event.position!r} is not a coordinate "
                                        "(expected e.g. 5E across or E5 down)")
            raise _StopReplay
        tiles = self._one_char_a_square(event)
        play = self._place(event, tiles, before.board, placement)
        self._check_play(event, tiles, before.board, play, placement)
        words = _words(play.board, placement, play.stacked)
        return replace(turn, tiles=tiles, stacked=play.stacked, words=words,
                       position=replace(turn.position, board=play.board))

    def _one_char_a_square(self, event: Event) -> str:
        """The play's word with the ``Qu`` tile as ``Q``. ``Qu`` can only be that tile;
        ``QU`` is read so too, since no word has "QUU" (a Qu tile and a U tile), with a
        warning, as the record should write ``Q``."""
        typed = _QU_UPPER.search(event.word)
        if typed:
            self.sink.warning(event.line, f"{event.position} {event.word}: the Qu tile is "
                                          f"written Q; {typed.group()!r} is read as one Qu "
                                          "tile")
        return _one_char_a_tile(event.word)

    def _place(self, event: Event, tiles: str, board: UpwordsBoard,
               placement: Placement) -> _Play:
        """Put ``tiles`` (one character a square) on the board."""
        squares = list(board.squares)
        stacked: list[Square] = []
        through: list[Square] = []
        where = f"{event.position} {event.word}"
        for offset, char in enumerate(tiles):
            row, col = placement.square(offset)
            if not (0 <= row < SIZE and 0 <= col < SIZE):
                self._stop(event, f"{where} runs off the 10x10 board at tile {offset + 1}")
            name = square_name(row, col)
            current = squares[row * SIZE + col]
            letter = char.upper()
            if char == ".":
                if current is None:
                    self._stop(event, f"{where}: '.' marks a played-through tile at {name}, "
                                      "but that square is empty")
                through.append((row, col))
                continue
            if letter not in LETTERS:
                self._stop(event, f"{where}: {char!r} is not an Upwords tile (expected A-Z, "
                                  "Q for Qu, or '.' for a played-through tile)")
            if char != letter:
                self.sink.warning(event.line, f"{where}: Upwords has no blanks; {char!r} "
                                              f"is read as {letter!r}")
            if current is not None and current.letter == letter:
                through.append((row, col))
                continue
            height = current.height + 1 if current else 1
            if height > MAX_HEIGHT:
                self._stop(event, f"{where}: {letter} on {name} would make a stack of "
                                  f"{height}; stacks hold at most {MAX_HEIGHT} tiles")
            squares[row * SIZE + col] = Stack(letter, height)
            stacked.append((row, col))
        if not stacked:
            self._stop(event, f"{where} puts no tile on the board (every letter is already "
                              "on top of its square)")
        return _Play(UpwordsBoard(tuple(squares)), tuple(stacked), tuple(through))

    def _stop(self, event: Event, message: str) -> None:
        self.sink.error(event.line, message)
        raise _StopReplay

    def _check_play(self, event: Event, tiles: str, board: UpwordsBoard, play: _Play,
                    placement: Placement) -> None:
        line = event.line
        where = f"{event.position} {event.word}"
        for word, squares in _covered_words(board, placement, set(play.stacked)):
            self.sink.warning(line, f"{where} covers every letter of {word} "
                                    f"({square_name(*squares[0])}-{square_name(*squares[-1])})"
                                    " in one turn; at least one letter of a word must stay")
        main = _run(play.board, play.stacked[0], placement.horizontal)
        if len(main) > len(tiles):
            self.sink.warning(line, f"the word on the board is {_letters(play.board, main)}, "
                                    f"longer than the {len(tiles)} tiles written")
        if board.is_empty:
            if not CENTRE & set(play.stacked):
                self.sink.warning(line, "the first play covers none of the four centre "
                                        "squares (E5, F5, E6, F6)")
        elif not play.through and not _connects(board, play.stacked):
            self.sink.warning(line, f"{where} does not touch any tile on the board")
        self._check_rack(event, play)

    def _check_rack(self, event: Event, play: _Play) -> None:
        rack = event.rack.upper()
        if not rack or rack == "UNKNOWN" or "_" in rack or "?" in rack:
            return
        left = list(rack)
        missing = []
        for row, col in play.stacked:
            letter = play.board.at(row, col).letter  # type: ignore[union-attr]
            if letter in left:
                left.remove(letter)
            else:
                missing.append(letter)
        if missing:
            self.sink.warning(event.line, f"played tiles {''.join(sorted(missing))} are not "
                                          f"on the rack {rack}")

    def _check_exchange(self, event: Event) -> None:
        """The classic rules let a player exchange one tile instead of playing; house
        rules differ, so more is a warning."""
        count = event.exchange_count
        if count is None:
            count = len(_one_char_a_tile(event.tiles))
        if count > 1:
            shown = f" ({event.tiles})" if event.tiles else ""
            self.sink.warning(event.line, f"{event.nick} exchanges {count} tiles{shown}; the "
                                          "classic Upwords rules let a player exchange one "
                                          "tile a turn instead of playing")

    # -- withdrawals -------------------------------------------------------------------

    def _withdrawal(self, turn: UpwordsTurn, before: UpwordsPosition) -> UpwordsTurn:
        event = turn.event
        phoney = self.turns[-1] if self.turns else None
        if phoney is None or phoney.event.kind is not EventKind.PLAY \
                or phoney.player != turn.player:
            self.sink.warning(event.line, f"'--' withdraws a play, but the previous event is "
                                          f"not a play by {event.nick}; the board is left "
                                          "as it is")
            return replace(turn, position=before)
        earlier = self.turns[-2].position.board if len(self.turns) > 1 else UpwordsBoard()
        return replace(turn, position=replace(before, board=earlier))


# ---------------------------------------------------------------------------------------
# Lines of tiles


def _step(horizontal: bool) -> Square:
    return (0, 1) if horizontal else (1, 0)


def _run(board: UpwordsBoard, square: Square, horizontal: bool) -> list[Square]:
    """The squares of the unbroken line of tiles through ``square`` in one direction."""
    dr, dc = _step(horizontal)
    row, col = square
    while row - dr >= 0 and col - dc >= 0 and board.at(row - dr, col - dc):
        row, col = row - dr, col - dc
    squares = []
    while row < SIZE and col < SIZE and board.at(row, col):
        squares.append((row, col))
        row, col = row + dr, col + dc
    return squares


def _letters(board: UpwordsBoard, squares: list[Square]) -> str:
    """The word the squares' top letters spell, the ``Qu`` tile as ``QU``."""
    return "".join(_spelt(board.at(r, c).letter) for r, c in squares)  # type: ignore[union-attr]


def _spelt(letter: str) -> str:
    return "QU" if letter == "Q" else letter


def _words(board: UpwordsBoard, placement: Placement,
           stacked: tuple[Square, ...]) -> tuple[str, ...]:
    words = []
    main = _run(board, stacked[0], placement.horizontal)
    if len(main) > 1:
        words.append(_letters(board, main))
    for square in stacked:
        cross = _run(board, square, not placement.horizontal)
        if len(cross) > 1:
            words.append(_letters(board, cross))
    return tuple(words)


def _covered_words(board: UpwordsBoard, placement: Placement,
                   stacked: set[Square]) -> list[tuple[str, list[Square]]]:
    """Words (runs of two or more tiles) in the play's line before it, all of whose
    letters the play covers. Only the play's own line can lose a whole word: a play
    along a row puts one tile on each column word it crosses."""
    covered = []
    seen: set[Square] = set()
    for square in sorted(stacked):
        if board.at(*square) is None or square in seen:
            continue
        run = _run(board, square, placement.horizontal)
        seen.update(run)
        if len(run) > 1 and all(s in stacked for s in run):
            covered.append((_letters(board, run), run))
    return covered


def _connects(board: UpwordsBoard, stacked: tuple[Square, ...]) -> bool:
    """Whether a play stacks on, or lies next to, a tile that was on the board before."""
    for row, col in stacked:
        if board.at(row, col):
            return True
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            r, c = row + dr, col + dc
            if 0 <= r < SIZE and 0 <= c < SIZE and board.at(r, c):
                return True
    return False


def replay(record: GcgRecord) -> UpwordsGame:
    """Replay a parsed Upwords record; problems are in ``game.diagnostics``, never raised."""
    sink = DiagnosticSink(record.path)
    sink.items.extend(record.diagnostics)
    seats = max(len(record.players), 1)
    start = UpwordsPosition(UpwordsBoard(), (0,) * seats, 0)
    run = _Replay(record, sink)
    stopped = run.run(start)
    # in line order, as an editor shows the file (and a crossword replay lists them): the
    # parse's problems come first in the sink, the replay's after them
    in_order = tuple(sorted(sink.items, key=lambda diagnostic: diagnostic.line))
    return UpwordsGame(record, start, tuple(run.turns), in_order, stopped)

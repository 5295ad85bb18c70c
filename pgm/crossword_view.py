"""What the crossword templates show, computed from a replayed game.

Templates receive these frozen values and only lay them out; every word a spectator
reads about a move ("Ann played RETAINS at 8D across for 66") is made here, so the
visible text, the screen-reader text and the JSON agree. The board is drawn by
``pgm.crossword_board``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pgm.crossword_model import (
    CrosswordGame,
    Position,
    Turn,
    unseen_tiles,
    vowel_consonant_counts,
)
from pgm.diagnostics import Diagnostic
from pgm.gcg import Event, EventKind
from pgm.site_model import isolated
from pgm.tiles import BLANK, TILE_TEXTS, UNKNOWN, TileError, tile_text

# ---------------------------------------------------------------------------------------
# Moves in words


def plural(n: int, word: str) -> str:
    """``1 point``, ``-2 points``: the count and the word, plural unless it is one."""
    return f"{n} {word}{'' if abs(n) == 1 else 's'}"


def word_display(turn: Turn, game: CrosswordGame) -> str:
    """The main word with played-through tiles in parentheses: ``JAVE(L)IN``, and
    multi-character tiles in brackets (``[CH]E(R)O``, see :func:`pgm.tiles.tile_text`)."""
    notation = turn.position.last_move if turn.event.kind is EventKind.PLAY else ""
    if not notation or not turn.placed:
        return turn.event.word
    board = turn.position.cells
    size = game.rules.layout.size
    placed = turn.placed
    first = placed[0]
    if len(placed) == 1:
        horizontal = not turn.event.position[:1].isalpha()
    else:
        horizontal = placed[1].row == first.row
    # squares by their index in ``cells``: every turn of every game comes through here
    step = 1 if horizontal else size
    low = first.row * size if horizontal else first.col  # the line's first square
    high = low + (size - 1) * step
    new = {tile.row * size + tile.col for tile in placed}
    index = first.row * size + first.col
    while index > low and board[index - step]:
        index -= step
    out, through = [], False
    while index <= high and board[index]:
        is_new = index in new
        if not is_new and not through:
            out.append("(")
        if is_new and through:
            out.append(")")
        through = not is_new
        out.append(TILE_TEXTS[board[index]])
        index += step
    if through:
        out.append(")")
    return "".join(out)


def describe(turn: Turn, game: CrosswordGame, word: str | None = None) -> str:
    """One sentence saying what happened, for the page, its title and screen readers;
    ``word`` is the play's :func:`word_display` when the caller has it already. The
    player's name is :func:`~pgm.site_model.isolated`, as a sentence pgm composes needs:
    the sentence is printed in attributes and the page's ``<title>`` too, where no
    ``<bdi>`` can go."""
    event = turn.event
    name = isolated(game.record.players[turn.player].name)
    kind = event.kind
    if kind is EventKind.PLAY:
        # a coordinate starts with the row it runs along: a number, or on a board with
        # lettered rows a letter
        row_first = event.position[:1].isalpha() == (game.rules.orientation == "lettered-rows")
        direction = "across" if row_first else "down"
        word = word_display(turn, game) if word is None else word
        text = (f"{name} played {word} at {event.position.upper()} "
                f"{direction} for {plural(event.score, 'point')}")
        if len(turn.placed) == 7:
            text += " (bingo)"
        if turn.withdrawn:
            # Played phonies must look different, or viewers learn them as words.
            text += ": a phoney, challenged off on the next turn"
        return text
    tiles = _tiles_of(game, event.tiles) if event.tiles else None
    if tiles is None:
        return describe_other_event(event, name, 0)
    return describe_other_event(event, name, len(tiles), tile_text(tiles))


def describe_other_event(event: Event, name: str, tile_count: int,
                         tiles: str | None = None) -> str:
    """Words for every event but a play, for crossword and Upwords pages alike (``name``
    as :func:`~pgm.site_model.isolated` gives it); ``tile_count`` counts the tiles the
    line names (an exchange may give a number instead), and ``tiles`` are the tiles of
    an exchange or an end-of-game rack line as shown (see :func:`pgm.tiles.tile_text`;
    as written when not given)."""
    kind = event.kind
    shown_tiles = event.tiles if tiles is None else tiles
    if kind is EventKind.PASS:
        return f"{name} passed"
    if kind is EventKind.EXCHANGE:
        count = event.exchange_count if event.exchange_count is not None else tile_count
        shown = f" ({shown_tiles})" if event.tiles else ""
        return f"{name} exchanged {plural(count, 'tile')}{shown}"
    if kind is EventKind.WITHDRAWAL:
        return (f"{name}'s play was challenged off and withdrawn: "
                f"{plural(event.score, 'point')}")
    if kind is EventKind.CHALLENGE_BONUS:
        return f"{name}'s play stood a challenge: bonus of {plural(event.score, 'point')}"
    if kind is EventKind.END_RACK_POINTS and event.score >= 0:
        return (f"{name} gets {plural(event.score, 'point')} for the tiles left on the "
                f"opponent's rack ({shown_tiles})")
    if kind is EventKind.TIME_PENALTY:
        return _penalty(name, event.score, "for overtime")
    # the points for the tiles left, taken away (Upwords writes them without the rack)
    return _penalty(name, event.score, f"for the tiles left on the rack ({shown_tiles})")


def _penalty(name: str, score: int, reason: str) -> str:
    """A penalty's words. The record writes it negative; one written positive (a sign
    mistyped, which the replay warns of) adds to the score as recorded, so the sentence
    says so, not that the player "loses -5 points"."""
    if score > 0:
        return (f"{name} gets {plural(score, 'point')} {reason}: recorded as {score:+d}, "
                "where a penalty takes points away")
    return f"{name} loses {plural(-score, 'point')} {reason}"


# ---------------------------------------------------------------------------------------
# Panels


class PlayerLine(NamedTuple):
    """A player's line of the score table. This and the other values made for every
    turn page (``Unseen``, ``SheetRow``) are named tuples: made three times faster
    than frozen dataclasses, and read the same way by templates."""

    name: str
    nick: str
    score: int
    spread: int
    rack: str | None
    """Known rack; a partial one ends with how many tiles are unknown (``R + 6
    unknown``); ``""`` when empty (the player went out), None when the record tells
    none of the tiles held."""
    to_move: bool

    @property
    def spread_text(self) -> str:
        """The spread with its sign (``+12``, ``-3``, ``+0``)."""
        return f"{self.spread:+d}"


class Unseen(NamedTuple):
    tiles: tuple[tuple[str, int], ...]
    """(tile as shown, count) in the set's order: ``[LL]`` for the Spanish LL tile, so
    that it does not read as two L tiles beside them."""
    total: int
    vowels: int
    consonants: int
    blanks: int
    bag: int
    viewer: str | None
    """The name of the player to move, whose view the tiles are (the bag and the other
    racks, which the page shows beside them: the heading must say whose view it is);
    None when they are every tile off the board (the game is over, or the record tells
    nothing of the mover's rack)."""
    partial: bool
    """The viewer's rack is partly unknown: the tiles are the viewer's unseen ones and
    the unknown tiles of the viewer's rack."""


def player_lines(game: CrosswordGame, position: Position) -> tuple[PlayerLine, ...]:
    """Each seated player's line of the score table; the spread is against the best of
    the others (in the usual game of two, the one opponent)."""
    scores = position.scores
    racks = position.racks or (None,) * len(scores)
    to_move = position.to_move
    if len(scores) == 2:
        spreads: Sequence[int] = (scores[0] - scores[1], scores[1] - scores[0])
    else:
        spreads = [score - max(scores[:seat] + scores[seat + 1:], default=0)
                   for seat, score in enumerate(scores)]
    return tuple([PlayerLine(player.name, player.nick, score, spread, rack_text(rack, held),
                             to_move == seat)
                  for seat, (player, score, spread, rack, held) in enumerate(zip(
                      game.record.players, scores, spreads, racks, position.rack_sizes,
                      strict=False))])  # a record naming no player has a seat, no line


def rack_text(rack: tuple[str, ...] | None, held: int) -> str | None:
    """A rack as the score table shows it: the known tiles, and how many of the ``held``
    tiles are unknown (a record may list only the tiles played, and nobody sees the
    tiles drawn after a phoney); None when no tile is known but some are held."""
    if rack is None:
        return None
    known = [t for t in rack if t != UNKNOWN] if UNKNOWN in rack else rack
    unknown = held - len(known)
    if unknown <= 0:
        return tile_text(known)
    return f"{tile_text(known)} + {unknown} unknown" if known else None


def unseen_view(game: CrosswordGame, position: Position,
                off_board: dict[str, int] | None = None) -> Unseen:
    tiles = unseen_tiles(game.rules, position, off_board)
    vowels, consonants, blanks = vowel_consonant_counts(game.rules, tiles)
    return Unseen(tuple([(TILE_TEXTS[label], count) for label, count in tiles.items()]),
                  sum(tiles.values()), vowels, consonants, blanks, position.bag,
                  *unseen_viewer(game, position))


def unseen_viewer(game: CrosswordGame, position: Position) -> tuple[str | None, bool]:
    """(``Unseen.viewer``, ``Unseen.partial``): :func:`unseen_tiles` takes away the
    known tiles of the mover's rack, when the record tells any."""
    seat = position.to_move
    rack = position.racks[seat] if seat is not None and position.racks else None
    if seat is None or rack is None:
        return None, False
    known = len(rack) - rack.count(UNKNOWN)
    return game.record.players[seat].name, known < position.rack_sizes[seat]


class SheetRow(NamedTuple):
    number: int
    player: str
    rack: str
    position: str
    word: str
    score: str
    cumulative: int
    kind: str
    noted: bool
    flagged: bool
    summary: str
    phoney: bool = False
    """A play challenged off on the next turn: marked on the sheet, where spectators
    read the game's words back (and would learn a phoney as a word)."""


def score_sheet(game: CrosswordGame, diagnostics_by_line: dict[int, list[Diagnostic]]
                ) -> tuple[SheetRow, ...]:
    rows = []
    for turn in game.turns:
        word = word_display(turn, game)
        event = turn.event
        rows.append(sheet_row(turn, game.record.players[turn.player].name, word,
                              describe(turn, game, word), diagnostics_by_line,
                              rack=tile_text(turn.rack) if turn.rack
                              else shown_tiles(game, event.rack, "."),
                              tiles=shown_tiles(game, event.tiles), phoney=turn.withdrawn))
    return tuple(rows)


def shown_tiles(game: CrosswordGame, written: str, allow: str = "") -> str:
    """Tiles as the record writes them (a rack, an exchange's), shown as
    :func:`pgm.tiles.tile_text` shows tiles: ``?AEI[LL]OU`` whether the record wrote
    ``?AEI[LL]OU`` or ``|?|A|E|I|[LL]|O|U|``, ``A[L·L][QU]`` for ``AL·LQU``. Written
    as they are when they are not tiles of the set (``UNKNOWN``) or none are given."""
    tiles = _tiles_of(game, written, allow) if written else None
    return written if tiles is None else tile_text(tiles)


def _tiles_of(game: CrosswordGame, written: str, allow: str = "") -> list[str] | None:
    """The tiles ``written`` names (blanks and unknown tiles too, and ``allow``); None
    when they are not tiles of the game's set."""
    try:
        return game.rules.codec.split(written, allow=BLANK + UNKNOWN + allow)
    except TileError:
        return None


def sheet_row(turn: Any, name: str, play_word: str, summary: str,
              diagnostics_by_line: dict[int, list[Diagnostic]], *,
              rack: str | None = None, tiles: str | None = None, phoney: bool = False
              ) -> SheetRow:
    """One score-sheet row of a GCG event (crossword or Upwords turn): ``play_word`` is
    shown for plays, a short word for the other events. ``rack`` and ``tiles`` are the
    event's rack and the tiles it names as shown, when not as written."""
    event = turn.event
    return SheetRow(turn.number, name, event.rack if rack is None else rack,
                    event.position.upper(),
                    _sheet_word(event, play_word, event.tiles if tiles is None else tiles),
                    f"{event.score:+d}", turn.position.scores[turn.player], event.kind.value,
                    bool(event.notes), bool(diagnostics_by_line.get(event.line)), summary,
                    phoney)


def _sheet_word(event: Event, play_word: str, tiles: str) -> str:
    """The Move column of the score sheet: the word for a play, a short word else."""
    kind = event.kind
    if kind is _PLAY:
        return play_word
    if kind is _EXCHANGE:
        return f"exch. {tiles or event.exchange_count}"
    if kind in _END_RACK:
        return f"({tiles})"
    return _SHEET_WORDS.get(kind, "")


_PLAY, _EXCHANGE = EventKind.PLAY, EventKind.EXCHANGE
_END_RACK = frozenset((EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY))
_SHEET_WORDS = {EventKind.PASS: "pass", EventKind.WITHDRAWAL: "withdrawn",
                EventKind.CHALLENGE_BONUS: "challenge bonus", EventKind.TIME_PENALTY: "time"}
"""The sheet's word for the other events. Enum members are looked up once: naming them
costs an attribute lookup each time, and every turn of every game comes through here."""


@dataclass(frozen=True)
class Tick:
    """One labelled value on an axis of the score chart.

    The labels are HTML laid over the SVG, not SVG text: the SVG is stretched to the
    page width (``preserveAspectRatio="none"``), which would distort any text inside it.
    """

    value: int
    """The score or the turn number shown."""
    at: float
    """Where it sits, in percent: from the top for a score, from the left for a turn."""


@dataclass(frozen=True)
class Chart:
    """A score chart as SVG polylines, one per player (no JavaScript library)."""

    width: int
    height: int
    lines: tuple[tuple[str, str, int], ...]
    """(player name, points attribute, final score); the name
    :func:`~pgm.site_model.isolated`: the chart prints it beside the score, in an
    attribute and an SVG title too."""
    max_score: int
    """The highest score reached (at least 1)."""
    turns: int
    score_ticks: tuple[Tick, ...]
    """The gridline values, top first: round steps from at or below the lowest score to
    above the highest, so no line runs along the frame's top."""
    turn_ticks: tuple[Tick, ...]
    """Turn 1, round turn numbers and the last turn (the start is x = 0, no label)."""
    grid: str
    """SVG path data for the gridlines inside the frame (the frame draws the outer two)."""


_MOST_SCORE_STEPS = 6
"""At most 7 gridlines: in the chart's 12rem their labels keep clear of each other."""
_MOST_TURN_STEPS = 6
"""Round turn numbers along the bottom, besides turn 1 and the last: room for 2-digit
labels across a 360px phone."""


def _round_steps(smallest: int) -> Iterator[int]:
    """1-2-5 steps from ``smallest`` up (10, 20, 50, 100, ...): values a reader adds up."""
    scale = smallest
    while True:
        yield from (scale, 2 * scale, 5 * scale)
        scale *= 10


def _score_range(low: int, high: int) -> tuple[int, int, int]:
    """(bottom, top, step) of the gridlines: the smallest round step (at least 10 points:
    scores are whole numbers and a 0-point game still gets a scale) that puts the top
    above ``high`` within ``_MOST_SCORE_STEPS`` steps."""
    step = next(s for s in _round_steps(10)
                if high // s + 1 - low // s <= _MOST_SCORE_STEPS)
    return low // step * step, (high // step + 1) * step, step


def _turn_numbers(turns: int) -> list[int]:
    """Turn 1, the round turns and the last turn; a round turn too close to the last
    one for their labels to stand apart is left out."""
    step = next(s for s in _round_steps(1) if turns // s <= _MOST_TURN_STEPS)
    marks = [t for t in range(step, turns, step) if t > 1 and 5 * (turns - t) >= 2 * step]
    return [1, *marks, turns] if turns > 1 else [1]


def score_chart(game: CrosswordGame, width: int = 600, height: int = 200) -> Chart:
    """The game page's chart: every score after each turn, on round gridlines a spectator
    can read values off (x = 0 is the start, x = n is turn n)."""
    seats = len(game.start.scores)
    series = [[0] for _ in range(seats)]
    for turn in game.turns:
        for seat in range(seats):
            series[seat].append(turn.position.scores[seat])
    high = max(max(s) for s in series) if seats else 0
    low = min(min(s) for s in series) if seats else 0
    bottom, top, step = _score_range(low, high)
    span = top - bottom
    steps = max(len(game.turns), 1)

    def y(score: int) -> str:
        return f"{height - (score - bottom) * height / span:.1f}"

    # every player's line has a point per turn at the same x: written once for all
    xs = [f"{i * width / steps:.1f}," for i in range(len(game.turns) + 1)]
    lines = tuple((isolated(game.record.players[seat].name) if seat < len(game.record.players)
                   else "",
                   " ".join([x + y(v) for x, v in zip(xs, series[seat], strict=True)]),
                   series[seat][-1])
                  for seat in range(seats))
    values = range(top, bottom - 1, -step)
    return Chart(width, height, lines, max(high, 1), len(game.turns),
                 tuple(Tick(v, round((top - v) * 100 / span, 2)) for v in values),
                 tuple(Tick(t, round(t * 100 / steps, 2)) for t in _turn_numbers(len(game.turns))),
                 "".join(f"M0 {y(v)}H{width}" for v in values if bottom < v < top))

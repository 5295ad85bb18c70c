"""A ``.gcg`` record as written: who played, the pragmas, and the events in order.

``pgm.gcg`` reads these from a file; ``pgm.crossword`` and ``pgm.upwords`` replay them.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from pgm.diagnostics import Diagnostic


class EventKind(str, enum.Enum):
    """The eight event lines of the GCG spec."""

    PLAY = "play"
    PASS = "pass"
    EXCHANGE = "exchange"
    WITHDRAWAL = "withdrawal"
    CHALLENGE_BONUS = "challenge_bonus"
    END_RACK_POINTS = "end_rack_points"
    END_RACK_PENALTY = "end_rack_penalty"
    TIME_PENALTY = "time_penalty"

    def __init__(self, value: str) -> None:
        # An attribute rather than a property: every replay asks it of every event, and
        # naming a member (``EventKind.PLAY``) is slow on Python 3.11, where the enum
        # metaclass hooks attribute lookup.
        self.is_turn = value in ("play", "pass", "exchange")
        """Turns use up a player's turn; the other events adjust scores around them."""


@dataclass(frozen=True)
class Note:
    """A ``#note`` or ``#comment``, with continuation lines joined by newlines."""

    line: int
    text: str
    kind: str = "note"


@dataclass(frozen=True)
class Event:
    """One event line exactly as recorded."""

    line: int
    kind: EventKind
    nick: str
    rack: str
    """The rack field as written (may be empty, partial, or a placeholder)."""
    score: int
    """Signed score of the event: play score, bonus, penalty (negative)."""
    cumulative: int
    position: str = ""
    """Coordinate of a play, as written (``8D``, ``h2``)."""
    word: str = ""
    """Tile string of a play (``.`` or a letter for played-through tiles)."""
    tiles: str = ""
    """Exchanged tiles, or the tiles in parentheses of an end-of-game line."""
    exchange_count: int | None = None
    """Number of tiles exchanged when only the count was recorded (``-4``)."""
    extra: str = ""
    """Anything after the cumulative score (Quackle's cross-word lists)."""
    notes: tuple[Note, ...] = ()
    racks_after: tuple[tuple[int, str, int], ...] = ()
    """``#rackN`` pragmas after this event: (player index, rack, line)."""
    text: str = ""
    """The whole line, for display and error messages."""


@dataclass(frozen=True)
class Player:
    nick: str
    name: str
    line: int


@dataclass(frozen=True)
class GcgRecord:
    """A parsed record: who played, the game's pragmas, and its events in order."""

    path: str
    players: tuple[Player, ...]
    events: tuple[Event, ...]
    pragmas: dict[str, str]
    """Single-valued pragmas by keyword (``title``, ``lexicon``, ``tile-distribution``, ...)."""
    pragma_lines: dict[str, int] = field(default_factory=dict)
    """The line of each of ``pragmas``, for problems with its value."""
    description: str = ""
    game_notes: tuple[Note, ...] = ()
    """Notes written before the first event."""
    tile_declarations: tuple[tuple[str, str], ...] = ()
    tile_lines: tuple[tuple[str, int], ...] = ()
    """Line of each ``#tile`` pragma, by its upper-case form."""
    incomplete_rack: str | None = None
    """The ``#incomplete`` rack (``""`` when the pragma has no rack), None without it."""
    initial_racks: tuple[tuple[int, str, int], ...] = ()
    """``#rackN`` pragmas before the first event."""
    encoding: str = "iso-8859-1"
    diagnostics: tuple[Diagnostic, ...] = ()
    unreadable_line: int | None = None
    """The first line that could not be read (an error), above the first event or among
    the events: the replay stops there, as at any other error, because it may have
    been a move."""

    def readable_events(self) -> tuple[Event, ...]:
        """The events the replay goes through: those above :attr:`unreadable_line`."""
        stop = self.unreadable_line
        if stop is None:
            return self.events
        return tuple(event for event in self.events if event.line < stop)

    def last_turn_line(self) -> int:
        """The line of the last turn the replay goes through (0: none). A line for the
        tiles left above it is a stray one an annotator typed mid-game: the game goes on."""
        return max((e.line for e in self.readable_events() if e.kind.is_turn), default=0)

    @property
    def title(self) -> str:
        return self.pragmas.get("title", "")

    @property
    def lexicon(self) -> str:
        return self.pragmas.get("lexicon", "")


def unknown_nickname(nick: str, players: Sequence[Player]) -> str:
    """The error for an event line whose nickname no ``#player`` line gives, with the
    one most likely meant: a nickname typed in another case (``>Andy:`` for ``andy``),
    which pgm does not take for it, or misspelled."""
    nicks = [p.nick for p in players]
    known = ", ".join(nicks) or "none"
    same = [n for n in nicks if n.casefold() == nick.casefold()]
    close = same or difflib.get_close_matches(nick, nicks, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    if same:
        hint += " A nickname is written as its #player line has it, case too"
    return f"no player has the nickname {nick!r} (players: {known}){hint}"


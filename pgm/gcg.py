"""Read ``.gcg`` crossword-game records into a ``GcgRecord``: pragmas and events as written.

This layer knows the syntax of the format (GCG 1.3 plus what real files do beyond it,
see ``shared/specs/crossword-facts.md``) and nothing of the rules: tile strings stay
strings, scores are the recorded ones. ``pgm.crossword`` replays the record.
Every line that is not understood becomes a diagnostic; nothing raises.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from pgm.diagnostics import Diagnostic, DiagnosticSink


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
        # naming a member (``EventKind.PLAY``) goes through a descriptor on Python 3.11.
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

    @property
    def title(self) -> str:
        return self.pragmas.get("title", "")

    @property
    def lexicon(self) -> str:
        return self.pragmas.get("lexicon", "")


# ---------------------------------------------------------------------------------------
# Bytes to lines

_UTF8_NAMES = {"utf-8", "utf8"}
_LATIN1_NAMES = {"iso-8859-1", "iso8859-1", "iso 8859-1", "latin-1", "latin1", "iso_8859-1"}
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def decode(data: bytes, sink: DiagnosticSink) -> tuple[str, str]:
    """Decode a record's bytes: ISO-8859-1 unless line 1 says ``#character-encoding``.

    Real files are often UTF-8 without the header (German tournament scrapers). Valid
    UTF-8 with multi-byte sequences is read as UTF-8, with a warning, because Latin-1
    text essentially never forms valid UTF-8 sequences and mojibake helps nobody.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace"), "utf-8"
    first = data.split(b"\n", 1)[0].strip()
    match = re.match(rb"#character-encoding\s+(.+)", first)
    if match:
        name = match.group(1).decode("latin-1").strip()
        if name.lower() in _UTF8_NAMES:
            return _decode_utf8(data, sink), "utf-8"
        if name.lower() not in _LATIN1_NAMES:
            sink.error(1, f"unsupported character encoding {name!r} "
                          "(expected UTF-8 or ISO-8859-1); reading the file as ISO-8859-1")
        return data.decode("latin-1"), "iso-8859-1"
    if not data.isascii():
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return data.decode("latin-1"), "iso-8859-1"
        sink.warning(1, "no '#character-encoding UTF-8' line, but the file is UTF-8: "
                        "read as UTF-8 (the GCG default is ISO-8859-1)")
        return text, "utf-8"
    return data.decode("latin-1"), "iso-8859-1"


def _decode_utf8(data: bytes, sink: DiagnosticSink) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        sink.error(line, "invalid UTF-8 byte sequence although the file declares UTF-8; "
                         "the bad bytes are shown as \ufffd")
        return data.decode("utf-8", errors="replace")


def split_lines(text: str) -> list[str]:
    """Split on LF, CRLF or lone CR, so line numbers match what editors show."""
    return _LINE_BREAK.split(text)


# ---------------------------------------------------------------------------------------
# Event lines

_INT = r"[+-]?\d+"
_SCORE = re.compile(r"^[+-]?\d+$")
_EVENT_HEAD = re.compile(r"^>(.*?):(?:\s+|$)(.*)$")
_PRAGMA = re.compile(r"^#(\S*)\s*(.*)$", re.DOTALL)
_PLAYER_PRAGMA = re.compile(r"^player(\d+)$")
_RACK_PRAGMA = re.compile(r"^rack(\d+)$")


class _EventSyntaxError(ValueError):
    pass


def _score(token: str, what: str) -> int:
    if not _SCORE.match(token):
        raise _EventSyntaxError(f"expected {what} (a number such as +12), found {token!r}")
    return int(token)


def _parse_event_fields(rest: str) -> dict[str, object]:
    """Classify the tokens after ``>nick:`` into the fields of one event kind."""
    tokens = rest.split()
    if not tokens:
        raise _EventSyntaxError("empty event: expected a rack, a move, a score and a total")
    for marker, kind in (("(challenge)", EventKind.CHALLENGE_BONUS),
                         ("(time)", EventKind.TIME_PENALTY)):
        if marker in tokens:
            at = tokens.index(marker)
            if at > 1:
                raise _EventSyntaxError(f"expected at most a rack before {marker}")
            return _tail(kind, tokens[:at], tokens[at + 1:], {})
    if _parenthesised(tokens[0]):
        return _tail(EventKind.END_RACK_POINTS, [], tokens[1:], {"tiles": tokens[0][1:-1]})
    if len(tokens) > 1 and _parenthesised(tokens[1]):
        return _tail(EventKind.END_RACK_PENALTY, tokens[:1], tokens[2:],
                     {"tiles": tokens[1][1:-1]})
    rack, tokens = _split_rack(tokens)
    move = tokens[0] if tokens else ""
    if move == "--":
        return _tail(EventKind.WITHDRAWAL, rack, tokens[1:], {})
    if move == "-":
        return _tail(EventKind.PASS, rack, tokens[1:], {})
    if move.startswith("-"):
        exchanged = move[1:]
        if exchanged.isdigit():
            return _tail(EventKind.EXCHANGE, rack, tokens[1:], {"exchange_count": int(exchanged)})
        return _tail(EventKind.EXCHANGE, rack, tokens[1:], {"tiles": exchanged})
    if len(tokens) < 2:
        raise _EventSyntaxError(
            "expected a coordinate and a word (play), '-' (pass), '-TILES' (exchange), "
            "'--' (withdrawal), '(challenge)', '(time)' or '(TILES)'")
    return _tail(EventKind.PLAY, rack, tokens[2:], {"position": tokens[0], "word": tokens[1]})


def _parenthesised(token: str) -> bool:
    return len(token) >= 2 and token.startswith("(") and token.endswith(")")


def _split_rack(tokens: list[str]) -> tuple[list[str], list[str]]:
    """The rack field is optional: a line may start with the move itself."""
    first = tokens[0]
    if first.startswith("-"):
        return [], tokens
    looks_like_play = (len(tokens) >= 4 and any(map(str.isdigit, first))
                       and _SCORE.match(tokens[2]) is not None)
    if looks_like_play:
        return [], tokens
    return tokens[:1], tokens[1:]


def _tail(kind: EventKind, rack: list[str], rest: list[str],
          fields: dict[str, object]) -> dict[str, object]:
    """Read the score and cumulative that end every event; keep what follows them."""
    if len(rest) < 2 and kind is EventKind.PLAY:
        raise _EventSyntaxError("a play needs a rack, a coordinate, a word, a score and a "
                                "total, e.g. '>Ann: AEINRST 8D RETAINS +66 66'")
    if len(rest) < 2:
        raise _EventSyntaxError(
            f"{kind.value.replace('_', ' ')} needs a score and a cumulative total at the end")
    fields.update(kind=kind, rack=rack[0] if rack else "",
                  score=_score(rest[0], "a score"),
                  cumulative=_score(rest[1], "a cumulative total"),
                  extra=" ".join(rest[2:]))
    return fields


# ---------------------------------------------------------------------------------------
# The reader


@dataclass
class _Reader:
    """Line-by-line state of one parse."""

    sink: DiagnosticSink
    players: dict[int, Player] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    pragmas: dict[str, str] = field(default_factory=dict)
    descriptions: list[str] = field(default_factory=list)
    game_notes: list[Note] = field(default_factory=list)
    tiles: list[tuple[str, str]] = field(default_factory=list)
    tile_lines: list[tuple[str, int]] = field(default_factory=list)
    initial_racks: list[tuple[int, str, int]] = field(default_factory=list)
    incomplete: str | None = None
    open_note: bool = False
    """Whether a bare line continues the last note (true right after a note)."""

    def read(self, lines: list[str]) -> None:
        for number, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                self._pragma(number, line)
            elif line.startswith(">"):
                self.open_note = False
                self._warn_rack_before_event()
                self._event(number, line)
            elif self.open_note:
                self._continue_note(line)
            else:
                self.sink.error(number, "expected a pragma ('#...') or an event ('>nick: ...'), "
                                        f"found {_clip(line)!r}")

    # -- events ------------------------------------------------------------------------

    def _warn_rack_before_event(self) -> None:
        """``#rackN`` gives racks at the end of a game in progress; events after it mean
        the record went on, so the rack is probably stale."""
        racks = self.events[-1].racks_after if self.events else ()
        for _seat, _rack, line in racks:
            if not any(e.line > line for e in self.events):
                self.sink.warning(line, "a #rack line is followed by more events; #rack1/#rack2 "
                                        "normally end the record of a game in progress")

    def _event(self, number: int, line: str) -> None:
        head = _EVENT_HEAD.match(line)
        if not head:
            self.sink.error(number, "event line must start with '>nickname:' followed by a space")
            return
        nick, rest = head.group(1), head.group(2)
        try:
            fields = _parse_event_fields(rest)
        except _EventSyntaxError as exc:
            self.sink.error(number, f"{exc} in {_clip(line)!r}")
            return
        self.events.append(Event(line=number, nick=nick, text=line, **fields))  # type: ignore[arg-type]

    # -- pragmas -----------------------------------------------------------------------

    def _pragma(self, number: int, line: str) -> None:
        keyword, value = _PRAGMA.match(line).groups()  # type: ignore[union-attr]
        keyword, value = keyword.lower(), value.strip()
        self.open_note = False
        handler = _PRAGMA_HANDLERS.get(keyword)
        if handler is not None:
            handler(self, number, value)
        elif _PLAYER_PRAGMA.match(keyword):
            self._player(number, int(keyword[6:]), value)
        elif _RACK_PRAGMA.match(keyword):
            self._rack(number, int(keyword[4:]), value)
        elif keyword in _OBSOLETE:
            self.sink.warning(number, f"#{keyword} is obsolete and ignored: "
                                      f"set {_OBSOLETE[keyword]} in event.yaml instead")
        else:
            self.sink.warning(number, f"unknown pragma #{keyword} ignored")

    def _before_events(self, number: int, keyword: str) -> bool:
        if self.events:
            self.sink.error(number, f"#{keyword} must come before the first event")
            return False
        return True

    def _player(self, number: int, index: int, value: str) -> None:
        if not self._before_events(number, f"player{index}"):
            return
        nick, _, name = value.partition(" ")
        if not nick or index < 1:
            self.sink.error(number, f"#player{index} needs a nickname (and a full name)")
            return
        if index in self.players:
            self.sink.warning(number, f"#player{index} given twice; the last one is used")
        self.players[index] = Player(nick, name.strip() or nick, number)

    def _rack(self, number: int, index: int, value: str) -> None:
        rack = (index - 1, value.split()[0] if value else "", number)
        if not self.events:
            self.initial_racks.append(rack)
            return
        last = self.events[-1]
        self.events[-1] = _replace(last, racks_after=last.racks_after + (rack,))

    def _single(self, number: int, keyword: str, value: str, *, header: bool = True) -> None:
        if header and not self._before_events(number, keyword):
            return
        if keyword in self.pragmas:
            self.sink.warning(number, f"#{keyword} given twice; the last one is used")
        self.pragmas[keyword] = value

    def _note(self, number: int, value: str, kind: str = "note") -> None:
        note = Note(number, value, kind)
        if self.events:
            last = self.events[-1]
            self.events[-1] = _replace(last, notes=last.notes + (note,))
        else:
            self.sink.warning(number, f"#{kind} before the first event: shown with the game, "
                                      "not with a turn")
            self.game_notes.append(note)
        self.open_note = True

    def _continue_note(self, line: str) -> None:
        if self.events and self.events[-1].notes:
            last = self.events[-1]
            note = last.notes[-1]
            joined = Note(note.line, note.text + "\n" + line, note.kind)
            self.events[-1] = _replace(last, notes=last.notes[:-1] + (joined,))
        elif self.game_notes:
            note = self.game_notes[-1]
            self.game_notes[-1] = Note(note.line, note.text + "\n" + line, note.kind)

    def _tile(self, number: int, value: str) -> None:
        parts = value.split()
        if len(parts) != 2:
            self.sink.error(number, "#tile needs an upper-case and a lower-case form, "
                                    "e.g. '#tile L·L l·l'")
            return
        self.tiles.append((parts[0], parts[1]))
        self.tile_lines.append((parts[0], number))

    def _encoding(self, number: int, value: str) -> None:
        if number != 1:
            self.sink.error(number, "#character-encoding must be the first line of the file; "
                                    "ignored here")

    def _incomplete(self, number: int, value: str) -> None:
        self.incomplete = value.split()[0] if value else ""

    def _orientation(self, number: int, value: str) -> None:
        if value not in ("numbered-rows", "lettered-rows"):
            self.sink.warning(number, f"#orientation {value!r} is not 'numbered-rows' or "
                                      "'lettered-rows'; using numbered-rows")
            return
        self._single(number, "orientation", value)

    def _id(self, number: int, value: str) -> None:
        if len(value.split()) != 2:
            self.sink.warning(number, "#id should be an authority and an identifier, "
                                      "e.g. '#id io.woogles p6QRjJHG'")
        self._single(number, "id", value)

    def _description(self, number: int, value: str) -> None:
        if self._before_events(number, "description"):
            self.descriptions.append(value)


def _pragma_single(keyword: str, header: bool = True):  # type: ignore[no-untyped-def]
    return lambda reader, number, value: reader._single(number, keyword, value, header=header)


_PRAGMA_HANDLERS = {
    "title": _pragma_single("title"),
    "description": _Reader._description,
    "lexicon": _pragma_single("lexicon"),
    "game-type": _pragma_single("game-type"),
    "board-layout": _pragma_single("board-layout"),
    "tile-set": _pragma_single("tile-set"),
    "tile-distribution": _pragma_single("tile-distribution"),
    "id": _Reader._id,
    "note": _Reader._note,
    "comment": lambda reader, number, value: reader._note(number, value, "comment"),
    "-": lambda reader, number, value: reader._continue_note(value),
    "tile": _Reader._tile,
    "character-encoding": _Reader._encoding,
    "incomplete": _Reader._incomplete,
    "orientation": _Reader._orientation,
}
_OBSOLETE = {"htarget": "base_url", "ltarget": "the output paths", "style": "theme or css"}


def _replace(event: Event, **changes: object) -> Event:
    from dataclasses import replace

    return replace(event, **changes)  # type: ignore[arg-type]


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_gcg(data: bytes, path: str) -> GcgRecord:
    """Parse a record's bytes; problems are in ``record.diagnostics``, never raised."""
    sink = DiagnosticSink(path)
    text, encoding = decode(data, sink)
    reader = _Reader(sink)
    reader.read(split_lines(text))
    players = _ordered_players(reader, sink)
    return GcgRecord(
        path=path,
        players=players,
        events=tuple(reader.events),
        pragmas=reader.pragmas,
        description="\n".join(reader.descriptions),
        game_notes=tuple(reader.game_notes),
        tile_declarations=tuple(reader.tiles),
        tile_lines=tuple(reader.tile_lines),
        incomplete_rack=reader.incomplete,
        initial_racks=tuple(reader.initial_racks),
        encoding=encoding,
        diagnostics=tuple(sink.items),
    )


def _ordered_players(reader: _Reader, sink: DiagnosticSink) -> tuple[Player, ...]:
    """Players in seat order; gaps and missing pragmas are filled from the events."""
    players = [reader.players[i] for i in sorted(reader.players)]
    numbers = sorted(reader.players)
    if numbers and numbers != list(range(1, len(numbers) + 1)):
        sink.error(reader.players[numbers[-1]].line,
                   f"players are numbered {numbers}; expected #player1 to #player{len(numbers)}")
    for event in reader.events:
        if len(players) >= 2:
            break
        if event.kind.is_turn and all(p.nick != event.nick for p in players):
            sink.warning(event.line, f"no #player pragma names {event.nick!r}; "
                                     "taking the player from the event")
            players.append(Player(event.nick, event.nick.replace("_", " "), event.line))
    if not players:
        sink.warning(1, "no #player1/#player2 lines and no events: the record is empty so far")
    _check_duplicates(players, sink)
    return tuple(players)


def _check_duplicates(players: list[Player], sink: DiagnosticSink) -> None:
    seen: dict[str, Player] = {}
    for player in players:
        if player.nick in seen:
            sink.warning(player.line, f"nickname {player.nick!r} is used by two players; "
                                      "their events are told apart by turn order")
        seen[player.nick] = player
    names = [p.name for p in players]
    for player in players:
        if names.count(player.name) > 1 and player.nick not in [p.nick for p in players
                                                                if p is not player]:
            sink.warning(player.line, f"two players have the full name {player.name!r}")
            break

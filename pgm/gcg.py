"""Read ``.gcg`` crossword-game records into a ``GcgRecord``: pragmas and events as written.

This layer knows the syntax of the format (GCG 1.3 plus what real files do beyond it,
see ``shared/specs/crossword-facts.md``) and nothing of the rules: tile strings stay
strings, scores are the recorded ones. ``pgm.crossword`` replays the record.
Every line that is not understood becomes a diagnostic; nothing raises. The record's
types are in ``pgm.gcg_model``, the pragma lines in ``pgm.gcg_pragmas`` and the bytes'
encoding in ``pgm.gcg_encoding``.
"""

from __future__ import annotations

import difflib
import re

from pgm.diagnostics import DiagnosticSink, Folded, Severity
from pgm.gcg_encoding import decode
from pgm.gcg_model import Event, EventKind, GcgRecord, Note, Player
from pgm.gcg_pragmas import EventFields, OpenEvent, PragmaReader, dedented, finished_notes
from pgm.nul_bytes import CUT_SHORT, NOT_TEXT
from pgm.text_fold import composed

__all__ = ["Event", "EventKind", "GcgRecord", "Note", "Player", "decode", "parse_gcg",
           "split_lines"]


# ---------------------------------------------------------------------------------------
# Bytes to lines

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Split on LF, CRLF or lone CR, so line numbers match what editors show."""
    if "\r" not in text:
        return text.split("\n")  # the same, without the regular expression
    return _LINE_BREAK.split(text)


# ---------------------------------------------------------------------------------------
# Event lines

_EVENT_HEAD = re.compile(r"^>(.*?):(?:\s+|$)(.*)$")
_NOTE_HEADING = re.compile(r"#+(?:\s|$)")
"""A markdown heading in a note (``# Plan``, ``## Why?``): no pragma's name is empty."""
_NOTE_QUOTE = re.compile(r">(?:[\s>]|$)")
"""A markdown quote in a note (``> text``, ``>> text``, ``>`` alone): no event's
nickname starts with a space."""
_SPACED_EVENT = re.compile(r">\s+\S+?:\s+(.*)")
_PLAY = EventKind.PLAY
"""Held in a name: naming an enum member is slow on Python 3.11, and most lines are plays."""
_KEYWORDS = {"(challenge)": EventKind.CHALLENGE_BONUS, "(time)": EventKind.TIME_PENALTY}
"""The words in parentheses the spec gives event lines, as it writes them."""
_TYPO_LENGTH = 6
"""The shortest word in parentheses taken for a mistyped keyword: ``(chalenge)``; a
shorter one (``(tie)``, ``(tme)``) may be a rack, and is read as its tiles."""
_RACK_TILES = 7
"""The most tiles a rack holds: the spec's exchange of "the number of tiles (1-7)"."""


class _EventSyntaxError(ValueError):
    pass


class _KeywordTypo(_EventSyntaxError):
    """A mistyped keyword: the message names the word and says all, without the line."""


def _is_score(token: str) -> bool:
    """A number with an optional sign (``+12``, ``-5``, ``66``): what the regular
    expression ``[+-]?\\d+`` matches (``\\d`` is any script's decimal digit, as for
    ``str.isdecimal``), without a regular expression, since every event line has two."""
    digits = token[1:] if token[:1] in ("+", "-") else token
    return digits.isdecimal()


def _score(token: str, what: str) -> int:
    if not _is_score(token):
        raise _EventSyntaxError(f"expected {what} (a number such as +12), found {token!r}")
    return int(token)


def _parse_event_fields(rest: str, plain: bool) -> EventFields:
    """Classify the tokens after ``>nick:`` into the fields of one event kind; ``plain``
    when no ``#tile`` declares a tile of its own (see :func:`_could_be_tiles`)."""
    tokens = rest.split()
    if not tokens:
        raise _EventSyntaxError("empty event: expected a rack, a move, a score and a total")
    if "(" in rest:  # only then can it be one of these (most lines are plays)
        fields = _parenthesised_event(tokens, plain)
        if fields is not None:
            return fields
    return _turn_fields(tokens)


def _parenthesised_event(tokens: list[str], plain: bool) -> EventFields | None:
    """A challenge bonus, a time penalty or an end-of-game line: each has a token in
    parentheses. None when the line is none of them."""
    for at, token in enumerate(tokens):
        kind = _keyword(token, plain) if token[:1] == "(" else None
        if kind is not None:
            if at > 1:
                raise _EventSyntaxError(f"expected at most a rack before {token.casefold()}")
            return _tail(kind, tokens[0] if at else "", tokens[at + 1:])
    if _parenthesised(tokens[0]):
        return _tail(EventKind.END_RACK_POINTS, "", tokens[1:],
                     tiles=_end_tiles(tokens[0], plain))
    if len(tokens) > 1 and _parenthesised(tokens[1]):
        return _tail(EventKind.END_RACK_PENALTY, tokens[0], tokens[2:],
                     tiles=_end_tiles(tokens[1], plain))
    return None


def _keyword(token: str, plain: bool) -> EventKind | None:
    """The event a keyword in parentheses makes: written as the spec has it, or in
    another case (``(Challenge)``, ``(CHALLENGE)``) when the word cannot be tiles. Real
    files write the keywords in lower case; an annotator's capital is no reason to read
    ``(Challenge)`` as the rack of tiles C, H, A, L, L, E, N, G, E. ``(TIME)`` stays
    tiles: it is a rack of four."""
    kind = _KEYWORDS.get(token.casefold())
    if kind is None or token in _KEYWORDS or not _could_be_tiles(token[1:-1], plain):
        return kind
    return None


def _could_be_tiles(text: str, plain: bool) -> bool:
    """Whether the text of a ``(...)`` could be the tiles of an end-of-game line. Real
    files write them in capitals, a blank as ``?`` (a lower-case letter is a blank on
    the board, not on a rack), and a rack holds at most seven: a longer word of letters
    is no rack, unless ``#tile`` declares tiles of several letters (``plain`` false)."""
    if any(map(str.islower, text)):
        return False
    return not (plain and len(text) > _RACK_TILES and text.isalpha())


def _end_tiles(token: str, plain: bool) -> str:
    """The tiles of an end-of-game line's ``(...)``. A word there that cannot be tiles
    but is a letter or two from a keyword (``(chalenge)``) is that keyword mistyped:
    read as tiles, it would become a rack penalty, with as many confusing warnings."""
    text = token[1:-1]
    if len(text) >= _TYPO_LENGTH and not _could_be_tiles(text, plain):
        words = [keyword[1:-1] for keyword in _KEYWORDS]
        close = difflib.get_close_matches(text.casefold(), words, n=1, cutoff=0.75)
        if close:
            raise _KeywordTypo(f"{token!r} is not a keyword: did you mean '({close[0]})'?")
    return text


def _turn_fields(tokens: list[str]) -> EventFields:
    """A play, a pass, an exchange or a withdrawal."""
    rack, at = _split_rack(tokens)
    move = tokens[at] if at < len(tokens) else ""
    if move.startswith("-"):
        return _dash_move(move, rack, tokens[at + 1:])
    if len(tokens) < at + 2:
        raise _EventSyntaxError(
            "expected a coordinate and a word (play), '-' (pass), '-TILES' (exchange), "
            "'--' (withdrawal), '(challenge)', '(time)' or '(TILES)'")
    return _tail(_PLAY, rack, tokens[at + 2:], move, tokens[at + 1])


def _dash_move(move: str, rack: str, rest: list[str]) -> EventFields:
    """``--`` (withdrawal), ``-`` (pass), ``-TILES`` or ``-N`` (exchange)."""
    if move == "--":
        return _tail(EventKind.WITHDRAWAL, rack, rest)
    if move == "-":
        return _tail(EventKind.PASS, rack, rest)
    exchanged = move[1:]
    if exchanged.isdigit():
        return _tail(EventKind.EXCHANGE, rack, rest, exchange_count=int(exchanged))
    return _tail(EventKind.EXCHANGE, rack, rest, tiles=exchanged)


def _parenthesised(token: str) -> bool:
    return len(token) >= 2 and token[0] == "(" and token[-1] == ")"


def _split_rack(tokens: list[str]) -> tuple[str, int]:
    """The rack field is optional: a line may start with the move itself. The rack
    (``""`` when there is none) and where the move is among ``tokens``."""
    first = tokens[0]
    if first.startswith("-"):
        return "", 0
    looks_like_play = (len(tokens) >= 4 and _is_score(tokens[2])
                       and any(map(str.isdigit, first)))
    if looks_like_play:
        return "", 0
    return first, 1


def _tail(kind: EventKind, rack: str, rest: list[str], position: str = "", word: str = "",
          *, tiles: str = "", exchange_count: int | None = None) -> EventFields:
    """Read the score and cumulative that end every event; keep what follows them."""
    if len(rest) < 2:
        if kind is _PLAY:
            raise _EventSyntaxError("a play needs a rack, a coordinate, a word, a score and a "
                                    "total, e.g. '>Ann: AEINRST 8D RETAINS +66 66'")
        raise _EventSyntaxError(
            f"{kind.value.replace('_', ' ')} needs a score and a cumulative total at the end")
    score = rest[0]
    return EventFields(kind, rack, _score(score, "a score"),
                       _score(rest[1], "a cumulative total"), position, word, tiles,
                       exchange_count, " ".join(rest[2:]), score[0] not in "+-")


# ---------------------------------------------------------------------------------------
# The reader


class _Reader(PragmaReader):
    """A parse: the event lines here, the pragma lines in ``PragmaReader``."""

    unreadable: int | None = None
    """The first line that could not be read: the replay stops there."""
    later: Folded | None = None
    """The lines beyond it that could not be read either."""
    unsigned: Folded | None = None
    """The event lines whose score has no sign."""
    binary: bool = False
    """The file is no text: its first line holds a NUL byte."""
    lines_read: int = 0
    """Lines with text read so far."""

    def read(self, lines: list[str]) -> None:
        for number, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line:
                self.note_gap = self.open_note
                continue
            if "\0" in line:  # text has none, in any encoding a record may be in
                self._nul_line(number)
                break
            self.lines_read += 1
            if self.open_note and self._in_note(line):
                self.continue_note(raw.rstrip())
            elif line[0] == "#":
                self.pragma(number, line)
            elif line[0] == ">":
                self.open_note = False
                self._event(number, line)
            else:
                self._unreadable(number, "expected a pragma ('#...') or an event "
                                         f"('>nick: ...'), found {_clip(line)!r}")
        if self.later is not None:
            self.later.close(_more_lines)
        if self.unsigned is not None:
            self.unsigned.close(_more_unsigned)

    def _in_note(self, line: str) -> bool:
        """Whether ``line``, after a note, is more of it: any line but a pragma or an
        event. A markdown heading (``## Why?``) is no pragma, as no pragma's name is
        empty or starts with ``#``; a quote (``> text``) is no event, as an event's
        nickname follows the ``>`` at once, unless what follows its first word reads as
        an event's fields (``> bob: AEINRST 9C AN +5 5``: an event typed with a space,
        which the replay must not lose, whoever it names; ``> Bob: I told you so`` is
        a quote)."""
        first = line[0]
        if first == "#":
            return _NOTE_HEADING.match(line) is not None
        if first != ">":
            return True
        if not _NOTE_QUOTE.match(line):
            return False
        spaced = _SPACED_EVENT.match(line)
        if spaced is None:
            return True
        try:
            _parse_event_fields(spaced.group(1), not self.tiles)
        except (_EventSyntaxError, _KeywordTypo):
            return True
        return False

    def _nul_line(self, number: int) -> None:
        """A line with NUL bytes ends the reading: the first line, a file that is no
        text; a later one, the record's end lost as it was saved (padded with NULs)."""
        if self.lines_read:
            self._unreadable(number, CUT_SHORT)
            return
        self.binary = True
        self._unreadable(number, NOT_TEXT.format(what="record"))

    def _unreadable(self, number: int, message: str) -> None:
        """A line that cannot be read may have been a move, above the first event as
        among the events: what follows cannot be trusted (a lost turn shifts every later
        one), so the replay stops at the first such line. The lines after it that cannot
        be read either are one error, not one each (a binary file has hundreds)."""
        if self.unreadable is None:
            self.unreadable = number
            self.sink.error(number, message)
            return
        if self.later is None:
            self.later = Folded(self.sink, Severity.ERROR)
        self.later.add(number, message)

    def _event(self, number: int, line: str) -> None:
        head = _EVENT_HEAD.match(line)
        if not head:
            self._unreadable(number, _bad_start(line))
            return
        nick, rest = head.groups()
        try:
            fields = _parse_event_fields(rest, not self.tiles)
        except _KeywordTypo as exc:
            self._unreadable(number, str(exc))
            return
        except _EventSyntaxError as exc:
            self._unreadable(number, f"{exc} in {_clip(line)!r}")
            return
        if fields.unsigned:
            self._unsigned_score(number, fields.score)
        self.events.append(OpenEvent(number, nick, line, fields))

    def _unsigned_score(self, number: int, score: int) -> None:
        """The spec writes every event's score signed (``+66``, ``+0``, ``-10``); a score
        without its sign (a scraper's ``-OOU 0 0``) is read as the number it is, with one
        warning for the record: a writer that leaves the sign out leaves it out of every
        line."""
        if self.unsigned is None:
            self.unsigned = Folded(self.sink, Severity.WARNING)
        self.unsigned.add(number, f"score written without + or -: {score} is read as "
                                  f"{score:+d}")


def _bad_start(line: str) -> str:
    """The error for an event line whose start is not ``>nick:`` and a space, saying
    what is missing where: most often the colon after the nickname (``>bob HISU 14J
    HUIS +45 283``), else the space after it (``>bob:HISU``); a colon typed after a
    space (``>bob :HISU``) is named as that."""
    first, *rest = line.split(maxsplit=1)
    nick, colon, _ = first[1:].partition(":")
    if not nick:
        return "event line must start with '>nickname:' followed by a space"
    if not colon and rest and rest[0].startswith(":"):
        return (f"space before the ':' after {_clip('>' + nick)!r}: "
                f"write {_clip('>' + nick + ':')!r}")
    if not colon:
        return f"missing ':' after {_clip('>' + nick)!r}"
    return f"missing space after {_clip('>' + nick + ':')!r}"


def _more_lines(_message: str, more: int, last_line: int) -> str:
    """The second unreadable line's error once more follow: how many there are in all
    (one more alone keeps its own message)."""
    return f"{more + 1:,} more lines could not be read, from this one to line {last_line}"


def _more_unsigned(message: str, more: int, last_line: int) -> str:
    """The first unsigned score's warning once more follow."""
    if more == 1:
        return f"{message}; so is the score on line {last_line}"
    return f"{message}; so are the scores of {more:,} more lines, down to line {last_line}"


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_gcg(data: bytes, path: str) -> GcgRecord:
    """Parse a record's bytes; problems are in ``record.diagnostics``, never raised."""
    sink = DiagnosticSink(path)
    text, encoding = decode(data, sink)
    text = composed(text)
    decoded = len(sink.items)
    reader = _Reader(sink)
    reader.read(split_lines(text))
    if reader.binary:  # how its bytes would read as text is no help
        del sink.items[:decoded]
    events = tuple(open_event.event() for open_event in reader.events)
    players = _ordered_players(reader, events, sink)
    return GcgRecord(
        path=path,
        players=players,
        events=events,
        pragmas=reader.pragmas,
        pragma_lines=reader.pragma_lines,
        description="\n".join(dedented(part.text()) for part in reader.descriptions),
        game_notes=finished_notes(reader.game_notes),
        tile_declarations=tuple(reader.tiles),
        tile_lines=tuple(reader.tile_lines),
        incomplete_rack=reader.incomplete,
        initial_racks=tuple(reader.initial_racks),
        encoding=encoding,
        diagnostics=tuple(sink.items),
        unreadable_line=reader.unreadable,
    )


def _ordered_players(reader: _Reader, events: tuple[Event, ...],
                     sink: DiagnosticSink) -> tuple[Player, ...]:
    """Players in seat order; gaps and missing pragmas are filled from the events."""
    players = [reader.players[i] for i in sorted(reader.players)]
    numbers = sorted(reader.players)
    missing = [n for n in range(1, numbers[-1]) if n not in reader.players] if numbers else []
    if missing:
        given = ", ".join(f"#player{n}" for n in numbers)
        sink.error(reader.players[numbers[-1]].line,
                   f"#player{missing[0]} missing: players are numbered from #player1 up, "
                   f"with no gap (given: {given})")
    for event in events:
        if len(players) >= 2:
            break
        if event.kind.is_turn and all(p.nick != event.nick for p in players):
            sink.warning(event.line, f"no #player pragma names {event.nick!r}; "
                                     "taking the player from the event")
            players.append(Player(event.nick, event.nick.replace("_", " "), event.line))
    if not players and not reader.binary:
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

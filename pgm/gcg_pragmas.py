"""The pragma lines of a ``.gcg`` record (``#player1``, ``#note``, ``#rack1``, ...) and
the state of a parse that they change; ``pgm.gcg`` adds the event lines.

An event stays open while the lines after it may still add to it (``#note``, ``#rackN``,
continuation lines), and becomes an ``Event`` once the parse is over: a frozen Event
rebuilt for every note costs more than reading the line.
"""

from __future__ import annotations

import difflib
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple, TypeVar

from pgm.diagnostics import DiagnosticSink
from pgm.gcg_model import Event, EventKind, Note, Player

_T = TypeVar("_T")


def frozen_maker(cls: type[_T]) -> Callable[..., _T]:
    """A constructor of the frozen dataclass ``cls`` taking every field in order, for a
    value that every event line makes one of and that is read little (``Event``).

    It fills the new value's ``__dict__`` at once, where the generated ``__init__`` sets
    each field through ``object.__setattr__`` (to get past the frozen guard): half the
    cost, about 1 µs an event. The value is the same, field for field and in the same
    order. A call without every field, and a class that the shortcut would not build the
    same (with a ``__post_init__``, ``__slots__`` or a field left out of ``__init__``),
    go to the class's own constructor.

    The price: on CPython 3.11 a value whose ``__dict__`` has been asked for keeps its
    fields in that dict instead of inline, where reading them is slower. Positions and
    turns, read over and over by every turn page, cost a whole build more that way than
    they save here (measured: +0.4% instructions on a 100-game event), so they keep
    their own constructors.
    """
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    if (hasattr(cls, "__post_init__") or "__slots__" in cls.__dict__
            or not all(f.init for f in fields(cls))):  # type: ignore[arg-type]
        return cls
    count = len(names)
    new = object.__new__

    def make(*values: Any) -> _T:
        if len(values) != count:
            return cls(*values)  # defaults filled in, or the error, as the class gives them
        made = new(cls)
        made.__dict__.update(zip(names, values))  # noqa: B905 - as long; a keyword costs a third
        return made

    return make


_PRAGMA = re.compile(r"^#(\S*)\s*(.*)$", re.DOTALL)
_PLAYER_PRAGMA = re.compile(r"^player(\d+)$")
_RACK_PRAGMA = re.compile(r"^rack(\d+)$")


class EventFields(NamedTuple):
    """What an event line says after ``>nick:`` (see ``Event``)."""

    kind: EventKind
    rack: str
    score: int
    cumulative: int
    position: str = ""
    word: str = ""
    tiles: str = ""
    exchange_count: int | None = None
    extra: str = ""
    unsigned: bool = False
    """The score is written without its sign (``66`` for ``+66``)."""


_make_event = frozen_maker(Event)


@dataclass(slots=True)
class OpenNote:
    """A note (or description) being read: its continuation lines are kept as pieces and
    joined once, when the record is read, since joining them at every line takes time
    that grows with the square of a long note's length (80,000 lines: 10 s)."""

    line: int
    pieces: list[str]
    kind: str = "note"

    def add(self, joint: str, line: str) -> None:
        self.pieces += (joint, line)

    def text(self) -> str:
        return "".join(self.pieces)


@dataclass(slots=True)
class OpenEvent:
    """An event line read, with the notes and ``#rackN`` lines that follow it so far."""

    line: int
    nick: str
    text: str
    fields: EventFields
    notes: list[OpenNote] = field(default_factory=list)
    racks_after: list[tuple[int, str, int]] = field(default_factory=list)

    def event(self) -> Event:
        f = self.fields
        return _make_event(self.line, f.kind, self.nick, f.rack, f.score, f.cumulative,
                           f.position, f.word, f.tiles, f.exchange_count, f.extra,
                           finished_notes(self.notes), tuple(self.racks_after), self.text)


@dataclass
class PragmaReader:
    """Line-by-line state of one parse, and what the pragma lines do to it."""

    sink: DiagnosticSink
    players: dict[int, Player] = field(default_factory=dict)
    events: list[OpenEvent] = field(default_factory=list)
    pragmas: dict[str, str] = field(default_factory=dict)
    pragma_lines: dict[str, int] = field(default_factory=dict)
    descriptions: list[OpenNote] = field(default_factory=list)
    game_notes: list[OpenNote] = field(default_factory=list)
    tiles: list[tuple[str, str]] = field(default_factory=list)
    tile_lines: list[tuple[str, int]] = field(default_factory=list)
    initial_racks: list[tuple[int, str, int]] = field(default_factory=list)
    incomplete: str | None = None
    open_note: bool = False
    """Whether a bare line continues the last note (true right after a note)."""
    note_gap: bool = False
    """A blank line came after the last line of the open note: the next line of it
    starts a new paragraph."""
    describing: bool = False
    """The open text is the ``#description`` (a game's introduction, in paragraphs as
    a note's), not a note."""

    def pragma(self, number: int, line: str) -> None:
        keyword, value = _PRAGMA.match(line).groups()  # type: ignore[union-attr]
        name, colon, rest = keyword.partition(":")
        if colon and _is_known(name.lower()):
            # ``#game-type: upwords`` or ``#game-type:upwords``, as YAML or a header
            # would write it: the name is unmistakable, and dropping the pragma would
            # replay the game by other rules
            keyword, value = name, f"{rest} {value}"
            self.sink.warning(number, f"{line.strip()}: read as #{name} {value.strip()} "
                                      "(a pragma's name takes no ':')")
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
            self.sink.file_warning(number, f"#{keyword} is obsolete and ignored: "
                                           f"{_OBSOLETE[keyword]}")
        else:
            self.sink.file_warning(number, f"unknown pragma {_shown('#' + keyword)} ignored"
                                           f"{_meant_pragma(keyword)}")

    def continue_note(self, line: str) -> None:
        """Add ``line`` to the open note or description, with its indent (a nested list,
        code) and after a blank line if one came between (a new paragraph)."""
        joint = "\n\n" if self.note_gap else "\n"
        self.note_gap = False
        if self.describing:
            self.descriptions[-1].add(joint, line)
            return
        notes = self.events[-1].notes if self.events and self.events[-1].notes \
            else self.game_notes
        if notes:
            notes[-1].add(joint, line)

    def _before_events(self, number: int, keyword: str) -> bool:
        if self.events:
            self.sink.error(number, f"#{keyword} must come before the first event")
            return False
        return True

    def _player(self, number: int, index: int, value: str) -> None:
        if not self._before_events(number, f"player{index}"):
            return
        # Tokens are separated by spaces or tabs; the full name is the tokens after the
        # nickname, one space between each.
        nick, *name = value.split() or [""]
        if index < 1:
            self.sink.error(number, f"#player{index}: players are numbered from 1 "
                                    "(#player1, #player2)")
            return
        if not nick:
            self.sink.error(number, f"#player{index} needs a nickname (and a full name)")
            return
        if index in self.players:
            self.sink.warning(number, f"#player{index} given twice; the last one is used")
        self.players[index] = Player(nick, " ".join(name) or nick, number)

    def _rack(self, number: int, index: int, value: str) -> None:
        rack = (index - 1, value.split()[0] if value else "", number)
        if self.events:
            self.events[-1].racks_after.append(rack)
        else:
            self.initial_racks.append(rack)

    def _single(self, number: int, keyword: str, value: str, *, header: bool = True) -> None:
        if header and not self._before_events(number, keyword):
            return
        if keyword in self.pragmas:
            self.sink.warning(number, f"#{keyword} given twice; the last one is used")
        self.pragmas[keyword] = value
        self.pragma_lines[keyword] = number

    def _note(self, number: int, value: str, kind: str = "note") -> None:
        """A note on the last event; above the first, an annotator's introduction, which
        the game page shows. The spec has a note comment on the event above it, and
        other readers (MAGPIE) refuse one with none: the warning says where such text
        goes instead."""
        note = OpenNote(number, [value], kind)
        self.note_gap = self.describing = False
        if self.events:
            self.events[-1].notes.append(note)
        else:
            self.sink.file_warning(number, f"#{kind} before the first event: shown with the game; "
                                           "other GCG readers refuse it (a note is on the event "
                                           "above it): write the game's introduction as "
                                           "#description, whose lines follow it as a note's do")
            self.game_notes.append(note)
        self.open_note = True

    def _tile(self, number: int, value: str) -> None:
        parts = value.split()
        if len(parts) != 2:
            self.sink.error(number, "#tile needs an upper-case and a lower-case form, "
                                    "e.g. '#tile L·L l·l'")
            return
        self.tiles.append((parts[0], parts[1]))
        self.tile_lines.append((parts[0], number))

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
            self.sink.file_warning(number, "#id should be an authority and an identifier, "
                                           "e.g. '#id io.woogles p6QRjJHG'")
        self._single(number, "id", value)

    def _description(self, number: int, value: str) -> None:
        if self._before_events(number, "description"):
            self.descriptions.append(OpenNote(number, [value], "description"))
            # its lines follow as a note's do: an introduction of a few paragraphs
            self.open_note = self.describing = True
            self.note_gap = False


def _shown(text: str, limit: int = 40) -> str:
    """Text of the record as a message shows it: as written when it is short and
    printable, else clipped, and quoted with escapes when it holds control characters
    (a binary file saved as .gcg must not send its bytes to the terminal)."""
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    return text if text.isprintable() else repr(text)


def _is_known(keyword: str) -> bool:
    return keyword in _PRAGMA_HANDLERS or _PLAYER_PRAGMA.match(keyword) is not None or \
        _RACK_PRAGMA.match(keyword) is not None


def _meant_pragma(keyword: str) -> str:
    """``: did you mean #player2?`` for an unknown keyword a letter or two from a known
    one (``#plyer2``), else nothing: a tool's own pragma is no typo of ours."""
    close = difflib.get_close_matches(keyword, _KNOWN_PRAGMAS, n=3, cutoff=0.75)
    best = sorted(name for name in close
                  if _likeness(keyword, name) == _likeness(keyword, close[0]))
    return f": did you mean {' or '.join(f'#{name}' for name in best)}?" if close else ""


def _likeness(keyword: str, known: str) -> float:
    """How alike difflib finds them: ``#player`` is as near #player1 as #player2."""
    return difflib.SequenceMatcher(None, keyword, known).ratio()


def finished_notes(notes: list[OpenNote]) -> tuple[Note, ...]:
    """Notes as read, their continuation lines joined, and each ``#comment`` as it says
    (:func:`comment_text`): the spec's own example spreads its fields over two lines."""
    return tuple(Note(n.line, comment_text(n.text()), n.kind) if n.kind == "comment"
                 else Note(n.line, dedented(n.text()), n.kind) for n in notes)


def dedented(text: str) -> str:
    """A note's (or description's) continuation lines without the indent they all
    share: lines indented alike to line up under ``#note`` are its text, not markdown's
    code block, and a line indented further than the others (a nested list, code)
    keeps the difference."""
    first, newline, rest = text.partition("\n")
    return first + newline + textwrap.dedent(rest) if rest[:1].isspace() else text


def comment_text(value: str) -> str:
    """What a ``#comment`` says. The spec's structured form, ``date="2006-06-02 13:05";
    author="John Chew"; text="\\"Hello, world!\\""``, is read as its text and then who
    wrote it and when; any other value is taken as it is, like a note."""
    fields: dict[str, str] = {}
    at = 0
    while at < len(value):
        found = _COMMENT_FIELD.match(value, at)
        if found is None:
            return value
        fields[found[1].lower()] = _ESCAPED.sub(_unescaped, found[2])
        at = found.end()
    if not fields.get("text"):
        return value
    # an author or a date wrapped onto a continuation line is one line again
    by = ", ".join(" ".join(fields.get(name, "").split()) for name in ("author", "date")
                   if fields.get(name, "").strip())
    return f"{fields['text']} — {by}" if by else fields["text"]


_COMMENT_FIELD = re.compile(r'\s*([A-Za-z]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:;|$)')
_ESCAPED = re.compile(r"\\(.)")
_ESCAPES = {"n": "\n", "t": "\t"}


def _unescaped(found: re.Match[str]) -> str:
    """``\\n`` and ``\\t`` as in C; any other character after a backslash as it is."""
    return _ESCAPES.get(found[1], found[1])


def _pragma_single(keyword: str, header: bool = True) -> Callable[[PragmaReader, int, str], None]:
    return lambda reader, number, value: reader._single(number, keyword, value, header=header)


_PRAGMA_HANDLERS: dict[str, Callable[[PragmaReader, int, str], None]] = {
    "title": _pragma_single("title"),
    "description": PragmaReader._description,
    "lexicon": _pragma_single("lexicon"),
    "game-type": _pragma_single("game-type"),
    "board-layout": _pragma_single("board-layout"),
    "tile-set": _pragma_single("tile-set"),
    "tile-distribution": _pragma_single("tile-distribution"),
    "id": PragmaReader._id,
    "note": PragmaReader._note,
    "comment": lambda reader, number, value: reader._note(number, value, "comment"),
    "-": lambda reader, number, value: reader.continue_note(value),
    "tile": PragmaReader._tile,
    # read (and warned of off line 1) by pgm.gcg_encoding, before the bytes are lines
    "character-encoding": lambda reader, number, value: None,
    "incomplete": PragmaReader._incomplete,
    "orientation": PragmaReader._orientation,
}
_KNOWN_PRAGMAS = (*(k for k in _PRAGMA_HANDLERS if k != "-"), "player1", "player2",
                  "rack1", "rack2")
"""The pragmas a mistyped keyword is compared with: the numbered ones as they are most
often written (a ``#player3`` is read anyway, see ``_PLAYER_PRAGMA``)."""
_OBSOLETE = {
    "htarget": "set base_url in event.yaml instead",
    "ltarget": "a game's pages are written at the record's path below the output folder "
               "(pgm build -o OUT)",
    "style": "set theme or css in event.yaml instead",
}

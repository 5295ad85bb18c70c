"""Gungi Notation (.gn) reader: bytes to a :class:`GnRecord` plus diagnostics, never an exception.

The record keeps what the file says and where: header tags, every ply with its line,
column and the notation as written, and every comment with its position among the plies.
It knows nothing of the rules; :func:`pgm.gungi.replay` derives positions from it.

Reading choices (specs/gungi-notation.txt, specs/gungi/RULES.md §10, VALIDATION.md A1-A2):

- Bytes are UTF-8 (a BOM is dropped); anything else is read as ISO-8859-1 with a warning.
  CR, LF and CRLF all end a line.
- ``#`` starts a comment to the end of the line wherever a token could start (the notation
  says "at the start of a line", the reference decoder accepts it anywhere; we follow the
  decoder and say nothing). ``(`` runs to the first ``)``: comments do not nest, so in
  ``(a (b) c)`` the word ``c)`` is an unreadable token.
- A comment between ``N.`` and its first ply is an error (the reference decoder cannot read
  it) but, like header errors, it does not change what was played, so replay goes on.
- Errors that make the sequence of plies uncertain (an unreadable token, a missing,
  repeated or malformed move number, a third ply in a group, a ply before any number, an
  unclosed comment) set :attr:`GnRecord.playable`: the replay stops before the first ply
  that follows such an error, because a lost token would shift every later turn.
- An empty tag value (``[Date ""]``, which the reference writer emits for unset tags) means
  the tag is not set and is not validated.
- At most :data:`MAX_DIAGNOSTICS` problems are reported per file, so that a megabyte of
  garbage yields a readable report in linear time.
"""

from __future__ import annotations

import bisect
import codecs
import enum
import re
from dataclasses import dataclass

from pgm.diagnostics import Diagnostic, DiagnosticSink, Severity
from pgm.gn_moves import Move, TokenError, clip, parse_token, shown
from pgm.gungi_units import Colour
from pgm.nul_bytes import before_nul, without_end_mark
from pgm.utf16 import utf16_text

MAX_DIAGNOSTICS = 100


class Marker(enum.Enum):
    """The periods after a move number: who plays the group's first ply."""

    BLACK_FIRST = "."
    WHITE_FIRST = "..."

    @property
    def first_mover(self) -> Colour:
        return Colour.BLACK if self is Marker.BLACK_FIRST else Colour.WHITE


class Result(enum.Enum):
    """The values of the Result tag. White is listed first although Black moves first."""

    WHITE_WON = "1 - 0"
    BLACK_WON = "0 - 1"
    DRAW = "1/2 - 1/2"
    UNFINISHED = "*"


class CommentKind(enum.Enum):
    LINE = "#"
    INLINE = "()"


@dataclass(frozen=True)
class Comment:
    """A comment, kept for display beside the ply it follows (or before the first ply)."""

    kind: CommentKind
    text: str
    """The text without its ``#`` or parentheses, outer whitespace stripped."""
    line: int
    column: int
    after_plies: int
    """How many plies precede it: 0 for header comments, n for a comment after ply n."""


@dataclass(frozen=True)
class Tag:
    name: str
    """Canonical spelling (``Event``, ``Date``, ...) whatever case the file used."""
    value: str
    line: int
    column: int


@dataclass(frozen=True)
class Ply:
    move: Move
    notation: str
    """The token exactly as written."""
    line: int
    column: int
    group: int
    """The number N of the group it belongs to (0 if no number preceded it)."""
    opens: Marker | None
    """The group's marker if this is the group's first ply; replay checks the turn with it."""


@dataclass(frozen=True)
class GnRecord:
    path: str
    tags: tuple[Tag, ...]
    plies: tuple[Ply, ...]
    comments: tuple[Comment, ...]
    diagnostics: tuple[Diagnostic, ...]
    playable: int
    """How many leading plies may be replayed (see the module docstring)."""
    cut_line: int | None = None
    """The line of the first error after which the order of plies cannot be trusted."""

    def tag(self, name: str) -> Tag | None:
        """The last tag of that name with a non-empty value."""
        found = [t for t in self.tags if t.name.lower() == name.lower() and t.value]
        return found[-1] if found else None

    def value(self, name: str) -> str | None:
        tag = self.tag(name)
        return tag.value if tag else None

    @property
    def result(self) -> Result | None:
        return read_result(self.value("Result") or "")

    def comments_after(self, plies: int) -> tuple[Comment, ...]:
        """Comments written after exactly ``plies`` plies (0 = before the first ply)."""
        return tuple(c for c in self.comments if c.after_plies == plies)


_TAG_NAMES = {n.lower(): n for n in ("Event", "Date", "Location", "White", "Black", "Result")}
def read_result(value: str) -> Result | None:
    """A Result value as GN writes it, or as hands type it the way PGN does (``1-0``,
    an en dash, ``½``): the result is plain either way. None when it is no result."""
    compact = re.sub(r"\s+", "", value).replace("\u2013", "-").replace("\u2014", "-") \
        .replace("\u00bd", "1/2")
    return _COMPACT_RESULTS.get(compact)


_COMPACT_RESULTS = {r.value.replace(" ", ""): r for r in Result}
_TAG = re.compile(r'\[([A-Za-z]+)[ \t]+"([^"\n]*)"[ \t]*\]')
_DATE = re.compile(r"([0-9]{1,4})\.([0-9]{1,2})\.([0-9]{1,2})")
_SPACE = re.compile(r"\s+")
_RESULT_TOKENS = {"1-0": "1 - 0", "0-1": "0 - 1", "1/2-1/2": "1/2 - 1/2", "*": "*"}
"""Results as PGN writes them after the last move, which GN does not: each with the
[Result] value that says it."""
_WORD = re.compile(r"[^\s(]+")
_NUMBER = re.compile(r"([0-9]+)(\.*)")


def parse(data: bytes | str, path: str) -> GnRecord:
    """Read a .gn file. Never raises on any input; problems become diagnostics."""
    sink = DiagnosticSink(path)
    text = decode(data, sink) if isinstance(data, bytes) else _normalise(data.lstrip("\ufeff"))
    reader = _Reader(text, sink)
    reader.run()
    return reader.record(path)


def decode(data: bytes, sink: DiagnosticSink) -> str:
    """UTF-8 without BOM, else ISO-8859-1 (which decodes any byte) with a warning."""
    text = utf16_text(data, sink, "UTF-8")
    if text is not None:
        return _normalise(text)
    data = before_nul(without_end_mark(data.removeprefix(codecs.BOM_UTF8)), sink, "game")
    try:
        return _normalise(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        line = _normalise(data[: exc.start].decode("latin-1")).count("\n") + 1
        bad = data[exc.start]
        sink.file_warning(line, f"byte 0x{bad:02X} is not UTF-8: the file is read as ISO-8859-1, "
                                f"where it is {bytes([bad]).decode('latin-1')!r}; save the file as "
                                "UTF-8 in the editor to fix it")
        return _normalise(data.decode("latin-1"))


def _normalise(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


class _Reader:
    """One pass over the text; all state needed to check numbering and group sizes."""

    def __init__(self, text: str, sink: DiagnosticSink) -> None:
        self.text = text
        self.sink = sink
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.tags: list[Tag] = []
        self.set_tags: set[str] = set()
        self.plies: list[Ply] = []
        self.comments: list[Comment] = []
        self.playable: int | None = None
        self.cut_line: int | None = None
        self.echoes: list[int] = []
        """Where the errors after the first that stops the replay are."""
        self.in_movetext = False
        self.group: int | None = None
        self.group_offset = 0
        self.marker: Marker | None = None
        self.in_group = 0
        self.expected = 1
        self.reported = 0

    def record(self, path: str) -> GnRecord:
        playable = len(self.plies) if self.playable is None else self.playable
        return GnRecord(
            path,
            tuple(self.tags),
            tuple(self.plies),
            tuple(self.comments),
            tuple(self.sink.items),
            playable,
            self.cut_line,
        )

    def run(self) -> None:
        pos, end = 0, len(self.text)
        while pos < end:
            space = _SPACE.match(self.text, pos)
            if space:
                pos = space.end()
                continue
            char = self.text[pos]
            if char == "#":
                pos = self._line_comment(pos)
            elif char == "(":
                pos = self._inline_comment(pos)
            elif char == "[":
                pos = self._tag(pos)
            else:
                pos = self._word(pos)
        self._close_group()
        self._report_echoes()

    # -- positions and diagnostics -------------------------------------------------------

    def _where(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def _report(self, severity: Severity, offset: int, message: str) -> None:
        self.reported += 1
        if self.reported > MAX_DIAGNOSTICS:
            return
        line, column = self._where(offset)
        if self.reported == MAX_DIAGNOSTICS:
            message = f"{message} (further problems in this file are not reported)"
        add = self.sink.error if severity is Severity.ERROR else self.sink.warning
        add(line, message, column)

    def _error(self, offset: int, message: str) -> None:
        self._report(Severity.ERROR, offset, message)

    def _cut(self, offset: int, message: str) -> None:
        """An error after which the order of plies can no longer be trusted. The replay
        stops at the first; the later ones are most often its echoes (a ply split over
        two lines, a number typed twice, "fixed" by renumbering the rest), so they are
        one error, at the first of them, saying how many there are."""
        if self.playable is None:
            self._error(offset, message)
            self.playable = len(self.plies)
            self.cut_line = self._where(offset)[0]
        else:
            self.echoes.append(offset)

    def _report_echoes(self) -> None:
        if not self.echoes:
            return
        count, last = len(self.echoes), self._where(self.echoes[-1])[0]
        self._error(self.echoes[0], f"{count:,} more problem{'s' if count > 1 else ''} from "
                                    f"here to line {last}, after the one at line "
                                    f"{self.cut_line} where the replay stops; fix that one "
                                    "first, as these may follow from it")

    # -- comments ------------------------------------------------------------------------

    def _line_comment(self, pos: int) -> int:
        end = self.text.find("\n", pos)
        end = len(self.text) if end == -1 else end
        self._comment(CommentKind.LINE, self.text[pos + 1 : end], pos)
        return end

    def _inline_comment(self, pos: int) -> int:
        close = self.text.find(")", pos + 1)
        if close == -1:
            self._cut(pos, "comment opened by '(' is never closed; the rest of the file is lost")
            self._comment(CommentKind.INLINE, self.text[pos + 1 :], pos)
            return len(self.text)
        self._comment(CommentKind.INLINE, self.text[pos + 1 : close], pos)
        return close + 1

    def _comment(self, kind: CommentKind, body: str, pos: int) -> None:
        if self.group is not None and self.in_group == 0:
            self._error(pos, f"comment between move number {self.group} and its first ply, "
                             "where GN readers refuse it: move it before the number or after "
                             "the ply")
        line, column = self._where(pos)
        self.comments.append(Comment(kind, body.strip(), line, column, len(self.plies)))

    # -- header --------------------------------------------------------------------------

    def _tag(self, pos: int) -> int:
        match = _TAG.match(self.text, pos)
        if match is None:
            # Skip a broken tag to the end of its line (looked up only here, so that a
            # long line of good tags stays linear).
            line_end = self.text.find("\n", pos)
            line_end = len(self.text) if line_end == -1 else line_end
            if self.in_movetext:
                self._cut(pos, "header tags must come before the first move")
            else:
                self._error(pos, _tag_problem(self.text[pos:line_end]))
            return line_end
        if self.in_movetext:
            self._cut(pos, "header tags must come before the first move")
            return match.end()
        name = _TAG_NAMES.get(match[1].lower())
        if name is None:
            unknown = clip(match[1])
            self._error(pos, f"unknown header tag [{unknown}]: the tags are {_tag_list()}")
            return match.end()
        value = match[2]
        if value:
            self._check_value(name, value, match.start(2))
            if name in self.set_tags:
                warning = f"second [{name}] tag; its value replaces the first"
                self._report(Severity.WARNING, pos, warning)
            self.set_tags.add(name)
        line, column = self._where(pos)
        self.tags.append(Tag(name, value, line, column))
        return match.end()

    def _check_value(self, name: str, value: str, offset: int) -> None:
        if name == "Result":
            self._check_result(value, offset)
        if name == "Date":
            date = _DATE.fullmatch(value)
            if date is None or not 1 <= int(date[2]) <= 12 or not 1 <= int(date[3]) <= 31:
                self._error(offset, f'Date "{value}" is not a date written YYYY.MM.DD')

    def _check_result(self, value: str, offset: int) -> None:
        result = read_result(value)
        if result is None:
            allowed = '"1 - 0", "0 - 1", "1/2 - 1/2" or "*"'
            self._error(offset, f'Result "{value}" is not one of {allowed}')
        elif result.value != value:
            self._report(Severity.WARNING, offset, f'Result "{value}" is read as '
                                                   f'"{result.value}", as GN writes it')

    # -- movetext ------------------------------------------------------------------------

    def _word(self, pos: int) -> int:
        match = _WORD.match(self.text, pos)
        assert match is not None  # run() only calls this on a non-space, non-'(' character
        word = match[0]
        self.in_movetext = True
        bracket = word.find(")")
        if bracket != -1:
            self._cut(pos + bracket, "')' without an open comment (comments do not nest)")
        elif word in _RESULT_TOKENS:
            self._result_token(word, pos)
        elif word[0] in "0123456789":
            self._number(word, pos)
        else:
            self._ply(word, pos)
        return match.end()

    def _result_token(self, word: str, pos: int) -> None:
        """A result after the moves, as PGN writes it: a warning when the [Result] tag
        says the same (nothing is lost), else an error (which result is meant?)."""
        value = _RESULT_TOKENS[word]
        stated = [tag.value for tag in self.tags if tag.name == "Result" and tag.value]
        if stated and read_result(stated[-1]) is read_result(value):
            self._report(Severity.WARNING, pos, f"{word!r} after the moves repeats the "
                                                f"[Result] tag; GN keeps the result there only")
            return
        self._error(pos, f"{word!r} is not a move: a game's result goes in its [Result] "
                         f'tag, e.g. [Result "{value}"]')

    def _number(self, word: str, pos: int) -> None:
        match = _NUMBER.match(word)
        assert match is not None  # the word starts with a digit
        self._close_group()
        digits, dots = match[1], match[2]
        number = int(digits) if len(digits) <= 6 else -1
        if number != self.expected:
            self._cut(pos, f"move number {clip(digits)} should be {self.expected}")
        self.expected = number + 1 if number > 0 else self.expected + 1
        self.group, self.group_offset, self.in_group = number, pos, 0
        self.marker = next((m for m in Marker if m.value == dots), None)
        if self.marker is None:
            self._cut(pos + len(digits), "expected '.' (Black first) or '...' (White first)")
        rest = word[match.end() :]
        if rest:
            self._cut(pos + match.end(), "a space must follow the move number")
            self._ply(rest, pos + match.end())

    def _close_group(self) -> None:
        if self.group is not None and self.in_group == 0:
            self._cut(self.group_offset, f"move number {self.group} is not followed by a ply")

    def _ply(self, token: str, pos: int) -> None:
        move = parse_token(token)
        self.in_group += 1
        if isinstance(move, TokenError):
            self._cut(pos + move.offset, move.message)
            return
        if self.group is None:
            self._cut(pos, f"ply {shown(token)} has no move number before it")
        elif self.in_group > 2:
            self._cut(pos, f"group {self.group} already holds two plies; number a new group")
        line, column = self._where(pos)
        opens = self.marker if self.in_group == 1 else None
        self.plies.append(Ply(move, token, line, column, self.group or 0, opens))


def _tag_list() -> str:
    return ", ".join(_TAG_NAMES.values())


def _tag_problem(text: str) -> str:
    """Say what is wrong with a ``[`` line that does not read as ``[Name "value"]``."""
    found = re.match(r"\[([A-Za-z]*)", text)
    assert found is not None  # text starts with '['
    name, rest = clip(found[1]), text[found.end() :]
    if not name:
        return 'header tag has no name; write [Name "value"]'
    if not rest[:1].isspace():
        if rest.startswith('"'):
            return "a space must separate the tag name from its value"
        return f'header tag [{name} is malformed; write [Name "value"]'
    rest = rest.lstrip(" \t")
    if not rest.startswith('"'):
        return f"the value of [{name}] must be in double quotes"
    if rest.find('"', 1) == -1:
        return f"the value of [{name}] has no closing '\"'"
    return f"[{name} \"...\" must end with ']' right after the value"

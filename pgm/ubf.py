"""UBF, the Upwords Board Format: read a board of letter stacks and write it back.

UBF (``shared/specs/upwords-ubf.md``) is a JSON-style array of ten rows of ten squares,
each square two characters: the stack height (a digit) and the top letter, a space for
an empty square (``'0 '``). The spec's own example leaves out the outer brackets and
quotes with ``'``; JSON (``json.dumps`` of the same list) writes ``"`` and brackets it.
The reader accepts both, one board per file.

The reader never raises: every problem is a diagnostic with the line and column of the
square (or bracket) concerned and what was expected there, and the board it returns is
the best reading of the text (bad squares empty, missing squares and rows empty) so that
a report can still show it. A mistake made on every square (``'0.'`` for an empty one)
is told once, at its first square, with how many more squares have it. The writer
writes the spec's form (or JSON) that the reader reads back to the same board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pgm.diagnostics import Diagnostic, DiagnosticSink, Folded, Severity
from pgm.nul_bytes import before_nul, without_end_mark
from pgm.utf16 import utf16_text

SIZE = 10
MAX_HEIGHT = 5
"""Upwords stacks hold at most five tiles."""
LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
"""Tile letters; the ``Qu`` tile is written ``Q``."""


@dataclass(frozen=True)
class Stack:
    """An occupied square: the letter on top and how many tiles are stacked there."""

    letter: str
    """The top tile, ``A``-``Z`` (``Q`` stands for the ``Qu`` tile)."""
    height: int
    """1 to :data:`MAX_HEIGHT`."""

    def to_json(self) -> dict[str, object]:
        return {"letter": self.letter, "height": self.height}


Squares = tuple[Stack | None, ...]
"""Row-major squares, ``SIZE * SIZE`` of them, ``None`` for an empty square."""


@dataclass(frozen=True)
class UpwordsBoard:
    """A 10x10 Upwords board; ``(row, col)`` count from 0 at the top left, as the spec."""

    squares: Squares = (None,) * (SIZE * SIZE)

    def at(self, row: int, col: int) -> Stack | None:
        return self.squares[row * SIZE + col]

    def rows(self) -> list[list[Stack | None]]:
        return [list(self.squares[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]

    def to_json(self) -> list[list[dict[str, object] | None]]:
        """The board as ``pgm check --json`` prints it: rows of squares or null."""
        return [[s.to_json() if s else None for s in row] for row in self.rows()]

    @property
    def is_empty(self) -> bool:
        return not any(self.squares)


@dataclass(frozen=True)
class UbfResult:
    """What the reader made of one UBF text."""

    board: UpwordsBoard
    diagnostics: tuple[Diagnostic, ...]


# ---------------------------------------------------------------------------------------
# Writing


def write_ubf(board: UpwordsBoard, *, as_json: bool = False) -> str:
    """The board as UBF: the spec's form (``'`` quotes, a row per line, no outer brackets)
    or, with ``as_json``, a JSON document (``"`` quotes inside ``[...]``)."""
    quote = '"' if as_json else "'"
    rows = []
    for row in board.rows():
        cells = [f"{quote}{_square_text(s)}{quote}" for s in row]
        rows.append("[" + ", ".join(cells) + "]")
    body = ",\n".join(rows)
    return f"[\n{body}\n]\n" if as_json else body + "\n"


def _square_text(stack: Stack | None) -> str:
    return f"{stack.height}{stack.letter}" if stack else "0 "


# ---------------------------------------------------------------------------------------
# Reading: text to tokens


@dataclass(frozen=True)
class _Token:
    kind: str
    """``[``, ``]``, ``,``, ``str`` or ``end``."""
    text: str
    line: int
    column: int


_STRING = re.compile(r"""'([^'\n]*)'|"([^"\n]*)\"""")
_JUNK = re.compile(r"""[^\s\[\],'"]+|['"][^\n]*""")


def _tokens(text: str, sink: DiagnosticSink) -> list[_Token]:
    tokens: list[_Token] = []
    line, line_start, i = 1, 0, 0
    while i < len(text):
        char = text[i]
        column = i - line_start + 1
        if char == "\n":
            line, line_start, i = line + 1, i + 1, i + 1
        elif char.isspace():
            i += 1
        elif char in "[],":
            tokens.append(_Token(char, char, line, column))
            i += 1
        else:
            string = _STRING.match(text, i)
            if string:
                body = string.group(1) if string.group(1) is not None else string.group(2)
                tokens.append(_Token("str", body, line, column))
                i = string.end()
                continue
            junk = _JUNK.match(text, i)
            end = junk.end() if junk else i + 1
            found = text[i:end]
            if char in "'\"":
                sink.error(line, f"unclosed {char} quote: expected a square such as "
                                 f"{char}2A{char} closed on the same line", column)
            else:
                sink.error(line, f"expected a quoted square such as '2A', '[', ']' or ',', "
                                 f"found {_clip(found)!r}", column)
            i = end
    tokens.append(_Token("end", "", line, i - line_start + 1))
    return tokens


def _clip(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------------------
# Reading: tokens to rows of squares


def _decode(data: bytes, sink: DiagnosticSink) -> str:
    utf16 = utf16_text(data, sink, "UTF-8")
    if utf16 is not None:
        return utf16
    data = before_nul(without_end_mark(data.removeprefix(b"\xef\xbb\xbf")), sink, "board")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        sink.error(line, "UBF is UTF-8 text; invalid bytes are shown as \ufffd")
        text = data.decode("utf-8", errors="replace")
    return text


def read_ubf(source: bytes | str, path: str = "<ubf>") -> UbfResult:
    """Read one board from UBF text or bytes (UTF-8); problems are diagnostics."""
    sink = DiagnosticSink(path)
    text = source if isinstance(source, str) else _decode(source, sink)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    tokens = _tokens(text, sink)
    # nothing left to read after a file's NUL bytes: that error says why
    nothing_read = not text.strip() and sink.has_errors
    squares_told = _SquareProblems(sink)
    rows = [] if nothing_read else _Rows(tokens, sink, squares_told).read(
        blank=not text.strip())
    squares_told.close()
    squares: list[Stack | None] = []
    for row in rows[:SIZE]:
        squares.extend((row + [None] * SIZE)[:SIZE])
    squares.extend([None] * (SIZE * SIZE - len(squares)))
    ordered = sorted(sink.items, key=lambda d: (d.line, d.column or 0))
    return UbfResult(UpwordsBoard(tuple(squares)), tuple(ordered))


class _Rows:
    """Reads ``[row, row, ...]`` (outer brackets optional) where a row is
    ``[square, square, ...]``; a trailing comma before ``]`` is allowed, as in Python."""

    def __init__(self, tokens: list[_Token], sink: DiagnosticSink,
                 squares_told: _SquareProblems) -> None:
        self.tokens = tokens
        self.sink = sink
        self.squares_told = squares_told
        self.at = 0

    @property
    def token(self) -> _Token:
        return self.tokens[self.at]

    def _error(self, token: _Token, message: str) -> None:
        self.sink.error(token.line, message, token.column)

    def read(self, *, blank: bool) -> list[list[Stack | None]]:
        first = self.token
        if first.kind == "end":
            what = "empty file" if blank else "no board found"
            self._error(first, f"{what}: expected {SIZE} rows of {SIZE} squares such as "
                               "['0 ', '1A', ...]")
            return []
        wrapped = first.kind == "[" and self.tokens[1].kind == "["
        if wrapped:
            self.at += 1
        rows: list[list[Stack | None]] = []
        while self.token.kind not in ("end", "]"):
            squares, closed = self._row(len(rows) + 1)
            rows.append(squares)
            if closed or self.token.kind != "[":  # an unclosed row was reported already
                self._separator("]" if wrapped else "end", "rows")
        if wrapped:
            if self.token.kind == "]":
                self.at += 1
            else:
                self._error(self.token, "expected ']' to close the board")
        elif self.token.kind == "]":
            self._error(self.token, "unmatched ']'")
            self.at += 1
        if self.token.kind != "end":
            self._error(self.token, "expected the end of the file after the board "
                                    "(one board per file)")
        self._check_row_count(rows)
        return rows

    def _check_row_count(self, rows: list[list[Stack | None]]) -> None:
        if len(rows) < SIZE:
            last = self.tokens[-2] if len(self.tokens) > 1 else self.tokens[-1]
            plural = "s" if len(rows) != 1 else ""
            self.sink.error(last.line, f"the board has {len(rows)} row{plural}; "
                                       f"expected {SIZE}")

    def _separator(self, closing: str, what: str) -> None:
        """After an element: a comma (possibly trailing) or the closing token."""
        token = self.token
        if token.kind == ",":
            self.at += 1
            if self.token.kind == ",":
                self._error(self.token, f"expected a value between two commas in the {what}")
                while self.token.kind == ",":
                    self.at += 1
        elif token.kind not in (closing, "end"):
            self._error(token, f"expected ',' between {what}, found {_describe(token)}")

    def _row(self, number: int) -> tuple[list[Stack | None], bool]:
        """The squares of one row and whether it was closed by ``]``."""
        start = self.token
        if start.kind != "[":
            self._error(start, f"expected '[' to start row {number}, found {_describe(start)}")
            if start.kind != "str":
                self.at += 1
                return [], False
        else:
            self.at += 1
        squares: list[Stack | None] = []
        count = 0
        while self.token.kind == "str":
            token = self.token
            count += 1
            self.at += 1
            if count == SIZE + 1:
                self._error(token, f"row {number} has more than {SIZE} squares")
            squares.append(_square(token, self.squares_told))
            self._separator("]", "squares")
        closed = self.token.kind == "]"
        if closed:
            self.at += 1
        elif start.kind == "[":
            self._error(self.token, f"expected ']' to close row {number}, "
                                    f"found {_describe(self.token)}")
        if count < SIZE:
            self._error(start, f"row {number} has {count} square{'s' if count != 1 else ''}; "
                               f"expected {SIZE}")
        if number == SIZE + 1:
            self._error(start, f"more than {SIZE} rows: expected the board to end after "
                               f"row {SIZE}")
        return squares, closed


def _describe(token: _Token) -> str:
    if token.kind == "end":
        return "the end of the file"
    if token.kind == "str":
        return f"the square {token.text!r}"
    return repr(token.text)


class _SquareProblems:
    """The problems of squares, each told once: a square whose problem an earlier
    square had (the same text, e.g. ``'0.'`` for every empty square) is counted, and
    the first one's message says how many more there are, down to which line."""

    def __init__(self, sink: DiagnosticSink) -> None:
        self.sink = sink
        self.folds: dict[tuple[Severity, str], Folded] = {}

    def error(self, line: int, message: str, column: int) -> None:
        self._add(Severity.ERROR, line, message, column)

    def warning(self, line: int, message: str, column: int) -> None:
        self._add(Severity.WARNING, line, message, column)

    def _add(self, severity: Severity, line: int, message: str, column: int) -> None:
        key = (severity, message)
        fold = self.folds.get(key) or self.folds.setdefault(key, Folded(self.sink, severity))
        fold.add(line, message, column)

    def close(self) -> None:
        for fold in self.folds.values():
            fold.close(_more_squares)


def _more_squares(message: str, more: int, last_line: int) -> str:
    """The first square's message once later squares have the same problem."""
    if more == 1:
        return f"{message}; so is one more square, on line {last_line}"
    return f"{message}; so are {more:,} more squares, down to line {last_line}"


def _square(token: _Token, sink: _SquareProblems) -> Stack | None:
    """One square's two characters; a bad square is reported and read as empty."""
    text, line, column = token.text, token.line, token.column
    if len(text) == 3 and text[1:].upper() == "QU":
        sink.error(line, f"square {text!r}: the Qu tile is written Q, e.g. '{text[0]}Q'", column)
        return None
    if len(text) != 2:
        sink.error(line, f"square {text!r}: expected two characters, a height digit and a "
                         "letter (or a space when empty), e.g. '2A' or '0 '", column)
        return None
    digit, letter = text[0], text[1]
    if not ("0" <= digit <= "9"):
        sink.error(line, f"square {text!r}: expected a height digit 0-{MAX_HEIGHT} first, "
                         f"found {digit!r}", column)
        return None
    height = int(digit)
    if letter == " ":
        if height:
            sink.error(line, f"square {text!r}: an empty square has height 0, not {height}",
                       column)
        return None
    if letter.upper() not in LETTERS:
        hint = " (an empty square is written '0 ', a space after the 0)" \
            if digit == "0" and letter in ".-_" else ""
        sink.error(line, f"square {text!r}: expected a letter A-Z (Q for Qu) or a space, "
                         f"found {letter!r}{hint}", column)
        return None
    if letter not in LETTERS:
        sink.warning(line, f"square {text!r}: letters are upper case by convention; "
                           f"read as {letter.upper()!r}", column)
    if height == 0:
        sink.error(line, f"square {text!r}: a square with a letter has height 1-{MAX_HEIGHT}, "
                         "not 0", column)
        return None
    if height > MAX_HEIGHT:
        sink.error(line, f"square {text!r}: height {height} is over the stacking limit of "
                         f"{MAX_HEIGHT}", column)
        return None
    return Stack(letter.upper(), height)

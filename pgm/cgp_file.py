"""Read a ``.cgp`` file: one CGP position per line, with captions and comments.

Puzzles and analysis positions are shared as files of CGP lines, so a file is a *set* of
positions. Blank lines and lines starting with ``#`` are allowed: a ``#`` line directly
above a position is that position's caption ("White to play and win"); other ``#`` lines
are notes about the whole set. Each position is read by :func:`pgm.cgp.parse_cgp` with
its own line number, so a bad line is reported where it is and the others still load.

Positions are numbered in the order of their lines, unreadable ones included, so that the
number of a position (and the address of its page) does not change when a bad line
above it is mended.

The ``lm`` opcode (last move) is checked against the board here, because a page can only
highlight the squares of a move that is on the board: a square the move names that is
off the board, empty or holding another tile is a warning, and it is not highlighted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pgm.board import parse_coordinate
from pgm.cgp import CgpPosition, parse_cgp
from pgm.diagnostics import Diagnostic, DiagnosticSink
from pgm.gcg_encoding import latin1_text
from pgm.nul_bytes import before_nul, without_end_mark
from pgm.scoring import square_name
from pgm.text_fold import composed
from pgm.tiles import BLANK, TileCodec, TileError
from pgm.utf16 import utf16_text

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BONUS = re.compile(r"^\+\d+$")

Square = tuple[int, int]


@dataclass(frozen=True)
class LastMove:
    """The ``lm`` opcode read against the board."""

    kind: str
    """``play``, ``challenged_off``, ``pass`` or ``exchange``."""
    written: str
    """The opcode's value as written (``8D AB``, ``-``, ``-2``)."""
    words: str
    """The move in words: "JAVE(L)IN at 8D across", "a pass (or a failed challenge)"."""
    squares: frozenset[Square] = frozenset()
    """Squares of the tiles it put down that hold them on the board (to highlight)."""


@dataclass(frozen=True)
class CgpEntry:
    """One position line of the file, read or not."""

    number: int
    """1-based among the file's position lines: the page ``N.html``."""
    line: int
    text: str
    """The line as written, without its line end."""
    caption: str
    """The ``#`` line directly above it, without the ``#``; empty when there is none."""
    position: CgpPosition | None
    """None when the line has an error."""
    last_move: LastMove | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return self.position is not None


@dataclass(frozen=True)
class CgpFile:
    path: str
    entries: tuple[CgpEntry, ...]
    notes: tuple[str, ...]
    """``#`` lines that caption no position: remarks about the whole set."""
    diagnostics: tuple[Diagnostic, ...]
    """Every problem of the file, in line order."""


def read_cgp_file(data: bytes, path: str) -> CgpFile:
    """Read every position of a ``.cgp`` file; problems are diagnostics, never raised."""
    sink = DiagnosticSink(path)
    lines = _LINE_BREAK.split(composed(_decode(data, sink)))
    entries: list[CgpEntry] = []
    notes: list[str] = []
    captions: set[int] = set()
    for index, text in enumerate(lines):
        if not text.strip() or _is_comment(text):
            continue
        caption = ""
        if index > 0 and _is_comment(lines[index - 1]):
            caption = _comment_text(lines[index - 1])
            captions.add(index - 1)
        entries.append(_entry(len(entries) + 1, index + 1, text, caption, path))
    for index, text in enumerate(lines):
        if _is_comment(text) and index not in captions and _comment_text(text):
            notes.append(_comment_text(text))
    if not entries and not sink.has_errors:  # a file of NUL bytes says why instead
        sink.warning(0, "no CGP position in the file (one position per line; blank lines and "
                        "'#' comment lines are allowed)")
    found = sink.items + [d for entry in entries for d in entry.diagnostics]
    return CgpFile(path, tuple(entries), tuple(notes),
                   tuple(sorted(found, key=lambda d: (d.line, d.column or 0))))


def _decode(data: bytes, sink: DiagnosticSink) -> str:
    """CGP is UTF-8 only. A file that is not was most likely saved by a Windows editor in
    its "ANSI" encoding, Windows-1252: it is read so, with a warning that says how to
    save it, as GCG records are (an error would turn every Ñ of the position into a
    U+FFFD and lose the position)."""
    data = without_end_mark(data)
    text = utf16_text(data, sink, "UTF-8")
    if text is not None:
        return text
    data = before_nul(data.removeprefix(b"\xef\xbb\xbf"), sink, "position")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = len(_LINE_BREAK.findall(data[: exc.start].decode("utf-8", "replace"))) + 1
        sink.file_warning(line, "not UTF-8, which a CGP file is: read as Windows-1252 (what "
                                "Windows editors save as \"ANSI\"); save the file as UTF-8")
        return latin1_text(data)


def _is_comment(text: str) -> bool:
    return text.lstrip().startswith("#")


def _comment_text(text: str) -> str:
    return text.lstrip()[1:].strip()


def _entry(number: int, line: int, text: str, caption: str, path: str) -> CgpEntry:
    result = parse_cgp(text, path, line)
    sink = DiagnosticSink(path)
    sink.items.extend(result.diagnostics)
    position = result.position
    last_move = None
    if position is not None:
        written = position.operation("lm")
        if written is not None:
            last_move = read_last_move(position, written, sink, line)
    return CgpEntry(number, line, text, caption, position, last_move, tuple(sink.items))


# ---------------------------------------------------------------------------------------
# The last move


def read_last_move(position: CgpPosition, written: str, sink: DiagnosticSink,
                   line: int) -> LastMove | None:
    """Read an ``lm`` value (``8D AB``, ``challenge 8D AB``, ``8D AB +5``, ``-``,
    ``-ABC``, ``-2``); a value that is not a move is a warning and gives None."""
    text = " ".join(written.split())
    if text == "-":
        return LastMove("pass", text, "a pass (or a failed challenge)")
    if text.startswith("-") and " " not in text:
        return _exchange(position, text, written, sink, line)
    parts = text.split(" ")
    challenged = parts[0].lower() == "challenge"
    if challenged:
        parts = parts[1:]
    bonus = None
    if len(parts) == 3 and _BONUS.match(parts[2]):
        bonus = int(parts[2][1:])
        parts = parts[:2]
    placement = parse_coordinate(parts[0]) if len(parts) == 2 else None
    tiles = _tiles(position, parts[1]) if placement is not None else None
    if placement is None or tiles is None:
        sink.warning(line, f"opcode lm: {written!r} is not a move (expected e.g. 8D WORD, "
                           "challenge 8D WORD, 8D WORD +5, - for a pass, -ABC or -2 for an "
                           "exchange)")
        return None
    size = position.layout.size
    squares: set[Square] = set()
    shown: list[str] = []
    for offset, tile in enumerate(tiles):
        row, col = placement.square(offset)
        if not (0 <= row < size and 0 <= col < size):
            sink.warning(line, f"opcode lm: {text!r} runs off the {size}x{size} board")
            break
        on_board = position.cells[row * size + col]
        if tile == ".":
            shown.append(f"({on_board})" if on_board else ".")
            continue
        shown.append(tile)
        if challenged:
            continue
        name = square_name(row, col)
        if not on_board:
            sink.warning(line, f"opcode lm: {name} is empty, but the last move puts {tile} "
                               "there")
        elif on_board.upper() != tile.upper():
            sink.warning(line, f"opcode lm: {name} holds {on_board}, but the last move puts "
                               f"{tile} there")
        else:
            squares.add((row, col))
    word = "".join(shown).replace(")(", "")
    direction = "across" if placement.horizontal else "down"
    words = f"{word} at {parts[0].upper()} {direction}"
    if challenged:
        return LastMove("challenged_off", text,
                        words + ", challenged off (its tiles are not on the board)")
    if bonus is not None:
        words += (f", challenged and valid: {bonus} bonus point{'s' if bonus != 1 else ''}"
                  if bonus else ", challenged and valid")
    return LastMove("play", text, words, frozenset(squares))


def _exchange(position: CgpPosition, text: str, written: str, sink: DiagnosticSink,
              line: int) -> LastMove | None:
    """An exchange: ``-ABC`` (the tiles) or ``-2`` (how many); CGP has no sign for an
    unknown tile (GCG's ``_``), so tiles that are not all known are given as a count."""
    exchanged = text[1:]
    if exchanged.isdigit() and int(exchanged) > 0:
        count = int(exchanged)
        return LastMove("exchange", text,
                        f"an exchange of {count} tile{'s' if count != 1 else ''}")
    try:
        TileCodec(position.distribution).split(exchanged, allow=BLANK)
    except TileError as exc:
        hint = (" (CGP has no sign for an unknown tile: give the number of tiles exchanged, "
                f"-{len(exchanged)}, when not all are known)" if "_" in exchanged else "")
        sink.warning(line, f"opcode lm: {written!r} is not an exchange: {exc}; expected the "
                           f"tiles exchanged (-ABC) or their number (-2){hint}")
        return None
    return LastMove("exchange", text, f"an exchange of {exchanged}")


def _tiles(position: CgpPosition, text: str) -> list[str] | None:
    try:
        return TileCodec(position.distribution).split(text, allow=".")
    except TileError:
        return None

"""A ``.gcg`` record's bytes as text: which encoding they are in, and what to say when
the record's ``#character-encoding`` line and its bytes disagree.

The GCG default is ISO-8859-1 and ``#character-encoding UTF-8`` on line 1 switches to
UTF-8 (``shared/specs/crossword-facts.md`` §5.1). Real records stray from that in ways
that cost a reader nothing to take in, and every one of them is a warning, never an
error: an error fails the build, and under ``pgm watch`` keeps a live game's last
good pages, so a game would stop updating over text that was read right after all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pgm.diagnostics import DiagnosticSink
from pgm.nul_bytes import without_end_mark
from pgm.utf16 import utf16_text

_UTF8_NAMES = {"utf-8", "utf8"}
_LATIN1_NAMES = {"iso-8859-1", "iso8859-1", "iso 8859-1", "latin-1", "latin1", "iso_8859-1"}
_WINDOWS_NAMES = {"windows-1252", "cp1252", "cp-1252", "win-1252"}
"""Not GCG's, but what a Windows program that writes Windows-1252 declares; pgm reads
0x80-0x9F as Windows-1252 anyway."""
_UTF8_BOM = b"\xef\xbb\xbf"
_LINE_BREAK_KEPT = re.compile(rb"(\r\n|\r|\n)")
"""Line breaks as ``pgm.gcg.split_lines`` cuts the text, kept between the lines."""
_ENCODING_PRAGMA = re.compile(r"#character-encoding", re.IGNORECASE)
_REST_OF_LINE = re.compile(r"[^\r\n]*")
_WINDOWS_ONLY = re.compile(rb"[\x80-\x9f]")
_WINDOWS_1252 = {byte: bytes([byte]).decode("cp1252", errors="replace")
                 for byte in range(0x80, 0xA0)}
"""Windows-1252's characters for bytes 0x80-0x9F, by code point as Latin-1 reads them;
the five bytes it leaves undefined become U+FFFD."""


@dataclass(frozen=True)
class Declaration:
    """One ``#character-encoding`` line of a record."""

    line: int
    """Its line number, as ``pgm.gcg.split_lines`` counts lines."""
    name: str
    """The encoding it names, as written (``""`` when it names none)."""


def decode(data: bytes, sink: DiagnosticSink) -> tuple[str, str]:
    """A record's text and the encoding it was read in (``utf-8``, ``iso-8859-1`` or
    ``utf-16``). The first ``#character-encoding`` line says which, on line 1 as the
    format wants or further down, where an annotator's editor may have put it: it says
    what the bytes are either way, and a line that is not what it declares is read as
    what it is (see :func:`_utf8_lines` and :func:`_declared`)."""
    data = without_end_mark(data)
    text = utf16_text(data, sink, "ISO-8859-1 or UTF-8")
    if text is not None:
        _check_placement(declarations(text), None, "the file is UTF-16", sink)
        return text, "utf-16"
    bom = data.startswith(_UTF8_BOM)
    if bom:
        data = data[len(_UTF8_BOM):]
    found = _named(declarations(data.decode("latin-1")), sink)
    if bom:
        _check_placement(found, None, "the file starts with a UTF-8 byte-order mark", sink)
        return _utf8_lines(data, "the byte-order mark", sink), "utf-8"
    if not found:
        return _undeclared(data, sink)
    _check_placement(found, found[0], f"line {found[0].line} declares the encoding", sink)
    return _declared(data, found[0], sink)


def declarations(text: str) -> list[Declaration]:
    """The ``#character-encoding`` lines of ``text``, in file order. The bytes are
    looked at as Latin-1 (one character a byte), so that the lines are found before the
    encoding is known; only the pragma's own line counts, not a note that mentions it."""
    found = []
    for match in _ENCODING_PRAGMA.finditer(text):
        start = max(text.rfind("\n", 0, match.start()), text.rfind("\r", 0, match.start())) + 1
        value = _REST_OF_LINE.match(text, match.end()).group()  # type: ignore[union-attr]
        if text[start:match.start()].strip(" \t") or value[:1] not in ("", " ", "\t"):
            continue  # not a line of its own, or a longer pragma name
        found.append(Declaration(_line_at(text, start), value.strip()))
    return found


def _line_at(text: str, offset: int) -> int:
    """The number of the line ``offset`` is on, lines ending in LF, CR LF or a lone CR."""
    before = text[:offset]
    return before.count("\n") + before.count("\r") - before.count("\r\n") + 1


def _named(found: list[Declaration], sink: DiagnosticSink) -> list[Declaration]:
    """The declarations that name an encoding; one that names none is ignored, with a
    warning, so that no line of the record goes unremarked."""
    for empty in (d for d in found if not d.name):
        sink.file_warning(empty.line, "#character-encoding names no encoding (expected UTF-8 or "
                                      "ISO-8859-1); ignored")
    return [d for d in found if d.name]


def _check_placement(found: list[Declaration], used: Declaration | None, why_not: str,
                     sink: DiagnosticSink) -> None:
    """A warning for each declaration that is not on line 1, which other GCG programs
    reject (macondo ``errEncodingWrongPlace``, MAGPIE ``MISPLACED_ENCODING``). The one pgm
    goes by (``used``) says so; any other is ignored, for the reason ``why_not``."""
    for declaration in found:
        if declaration.line == 1:
            continue
        if declaration is used:
            sink.file_warning(declaration.line,
                              "#character-encoding must be the first line of the file; pgm reads "
                              "it here all the same, but other GCG programs reject the file: "
                              "move it to line 1")
        else:
            sink.file_warning(declaration.line, "#character-encoding must be the first line of the "
                                                f"file; ignored here ({why_not})")


def _declared(data: bytes, declaration: Declaration, sink: DiagnosticSink) -> tuple[str, str]:
    """The bytes read as ``declaration`` says, unless they are plainly something else: a
    file declared ISO-8859-1 whose bytes are valid UTF-8 beyond ASCII was saved as UTF-8
    by a modern editor under an old header (ISO-8859-1 would show José as JosÃ©)."""
    name, line = declaration.name, declaration.line
    if name.lower() in _UTF8_NAMES:
        return _utf8_lines(data, f"line {line}", sink), "utf-8"
    utf8 = _utf8_text(data)
    if name.lower() in _LATIN1_NAMES | _WINDOWS_NAMES and utf8 is not None:
        sample = next(c for c in utf8 if not c.isascii())
        sink.file_warning(line, f"the file is UTF-8, though this line declares {name}: read as "
                                f"UTF-8 ({sample!r}, not {_mojibake(sample)!r}); write "
                                "'#character-encoding UTF-8' here")
        return utf8, "utf-8"
    if name.lower() in _LATIN1_NAMES:
        return _decode_latin1(data, sink), "iso-8859-1"
    if name.lower() in _WINDOWS_NAMES:
        sink.file_warning(line, f"GCG allows UTF-8 or ISO-8859-1, not {name}: read as "
                                f"{name}, but other GCG programs reject the file; write "
                                "'#character-encoding UTF-8' here and save the file as UTF-8")
        return data.decode("latin-1").translate(_WINDOWS_1252), "windows-1252"
    sink.error(line, f"unsupported character encoding {name!r} (expected UTF-8 or "
                     "ISO-8859-1); reading the file as "
                     f"{'UTF-8, which its bytes are' if utf8 is not None else 'ISO-8859-1'}")
    return (utf8, "utf-8") if utf8 is not None else (_decode_latin1(data, sink), "iso-8859-1")


def _undeclared(data: bytes, sink: DiagnosticSink) -> tuple[str, str]:
    """ISO-8859-1, the GCG default, unless the bytes are valid UTF-8 beyond ASCII. Real
    files are often UTF-8 without the header (German tournament scrapers); they are read
    as UTF-8, with a warning, because Latin-1 text essentially never forms valid UTF-8
    sequences and mojibake helps nobody."""
    if data.isascii():
        return data.decode("latin-1"), "iso-8859-1"
    utf8 = _utf8_text(data)
    if utf8 is None:
        central = _warn_of_central_european(data, sink)
        return _latin1_lines(data, sink, windows_warning=not central), "iso-8859-1"
    sink.file_warning(1, "no '#character-encoding UTF-8' line, but the file is UTF-8: "
                         "read as UTF-8 (the GCG default is ISO-8859-1)")
    return utf8, "utf-8"


_WORD = re.compile(rb"[A-Za-z\xa1-\xff]+")
_POLISH_BYTES = frozenset(b"\xa3\xa5\xa6\xac\xaf\xb1\xb3\xb6\xb9\xbc")
"""Bytes that are Polish letters in Windows-1250 or ISO-8859-2 (Ł Ą ą ł Ś ś Ź ź Ż) and
symbols in ISO-8859-1 (£ ¥ ¦ ¬ ¯ ± ³ ¶ ¹ ¼), which no name or word holds before a
letter. Windows-1252's Œ and œ share bytes with Ś and ś, so they tell nothing."""
_INNER_BYTES = frozenset(b"\xa1\xbf")
"""Ą and ż, which are Spanish ¡ and ¿: those open a word, so only inside one they count."""
_LETTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") | \
    frozenset(range(0xC0, 0x100)) - {0xD7, 0xF7}


def _central_european_word(data: bytes) -> tuple[int, bytes] | None:
    """Where a word that reads as Polish in a Central European code page is, and the
    word: a Polish byte followed by a letter (``£ukasz``, ``W¹sik``, ``mo¿e``). Lines
    that are valid UTF-8 (a note added on another machine) are passed over."""
    offset = 0
    for line in data.split(b"\n"):
        if _utf8_text(line) is None:
            for word in _WORD.finditer(line):
                if _reads_as_polish(word.group()):
                    return offset + word.start(), word.group()
        offset += len(line) + 1
    return None


def _reads_as_polish(word: bytes) -> bool:
    return any(byte in _POLISH_BYTES or (index and byte in _INNER_BYTES)
               for index, (byte, after) in enumerate(zip(word, word[1:], strict=False))
               if after in _LETTERS)


def _warn_of_central_european(data: bytes, sink: DiagnosticSink) -> bool:
    """A record saved by a Polish Windows program reads ``Łukasz`` as ``£ukasz``:
    pgm reads only UTF-8 and ISO-8859-1, so the director is told how to save it.
    Whether it was (the warning about Windows-1252's bytes would then mislead). The
    word is shown as Windows-1250 reads it when the file has its bytes 0x80-0x9F, else
    as ISO-8859-2 (they differ in Ą ą Ś ś Ź ź)."""
    found = _central_european_word(data)
    if found is None:
        return False
    start, word = found
    codec = "cp1250" if _WINDOWS_ONLY.search(data) else "iso-8859-2"
    sink.file_warning(_line_at(data.decode("latin-1"), start),
                      f"{latin1_text(word)!r} looks like {word.decode(codec, 'replace')!r} written "
                      "in Windows-1250 or ISO-8859-2 (Central European), which pgm does not read: "
                      "the file is read as ISO-8859-1; save it as UTF-8 with "
                      "'#character-encoding UTF-8' as its first line")
    return True


def _latin1_lines(data: bytes, sink: DiagnosticSink, windows_warning: bool = True) -> str:
    """An undeclared file that is not UTF-8 as a whole: ISO-8859-1, except the lines that
    are UTF-8 beyond ASCII (a note appended on another machine: ``#note café``), read as
    UTF-8 with one warning at the first. A Latin-1 line is next to never valid UTF-8
    (each accented letter would have to be followed by the right symbols), so the test
    is the whole line, never a pair of bytes: French ``é`` before a no-break space is a
    valid UTF-8 pair, in a line that is not."""
    pieces = _LINE_BREAK_KEPT.split(data)  # line, break, line, ...
    text = [_utf8_text(piece) if index % 2 == 0 else piece.decode("ascii")
            for index, piece in enumerate(pieces)]
    utf8_lines = [index // 2 + 1 for index, line in enumerate(text)
                  if index % 2 == 0 and line is not None]
    if not utf8_lines:
        return _decode_latin1(data, sink, windows_warning)
    first = text[2 * utf8_lines[0] - 2] or ""
    sample = next(c for c in first if not c.isascii())
    sink.file_warning(utf8_lines[0], _utf8_lines_message(sample, len(utf8_lines) - 1))
    return "".join(line if line is not None else latin1_text(piece)
                   for line, piece in zip(text, pieces, strict=True))


def _utf8_lines_message(sample: str, more: int) -> str:
    """The warning for UTF-8 lines in a file read as ISO-8859-1, at the first of them."""
    also = f", and so {'is' if more == 1 else 'are'} {more:,} more line{'s' if more > 1 else ''}"
    return (f"this line is UTF-8 ({sample!r}, not {_mojibake(sample)!r}) in a file read as "
            f"ISO-8859-1, the GCG default{also if more else ''}: read as UTF-8; save the file "
            "as UTF-8 with '#character-encoding UTF-8' as its first line")


def _utf8_text(data: bytes) -> str | None:
    """``data`` as UTF-8 when it is valid UTF-8 beyond ASCII, else None: Latin-1 text
    essentially never forms valid UTF-8 sequences, so such bytes were written as UTF-8."""
    if data.isascii():
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _mojibake(text: str) -> str:
    """``text`` as a reader that takes UTF-8 for ISO-8859-1 (Windows-1252) shows it."""
    return latin1_text(text.encode("utf-8"))


def latin1_text(data: bytes) -> str:
    """ISO-8859-1, with Windows-1252's characters for bytes 0x80-0x9F."""
    return data.decode("latin-1").translate(_WINDOWS_1252)


def _decode_latin1(data: bytes, sink: DiagnosticSink, warning: bool = True) -> str:
    """ISO-8859-1, except bytes 0x80-0x9F: control characters there, which nobody
    types, but Windows-1252's ’ “ ” – € and the like, which Windows editors write.
    They are read as Windows-1252, with a warning on the first line that has one."""
    text = data.decode("latin-1")
    first = _WINDOWS_ONLY.search(data)
    if first is None or not warning:
        return text.translate(_WINDOWS_1252)
    sink.file_warning(_line_at(text, first.start()),
                      "bytes 0x80-0x9F are control characters in ISO-8859-1: read as "
                      "Windows-1252 (’ “ ” – €); add '#character-encoding UTF-8' and "
                      "save the file as UTF-8 to say so")
    return text.translate(_WINDOWS_1252)


def _utf8_lines(data: bytes, declared_by: str, sink: DiagnosticSink) -> str:
    """UTF-8, as ``declared_by`` says, except the lines that are not valid UTF-8: an
    annotator on a Windows machine typed them in Latin-1 (``#note été`` as ``\\xe9t\\xe9``).
    Such a line is read as ISO-8859-1 (0x80-0x9F as Windows-1252), as pgm reads an
    undeclared file that is not UTF-8, with one warning naming the lines; the rest of
    the file stays UTF-8. A multi-byte sequence never holds a CR or LF byte, so cutting
    the bytes into lines first cuts no character in two."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    text: list[str] = []
    bad: list[tuple[int, int]] = []
    for index, piece in enumerate(_LINE_BREAK_KEPT.split(data)):  # line, break, line, ...
        if index % 2:
            text.append(piece.decode("ascii"))
            continue
        try:
            text.append(piece.decode("utf-8"))
        except UnicodeDecodeError as exc:
            bad.append((index // 2 + 1, piece[exc.start]))
            text.append(latin1_text(piece))
    sink.file_warning(bad[0][0], _not_utf8_message(bad, declared_by))
    return "".join(text)


def _not_utf8_message(bad: list[tuple[int, int]], declared_by: str) -> str:
    """The warning for the lines that are not UTF-8 (line, first bad byte), at the first:
    the byte and what it was read as, then how many more lines there are."""
    byte = bad[0][1]
    message = (f"byte 0x{byte:02X} is not UTF-8, which {declared_by} declares: the line is "
               f"read as ISO-8859-1 / Windows-1252, where it is {latin1_text(bytes([byte]))!r}")
    if len(bad) == 2:
        message += f"; so is line {bad[1][0]}"
    elif len(bad) > 2:
        message += f"; so are {len(bad) - 1:,} more lines, down to line {bad[-1][0]}"
    return message + "; save the file as UTF-8 in the editor to fix it"

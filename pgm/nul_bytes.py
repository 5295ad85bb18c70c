"""Files with NUL bytes, which no text has: a program, an archive or an image saved with a
record's name, or a record whose end was lost as it was saved (editors and file systems
pad a file cut short with NULs). Read line by line, either gives an error on every line
of bytes; each reader says it once instead, at the line of the first NUL, and reads the
lines before it.
"""

from __future__ import annotations

import re

from pgm.diagnostics import DiagnosticSink

NOT_TEXT = ("this line holds NUL bytes, which text has none of: the file is a program, an "
            "archive or an image, or text in an encoding pgm does not read (UTF-32), and "
            "no {what} can be read from it")
"""The error at a first line with NULs; ``{what}`` is what the file should hold."""

CUT_SHORT = ("this line holds NUL bytes: the file was most likely cut short while it was "
             "saved, and is read up to here")
"""The error at a later line with NULs."""

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")


def without_end_mark(data: bytes) -> bytes:
    """``data`` without the Ctrl-Z (0x1A) that DOS programs, and some Windows ones still,
    write after a text's last line: a mark of the file's end, not a character of the
    line, which would otherwise fail to read and stop a finished game."""
    return data.rstrip(b"\x1a")


def before_nul(data: bytes, sink: DiagnosticSink, what: str) -> bytes:
    """``data`` up to the line of its first NUL byte, with the error that says why; all of
    ``data`` when it has none. (UTF-16, whose Latin letters are half NULs, is read
    before this is asked.)"""
    at = data.find(b"\0")
    if at < 0:
        return data
    breaks = list(_LINE_BREAK.finditer(data, 0, at))
    start = breaks[-1].end() if breaks else 0
    read = data[:start]
    if read.strip():
        sink.error(len(breaks) + 1, CUT_SHORT)
    else:
        sink.error(len(breaks) + 1, NOT_TEXT.format(what=what))
    return read

"""Records saved as UTF-16, which every reader meets the same way.

No format pgm reads is UTF-16, but Windows editors save "Unicode" text as UTF-16, and read
as UTF-8 or ISO-8859-1 such a file gives an error on every line for a NUL between every
two letters. The text is plain to recover, so the readers take it with one warning that
says what to do about it.
"""

from __future__ import annotations

import codecs

from pgm.diagnostics import DiagnosticSink

_SAMPLE = 512
"""Bytes looked at for a UTF-16 file without a byte-order mark."""


def utf16_text(data: bytes, sink: DiagnosticSink, expected: str) -> str | None:
    """The text of ``data`` when it is UTF-16 (with a byte-order mark, or with NULs where
    UTF-16 puts them in Latin text), with a warning naming the ``expected`` encodings;
    None for any other bytes."""
    encoding = utf16_encoding(data)
    if encoding is None:
        return None
    sink.file_warning(1, f"the file is UTF-16 (Windows calls it \"Unicode\"), not {expected}: "
                         "read as UTF-16; save it as UTF-8 for other programs")
    return data.decode(encoding, errors="replace").removeprefix("\ufeff")


def utf16_encoding(data: bytes) -> str | None:
    """The UTF-16 codec ``data`` is in (by its byte-order mark, or by the NULs UTF-16
    puts in Latin text); None for any other bytes."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    sample = data[:_SAMPLE]
    if len(sample) < 4 or b"\0" not in sample:
        return None
    high_bytes_zero = [sample[parity::2].count(0) >= len(sample) // 2 * 9 // 10
                       for parity in (1, 0)]
    if high_bytes_zero[0]:
        return "utf-16-le"
    if high_bytes_zero[1]:
        return "utf-16-be"
    return None

"""Files with NUL bytes, in every format pgm reads: a program or an image saved under a
record's name is one error at line 1 (not an error per line of bytes), and a record whose
end was lost as it was saved (padded with NULs) is read up to the padding, with one error
there."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS, SAMPLE_GAMES

from pgm.check import check_file
from pgm.diagnostics import Severity

RECORDS = {
    ".gcg": CORPUS / "gcg/macondo__vs_andy.gcg",
    ".gn": CORPUS / "gn/authored__1_commander_capture.gn",
    ".cgp": SAMPLE_GAMES / "positions/puzzles.cgp",
    ".ubf": SAMPLE_GAMES / "upwords/example.ubf",
}
WHAT = {".gcg": "record", ".gn": "game", ".cgp": "position", ".ubf": "board"}
# The start of an ELF program: NULs on its first line, and bytes that are not UTF-8.
PROGRAM = b"\x7fELF\x02\x01\x01" + b"\x00" * 9 + b"\x03\x00>\x00\xd0a\x00\n\x00@\x00" * 40


def checked(tmp_path: Path, suffix: str, data: bytes) -> list[tuple[int, Severity, str]]:
    path = tmp_path / f"record{suffix}"
    path.write_bytes(data)
    _, diagnostics = check_file(path)
    return [(d.line, d.severity, d.message) for d in diagnostics]


@pytest.mark.parametrize("suffix", sorted(RECORDS))
def test_a_program_under_a_records_name_is_one_error(tmp_path, suffix) -> None:
    assert checked(tmp_path, suffix, PROGRAM) == [(
        1, Severity.ERROR,
        "this line holds NUL bytes, which text has none of: the file is a program, an "
        "archive or an image, or text in an encoding pgm does not read (UTF-32), and no "
        f"{WHAT[suffix]} can be read from it")]


@pytest.mark.parametrize("suffix", sorted(RECORDS))
def test_a_record_padded_with_nuls_is_read_up_to_them(tmp_path, suffix) -> None:
    record = RECORDS[suffix].read_bytes().rstrip(b"\r\n") + b"\n"
    whole = checked(tmp_path, suffix, record)
    # CRLF in the record, and the padding after a line break, as a lost end leaves it
    found = checked(tmp_path, suffix, record.replace(b"\n", b"\r\n") + b"\x00" * 300)
    cut = (record.count(b"\n") + 1, Severity.ERROR,
           "this line holds NUL bytes: the file was most likely cut short while it was "
           "saved, and is read up to here")
    assert cut in found
    # everything else is what the whole record says: read up to the NULs
    assert [problem for problem in found if problem != cut] == whole

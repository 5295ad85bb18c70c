"""A record saved as UTF-16 ("Unicode" in Windows editors) is read as the same record,
with one warning that says so, instead of an error on every line."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from sitehelpers import make_event, run_build

from pgm.cgp_file import read_cgp_file
from pgm.crossword import replay
from pgm.gcg import parse_gcg
from pgm.gn import parse as parse_gn
from pgm.ubf import read_ubf

GCG = CORPUS / "gcg/macondo__vs_andy.gcg"
ENCODINGS = ["utf-16", "utf-16-le", "utf-16-be"]
"""With a byte-order mark, and without one either way round."""


def _utf16(text: str, encoding: str) -> bytes:
    return text.encode(encoding)


def _only_the_utf16_warning(diagnostics) -> None:
    assert [(d.line, d.severity.value) for d in diagnostics] == [(1, "warning")]
    assert "UTF-16" in diagnostics[0].message


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_utf16_gcg_replays_as_the_same_game(encoding: str) -> None:
    original = GCG.read_bytes()
    expected = replay(parse_gcg(original, "a.gcg"))
    game = replay(parse_gcg(_utf16(original.decode("latin-1"), encoding), "a.gcg"))
    assert game.final.scores == expected.final.scores and game.final.scores[0] > 300
    assert [t.position.cells for t in game.turns] == [t.position.cells
                                                      for t in expected.turns]
    _only_the_utf16_warning(game.diagnostics)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_utf16_gungi_cgp_and_ubf_files_are_read_as_text(encoding: str) -> None:
    gn = (CORPUS / "gn/authored__1_commander_capture.gn").read_text(encoding="utf-8")
    record = parse_gn(_utf16(gn, encoding), "g.gn")
    assert len(record.plies) == len(parse_gn(gn.encode(), "g.gn").plies) > 10
    _only_the_utf16_warning(record.diagnostics)
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0 -lex CSW21;\n"
    positions = read_cgp_file(_utf16(cgp, encoding), "p.cgp")
    assert len(positions.entries) == 1 and positions.entries[0].ok
    _only_the_utf16_warning(positions.diagnostics)
    rows = "[" + ",\n".join(["['0 ', '1A', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']"] * 10)
    board = read_ubf(_utf16(rows + "]\n", encoding), "b.ubf")
    assert board.board == read_ubf(rows + "]\n").board is not None
    _only_the_utf16_warning(board.diagnostics)


def test_latin1_and_utf8_records_are_not_taken_for_utf16() -> None:
    for data in (GCG.read_bytes(), "#player1 a Ä\n".encode(), "#player1 a Ä\n".encode("latin-1")):
        assert not any("UTF-16" in d.message for d in parse_gcg(data, "a.gcg").diagnostics)


def test_a_utf16_record_builds_and_is_kept_byte_identical(tmp_path) -> None:
    data = _utf16(GCG.read_bytes().decode("latin-1"), "utf-16")
    event = make_event(tmp_path / "ev", {"g.gcg": data})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output
    assert "g.gcg:1: warning: the file is UTF-16" in result.output
    assert (tmp_path / "o/g/input.gcg").read_bytes() == data
    assert (tmp_path / "o/g/25.html").is_file()

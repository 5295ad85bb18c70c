"""Problems of how a record is written (its encoding, obsolete or unknown pragmas) are the
director's to fix: the build and ``pgm check`` say them, but the game's pages, which
spectators read, show only the problems of the game itself (a wrong score)."""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import make_event, text_of

from pgm.cli import main
from pgm.diagnostics import Diagnostic, Severity
from pgm.site_model import GameEntry
from pgm.state import _entry_from_json, _entry_json

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()

FILE_PROBLEMS = ("Windows-1252", "#htarget is obsolete", "unknown pragma #frobnicate")


def written_oddly() -> bytes:
    """The record saved by a Windows program, with pgm.pl's #htarget, a pragma nobody
    knows, and a score added up wrongly at turn 1."""
    lines = RECORD.split(b"\n")
    lines[2:2] = [b"#htarget http://club.example/games/", b"#frobnicate yes",
                  b"#description Andy\x92s first game"]
    text = b"\n".join(lines)
    assert text.count(b">andy: GPY 8G GYP +18 18") == 1
    return text.replace(b">andy: GPY 8G GYP +18 18", b">andy: GPY 8G GYP +19 19")


def test_pages_leave_out_the_problems_of_how_the_file_is_written(tmp_path) -> None:
    make_event(tmp_path / "ev", {"r1/t1.gcg": written_oddly()})
    result = CliRunner().invoke(main, ["build", str(tmp_path / "ev"), "-o",
                                       str(tmp_path / "site")])
    for problem in FILE_PROBLEMS:
        assert problem in result.output
    assert "Andy’s first game" in (tmp_path / "site/r1/t1/index.html").read_text("utf-8")
    pages = [text_of(page.read_text("utf-8"))
             for page in (tmp_path / "site/r1/t1").glob("*.html")]
    for problem in FILE_PROBLEMS:
        assert not any(problem in page for page in pages), problem
    score_problem = [line for line in result.output.splitlines() if "t1.gcg:" in line
                     and "19" in line and "18" in line]
    assert score_problem, result.output
    turn_one = text_of((tmp_path / "site/r1/t1/1.html").read_text("utf-8"))
    game_page = text_of((tmp_path / "site/r1/t1/index.html").read_text("utf-8"))
    message = score_problem[0].split(": warning: ")[-1].split(": error: ")[-1]
    assert message in turn_one and message in game_page


def test_check_reports_them_all(tmp_path) -> None:
    path = tmp_path / "t1.gcg"
    path.write_bytes(written_oddly())
    result = CliRunner().invoke(main, ["check", str(path)])
    for problem in FILE_PROBLEMS:
        assert problem in result.output


def test_the_site_state_keeps_who_a_problem_is_for() -> None:
    """A rebuild reads the problems of unchanged games back from the state file."""
    file_problem = Diagnostic("t1.gcg", 3, Severity.WARNING, "#htarget is obsolete",
                              on_pages=False)
    game_problem = Diagnostic("t1.gcg", 9, Severity.WARNING, "score is 18, not 19")
    entry = GameEntry(slug="r1/t1", relative="r1/t1.gcg", kind="gcg", label="t1",
                      players=("Andy", "Cesar"), scores=(18, 0), live=False, status="",
                      result_by_seat=("", ""), turns=1, division=None, round="1",
                      table="1", diagnostics=(file_problem, game_problem))
    again = _entry_from_json(json.loads(json.dumps(_entry_json(entry))))
    assert again.diagnostics == (file_problem, game_problem)


def test_no_turn_is_flagged_for_a_problem_its_page_leaves_out(tmp_path) -> None:
    """A move line in Latin-1 in a record declared UTF-8: a warning about the file, so
    the score sheet flags no turn for it, and game.json marks it as about the file."""
    lines = RECORD.replace(b"andy", "Zoë".encode()).split(b"\n")
    moves = [i for i, line in enumerate(lines) if line.startswith(">Zoë:".encode())]
    lines[moves[2]] = lines[moves[2]].decode().encode("latin-1")
    make_event(tmp_path / "ev", {"r1/t1.gcg": b"#character-encoding UTF-8\n"
                                 + b"\n".join(lines)})
    result = CliRunner().invoke(main, ["build", str(tmp_path / "ev"), "-o",
                                       str(tmp_path / "site")])
    assert "not UTF-8" in result.output or "ISO-8859-1" in result.output, result.output
    game = tmp_path / "site/r1/t1"
    assert 'class="flagged"' not in (game / "index.html").read_text("utf-8")
    assert "flagged" not in (game / "index.html").read_text("utf-8")
    report = json.loads((game / "game.json").read_text("utf-8"))
    assert report["diagnostics"] and all(d.get("on_pages") is False
                                         for d in report["diagnostics"])

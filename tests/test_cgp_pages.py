"""``pgm build`` with position sets (.cgp): every valid CGP case of the corpus drawn on its
own page and read back through the squares' accessible names, numbered sets, bad lines,
the last move and the operations in words, and ``pgm check`` on .cgp files."""

from __future__ import annotations

import csv
import json
import re
from html import unescape

import pytest
from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import board_squares, make_event, run_build, text_of

from pgm.cgp import CgpPosition, parse_cgp, write_cgp
from pgm.cgp_view import clock
from pgm.cli import main
from pgm.scoring import square_name
from pgm.tiles import is_blank


def _cases() -> list[dict[str, str]]:
    with (CORPUS / "cgp/cases.tsv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


# As in test_cgp.py: C133 has a row of 14 squares, which pgm rejects.
VALID = [c for c in _cases() if c["id"].startswith("C") and c["expectation"].startswith("valid")
         and c["id"] != "C133"]
EMPTY = "/".join(["15"] * 15)


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory):
    """One position set holding every valid case, each captioned with its id."""
    root = tmp_path_factory.mktemp("cgp")
    body = "".join(f"# {case['id']}\n{case['cgp']}\n\n" for case in VALID)
    event = make_event(root / "ev", {"cases.cgp": body.encode("utf-8")})
    result = run_build(str(event), "-o", str(root / "site"))
    assert result.exit_code == 0, result.output
    return root / "site"


def expected_names(position: CgpPosition) -> dict[str, str]:
    """Square -> the start of its accessible name: "H8, A" or "L6, blank as I"."""
    size = position.layout.size
    names = {}
    for index, label in enumerate(position.cells):
        name = square_name(index // size, index % size)
        what = "empty" if not label else (
            f"blank as {label.upper()}" if is_blank(label) else label)
        names[name] = f"{name}, {what}"
    return names


def textarea(html: str, ident: str) -> str:
    found = re.search(rf'<textarea id="{ident}"[^>]*>(.*?)</textarea>', html, re.S)
    assert found, ident
    return unescape(found.group(1))


@pytest.mark.parametrize("number,case", list(enumerate(VALID, start=1)),
                         ids=[c["id"] for c in VALID])
def test_each_valid_case_renders_as_a_page_with_the_right_tiles(corpus_site, number: int,
                                                                 case: dict[str, str]) -> None:
    position = parse_cgp(case["cgp"]).position
    assert position is not None
    html = (corpus_site / f"cases/{number}.html").read_text(encoding="utf-8")
    assert f"Position {number} of {len(VALID)}" in html and case["id"] in text_of(html)
    squares = board_squares(html)
    assert len(squares) == position.layout.size ** 2
    shown = {name: ", ".join(label.split(", ")[:2]) for name, label in squares.items()}
    assert shown == expected_names(position)
    assert textarea(html, "cgp-text") == write_cgp(position)
    text = text_of(html)
    for score in position.scores:
        assert f" {score} (" in text


def test_the_set_overview_lists_every_case_and_the_index_counts_them(corpus_site) -> None:
    overview = (corpus_site / "cases/index.html").read_text(encoding="utf-8")
    for number, case in enumerate(VALID, start=1):
        assert f'<a href="{number}.html">{number}</a>' in overview
        assert f"<td>{case['id']}</td>" in overview
    html = (corpus_site / "index.html").read_text(encoding="utf-8")
    index = text_of(html)
    assert "Position set: cases.cgp" in index and f"{len(VALID)} positions" in index
    # counted once, as positions: a set has no turns
    row = re.search(r'<tr[^>]*data-game="cases">.*?</tr>', html, re.S).group(0)
    assert '<td class="turns"></td>' in row
    data = json.loads((corpus_site / "cases/game.json").read_text(encoding="utf-8"))
    assert data["game"] == "cgp" and data["format"] == "pgm-game/1"
    assert data["turns"] == len(VALID) == len(data["events"])
    assert not (corpus_site / "cases/moves.csv").exists()


SET = f"""\
# Club puzzles, week 1

# Find the best opening
{EMPTY} AEINRST/ 0/0 0 lex CSW21;
{EMPTY.replace("15", "7QI6", 8).replace("7QI6", "15", 7)} AB/CD 22/0 0 lex CSW21; lm 8H QI;
# Endgame
{EMPTY.replace("15", "6ZA7", 8).replace("6ZA7", "15", 7)} E/T 100/99 0 ld english; tmr 824793/-2500;
"""


def test_several_positions_become_a_numbered_set_with_navigation(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"puzzles/week-1.cgp": SET.encode()})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--strict")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "o/puzzles/week-1"
    assert sorted(p.name for p in folder.iterdir()) == [
        "1.html", "2.html", "3.html", "game.json", "index.html", "input.cgp"]
    assert (folder / "input.cgp").read_bytes() == SET.encode()
    overview = (folder / "index.html").read_text()
    assert "Club puzzles, week 1" in overview  # a comment that captions no position
    assert "Find the best opening" in overview and "Endgame" in overview
    second = (folder / "2.html").read_text()
    for link in ('href="1.html" class="first"', 'href="1.html" rel="prev"',
                 'href="3.html" rel="next"', 'href="3.html" class="last"'):
        assert link in second
    assert '<script src="../../static/pgm.js" defer></script>' in second
    first = (folder / "1.html").read_text()
    assert '<span class="prev disabled">' in first and "Find the best opening" in first
    assert "AEINRST" in text_of(first)
    last = text_of((folder / "3.html").read_text())
    assert "13:44" in last and "-00:03" in last and "Endgame" in last


def test_the_last_move_is_highlighted_and_the_operations_are_in_words(tmp_path) -> None:
    row = "15/" * 7 + "5FOXES5" + "/15" * 7
    line = (f"{row} ?AB/CD 70/82 3 lex CSW21; ld english; bdn CrosswordGame; cr double; "
            "bb 50; tmr 60000/-2500; ti 3000; to 60000; var classic; gid game-42; "
            "lm 8F FO.ES;\n")
    event = make_event(tmp_path / "ev", {"p.cgp": line.encode()})
    assert run_build(str(event), "-o", str(tmp_path / "o"), "--strict").exit_code == 0
    html = (tmp_path / "o/p/1.html").read_text()
    squares = board_squares(html)
    just = {name for name, label in squares.items() if label.endswith("just played")}
    assert just == {"F8", "G8", "I8", "J8"}  # H8 is played through
    assert squares["H8"] == "H8, X, 8 points, on double word"
    text = text_of(html)
    for words in ("Last move: FO(X)ES at 8F across", "Lexicon CSW21",
                  "Letter distribution english", "Board CrosswordGame, 15×15",
                  "Challenge rule double — a phoney comes off, a wrong challenge loses a turn",
                  "Bingo bonus 50 points", "01:00 (to move), -00:03 (player 2)",
                  "Time increment 3 s per move", "Overtime allowed 01:00",
                  "Variant classic", "Game id game-42", "Scoreless turns just before 3",
                  "Player 1 to move", "Player 2 moved last", "?AB", "CD"):
        assert words in text, words
    assert "the last move, FO(X)ES at 8F across, is highlighted" in html


def test_what_the_position_leaves_out_is_said_to_be_left_out(tmp_path) -> None:
    """A "(not given)" after a value pgm uses read as a contradiction: the page says where
    the value comes from when the position names none."""
    lines = f"{EMPTY} AB/CD 1/2 0\n{EMPTY} AB/CD 1/2 0 lex NOSUCH;\n"
    event = make_event(tmp_path / "ev", {"p.cgp": lines.encode()})
    run_build(str(event), "-o", str(tmp_path / "o"))
    bare = text_of((tmp_path / "o/p/1.html").read_text())
    for words in ("Lexicon none: the position does not name one",
                  "Letter distribution english (the default: the position names neither a "
                  "distribution nor a lexicon)",
                  "Board CrosswordGame, 15×15 (chosen by its size: the position does not "
                  "name one)"):
        assert words in bare, words
    assert "not given" not in bare
    unknown = text_of((tmp_path / "o/p/2.html").read_text())
    assert ("Letter distribution english (the default: the position names no distribution, "
            "and pgm knows none for NOSUCH)") in unknown
    assert "Lexicon NOSUCH" in unknown


def test_a_last_move_that_disagrees_with_the_board_is_a_warning(tmp_path) -> None:
    row = "15/" * 7 + "5FOXES5" + "/15" * 7
    path = tmp_path / "p.cgp"
    path.write_text(f"\n{row} / 0/0 0 lm 8F FAXES;\n{row} / 0/0 0 lm 8Q X;\n",
                    encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0
    assert f"{path}:2: warning: opcode lm: G8 holds O, but the last move puts A there" in \
        result.output
    assert f"{path}:3: warning: opcode lm: '8Q X' runs off the 15x15 board" in result.output


def test_check_names_what_the_spec_forbids_with_file_and_line(tmp_path) -> None:
    path = tmp_path / "bad.cgp"
    path.write_text(f"{EMPTY} AB/CD 1/2 0 lm 8H CAT; lm 9H DOG;\n"
                    f"{EMPTY} AB/CD 1/2 0 gid has space;\n{EMPTY} ABCDEFGH/CD 1/2 0\n"
                    f"{EMPTY} ABC/DEF 123/456/78 0\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert (f"{path}:1: error: opcode lm: given 2 times ('8H CAT', '9H DOG'); the lm opcode "
            "can only be given once") in result.output
    assert (f"{path}:2: error: opcode gid: 'has space' contains a space; a game id must not "
            "contain any spaces") in result.output
    assert f"{path}:3: warning: racks: 'ABCDEFGH' has 8 tiles; a rack holds at most 7" in \
        result.output
    assert f"{path}:4: error: scores: 3 scores ('123/456/78') for 2 racks ('ABC/DEF')" in \
        result.output


def test_check_warns_of_racks_a_record_gives_beyond_the_set() -> None:
    path = CORPUS / "gcg/liwords__r16_lola.gcg"
    result = CliRunner().invoke(main, ["check", str(path)])
    assert (f"{path}:16: warning: the racks after this line cannot all be right: the board "
            "with Josh's ABCIIRZ and Lola's EEEIIII holds 11 'I' tiles, but the english set "
            "has 9; the position's CGP leaves out Lola's rack") in result.output
    [report] = json.loads(CliRunner().invoke(main, ["check", "--json", str(path)]).stdout)
    cgp = report["events"][11]["cgp"]
    assert cgp.split()[1] == "ABCIIRZ/"
    assert parse_cgp(cgp).diagnostics == ()


def test_a_bad_line_is_reported_with_its_line_and_the_others_render(tmp_path) -> None:
    body = (f"# good\n{EMPTY} A/B 1/2 0\n\n# bad\n{EMPTY}/15 / 0/0 0\n"
            f"{EMPTY} C/D 3/4 0 tmr 1/2/3;\n{EMPTY} E/F 5/6 0\n")
    event = make_event(tmp_path / "ev", {"set.cgp": body.encode()})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert "set.cgp:5: error: board: 16 rows; expected 15" in result.output
    assert ("set.cgp:6: error: opcode tmr: '1/2/3' should be one number of milliseconds per "
            "player, separated by '/'") in result.output
    folder = tmp_path / "o/set"
    overview = text_of((folder / "index.html").read_text())
    assert "Line 5: error: board: 16 rows; expected 15" in overview
    assert "Line 6: error: opcode tmr" in overview
    assert len(board_squares((folder / "1.html").read_text())) == 225
    assert len(board_squares((folder / "4.html").read_text())) == 225
    bad = (folder / "2.html").read_text()
    assert '<table class="board' not in bad and "Line 5 could not be read" in bad
    assert textarea(bad, "cgp-text") == f"{EMPTY}/15 / 0/0 0"
    assert "1 error" not in text_of((tmp_path / "o/index.html").read_text())
    assert "2 errors" in text_of((tmp_path / "o/index.html").read_text())


def test_check_reports_each_position_with_its_cgp_written_back(tmp_path) -> None:
    lines = [VALID[0]["cgp"], "# a caption", "15/15 / 0/0 0", next(
        c for c in VALID if c["id"] == "C050")["cgp"]]
    path = tmp_path / "p.cgp"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--json", str(path)])
    assert result.exit_code == 1
    [report] = json.loads(result.stdout)
    assert report["game"] == "cgp" and report["players"] == []
    assert [(e["line"], e["number"]) for e in report["events"]] == [(1, 1), (3, 2), (4, 3)]
    assert report["events"][1]["caption"] == "a caption" and report["events"][1]["cgp"] is None
    assert report["diagnostics"][0]["line"] == 3
    for event, line in ((report["events"][0], lines[0]), (report["events"][2], lines[3])):
        assert parse_cgp(event["cgp"]).position == parse_cgp(line).position
    assert report["events"][2]["distribution"] == "catalan"
    exported = CliRunner().invoke(main, ["export", str(path)])
    assert exported.stdout.splitlines() == ["game,turn,player,rack,position,word,score,"
                                            "cumulative,kind,notation"]


@pytest.mark.parametrize("milliseconds,shown", [(824793, "13:44"), (1000, "00:01"),
                                                (0, "00:00"), (-2500, "-00:03"),
                                                (-60000, "-01:00"), (7_200_000, "120:00")])
def test_clocks_are_minutes_and_seconds_with_overtime_negative(milliseconds: int,
                                                               shown: str) -> None:
    assert clock(milliseconds) == shown


def test_a_position_set_is_never_in_progress_even_in_a_live_event(tmp_path) -> None:
    """``live: true`` at the event root makes its games follow their records; a set of
    positions is no game, and its pages must not poll for moves that never come."""
    event = make_event(tmp_path / "ev", {"puzzles/week-1.cgp": SET.encode(),
                                         "event.yaml": "live: true\n"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    [listed] = json.loads((tmp_path / "o/live.json").read_text())["games"]
    assert listed["live"] is False
    index = (tmp_path / "o/index.html").read_text()
    assert "data-waiting" in index and "in progress" not in index


def test_a_position_lists_multi_letter_tiles_as_the_game_pages_do(tmp_path) -> None:
    """The unseen tiles write Catalan's L·L and NY as ``[L·L]`` and ``[NY]``, as the
    turn pages do: one tile, not three letters beside the L tiles."""
    event = make_event(tmp_path / "ev", {
        "p.cgp": "QU3l·l9NY/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0 lex DISC2;\n"})
    assert run_build(str(event), "-o", str(tmp_path / "site"), "--quiet").exit_code == 0
    page = (tmp_path / "site/p/1.html").read_text(encoding="utf-8")
    unseen = text_of(page.split('class="unseen"', 1)[1].split("</section>", 1)[0])
    assert "[L·L]" in unseen
    assert re.search(r"\bL × 4\b.*\[L·L\]", unseen) and "[NY]" not in unseen

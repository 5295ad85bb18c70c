"""CGP boards of any square size: read as the known board of that size or as a plain
board without premium squares, checked, written back, and drawn whole with their row and
column headers (AA, AB, ... past Z, as the spec's "Excel column notation" names them)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from sitehelpers import board_squares, make_event, run_build, text_of

from pgm.board import (
    MAX_SIZE,
    Placement,
    column_index,
    column_name,
    parse_coordinate,
    plain_layout,
)
from pgm.cgp import parse_cgp, write_cgp
from pgm.cgp_file import read_cgp_file
from pgm.cli import main


def empty(size: int) -> str:
    return "/".join([str(size)] * size)


def board(size: int, rows: dict[int, str]) -> str:
    """An empty ``size`` board with some rows (numbered from 1) written out."""
    return "/".join(rows.get(r, str(size)) for r in range(1, size + 1))


# The 11x11 puzzle and the 27x27 board of the page tests: QUIET across row 6 of the
# small board; on the big one ABC ends row 1 at AA, COW runs down column AA, JOKER in
# the last row.
SMALL = board(11, {6: "3QUIET3"}) + " AB?/XYZ 30/12 0 lex CSW21; lm 6D QUIET;"
BIG = board(27, {1: "24ABC", 2: "26O", 3: "26W", 27: "21JOKER1"}) + \
    " DEF/GHI 100/90 1 lex CSW21; lm AA1 COW;"


def messages(text: str) -> list[str]:
    """Every problem of ``text`` read as a .cgp file, as ``pgm check`` prints it."""
    found = read_cgp_file(text.encode("utf-8"), "sizes.cgp")
    return [f"{d.path}:{d.line}: {d.severity}: {d.message}" for d in found.diagnostics]


# -- Reading -----------------------------------------------------------------------------

@pytest.mark.parametrize("size", [2, 9, 11, 13, 19, 27, MAX_SIZE])
def test_a_square_board_of_a_size_no_known_board_has_is_a_plain_board(size: int) -> None:
    result = parse_cgp(f"{empty(size)} ABC/DEF 0/0 0")
    assert result.diagnostics == ()
    position = result.position
    assert position is not None
    assert position.layout.name == f"plain {size}x{size}"
    assert position.layout.size == size and position.layout.plain
    assert position.layout.premium_squares == {} and position.layout.start is None
    assert len(position.cells) == size * size and len(position.rows()) == size
    assert parse_cgp(write_cgp(position)).position == position


@pytest.mark.parametrize("size,name", [(15, "CrosswordGame"), (21, "SuperCrosswordGame")])
def test_the_known_sizes_keep_their_boards(size: int, name: str) -> None:
    position = parse_cgp(f"{empty(size)} / 0/0 0").position
    assert position is not None and position.layout.name == name
    assert not position.layout.plain and position.layout.start == (size // 2, size // 2)


def test_tiles_land_where_the_rows_put_them_on_a_27_board() -> None:
    position = parse_cgp(BIG).position
    assert position is not None
    rows = position.rows()
    assert rows[0][24:] == ("A", "B", "C") and rows[1][26] == "O" and rows[2][26] == "W"
    assert rows[26][21:26] == ("J", "O", "K", "E", "R") and rows[26][26] == ""
    assert write_cgp(position) == BIG


def test_the_review_file_of_five_sizes_reads_without_a_problem() -> None:
    text = "".join(f"{empty(n)} ABC/DEF 0/0 0\n" for n in (9, 11, 13, 19, 27))
    found = read_cgp_file(text.encode(), "sizes.cgp")
    assert found.diagnostics == ()
    assert [e.position.layout.name for e in found.entries if e.position] == [
        "plain 9x9", "plain 11x11", "plain 13x13", "plain 19x19", "plain 27x27"]


def test_bdn_names_a_board_whose_size_the_rows_must_have() -> None:
    assert messages(f"{empty(11)} / 0/0 0 bdn CrosswordGame;\n"
                    f"{empty(15)} / 0/0 0 bdn SuperCrosswordGame;\n"
                    f"{empty(11)} / 0/0 0 bdn plain 13x13;\n") == [
        "sizes.cgp:1: error: board: 11 rows; expected 15 for bdn CrosswordGame "
        "(a 15x15 board)",
        "sizes.cgp:2: error: board: 15 rows; expected 21 for bdn SuperCrosswordGame "
        "(a 21x21 board)",
        "sizes.cgp:3: error: board: 11 rows; expected 13 for bdn plain 13x13 "
        "(a 13x13 board)"]


def test_bdn_can_name_a_plain_board_and_an_unknown_name_leaves_the_size_to_choose() -> None:
    named = parse_cgp(f"{empty(11)} / 0/0 0 bdn plain 11x11;")
    assert named.diagnostics == () and named.position is not None
    assert named.position.layout == plain_layout(11)
    plain15 = parse_cgp(f"{empty(15)} / 0/0 0 bdn Plain15x15;").position
    assert plain15 is not None and plain15.layout.name == "plain 15x15"
    unknown = parse_cgp(f"{empty(11)} / 0/0 0 bdn Wordfeud;")
    assert [d.message for d in unknown.diagnostics] == [
        "opcode bdn: unknown board 'Wordfeud'; the board is chosen by its size (one of a "
        "size no known board has is drawn plain, without premium squares)"]
    assert unknown.position is not None and unknown.position.layout.name == "plain 11x11"


def test_a_board_that_is_not_square_or_has_uneven_rows_is_an_error_at_its_line() -> None:
    assert messages(f"# not square\n{'/'.join(['11'] * 12)} / 0/0 0\n"
                    f"{board(11, {11: '10'})} / 0/0 0\n"
                    f"{'/'.join(['11'] * 11 + ['10'])} / 0/0 0\n"
                    f"{board(27, {4: '20ABC'})} / 0/0 0\n") == [
        "sizes.cgp:2: error: board: 12 rows; expected 11, as many as each row has squares "
        "(a board is square)",
        "sizes.cgp:3: error: board row 11 ('10') has 10 squares; expected 11, as the board "
        "has 11 rows",
        "sizes.cgp:4: error: board row 12 ('10') has 10 squares; expected 11, as row 1 has",
        "sizes.cgp:5: error: board row 4 ('20ABC') has 23 squares; expected 27, as the "
        "board has 27 rows"]


def test_boards_too_small_or_too_large_are_errors_found_before_their_squares() -> None:
    huge_run = "9" * 5000
    assert messages(f"2/2/2 / 0/0 0\n1 / 0/0 0\n{empty(65)} / 0/0 0\n"
                    f"{huge_run}/15 / 0/0 0\n{'40/' * 2}40 / 0/0 0\n²/2 / 0/0 0\n") == [
        "sizes.cgp:1: error: board: 3 rows; expected 2, as many as each row has squares "
        "(a board is square)",
        "sizes.cgp:2: error: board: 1 row; pgm reads square boards of 2x2 to 64x64",
        "sizes.cgp:3: error: board: 65 rows; pgm reads square boards of 2x2 to 64x64",
        f"sizes.cgp:4: error: board row 1 ({huge_run[:80]!r}…) has more than 64 squares; "
        "pgm reads square boards of 2x2 to 64x64",
        "sizes.cgp:5: error: board: 3 rows; expected 40, as many as each row has squares "
        "(a board is square)",
        "sizes.cgp:6: error: board row 1 ('²'): '²' is not a tile of the english set"]


# -- The last move and coordinates past Z --------------------------------------------------

def test_coordinates_past_z_are_in_excel_column_notation_both_ways() -> None:
    assert [column_name(c) for c in (0, 25, 26, 27, 51, 52, 63, 701, 702)] == [
        "A", "Z", "AA", "AB", "AZ", "BA", "BL", "ZZ", "AAA"]
    assert [column_index(n) for n in ("A", "z", "AA", "ab", "BL", "AAA")] == [
        0, 25, 26, 27, 63, 702]
    assert parse_coordinate("27AB") == Placement(26, 27, True)
    assert parse_coordinate("aa1") == Placement(0, 26, False)
    assert Placement(26, 27, True).coordinate() == "27AB"
    assert Placement(0, 26, False).coordinate() == "AA1"
    assert parse_coordinate("9" * 5000 + "A") is None  # not a crash


def test_the_last_move_on_a_27_board_is_read_with_excel_columns() -> None:
    [entry] = read_cgp_file(BIG.encode(), "big.cgp").entries
    assert entry.diagnostics == ()
    last = entry.last_move
    assert last is not None and last.words == "COW at AA1 down"
    assert last.squares == frozenset({(0, 26), (1, 26), (2, 26)})
    across = BIG.replace("lm AA1 COW;", "lm 1Y ABC;")
    [entry] = read_cgp_file(across.encode(), "big.cgp").entries
    assert entry.last_move is not None and entry.last_move.words == "ABC at 1Y across"
    assert entry.last_move.squares == frozenset({(0, 24), (0, 25), (0, 26)})
    assert entry.position is not None and write_cgp(entry.position).endswith(" lm 1Y ABC;")


def test_a_last_move_past_the_last_column_runs_off_the_board() -> None:
    text = BIG.replace("lm AA1 COW;", "lm 1Z BCD;") + "\n" + \
        BIG.replace("lm AA1 COW;", "lm AB1 C;") + "\n"
    assert messages(text) == [
        "sizes.cgp:1: warning: opcode lm: '1Z BCD' runs off the 27x27 board",
        "sizes.cgp:2: warning: opcode lm: 'AB1 C' runs off the 27x27 board"]


# -- pgm check --json ----------------------------------------------------------------------

def test_check_json_names_the_plain_boards_and_writes_them_back(tmp_path) -> None:
    path = tmp_path / "sizes.cgp"
    path.write_text(f"# small\n{SMALL}\n# big\n{BIG}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--json", str(path)])
    assert result.exit_code == 0, result.output
    [report] = json.loads(result.stdout)
    assert report["diagnostics"] == []
    small, big = report["events"]
    assert (small["board"], big["board"]) == ("plain 11x11", "plain 27x27")
    assert (small["cgp"], big["cgp"]) == (SMALL, BIG)
    assert big["last_move"] == "AA1 COW" and big["racks"] == ["DEF", "GHI"]
    assert small["scores"] == [30, 12] and small["racks"] == ["AB?", "XYZ"]


def test_check_names_the_line_of_a_board_that_is_not_square(tmp_path) -> None:
    path = tmp_path / "bad.cgp"
    path.write_text(f"{SMALL}\n{'/'.join(['11'] * 12)} / 0/0 0\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert (f"{path}:2: error: board: 12 rows; expected 11, as many as each row has squares "
            "(a board is square)") in result.output


# -- The position pages --------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("sizes")
    body = (f"# An 11x11 puzzle\n{SMALL}\n# A 27x27 board\n{BIG}\n"
            f"# Plain by name\n{empty(15)} / 0/0 0 bdn plain 15x15;\n"
            f"{empty(15)} / 0/0 0\n")
    event = make_event(root / "ev", {"sizes.cgp": body.encode()})
    result = run_build(str(event), "-o", str(root / "site"), "--strict")
    assert result.exit_code == 0, result.output
    return root / "site/sizes"


def headers(html: str) -> tuple[list[str], list[str]]:
    """The board's column headers and row headers, in order."""
    table = html.split('<table class="board', 1)[1].split("</table>", 1)[0]
    return (re.findall(r'<th scope="col">([^<]*)</th>', table),
            re.findall(r'<th scope="row">([^<]*)</th>', table))


def test_the_11x11_page_shows_the_whole_plain_board(site) -> None:
    html = (site / "1.html").read_text(encoding="utf-8")
    columns, rows = headers(html)
    assert columns == list("ABCDEFGHIJK") and rows == [str(r) for r in range(1, 12)]
    squares = board_squares(html)
    assert len(squares) == 121
    assert squares["A1"] == "A1, empty" and squares["F6"] == "F6, I, 1 point, just played"
    assert squares["D6"] == "D6, Q, 10 points, just played"
    assert not any("centre" in label or "double" in label for label in squares.values())
    assert ' class="c"' not in html
    assert '<table class="board cw size-11">' in html and ".cw.size-11 { --cells: 11; }" in html
    text = text_of(html)
    assert "(a plain 11×11 board, without premium squares)" in text
    assert ("Board plain 11x11: no premium squares, as no known board is 11×11 (chosen by "
            "its size: the position does not name one)") in text
    assert "Last move: QUIET at 6D across" in text
    # 100 tiles less QUIET on the board and AB?XYZ on the racks (one blank of two).
    assert "Tiles not on the board or the racks: 89" in text


def test_the_27x27_page_has_columns_past_z_and_highlights_the_last_move(site) -> None:
    html = (site / "2.html").read_text(encoding="utf-8")
    columns, rows = headers(html)
    assert columns == [column_name(c) for c in range(27)] and columns[-2:] == ["Z", "AA"]
    assert rows == [str(r) for r in range(1, 28)]
    squares = board_squares(html)
    assert len(squares) == 729 and "AA27" in squares and "AB1" not in squares
    just = {name for name, label in squares.items() if label.endswith("just played")}
    assert just == {"AA1", "AA2", "AA3"}
    assert squares["Y1"] == "Y1, A, 1 point" and squares["Z27"] == "Z27, R, 1 point"
    assert squares["AA27"] == "AA27, empty"
    assert ".cw.size-27 { --cells: 27; }" in html
    text = text_of(html)
    assert "the last move, COW at AA1 down, is highlighted" in text
    assert "Player 1 to move" in text and "DEF" in text and "100 (+10)" in text
    assert "Tiles not on the board or the racks: 84" in text
    assert "AA1 COW;" in text


def test_a_plain_board_by_name_has_no_star_and_the_known_board_keeps_its_own(site) -> None:
    plain = board_squares((site / "3.html").read_text(encoding="utf-8"))
    known = board_squares((site / "4.html").read_text(encoding="utf-8"))
    assert plain["H8"] == "H8, empty" and plain["A1"] == "A1, empty"
    assert known["H8"] == "H8, empty, double word (centre)"
    assert known["A1"] == "A1, empty, triple word"
    overview = text_of((site / "index.html").read_text(encoding="utf-8"))
    assert "5 tiles on the board" in overview and "last move COW at AA1 down" in overview

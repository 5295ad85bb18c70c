"""UBF boards: the spec's example, each validation error at its line, round trips."""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import SHARED
from hypothesis import given, settings
from hypothesis import strategies as st

from pgm.check import check_file
from pgm.cli import main
from pgm.diagnostics import Diagnostic, Severity
from pgm.ubf import LETTERS, SIZE, Stack, UpwordsBoard, read_ubf, write_ubf

SPEC = (SHARED / "specs/upwords-ubf.md").read_text(encoding="utf-8")
EXAMPLE = SPEC.split("```")[-2].strip("\n") + "\n"
"""The spec's sample mid-game board, exactly as the spec writes it."""

EMPTY_ROW = "['0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']"


def board_text(*rows: str) -> str:
    """Ten rows: the given ones first, then empty rows, one per line, comma-separated."""
    lines = list(rows) + [EMPTY_ROW] * (SIZE - len(rows))
    return ",\n".join(lines) + "\n"


def errors(text: str) -> list[tuple[int, int | None, str]]:
    return [(d.line, d.column, d.message) for d in read_ubf(text, "b.ubf").diagnostics]


def test_the_spec_example_reads_with_its_heights() -> None:
    assert EXAMPLE.startswith("['0 ', '0 ',")
    result = read_ubf(EXAMPLE.encode(), "example.ubf")
    assert result.diagnostics == ()
    board = result.board
    assert board.at(1, 1) == Stack("M", 1)
    assert board.at(2, 2) == Stack("H", 3)
    assert board.at(3, 4) == Stack("F", 5)
    assert board.at(5, 3) == Stack("U", 5)
    assert board.at(8, 8) == Stack("M", 2)
    assert board.at(0, 0) is None and board.at(9, 9) is None
    assert sum(1 for s in board.squares if s) == 30
    assert max(s.height for s in board.squares if s) == 5


def test_json_form_with_double_quotes_and_outer_brackets() -> None:
    board = read_ubf(EXAMPLE).board
    rows = [[f"{s.height}{s.letter}" if s else "0 " for s in row] for row in board.rows()]
    assert read_ubf(json.dumps(rows)) == read_ubf(EXAMPLE)
    assert read_ubf(json.dumps(rows, indent=2).encode()).board == board
    assert read_ubf("[\n" + EXAMPLE + "]\n").board == board


def test_writer_writes_the_spec_form_and_reads_back() -> None:
    board = read_ubf(EXAMPLE).board
    assert write_ubf(board) == EXAMPLE
    assert read_ubf(write_ubf(board, as_json=True)).board == board
    assert json.loads(write_ubf(board, as_json=True))[3][4] == "5F"
    assert write_ubf(UpwordsBoard()) == board_text()


def test_crlf_and_bom_are_read() -> None:
    data = b"\xef\xbb\xbf" + EXAMPLE.replace("\n", "\r\n").encode()
    assert read_ubf(data) == read_ubf(EXAMPLE)


def test_height_zero_with_a_letter_is_an_error_at_its_square() -> None:
    text = board_text(EMPTY_ROW, "['0 ', '0A', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']")
    assert errors(text) == [(2, 8, "square '0A': a square with a letter has height 1-5, not 0")]


def test_empty_square_with_a_height_is_an_error() -> None:
    text = board_text(EMPTY_ROW, EMPTY_ROW, "['0 ', '0 ', '2 ', '0 ', '0 ', '0 ', '0 ', '0 ', "
                                            "'0 ', '0 ']")
    assert errors(text) == [(3, 14, "square '2 ': an empty square has height 0, not 2")]


def test_stack_over_five_is_an_error() -> None:
    text = board_text("['6A', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']")
    assert errors(text) == [(1, 2, "square '6A': height 6 is over the stacking limit of 5")]


def test_letters_must_be_a_to_z_and_qu_is_q() -> None:
    text = board_text("['1Q', '1Qu', '1é', '1?', 'x1', '1', '0 ', '0 ', '0 ', '0 ']")
    assert errors(text) == [
        (1, 8, "square '1Qu': the Qu tile is written Q, e.g. '1Q'"),
        (1, 15, "square '1é': expected a letter A-Z (Q for Qu) or a space, found 'é'"),
        (1, 21, "square '1?': expected a letter A-Z (Q for Qu) or a space, found '?'"),
        (1, 27, "square 'x1': expected a height digit 0-5 first, found 'x'"),
        (1, 33, "square '1': expected two characters, a height digit and a letter (or a "
                "space when empty), e.g. '2A' or '0 '"),
    ]
    assert read_ubf(text).board.at(0, 0) == Stack("Q", 1)


def test_a_mistake_on_every_square_is_told_once_with_how_many_more() -> None:
    """Empty squares written '0.' are one mistake, not 95: the first square's error says
    how many more have it; a different mistake is told on its own."""
    dots = "[" + ", ".join(["'0.'"] * SIZE) + "]"
    row_5 = "['0.', '0.', '0.', '1W', '1A', '2V', '1E', '1R', '0.', '0X']"
    text = board_text(*([dots] * 4 + [row_5] + [dots] * 5))
    assert errors(text) == [
        (1, 2, "square '0.': expected a letter A-Z (Q for Qu) or a space, found '.' (an "
               "empty square is written '0 ', a space after the 0); so are 93 more "
               "squares, down to line 10"),
        (5, 56, "square '0X': a square with a letter has height 1-5, not 0"),
    ]
    assert read_ubf(text).board.at(4, 5) == Stack("V", 2)
    two = board_text("['0.', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']",
                     "['0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0.']")
    assert errors(two) == [
        (1, 2, "square '0.': expected a letter A-Z (Q for Qu) or a space, found '.' (an "
               "empty square is written '0 ', a space after the 0); so is one more square, "
               "on line 2")]


def test_lower_case_letter_is_a_warning_and_read_upper_case() -> None:
    result = read_ubf(board_text("['2e', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']"))
    assert [(d.line, d.severity) for d in result.diagnostics] == [(1, Severity.WARNING)]
    assert result.board.at(0, 0) == Stack("E", 2)


def test_short_and_long_rows_are_errors_at_their_line() -> None:
    short = "['0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']"
    long = "['0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '1A']"
    assert errors(board_text(EMPTY_ROW, short, long)) == [
        (2, 1, "row 2 has 9 squares; expected 10"),
        (3, 62, "row 3 has more than 10 squares"),
    ]


def test_wrong_number_of_rows() -> None:
    nine = ",\n".join([EMPTY_ROW] * 9) + "\n"
    assert errors(nine) == [(9, None, "the board has 9 rows; expected 10")]
    eleven = ",\n".join([EMPTY_ROW] * 11) + "\n"
    assert errors(eleven) == [(11, 1, "more than 10 rows: expected the board to end after "
                                      "row 10")]


def test_syntax_errors_name_what_was_expected() -> None:
    missing_comma = board_text("['0 ' '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']")
    assert errors(missing_comma) == [(1, 7, "expected ',' between squares, found the square "
                                            "'0 '")]
    unclosed = board_text("['0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ")
    assert errors(unclosed) == [
        (1, 1, "row 1 has 9 squares; expected 10"),
        (1, 56, "unclosed ' quote: expected a square such as '2A' closed on the same line"),
        (2, 1, "expected ']' to close row 1, found '['")]
    junk = board_text(EMPTY_ROW + " # the top row")
    assert errors(junk) == [(1, 62, "expected a quoted square such as '2A', '[', ']' or ',', "
                                    "found '#'"),
                            (1, 64, "expected a quoted square such as '2A', '[', ']' or ',', "
                                    "found 'the'"),
                            (1, 68, "expected a quoted square such as '2A', '[', ']' or ',', "
                                    "found 'top'"),
                            (1, 72, "expected a quoted square such as '2A', '[', ']' or ',', "
                                    "found 'row'")]
    assert errors("") == [(1, 1, "empty file: expected 10 rows of 10 squares such as "
                                 "['0 ', '1A', ...]")]
    assert errors("[" + board_text()) == [(11, 1, "expected ']' to close the board")]
    assert errors(board_text() + board_text())[-1][2].startswith("more than 10 rows")


def test_check_reports_the_board_as_json(tmp_path) -> None:
    path = tmp_path / "mid.ubf"
    path.write_text(EXAMPLE, encoding="utf-8")
    report, diagnostics = check_file(path)
    assert diagnostics == []
    assert set(report) == {"path", "game", "players", "diagnostics", "events", "board"}
    assert report["game"] == "upwords-board" and report["players"] == report["events"] == []
    assert len(report["board"]) == 10 and all(len(row) == 10 for row in report["board"])
    assert report["board"][3][4] == {"letter": "F", "height": 5}
    assert report["board"][0][0] is None


def test_check_command_prints_ubf_problems(tmp_path) -> None:
    path = tmp_path / "bad.ubf"
    path.write_text(board_text("['0B', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']"))
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert result.stdout == (f"{path}:1:2: error: square '0B': a square with a letter has "
                             "height 1-5, not 0\n")
    [report] = json.loads(CliRunner().invoke(main, ["check", "--json", str(path)]).output)
    assert report["diagnostics"] == [{"line": 1, "column": 2, "severity": "error",
                                      "message": "square '0B': a square with a letter has "
                                                 "height 1-5, not 0"}]


stacks = st.one_of(st.none(), st.builds(Stack, st.sampled_from(sorted(LETTERS)),
                                        st.integers(1, 5)))


@settings(max_examples=200, deadline=None)
@given(st.lists(stacks, min_size=100, max_size=100), st.booleans())
def test_any_board_round_trips(squares: list[Stack | None], as_json: bool) -> None:
    board = UpwordsBoard(tuple(squares))
    result = read_ubf(write_ubf(board, as_json=as_json))
    assert result.diagnostics == () and result.board == board


UBF_PIECES = st.sampled_from(["[", "]", ",", " ", "\n", "\r", "'", '"', "'0 '", "'1A'", "'5Z'",
                              "'6Q'", "'0A'", "'2 '", "'1a'", "\"3M\"", EMPTY_ROW, "x", "é"])


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), st.lists(UBF_PIECES, max_size=80).map("".join)))
def test_reader_never_raises_on_any_text(text: str) -> None:
    result = read_ubf(text, "fuzz.ubf")
    assert len(result.board.squares) == SIZE * SIZE
    for diagnostic in result.diagnostics:
        assert isinstance(diagnostic, Diagnostic) and diagnostic.line >= 1 and diagnostic.message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_reader_never_raises_on_any_bytes(data: bytes) -> None:
    read_ubf(data, "fuzz.ubf")

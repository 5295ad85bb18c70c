"""The .gn reader: header tags, comments, numbering, the nine move forms, encodings, and
line/column diagnostics for broken input (VALIDATION.md A1-A2)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pgm import gn, gungi
from pgm.diagnostics import Severity
from pgm.gn import CommentKind, Marker, Result
from pgm.gn_moves import Move, MoveKind, Spot


def shared_dir() -> Path:
    """/work/shared, next to the repository (the research corpus and specs live there)."""
    return Path(__file__).resolve().parents[1].parent / "shared"


CORPUS = shared_dir() / "corpus" / "gn"
CORPUS_FILES = sorted(CORPUS.glob("*.gn"))


def parse(text: str) -> gn.GnRecord:
    return gn.parse(text.encode("utf-8"), "t.gn")


def problems(record: gn.GnRecord | gungi.GungiReplay) -> list[tuple[int, int | None, str]]:
    """(line, column, severity) of every diagnostic, for compact assertions."""
    return [(d.line, d.column, d.severity.value) for d in record.diagnostics]


# -- header ----------------------------------------------------------------------------------

FULL_HEADER = """\
[Event "Selection"]
[Date "2013.10.30"]
[Location "NGL, Mitene Union"]
[White "Komugi"]
[Black "Meruem"]
[Result "1 - 0"]
1. PZ*0-8-0 PZ*0-0-0
"""


def test_each_header_tag_is_read() -> None:
    record = parse(FULL_HEADER)
    assert record.diagnostics == ()
    assert record.value("Event") == "Selection"
    assert record.value("Date") == "2013.10.30"
    assert record.value("Location") == "NGL, Mitene Union"
    assert record.value("White") == "Komugi"
    assert record.value("Black") == "Meruem"
    assert record.result is Result.WHITE_WON
    assert [(t.name, t.line, t.column) for t in record.tags][:2] == [
        ("Event", 1, 1),
        ("Date", 2, 1),
    ]


@pytest.mark.parametrize(
    ("value", "result"),
    [("1 - 0", Result.WHITE_WON), ("0 - 1", Result.BLACK_WON), ("1/2 - 1/2", Result.DRAW),
     ("*", Result.UNFINISHED)],
)  # fmt: skip
def test_result_values(value: str, result: Result) -> None:
    record = parse(f'[Result "{value}"]\n')
    assert record.result is result
    assert record.diagnostics == ()


def test_tag_names_are_case_insensitive_and_empty_values_unset() -> None:
    record = parse('[event "E"]\n[WHITE "W"]\n[Date ""]\n')
    assert record.value("Event") == "E"
    assert record.value("White") == "W"
    assert record.value("Date") is None
    assert record.diagnostics == ()


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ('[Opening "x"]', 1, "unknown header tag [Opening]"),
        ('[Event"x"]', 1, "a space must separate the tag name from its value"),
        ('[Event "x]', 1, "has no closing"),
        ('[Event "x" junk]', 1, "must end with ']'"),
        ("[Event x]", 1, "must be in double quotes"),
        ('[ "x"]', 1, "has no name"),
        ('[Date "2016.09.32"]', 8, 'Date "2016.09.32" is not a date'),
        ('[Date "2016.13.01"]', 8, "is not a date"),
        ('[Result "1:0"]', 10, 'Result "1:0" is not one of'),
    ],
)
def test_bad_header_lines_are_errors_at_their_column(text: str, column: int, message: str) -> None:
    record = parse(f'[Event "ok"]\n{text}\n1. PZ*0-8-0\n')
    assert len(record.diagnostics) == 1
    diagnostic = record.diagnostics[0]
    assert (diagnostic.line, diagnostic.column, diagnostic.severity) == (2, column, Severity.ERROR)
    assert message in diagnostic.message
    assert len(record.plies) == record.playable == 1  # header problems do not stop the replay


@pytest.mark.parametrize(("typed", "result"), [
    ("1-0", Result.WHITE_WON), ("0 \u2013 1", Result.BLACK_WON), ("1/2-1/2", Result.DRAW),
    ("\u00bd - \u00bd", Result.DRAW)])
def test_a_result_typed_as_pgn_writes_it_is_read_with_a_warning(typed: str,
                                                                result: Result) -> None:
    record = parse(f'[Result "{typed}"]\n1. PZ*0-8-0\n')
    assert record.result is result
    assert [(d.line, d.column, d.severity, d.message) for d in record.diagnostics] == [
        (1, 10, Severity.WARNING, f'Result "{typed}" is read as "{result.value}", as GN '
                                  'writes it')]


def test_duplicate_tag_warns_and_later_value_wins() -> None:
    record = parse('[White "A"]\n[White "B"]\n')
    assert record.value("White") == "B"
    assert problems(record) == [(2, 1, "warning")]


def test_tag_after_movetext_is_an_error_and_stops_replay_there() -> None:
    record = parse('1. PZ*0-8-0 PZ*0-0-0\n[Event "late"]\n2. PZ*1-8-0\n')
    assert problems(record) == [(2, 1, "error")]
    assert record.value("Event") is None
    assert record.playable == 2


# -- comments --------------------------------------------------------------------------------

COMMENTED = """\
# first line comment
[Event "E"] (after a tag)
1. PZ*0-8-0 (inline, black is dropping
into column 0) PZ*0-0-0 # trailing
# between groups
2. PZ*8-8-0
"""


def test_comments_of_both_kinds_keep_text_position_and_ply_count() -> None:
    record = parse(COMMENTED)
    assert record.diagnostics == ()
    got = [(c.kind, c.text, c.line, c.column, c.after_plies) for c in record.comments]
    assert got == [
        (CommentKind.LINE, "first line comment", 1, 1, 0),
        (CommentKind.INLINE, "after a tag", 2, 13, 0),
        (CommentKind.INLINE, "inline, black is dropping\ninto column 0", 3, 13, 1),
        (CommentKind.LINE, "trailing", 4, 25, 2),
        (CommentKind.LINE, "between groups", 5, 1, 2),
    ]
    assert [p.notation for p in record.plies] == ["PZ*0-8-0", "PZ*0-0-0", "PZ*8-8-0"]
    assert (record.plies[1].line, record.plies[1].column) == (4, 16)
    assert [c.text for c in record.comments_after(2)] == ["trailing", "between groups"]


def test_comment_between_number_and_first_ply_is_an_error_but_replay_continues() -> None:
    record = parse("1. (no) PZ*0-8-0 PZ*0-0-0\n")
    assert problems(record) == [(1, 4, "error")]
    assert record.diagnostics[0].message == (
        "comment between move number 1 and its first ply, where GN readers refuse it: move "
        "it before the number or after the ply")
    assert record.playable == 2


def test_unterminated_comment_is_an_error_at_its_opening() -> None:
    record = parse("1. PZ*0-8-0 PZ*0-0-0\n2. PZ*1-8-0 (never\nclosed PZ*1-0-0\n")
    assert problems(record) == [(2, 13, "error")]
    assert "never closed" in record.diagnostics[0].message
    assert len(record.plies) == 3
    assert record.comments[-1].text == "never\nclosed PZ*1-0-0"


def test_comments_do_not_nest() -> None:
    record = parse("1. PZ*0-8-0 (a (b) c) PZ*0-0-0\n")
    assert record.comments[0].text == "a (b"
    assert problems(record) == [(1, 21, "error")]
    assert "comments do not nest" in record.diagnostics[0].message
    assert record.playable == 1


def test_commented_out_move_is_only_a_comment() -> None:
    record = parse("1. PZ*0-8-0 (PZ*0-0-0)\n")
    assert [p.notation for p in record.plies] == ["PZ*0-8-0"]
    assert record.comments[0].text == "PZ*0-0-0"


# -- numbering -------------------------------------------------------------------------------


def test_groups_with_black_and_white_first_and_single_plies() -> None:
    record = parse("1. PZ*0-8-0\n2... PZ*0-0-0 PZ*1-8-0\n3... PZ*1-0-0\n")
    assert record.diagnostics == ()
    got = [(p.group, p.opens) for p in record.plies]
    assert got == [
        (1, Marker.BLACK_FIRST),
        (2, Marker.WHITE_FIRST),
        (2, None),
        (3, Marker.WHITE_FIRST),
    ]


@pytest.mark.parametrize(
    ("text", "column", "message", "playable"),
    [
        ("1. PZ*0-8-0 PZ*0-0-0 3. PZ*1-8-0", 22, "move number 3 should be 2", 2),
        ("1. PZ*0-8-0 PZ*0-0-0 PZ*1-8-0", 22, "already holds two plies", 2),
        ("PZ*0-8-0", 1, "has no move number", 0),
        ("1. PZ*0-8-0 2.", 13, "move number 2 is not followed by a ply", 1),
        ("1.. PZ*0-8-0", 2, "expected '.' (Black first) or '...' (White first)", 0),
        ("1.PZ*0-8-0", 3, "a space must follow the move number", 0),
        ("1. 2. PZ*0-8-0", 1, "move number 1 is not followed by a ply", 0),
        ("99999999999. PZ*0-8-0", 1, "move number 99999999999 should be 1", 0),
    ],
)
def test_numbering_errors(text: str, column: int, message: str, playable: int) -> None:
    record = parse(text)
    assert record.diagnostics[0].line == 1
    assert record.diagnostics[0].column == column
    assert message in record.diagnostics[0].message
    assert record.playable == playable


@pytest.mark.parametrize(("token", "tag"), [("1-0", "1 - 0"), ("0-1", "0 - 1"),
                                            ("1/2-1/2", "1/2 - 1/2"), ("*", "*")])
def test_a_result_after_the_last_move_is_one_error_naming_the_tag(token: str, tag: str) -> None:
    """PGN writes the result after the moves; GN keeps it in the header. One error says
    so, and the moves before it still count; a warning only when the tag says the same."""
    record = parse(f"1. PZ*0-6-0 PZ*0-1-0 2. PZ*1-6-0 PZ*1-1-0 {token}\n")
    assert [(d.line, d.column, d.message) for d in record.diagnostics] == [
        (1, 43, f"{token!r} is not a move: a game's result goes in its [Result] tag, "
                f'e.g. [Result "{tag}"]')]
    assert record.playable == 4 and record.cut_line is None
    stated = parse(f'[Result "{tag}"]\n1. PZ*0-6-0 PZ*0-1-0 {token}\n')
    assert [(d.line, d.severity, d.message) for d in stated.diagnostics] == [
        (2, Severity.WARNING, f"{token!r} after the moves repeats the [Result] tag; GN keeps "
                              "the result there only")]
    other = parse(f'[Result "1/2 - 1/2"]\n1. PZ*0-6-0 PZ*0-1-0 {token}\n')
    expected = Severity.WARNING if tag == "1/2 - 1/2" else Severity.ERROR
    assert [d.severity for d in other.diagnostics] == [expected]


# -- move forms ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "move"),
    [
        ("PZ<4-6-0>4-5-0", Move(MoveKind.MOVE, "PZ", Spot(4, 5, 0), Spot(4, 6, 0))),
        ("PZ*0-6-0", Move(MoveKind.DROP, "PZ", Spot(0, 6, 0))),
        ("YN<6-4-0x5-2-1", Move(MoveKind.MOBILE_STRIKE, "YN", Spot(5, 2, 1), Spot(6, 4, 0))),
        ("YN<5-2-1x0", Move(MoveKind.IMMOBILE_STRIKE, "YN", Spot(5, 2, 0), Spot(5, 2, 1))),
        ("YN+5-7-0", Move(MoveKind.RECOVER_SELF, "YN", Spot(5, 7, 0))),
        ("YN^4-0-0", Move(MoveKind.RECOVER_OPPONENT, "YN", Spot(4, 0, 0))),
        ("YN=6-8-0", Move(MoveKind.NO_RECOVERY, "YN", Spot(6, 8, 0))),
        ("SE<3-0-0&4-0-0", Move(MoveKind.SUBSTITUTION, "SE", Spot(4, 0, 0), Spot(3, 0, 0))),
        ("CI<7-0-0&2", Move(MoveKind.TIER_EXCHANGE, "CI", Spot(7, 0, 2), Spot(7, 0, 0))),
        ("o-*4-8-0", Move(MoveKind.DROP, "O-", Spot(4, 8, 0))),
    ],
)
def test_each_move_form(token: str, move: Move) -> None:
    record = parse(f"1. {token}\n")
    assert record.diagnostics == ()
    assert record.plies[0].move == move
    assert record.plies[0].notation == token
    assert (record.plies[0].line, record.plies[0].column) == (1, 4)


@pytest.mark.parametrize(
    ("token", "column", "message"),
    [
        ("QZ*0-6-0", 4, "unknown unit code 'QZ'"),
        ("P-*0-6-0", 4, "only the Commander (O-) has no back side"),
        ("SN*0-6-0", 4, "unknown unit code 'SN': a code is the side shown, then the side on "
                        "its back (YN: Spy, back Clandestinite; SE: Samurai, back Pike)"),
        ("PZ*0-6-3", 11, "tier 3 is out of range 0-2 (a tower holds at most 3 units)"),
        ("PZ*9-6-0", 7, "column 9 is out of range 0-8"),
        ("PZ<4-6-0>4-10-0", 15, "row 10 is out of range 0-8"),
        ("YN<5-2-1x3", 13, "tier 3 is out of range"),
        ("PZ>4-6-0", 4, "cannot read 'PZ>4-6-0' as a ply"),
        ("PZ*0-6-0)", 12, "')' without an open comment"),
    ],
)
def test_broken_tokens_report_line_and_column(token: str, column: int, message: str) -> None:
    record = parse(f'[Event "x"]\n1. {token} PZ*0-0-0\n')
    assert problems(record)[0] == (2, column, "error")
    assert message in record.diagnostics[0].message
    assert record.playable == 0


# -- encodings and line ends -----------------------------------------------------------------


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_line_endings(newline: str) -> None:
    text = '[Event "E"]\n# c\n1. PZ*0-8-0\n(x\ny) PZ*0-0-0\n2. QQ*1-1-0\n'.replace("\n", newline)
    record = gn.parse(text.encode(), "t.gn")
    assert [(p.line, p.column) for p in record.plies] == [(3, 4), (5, 4)]
    assert record.comments[1].text == "x\ny"
    assert problems(record) == [(6, 4, "error")]


def test_utf8_bom_is_dropped() -> None:
    record = gn.parse(b"\xef\xbb\xbf" + '[White "Zoë"]\n'.encode(), "t.gn")
    assert record.value("White") == "Zoë"
    assert record.diagnostics == ()


def test_latin1_falls_back_with_a_warning_on_the_bad_line() -> None:
    record = gn.parse('[Event "E"]\n[White "Zoë"]\n'.encode("latin-1"), "t.gn")
    assert record.value("White") == "Zoë"
    assert problems(record) == [(2, None, "warning")]
    assert "ISO-8859-1" in record.diagnostics[0].message


def test_text_input_and_empty_file() -> None:
    assert gn.parse("\ufeff1. PZ*0-8-0", "t.gn").plies[0].notation == "PZ*0-8-0"
    empty = gn.parse(b"", "t.gn")
    assert (empty.plies, empty.diagnostics, empty.tags) == ((), (), ())


# -- broken records through the whole pipeline: never a crash, always line + column ---------

ARRANGED = "1. PZ*0-6-0 PZ*0-2-0\n2. PZ*1-6-0 PZ*1-2-0\n"


@pytest.mark.parametrize(
    ("movetext", "line", "column", "message"),
    [
        ("3. PZ*2-6-1 PZ*2-2-0", 3, 4, "tier mismatch: 2-6 holds 0 unit(s)"),
        ("3. PZ*2-6-0 PZ*2-2-0\n4... PZ*3-2-0", 4, 6, "4... means White plays first"),
        ("3. YN*2-6-0 PZ*2-2-0\n4. QZ*3-6-0", 4, 4, "unknown unit code 'QZ'"),
        ("3. CI*2-6-0 CI*2-6-0", 3, 13, "only in its own territory (rows 0-2)"),
        ("3. PG*1-7-0", 3, 4, "Black already has a Pawn in file 1"),
        (
            "3. RX*0-6-1 RX*0-2-1\n4. HK*0-6-2 HK*0-2-2\n5. SE*0-6-3",
            5,
            11,
            "tier 3 is out of range",
        ),
        ("3. RX*0-6-1 RX*0-2-1\n4. HK*0-6-2 HK*0-2-2\n5. SE*0-6-2", 5, 4, "already holds 3 units"),
        ("3. PZ<0-6-0>0-5-0", 3, 4, "only drops are allowed"),
    ],
)
def test_broken_records_report_errors_at_the_ply(
    movetext: str, line: int, column: int, message: str
) -> None:
    game = gungi.load(ARRANGED + movetext, "t.gn")
    errors = [d for d in game.diagnostics if d.severity is Severity.ERROR]
    assert [(d.line, d.column) for d in errors] == [(line, column)]
    assert message in errors[0].message
    earlier = [p for p in game.record.plies if (p.line, p.column) < (line, column)]
    assert len(game.positions) == len(earlier)  # every position before the error is kept
    assert game.final.towers[9 * 6 + 1] != ()


def test_pathological_input_reports_a_bounded_number_of_problems() -> None:
    deep = "1. PZ*0-6-0 " + "(" * 10_000 + ")" * 10_000
    long_line = "1. " + "PZ*0-6-0 " * 11_200  # > 100,000 characters on one line
    garbage = "x " * 60_000
    tags = '[Event ""] ' * 10_000 + "1. PZ*0-6-0 " + '[Date "x"] ' * 10_000
    results = "1. PZ*0-6-0 " + "1-0 " * 1_000
    for text in (deep, long_line, garbage, tags, results, "(" * 100_000, ")" * 100_000,
                 "[" * 100_000):
        game = gungi.load(text, "t.gn")
        assert 1 <= len(game.record.diagnostics) <= gn.MAX_DIAGNOSTICS
    assert "not reported" in gungi.load(results, "t.gn").diagnostics[-1].message
    first, rest = gungi.load(garbage, "t.gn").diagnostics
    assert (first.line, first.column) == (1, 1)
    assert (rest.line, rest.column) == (1, 3) and rest.message.startswith(
        "59,999 more problems from here to line 1, after the one at line 1 where the replay "
        "stops; fix that one first")


def test_a_ply_split_over_two_lines_is_one_error_and_its_echoes_one_more() -> None:
    game = gungi.load(ARRANGED + "3. PZ<4-6-0>\n4-5-0 PZ<4-2-0>4-3-0\n", "t.gn")
    assert [(d.line, d.message[:40]) for d in game.diagnostics] == [
        (3, "cannot read 'PZ<4-6-0>' as a ply; the fo"),
        (4, "3 more problems from here to line 4, aft")]
    assert len(game.positions) == 4


# -- the corpus ------------------------------------------------------------------------------

_COUNTS = re.compile(
    r"Plies: (\d+) in (\d+) numbered groups; comments: (\d+) \((\d+) `#`, (\d+) inline\)"
)
_HEADER = re.compile(r"(\w+)='([^']*)'")


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
def test_corpus_records_read_cleanly_with_stated_counts_and_header(path: Path) -> None:
    expected = path.with_name(path.stem + ".expected.md").read_text("utf-8")
    record = gn.parse(path.read_bytes(), path.name)
    assert record.diagnostics == ()
    counts = _COUNTS.search(expected)
    assert counts is not None
    plies, groups, comments, hashes, inline = map(int, counts.groups())
    assert len(record.plies) == record.playable == plies
    assert len({p.group for p in record.plies}) == groups
    kinds = [c.kind for c in record.comments]
    assert (len(kinds), kinds.count(CommentKind.LINE), kinds.count(CommentKind.INLINE)) == (
        comments, hashes, inline,
    )  # fmt: skip
    header_line = next(line for line in expected.splitlines() if line.startswith("- Header:"))
    for name, value in _HEADER.findall(header_line):
        assert record.value(name) == value


def test_a_latin1_byte_is_a_warning_naming_it_and_what_to_do() -> None:
    """As for a GCG record: the byte, what it is read as, and how to fix the file."""
    record = gn.parse('[Event "Coupe d\'été"]\n1. PZ*0-6-0\n'.encode("latin-1"), "t.gn")
    assert [(d.line, d.severity, d.message) for d in record.diagnostics] == [
        (1, Severity.WARNING, "byte 0xE9 is not UTF-8: the file is read as ISO-8859-1, "
                              "where it is 'é'; save the file as UTF-8 in the editor to fix it")]
    assert record.value("Event") == "Coupe d'été"

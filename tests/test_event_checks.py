"""Checks across an event's games: copies of a record a TD's folder gathers, and a
player's name spelled two ways."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import copy_warning, make_event, run_build

from pgm.cli import main

DOUG_V_EMELY = (CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes()
"""doug beats emely 460–345."""
OTHER = (CORPUS / "gcg/MAGPIE-DATA__success.gcg").read_bytes()


def test_a_copy_of_a_record_is_warned_of_at_the_copy(tmp_path) -> None:
    """A file manager's copy replays cleanly and would count doug's win twice: the build
    names the copy and the record it repeats, and --strict fails on it."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Spring Open\n",
        "round-1/table-1.gcg": DOUG_V_EMELY,
        "round-1/table-1 (1).gcg": DOUG_V_EMELY,
        "round-2/table-1.gcg": OTHER,
    })
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    copy, original = event / "round-1/table-1 (1).gcg", event / "round-1/table-1.gcg"
    assert copy_warning(copy, original) in result.output
    assert "1 warning(s)" in result.output
    strict = run_build(str(event), "-o", str(tmp_path / "site"), "--strict")
    assert strict.exit_code == 1
    # pgm check of the event, as a director runs it before the build or in CI, says so too
    checked = CliRunner().invoke(main, ["check", str(event)])
    assert checked.stdout.splitlines() == [line for line in result.output.splitlines()
                                           if ": warning: " in line]
    assert checked.stderr == "Checked 3 records: 0 error(s), 1 warning(s).\n"
    reports = json.loads(CliRunner().invoke(main, ["check", "--json", str(event)]).stdout)
    assert [(report["path"], [d["message"][:17] for d in report["diagnostics"]])
            for report in reports] == [(str(copy), ["the same game as "]), (str(original), []),
                                       (str(event / "round-2/table-1.gcg"), [])]
    alone = CliRunner().invoke(main, ["check", str(copy)])  # nothing to compare it with
    assert (alone.exit_code, alone.stdout) == (0, "")


def transposed(record: bytes) -> bytes:
    """The record played on the board turned about its diagonal: each play's row and
    column swap, and across becomes down (8D -> H4, D8 -> 4H); the premium squares lie
    alike, so every score stays."""
    def turn(match: re.Match[bytes]) -> bytes:
        if match["row"]:  # across (row, column) -> down (the column named by the row)
            return b" %c%d " % (64 + int(match["row"]), match["col"][0] - 64)
        return b" %d%c " % (match["col2"][0] - 64, 64 + int(match["row2"]))
    return re.sub(rb" (?:(?P<row>\d+)(?P<col>[A-O])|(?P<col2>[A-O])(?P<row2>\d+)) ", turn,
                  record)


def builds_clean(tmp_path, files: dict[str, str | bytes]) -> None:
    """The event of ``files`` builds with --strict: no repeat is warned of."""
    event = make_event(tmp_path / "ev", {"event.yaml": "title: Spring Open\n", **files})
    result = run_build(str(event), "-o", str(tmp_path / "site"), "--strict")
    assert result.exit_code == 0, result.output


def test_a_copy_made_a_draft_is_no_longer_warned_of(tmp_path) -> None:
    builds_clean(tmp_path, {
        "event.yaml": 'title: Spring Open\ngames:\n  "round-1/old/*.gcg": {draft: true}\n',
        "round-1/table-1.gcg": DOUG_V_EMELY,
        "round-1/old/table-1.gcg": DOUG_V_EMELY,
    })


def test_games_not_started_are_not_copies(tmp_path) -> None:
    """Before round 1 every record holds the players only: alike, and not copies."""
    header = b"#player1 doug doug\n#player2 emely emely\n"
    builds_clean(tmp_path, {"round-1/table-1.gcg": header, "round-2/table-1.gcg": header})


def test_two_gungi_games_of_one_pair_are_not_copies(tmp_path) -> None:
    """Two games of the same players, as long and both in progress, are two games (a
    match of several), not a copy, nor are two that open alike on different dates; a
    copy of one is."""
    tags = '[Black "Ann"]\n[White "Bob"]\n[Result "*"]\n'
    builds_clean(tmp_path, {"round-1/game-1.gn": tags + "1. PZ*0-6-0 PZ*0-1-0\n",
                            "round-1/game-2.gn": tags + "1. PZ*4-6-0 PZ*4-1-0\n"})
    builds_clean(tmp_path / "dated", {
        "game-1.gn": '[Date "2026.11.21"]\n' + tags + "1. PZ*0-6-0 PZ*0-1-0\n",
        "game-2.gn": '[Date "2026.11.22"]\n' + tags + "1. PZ*0-6-0 PZ*0-1-0\n"})
    copied = make_event(tmp_path / "copied", {"game-1.gn": tags + "1. PZ*0-6-0 PZ*0-1-0\n",
                                              "game-1 (1).gn": tags + "1. PZ*0-6-0 PZ*0-1-0\n"})
    result = run_build(str(copied), "-o", str(tmp_path / "copied-site"))
    assert "game-1 (1).gn:1: warning: the same game as" in result.output


def test_a_game_on_a_turned_board_is_not_a_copy(tmp_path) -> None:
    """The same players, turns and scores, but other moves: another game (the board
    turned, as pgm's benchmark makes its games)."""
    turned = transposed(DOUG_V_EMELY)
    builds_clean(tmp_path, {"round-1/table-1.gcg": DOUG_V_EMELY,
                            "round-2/table-1.gcg": turned})


def test_a_name_spelled_two_ways_in_a_division_is_warned_of_at_the_rarer_spelling(
        tmp_path) -> None:
    """'doug' in two records and 'Doug' in a third were two players on the player index,
    each with part of doug's record; a spelling in another division is another list."""
    spelled = DOUG_V_EMELY.replace(b"#player1 doug doug", b"#player1 doug Doug")
    assert spelled != DOUG_V_EMELY
    accented = OTHER.replace(b"#player1 Tim Tim Weiss", b"#player1 Tim T\xc3\xadm  WEISS")
    assert accented != OTHER
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Spring Open\n",
        "a/round-1/table-1.gcg": DOUG_V_EMELY,
        "a/round-2/table-1.gcg": (CORPUS / "gcg/liwords__doug_vs_emely.gcg").read_bytes(),
        "a/round-3/table-1.gcg": spelled,
        "a/round-4/table-1.gcg": OTHER,
        "a/round-5/table-1.gcg": accented,
        "b/round-1/table-1.gcg": spelled,
    })
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    warned = re.findall(r"^(.*):1: warning: player (.*)$", result.output, re.MULTILINE)
    assert warned == [
        (str(event / "a/round-3/table-1.gcg"),
         f"'Doug' is spelled 'doug' in {event / 'a/round-1/table-1.gcg'}: listed as "
         "another player on the player index; spell the name alike in every record"),
        (str(event / "a/round-5/table-1.gcg"),
         f"'Tím WEISS' is spelled 'Tim Weiss' in {event / 'a/round-4/table-1.gcg'}: listed "
         "as another player on the player index; spell the name alike in every record")]
    players = (tmp_path / "site/players.html").read_text(encoding="utf-8")
    assert players.count(">Doug</th>") == 2 and players.count(">doug</th>") == 1
    checked = CliRunner().invoke(main, ["check", str(event / "a"), str(event / "b")])
    assert re.findall(r"^(.*):1: warning: player (.*)$", checked.stdout, re.MULTILINE) == warned


def test_check_compares_the_records_of_an_event_only(tmp_path) -> None:
    """Named among an event's records, a file pgm does not read is reported as such (it
    made the comparison fail); a draft copy is left out, as the build leaves it out;
    files in no event are unrelated files, not an event's copies."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Spring Open\ngames:\n  r1/b.gcg:\n    draft: true\n",
        "r1/a.gcg": DOUG_V_EMELY, "r1/b.gcg": DOUG_V_EMELY, "r1/c.gcg": OTHER,
        "README.md": "# Spring Open\n"})
    checked = CliRunner().invoke(main, ["check", str(event / "README.md"), str(event / "r1")])
    assert checked.exit_code == 1
    assert checked.stdout == (f"{event / 'README.md'}: error: unknown record type "
                              "(expected .cgp, .gcg, .gn, .ubf)\n")
    assert checked.stderr == "Checked 3 records: 1 error(s), 0 warning(s).\n"
    loose = make_event(tmp_path, {"x/g.gcg": DOUG_V_EMELY, "y/g.gcg": DOUG_V_EMELY})
    apart = CliRunner().invoke(main, ["check", str(loose / "x/g.gcg"), str(loose / "y/g.gcg")])
    assert (apart.exit_code, apart.stdout) == (0, "")

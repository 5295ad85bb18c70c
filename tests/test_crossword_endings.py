"""Running totals and the end of a game, on real records and on real records with one
line mistyped the way annotators mistype them."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS, gcg_bytes
from sitehelpers import make_event, run_build, text_of

from pgm.crossword import replay
from pgm.crossword_model import unseen_tiles
from pgm.gcg import parse_gcg
from pgm.upwords import replay as replay_upwords

DOUG_V_EMELY = (CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes()
"""Ends with emely going out (line 29) and '>emely:  (OPEG) +14 345' (line 30): doug is
left with EGOP, the only tiles off the board."""
OUT_LINE = b">emely:  (OPEG) +14 345"
SUCCESS = CORPUS / "gcg/MAGPIE-DATA__success.gcg"


def edited(record: bytes, *changes: tuple[bytes, bytes]) -> bytes:
    for old, new in changes:
        assert record.count(old) == 1
        record = record.replace(old, new)
    return record


def warnings(record: bytes) -> list[str]:
    game = replay(parse_gcg(record, "g.gcg"))
    return [f"{d.line}: {d.severity}: {d.message}" for d in game.diagnostics]


def load(path: Path):
    return replay(parse_gcg(path.read_bytes(), path.name))


# -- running totals ------------------------------------------------------------------

GALE = (b">emely: ADEEGIL 7C GALE +16 16", b">emely: ADEEGIL 7C GALE +16 61")
"""A total mistyped at line 4 (16 written 61)."""


def test_a_mistyped_total_is_blamed_at_its_line_and_not_at_the_correct_line_after_it() -> None:
    assert warnings(edited(DOUG_V_EMELY, GALE)) == [
        "4: warning: cumulative score is 61, but 0 +16 = 16"]


def test_a_mistyped_total_carried_forward_is_blamed_once() -> None:
    carried = (b">emely: DEILOVX F2 VOX +39 55", b">emely: DEILOVX F2 VOX +39 100")
    # line 6 adds to the typo, line 8 (-24, 79) to the true total: neither is blamed
    assert warnings(edited(DOUG_V_EMELY, GALE, carried)) == [
        "4: warning: cumulative score is 61, but 0 +16 = 16"]


def test_a_total_following_from_neither_names_both_sums() -> None:
    wrong = (b">emely: DEILOVX F2 VOX +39 55", b">emely: DEILOVX F2 VOX +39 57")
    assert warnings(edited(DOUG_V_EMELY, GALE, wrong)) == [
        "4: warning: cumulative score is 61, but 0 +16 = 16",
        "6: warning: cumulative score is 57, but 61 +39 = 100 (the recorded scores add up "
        "to 16 +39 = 55)"]  # line 8, 79 = 55 +24, is right


def test_the_corpus_record_with_one_wrong_total_is_warned_of_at_that_line_only() -> None:
    """Line 15 writes 103 for 22 +77; line 17, 131 = 99 +32, follows from the true total
    (the MANIFEST's 'running 135' adds to the typo)."""
    game = load(CORPUS / "gcg-invalid/MAGPIE-DATA__standard_cumulative_scoring_error.gcg")
    assert [(d.line, d.message) for d in game.diagnostics] == [
        (15, "cumulative score is 103, but 22 +77 = 99")]
    assert game.final.scores == (516, 358)


def test_a_record_back_on_the_true_total_after_a_typo_is_not_blamed() -> None:
    """Johannes's NEUENDER (line 20) is written 308 for 243 +66; the withdrawal and the
    next phoney carry the typo, and FERN (line 26) is back on the true 243 +14 = 257."""
    game = load(CORPUS / "gcg-nonexact/scrabscrap__nu19_johannes-stefan.gcg")
    totals = [(d.line, d.message) for d in game.diagnostics if "cumulative" in d.message]
    assert totals == [(20, "cumulative score is 308, but 243 +66 = 309")]


def test_upwords_totals_are_checked_the_same_way() -> None:
    game = replay_upwords(parse_gcg(gcg_bytes("""
        #game-type upwords
        #player1 ann Ann
        #player2 bob Bob
        >ann: ? 5D CAT +6 60
        >bob: ? 6D AT +4 4
        >ann: ? 5D ..R +4 10
        """), "u.gcg"))
    assert [(d.line, d.message) for d in game.diagnostics] == [
        (4, "cumulative score is 60, but 0 +6 = 6")]


# -- the tiles of the end-of-game lines ----------------------------------------------

@pytest.mark.parametrize(("line", "expected"), [
    (b">emely:  (OPEX) +26 357", "30: warning: (OPEX) differs from the tiles left on doug's "
     "rack, which are the tiles off the board: (EGOP), worth 7"),
    (b">emely:  (OPES) +12 343", "30: warning: (OPES) differs from the tiles left on doug's "
     "rack, which are the tiles off the board: (EGOP), worth 7"),
])
def test_end_rack_points_must_be_the_tiles_left_on_the_opponents_rack(line: bytes,
                                                                       expected: str) -> None:
    """The only X (and the last S) are on the board: doug's leave is EGOP."""
    assert [m for m in warnings(edited(DOUG_V_EMELY, (OUT_LINE, line)))
            if m.startswith("30: ")] == [expected]


def test_end_rack_tiles_that_differ_from_the_board_do_not_change_the_rack_shown(
        tmp_path) -> None:
    """doug's leave after line 28 is EGOP, the tiles off the board: a line naming OPEX
    is warned of, and the pages after emely went out still show EGOP."""
    record = edited(DOUG_V_EMELY, (OUT_LINE, b">emely:  (OPEX) +26 357"))
    event = make_event(tmp_path / "ev", {"g.gcg": record})
    run_build(str(event), "-o", str(tmp_path / "site"), "--quiet")
    for page in ("27.html", "28.html"):
        html = (tmp_path / "site/g" / page).read_text()
        score_table = html.split('<table class="score-table"', 1)[1].split("</table>")[0]
        assert "doug 451" in text_of(score_table) and "EGOP" in text_of(score_table)


def test_a_penalised_rack_must_be_the_tiles_left_too() -> None:
    international = (OUT_LINE, b">emely:  (OPEG) +7 338\n>doug: EGOT (EGOT) -5 446")
    assert warnings(edited(DOUG_V_EMELY, international)) == [
        "31: warning: (EGOT) differs from the tiles left on doug's rack, which are the tiles "
        "off the board: (EGOP), worth 7"]


def test_end_rack_tiles_that_are_all_on_the_board_are_warned_of() -> None:
    """Nobody went out, so the rack is not known: only tiles the board has no more of
    are wrong."""
    assert warnings(gcg_bytes("""
        #player1 a a
        #player2 b b
        >a: ZA 8G ZA +22 22
        >a: (QZ) +40 62
        """)) == ["4: warning: (QZ) holds 1 'Z', but 0 are left off the board",
                  "4: warning: points for the opponent's rack, but no player has gone out; "
                  "the game ends here"]


def test_points_for_the_tiles_left_written_for_the_wrong_player_say_whose_they_are(
        tmp_path) -> None:
    """emely went out at line 29; a line scoring doug for the tiles left gets one warning
    that names emely, and the last page still shows doug holding them."""
    record = edited(DOUG_V_EMELY, (OUT_LINE, b">doug:  (OPEG) +14 465"))
    assert warnings(record) == [
        "30: warning: doug did not go out (emely did), so the tiles left on doug's rack "
        "score for emely: expected '>emely: (OPEG) +14'"]
    event = make_event(tmp_path / "ev", {"g.gcg": record})
    run_build(str(event), "-o", str(tmp_path / "site"), "--quiet")
    page = (tmp_path / "site/g/28.html").read_text()
    score_table = text_of(page.split('<table class="score-table"', 1)[1].split("</table>")[0])
    assert "doug 465 (+134) EGOP" in score_table
    assert "emely 331 (-134) empty" in score_table


# -- one-sided international endings -------------------------------------------------

def test_international_endings_have_both_lines_in_either_order() -> None:
    plus, minus = b">emely:  (OPEG) +7 338", b">doug: EGOP (EGOP) -7 444"
    assert warnings(edited(DOUG_V_EMELY, (OUT_LINE, plus + b"\n" + minus))) == []
    assert warnings(edited(DOUG_V_EMELY, (OUT_LINE, minus + b"\n" + plus))) == []
    fivepoint = load(CORPUS / "gcg/quackle__fivepoint.gcg")
    assert fivepoint.diagnostics == ()


def test_a_penalty_line_without_its_rack_is_one_warning_and_read_as_the_penalty() -> None:
    """'>doug:  (OPEG) -7 444' was read as points scored for an opponent's rack, minus
    seven: four warnings that contradicted each other. It is the loser's penalty with
    the rack left out, and reads as one."""
    plus, minus = b">emely:  (OPEG) +7 338", b">doug:  (OPEG) -7 444"
    record = edited(DOUG_V_EMELY, (OUT_LINE, plus + b"\n" + minus))
    assert warnings(record) == [
        "31: warning: a penalty for the tiles left is written without the rack before them: "
        "read as '>doug: OPEG (OPEG) -7 444'"]
    game = replay(parse_gcg(record, "g.gcg"))
    assert game.final.scores == (444, 338) and game.complete


def test_a_single_plus_once_the_rack_without_the_losers_line_is_warned_of() -> None:
    assert warnings(edited(DOUG_V_EMELY, (OUT_LINE, b">emely:  (OPEG) +7 338"))) == [
        "30: warning: (OPEG) is worth 7: expected +14 (twice the rack), or +7 with a line of "
        "-7 for doug's rack (international rules), recorded +7 without such a line"]


def test_a_wrong_rack_value_names_both_rules() -> None:
    assert warnings(edited(DOUG_V_EMELY, (OUT_LINE, b">emely:  (OPEG) +12 343"))) == [
        "30: warning: (OPEG) is worth 7: expected +14 (twice the rack), or +7 with a line of "
        "-7 for doug's rack (international rules), recorded +12"]


def test_going_out_and_only_the_losers_line_lacks_the_points() -> None:
    assert warnings(edited(DOUG_V_EMELY, (OUT_LINE, b">doug: EGOP (EGOP) -7 444"))) == [
        "29: warning: emely went out, but the record ends without the points for the tiles "
        "left on the other racks (a line like '>nick: (TILES) +N'): the final scores are "
        "short of them"]


# -- the unseen tiles after a withdrawn phoney that went out -------------------------

def test_after_a_withdrawn_out_play_the_opponent_is_to_move() -> None:
    """success.gcg line 34 withdraws Tim's RELATCH, which had emptied his rack: Josh,
    holding F, is to move, and the tiles he cannot see are Tim's ACEHLRT."""
    game = load(SUCCESS)
    turn = game.turns[23]
    assert turn.event.line == 34 and turn.position.to_move == 1
    assert not turn.position.game_over
    assert unseen_tiles(game.rules, turn.position) == dict.fromkeys("ACEHLRT", 1)
    assert game.diagnostics == ()


def test_the_turn_page_after_a_withdrawn_out_play_counts_the_unseen_tiles(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"success.gcg": SUCCESS.read_bytes()})
    result = run_build(str(event), "-o", str(tmp_path / "site"), "--quiet")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "site/success/24.html").read_text()
    score_table = text_of(page.split('<table class="score-table"', 1)[1].split("</table>")[0])
    assert "Josh Castellano to move 505 (+112) F" in score_table
    unseen = text_of(page.split('class="unseen"', 1)[1].split("</section>", 1)[0])
    assert "Unseen by Josh Castellano: 7 2 vowels, 5 consonants · 0 in the bag" in unseen
    assert unseen.split("0 in the bag", 1)[1].split() == list("ACEHLRT")


# -- the tiles left are counted once -------------------------------------------------

def test_a_second_line_scoring_the_same_rack_is_warned_of() -> None:
    twice = OUT_LINE + b"\n>emely:  (OPEG) +14 359"
    assert warnings(edited(DOUG_V_EMELY, (OUT_LINE, twice))) == [
        "31: warning: (OPEG) scored again: line 30 already scores the tiles left for emely, "
        "and they count once: expected no second line (+14 on one line, or +7 with a line "
        "of -7 for doug's rack)"]


def test_twice_the_rack_and_the_holders_line_too_is_warned_of_in_either_order() -> None:
    """+14 for emely and -7 for doug count doug's EGOP three times."""
    minus = b">doug: EGOP (EGOP) -7 444"
    expected = ("warning: (OPEG) counted three times: line {0} scores it twice for emely "
                "(+14) and line {1} takes -7 from doug: expected +14 without line {1}, or +7 "
                "at line {0} with it (international rules)")
    assert warnings(edited(DOUG_V_EMELY, (OUT_LINE, OUT_LINE + b"\n" + minus))) == [
        "31: " + expected.format(30, 31)]
    assert warnings(edited(DOUG_V_EMELY, (OUT_LINE, minus + b"\n" + OUT_LINE))) == [
        "31: " + expected.format(31, 30)]


def test_a_holders_second_line_is_warned_of() -> None:
    plus, minus = b">emely:  (OPEG) +7 338", b">doug: EGOP (EGOP) -7 444"
    record = edited(DOUG_V_EMELY, (OUT_LINE, b"\n".join([plus, minus, minus[:-3] + b"437"])))
    assert warnings(record) == [
        "32: warning: (EGOP) taken again: line 31 already takes doug's rack, which counts "
        "once: expected no second line"]


def test_a_game_is_followed_until_the_points_for_the_tiles_left_are_written(tmp_path) -> None:
    """The annotator saves the play going out, then the line scoring doug's rack: open
    pages keep following the record until that line, which changes the final score."""
    import json

    lines = DOUG_V_EMELY.rstrip(b"\n").split(b"\n")
    event = make_event(tmp_path / "ev", {"g.gcg": b"\n".join(lines[:-1]) + b"\n"})
    site = tmp_path / "site"
    run_build(str(event), "-o", str(site), "--quiet")
    [game] = json.loads((site / "live.json").read_text())["games"]
    assert game["live"] and game["status"] == "in progress: doug 451 – emely 331"
    (event / "g.gcg").write_bytes(DOUG_V_EMELY)
    run_build(str(event), "-o", str(site), "--quiet")
    [game] = json.loads((site / "live.json").read_text())["games"]
    assert not game["live"] and game["status"] == "doug 451 – emely 345, doug won"


def test_a_line_after_the_closing_lines_does_not_open_the_game_again() -> None:
    game = replay(parse_gcg(DOUG_V_EMELY + b">doug: ABC - +0 451\n", "g.gcg"))
    assert game.complete and game.final.game_over
    assert any("ended" in d.message for d in game.diagnostics)


def test_a_pass_recorded_with_points_is_warned_of() -> None:
    """A pass scores nothing: points on one (a typed score of a play) are warned of,
    as an exchange's are."""
    record = edited(DOUG_V_EMELY, (b">doug: AILNORT A5 LATINO +27 191",
                                   b">doug: AILNORT - +27 191"))
    assert "12: warning: a pass scores +0, not +27" in warnings(record)


def test_a_rack_penalty_before_the_end_of_the_game_is_warned_of() -> None:
    """The tiles left are taken after a player went out or the scoreless turns ended the
    game; in mid-game such a line is a mistyped time penalty, or a line out of place,
    and the game goes on after it (an annotator's stray line does not end it)."""
    record = edited(DOUG_V_EMELY, (b">emely: EKMORRU L11 MURK +28 236\n",
                                   b">emely: EKMORRU L11 MURK +28 236\n"
                                   b">emely: EKMORRU (EKMORRU) -14 222\n"))
    found = warnings(record)
    assert ("22: warning: a penalty for the tiles left on the rack, but no player has gone "
            "out and there have not been 6 scoreless turns; moves follow, so the game goes "
            "on") in found
    # the game went on: no move after it is "after the end", and the record ends it
    assert not [w for w in found if "after the game has ended" in w]
    game = replay(parse_gcg(record, "g.gcg"))
    penalty = next(turn for turn in game.turns if turn.event.line == 22)
    assert game.complete and not penalty.position.game_over


def test_a_rack_of_more_tiles_than_a_rack_holds_is_warned_of() -> None:
    """Eight tiles on a rack, or placed from an unknown one, are a recording error."""
    assert warnings(gcg_bytes("""
        #player1 a a
        #player2 b b
        >a: AEINRSTT 8D RETAINST +66 66
        >b: UNKNOWN 9A ABDEFGHI +45 45
        #rack1 ABCDEFGHIJ
        """)) == ["3: warning: rack AEINRSTT holds 8 tiles; a rack holds at most 7",
                  "3: warning: 8D RETAINST is recorded as +66, but the board scores it +18",
                  "4: warning: 9A ABDEFGHI places 8 tiles; a rack holds at most 7",
                  "5: warning: rack ABCDEFGHIJ holds 10 tiles; a rack holds at most 7"]


def test_scoreless_turns_ending_the_game_without_rack_penalties_are_warned_of() -> None:
    """After the sixth scoreless turn each rack's tiles are taken from its holder: a
    record that stops there says so, at the turn that ended the game; with the
    penalties written the game is complete."""
    opening = """
        #player1 a a
        #player2 b b
        >a: AEINRST 8D RETAINS +66 66
        >b: ABCDEFG 9C BE +9 9
        """
    passes = "".join(f">{p}: {r} - +0 {s}\n" for p, r, s in
                     [("a", "ACDFGHI", 66), ("b", "ACDFGIK", 9)] * 3)
    unclosed = replay(parse_gcg(gcg_bytes(opening) + passes.encode(), "g.gcg"))
    assert [f"{d.line}: {d.message}" for d in unclosed.diagnostics] == [
        "10: the scoreless turns end the game here, but the record ends without the "
        "penalties for the tiles left on the racks (a line like '>nick: TILES (TILES) -N' "
        "for each player): the game stays in progress, and its scores are short of final"]
    assert unclosed.final.game_over and not unclosed.complete
    closed = replay(parse_gcg(gcg_bytes(opening) + passes.encode() +
                              b">a: ACDFGHI (ACDFGHI) -17 49\n>b: ACDFGIK (ACDFGIK) -18 -9\n",
                              "g.gcg"))
    assert closed.diagnostics == () and closed.complete
    half = replay(parse_gcg(gcg_bytes(opening) + passes.encode() +
                            b">a: ACDFGHI (ACDFGHI) -17 49\n", "g.gcg"))
    assert [f"{d.line}: {d.message}" for d in half.diagnostics] == [
        "11: the scoreless turns ended the game at line 10, but no line takes the tiles "
        "left on b's rack: the game stays in progress until one does"]
    assert not half.complete  # a's line alone would give b the win the next line may undo

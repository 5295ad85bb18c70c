"""GCG lines an annotator mistypes: a keyword in parentheses misspelt or capitalised, the
colon after a nickname left out, a pragma misspelt, a penalty's sign typed wrong. Each
gets one diagnostic saying what is wrong where, not a string of confusing warnings."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import CORPUS, gcg_bytes
from sitehelpers import make_event, run_build, text_of

from pgm.cli import main
from pgm.crossword import replay
from pgm.crossword_view import describe
from pgm.gcg import EventKind, parse_gcg

JESSE = (CORPUS / "gcg/liwords__r15_jesse.gcg").read_text(encoding="utf-8")
"""Josh vs Jesse; line 14 is '>Josh: ANNSTUU (challenge) +5 172', the tenth event."""
ISSUE_476 = (CORPUS / "gcg/macondo__issue_476.gcg").read_text(encoding="utf-8")
"""Ends '>whatnoloan: NU (time) -10 422' on line 39."""
LOW = (CORPUS / "gcg/liwords__combined_low_scoring.gcg").read_text(encoding="utf-8")
"""Six scoreless turns, then '>Marlon_Hill: ?AEEOTT (?AEEOTT) -6 -6' on line 15 and
'>Ben_Schoenbrun: EIOQRRT (EIOQRRT) -16 -16' on line 17."""
HEAD = "#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETAINS +66 66\n"


def play(text: str, path: str = "t.gcg"):
    return replay(parse_gcg(text.encode("utf-8"), path))


def messages(game) -> list[str]:
    return [f"{d.line}: {d.severity}: {d.message}" for d in game.diagnostics]


def check(tmp_path, name: str, text: str) -> list[str]:
    """What ``pgm check`` prints for a record saved as ``name``: one line a problem."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    return [line for line in result.stdout.splitlines() if line.startswith(str(path))]


# ---------------------------------------------------------------------------------------
# Keywords in parentheses


def test_a_misspelt_challenge_is_one_error_that_stops_the_replay_there(tmp_path) -> None:
    text = JESSE.replace("(challenge)", "(chalenge)")
    game = play(text, "r15.gcg")
    assert messages(game) == [
        "14: error: '(chalenge)' is not a keyword: did you mean '(challenge)'?"]
    # as at any line that cannot be read: the game stops there, its turns kept
    assert game.stopped_at == 14
    assert [turn.event.line for turn in game.turns][-1] == 13
    assert game.turns[-1].position.scores == (167, 179)
    assert check(tmp_path, "r15.gcg", text) == [
        f"{tmp_path / 'r15.gcg'}:14: error: '(chalenge)' is not a keyword: did you mean "
        "'(challenge)'?"]


@pytest.mark.parametrize("line, meant", [
    (">ann: DEIIOOT (chalenge) +5 71", "(challenge)"),  # the rack-penalty form
    (">ann: (Chalenge) +5 71", "(challenge)"),  # the form scoring an opponent's rack
    (">ann: DEIIOOT (CHALENGE) +5 71", "(challenge)"),  # eight letters: no rack
])
def test_a_word_that_cannot_be_tiles_close_to_a_keyword_is_a_typo(line: str,
                                                                   meant: str) -> None:
    game = play(HEAD + line + "\n>bob: EIOU -EIOU +0 0\n")
    token = line.split()[-3]
    assert messages(game) == [f"4: error: {token!r} is not a keyword: did you mean {meant!r}?"]
    assert game.stopped_at == 4 and len(game.turns) == 1


def test_a_keyword_in_another_case_reads_as_the_keyword() -> None:
    """Real files write '(challenge)' and '(time)' in lower case; a capital is no reason
    to read the word as tiles, and the game replays as it does with the spec's form."""
    expected = play(JESSE)
    for written in ("(Challenge)", "(CHALLENGE)"):
        game = play(JESSE.replace("(challenge)", written))
        assert game.record.events[9].kind is EventKind.CHALLENGE_BONUS
        assert messages(game) == messages(expected) == []
        assert describe(game.turns[9], game) == describe(expected.turns[9], expected) == (
            "Josh's play stood a challenge: bonus of 5 points")
        assert [t.position.scores for t in game.turns] == [
            t.position.scores for t in expected.turns]
    timed = play(ISSUE_476.replace("(time)", "(Time)"))
    assert timed.record.events[-1].kind is EventKind.TIME_PENALTY
    assert messages(timed) == messages(play(ISSUE_476))
    assert describe(timed.turns[-1], timed).endswith("loses 10 points for overtime")


def test_words_that_can_be_tiles_stay_tiles() -> None:
    """'(TIME)' is a rack of four tiles, '(TIM)' of three: written in capitals, as tiles
    are, they are tiles whatever keyword they are close to; so is a lower-case word far
    from any keyword or too short to tell from a rack ('(tie)', '(tme)'), and a long
    word of capitals when '#tile' declares tiles of several letters."""
    record = parse_gcg(gcg_bytes("""
        #player1 ann Ann
        #player2 bob Bob
        >ann: TIME (TIME) -6 -6
        >bob: (TIM) +10 10
        >ann: (egop) +18 12
        >bob: (tie) +6 16
        >ann: DEIIOOT (tme) -10 2
    """), "t.gcg")
    assert record.diagnostics == ()
    assert [(e.kind, e.tiles) for e in record.events] == [
        (EventKind.END_RACK_PENALTY, "TIME"), (EventKind.END_RACK_POINTS, "TIM"),
        (EventKind.END_RACK_POINTS, "egop"), (EventKind.END_RACK_POINTS, "tie"),
        (EventKind.END_RACK_PENALTY, "tme")]
    declared = parse_gcg(gcg_bytes("#tile CH ch\n#player1 a a\n#player2 b b\n"
                                   ">a: CHALLENGE (CHALLENGE) -20 -20\n"), "t.gcg")
    assert declared.events[0].kind is EventKind.END_RACK_PENALTY
    assert declared.events[0].tiles == "CHALLENGE"


def test_the_spec_forms_of_every_keyword_line_read_as_before() -> None:
    record = parse_gcg(gcg_bytes("""
        #player1 ann Ann
        #player2 bob Bob
        >ann: DEIIOOT (challenge) +5 5
        >bob:  (challenge) +5 5
        >ann: NU (time) -10 -5
        >bob: (time) -10 -5
    """), "t.gcg")
    assert record.diagnostics == ()
    assert [(e.kind, e.rack) for e in record.events] == [
        (EventKind.CHALLENGE_BONUS, "DEIIOOT"), (EventKind.CHALLENGE_BONUS, ""),
        (EventKind.TIME_PENALTY, "NU"), (EventKind.TIME_PENALTY, "")]


# ---------------------------------------------------------------------------------------
# The start of an event line


@pytest.mark.parametrize("line, message", [
    (">bob HISU 14J HUIS +45 283", "missing ':' after '>bob'"),
    (">bob:HISU 14J HUIS +45 283", "missing space after '>bob:'"),
    (">bob :HISU 14J HUIS +45 283", "space before the ':' after '>bob': write '>bob:'"),
    (">:HISU 14J HUIS +45 283", "event line must start with '>nickname:' followed by a space"),
])
def test_an_event_line_without_its_colon_says_what_is_missing_where(tmp_path, line: str,
                                                                    message: str) -> None:
    text = HEAD + line + "\n>ann: EIOU -EIOU +0 66\n"
    game = play(text)
    assert messages(game) == [f"4: error: {message}"]
    assert game.stopped_at == 4 and len(game.turns) == 1
    assert check(tmp_path, "g.gcg", text) == [f"{tmp_path / 'g.gcg'}:4: error: {message}"]


# ---------------------------------------------------------------------------------------
# Pragmas


def test_a_misspelt_pragma_names_the_one_meant(tmp_path) -> None:
    text = ("#player1 ann Ann Example\n#plyer2 bob Bob Smith\n#titel Final\n#lexcon CSW21\n"
            "#tool-pragma 3\n>ann: AEINRST 8D RETAINS +66 66\n>bob: HISU 7G HUIS +28 28\n")
    game = play(text)
    assert messages(game) == [
        "2: warning: unknown pragma #plyer2 ignored: did you mean #player2?",
        "3: warning: unknown pragma #titel ignored: did you mean #title?",
        "4: warning: unknown pragma #lexcon ignored: did you mean #lexicon?",
        "5: warning: unknown pragma #tool-pragma ignored",
        "7: warning: no #player pragma names 'bob'; taking the player from the event"]
    assert check(tmp_path, "p.gcg", text)[0] == (
        f"{tmp_path / 'p.gcg'}:2: warning: unknown pragma #plyer2 ignored: did you mean "
        "#player2?")


def test_players_numbered_wrong_say_which_number_is_missing() -> None:
    move = ">ann: ABC 8G CAB +14 14\n"
    assert messages(play("#player0 ann Ann\n#player1 bob Bob\n" + move))[0] == (
        "1: error: #player0: players are numbered from 1 (#player1, #player2)")
    assert messages(play("#player1 ann Ann\n#player3 bob Bob\n" + move))[0] == (
        "2: error: #player2 missing: players are numbered from #player1 up, with no gap "
        "(given: #player1, #player3)")


def test_an_obsolete_pragma_says_what_replaced_it() -> None:
    game = play("#ltarget r1/\n#player1 ann Ann\n#player2 bob Bob\n>ann: ABC 8G CAB +14 14\n")
    assert messages(game) == [
        "1: warning: #ltarget is obsolete and ignored: a game's pages are written at the "
        "record's path below the output folder (pgm build -o OUT)"]


def test_a_pragma_as_near_two_names_both() -> None:
    game = play("#player1 ann Ann Example\n#player bob Bob Smith\n"
                ">ann: AEINRST 8D RETAINS +66 66\n")
    assert messages(game)[0] == ("2: warning: unknown pragma #player ignored: did you mean "
                                 "#player1 or #player2?")


# ---------------------------------------------------------------------------------------
# A penalty's sign


def test_a_penalty_recorded_positive_is_worded_as_the_record_has_it() -> None:
    """'+6' for the tiles left on a player's own rack adds six to the score, as recorded
    (the replay warns that it should take them away): the page says the player gets
    them, not that the player "loses -6 points"."""
    game = play(LOW.replace("(?AEEOTT) -6 -6", "(?AEEOTT) +6 6"))
    assert messages(game) == ["15: warning: (?AEEOTT) is worth 6: expected -6, recorded +6"]
    assert game.turns[-1].position.scores == (6, -16)
    assert [describe(turn, game) for turn in game.turns[-2:]] == [
        "Marlon Hill gets 6 points for the tiles left on the rack (?AEEOTT): recorded as +6, "
        "where a penalty takes points away",
        "Ben Schoenbrun loses 16 points for the tiles left on the rack (EIOQRRT)"]
    late = play(ISSUE_476.replace("(time) -10 422", "(time) +10 442"))
    assert messages(late) == ["39: warning: a time penalty is negative, not +10"]
    assert describe(late.turns[-1], late).endswith(
        "gets 10 points for overtime: recorded as +10, where a penalty takes points away")


def test_the_turn_page_says_what_a_positive_penalty_did(tmp_path) -> None:
    event = make_event(tmp_path / "event", {
        "low.gcg": LOW.replace("(?AEEOTT) -6 -6", "(?AEEOTT) +6 6")})
    site = tmp_path / "site"
    result = run_build(str(event), "-o", str(site))
    assert result.exit_code == 0, result.output
    pages = [text_of(page.read_text()) for page in sorted((site / "low").glob("*.html"))]
    said = [page for page in pages if "for the tiles left on the rack (?AEEOTT)" in page]
    assert said and all("gets 6 points for the tiles left on the rack (?AEEOTT): recorded "
                        "as +6, where a penalty takes points away" in page for page in said)
    assert not any("loses -" in page for page in pages)

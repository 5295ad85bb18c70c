"""Upwords records (``#game-type upwords``): stacks after each event and the rules checked."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import CORPUS, SAMPLE_GAMES, gcg_bytes
from hypothesis import given, settings
from hypothesis import strategies as st

from pgm.check import check_file
from pgm.cli import main
from pgm.config import GameSettings
from pgm.discover import Source
from pgm.games import load_game
from pgm.gcg import parse_gcg
from pgm.ubf import Stack, read_ubf
from pgm.upwords import UpwordsGame, replay
from pgm.upwords_view import describe

SAMPLE = SAMPLE_GAMES / "upwords/upwords-sample.gcg"
HEAD = "#game-type upwords\n#player1 ann Ann\n#player2 bob Bob\n"


def upwords(body: str) -> UpwordsGame:
    return replay(parse_gcg(HEAD.encode() + gcg_bytes(body), "u.gcg"))


def messages(game: UpwordsGame) -> list[tuple[int, str, str]]:
    return [(d.line, d.severity.value, d.message) for d in game.diagnostics]


def sample() -> UpwordsGame:
    return replay(parse_gcg(SAMPLE.read_bytes(), str(SAMPLE)))


def test_sample_game_replays_clean_with_pass_exchange_and_every_height() -> None:
    game = sample()
    assert game.diagnostics == ()
    assert len(game.turns) >= 12 and game.stopped_at is None
    kinds = [t.event.kind.value for t in game.turns]
    assert "pass" in kinds and "exchange" in kinds
    heights = {s.height for t in game.turns for s in t.position.board.squares if s}
    assert heights == {1, 2, 3, 4, 5}
    assert game.final.scores == (89, 66) and not game.complete


def test_heights_after_chosen_events_of_the_sample() -> None:
    game = sample()
    after = {t.number: t.position.board for t in game.turns}
    # 5D CHART, then S.O.. stacks S on C and O on A: SHORT with two stacks of 2.
    assert [after[1].at(4, c) for c in (3, 5)] == [Stack("C", 1), Stack("A", 1)]
    assert [after[2].at(4, c) for c in range(3, 8)] == [
        Stack("S", 2), Stack("H", 1), Stack("O", 2), Stack("R", 1), Stack("T", 1)]
    assert game.turns[1].stacked == ((4, 3), (4, 5)) and game.turns[1].words == ("SHORT",)
    # F5 goes I, O, I on top of A and O: 3, 4, then the limit of 5.
    assert [after[n].at(4, 5) for n in (13, 14, 15)] == [
        Stack("I", 3), Stack("O", 4), Stack("I", 5)]
    # D9: G, P, T, D.
    assert [after[n].at(8, 3) for n in (8, 9, 10, 12)] == [
        Stack("G", 1), Stack("P", 2), Stack("T", 3), Stack("D", 4)]
    assert game.turns[11].words == ("ADO", "DRIED")
    # The pass and the exchange leave the board as it was.
    assert after[16] == after[15] and after[4] == after[3]
    assert [after[19].at(9, c) for c in range(4)] == [
        Stack("T", 2), Stack("A", 2), Stack("C", 2), Stack("O", 1)]


def test_letter_equal_to_the_top_is_played_through_like_a_dot() -> None:
    game = upwords("""
        >ann: CATRSEH 5D CAT +6 6
        >bob: OSEUIRL 5D COT +4 4
        >ann: RSEHIMA 5D CAT +4 10
        """)
    assert messages(game) == []
    assert [t.stacked for t in game.turns] == [((4, 3), (4, 4), (4, 5)), ((4, 4),), ((4, 4),)]
    assert game.final.board.at(4, 4) == Stack("A", 3)


def test_sixth_tile_on_a_stack_is_an_error_and_stops_the_replay() -> None:
    game = upwords("""
        >ann: ? 5E A +2 2
        >bob: ? 5E B +2 2
        >ann: ? 5E C +3 5
        >bob: ? 5E D +4 6
        >ann: ? 5E E +5 10
        >bob: ? 5E F +6 12
        >ann: ? 5E G +7 17
        """)
    assert messages(game) == [
        (9, "error", "5E F: F on E5 would make a stack of 6; stacks hold at most 5 tiles")]
    assert game.stopped_at == 9 and len(game.turns) == 5
    assert game.final.board.at(4, 4) == Stack("E", 5)


def test_covering_every_letter_of_a_word_is_a_warning_at_its_line() -> None:
    game = upwords("""
        >ann: CATXXXX 5D CAT +6 6
        >bob: DOGXXXX 5D DOG +6 6
        >ann: UXXXXXX 5D .U. +4 10
        """)
    assert messages(game) == [
        (5, "warning", "5D DOG covers every letter of CAT (D5-F5) in one turn; at least one "
                       "letter of a word must stay")]
    assert game.final.board.at(4, 4) == Stack("U", 3)


def test_covering_part_of_a_word_or_extending_it_is_fine() -> None:
    game = upwords("""
        >ann: CATXXXX 5D CAT +6 6
        >bob: UXXXXXX 5D .UT +4 4
        >ann: SXXXXXX 5C S... +5 11
        >bob: HOXXXXX 5C .HO. +6 10
        """)
    assert messages(game) == []
    assert game.turns[2].words == ("SCUT",)
    assert game.turns[3].words == ("SHOT",) and game.turns[3].stacked == ((4, 3), (4, 4))


def test_placement_errors_name_the_square() -> None:
    dot = upwords(">ann: ? 5E .A +2 2\n")
    assert messages(dot) == [(4, "error", "5E .A: '.' marks a played-through tile at E5, "
                                          "but that square is empty")]
    off = upwords(">ann: ? 5H TOAST +10 10\n")
    assert messages(off) == [(4, "error", "5H TOAST runs off the 10x10 board at tile 4")]
    nothing = upwords(">ann: ? 5E AT +4 4\n>bob: ? 5E AT +4 4\n")
    assert messages(nothing) == [(5, "error", "5E AT puts no tile on the board (every "
                                              "letter is already on top of its square)")]
    digit = upwords(">ann: ? 5E A1 +4 4\n")
    assert messages(digit) == [(4, "error", "5E A1: '1' is not an Upwords tile (expected "
                                            "A-Z, Q for Qu, or '.' for a played-through tile)")]


def test_recording_mistakes_are_warnings() -> None:
    game = upwords("""
        >ann: XYZ 1A CAT +6 6
        >ann: ? 1A COT +4 9
        >bob: ? 8A DOG +6 6
        """)
    assert messages(game) == [
        (4, "warning", "the first play covers none of the four centre squares (E5, F5, E6, F6)"),
        (4, "warning", "played tiles ACT are not on the rack XYZ"),
        (5, "warning", "ann moves out of turn: it was bob's turn"),
        (5, "warning", "cumulative score is 9, but 6 +4 = 10"),
        (6, "warning", "8A DOG does not touch any tile on the board"),
    ]


def test_withdrawal_takes_the_phoney_off_and_the_game_ends_with_rack_points() -> None:
    game = upwords("""
        >ann: ? 5D CAT +6 6
        >bob: ? 5D CXT +4 4
        >bob: ? -- -4 0
        >ann: ? 5D ..R +4 10
        >ann: (EE) +4 14
        """)
    assert messages(game) == []
    assert game.turns[2].position.board == game.turns[0].position.board
    assert game.final.board.at(4, 5) == Stack("R", 2) and game.complete


def test_unknown_player_is_an_error() -> None:
    game = upwords(">cy: ? 5E A +2 2\n")
    assert messages(game) == [(4, "error", "no player has the nickname 'cy' (players: ann, bob)")]


def test_replay_stops_at_an_unreadable_line_and_late_moves_are_told_once() -> None:
    game = upwords(">ann: ? 5D CAT +6 6\n>bob: ? 6D\n>ann: ? 4E A +2 8\n")
    assert game.stopped_at == 5 and len(game.turns) == 1
    assert [(line, severity) for line, severity, _ in messages(game)] == [(5, "error")]


def test_a_line_for_the_tiles_left_ends_the_game_only_when_no_move_follows_it() -> None:
    """An annotator's stray end-of-game line mid-game does not freeze the game with a
    result: the moves after it are replayed and the game is still in progress."""
    stray = upwords(">ann: ? 5D CAT +6 6\n>ann: (EE) +4 10\n>bob: ? 6D A +2 2\n"
                    ">ann: ? - +0 10\n")
    assert messages(stray) == [(5, "warning", "a line for the tiles left before the end of "
                                              "the game; moves follow, so the game goes on")]
    assert not stray.complete and stray.final.to_move == 1
    assert stray.final.scores == (10, 2) and stray.final.board.at(5, 3) == Stack("A", 1)
    ended = upwords(">ann: ? 5D CAT +6 6\n>bob: ? 6D A +2 2\n>ann: (EE) +4 10\n"
                    ">bob: (T) -1 1\n")
    assert messages(ended) == [] and ended.complete and ended.final.to_move is None
    assert ended.final.scores == (10, 1)


def test_a_game_stopped_by_an_error_is_not_in_progress(tmp_path) -> None:
    data = HEAD.encode() + gcg_bytes(">ann: ? 5D CAT +6 6\n>cy: ? 6D A +2 2\n"
                                     ">bob: ? 6D A +2 2\n")
    path = tmp_path / "g.gcg"
    path.write_bytes(data)
    entry = load_game(Source(path, "g.gcg", "g"), GameSettings(), data).entry
    assert not entry.live and entry.stopped_at == 5
    assert entry.status == "stopped by an error at line 5: Ann 6 – Bob 0"
    assert entry.result_by_seat == ("", "")


def test_check_json_uses_the_upwords_report_for_upwords_records() -> None:
    result = CliRunner().invoke(main, ["check", "--json", str(SAMPLE)])
    assert result.exit_code == 0, result.output
    [report] = json.loads(result.output)
    crossword, _ = check_file(CORPUS / "gcg/MAGPIE-DATA__success_standard.gcg")
    assert set(report) == set(crossword)
    assert report["game"] == "upwords" and report["board"] == "Upwords"
    assert report["diagnostics"] == [] and report["final_scores"] == [89, 66]
    assert set(report["events"][0]) == set(crossword["events"][0]) - {"cgp"} | {"ubf"}
    game = sample()
    for event, turn in zip(report["events"], game.turns, strict=True):
        assert event["computed_score"] is None
        assert read_ubf(event["ubf"]).board == turn.position.board
    assert report["events"][6]["words_formed"] == ["OUR", "TONED"]


UPWORDS_PIECES = st.sampled_from(["\n", " ", ">ann: ", ">bob: ", "5E ", "E5 ", "10A ", "J1 ",
                                  "CAT ", "DOG ", "..", "Q", "+4 ", "4 ", "-", "--", "(EE) ",
                                  "#note x", "AAAAA", "ZZ"])


@settings(max_examples=200, deadline=None)
@given(st.lists(UPWORDS_PIECES, max_size=80).map("".join))
def test_replay_never_raises(text: str) -> None:
    game = replay(parse_gcg((HEAD + text).encode(), "fuzz.gcg"))
    for turn in game.turns:
        assert all(s is None or 1 <= s.height <= 5 for s in turn.position.board.squares)


def test_each_rack_after_a_turn_is_the_one_its_players_next_line_states() -> None:
    """A player's rack changes only on their own lines, so the next one tells it; not a
    withdrawal's, which states the rack before the phoney it takes back."""
    from pgm.upwords_view import player_lines

    game = upwords("""
        >ann: ACTXYZE 5D CAT +6 6
        >bob: BCDEFGX 5D CXT +4 4
        >bob: BCDEFGX -- -4 0
        >ann: RXYZEEQ 5D ..R +4 10
        >bob: BCDEFGX - +0 0
        """)
    racks = [tuple(line.rack for line in player_lines(game, index)) for index in range(5)]
    assert racks == [("RXYZEEQ", "BCDEFGX"),  # ann's from line 4, bob's from line 2
                     ("RXYZEEQ", ""),  # bob's phoney is on the board: his rack is not told
                     ("RXYZEEQ", "BCDEFGX"),
                     ("", "BCDEFGX"),  # the record ends before ann's next line
                     ("", "")]


def test_the_qu_tile_typed_qu_is_one_tile_and_the_words_spell_it_qu() -> None:
    """``Qu`` can only be the Qu tile: read so without a word. ``QU`` is too (no word has
    "QUU"), with a warning that the tile is written Q. Neither puts a U tile down."""
    for typed, told in (("QuIT", []), ("QUIT", [
            (4, "warning", "5E QUIT: the Qu tile is written Q; 'QU' is read as one Qu tile")])):
        game = upwords(f">ann: QITSAEO 5E {typed} +8 8\n")
        assert messages(game) == told, typed
        [turn] = game.turns
        assert [turn.position.board.at(4, c) for c in range(4, 8)] == [
            Stack("Q", 1), Stack("I", 1), Stack("T", 1), None]
        assert turn.stacked == ((4, 4), (4, 5), (4, 6)) and turn.words == ("QUIT",)
        assert turn.tiles == "QIT" and turn.event.word == typed  # the record's line as written


def test_the_qu_tile_typed_qu_can_be_played_through() -> None:
    """The same letter or ``.`` is played through after a Qu typed either way, and
    ``Q.`` is the Q then a played-through square."""
    game = upwords("""
        >ann: QITSAEO 5E QIT +6 6
        >bob: ASEUIRL E5 QuA +4 4
        >ann: SAEOLMN 5E Q..S +8 14
        """)
    assert messages(game) == []
    assert [t.stacked for t in game.turns] == [((4, 4), (4, 5), (4, 6)), ((5, 4),), ((4, 7),)]
    assert [t.words for t in game.turns] == [("QUIT",), ("QUA",), ("QUITS",)]
    assert game.final.board.at(4, 4) == Stack("Q", 1)


def test_check_json_gives_the_words_formed_with_qu(tmp_path) -> None:
    path = tmp_path / "qu.gcg"
    path.write_bytes(HEAD.encode() + b">ann: ? 5E QUIT +8 8\n>bob: ? 6E A +4 4\n")
    result = CliRunner().invoke(main, ["check", "--json", str(path)])
    [report] = json.loads(result.output)
    assert [e["words_formed"] for e in report["events"]] == [["QUIT"], ["QUA"]]
    assert report["events"][0]["word"] == "QUIT"  # as the record writes it (moves.csv too)
    assert report["diagnostics"] == [{
        "line": 4, "severity": "warning",
        "message": "5E QUIT: the Qu tile is written Q; 'QU' is read as one Qu tile"}]


def test_an_exchange_of_more_than_one_tile_is_a_warning_naming_the_count() -> None:
    game = upwords("""
        >ann: AEORSTW 5D WATER +10 10
        >bob: DEILNOV -DEILNOV +0 0
        >ann: ABEOSST -7 +0 10
        >bob: ABCDEFV -V +0 0
        """)
    assert messages(game) == [
        (5, "warning", "bob exchanges 7 tiles (DEILNOV); the classic Upwords rules let a "
                       "player exchange one tile a turn instead of playing"),
        (6, "warning", "ann exchanges 7 tiles; the classic Upwords rules let a player "
                       "exchange one tile a turn instead of playing"),
    ]
    assert game.final.board == game.turns[0].position.board and game.final.to_move == 0


def test_the_game_is_over_from_the_first_closing_line_as_in_a_crossword_game() -> None:
    """Racks are not tracked, so the first line for the tiles left is where an Upwords
    game is known to be over; a crossword game of the same lines is over there too (it
    is over earlier only when its racks tell that a player went out)."""
    from pgm import crossword

    body = """
        >ann: ABDEFGH 5E BAD +6 6
        >bob: EILNOSV - +0 0
        >ann: EFGHIJK 6E EH +4 10
        >bob: EILNOSV (EILNOSV) -35 -35
        >ann: FGIJK (FGIJK) -25 -15
        """
    game = upwords(body)
    assert [t.position.game_over for t in game.turns] == [False, False, False, True, True]
    assert game.complete and game.final.scores == (-15, -35)
    scrabble = crossword.replay(parse_gcg(gcg_bytes(
        HEAD.removeprefix("#game-type upwords\n") + body.replace("5E", "8G")
        .replace("6E", "9G")), "c.gcg"))
    assert [t.position.game_over for t in scrabble.turns] == [
        t.position.game_over for t in game.turns]


def test_points_for_the_tiles_left_are_said_without_the_crossword_rule() -> None:
    """No Upwords rule gives a player the tiles on the opponent's rack, so the line's
    points are said as recorded, not "for the tiles left on the opponent's rack"."""
    game = upwords("""
        >ann: AEORSTW 5D WATER +10 10
        >bob: DEILNOV 6D I +2 2
        >ann: (DEILNO) +12 22
        """)
    assert describe(game.turns[2], game) == "Ann gets 12 points for the tiles left (DEILNO)"


def test_problems_are_listed_in_line_order() -> None:
    """The reader's problem (line 6) came before the replay's (line 5)."""
    game = upwords("""
        >ann: AEORSTW 5D WATER +10 10
        >benn: DEILNOV 6D I +2 2
        >ann AEORSTW 7D ON +4 14
        """)
    assert [line for line, _, _ in messages(game)] == [5, 6]


def checked(tmp_path, text: str) -> list[str]:
    """``pgm check``'s lines for a record of ``text``, without the file's path."""
    path = tmp_path / "game.gcg"
    path.write_bytes(gcg_bytes(text))
    result = CliRunner().invoke(main, ["check", str(path)])
    return [line.split(": ", 1)[1] for line in result.stdout.splitlines()]


def test_a_misspelt_game_type_points_back_to_upwords(tmp_path) -> None:
    """Replayed as Scrabble, an Upwords record draws a 15x15 board with premiums: the
    warning names the game type meant."""
    found = checked(tmp_path, """
        #game-type upword
        #player1 ann Ann
        #player2 bob Bob
        >ann: AEORSTW 5D WATER +10 10
        """)
    assert found[0] == ("warning: #game-type upword is not supported; the game is replayed "
                        "as a classic crossword game: did you mean upwords?")


@pytest.mark.parametrize("written", ["#game-type: upwords", "#game-type:upwords"])
def test_a_game_type_written_with_a_colon_is_read(tmp_path, written: str) -> None:
    found = checked(tmp_path, f"""
        {written}
        #player1 ann Ann
        #player2 bob Bob
        >ann: AEORSTW 5D WATER +10 10
        >bob: DEILMOV 5D M.... +5 5
        """)
    assert found == [f"warning: {written}: read as #game-type upwords (a pragma's name "
                     "takes no ':')"]


def test_a_stack_in_a_record_without_game_type_says_what_upwords_needs(tmp_path) -> None:
    """A record whose first play missed the centre square, as Upwords games start, and
    that stacks a tile; a Scrabble record's play onto a filled square gets no such hint
    (tests/test_crossword.py)."""
    found = checked(tmp_path, """
        #player1 ann Ann
        #player2 bob Bob
        >ann: AEORSTW 5D WATER +10 10
        >bob: DEILNOV 5D M +2 2
        """)
    assert found[-1] == ("error: cannot place 5D M: D5 already holds 'W', the play has 'M' "
                         "there; tiles stack only in Upwords, whose records say #game-type "
                         "upwords")

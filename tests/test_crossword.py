"""Replay rules, each on a small record written for the purpose."""

from __future__ import annotations

from collections import Counter

from conftest import CORPUS, gcg_bytes

from pgm.cgp import write_board
from pgm.crossword import replay
from pgm.crossword_model import unseen_tiles, vowel_consonant_counts
from pgm.crossword_view import rack_text
from pgm.gcg import parse_gcg


def play(text: str, **defaults: str):
    return replay(parse_gcg(gcg_bytes(text), "t.gcg"), **defaults)


def square(game, index: int, name: str) -> str:
    """The label on a square like 'H8' after turns[index]."""
    col = ord(name[0]) - ord("A")
    row = int(name[1:]) - 1
    size = game.rules.layout.size
    return game.turns[index].position.cells[row * size + col]


def messages(game) -> list[str]:
    return [f"{d.line}: {d.severity}: {d.message}" for d in game.diagnostics]


HEAD = "#player1 a a\n#player2 b b\n"


def test_premiums_blank_and_bingo() -> None:
    game = play(HEAD + ">a: AENRST? 8D RETAiNS +64 64\n")
    turn = game.turns[0]
    # D8 is a double letter, H8 the double word centre; the blank scores 0.
    assert turn.computed_score == (2 * 1 + 1 + 1 + 1 + 0 + 1 + 1) * 2 + 50 == 64
    assert square(game, 0, "H8") == "i"
    assert turn.words == ("RETAiNS",)
    assert messages(game) == []


def test_cross_words_are_scored() -> None:
    game = play(HEAD + ">a: ZA 8G ZA +22 22\n>b: AB 9G AB +21 21\n")
    # AB on row 9 forms the cross-words ZA (column G) and AB (column H):
    # AB = 1x2 (G9 double letter) + 3; ZA = 10 + 1x2; AB down = 1 + 3.
    assert game.turns[1].words == ("AB", "ZA", "AB")
    assert game.turns[1].computed_score == 5 + 12 + 4 == game.turns[1].event.score
    assert messages(game) == []


def test_score_mismatch_is_a_warning_and_recorded_figures_are_kept() -> None:
    game = play(HEAD + ">a: ZA 8G ZA +25 25\n>b: AB 9G AB +21 21\n")
    assert messages(game) == ["3: warning: 8G ZA is recorded as +25, but the board scores it +22"]
    assert game.final.scores == (25, 21)


def test_cumulative_mismatch_names_both_numbers() -> None:
    game = play(HEAD + ">a: ZA 8G ZA +22 23\n")
    assert messages(game) == ["3: warning: cumulative score is 23, but 0 +22 = 22"]
    assert game.final.scores == (23, 0)


def test_played_through_tiles_as_dots_or_letters() -> None:
    dots = play(HEAD + ">a: ZA 8G ZA +22 22\n>b: EL G7 E.L +14 14\n")
    letters = play(HEAD + ">a: ZA 8G ZA +22 22\n>b: EL G7 EZL +14 14\n")
    for game in (dots, letters):
        assert [t.label for t in game.turns[1].placed] == ["E", "L"]
        assert game.turns[1].computed_score == 14 and messages(game) == []
    wrong = play(HEAD + ">a: ZA 8G ZA +22 22\n>b: EL G7 EQL +14 14\n")
    assert messages(wrong) == ["4: error: cannot place G7 EQL: G8 already holds 'Z', the play "
                               "has 'Q' there"]


def test_occupied_square_stops_the_replay_and_keeps_earlier_positions() -> None:
    game = play(HEAD + ">a: ZA 8G ZA +22 22\n>b: QI 8G QI +11 11\n>a: X 9G X +1 23\n")
    assert messages(game) == [
        "4: error: cannot place 8G QI: G8 already holds 'Z', the play has 'Q' there"]
    assert game.stopped_at == 4
    assert len(game.turns) == 1 and square(game, 0, "G8") == "Z"


def test_off_the_board_and_missing_through_tile_are_errors() -> None:
    off = play(HEAD + ">a: ABCDEF 8L ABCDEF +1 1\n")
    assert "runs off the board" in messages(off)[0] and off.turns == ()
    for start in ("16A", "P8"):
        outside = play(HEAD + f">a: AEINRST {start} RETAINS +66 66\n")
        assert messages(outside) == [f"3: error: cannot place {start} RETAINS: {start} is not "
                                     "on the board (rows 1-15, columns A-O)"]
    dot = play(HEAD + ">a: AB 8G A.B +5 5\n")
    assert messages(dot) == ["3: error: cannot place 8G A.B: '.' marks a played-through tile "
                             "at H8, but that square is empty"]


def test_phoney_withdrawal_restores_board_and_counts_as_scoreless() -> None:
    game = play(HEAD + """>a: ZA 8G ZA +22 22
>b: QXZ 9F QXZ +40 40
>b: QXZ -- -40 0
>a: T 8I T +3 25
""")
    withdrawn = game.turns[1]
    assert withdrawn.withdrawn and square(game, 1, "F9") == "Q"
    assert square(game, 2, "F9") == "" and game.turns[2].removed == withdrawn.placed
    assert game.turns[2].position.scoreless_turns == 1
    assert game.turns[2].position.to_move == 0
    assert game.final.scores == (25, 0)


def test_a_withdrawal_rack_is_held_to_the_phoneys_tiles_not_their_spelling() -> None:
    """The rack a withdrawal repeats may be written in another order or case; only other
    tiles are a recording error worth a warning."""
    game = play(HEAD + """>a: ZA 8G ZA +22 22
>b: QXZ 9F QXZ +40 40
>b: zxq -- -40 0
>a: T 8I T +3 25
>b: QXZ 9F QXZ +40 40
>b: QXE -- -40 0
""")
    assert [m for m in messages(game) if "withdrawal" in m] == [
        "8: warning: withdrawal rack QXE differs from the rack of the play, QXZ"]


def test_six_scoreless_turns_end_the_game_then_racks_are_penalised() -> None:
    game = replay(parse_gcg((CORPUS / "gcg/liwords__combined_low_scoring.gcg").read_bytes(), "c"))
    zeros = [t.position.scoreless_turns for t in game.turns]
    assert max(zeros) == 6 and game.complete
    assert game.final.scores == (-6, -16)


def test_going_out_ends_the_game_and_end_rack_points_are_checked() -> None:
    game = replay(parse_gcg((CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes(), "d"))
    out = [t for t in game.turns if t.position.game_over][0]
    assert out.event.kind.value == "play" and out.position.bag == 0
    assert game.complete and game.final.scores == (451, 345)
    bad = play(HEAD + ">a: ZA 8G ZA +22 22\n>a: (QI) +30 52\n")
    assert "2: " not in " ".join(messages(bad))
    assert ("4: warning: (QI) is worth 11: expected +22 (twice the rack), or +11 with a line "
            "of -11 for b's rack (international rules), recorded +30") in messages(bad)


def test_a_record_stopping_at_the_play_going_out_is_warned_of() -> None:
    """Without the line that scores the tiles left over, the final scores are short, and
    the record has not ended the game yet: it is in progress (its pages follow it)."""
    whole = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    assert not [d for d in replay(parse_gcg(whole, "g")).diagnostics if "went out" in d.message]
    cut = whole.rstrip().rsplit(b"\n", 1)[0] + b"\n"  # without ">cesar:  (DEINIR) +14 363"
    game = replay(parse_gcg(cut, "g"))
    out = game.turns[-1]
    assert out.position.game_over and not game.complete
    assert out.event.kind.value == "play" and out.position.bag == 0
    assert [str(d) for d in game.diagnostics if "went out" in d.message] == [
        f"g:{out.event.line}: warning: cesar went out, but the record ends without the points "
        "for the tiles left on the other racks (a line like '>nick: (TILES) +N'): the game "
        "stays in progress until it is written, and its scores are short of final"]


def test_international_end_of_game_is_accepted() -> None:
    game = replay(parse_gcg((CORPUS / "gcg/quackle__fivepoint.gcg").read_bytes(), "f"))
    assert not [m for m in messages(game) if "worth" in m]
    assert game.final.scores == (360, 452) or game.final.scores == (452, 360)


def test_out_of_turn_move_is_reported() -> None:
    game = play(HEAD + ">a: ZA 8G ZA +22 22\n>a: T 8G ..T +12 34\n")
    assert messages(game) == ["4: warning: a moves out of turn: it was b's turn"]


def test_unknown_nickname_stops_with_an_error() -> None:
    game = play(HEAD + ">c: ZA 8G ZA +22 22\n")
    assert messages(game) == ["3: error: no player has the nickname 'c' (players: a, b)"]


def test_a_nickname_in_another_case_or_misspelled_is_named_as_the_one_meant() -> None:
    head = "#player1 andy Andy\n#player2 cesar Cesar\n"
    assert messages(play(head + ">Andy: ZA 8G ZA +22 22\n")) == [
        "3: error: no player has the nickname 'Andy' (players: andy, cesar); did you mean "
        "'andy'? A nickname is written as its #player line has it, case too"]
    assert messages(play(head + ">ceasr: ZA 8G ZA +22 22\n")) == [
        "3: error: no player has the nickname 'ceasr' (players: andy, cesar); did you mean "
        "'cesar'?"]


def test_played_tiles_must_be_on_the_rack() -> None:
    game = play(HEAD + ">a: ABC 8G ZA +22 22\n")
    assert messages(game) == ["3: warning: played tiles Z are not on the rack ABC"]


def test_played_tiles_are_counted_as_multisets() -> None:
    game = play(HEAD + ">a: ABE 8G AA +4 4\n")
    assert messages(game) == ["3: warning: played tiles A are not on the rack ABE"]


def test_more_tiles_on_board_and_rack_than_the_set_has() -> None:
    # English has one Z and two blanks.
    game = play(HEAD + ">a: ZA 8G ZA +22 22\n>b: Z?? 9G s +10 10\n>a: ??E 7H Ea +3 25\n")
    assert messages(game) == [
        # After line 3 b holds Z?? (line 4) and a ??E (line 5): four blanks between them.
        "3: warning: the racks after this line cannot all be right: the board with b's Z?? "
        "and a's ??E holds 4 '?' tiles, but the english set has 2; the position's CGP leaves "
        "out b's rack",
        "4: warning: 2 'Z' tiles on the board and rack, but the english set has 1",
        "5: warning: 3 '?' tiles on the board and rack, but the english set has 2"]


def test_a_withdrawn_play_gives_its_tiles_back_to_the_set() -> None:
    game = play(HEAD + """>a: ZA 8G ZA +22 22
>b: QI 9G QI +53 53
>b: QI -- -53 0
>a: - +0 22
>b: QI 9G QI +53 53
""")
    assert messages(game) == []  # not 2 'Q' tiles on the board and rack


def test_first_play_off_centre_and_plays_that_touch_nothing() -> None:
    assert "3: warning: the first play does not cover the centre square" in \
        messages(play(HEAD + ">a: ZA 1A ZA +33 33\n"))
    game = play(HEAD + """>a: ZA 8G ZA +22 22
>b: QI 1A QI +33 33
>a: XI 8I XI +20 42
>b: OW 9F OW +27 60
>a: AT 9K AT +2 44
""")
    # XI extends ZA and OW forms ZW across; AT only touches a corner.
    assert [m for m in messages(game) if "is recorded" not in m] == [
        "4: warning: 1A QI does not touch any tile on the board",
        "5: warning: the word on the board is ZAXI, longer than the 2 tiles written",
        "7: warning: 9K AT does not touch any tile on the board"]


def test_racks_known_from_the_record_and_unseen_tiles() -> None:
    game = play(HEAD + ">a: AEIOUZT 8G ZA +22 22\n>b: BCDFGHJ 9F BE +0 0\n")
    first = game.turns[0].position
    assert first.to_move == 1
    assert first.racks == (("B", "C", "D", "F", "G", "H", "J"), None) or \
        first.racks[1] == ("B", "C", "D", "F", "G", "H", "J")
    unseen = unseen_tiles(game.rules, first)
    full = game.rules.distribution.full_bag()
    assert unseen == full - Counter("ZA") - Counter("BCDFGHJ")
    vowels, consonants, blanks = vowel_consonant_counts(game.rules, unseen)
    assert blanks == 2 and vowels + consonants + blanks == sum(unseen.values())
    assert first.bag == 100 - 14 - 2


def test_rack_pragmas_give_the_racks_of_a_game_in_progress() -> None:
    game = play(HEAD + ">a: ZA 8G ZA +22 22\n#rack1 QUIRE\n#rack2 ABCDEFG\n")
    assert game.final.racks == (("Q", "U", "I", "R", "E"), tuple("ABCDEFG"))
    assert not game.complete


def test_multi_letter_tiles_by_pragma_bar_and_brackets() -> None:
    catalan = play("#tile-distribution catalan\n" + HEAD + ">a: AL·LQU 8G AL·LA +0 0\n")
    assert [t.label for t in catalan.turns[0].placed] == ["A", "L·L", "A"]
    # L·L is worth 10 on the double-word centre... A(1) on G8, L·L(10) on H8, A(1) on I8.
    assert catalan.turns[0].computed_score == (1 + 10 + 1) * 2
    spanish = play("#tile-distribution spanish\n" + HEAD + ">a: CHO 8G [CH]O +0 0\n")
    assert [t.label for t in spanish.turns[0].placed] == ["CH", "O"]
    bars = play("#tile-distribution spanish\n" + HEAD + ">a: CHO 8G |[CH]|O| +0 0\n")
    assert [t.label for t in bars.turns[0].placed] == ["CH", "O"]
    declared = play("#tile QU qu\n" + HEAD + ">a: QUI 8G QUI +24 24\n")
    assert [t.label for t in declared.turns[0].placed] == ["Q", "U", "I"]
    assert messages(declared)[0] == "1: warning: #tile QU: the english set has no such tile"


def test_distribution_from_lexicon_and_from_config() -> None:
    french = play("#lexicon FRA20\n" + HEAD + ">a: KA 8G KA +22 22\n")
    assert french.rules.distribution.name == "french"
    assert french.turns[0].computed_score == (10 + 1) * 2
    configured = play(HEAD + ">a: KA 8G KA +22 22\n", distribution="french")
    assert configured.rules.distribution.name == "french"
    assert configured.diagnostics == ()


def test_super_board_scores_on_its_own_layout() -> None:
    game = play("#board-layout SuperCrosswordGame\n" + HEAD + ">a: ZA 11J ZA +22 22\n")
    assert game.rules.layout.size == 21
    assert game.rules.distribution.name == "english_super"
    assert game.turns[0].computed_score == 22  # K11 is the double-word centre


def test_lettered_rows_orientation_is_kept_for_rendering() -> None:
    game = replay(parse_gcg((CORPUS / "gcg-nonexact/scrabscrap__nu19_johannes-stefan.gcg")
                            .read_bytes(), "j"))
    assert game.rules.orientation == "lettered-rows"
    assert game.rules.distribution.name == "german"


def test_cgp_of_each_position_round_trips_the_board() -> None:
    game = replay(parse_gcg((CORPUS / "gcg/macondo__noah_vs_peter.gcg").read_bytes(), "n"))
    text = game.cgp(12)
    assert text.split()[0] == write_board(game.turns[12].position.cells, 15)
    # MAGPIE's NOAH_VS_PETER_CGP is the board after 13 events.
    assert text.split()[0] == ("15/9O5/7GIP5/7H1E3T1/7E5E1/5CUTTY3EF/7T6O/7OR4UP/7SEMINAL1/"
                               "4AX2S4V1/2DILUTION3AE/8L5V/8D5I/8e5T/8R5E")
    assert " lm " in text


def test_replay_stops_at_an_unreadable_event_line() -> None:
    """Skipping the line would give the next one to the wrong player ("out of turn")
    and build on a board without its play."""
    game = play(HEAD + ">a: ZA 8G ZA +22 22\n>b: QI 9F\n>a: XI 7G XI +9 31\n")
    assert game.stopped_at == 4 and len(game.turns) == 1
    assert [m.split(":")[:2] for m in messages(game)] == [["4", " error"]]


def test_moves_after_the_end_are_reported_once_with_how_many_follow() -> None:
    passes = "".join(f">{'ab'[i % 2]}: ABC - +0 0\n" for i in range(6000))
    game = play(HEAD + passes)
    assert messages(game) == [
        "9: warning: a moves after the game has ended, and so do the 5,993 turns after it "
        "(to line 6002)"]
    one_more = play(HEAD + passes[:8 * len(">a: ABC - +0 0\n")])
    assert messages(one_more) == [
        "9: warning: a moves after the game has ended, and so does the 1 turn after it "
        "(to line 10)"]


def test_a_partial_rack_says_how_many_tiles_are_unknown() -> None:
    assert rack_text(("R",), 7) == "R + 6 unknown"
    assert rack_text(("C", "_", "_"), 7) == "C + 6 unknown"
    assert rack_text((), 7) is None  # tiles drawn after a phoney: nobody has seen them
    assert rack_text((), 0) == ""  # went out
    assert rack_text(tuple("QUIRE"), 5) == "QUIRE"
    assert rack_text(None, 7) is None


def test_after_a_phoney_the_leave_is_known_and_the_draw_is_not() -> None:
    game = play(HEAD + ">a: ZA 8G ZA +22 22\n>b: ABCDEFG 9G BAD +1 1\n"
                       ">b: ABCDEFG -- -1 0\n>a: QI 7G QI +11 33\n>b: BAD 9G BAD +1 1\n")
    after_phoney, withdrawn, next_turn = (t.position for t in game.turns[1:4])
    assert after_phoney.racks[1] == tuple("CEFG")
    assert withdrawn.racks[1] == next_turn.racks[1] == tuple("ABCDEFG")
    # b, to move, sees the A of ZA and the A on the rack
    assert unseen_tiles(game.rules, next_turn)["A"] == 9 - 2


def _shown(game, index: int) -> list[str | None]:
    position = game.turns[index].position
    return [rack_text(rack, position.rack_sizes[seat])
            for seat, rack in enumerate(position.racks)]


def test_the_leave_stays_on_the_rack_and_later_lines_add_to_it() -> None:
    """a's whole rack less ZA is kept; the next line names only the tile played then."""
    game = play(HEAD + ">a: AEIOUZT 8G ZA +22 22\n>b: BCDFGHJ - +0 0\n"
                       ">a: E 9G E +2 24\n")
    assert _shown(game, 0)[0] == _shown(game, 1)[0] == "EIOTU + 2 unknown"
    assert game.turns[1].position.racks[0] == tuple("EIOTU")


def test_what_an_exchange_keeps_and_what_an_exchange_by_count_does_not_tell() -> None:
    game = play(HEAD + ">a: ABCDEFG -CDE +0 0\n>b: HIJKLMN - +0 0\n>b: HIJKLMN -3 +0 0\n")
    assert _shown(game, 0)[0] == "ABFG + 3 unknown"
    # b exchanged three of HIJKLMN, which three unknown: no tile is sure to stay.
    assert _shown(game, 2)[1] is None


def test_a_challenge_bonus_line_tells_the_rack_after_the_play() -> None:
    game = play(HEAD + ">a: AEIOUZT 8G ZA +22 22\n>a: EIJOTU (challenge) +5 27\n")
    assert _shown(game, 0)[0] == _shown(game, 1)[0] == "EIJOTU + 1 unknown"


def test_a_line_that_contradicts_the_rack_before_it_is_not_added_to_it() -> None:
    """b passes with BCDFGHJ, then plays from KLMNPQR: fourteen tiles on a rack of
    seven would be a count nobody can hold. The rack is the pass's up to the line that
    says otherwise."""
    game = play(HEAD + ">a: AEIOUZT 8G ZA +22 22\n>b: BCDFGHJ - +0 0\n"
                       ">a: EIOTUVW - +0 22\n>b: KLMNPQR 9F L +2 2\n")
    assert [_shown(game, i)[1] for i in range(3)] == ["BCDFGHJ"] * 3
    assert _shown(game, 3)[1] == "KMNPQR + 1 unknown"


def test_a_rack_of_no_tiles_is_empty_not_unknown() -> None:
    game = replay(parse_gcg((CORPUS / "gcg-nonexact/scrabscrap__nu19_johannes-stefan.gcg")
                            .read_bytes(), "s"))
    # Stefan went out with KÖlNErS; the record ends without the end-of-game line.
    assert _shown(game, len(game.turns) - 1) == ["ENT + 1 unknown", ""]


# -- The CGP of each position ------------------------------------------------------------


def corpus_game(name: str):
    path = CORPUS / "gcg" / name
    return replay(parse_gcg(path.read_bytes(), str(path)))


def test_a_play_challenged_without_success_keeps_its_bonus_in_lm() -> None:
    """CGP: "If the move was challenged unsuccessfully, for challenge rules where there is
    a challenge bonus, represent the play as: n8 tiles +5"."""
    game = corpus_game("quackle__fivepoint.gcg")
    assert game.turns[2].event.kind.name == "CHALLENGE_BONUS"
    assert game.cgp(1).endswith(" lm H6 BE.NLIKE;")
    assert game.cgp(2).endswith(" lm H6 BE.NLIKE +5;")
    game = corpus_game("MAGPIE-DATA__incomplete_after_five_point_challenge.gcg")
    assert game.turns[16].event.line == 24
    assert game.cgp(16).endswith(" lm 3I GENITAL +5;")


def test_a_partly_known_exchange_is_written_as_its_count() -> None:
    """GCG 1.3 writes unknown exchanged tiles as ``_``, which CGP has no sign for."""
    game = play(HEAD + ">a: AEINRST 8D RETAINS +66 66\n>b: ABCDEFG -3 +0 0\n"
                ">a: ?ABC -A_ +0 66\n>b: ABCDEFG -BC +0 0\n")
    assert messages(game) == []  # '_' is no tile missing from the rack
    assert game.cgp(1).endswith(" lm -3;")
    assert game.cgp(2).endswith(" lm -2;")
    assert game.cgp(3).endswith(" lm -BC;")


def test_racks_that_cannot_all_be_true_are_a_warning_and_the_cgp_keeps_the_movers() -> None:
    # Josh's next line (17) gives ABCIIRZ, Lola's (18) EEEIIII: with the board's seven
    # I's, eleven; the English set has nine.
    game = corpus_game("liwords__r16_lola.gcg")
    found = [m for m in messages(game) if "cannot all be right" in m]
    assert found == [
        "16: warning: the racks after this line cannot all be right: the board with Josh's "
        "ABCIIRZ and Lola's EEEIIII holds 11 'I' tiles, but the english set has 9; the "
        "position's CGP leaves out Lola's rack",
        "17: warning: the racks after this line cannot all be right: the board with Lola's "
        "EEEIIII and Josh's ?CEIIPR holds 11 'I' tiles, but the english set has 9; the "
        "position's CGP leaves out Josh's rack"]
    assert game.turns[11].position.racks == (tuple("ABCIIRZ"), tuple("EEEIIII"))  # as told
    assert game.cgp(11).split()[1:4] == ["ABCIIRZ/", "255/240", "0"]
    assert game.cgp(12).split()[1:4] == ["EEEIIII/", "240/333", "0"]


def test_exchange_with_seven_in_bag_racks_beyond_the_set() -> None:
    game = corpus_game("MAGPIE-DATA__exchange_with_seven_in_bag.gcg")
    assert [m for m in messages(game) if "cannot all be right" in m] == [
        "20: warning: the racks after this line cannot all be right: the board with Brian's "
        "AAAEILN and Josh's DLLNVVW holds 5 'L' and 7 'N' tiles, but the english set has 4 "
        "and 6; the position's CGP leaves out Josh's rack"]
    assert game.cgp(16).split()[1] == "AAAEILN/"


def test_macondos_tile_set_pragma_names_the_tile_set() -> None:
    """``#tile-set english set`` is how Macondo writes it; a Spanish one scores Q as 5."""
    head = "#player1 a Ann\n#player2 b Bob\n"
    spanish = play("#tile-set spanish set\n" + head + ">a: AEIQUST 8G QUE +14 14\n")
    assert spanish.rules.distribution.name == "spanish" and messages(spanish) == []
    unknown = play("#tile-set klingon set\n" + head + ">a: AEIQUST 8G QUE +24 24\n")
    assert messages(unknown)[0].startswith("1: warning: #tile-set 'klingon' is unknown")
    assert unknown.rules.distribution.name == "english"
    both = play("#tile-distribution french\n#tile-set english set\n" + head)
    assert both.rules.distribution.name == "french"


def test_a_problem_with_a_pragma_names_the_pragmas_line() -> None:
    head = "#player1 a Ann\n#player2 b Bob\n"
    layout = play(head + "#board-layout Weird\n>a: AB 8G AB +8 8\n")
    distribution = play(head + "#tile-distribution klingon\n")
    lexicon = replay(parse_gcg(("#character-encoding UTF-8\n#lexicon POLSKI\n" + head +
                                ">a: ĄEINRST 8G ĄE +12 12\n").encode(), "t.gcg"))
    assert [(d.line, d.message[:26]) for d in layout.diagnostics] == \
        [(3, "board 'Weird' from #board-")]
    assert [(d.line, d.message[:30]) for d in distribution.diagnostics] == \
        [(3, "#tile-distribution 'klingon' i")]
    assert [(d.line, d.message[:30]) for d in lexicon.diagnostics] == \
        [(2, "lexicon 'POLSKI' does not name")]


def test_racks_of_passes_and_exchanges_are_held_to_the_tile_set() -> None:
    game = play(HEAD + ">a: ZZZ - +0 0\n>b: ABCDEFG -99 +0 0\n>a: ZZZQQQ -ZZZ +0 0\n"
                ">b: ABCDEFG -0 +0 0\n")
    assert messages(game) == [
        "3: warning: 3 'Z' tiles on the board and rack, but the english set has 1",
        "4: warning: an exchange of 99 tiles: a rack holds 1 to 7",
        "5: warning: 3 'Q' tiles on the board and rack, but the english set has 1",
        "5: warning: 3 'Z' tiles on the board and rack, but the english set has 1",
        "6: warning: an exchange of 0 tiles: a rack holds 1 to 7"]


def test_an_exchange_of_unreadable_tiles_is_one_warning() -> None:
    game = play(HEAD + ">a: ABCDEFG -A1 +0 0\n")
    assert messages(game) == [
        "3: warning: exchanged tiles 'A1': '1' is not a tile of the english set"]


def test_a_bad_coordinate_on_lettered_rows_is_explained_as_they_are_read() -> None:
    game = play("#orientation lettered-rows\n" + HEAD + ">a: ABCDEFG ZZ AB +0 0\n")
    assert messages(game) == ["4: error: 'ZZ' is not a coordinate (expected e.g. D8 across "
                              "or 8D down)"]

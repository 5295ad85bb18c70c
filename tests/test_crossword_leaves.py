"""A rack written in full that lacks tiles its player kept from their last move is warned
of (``pgm.crossword_leaves``): a rack copied from the wrong line turns the tile tracking
quietly wrong."""

from __future__ import annotations

from conftest import CORPUS, SAMPLE_GAMES
from sitehelpers import run_build

from pgm.crossword import replay
from pgm.gcg import parse_gcg

HEAD = "#player1 ann Ann\n#player2 bob Bob\n"


def lost(text: str) -> list[str]:
    game = replay(parse_gcg((HEAD + text).encode(), "t.gcg"))
    return [f"{d.line}: {d.message}" for d in game.diagnostics if " lacks " in d.message]


def test_a_pass_keeps_the_whole_rack() -> None:
    assert lost(">ann: ABCDEFG - +0 0\n>bob: AEIOUUU - +0 0\n"
                ">ann: HIJKLMN 8G INK +14 14\n") == [
        "5: ann's rack HIJKLMN lacks ABCDEFG, kept from line 3 (a pass with ABCDEFG keeps "
        "the rack): a rack changes only at its player's moves (a rack copied from another "
        "line? tiles lost to an overdraw ruling are told by a #rack1 line after line 3)"]


def test_a_play_keeps_its_leave() -> None:
    assert lost(">ann: ABCDEFG 8G CAB +14 14\n>bob: AEIOUUU - +0 0\n"
                ">ann: DEFXYZQ - +0 14\n") == [
        "5: ann's rack DEFXYZQ lacks G, kept from line 3 (ABCDEFG less the tiles played): "
        "a rack changes only at its player's moves (a rack copied from another line? tiles "
        "lost to an overdraw ruling are told by a #rack1 line after line 3)"]


def test_an_exchange_keeps_what_was_not_exchanged() -> None:
    assert lost(">ann: ABCDEFG -AB +0 0\n>bob: AEIOUUU - +0 0\n>ann: ABHIJKL - +0 0\n")[0] \
        .startswith("5: ann's rack ABHIJKL lacks CDEFG, kept from line 3 (ABCDEFG less the "
                    "tiles exchanged)")


def test_racks_that_keep_their_leave_or_tell_less_are_silent() -> None:
    assert lost(">ann: ABCDEFG 8G CAB +14 14\n>bob: AEIOUUU - +0 0\n"
                ">ann: DEFGXYZ - +0 14\n") == []  # the leave DEFG and three drawn
    assert lost(">ann: CAB 8G CAB +14 14\n>bob: UUU - +0 0\n"
                ">ann: XYZ - +0 14\n") == []  # liwords writes the tiles played only
    assert lost(">ann: ABCDEFG -3 +0 0\n>bob: AEIOUUU - +0 0\n"
                ">ann: HIJKLMN - +0 0\n") == []  # tiles exchanged not named
    assert lost(">ann: ABCDEFG 8G CAB +14 14\n>bob: AEIOUUU - +0 0\n"
                ">ann: DEF - +0 14\n") == []  # a rack written in part


def test_a_player_whose_racks_are_the_tiles_played_is_not_checked() -> None:
    """liwords writes an opponent's rack as the tiles played: a bingo's seven are not
    a rack that kept the leave of the exchange before it (macondo's vs_andy, line 15)."""
    assert lost(">ann: CAB 8G CAB +14 14\n>bob: AEIOUUU - +0 0\n"
                ">ann: ABCDEFG -AB +0 14\n>bob: AEIOUUU - +0 0\n"
                ">ann: HIJKLMN 9A HIJKLMN +80 94\n") == []
    game = replay(parse_gcg((CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes(), "a"))
    assert game.diagnostics == ()


def test_an_overdraw_ruling_told_by_a_rack_line_is_silent() -> None:
    assert lost(">ann: ABCDEFG 8G CAB +14 14\n#rack1 DEFXYZ\n>bob: AEIOUUU - +0 0\n"
                ">ann: DEFXYZQ - +0 14\n") == []


def test_a_phoney_taken_back_gives_its_tiles_back() -> None:
    phoney = ">ann: ABCDEFG 8G CABX +16 16\n>ann: ABCDEFG -- -16 0\n>bob: AEIOUUU - +0 0\n"
    assert lost(phoney + ">ann: ABCDEFG 8G CAB +14 14\n") == []
    assert lost(phoney + ">ann: ABCDEFH 8G CAB +14 14\n")[0].startswith(
        "6: ann's rack ABCDEFH lacks G, kept from line 3 (the tiles of ABCDEFG come back "
        "when the play is taken back)")


def test_a_real_record_with_an_overdraw_names_the_tile_lost() -> None:
    """Noah's note on the line says so: "Yup, I overdrew"."""
    game = replay(parse_gcg((CORPUS / "gcg/macondo__noah_vs_peter.gcg").read_bytes(), "n"))
    assert [f"{d.line}: {d.message[:69]}" for d in game.diagnostics if " lacks " in d.message] \
        == ["9: Noah's rack INNRRSW lacks ?, kept from line 7 (?ARSUVW less the tiles"]


def test_the_sample_event_has_no_such_rack(tmp_path) -> None:
    """Its copy of that record says what the ruling left Noah with, as the spec has it."""
    result = run_build(str(SAMPLE_GAMES), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0 and " lacks " not in result.output

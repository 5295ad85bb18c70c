"""Multi-letter tiles and blanks typed the wrong way (the Spanish and Catalan trial): a
blank in capitals, a tile in lower case or in both, Spanish CH, LL and RR typed as their
letters, Catalan L·L typed L.L, LL or with Unicode's Ŀ. Each is one warning at its line,
saying what is wrong and how it is read, not a string of warnings down the game; and a
tile the board and racks hold too many of is reported once, not at every later line."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from click.testing import CliRunner
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from pgm.cli import main
from pgm.crossword import replay
from pgm.crossword_view import score_sheet
from pgm.gcg import parse_gcg
from pgm.tiles import RACK_LABELS, tile_text

CASE = "blanks are written in lower case, other tiles in capitals"
SPANISH_CH = "the spanish set has a CH tile, written [CH] (or #tile CH ch)"
SPANISH_LL = "the spanish set has an LL tile, written [LL] (or #tile LL ll)"
SPANISH_RR = "the spanish set has an RR tile, written [RR] (or #tile RR rr)"
CATALAN_LL = "the catalan set has an L·L tile, written L·L or [L·L]"


def check(tmp_path: Path, text: str, name: str = "t.gcg") -> list[str]:
    """What ``pgm check`` prints for a record saved as ``name`` (UTF-8), one line a
    problem, without the path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    prefix = f"{path}:"
    return [line.removeprefix(prefix) for line in result.stdout.splitlines()
            if line.startswith(prefix)]


def play(text: str):
    return replay(parse_gcg(text.encode("utf-8"), "t.gcg"))


def square(game, index: int, name: str) -> str:
    """The label on a square like 'G8' after turns[index]."""
    size = game.rules.layout.size
    return game.turns[index].position.cells[(int(name[1:]) - 1) * size + ord(name[0]) - 65]


# ---------------------------------------------------------------------------------------
# Blanks and tiles in the wrong case

BLANK_IN_CAPITALS = """\
#player1 Nuria Nuria Fernandez
#player2 Inaki Inaki Goni Arrieta
#lexicon FISE2
>Nuria: NPN?ORE 8D OER[CH]N +10 10
>Inaki: DXJS[RR]UB G5 [RR]UX.BD +33 33
>Nuria: PNYG[CH]AO F4 PYGO.[CH]N +64 74
>Inaki: JSARLTD 9A TJRL +14 47
>Nuria: AAOAAAU D7 O..A +4 78
>Inaki: SADEAZI E3 ZIA +54 101
>Nuria: AAAAUNE H6 NA.A +27 105
>Inaki: SDEAEHS H4 HE....EDA +36 137
>Nuria: AAUEEAI 12G A.EEA +5 110
>Inaki: SSUOOCE I7 OUOEC.S +50 187
>Nuria: UAIERIC 14I CEURIA +32 142
>Inaki: SSCEOV? C8 S.j +9 196
"""
"""The trial's k2, cut short and in ASCII (J for Ñ, which scores the same): a clean game
but for the blank of line 4, typed [CH]; the real CH tile is played at line 6."""


def test_a_blank_typed_as_a_capital_is_one_warning_at_its_line(tmp_path: Path) -> None:
    assert check(tmp_path, BLANK_IN_CAPITALS) == [
        "4: warning: 8D OER[CH]N: a blank typed as a capital? [CH] is not on the rack "
        "NPN?ORE, but a blank is; read as OER[ch]N, which fits the rack and scores +10, as "
        f"recorded; {CASE}"]
    game = play(BLANK_IN_CAPITALS)
    assert square(game, 0, "G8") == "ch"  # the board shows the blank
    assert square(game, 2, "F9") == "CH"  # and the tile, played later


def test_a_blank_in_capitals_the_score_does_not_confirm_is_kept_with_a_hint(
        tmp_path: Path) -> None:
    """The rack says blank, the score neither reading: the play is kept as written, the
    warning says how the rack would hold it, and the CH too many is reported once."""
    record = ("#player1 a a\n#player2 b b\n#lexicon FISE2\n"
              ">a: NPN?ORE 8D OER[CH]N +99 99\n"
              ">b: PNYG[CH]AO F4 PYGO.[CH]N +23 23\n"
              ">a: AEI - +0 99\n>b: AEI - +0 23\n")
    assert check(tmp_path, record) == [
        "4: warning: 8D OER[CH]N is recorded as +99, but the board scores it +20",
        "4: warning: played tiles [CH] are not on the rack NPN?ORE; read as OER[ch]N, they "
        f"are ({CASE})",
        "5: warning: 2 'CH' tiles on the board and rack, but the spanish set has 1"]


MIXED_CASE = """\
#player1 Bego Bego
#player2 Jose Jose
#lexicon FISE2
>Bego: [CH]AEIOSC 8D {word} +32 32
>Jose: AEOERT? H5 AEO. +4 4
"""


def test_a_tile_in_both_cases_is_read_as_the_rack_holds_it(tmp_path: Path) -> None:
    """The trial's e1: [Ch] was a blank to pgm (not all capitals), which the rack lacks,
    and then one blank too many at every later line."""
    record = MIXED_CASE.format(word="[Ch]ICOS")
    assert check(tmp_path, record) == [
        "4: warning: 8D [Ch]ICOS: [Ch] mixes capitals and lower case; read as [CH]ICOS, "
        f"which fits the rack and scores +32, as recorded; {CASE}"]
    assert square(play(record), 0, "D8") == "CH"


def test_a_tile_typed_in_lower_case_is_read_as_the_tile(tmp_path: Path) -> None:
    record = MIXED_CASE.format(word="[ch]ICOS")
    assert check(tmp_path, record) == [
        "4: warning: 8D [ch]ICOS: a tile typed in lower case? [ch] is a blank, but the rack "
        "[CH]AEIOSC has [CH] and no blank to spare; read as [CH]ICOS, which fits the rack "
        f"and scores +32, as recorded; {CASE}"]


def test_a_tile_in_both_cases_that_nothing_decides_is_read_as_a_blank(
        tmp_path: Path) -> None:
    record = "#player1 a a\n#player2 b b\n#lexicon FISE2\n>a: _____ 8D [Ch]ICOS +99 99\n"
    assert check(tmp_path, record) == [
        "4: warning: 8D [Ch]ICOS: [Ch] mixes capitals and lower case; read as the blank "
        f"[ch]; {CASE}",
        "4: warning: 8D [Ch]ICOS is recorded as +99, but the board scores it +12"]
    assert square(play(record), 0, "D8") == "ch"


# ---------------------------------------------------------------------------------------
# A tile too many: once, and again when there are more


def test_a_tile_too_many_is_reported_once_and_again_when_it_grows(tmp_path: Path) -> None:
    record = """\
#player1 a a
#player2 b b
#lexicon CSW21
>a: ZA 8G ZA +22 22
>b: ZO 7G ZO +53 53
>a: ABC - +0 22
>b: DEF - +0 53
>a: ZE 6G ZE +44 66
>b: GHI - +0 53
"""
    assert check(tmp_path, record) == [
        "5: warning: 2 'Z' tiles on the board and rack, but the english set has 1",
        "8: warning: 3 'Z' tiles on the board and rack, but the english set has 1"]


def test_a_tile_too_many_again_after_a_line_without_is_reported_again(
        tmp_path: Path) -> None:
    """A rack that holds a tile the board has used up is a problem of its own line."""
    record = ("#player1 a a\n#player2 b b\n#lexicon CSW21\n>a: ZA 8G ZA +22 22\n"
              ">b: ZEE - +0 0\n>a: ABC - +0 22\n>b: ZEE - +0 0\n")
    assert check(tmp_path, record) == [
        "5: warning: 2 'Z' tiles on the board and rack, but the english set has 1",
        "7: warning: 2 'Z' tiles on the board and rack, but the english set has 1"]


# ---------------------------------------------------------------------------------------
# Spanish CH, LL and RR typed as their letters

SILENT_CH = """\
#player1 Bego Bego
#player2 Jose Jose
#lexicon FISE2
>Bego: CHICOS 8D CHICOS +32 32
"""
"""The trial's h1: CHICOS scores +32 as C and H and as [CH] alike, by chance."""


def test_spanish_c_and_h_played_as_two_tiles_is_a_warning(tmp_path: Path) -> None:
    assert check(tmp_path, SILENT_CH) == [
        f"4: warning: 8D CHICOS: C and H played side by side as two tiles; {SPANISH_CH}"]
    # nothing tells which reading is meant: the play stays as written
    assert square(play(SILENT_CH), 0, "D8") == "C"


def test_spanish_letters_declared_as_a_tile_or_set_apart_are_not_warned_of(
        tmp_path: Path) -> None:
    """``#tile CH ch`` makes CH the tile; ``|`` and brackets say the tiles are two."""
    declared = SILENT_CH.replace("#lexicon FISE2\n", "#lexicon FISE2\n#tile CH ch\n")
    assert check(tmp_path, declared) == []
    assert square(play(declared), 0, "D8") == "CH"
    bars = SILENT_CH.replace("CHICOS 8D CHICOS", "C|H|I|C|O|S 8D C|H|I|C|O|S")
    assert check(tmp_path, bars + ">Jose: [C][H]EEEE 9D [C][H] +21 21\n") == []


def test_spanish_letters_read_as_the_tile_when_the_line_says_so(tmp_path: Path) -> None:
    """The trial's v2: a Spanish game typed without brackets. Each line whose rack or
    score agrees with the tile only is read so, and the game replays to its end."""
    record = """\
#character-encoding UTF-8
#player1 Begoña Begoña Muñoz Castaño
#player2 JoseAngel José Ángel Pérez Ibáñez
#lexicon FISE2
>Begoña: CHAEIOSC 8D CHICOS +32 32
>JoseAngel: AÑOERT? H5 AÑO. +11 11
>Begoña: AENUVLL? F6 NU.A +8 40
>JoseAngel: EERT?MS 10F SoMETER +71 82
>Begoña: AEVLL?RO L6 LLAVE.O +20 60
>JoseAngel: QUESOND 12I QUESO +52 134
>Begoña: ?RPEITO 4H PErrITO +37 97
>JoseAngel: NDJXAIG -JX +0 134
>Begoña: RRRAZOLB M11 Z.RRA +51 148
"""
    assert check(tmp_path, record) == [
        "5: warning: 8D CHICOS: C and H played side by side as two tiles; read as [CH]ICOS "
        f"from the rack [CH]AEIOSC (7 tiles); {SPANISH_CH}",
        "7: warning: F6 NU.A: the rack AENUVLL? holds 8 tiles as written; read as the rack "
        f"AENUV[LL]? (7 tiles); {SPANISH_LL}",
        "9: warning: L6 LLAVE.O: L and L played side by side as two tiles; read as "
        "[LL]AVE.O from the rack AEV[LL]?RO (7 tiles), which can be placed (as written, L10 "
        f"already holds 'R', the play has 'E' there) and scores +20, as recorded; {SPANISH_LL}",
        "11: warning: 4H PErrITO: r and r played side by side as two tiles; read as "
        f"PE[rr]ITO, which fits the rack and scores +37, as recorded; {SPANISH_RR}",
        "13: warning: M11 Z.RRA: R and R played side by side as two tiles; read as Z.[RR]A "
        f"from the rack [RR]RAZOLB (7 tiles), which scores +51, as recorded; {SPANISH_RR}"]
    game = play(record)
    assert game.stopped_at is None and len(game.turns) == 9
    assert square(game, 0, "D8") == "CH" and square(game, 6, "J4") == "rr"
    assert game.turns[0].rack == ("CH", *"AEIOSC")


def test_spanish_ch_typed_as_letters_through_the_tile_on_the_board(tmp_path: Path) -> None:
    """The trial's t2: 'ACHE' through the [CH] on D8 cannot be placed as A C H E; as
    A [CH] E it can, and the replay goes on."""
    record = ("#player1 a a\n#player2 b b\n#lexicon FISE2\n"
              ">a: [CH]AEIOSC 8D [CH]ICOS +32 32\n>b: AEIORT? D7 ACHE +7 7\n")
    assert check(tmp_path, record) == [
        "5: warning: D7 ACHE: C and H played side by side as two tiles; read as A[CH]E, "
        "which can be placed (as written, D8 already holds 'CH', the play has 'C' there) and "
        f"scores +7, as recorded; {SPANISH_CH}"]


SPANISH = "#player1 Ann Ann\n#player2 Bob Bob\n#lexicon FISE2\n"


def test_an_exchange_from_a_rack_typed_without_brackets_is_read_as_the_rack_is(
        tmp_path: Path) -> None:
    """SERRANOS is eight tiles, SE[RR]ANOS seven: the RR exchanged is that rack's RR
    tile, not two R tiles the rack so read lacks (one warning, not a contradiction)."""
    record = SPANISH + ">Ann: SERRANOS -RR +0 0\n>Bob: AEIOUST - +0 0\n"
    assert check(tmp_path, record) == [
        "4: warning: the rack SERRANOS holds 8 tiles as written; read as the rack "
        f"SE[RR]ANOS (7 tiles), and the tiles exchanged, RR, as [RR]; {SPANISH_RR}"]
    game = play(record)
    assert game.turns[0].rack == ("S", "E", "RR", "A", "N", "O", "S")
    assert "lm -[RR];" in game.cgp(0)  # one tile exchanged, as the CGP says


def test_a_pass_or_an_exchange_of_other_tiles_reads_only_the_rack(tmp_path: Path) -> None:
    assert check(tmp_path, SPANISH + ">Ann: SERRANOS -SE +0 0\n") == [
        "4: warning: the rack SERRANOS holds 8 tiles as written; read as the rack "
        f"SE[RR]ANOS (7 tiles); {SPANISH_RR}"]
    assert check(tmp_path, SPANISH + ">Ann: CHAOSEN? - +0 0\n") == [
        "4: warning: the rack CHAOSEN? holds 8 tiles as written; read as the rack "
        f"[CH]AOSEN? (7 tiles); {SPANISH_CH}"]


def test_a_rack_line_typed_without_brackets_is_read_as_the_lines_racks_are(
        tmp_path: Path) -> None:
    """#rackN is a rack like a line's: the same slip is read the same way, so the rack
    line and the play made from it agree."""
    record = SPANISH + "#rack1 CHAOSEN?\n>Ann: CHAOSEN? 8G [CH]AO +14 14\n"
    assert check(tmp_path, record) == [
        "4: warning: the rack CHAOSEN? holds 8 tiles as written; read as the rack "
        f"[CH]AOSEN? (7 tiles); {SPANISH_CH}",
        "5: warning: 8G [CH]AO: the rack CHAOSEN? holds 8 tiles as written; read as the "
        f"rack [CH]AOSEN? (7 tiles), which holds the [CH] played; {SPANISH_CH}"]


def test_a_play_whose_rack_alone_is_typed_without_brackets_names_the_rack(
        tmp_path: Path) -> None:
    """[CH]AO is written right; the rack is what is read otherwise, and the warnings
    say so (not "read as [CH]AO", which is what the line says)."""
    wrong_score = SPANISH + ">Ann: CHAOSEN? 8G [CH]AO +0 0\n"
    assert check(tmp_path, wrong_score) == [
        "4: warning: rack CHAOSEN? holds 8 tiles; a rack holds at most 7",
        "4: warning: 8G [CH]AO is recorded as +0, but the board scores it +14",
        "4: warning: played tiles [CH] are not on the rack CHAOSEN?; read as the rack "
        f"[CH]AOSEN? (7 tiles), it holds them ({SPANISH_CH})"]
    assert check(tmp_path, SPANISH + ">Ann: CHAOSEN? 8G [CH]AO +14 14\n") == [
        "4: warning: 8G [CH]AO: the rack CHAOSEN? holds 8 tiles as written; read as the "
        f"rack [CH]AOSEN? (7 tiles), which holds the [CH] played; {SPANISH_CH}"]


# ---------------------------------------------------------------------------------------
# Catalan L·L typed otherwise

CATALAN = """\
#character-encoding UTF-8
#player1 Jordi Jordi Puigdomènech
#player2 Montse Montserrat Çaval·lí
#lexicon DISC
>Jordi: {rack} 8D {word} +40 40
>Montse: QUATRNE G4 QUATR. +13 13
>Jordi: SPLNYAO 5E PL.NYS +32 72
>Montse: NEFORÇA E7 F.RÇA +34 47
>Jordi: AOOIR?T H8 .ORI{blank}A +7 79
>Montse: NEIXAME 11G E.XAM +30 77
>Jordi: OTUNM?A 13D MUNT.nyA +8 87
"""


def catalan(rack: str, word: str, blank: str) -> str:
    return CATALAN.format(rack=rack, word=word, blank=blank)


def test_catalan_l_dot_l_with_a_full_stop_is_read_as_the_tile(tmp_path: Path) -> None:
    """The trial's c1: the '.' of COL.LEGI marks no tile on the board (G8 is empty),
    so it is the L·L typed with a full stop."""
    record = catalan("COL.LEGIS", "COL.LEGI", "l.l")
    assert check(tmp_path, record) == [
        "5: warning: 8D COL.LEGI: '.' marks a played-through tile at G8, but that square is "
        "empty; read as COL·LEGI from the rack COL·LEGIS (7 tiles), which scores +40, as "
        f"recorded; {CATALAN_LL}",
        "9: warning: H8 .ORIl.lA: '.' marks a played-through tile at H13, but that square is "
        f"empty; read as .ORIl·lA, which scores +7, as recorded; {CATALAN_LL}"]
    game = play(record)
    assert game.stopped_at is None and square(game, 0, "F8") == "L·L"


def test_a_full_stop_between_two_ls_still_plays_through_a_tile(tmp_path: Path) -> None:
    """'.' on a square that holds a tile is a played-through tile, in Catalan too; on an
    empty square in a set without L·L it is the error it was."""
    record = ("#character-encoding UTF-8\n#player1 a a\n#player2 b b\n#lexicon DISC\n"
              ">a: ALAEEEE 8G ALA +6 6\n>b: LLOEEEE G7 L.L +5 5\n")
    assert check(tmp_path, record) == []
    assert square(play(record), 1, "G8") == "A"
    english = "#player1 a a\n#player2 b b\n>a: LLAEEEE 8D L.L +4 4\n"
    assert check(tmp_path, english) == [
        "3: error: cannot place 8D L.L: '.' marks a played-through tile at E8, but that "
        "square is empty"]


def test_catalan_l_with_middle_dot_is_read_as_the_tile(tmp_path: Path) -> None:
    """The trial's c3: Unicode's Ŀ (U+013F) and an L is how Unicode writes L·L."""
    record = catalan("COĿLEGIS", "COĿLEGI", "ŀl")
    assert check(tmp_path, record) == [
        "5: warning: ĿL is read as the L·L tile, written L·L or [L·L]",
        "9: warning: ŀl is read as a blank L·L, written l·l or [l·l]"]
    game = play(record)
    assert game.stopped_at is None and square(game, 0, "F8") == "L·L"
    assert square(game, 4, "H12") == "l·l"


def test_l_with_middle_dot_is_named_once_for_the_record(tmp_path: Path) -> None:
    """A record typed with Ŀ writes it at line after line: one warning, at the first,
    says how many more lines do."""
    record = ("#character-encoding UTF-8\n#player1 a a\n#player2 b b\n#lexicon DISC\n"
              + ">a: COĿLEGIS - +0 0\n>b: AEIOUST - +0 0\n" * 2
              + ">a: COĿLEGIS 8D COĿLEGI +40 40\n")
    assert check(tmp_path, record) == [
        "5: warning: ĿL is read as the L·L tile, written L·L or [L·L] (here and at 2 more "
        "lines, to line 9)"]
    assert square(play(record), 4, "F8") == "L·L"


def test_catalan_l_dot_l_typed_with_a_hyphen_or_a_bullet_is_read_as_the_tile(
        tmp_path: Path) -> None:
    for dot in "-•":
        record = catalan(f"COL{dot}LEGIS", f"COL{dot}LEGI", "l·l")
        assert check(tmp_path, record) == [
            f"5: warning: L{dot}L is read as the L·L tile, written L·L or [L·L]"]
        game = play(record)
        assert game.stopped_at is None and square(game, 0, "F8") == "L·L"


def test_a_character_for_l_dot_l_that_is_no_tile_says_how_to_write_it(
        tmp_path: Path) -> None:
    record = "#character-encoding UTF-8\n#player1 a a\n#player2 b b\n#lexicon DISC\n"
    assert check(tmp_path, record + ">a: COĿEGIS 8D COĿEGI +40 40\n")[-1] == (
        "5: error: cannot place 8D COĿEGI: 'Ŀ' is not a tile of the catalan set (the L·L "
        "tile is written L·L or [L·L])")
    assert check(tmp_path, record + ">a: QUATRNE G4 Q|U|A|T|R +13 13\n") == [
        "5: error: cannot place G4 Q|U|A|T|R: 'Q' is not a tile of the catalan set (Q is "
        "only part of the QU tile)"]


def test_catalan_ll_is_read_as_l_dot_l_when_the_rack_says_so(tmp_path: Path) -> None:
    """The trial's c4: COLLEGIS is eight tiles, COL·LEGIS seven, and COL·LEGI scores the
    +40 recorded; .ORIllA is two blanks from a rack of one, .ORIl·lA one."""
    record = catalan("COLLEGIS", "COLLEGI", "ll")
    assert check(tmp_path, record) == [
        "5: warning: 8D COLLEGI: L and L played as two tiles; read as COL·LEGI from the rack "
        f"COL·LEGIS (7 tiles), which scores +40, as recorded; {CATALAN_LL}",
        f"9: warning: H8 .ORIllA: l and l played as two tiles; read as .ORIl·lA, which fits "
        f"the rack; {CATALAN_LL}"]


def test_catalan_ll_beside_an_l_is_not_read_as_one_of_its_two_readings(
        tmp_path: Path) -> None:
    """ALLL is A L·L L or A L L·L: both fit the rack and score +13, so neither is
    chosen (nor the first pair found)."""
    record = ("#character-encoding UTF-8\n#player1 a a\n#player2 b b\n#lexicon DISC\n"
              ">a: ALL·LIIII 8D ALLL +13 13\n")
    assert check(tmp_path, record) == [
        "5: warning: 8D ALLL is recorded as +13, but the board scores it +5",
        "5: warning: the first play does not cover the centre square",
        "5: warning: played tiles LL are not on the rack AL[L·L]IIII"]


def test_a_catalan_rack_typed_with_ll_is_read_when_it_holds_too_many(
        tmp_path: Path) -> None:
    """COLLEGIS is eight tiles and lacks the L·L played: the rack says L·L, as for
    Spanish CH."""
    record = ("#character-encoding UTF-8\n#player1 a a\n#player2 b b\n#lexicon DISC\n"
              ">a: COLLEGIS 8D COL·LEGI +40 40\n")
    assert check(tmp_path, record) == [
        "5: warning: 8D COL·LEGI: the rack COLLEGIS holds 8 tiles as written; read as the "
        f"rack COL·LEGIS (7 tiles), which holds the [L·L] played; {CATALAN_LL}"]
    assert play(record).turns[0].rack == tuple("CO") + ("L·L",) + tuple("EGIS")


def test_catalan_ll_is_kept_when_only_the_score_says_otherwise(tmp_path: Path) -> None:
    """LL is two L tiles in Catalan as well (CAVALL): a score that L·L would explain is
    not enough to read it so, but the warning says what would agree."""
    head = "#player1 a a\n#player2 b b\n#lexicon DISC\n"
    assert check(tmp_path, head + ">a: ALLAEEE 8G ALLA +8 8\n") == []
    assert check(tmp_path, head + ">a: COLLEGI 8D COLLEGI +40 40\n") == [
        "4: warning: 8D COLLEGI is recorded as +40, but the board scores it +74; read as "
        f"COL·LEGI, it scores +40 ({CATALAN_LL})"]


# ---------------------------------------------------------------------------------------
# Any slip on a right line: read as meant or as written, and the warning's advice holds

_TILES = {"FISE2": ["A", "E", "O", "S", "C", "H", "L", "R", "CH", "LL", "RR"],
          "DISC": ["A", "E", "O", "S", "L", "L·L"]}
_SLIPS = {"FISE2": [("[CH]", "CH"), ("[LL]", "LL"), ("[RR]", "RR"), ("[ch]", "[CH]"),
                    ("[rr]", "[RR]"), ("[CH]", "[ch]"), ("[LL]", "[Ll]"), ("a", "A"),
                    ("e", "E")],
          "DISC": [("L·L", "LL"), ("L·L", "L.L"), ("L·L", "ĿL"), ("L·L", "L-L"),
                   ("L·L", "L•L"), ("l·l", "ll"), ("l·l", "ŀl"), ("l·l", "L·L"),
                   ("L·L", "l·l"), ("a", "A")]}


def _spanish_split(letters: str) -> list[str]:
    tiles = []
    i = 0
    while i < len(letters):
        size = 2 if letters[i:i + 2] in ("CH", "LL", "RR") else 1
        tiles.append(letters[i:i + size])
        i += size
    return tiles


@st.composite
def _slipped_lines(draw: st.DrawFn) -> tuple[str, list[str], str, str, str]:
    """A set, a play as meant (its tiles, on a rack that holds them), and its rack and
    word as typed with one slip of the kinds pgm reads (in the word or the rack)."""
    lexicon = draw(st.sampled_from(sorted(_TILES)))
    meant = draw(st.lists(st.sampled_from(_TILES[lexicon]), min_size=2, max_size=7))
    # in Spanish a C beside an H is the CH tile, left to right (L LL is typed as LL L)
    assume(lexicon != "FISE2" or _spanish_split("".join(meant)) == meant)
    blanks = draw(st.lists(st.booleans(), min_size=len(meant), max_size=len(meant)))
    meant = [tile.lower() if blank else tile for tile, blank in zip(meant, blanks, strict=True)]
    rack = [RACK_LABELS[tile] for tile in meant] + ["I"] * (7 - len(meant))
    codec = play(f"#lexicon {lexicon}\n").rules.codec
    word, rack_text = codec.write(meant), codec.write(rack)
    slips = [(where, wrong, right) for wrong, right in _SLIPS[lexicon]
             for where in ("word", "rack") if wrong in (word if where == "word" else rack_text)]
    where, wrong, right = draw(st.sampled_from(slips or [("word", "", "")]))
    if where == "word":
        word = word.replace(wrong, right, 1)
    else:
        rack_text = rack_text.replace(wrong, right, 1)
    return lexicon, meant, codec.write(rack), rack_text, word


@settings(max_examples=400, deadline=None)
@given(_slipped_lines())
@example(("DISC", ["A", "L", "L·L"], "ALL·LIIII", "ALL·LIIII", "ALLL"))
@example(("DISC", ["l", "l", "L·L"], "??L·LIIII", "??LLIIII", "llL·L"))
def test_a_slip_is_read_as_meant_or_kept_and_the_advice_holds(
        line: tuple[str, list[str], str, str, str]) -> None:
    """A play typed with one slip and the score it scores as meant: pgm puts down what
    was meant or what is written (never a third reading), or stops at the line with an
    error; a play read as meant has a warning that names it; and the line written as
    pgm read it is taken as written, with no warning that reads it otherwise."""
    lexicon, meant, right_rack, rack, word = line
    head = f"#character-encoding UTF-8\n#player1 a a\n#player2 b b\n#lexicon {lexicon}\n"
    codec = play(head).rules.codec
    score = play(f"{head}>a: {right_rack} 8D {codec.write(meant)} +0 0\n").turns[0] \
        .computed_score
    game = play(f"{head}>a: {rack} 8D {word} {score:+d} {score}\n")
    if not game.turns:
        assert any(d.line == 5 and d.severity.value == "error" for d in game.diagnostics)
        return
    turn = game.turns[0]
    tiles = [tile.label for tile in turn.placed]
    written = codec.split(word, allow=".")
    kept = [label if label in (label.upper(), label.lower()) else label.lower()
            for label in written]  # a tile in both cases that nothing decides: a blank
    assert tiles in (meant, written, kept)
    if tiles == meant != written:
        assert any(f"read as {codec.write(meant)}" in d.message for d in game.diagnostics)
    played = Counter(RACK_LABELS[label] for label in tiles)
    if turn.computed_score != score or turn.rack is None or played - Counter(turn.rack):
        return
    again = play(f"{head}>a: {codec.write(turn.rack)} 8D {codec.write(tiles)} {score:+d} "
                 f"{score}\n")
    assert [tile.label for tile in again.turns[0].placed] == tiles
    assert not [d.message for d in again.diagnostics if "read as" in d.message]



_PIECES = st.sampled_from(["A", "E", "O", "C", "H", "L", "R", "c", "h", "l", "r", "·", ".",
                           "Ŀ", "ŀ", "-", "?", "[", "]", "|", "[CH]", "[ch]", "L·L", "l·l"])
_TYPED = st.lists(_PIECES, min_size=1, max_size=7).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["FISE2", "DISC"]), _TYPED, _TYPED | st.just("UNKNOWN"),
       st.integers(-5, 60))
def test_any_line_replays_and_is_never_read_otherwise_in_silence(
        lexicon: str, word: str, rack: str, score: int) -> None:
    """The fuzz of the readings: whatever the line, the replay does not raise; and when
    the board shows other tiles than the line writes, a warning at that line says how
    it was read."""
    game = play(f"#character-encoding UTF-8\n#player1 a a\n#player2 b b\n#lexicon {lexicon}\n"
                f">a: {rack} 8D {word} {score:+d} {score}\n")
    if not game.turns:
        return
    tiles = [tile.label for tile in game.turns[0].placed]
    written = [label for label in game.rules.codec.split(word, allow=".") if label != "."]
    if tiles != written:
        assert any(d.line == 5 and "read as" in d.message for d in game.diagnostics)


def test_the_pages_show_a_rack_typed_without_brackets_as_it_is_read() -> None:
    """The score sheet, the turn page and the racks of each position show the racks as
    the warnings say they are read (game.json and moves.csv keep the line as written):
    the #rackN lines and the lines made from them agree, and Ann's leave is ?ENS, not
    C, H and the rest."""
    record = (SPANISH + "#rack1 CHAOSEN?\n>Ann: CHAOSEN? 8G [CH]AO +14 14\n"
              "#rack2 SERRANOS\n>Bob: SERRANOS -RR +0 0\n")
    game = play(record)
    assert [row.rack for row in score_sheet(game, {})] == ["[CH]AOSEN?", "SE[RR]ANOS"]
    assert [tile_text(turn.rack) for turn in game.turns] == ["[CH]AOSEN?", "SE[RR]ANOS"]
    assert [tile_text(rack) for rack in game.start.racks] == ["[CH]AOSEN?", "SE[RR]ANOS"]
    assert game.turns[0].position.racks[0] == tuple("?ENS")
    assert [turn.event.rack for turn in game.turns] == ["CHAOSEN?", "SERRANOS"]

"""The end of a Gungi game: checkmate, the foul-play checkmates that do not end it, the
same position four times, the Result tag against them, plies after the end, and the
pages that say so. Records here are built from the empty board, as a writer would."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from sitehelpers import make_event, run_build, text_of
from test_gungi import CORPUS, CORPUS_FILES, play, setup

from pgm import gungi
from pgm.diagnostics import Severity
from pgm.gn_moves import Move, MoveKind, Spot
from pgm.gungi_describe import describe
from pgm.gungi_ending import EndKind, position_key
from pgm.gungi_escape import _safe, can_escape, candidates
from pgm.gungi_pages import gungi_entry_fields
from pgm.gungi_plies import Refusal, apply
from pgm.gungi_position import Hand, Position, col_of, row_of
from pgm.gungi_rules import in_check, reach_problem
from pgm.gungi_units import CODES, IMMOBILE, Colour, Face, Unit

# -- a checkmate played from the empty board -------------------------------------------------

ARRANGEMENT = """\
1. PZ*0-6-0 PZ*0-0-0 2. PZ*1-6-0 O-*0-0-1 3. PZ*2-6-0 PZ*1-0-0 4. PZ*3-6-0 BA*1-0-1
5. PZ*4-6-0 CI*1-0-2 6. PZ*5-6-0 SE*0-1-0 7. PZ*6-7-0 BA*0-1-1 8. PV*7-7-0 CI*0-1-2
9. PG*8-6-0 PZ*2-0-0 10. RX*8-8-0 PZ*3-0-0 11. O-*4-8-0 PZ*4-0-0 12. HK*0-8-0 PZ*5-0-0
13. FL*2-8-0 PZ*6-0-0 14. TL*3-8-0 PV*7-0-0 15. BA*0-7-0 PG*8-0-0 16. BA*1-7-0 RX*2-0-1
17. YN*2-7-0 HK*3-0-1 18. YN*3-7-0 FL*8-1-0 19. YN*4-7-0 TL*7-1-0 20. SE*5-7-0 YN*4-0-1
21. SE*5-8-0 YN*5-0-1 22. CI*6-8-0 YN*6-0-1 23. CI*7-8-0 SE*8-0-1
"""
"""White's Commander sits on its Pawn in the corner 0-0, between two full towers of its
own; Black's Prodigy on 8-8 looks down the long diagonal, closed only by Black's Pawn on
7-7."""
MATE = "24. PV<7-7-0>7-6-0\n"
"""Ply 47 (line 8 under a Result tag): the Pawn steps aside, and nothing White has can
stop the Prodigy, capture it, or take the Commander away."""


def mate_record(result: str | None, after: str = "") -> str:
    header = f'[Result "{result}"]\n' if result is not None else ""
    return header + ARRANGEMENT + MATE + after


def warnings(game: gungi.GungiReplay) -> list[str]:
    assert [d for d in game.diagnostics if d.severity is Severity.ERROR] == []
    return [str(d) for d in game.diagnostics if d.severity is Severity.WARNING]


def test_a_discovered_checkmate_ends_the_game() -> None:
    game = gungi.load(mate_record("0 - 1"), "m.gn")
    assert warnings(game) == []
    assert game.end is not None
    assert (game.end.ply, game.end.line, game.end.kind, game.end.winner) == (
        47, 8, EndKind.CHECKMATE, Colour.BLACK)
    assert game.overruled is None and game.first_end is game.end
    assert game.final.in_check == {Colour.WHITE} and not can_escape(game.final)
    ply = game.record.plies[46]
    assert describe(ply, game.before(46), game.final, game.end) == (
        "Black's Pawn moves from 7-7 to 7-6, tier 0; White is in check; checkmate: Black wins")
    fields = gungi_entry_fields(game)
    assert (fields["live"], fields["status"], fields["result_by_seat"]) == (
        False, "Black wins by checkmate", ("W", "L"))


@pytest.mark.parametrize(("result", "message"), [
    ("*", 'Result "*", but Black checkmates White with ply 47 (line 8): the game is over, '
          'and its result is "0 - 1"'),
    ("1 - 0", 'Result "1 - 0" disagrees with the game: Black checkmates White with ply 47 '
              '(line 8), so it should be "0 - 1"'),
    ("1/2 - 1/2", 'Result "1/2 - 1/2" disagrees with the game: Black checkmates White with '
                  'ply 47 (line 8), so it should be "0 - 1"'),
])  # fmt: skip
def test_a_result_that_contradicts_the_checkmate_is_a_warning(result: str, message: str) -> None:
    game = gungi.load(mate_record(result), "m.gn")
    assert warnings(game) == [f"m.gn:1:1: warning: {message}"]
    assert game.end is not None and game.end.winner is Colour.BLACK
    assert gungi_entry_fields(game)["live"] is False


def test_without_a_result_tag_the_checkmate_is_not_compared() -> None:
    game = gungi.load(mate_record(None), "m.gn")
    assert warnings(game) == [] and game.end is not None
    assert gungi_entry_fields(game)["status"] == "Black wins by checkmate"


def test_plies_after_checkmate_are_one_warning_and_are_replayed() -> None:
    after = "25... YN<4-0-1>3-2-0 PZ<0-6-0>0-5-0\n26... YN<5-0-1>4-2-0\n"
    game = gungi.load(mate_record("0 - 1", after), "m.gn")
    late = [w for w in warnings(game) if "after the game ended" in w]
    assert late == [
        "m.gn:9:7: warning: YN<4-0-1>3-2-0: played after the game ended with ply 47 "
        "(checkmate: Black wins), and so are the 2 plies after it (to line 10)"]
    assert len(game.positions) == 50 and game.end is not None and game.end.ply == 47
    assert game.end.kind is EndKind.CHECKMATE and game.overruled is None
    assert gungi_entry_fields(game)["status"] == "Black wins by checkmate"
    # the record's own warnings on those plies stay: White never got out of check
    assert sum("White is still in check" in w for w in warnings(game)) == 2


# -- foul play: checkmates that do not end the game -----------------------------------------

PAWN_BOX = {"8-8": "b:O-", "0-0": "w:O-", "1-0": "w:PZ w:GP w:BA", "1-1": "w:VP w:CI w:BA",
            "0-2": "b:GP"}
"""White's Commander in the corner, full towers of its own beside it; Black's Gold guards
0-1, where a unit dropped checks."""
BRONZE_BOX = {"8-8": "b:O-", "0-0": "w:O-", "0-1": "w:PZ w:GP w:BA", "1-1": "w:VP w:CI w:BA",
              "2-1": "b:GP"}
"""As above, with 1-0 open and guarded by Black's Gold on 2-1."""


@pytest.mark.parametrize(("placed", "hand", "movetext", "foul"), [
    (PAWN_BOX, {"PZ": 1}, "1. PZ*0-1-0", "a checkmate by a Pawn drop"),
    (PAWN_BOX, {"GP": 1}, "1. GP*0-1-0", None),
    ({**BRONZE_BOX, "2-0": "b:ZP"}, {}, "1. ZP<2-0-0>1-0-0", "a checkmate with a Bronze"),
    ({**BRONZE_BOX, "2-0": "b:VP"}, {}, "1. VP<2-0-0>1-0-0", None),
])  # fmt: skip
def test_pawn_drop_and_bronze_checkmates_are_foul_play(
    placed: dict[str, str], hand: dict[str, int], movetext: str, foul: str | None
) -> None:
    game = play('[Result "0 - 1"]\n' + movetext, setup(placed, black=hand))
    assert game.final.in_check == {Colour.WHITE} and not can_escape(game.final)
    if foul is None:
        assert warnings(game) == []
        assert game.end is not None and game.end.kind is EndKind.CHECKMATE
    else:
        assert warnings(game) == [
            f"t.gn:2:4: warning: {movetext[3:]}: White is in check and no ply ends it, but "
            f"{foul} is foul play, so this checkmate does not end the game"]
        assert game.end is None


# -- a Commander captured after the end pgm found ------------------------------------------

CAPTURE_AFTER_MATE = "1. GP*0-1-0 PZ<2-6-0>2-7-0 2. O-<8-8-0>7-7-0 PZ<7-6-0>7-7-0"
"""Black's Gold drop mates White (ply 1); the record plays on, Black's Commander steps
next to White's Pawn on 7-6, and the Pawn takes it (ply 4)."""
CAPTURE_START = setup({**PAWN_BOX, "7-6": "w:PZ", "2-6": "w:PZ"}, black={"GP": 1})
LATE_AFTER_MATE = ("t.gn:2:13: warning: PZ<2-6-0>2-7-0: played after the game ended with ply 1 "
                   "(checkmate: Black wins), and so are the 2 plies after it (to line 2)")


def result_problems(game: gungi.GungiReplay) -> list[tuple[Severity, str]]:
    return [(d.severity, d.message) for d in game.diagnostics if d.line == 1]


@pytest.mark.parametrize(("result", "problems", "status", "seats"), [
    ("0 - 1", [(Severity.ERROR,
                'Result "0 - 1" disagrees with the game: White captured the Commander with '
                'ply 4 (line 2), so it should be "1 - 0"; the capture decides the game, even '
                'after Black checkmates White with ply 1 (line 2)')],
     "White wins", ("L", "W")),  # the capture decides, as the error says
    ("1 - 0", [], "White wins", ("L", "W")),
    ("*", [(Severity.WARNING,
            'Result "*", but White captured the Commander with ply 4 (line 2): the game is '
            'over, and its result is "1 - 0"')],
     "White wins", ("L", "W")),
])  # fmt: skip
def test_a_commander_captured_after_a_checkmate_decides_the_game(
    result: str, problems: list[tuple[Severity, str]], status: str, seats: tuple[str, str]
) -> None:
    game = play(f'[Result "{result}"]\n' + CAPTURE_AFTER_MATE, CAPTURE_START)
    assert game.stopped_at is None and game.final.winner is Colour.WHITE
    assert game.end is not None and game.overruled is not None
    assert (game.end.ply, game.end.kind, game.end.winner) == (
        4, EndKind.COMMANDER_CAPTURED, Colour.WHITE)
    assert (game.overruled.ply, game.overruled.kind, game.overruled.winner) == (
        1, EndKind.CHECKMATE, Colour.BLACK)
    assert game.first_end is game.overruled
    assert result_problems(game) == problems
    # the plies after the checkmate are still one warning, naming it
    assert [str(d) for d in game.diagnostics if "after the game ended" in d.message] == [
        LATE_AFTER_MATE]
    fields = gungi_entry_fields(game)
    assert (fields["live"], fields["status"], fields["result_by_seat"]) == (
        False, status, seats)


def test_a_commander_captured_after_a_repetition_decides_the_game() -> None:
    start = setup({"8-8": "b:O-", "0-0": "w:O-", "0-3": "b:GP"})
    cycle = "{}. GP<0-3-0>0-2-0 O-<0-0-0>1-0-0 {}. GP<0-2-0>0-3-0 O-<1-0-0>0-0-0\n"
    moves = "".join(cycle.format(2 * n + 1, 2 * n + 2) for n in range(3))
    moves += "7. GP<0-3-0>0-2-0 O-<0-0-0>0-1-0 8. GP<0-2-0x0-1-0\n"
    drawn = play('[Result "1/2 - 1/2"]\n' + moves, start)
    assert drawn.overruled is not None and drawn.overruled.kind is EndKind.REPETITION
    assert drawn.end is not None and (drawn.end.ply, drawn.end.winner) == (15, Colour.BLACK)
    assert result_problems(drawn) == [(
        Severity.ERROR,
        'Result "1/2 - 1/2" disagrees with the game: Black captured the Commander with ply 15 '
        '(line 5), so it should be "0 - 1"; the capture decides the game, even after the '
        'position after ply 12 (line 4) occurs for the fourth time, a draw by repetition')]
    assert any("played after the game ended with ply 12 (draw by repetition), and so are "
               "the 2 plies after it" in d.message for d in drawn.diagnostics)
    won = play('[Result "0 - 1"]\n' + moves, start)
    assert result_problems(won) == []
    assert gungi_entry_fields(won)["status"] == "Black wins"


# -- ways out of check -----------------------------------------------------------------------

FILE_BOX = {"8-8": "b:O-", "4-0": "w:O-", "3-0": "w:PZ w:GP w:ZP", "5-0": "w:PZ w:GP w:ZP",
            "3-1": "w:PZ w:GP w:BA", "5-1": "w:PZ w:GP w:BA", "4-5": "b:HK"}
"""White's Commander on 4-0 between full towers, checked down the open file 4."""
JUMP_BOX = {"8-8": "b:O-", "4-0": "w:O-", "3-0": "w:PZ w:GP w:ZP", "5-0": "w:PZ w:GP w:ZP",
            "3-1": "w:PZ w:GP w:ZP", "5-1": "w:PZ w:GP w:ZP", "4-1": "w:PZ w:GP w:ZP",
            "4-2": "b:BA"}
"""White's Commander walled in; Black's Bow on 4-2 jumps over 4-1 to reach it."""


@pytest.mark.parametrize(("placed", "hand", "ways_out"), [
    (FILE_BOX, {}, []),
    (FILE_BOX, {"GP": 1}, ["GP*4-1-0", "GP*4-2-0", "GP*4-3-0", "GP*4-4-0"]),
    # the Samurai may take its Commander's place, or step into the file
    ({**FILE_BOX, "3-0": "w:PZ w:GP w:SE"}, {}, ["SE<3-0-2&4-0-0", "SE<3-0-2>4-1-0"]),
    ({**FILE_BOX, "1-5": "w:RX"}, {}, ["RX<1-5-0>4-2-0"]),
    (JUMP_BOX, {}, []),
    # a Catapult's zone covers 4-1, and the Bow may not jump an enemy unit inside it
    (JUMP_BOX, {"TL": 1}, ["TL*2-1-0", "TL*6-1-0", "TL*3-2-0", "TL*5-2-0", "TL*4-3-0"]),
    (JUMP_BOX, {"FL": 1}, []),  # a Fortress's zone only runs ahead of it
])  # fmt: skip
def test_ways_out_of_check(placed: dict[str, str], hand: dict[str, int],
                           ways_out: list[str]) -> None:
    position = checked(setup(placed, white=hand, to_move=Colour.WHITE))
    assert position.in_check == {Colour.WHITE}
    found = [_token(m) for m in candidates(position)
             if not isinstance(apply(position, m), Refusal) and _safe(apply(position, m),
                                                                      Colour.WHITE)]
    assert sorted(found) == sorted(ways_out)
    assert can_escape(position) is bool(ways_out)


def checked(position: Position) -> Position:
    return dataclasses.replace(position, in_check=in_check(position))


def _token(move: Move) -> str:
    if move.kind is MoveKind.DROP:
        return f"{move.code}*{move.target}"
    if move.kind is MoveKind.SUBSTITUTION:
        return f"{move.code}<{move.source}&{move.target}"
    return f"{move.code}<{move.source}>{move.target.square_name}-{move.target.tier}"


def _every_ply_escapes(position: Position) -> bool:
    """Try every ply of the side to move on every square: slow, and sure."""

    def spot(square: int, tier: int) -> Spot:
        return Spot(col_of(square), row_of(square), tier)

    mover, moves = position.to_move, list[Move]()
    for square, tower in position.occupied():
        for tier, unit in enumerate(tower):
            if unit.colour is not mover:
                continue
            moves += [Move(MoveKind.IMMOBILE_STRIKE, unit.code, spot(square, t), spot(square, tier))
                      for t in (tier - 1, tier + 1) if 0 <= t < 3]
            if tier != len(tower) - 1:
                continue
            for target in range(81):
                height = len(position.towers[target])
                for landing in {height - 1, height} - {-1, 3}:
                    moves.append(Move(MoveKind.MOVE, unit.code, spot(target, landing),
                                      spot(square, tier)))
                    moves.append(Move(MoveKind.SUBSTITUTION, unit.code, spot(target, landing),
                                      spot(square, tier)))
    for code, _ in position.hand(mover).counts:
        moves += [Move(MoveKind.DROP, code, spot(sq, len(position.towers[sq])))
                  for sq in range(81) if len(position.towers[sq]) < 3]
    for move in moves:
        after = apply(position, move)
        if isinstance(after, Refusal):
            continue
        if move.kind is MoveKind.MOVE and move.source and reach_problem(
                position, move.source.square, move.source.tier, move.target.square):
            continue
        if _safe(after, mover):
            return True
    return False


def _random_check(rng: random.Random) -> Position:
    """White's Commander, often in a corner or on an edge, among many Black units."""
    towers: list[list[Unit]] = [[] for _ in range(81)]
    towers[rng.choice([0, 8, 4, 36, 44]) if rng.random() < 0.7 else rng.randrange(81)] = [
        Unit.of("O-", Colour.WHITE)]
    towers[next(sq for sq in range(80, -1, -1) if not towers[sq])] = [Unit.of("O-", Colour.BLACK)]
    codes = [c for c in CODES if c != "O-"]
    for _ in range(rng.randint(6, 22)):
        tower = towers[rng.randrange(81)]
        colour = Colour.WHITE if rng.random() < 0.3 else Colour.BLACK
        unit = Unit.of(rng.choice(codes), colour)
        if (len(tower) < 3 and not (tower and tower[-1].face is Face.COMMANDER)
                and not (tower and unit.face in IMMOBILE)
                and not any(u.colour is colour and u.face is unit.face for u in tower)):
            tower.append(unit)
    hand = Hand()
    for _ in range(rng.randint(0, 3)):
        hand = hand.add(rng.choice(codes))
    position = Position(tuple(tuple(t) for t in towers), (Hand(), hand), Colour.WHITE,
                        arrangement_over=True)
    return checked(position)


def test_the_search_agrees_with_trying_every_ply() -> None:
    """can_escape tries few drops and generates moves from the move sets; trying every
    ply on every square must find a way out exactly when it does."""
    rng, tried, mates = random.Random(7), 0, 0
    while tried < 120:
        position = _random_check(rng)
        if Colour.WHITE not in position.in_check:
            continue
        tried += 1
        escapes = can_escape(position)
        assert escapes is _every_ply_escapes(position), position
        mates += not escapes
    assert mates >= 3


# -- repetition ------------------------------------------------------------------------------

SHUFFLE = ("{}. O-<4-8-0>3-7-0 O-<4-0-0>3-1-0\n"
           "{}. O-<3-7-0>4-8-0 O-<3-1-0>4-0-0\n")
"""Both Commanders step out and back: the position after the arrangement comes again
after every second group."""
START = (CORPUS / "hkpeprah+gungi__initial_arrangement.gn").read_text("utf-8")


def repetition_record(cycles: int, result: str = "*", after: str = "") -> str:
    text = START.replace('[Result "*"]', f'[Result "{result}"]')
    moves = "".join(SHUFFLE.format(24 + 2 * n, 25 + 2 * n) for n in range(cycles))
    return text.rstrip("\n") + "\n" + moves + after


def test_the_fourth_occurrence_of_a_position_is_a_draw() -> None:
    three = gungi.load(repetition_record(2), "r.gn")
    assert three.end is None and warnings(three) == []
    four = gungi.load(repetition_record(3, "1/2 - 1/2"), "r.gn")
    assert warnings(four) == []
    assert four.end is not None
    assert (four.end.ply, four.end.line, four.end.kind, four.end.winner) == (
        58, 13, EndKind.REPETITION, None)
    fields = gungi_entry_fields(four)
    assert (fields["live"], fields["status"], fields["result_by_seat"]) == (
        False, "draw by repetition", ("T", "T"))


def test_repetition_against_the_result_and_plies_after_it() -> None:
    game = gungi.load(repetition_record(3, "*", "30. O-<4-8-0>3-7-0\n"), "r.gn")
    assert warnings(game) == [
        'r.gn:6:1: warning: Result "*", but the position after ply 58 (line 13) occurs for '
        'the fourth time, a draw by repetition: the game is over, and its result is '
        '"1/2 - 1/2"',
        "r.gn:14:5: warning: O-<4-8-0>3-7-0: played after the game ended with ply 58 (draw "
        "by repetition)"]
    won = gungi.load(repetition_record(3, "1 - 0"), "r.gn")
    assert [w.split(": ", 2)[2] for w in warnings(won)] == [
        'Result "1 - 0" disagrees with the game: the position after ply 58 (line 13) occurs '
        'for the fourth time, a draw by repetition, so it should be "1/2 - 1/2"']
    assert gungi_entry_fields(won)["status"] == "White wins"  # the record's word stands


def test_a_position_is_towers_owners_hands_and_side_to_move() -> None:
    position = setup({"8-8": "b:O-", "0-0": "w:O-", "4-4": "b:PZ w:YN"}, black={"PZ": 1})
    same = setup({"8-8": "b:O-", "0-0": "w:O-", "4-4": "b:PZ w:YN"}, black={"PZ": 1})
    assert position_key(position) == position_key(same)
    others = [
        setup({"8-8": "b:O-", "0-0": "w:O-", "4-4": "b:PZ b:YN"}, black={"PZ": 1}),
        setup({"8-8": "b:O-", "0-0": "w:O-", "4-4": "b:PZ w:YN"}, white={"PZ": 1}),
        setup({"8-8": "b:O-", "0-0": "w:O-", "4-4": "b:PZ w:YN"}, black={"PZ": 1},
              to_move=Colour.WHITE),
        setup({"8-8": "b:O-", "0-0": "w:O-", "4-4": "b:PZ w:YN"}, black={"ZP": 1}),
    ]
    assert len({position_key(p) for p in [position, *others]}) == 5
    there_and_back = "{}. O-<8-8-0>7-8-0 O-<0-0-0>1-0-0 {}. O-<7-8-0>8-8-0 O-<1-0-0>0-0-0\n"
    game = play("".join(there_and_back.format(2 * n + 1, 2 * n + 2) for n in range(3)),
                position)
    assert game.end is not None and game.end.ply == 12  # a set-up start counts once


# -- the corpus ------------------------------------------------------------------------------

CORPUS_ENDS = {
    "authored__1_commander_capture": (EndKind.COMMANDER_CAPTURED, 49, Colour.BLACK),
    "hkpeprah+gungi__scenario_two": (EndKind.CHECKMATE, 46, Colour.WHITE),
}
"""scenario_two is the reference engine's "Turn One White Checkmate" (Result "1 - 0"):
Black is in double check when the arrangement ends. scenario_one's checkmate after 45
drops is the engine's alone (check is only looked for once all 46 units are placed)."""


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
def test_corpus_records_end_only_where_they_do(path: Path) -> None:
    game = gungi.load(path.read_bytes(), path.name)
    expected = CORPUS_ENDS.get(path.stem)
    found = game.end and (game.end.kind, game.end.ply, game.end.winner)
    assert found == expected
    for diagnostic in game.diagnostics:
        assert "checkmate" not in diagnostic.message
        assert "repetition" not in diagnostic.message
        assert "after the game ended" not in diagnostic.message


# -- pages -----------------------------------------------------------------------------------


def test_the_pages_say_checkmate_and_the_result_warning(tmp_path: Path) -> None:
    event = make_event(tmp_path / "ev", {
        "mate.gn": mate_record("*").encode(), "right.gn": mate_record("0 - 1").encode()})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output
    assert ('mate.gn:1:1: warning: Result "*", but Black checkmates White with ply 47 '
            "(line 8)") in result.output
    folder = tmp_path / "o/mate"
    html = (folder / "47.html").read_text()
    page = text_of(html)
    assert ("Black's Pawn moves from 7-7 to 7-6, tier 0; White is in check; checkmate: "
            "Black wins") in page
    assert "Checkmate: White is in check and no ply ends it. Black wins." in page
    assert '<span class="badge">to move</span>' not in html  # nobody is, the game is over
    assert '<span class="badge check">in check</span>' in html
    assert "Result * (not filled in)" in page
    overview = (folder / "index.html").read_text()
    assert "Checkmate: White is in check and no ply ends it. Black wins." in text_of(overview)
    assert 'Line 1: warning: Result "*", but Black checkmates White' in text_of(overview)
    assert "data-live" not in overview
    index = text_of((tmp_path / "o/index.html").read_text())
    assert index.count("Black wins by checkmate 47") == 2
    data = json.loads((folder / "game.json").read_text())
    assert data["end"] == {"ply": 47, "line": 8, "kind": "checkmate", "winner": "black"}
    assert data["live"] is False
    strict = run_build(str(make_event(tmp_path / "ok", {"g.gn": mate_record("0 - 1")
                                                        .encode()})),
                       "-o", str(tmp_path / "o2"), "--strict")
    assert strict.exit_code == 0, strict.output


def test_the_pages_say_checkmate_then_the_capture_after_it(tmp_path: Path) -> None:
    record = mate_record("*", "25... YN<4-0-1>3-2-0 RX<8-8-0x0-0-1\n").encode()
    event = make_event(tmp_path / "ev", {"m.gn": record})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output
    assert ('m.gn:1:1: warning: Result "*", but Black captured the Commander with ply 49 '
            '(line 9): the game is over, and its result is "0 - 1"') in result.output
    folder = tmp_path / "o/m"
    mate = text_of((folder / "47.html").read_text())
    assert "Checkmate: White is in check and no ply ends it. Black wins." in mate
    late = text_of((folder / "48.html").read_text())
    assert "The game ended with ply 47 (checkmate: Black wins); the record goes on." in late
    assert "played after the game ended with ply 47" in late
    assert "Black captured the Commander and wins." in text_of((folder / "49.html").read_text())
    overview = text_of((folder / "index.html").read_text())
    assert "Black captured the Commander and wins." in overview
    data = json.loads((folder / "game.json").read_text())
    assert data["end"] == {"ply": 49, "line": 9, "kind": "commander_captured",
                           "winner": "black"}
    index = text_of((tmp_path / "o/index.html").read_text())
    assert "Black wins 49" in index and "by checkmate" not in index


def test_the_pages_say_draw_by_repetition(tmp_path: Path) -> None:
    record = repetition_record(3, "1/2 - 1/2", "30. O-<4-8-0>3-7-0\n").encode()
    event = make_event(tmp_path / "ev", {"r.gn": record})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    folder = tmp_path / "o/r"
    page = text_of((folder / "58.html").read_text())
    assert "; draw by repetition" in page
    assert ("Draw by repetition: this position (the same towers, hands and side to move) "
            "occurs for the fourth time.") in page
    late = text_of((folder / "59.html").read_text())
    assert "The game ended with ply 58 (draw by repetition); the record goes on." in late
    assert "played after the game ended with ply 58" in late
    assert "draw by repetition" in text_of((tmp_path / "o/index.html").read_text())

"""Gungi replay: the corpus against its expected final positions, each move form, the
part-A errors, the part-B warnings, descriptions, the JSON report, and fuzzing."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pgm import gn, gungi
from pgm.config import GameSettings
from pgm.diagnostics import Severity
from pgm.discover import Source
from pgm.games import load_game
from pgm.gn_moves import Move, MoveKind, parse_token
from pgm.gungi_describe import describe
from pgm.gungi_pages import gungi_entry_fields
from pgm.gungi_position import Hand, Position, col_of, row_of, square_of
from pgm.gungi_report import gungi_report, position_json
from pgm.gungi_units import IMMOBILE, Colour, Face, Unit


def shared_dir() -> Path:
    """/work/shared, next to the repository (the research corpus and specs live there)."""
    return Path(__file__).resolve().parents[1].parent / "shared"


CORPUS = shared_dir() / "corpus" / "gn"
CORPUS_FILES = sorted(CORPUS.glob("*.gn"))
AUTHORED = [p for p in CORPUS_FILES if p.name.startswith("authored__")]


# -- reading the corpus's *.expected.md ------------------------------------------------------


@dataclass(frozen=True)
class PlyRow:
    ply: int
    group: str
    mover: str
    token: str
    hand_changes: list[str]
    state: str


@dataclass(frozen=True)
class Expected:
    towers: dict[str, list[str]]
    """Bottom to top as ``b:PZ`` (the file lists them top first as ``B:PZ``)."""
    hands: dict[str, dict[str, int]]
    to_move: str
    arrangement_over: bool
    game_over: str
    plies: list[PlyRow]
    checks: list[tuple[int, str]]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def read_expected(path: Path) -> Expected:
    text = path.with_name(path.stem + ".expected.md").read_text("utf-8")
    lines = text.splitlines()
    towers: dict[str, list[str]] = {}
    start = lines.index(next(x for x in lines if x.startswith("| square | tower, top first")))
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        square, units, height = _cells(line)
        top_first = [u.strip() for u in units.split(",")]
        assert len(top_first) == int(height)
        towers[square] = [u[0].lower() + u[1:] for u in reversed(top_first)]
    hands = {}
    for colour in ("Black", "White"):
        listed = re.search(rf"^- {colour}: (.*)$", text.split("## Final hands")[1], re.M)
        assert listed is not None
        pairs = re.findall(r"([A-Z][A-Z-]) ×(\d+)", listed[1])
        hands[colour.lower()] = {code: int(n) for code, n in pairs}
    plies = [
        PlyRow(
            int(c[0]), c[1], c[2], c[3].strip("`"), [] if c[4] == "-" else c[4].split(", "), c[5]
        )
        for c in (_cells(x) for x in lines if re.match(r"\| \d+ \|", x))
    ]
    checks = [(int(n), what) for n, what in re.findall(r"^- ply (\d+): (.*)$", text, re.M)]

    def fact(name: str) -> str:
        found = re.search(rf"^- {name}: (.*)$", text, re.M)
        assert found is not None
        return found[1]

    return Expected(
        towers,
        hands,
        fact("Side to play after the last ply").lower(),
        fact("Initial arrangement complete") == "True",
        fact("Game over"),
        plies,
        checks,
    )


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
def test_corpus_replays_to_the_stated_final_position(path: Path) -> None:
    expected = read_expected(path)
    game = gungi.load(path.read_bytes(), path.name)
    assert [d for d in game.diagnostics if d.severity is Severity.ERROR] == []
    assert len(game.positions) == len(game.record.plies)
    final = position_json(game.final)
    assert final["towers"] == expected.towers
    assert final["hands"] == expected.hands
    assert final["to_move"] == expected.to_move
    assert game.final.arrangement_over is expected.arrangement_over
    if expected.game_over.startswith("no"):
        assert game.final.winner is None
    else:
        assert game.final.winner is not None
        assert expected.game_over == f"{game.final.winner.title} captured White Commander"


def _hand_changes(before: Position, after: Position) -> list[str]:
    changes = []
    for colour in Colour:
        old, new = before.hand(colour).as_dict(), after.hand(colour).as_dict()
        for code in sorted(set(old) | set(new)):
            diff = new.get(code, 0) - old.get(code, 0)
            sign = "+" if diff > 0 else "-"
            changes += [f"{colour.title} hand {sign}{code}"] * abs(diff)
    return changes


@pytest.mark.parametrize("path", AUTHORED, ids=lambda p: p.stem)
def test_corpus_plies_after_the_arrangement_match_the_table(path: Path) -> None:
    game = gungi.load(path.read_bytes(), path.name)
    rows = read_expected(path).plies
    assert rows, "the table must not be empty"
    for row in rows:
        index = row.ply - 1
        ply, before, after = game.record.plies[index], game.before(index), game.positions[index]
        opener = next(p for p in game.record.plies if p.group == ply.group and p.opens)
        assert opener.opens is not None
        assert (ply.notation, f"{ply.group}{opener.opens.value}") == (row.token, row.group)
        assert before.to_move.title == row.mover
        assert sorted(_hand_changes(before, after)) == sorted(row.hand_changes)
        if row.state.endswith("to play"):
            assert (after.to_move.title, after.recovery) == (row.state.split()[0], None)
        elif row.state.startswith("forced-recovery decision pending"):
            assert after.recovery is not None and after.to_move is before.to_move
        else:
            assert after.winner is not None
            assert (
                row.state == f"{after.winner.title} captured {after.winner.other.title} Commander"
            )


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
def test_corpus_check_events_and_warnings(path: Path) -> None:
    game = gungi.load(path.read_bytes(), path.name)
    checks = read_expected(path).checks
    assert {i + 1 for i, p in enumerate(game.positions) if p.in_check} == {n for n, _ in checks}
    exposing = []
    for number, what in checks:
        position = game.positions[number - 1]
        if what.endswith("is in check"):
            assert Colour(what.split()[0].lower()) in position.in_check
        else:
            assert what.endswith("left own Commander attacked")
            assert Colour(what.split()[0].lower()) in position.in_check
            exposing.append(game.record.plies[number - 1].line)
    warnings = [d for d in game.diagnostics if d.severity is Severity.WARNING]
    assert [d.line for d in warnings] == exposing
    assert all("left own Commander attacked" in d.message for d in warnings)


# -- each move form from a real arrangement (authored__2's, groups 1-23) ---------------------

ARRANGEMENT = """\
1. PZ*0-6-0 PZ*0-1-0 2. PZ*1-6-0 PZ*1-1-0 3. PZ*2-6-0 PZ*2-2-0 4. PZ*3-6-0 PZ*3-1-0
5. PZ*4-6-0 PZ*4-1-0 6. PZ*5-8-0 PZ*5-2-0 7. PZ*6-6-0 PZ*6-1-0 8. PV*7-7-0 PV*7-1-0
9. PG*8-7-0 PG*8-1-0 10. O-*4-8-0 O-*4-0-0 11. YN*5-6-0 SE*3-0-0 12. YN*1-7-0 CI*7-0-0
13. YN*3-8-0 BA*7-0-1 14. RX*2-7-0 SE*7-0-2 15. HK*7-8-0 BA*5-2-1 16. FL*8-8-0 YN*2-1-0
17. TL*0-8-0 YN*5-1-0 18. BA*0-7-0 YN*6-0-0 19. BA*6-7-0 FL*0-0-0 20. SE*4-7-0 TL*8-0-0
21. SE*1-8-0 HK*2-0-0 22. CI*3-7-0 RX*5-0-0 23. CI*2-8-0 CI*1-0-0
"""
OPENING = "24. PZ<4-6-0>4-5-0 YN<2-1-0>3-3-0\n25. YN<5-6-0>6-4-0 YN<3-3-0>4-5-0\n"


def play(movetext: str, start: Position | None = None) -> gungi.GungiReplay:
    text = movetext if start else ARRANGEMENT + movetext
    return gungi.replay(gn.parse(text, "t.gn"), start)


def towers(game: gungi.GungiReplay, *squares: str) -> list[list[str] | None]:
    listed = position_json(game.final)["towers"]
    return [listed.get(square) for square in squares]


def clean(game: gungi.GungiReplay) -> None:
    assert [str(d) for d in game.diagnostics] == []


def test_arrangement_drops_fill_the_board_then_end_the_arrangement() -> None:
    game = play("")
    clean(game)
    first = game.positions[0]
    assert position_json(first)["towers"] == {"0-6": ["b:PZ"]}
    assert (first.hand(Colour.BLACK).count("PZ"), first.hand(Colour.WHITE).count("PZ")) == (6, 7)
    assert first.to_move is Colour.WHITE
    assert [p.arrangement_over for p in game.positions[44:]] == [False, True]
    assert game.final.hands == (Hand(), Hand()) and game.final.to_move is Colour.BLACK
    assert towers(game, "7-0") == [["w:CI", "w:BA", "w:SE"]]


def test_move() -> None:
    game = play("24. PZ<4-6-0>4-5-0")
    clean(game)
    assert towers(game, "4-6", "4-5") == [None, ["b:PZ"]]
    assert game.final.to_move is Colour.WHITE


def test_capture_by_move_and_by_mobile_strike_are_the_same() -> None:
    as_move = play(OPENING)
    as_strike = play(OPENING.replace("YN<3-3-0>4-5-0", "YN<3-3-0x4-5-0"))
    clean(as_move)
    clean(as_strike)
    assert as_move.final == as_strike.final
    assert towers(as_strike, "3-3", "4-5") == [None, ["w:YN"]]
    assert as_strike.final.hand(Colour.WHITE).as_dict() == {"ZP": 1}
    assert as_strike.final.captured == (Unit.of("PZ", Colour.BLACK),)


def test_mobile_strike_onto_a_tower_and_check() -> None:
    game = play(OPENING + "26. YN<6-4-0x5-2-1")
    clean(game)
    assert towers(game, "6-4", "5-2") == [None, ["w:PZ", "b:YN"]]
    assert game.final.hand(Colour.BLACK).as_dict() == {"AB": 1}
    assert game.final.in_check == {Colour.WHITE}


def test_immobile_strike_downward_drops_the_units_above() -> None:
    game = play(OPENING + "26. YN<6-4-0x5-2-1 SE<3-0-0&4-0-0\n27. YN<5-2-1x0")
    clean(game)
    assert towers(game, "5-2") == [["b:YN"]]
    assert game.final.hand(Colour.BLACK).as_dict() == {"ZP": 1, "AB": 1}


def test_immobile_strike_upward() -> None:
    game = play(OPENING + "26. YN<6-4-0x5-2-1 PZ<5-2-0x1")
    clean(game)
    assert towers(game, "5-2") == [["w:PZ"]]
    assert game.final.hand(Colour.WHITE).as_dict() == {"ZP": 1, "NY": 1}
    assert game.final.in_check == frozenset()


def test_substitution_swaps_samurai_and_checked_commander() -> None:
    game = play(OPENING + "26. YN<6-4-0x5-2-1 SE<3-0-0&4-0-0")
    clean(game)
    assert towers(game, "3-0", "4-0") == [["w:O-"], ["w:SE"]]
    assert game.final.in_check == frozenset()


def test_tier_exchange_swaps_bottom_and_top() -> None:
    game = play("24. PZ<4-6-0>4-5-0 CI<7-0-0&2")
    clean(game)
    assert towers(game, "7-0") == [["w:SE", "w:BA", "w:CI"]]
    assert game.final.exchange_tower(Colour.WHITE) == square_of(7, 0)


# -- small set-up positions for the remaining forms and the part-A rules ---------------------


def setup(
    placed: dict[str, str],
    black: dict[str, int] | None = None,
    white: dict[str, int] | None = None,
    to_move: Colour = Colour.BLACK,
) -> Position:
    """A position after the arrangement: {"4-4": "w:PG w:SE"} lists towers bottom to top."""
    changes = {}
    for name, labels in placed.items():
        col, row = map(int, name.split("-"))
        units = [
            Unit.of(x[2:], Colour.BLACK if x[0] == "b" else Colour.WHITE) for x in labels.split()
        ]
        changes[square_of(col, row)] = tuple(units)
    hands = []
    for counts in (black or {}, white or {}):
        hand = Hand()
        for code, n in counts.items():
            for _ in range(n):
                hand = hand.add(code)
        hands.append(hand)
    position = Position.start().with_towers(changes)
    return dataclasses.replace(
        position, hands=(hands[0], hands[1]), to_move=to_move, arrangement_over=True
    )


KINGS = {"8-8": "b:O-", "0-0": "w:O-"}
SPY_ON_ROW_2 = setup({**KINGS, "4-2": "b:YN", "3-0": "w:PZ"}, white={"PZ": 1})


def test_recover_to_opponent_after_a_capture() -> None:
    game = play("1. YN<4-2-0x3-0-0 YN^3-0-0", SPY_ON_ROW_2)
    clean(game)
    pending = game.positions[0]
    assert pending.recovery is not None and pending.recovery.captured
    assert pending.to_move is Colour.BLACK
    assert towers(game, "3-0", "4-2") == [None, None]
    assert game.final.hand(Colour.WHITE).as_dict() == {"PZ": 1, "YN": 1}  # not flipped
    assert game.final.hand(Colour.BLACK).as_dict() == {"ZP": 1}
    assert game.final.to_move is Colour.WHITE


def test_recover_to_self_and_no_recovery() -> None:
    to_self = play("1. YN<4-2-0>5-0-0 YN+5-0-0", SPY_ON_ROW_2)
    clean(to_self)
    assert towers(to_self, "5-0") == [None]
    assert to_self.final.hand(Colour.BLACK).as_dict() == {"YN": 1}
    declined = play("1. YN<4-2-0>5-0-0 YN=5-0-0", SPY_ON_ROW_2)
    clean(declined)
    assert towers(declined, "5-0") == [["b:YN"]]
    assert declined.final.to_move is Colour.WHITE and declined.final.recovery is None


def test_drop_after_the_arrangement_on_land_link() -> None:
    start = setup({**KINGS, "4-4": "b:YN"}, black={"GP": 1})
    game = play("1. GP*4-4-1", start)
    clean(game)
    assert towers(game, "4-4") == [["b:YN", "b:GP"]]
    assert game.final.hand(Colour.BLACK).total == 0


def test_betrayal_recolours_the_units_under_a_capturing_bronze() -> None:
    game = play("1. ZP<3-4-0>4-4-1", setup({**KINGS, "3-4": "b:ZP", "4-4": "w:PG w:SE"}))
    clean(game)
    assert towers(game, "4-4") == [["b:PG", "b:ZP"]]
    assert game.final.hand(Colour.BLACK).as_dict() == {"ES": 1}
    other = play("1. GP<4-5-0>4-4-1", setup({**KINGS, "4-5": "b:GP", "4-4": "w:PG w:SE"}))
    assert towers(other, "4-4") == [["w:PG", "b:GP"]]


def test_captured_lance_must_be_rearranged_at_once() -> None:
    start = setup({**KINGS, "4-5": "b:GP", "4-4": "w:LF"})
    game = play("1. GP<4-5-0x4-4-0 FL*0-7-0", start)
    clean(game)
    assert (game.positions[0].rearrangement, game.positions[0].to_move) == ("FL", Colour.BLACK)
    assert towers(game, "0-7") == [["b:FL"]]
    assert game.final.to_move is Colour.WHITE and game.final.hand(Colour.BLACK).total == 0


def test_commander_capture_ends_the_game_and_decides_the_result() -> None:
    start = setup({"8-8": "b:O-", "4-5": "b:GP", "4-4": "w:O-"}, black={"PZ": 1})
    won = play('[Result "0 - 1"]\n1. GP<4-5-0x4-4-0', start)
    clean(won)
    assert won.final.winner is Colour.BLACK and won.final.hands == start.hands
    assert won.final.captured == (Unit.of("O-", Colour.WHITE),)
    wrong = play('[Result "1 - 0"]\n1. GP<4-5-0x4-4-0', start)
    assert [(d.line, d.column, d.severity) for d in wrong.diagnostics] == [(1, 1, Severity.ERROR)]
    assert 'should be "0 - 1"' in wrong.diagnostics[0].message
    # a result not filled in yet: the game is over all the same, and not in progress
    unfilled = play('[Result "*"]\n1. GP<4-5-0x4-4-0', start)
    assert [(d.line, d.severity) for d in unfilled.diagnostics] == [(1, Severity.WARNING)]
    assert 'its result is "0 - 1"' in unfilled.diagnostics[0].message
    fields = gungi_entry_fields(unfilled)
    assert (fields["live"], fields["status"], fields["result_by_seat"]) == (
        False, "Black wins", ("W", "L"))


ILLEGAL = [
    # (set-up, movetext, column of the refused ply, message)
    (SPY_ON_ROW_2, "1. YN<4-2-0x3-0-0 YN+3-0-0", 19, "use ^"),
    (SPY_ON_ROW_2, "1. YN<4-2-0>5-0-0 YN^5-0-0", 19, "use +"),
    (SPY_ON_ROW_2, "1. YN<4-2-0>5-0-0 YN<5-0-0>5-1-0", 19, "must first decide the forced"),
    (SPY_ON_ROW_2, "1. YN=4-2-0", 4, "no forced recovery is open"),
    (SPY_ON_ROW_2, "1. YN<4-2-0>5-0-0 YN+4-2-0", 19, "concerns the unit on 5-0-0"),
    (SPY_ON_ROW_2, "1... PZ*4-4-0", 6, "1... means White plays first"),
    (setup({**KINGS, "4-5": "b:GP", "4-4": "w:LF"}), "1. GP<4-5-0x4-4-0 FL*0-3-0", 19,
     "forced rearrangement Black drops only in its own territory"),
    (setup({**KINGS, "4-5": "b:GP", "4-4": "w:LF"}), "1. GP<4-5-0x4-4-0 GP<4-4-0>4-3-0", 19,
     "must first drop the captured Lance as FL"),
    (setup({"8-8": "b:O-", "4-5": "b:GP", "4-4": "w:O-"}), "1. GP<4-5-0x4-4-0 O-<0-0-0>0-1-0",
     19, "the game is over"),
    (setup({**KINGS, "4-5": "b:GP", "4-4": "w:PZ"}), "1. GP<4-5-0>4-4-1", 4,
     "a move onto an enemy unit always captures it"),
    (setup({**KINGS, "4-5": "b:GP"}), "1. GP<4-5-0x4-4-0", 4, "'x' needs an enemy unit"),
    (setup({"4-5": "b:GP", "4-4": "b:O-"}), "1. GP<4-5-0>4-4-1", 4, "stacked on a Commander"),
    (setup({**KINGS, "4-5": "b:GP b:SE"}), "1. GP<4-5-0>4-4-0", 4, "only the top unit may move"),
    (setup({**KINGS, "4-5": "b:GP"}), "1. SE<4-5-0>4-4-0", 4, "is Black's GP, not SE"),
    (setup({**KINGS, "4-5": "w:GP"}), "1. GP<4-5-0>4-4-0", 4, "belongs to White, not Black"),
    (setup({**KINGS, "4-4": "b:FL"}), "1. FL<4-4-0>4-3-0", 4, "a Fortress never moves"),
    (setup({**KINGS, "4-4": "b:FL w:PZ"}), "1. FL<4-4-0x1", 4, "a Fortress cannot strike"),
    (setup({**KINGS, "4-4": "b:GP b:PZ"}), "1. GP<4-4-0x1", 4, "is Black's own unit"),
    (setup({**KINGS, "4-4": "w:PZ b:GP b:SE"}), "1. SE<4-4-2x0", 4, "directly above or below"),
    (setup({**KINGS, "4-8": "b:SE b:BA b:CI"}, white={"PZ": 1}),
     "1. CI<4-8-2&0 PZ*0-3-0 2. CI<4-8-0&2", 27, "on its previous turn"),
    (setup({"4-8": "b:CI b:BA b:O-", "0-0": "w:O-"}), "1. CI<4-8-0&2", 4, "the Commander cannot"),
    (setup({**KINGS, "4-8": "b:FL b:BA b:CI"}), "1. CI<4-8-2&0", 4, "may not be lifted"),
    (setup({**KINGS, "4-8": "b:BA b:CI"}), "1. CI<4-8-1&0", 4, "needs a full tower"),
    (setup({"4-8": "b:SE", "6-8": "b:O-", "0-0": "w:O-"}), "1. SE<4-8-0&6-8-0", 4,
     "orthogonally adjacent"),
    (setup({**KINGS, "4-4": "w:PZ"}, black={"GP": 1}), "1. GP*4-4-1", 4, "not on a Pawn"),
    (setup({**KINGS, "4-4": "b:YN"}, black={"CI": 1}), "1. CI*4-4-1", 4, "dropped on a Spy"),
    (setup({**KINGS, "4-4": "b:NY"}, black={"GP": 1}), "1. GP*4-4-1", 4, "on a Clandestinite"),
    (setup({**KINGS, "4-4": "b:YN"}, black={"FL": 1}), "1. FL*4-4-1", 4, "on an empty square"),
    (setup({**KINGS, "4-4": "b:GP b:YN"}, black={"GP": 1}), "1. GP*4-4-2", 4, "same side"),
    (setup({**KINGS, "4-1": "b:PZ"}, black={"PG": 1}), "1. PG*4-5-0", 4, "a Pawn in file 4"),
    (setup({**KINGS, "4-1": "b:ZP"}, black={"ZP": 1}), "1. ZP*4-5-0", 4, "a Bronze in file 4"),
    (setup({**KINGS, "3-4": "b:ZP", "4-1": "b:ZP"}), "1. ZP<3-4-0>4-4-0", 4, "Bronze in file 4"),
    (setup(KINGS, black={"GP": 1}), "1. PZ*4-4-0", 4, "Black has no PZ in hand"),
    (setup(KINGS, black={"GP": 1}), "1. GP*8-8-1", 4, "nothing may be placed on a Commander"),
]  # fmt: skip


@pytest.mark.parametrize(("start", "movetext", "column", "message"), ILLEGAL)
def test_part_a_errors_stop_the_replay_at_the_ply(
    start: Position, movetext: str, column: int, message: str
) -> None:
    game = play(movetext, start)
    errors = [d for d in game.diagnostics if d.severity is Severity.ERROR]
    assert [(d.line, d.column) for d in errors] == [(movetext.count("\n") + 1, column)]
    assert message in errors[0].message
    assert game.stopped_at == len(game.positions)
    assert game.final == (game.positions[-1] if game.positions else game.start)


# -- part B: warnings that never stop the replay ---------------------------------------------


def warnings(game: gungi.GungiReplay) -> list[str]:
    assert [d for d in game.diagnostics if d.severity is Severity.ERROR] == []
    return [d.message for d in game.diagnostics if d.severity is Severity.WARNING]


def test_move_outside_the_move_set_is_a_warning_and_the_replay_goes_on() -> None:
    game = play("24. PZ<4-6-0>4-4-0 PZ<4-1-0>4-2-0")
    assert warnings(game) == [
        "PZ<4-6-0>4-4-0: Black's Pawn on tier 0 cannot move from 4-6 to 4-4 (not in its "
        "move set on that tier)"
    ]
    assert game.diagnostics[0].line == 7 and game.diagnostics[0].column == 5
    assert len(game.positions) == 48 and towers(game, "4-4") == [["b:PZ"]]


@pytest.mark.parametrize(
    ("placed", "movetext", "expected"),
    [
        ({"4-8": "b:HK", "4-6": "b:PZ"}, "1. HK<4-8-0>4-5-0", ["cannot pass 4-6"]),
        ({"4-6": "b:BA", "4-5": "w:PZ"}, "1. BA<4-6-0>4-4-0", []),
        ({"4-6": "b:BA", "4-5": "w:PZ", "4-1": "w:FL"}, "1. BA<4-6-0>4-4-0", ["cannot jump over"]),
        ({"4-5": "b:PZ"}, "1. PZ<4-5-0>2-5-0", ["cannot move from 4-5 to 2-5"]),
        ({"4-5": "b:PZ", "4-8": "b:FL"}, "1. PZ<4-5-0>2-5-0", []),
        ({"4-6": "b:PZ", "4-7": "b:TL"}, "1. PZ<4-6-0>6-6-0", []),
        ({"4-4": "b:PZ", "4-7": "b:TL"}, "1. PZ<4-4-0>6-4-0", ["cannot move from 4-4 to 6-4"]),
        ({"4-5": "b:RX", "4-8": "b:FL"}, "1. RX<4-5-0>4-4-0", ["even with its zone bonus"]),
        ({"4-6": "b:O-", "3-4": "w:GP"}, "1. O-<4-6-0>4-5-0", ["Commander moves into check"]),
        ({"4-6": "b:O-", "4-2": "w:HK", "0-6": "b:PZ"}, "1. PZ<0-6-0>0-5-0", ["still in check"]),
        ({"4-6": "b:O-", "4-5": "b:GP", "4-2": "w:HK"}, "1. GP<4-5-0>3-5-0",
         ["Black left own Commander attacked"]),
        ({"4-6": "b:O-", "3-6": "b:SE"}, "1. SE<3-6-0&4-6-0", ["only while it is in check"]),
        ({"4-6": "b:O-", "4-2": "w:HK", "0-8": "b:CI b:BA b:SE"}, "1. CI<0-8-0&2",
         ["not allowed while in check", "still in check"]),
    ],
)  # fmt: skip
def test_part_b_warnings(placed: dict[str, str], movetext: str, expected: list[str]) -> None:
    game = play(movetext, setup({"8-0": "w:O-", **placed}))
    found = warnings(game)
    assert len(found) == len(expected)
    for message, part in zip(found, expected, strict=True):
        assert part in message
    assert all((d.line, d.column) == (1, 4) for d in game.diagnostics)
    assert len(game.positions) == 1


# -- description and report ------------------------------------------------------------------


def test_describe_each_form() -> None:
    game = gungi.load((CORPUS / "authored__2_every_move_form.gn").read_bytes(), "a2")
    said = {
        game.record.plies[i].notation: describe(game.record.plies[i], game.before(i), p)
        for i, p in enumerate(game.positions)
    }
    assert said["YN<6-4-0x5-2-1"] == (
        "Black's Spy from 6-4 strikes White's Bow on 5-2, tier 1; White is in check"
    )
    assert said["PZ<4-6-0>4-5-0"] == "Black's Pawn moves from 4-6 to 4-5, tier 0"
    assert said["YN<3-3-0>4-5-0"] == "White's Spy from 3-3 captures Black's Pawn on 4-5, tier 0"
    assert said["YN<5-2-1x0"] == "Black's Spy on 5-2 strikes White's Pawn below it, tier 0"
    assert said["SE<3-0-0&4-0-0"] == "White's Samurai on 3-0 swaps places with its Commander on 4-0"
    assert (
        said["CI<7-0-0&2"]
        == "White's Captain on 7-0 changes places with its Samurai (tiers 0 and 2)"
    )
    assert (
        said["YN^4-0-0"]
        == "Black's Spy on 4-0 goes to White's hand (forced recovery after a capture)"
    )
    assert said["YN+5-7-0"] == "White takes its Spy on 5-7 back into hand (forced recovery)"
    assert said["YN=6-8-0"] == "White leaves its Spy on 6-8 (no forced recovery)"
    assert said["ZP*8-8-1"] == "Black drops a Bronze on 8-8, tier 1"
    assert said["CI*1-0-0"].endswith("; the initial arrangement is complete")
    assert said["YN<5-2-0x4-0-0"].endswith("so Black decides on recovery")
    final = gungi.load((CORPUS / "authored__1_commander_capture.gn").read_bytes(), "a1")
    assert describe(final.record.plies[48], final.before(48), final.final) == (
        "Black's Prodigy from 6-6 strikes White's Commander on 0-0, tier 0; Black wins"
    )


def test_report_json() -> None:
    path = CORPUS / "authored__1_commander_capture.gn"
    report, diagnostics = gungi_report(path.read_bytes(), "a1.gn")
    json.dumps(report)  # must be serialisable as is
    assert report["path"] == "a1.gn" and report["game"] == "gungi"
    assert report["players"] == ["Sample Black", "Sample White"]
    assert report["result"] == "0 - 1"
    assert report["diagnostics"] == [d.to_json() for d in diagnostics]
    assert [d["severity"] for d in report["diagnostics"]] == ["warning"]
    events = report["events"]
    assert len(events) == 49
    assert events[0] == {
        "line": 9,
        "player": "black",
        "kind": "drop",
        "notation": "PZ*0-6-0",
        "position": {
            "towers": {"0-6": ["b:PZ"]},
            "hands": {"black": {"PZ": 6, "PV": 1, "PG": 1, "BA": 2, "RX": 1, "HK": 1, "FL": 1,
                                "TL": 1, "YN": 3, "SE": 2, "CI": 2, "O-": 1},
                      "white": dict(Hand.starting().counts)},
            "to_move": "white",
        },
    }  # fmt: skip
    assert [e["kind"] for e in events[-3:]] == ["move", "move", "mobile_strike"]
    assert events[-1]["player"] == "black" and events[-1]["line"] == 17
    assert report["final_position"] == events[-1]["position"]
    assert report["final_position"]["towers"]["0-0"] == ["b:RX"]


def test_report_without_header_or_plies() -> None:
    report, diagnostics = gungi_report(b"", "e.gn")
    assert report["players"] == ["Black", "White"]
    assert (report["events"], report["final_position"], report["result"]) == ([], None, None)
    assert diagnostics == []


# -- properties ------------------------------------------------------------------------------


def assert_invariants(position: Position) -> None:
    """VALIDATION.md A10: heights, nothing above a Commander, Fortress/Catapult on tier 0,
    46 units in all less any captured Commander."""
    for tower in position.towers:
        assert len(tower) <= 3
        for tier, unit in enumerate(tower):
            if unit.face is Face.COMMANDER:
                assert tier == len(tower) - 1
            if unit.face in IMMOBILE:
                assert tier == 0
    lost = sum(unit.face is Face.COMMANDER for unit in position.captured)
    on_board = sum(len(tower) for tower in position.towers)
    assert on_board + sum(hand.total for hand in position.hands) == 46 - lost


def exercise(data: bytes | str) -> None:
    game = gungi.load(data, "f.gn")
    for index, after in enumerate(game.positions):
        assert_invariants(after)
        describe(game.record.plies[index], game.before(index), after)
    raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    json.dumps(gungi_report(raw, "f.gn")[0])


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(max_size=400))
def test_never_raises_on_arbitrary_text(text: str) -> None:
    exercise(text)


@FUZZ
@given(st.binary(max_size=400))
def test_never_raises_on_arbitrary_bytes(data: bytes) -> None:
    exercise(data)


CORPUS_TEXTS = [p.read_text("utf-8") for p in CORPUS_FILES]
NOTATION = '0123456789--<>x*+^=&.# ()[]"\nPZYNOSECIBAFLTKHRXGV'


@FUZZ
@given(
    st.sampled_from(CORPUS_TEXTS),
    st.lists(
        st.tuples(st.integers(0, 2_000), st.integers(0, 12), st.text(NOTATION, max_size=4)),
        min_size=1,
        max_size=6,
    ),
)
def test_never_raises_on_mutated_corpus_records(
    text: str, edits: list[tuple[int, int, str]]
) -> None:
    for offset, length, insert in edits:
        at = offset % (len(text) + 1)
        text = text[:at] + insert + text[at + length :]
    exercise(text)


@FUZZ
@given(st.sampled_from(CORPUS_TEXTS), st.data())
def test_digit_changes_in_corpus_plies_are_errors_or_replayed(
    text: str, data: st.DataObject
) -> None:
    """A changed coordinate gives a legal-looking token: the replay must refuse it or keep
    every invariant, and an error must sit on the line of a ply."""
    digits = [m.start() for m in re.finditer(r"(?<=[*<>x&^+=-])[0-9]", text)]
    at = data.draw(st.sampled_from(digits))
    mutated = text[:at] + data.draw(st.sampled_from("012345678")) + text[at + 1 :]
    game = gungi.load(mutated, "f.gn")
    for after in game.positions:
        assert_invariants(after)
    ply_lines = {p.line for p in game.record.plies}
    for diagnostic in game.diagnostics:
        if diagnostic.severity is Severity.ERROR and game.stopped_at is not None:
            assert diagnostic.line in ply_lines


# -- random playouts: whatever step() accepts, written as .gn, must replay identically ------


def _spot(square: int, tier: int) -> str:
    return f"{col_of(square)}-{row_of(square)}-{tier}"


def _landing_tier(position: Position, square: int, mover: Colour) -> tuple[int, bool]:
    tower = position.towers[square]
    enemy = bool(tower) and tower[-1].colour is not mover
    return (len(tower) - 1 if enemy else len(tower)), enemy


def random_token(position: Position, rng: random.Random) -> str | None:
    """A plausible ply for the side to move; many are refused, which is fine."""
    mover = position.to_move
    if position.recovery is not None:
        owed = position.recovery
        code = position.towers[owed.square][owed.tier].code
        return f"{code}{rng.choice('+^=')}{_spot(owed.square, owed.tier)}"
    codes = [code for code, _ in position.hand(mover).counts]
    if position.rearrangement is not None or not position.arrangement_over:
        code = position.rearrangement or rng.choice(codes)
        rows = range(6, 9) if mover is Colour.BLACK else range(3)
        square = square_of(rng.randrange(9), rng.choice(rows))
        return f"{code}*{_spot(square, len(position.towers[square]))}"
    mine = [(sq, t) for sq, tower in position.occupied() for t, u in enumerate(tower)
            if u.colour is mover]  # fmt: skip
    kind = rng.choices(["move", "drop", "immobile", "swap"], weights=[12, 3, 2, 2])[0]
    if kind == "drop" and codes:
        square = rng.randrange(81)
        return f"{rng.choice(codes)}*{_spot(square, len(position.towers[square]))}"
    if not mine:
        return None
    square, tier = rng.choice(mine)
    tower = position.towers[square]
    unit = tower[tier]
    if kind == "immobile":
        return f"{unit.code}<{_spot(square, tier)}x{tier + rng.choice((-1, 1))}"
    if kind == "swap" and unit.face is Face.CAPTAIN:
        return f"{unit.code}<{_spot(square, tier)}&{2 - tier}"
    target = square_of(
        min(8, max(0, col_of(square) + rng.randint(-2, 2))),
        min(8, max(0, row_of(square) + rng.randint(-2, 2))),
    )
    if rng.random() < 0.2:
        enemies = [sq for sq, t in position.occupied() if t[-1].colour is not mover]
        target = rng.choice(enemies or [target])
    if kind == "swap" and unit.face is Face.SAMURAI:
        partner = rng.choice([sq for sq, _ in position.find(Face.COMMANDER, mover)] or [target])
        partner_tier = len(position.towers[partner]) - 1
        return f"{unit.code}<{_spot(square, tier)}&{_spot(partner, partner_tier)}"
    landing, enemy = _landing_tier(position, target, mover)
    mark = "x" if enemy and rng.random() < 0.5 else ">"
    return f"{unit.code}<{_spot(square, tier)}{mark}{_spot(target, landing)}"


def random_game(seed: int, plies: int) -> tuple[list[str], list[Position]]:
    rng = random.Random(seed)
    position, tokens, positions = Position.start(), [], []
    for _ in range(plies):
        for _attempt in range(80):
            token = random_token(position, rng)
            move = parse_token(token) if token else None
            if move is None or not isinstance(move, Move):
                continue
            after = gungi.step(position, gn.Ply(move, token or "", 1, 1, 0, None))
            if isinstance(after, Position):
                tokens.append(token or "")
                positions.append(after)
                position = after
                break
        else:
            break
    return tokens, positions


def write_gn(tokens: list[str], positions: list[Position], rng: random.Random) -> str:
    """Pair plies into numbered groups; the marker names the mover of each group's first ply."""
    movers = [Position.start().to_move] + [p.to_move for p in positions[:-1]]
    out: list[str] = []
    for group, first in enumerate(range(0, len(tokens), 2), start=1):
        marker = "." if movers[first] is Colour.BLACK else "..."
        pair = tokens[first : first + 2]
        comment = rng.choice([" (a comment\nover two lines) ", " ", "\n"])
        out.append(f"{group}{marker} {comment.join(pair)}")
        out.append(rng.choice([" ", "\n", "\n# line comment\n", " (after) "]))
    return "".join(out)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_playouts_replay_identically_from_their_notation(seed: int) -> None:
    tokens, positions = random_game(seed, 160)
    text = write_gn(tokens, positions, random.Random(seed))
    game = gungi.load(text, "r.gn")
    assert [str(d) for d in game.diagnostics if d.severity is Severity.ERROR] == []
    assert game.positions == tuple(positions)
    for position in positions:
        assert_invariants(position)
    kinds = {ply.move.kind for ply in game.record.plies}
    assert MoveKind.DROP in kinds


# -- the event index -------------------------------------------------------------------------


def _entry(tmp_path: Path, text: str):
    path = tmp_path / "g.gn"
    path.write_text(text, encoding="utf-8")
    return load_game(Source(path, "g.gn", "g"), GameSettings(), path.read_bytes()).entry


HEADER = '[Black "B"]\n[White "W"]\n[Result "{}"]\n1. PZ*0-6-0 PZ*0-1-0\n'


def test_a_game_stopped_by_an_error_is_not_in_progress(tmp_path: Path) -> None:
    """Result "*" says in progress, but the record goes on past a ply that cannot be
    played: its pages would wait for plies it already holds."""
    refused = _entry(tmp_path, HEADER.format("*") + "2. O-*4-8-0 O-*4-0-0\n3. O-*3-8-0 PZ*1-1-0\n")
    assert not refused.live and refused.stopped_at == 6
    assert refused.status == "stopped by an error at line 6"
    unreadable = _entry(tmp_path, HEADER.format("1 - 0") + "2. O-*4-8-0 ZZ%\n3. PZ*1-6-0\n")
    assert not unreadable.live and unreadable.stopped_at == 5
    assert unreadable.status == "White wins (stopped by an error at line 5)"
    playing = _entry(tmp_path, HEADER.format("*") + "2. O-*4-8-0 O-*4-0-0\n")
    assert playing.live and playing.stopped_at is None and playing.status == "in progress"

"""Turn pages redo only the board rows a turn changed (pgm.crossword_board.TurnBoards):
the boards they show are those worked out from scratch, for every real record, and the
rule they rest on holds for every real record. (The unseen tiles kept from turn to turn
are checked in test_speed_turn_parts.)"""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS

from pgm.crossword import replay
from pgm.crossword_board import BoardRenderer, Orientation, TurnBoards, played_through
from pgm.crossword_model import CrosswordGame
from pgm.gcg import parse_gcg
from pgm.render import make_environment

RECORDS = sorted((CORPUS / "gcg").glob("*.gcg")) + sorted((CORPUS / "gcg-nonexact").glob("*.gcg"))


def replayed(path) -> CrosswordGame:
    return replay(parse_gcg(path.read_bytes(), path.name))


def full_board(renderer: BoardRenderer, game: CrosswordGame, index: int,
               orientation: Orientation) -> str:
    turn = game.turns[index]
    return renderer.board(turn.position.cells, game.rules.layout, game.rules.distribution,
                          [(t.row, t.col) for t in turn.placed], orientation,
                          played_through(turn, game.rules.layout.size))["board_rows"]


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_turn_changes_the_board_only_where_it_placed_or_took_back_tiles(path) -> None:
    game = replayed(path)
    size = game.rules.layout.size
    before = game.start.cells
    for turn in game.turns:
        changed = {divmod(i, size) for i, (a, b) in enumerate(zip(before, turn.position.cells,
                                                                  strict=True)) if a != b}
        touched = {(t.row, t.col) for t in turn.placed + turn.removed}
        assert changed <= touched, f"turn {turn.number}"
        before = turn.position.cells


@pytest.mark.parametrize("lettered_rows", [False, True])
@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_boards_made_turn_by_turn_equal_full_renders(path, lettered_rows: bool) -> None:
    game = replayed(path)
    renderer = BoardRenderer(make_environment(None))
    orientation = Orientation(lettered_rows)
    boards = TurnBoards(renderer, game.rules.layout, game.rules.distribution, orientation)
    for index, turn in enumerate(game.turns):
        shown = boards.board(index, turn)["board_rows"]
        assert shown == full_board(renderer, game, index, orientation), f"turn {turn.number}"


def test_boards_asked_out_of_order_are_rendered_whole() -> None:
    game = replayed(CORPUS / "gcg" / "liwords__r20_peter.gcg")
    renderer = BoardRenderer(make_environment(None))
    orientation = Orientation(False)
    boards = TurnBoards(renderer, game.rules.layout, game.rules.distribution, orientation)
    for index in (5, 3, 3, 10, 11, 0):
        shown = boards.board(index, game.turns[index])["board_rows"]
        assert shown == full_board(renderer, game, index, orientation)


def test_tiles_of_two_or_three_letters_are_marked_to_be_set_smaller() -> None:
    """Catalan's QU, NY and L·L spilled out of their squares on a phone, their points over
    the letters: the square says how many letters its tile has, for the stylesheet."""
    game = replay(parse_gcg(
        "#player1 a a\n#player2 b b\n#lexicon DISC2\n>a: ?EI[QU][NY][L·L] 8F [QU]I[NY] +44 44\n"
        ">b: ?AEIORS G7 E.[L·L]a +8 8\n".encode(), "catala.gcg"))
    rows = full_board(BoardRenderer(make_environment(None)), game, 1, Orientation(False))
    squares = re.findall(r'<td class="([^"]*)" data-l="([^"]+)"', rows)
    assert {letter: css for css, letter in squares} == {
        "QU": "w2", "I": "t", "NY": "w2", "E": "n", "L·L": "n w3", "A": "b n"}

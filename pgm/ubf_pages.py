"""The files of one Upwords board's folder: the board page, the file, JSON.

A ``.ubf`` file holds one board in UBF, the Upwords Board Format (:mod:`pgm.ubf`): a
position, not a game, so there are no players, scores or moves, and its folder holds
one page. The board is drawn by the Upwords turn pages' own view and partial, so every
square reads alike (height drawn on the tile and said in its accessible name), and it is
offered back as UBF in a box to copy, as those pages offer theirs. A file with problems
gets its page all the same: the reader's best reading of the board, and each problem
with its line and column.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any

import jinja2

from pgm.crossword_view import plural
from pgm.discover import shown_name
from pgm.page_parts import canonical, game_json_text, with_site_keys
from pgm.site_model import GameEntry
from pgm.ubf import UbfResult, UpwordsBoard, write_ubf
from pgm.ubf_report import board_report
from pgm.upwords_view import board_view

RECORD_NAME = "input.ubf"


def ubf_entry_fields(result: UbfResult) -> dict[str, Any]:
    """No players, scores or turns: the index shows what the board holds. A board never
    ends or goes on, so it is never in progress."""
    return {"players": (), "scores": None, "live": False, "turns": 0,
            "status": f"Upwords board: {board_contents(result.board)}"}


def board_contents(board: UpwordsBoard) -> str:
    """How many tiles the board holds, in how many stacks ("74 tiles in 30 stacks"):
    a square holds a stack of tiles, so the two counts differ once tiles are stacked."""
    stacks = [square for square in board.squares if square]
    if not stacks:
        return "no tiles"
    tiles = sum(stack.height for stack in stacks)
    return f"{plural(tiles, 'tile')} in {plural(len(stacks), 'stack')}"


def record_title(relative: str) -> str:
    return f"Upwords board: {PurePosixPath(relative).name}"


def render_ubf_board(env: jinja2.Environment, entry: GameEntry, result: UbfResult,
                     record: bytes, common: dict[str, Any]
                     ) -> Iterator[tuple[str, str | bytes]]:
    """Yield (file name inside the board's folder, content) for every file of it."""
    name = PurePosixPath(shown_name(entry.relative)).name
    caption = f"The board of {name}" + (", as far as it could be read" if entry.errors else "")
    yield "index.html", env.get_template("ubf_board.html").render(
        common, game=entry, record_name=RECORD_NAME, board=board_view(result.board),
        board_caption=caption, board_caption_id="board-caption",
        problems=list(result.diagnostics), ubf=write_ubf(result.board), current=None,
        canonical=canonical(common, "index.html"))
    yield RECORD_NAME, record
    yield "game.json", game_json_text(game_json(entry, result))


def game_json(entry: GameEntry, result: UbfResult) -> dict[str, Any]:
    """The ``pgm check --json`` object of the file plus the site keys games have."""
    return with_site_keys(board_report(result, entry.relative), entry, RECORD_NAME,
                          entry.turns)

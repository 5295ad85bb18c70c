"""The files of one position set's folder: overview, one page per position, file, JSON.

A ``.cgp`` file is a set of positions, not a game: no players, no moves between the
positions. Page ``N.html`` shows the file's N-th position line (numbered as
:mod:`pgm.cgp_file` numbers them, unreadable lines included, so links stay valid when a
bad line is mended); an unreadable line gets a page that says why, and the overview lists
every position with its problems.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import jinja2

from pgm.cgp import write_cgp
from pgm.cgp_file import CgpEntry, CgpFile
from pgm.cgp_report import file_report
from pgm.cgp_view import details, rack_lines, summary, unseen
from pgm.crossword_board import Orientation
from pgm.crossword_pages import board_renderer
from pgm.diagnostics import Diagnostic
from pgm.page_parts import canonical, game_json_text, navigation, with_site_keys
from pgm.site_model import GameEntry

RECORD_NAME = "input.cgp"


@dataclass(frozen=True)
class PositionRow:
    """A position in the list of the set."""

    number: int
    line: int
    caption: str
    summary: str
    ok: bool
    problems: tuple[Diagnostic, ...]


def cgp_entry_fields(found: CgpFile) -> dict[str, Any]:
    """No players or scores: the index shows how many positions the set holds."""
    count = len(found.entries)
    return {"players": (), "scores": None, "live": False, "turns": count,
            "status": f"{count} position{'s' if count != 1 else ''}"}


def record_title(relative: str) -> str:
    return f"Position set: {PurePosixPath(relative).name}"


def render_cgp_set(env: jinja2.Environment, entry: GameEntry, found: CgpFile, record: bytes,
                   common: dict[str, Any], orientation: Orientation
                   ) -> Iterator[tuple[str, str | bytes]]:
    """Yield (file name inside the set's folder, content) for every file of the set."""
    rows = tuple(PositionRow(e.number, e.line, e.caption, summary(e), e.ok, e.diagnostics)
                 for e in found.entries)
    base = dict(common, game=entry, positions=rows, record_name=RECORD_NAME,
                spoiler_free=common["event"].spoiler_free, board_caption_id="board-caption")
    file_problems = tuple(d for d in found.diagnostics
                          if not any(d in e.diagnostics for e in found.entries))
    yield "index.html", env.get_template("cgp_set.html").render(
        base, notes=found.notes, problems=list(file_problems), current=None,
        canonical=canonical(base, "index.html"))
    template = env.get_template("cgp_position.html")
    for item in found.entries:
        yield f"{item.number}.html", template.render(
            _position_context(env, entry, item, len(found.entries), base, orientation))
    yield RECORD_NAME, record
    yield "game.json", game_json_text(game_json(entry, found))


def _position_context(env: jinja2.Environment, entry: GameEntry, item: CgpEntry, total: int,
                      base: dict[str, Any], orientation: Orientation) -> dict[str, Any]:
    """A position is drawn exactly as a crossword turn's board is (the same row renderer
    and partial), so both read and look alike; a board of a size no known board has is
    drawn plain, and its caption says so."""
    number = item.number
    heading = f"Position {number} of {total}"
    title = f"{heading}{': ' + item.caption if item.caption else ''} · {entry.label}"
    context = dict(base, title=title, heading=heading, number=number, total=total,
                   item=item, problems=list(item.diagnostics), current=number,
                   nav=navigation(number, total), board_rows=None, racks=(), details=(),
                   unseen=None, cgp=item.text, board_caption="",
                   canonical=canonical(base, f"{number}.html"))
    position = item.position
    if position is None:
        return context
    last = item.last_move
    highlighted = last.squares if last else frozenset()
    caption = f"Position {number}" + (f": {item.caption}" if item.caption else "")
    if position.layout.plain:
        size = position.layout.size
        caption += f" (a plain {size}×{size} board, without premium squares)"
    if last and last.squares:
        caption += f"; the last move, {last.words}, is highlighted"
    board = board_renderer(env).board(position.cells, position.layout, position.distribution,
                                      highlighted, orientation)
    context.update(
        board, board_caption=caption,
        racks=rack_lines(position), details=details(position),
        unseen=unseen(position), cgp=write_cgp(position))
    return context


def game_json(entry: GameEntry, found: CgpFile) -> dict[str, Any]:
    """The ``pgm check --json`` object of the file plus the site keys games have."""
    return with_site_keys(file_report(found), entry, RECORD_NAME, entry.turns)

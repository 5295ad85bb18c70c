"""The turn pages of a crossword game: ``N.html`` shows the position after the record's
N-th event line, numbered in the record's own order, so a page keeps its number as long
as the record is only appended to.

Each page is ``turn.html`` filled in from a plan made once per game (pgm.page_plan):
what changes from turn to turn is computed here, its markup comes from the macros of
``partials/turn_parts.html`` and the memoized fragments, and the rest of the page is
rendered once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jinja2
from markupsafe import Markup

from pgm.crossword_model import CrosswordGame
from pgm.crossword_view import (
    BoardRenderer,
    Orientation,
    SheetRow,
    player_lines,
    unseen_view,
)
from pgm.diagnostics import Diagnostic
from pgm.fragments import memo
from pgm.markdown import render_markdown
from pgm.page_parts import navigation
from pgm.page_plan import PagePlan
from pgm.render import printed


@dataclass(frozen=True)
class NoteView:
    kind: str
    html: str


class TurnList:
    """The list of every turn on each turn page: items are rendered once per game and
    only the current one differs from page to page."""

    def __init__(self, env: jinja2.Environment, sheet: tuple[SheetRow, ...]) -> None:
        self._item = env.get_template("partials/fragments.html").module.turn_item  # type: ignore[attr-defined]
        self._sheet = sheet
        self._items = [str(self._item(row, False)) for row in sheet]

    def for_turn(self, number: int) -> Markup:
        current = str(self._item(self._sheet[number - 1], True))
        return Markup("".join(self._items[:number - 1] + [current] + self._items[number:]))


class TurnPages:
    """Renders the turn pages of one game; ``context`` holds what every page shares."""

    def __init__(self, env: jinja2.Environment, game: CrosswordGame, context: dict[str, Any],
                 sheet: tuple[SheetRow, ...], boards: BoardRenderer,
                 diagnostics_by_line: dict[int, list[Diagnostic]]) -> None:
        self._env = env
        self._game = game
        self._context = dict(context, total=len(game.turns))
        self._sheet = sheet
        self._boards = boards
        self._by_line = diagnostics_by_line
        self._orientation = Orientation(game.rules.orientation == "lettered-rows")
        self._turn_list = TurnList(env, sheet)
        self._parts = env.get_template("partials/turn_parts.html").module
        self._problems = env.get_template("partials/problems.html")
        self._head_links = memo(env, "partials/turn_parts.html", "head_links")
        self._nav = memo(env, "partials/nav.html")
        self._unseen_counts = memo(env, "partials/turn_parts.html", "unseen_counts")
        self._unseen_tile = memo(env, "partials/fragments.html", "unseen_tile")

    def pages(self) -> Iterator[tuple[str, str]]:
        """(file name, page) for every turn."""
        template = self._env.get_template("turn.html")
        plan = None
        for index, turn in enumerate(self._game.turns):
            values = self.values(index)
            if index == 0:
                plan = PagePlan.make(template, self._context, values)
            page = plan.fill(values) if plan else template.render(self._context, **values)
            yield f"{turn.number}.html", page

    def values(self, index: int) -> dict[str, Any]:
        """What turn.html prints that changes from turn to turn."""
        game, turn = self._game, self._game.turns[index]
        number, position = turn.number, turn.position
        move_text = self._sheet[index].summary
        nav = navigation(number, len(game.turns))
        unseen = unseen_view(game, position)
        values = dict(
            title=self._title(number, move_text),
            number=number, move_text=move_text,
            board_caption=f"Board after turn {number}: {move_text}",
            head_links=self._head_links(nav), nav_html=self._nav(nav=nav),
            move_details=self._parts.move_details(
                "".join(turn.rack) if turn.rack else turn.event.rack, turn.words),
            score_table=self._parts.score_table(player_lines(game, position),
                                                position.game_over),
            notes=self._notes(index), problems=self._problems_of(index),
            unseen_counts=self._unseen_counts.keyed(
                (unseen.total, unseen.vowels, unseen.consonants, unseen.blanks, unseen.bag),
                unseen),
            unseen_tiles=Markup("".join([self._unseen_tile(label, count)
                                         for label, count in unseen.tiles])),
            cgp=game.cgp(index), turn_list=self._turn_list.for_turn(number),
        )
        values.update(self._boards.board(position.cells, game.rules.layout,
                                         game.rules.distribution,
                                         frozenset((t.row, t.col) for t in turn.placed),
                                         self._orientation))
        return values

    def _title(self, number: int, move_text: str) -> Markup:
        """The page title, written with entities so that a page of plain letters stays
        one byte per character in memory and is written without re-encoding."""
        label = printed(self._context["game"].label)
        if self._context["spoiler_free"] and number == 1:
            return Markup(f"{label} &middot; turn {number}")
        return Markup(f"Turn {number}: {printed(move_text)} &middot; {label}")

    def _notes(self, index: int) -> str:
        notes = self._game.turns[index].event.notes
        if not notes:
            return ""
        allow_html = self._context["event"].allow_html
        return self._parts.notes([NoteView(n.kind, render_markdown(n.text, allow_html))
                                  for n in notes])

    def _problems_of(self, index: int) -> str:
        problems = list(self._by_line.get(self._game.turns[index].event.line, []))
        if index == len(self._game.turns) - 1 and self._game.stopped_at is not None:
            problems += self._by_line.get(self._game.stopped_at, [])
        return Markup(self._problems.render(problems=problems)) if problems else ""

"""The files of one crossword game's folder: overview, one page per event, record, JSON.

Turn ``N.html`` shows the position after the record's N-th event line; numbering is
the record's own event order, so it is stable as long as the record is only appended to.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jinja2
from markupsafe import Markup

from pgm.crossword_model import CrosswordGame
from pgm.crossword_report import game_report
from pgm.crossword_view import (
    BoardRenderer,
    Orientation,
    SheetRow,
    player_lines,
    score_chart,
    score_sheet,
    unseen_view,
)
from pgm.diagnostics import Diagnostic
from pgm.export import moves_csv
from pgm.fragments import memo
from pgm.markdown import render_markdown
from pgm.page_parts import game_json_text, navigation_values, with_site_keys
from pgm.site_model import GameEntry

RECORD_NAME = "input.gcg"


@dataclass(frozen=True)
class NoteView:
    kind: str
    html: str


def crossword_entry_fields(game: CrosswordGame) -> dict[str, Any]:
    """What the event index needs to know about a crossword game."""
    players = tuple(p.name for p in game.record.players)
    scores = tuple(game.final.scores)
    return {"players": players, "scores": scores, "live": not game.complete,
            "turns": len(game.turns)}


def render_crossword_game(env: jinja2.Environment, entry: GameEntry, game: CrosswordGame,
                          record: bytes, common: dict[str, Any]
                          ) -> Iterator[tuple[str, str | bytes]]:
    """Yield (file name inside the game folder, content) for every file of the game."""
    by_line: dict[int, list[Diagnostic]] = defaultdict(list)
    for diagnostic in game.diagnostics:
        by_line[diagnostic.line].append(diagnostic)
    sheet = score_sheet(game, by_line)
    allow_html = common["event"].allow_html
    orientation = Orientation(game.rules.orientation == "lettered-rows")
    base = dict(common, game=entry, sheet=sheet, spoiler_free=common["event"].spoiler_free,
                board_caption_id="board-caption")
    boards = board_renderer(env)
    yield "index.html", _game_page(env, entry, game, base, orientation, allow_html, boards)
    turn_template = env.get_template("turn.html")
    turn_list = TurnList(env, sheet)
    unseen_tile = memo(env, "partials/fragments.html", "unseen_tile")
    for index, turn in enumerate(game.turns):
        context = _turn_context(entry, game, index, base, orientation, allow_html, by_line)
        context.update(boards.board(turn.position.cells, game.rules.layout,
                                    game.rules.distribution,
                                    frozenset((t.row, t.col) for t in turn.placed), orientation),
                       turn_list=turn_list.for_turn(turn.number),
                       unseen_tiles=Markup("".join([unseen_tile(label, count) for label, count
                                                    in context["unseen"].tiles])),
                       **navigation_values(env, turn.number, len(game.turns)))
        yield f"{turn.number}.html", turn_template.render(context)
    yield RECORD_NAME, record
    report = game_json(entry, game)
    yield "game.json", game_json_text(report)
    yield "moves.csv", moves_csv(report)


def board_renderer(env: jinja2.Environment) -> BoardRenderer:
    """One row cache per template environment (per worker process)."""
    renderer = getattr(env, "pgm_board_renderer", None)
    if renderer is None:
        renderer = BoardRenderer(env)
        env.pgm_board_renderer = renderer  # type: ignore[attr-defined]
    return renderer


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


def _game_page(env: jinja2.Environment, entry: GameEntry, game: CrosswordGame,
               base: dict[str, Any], orientation: Orientation, allow_html: bool,
               boards: BoardRenderer) -> str:
    record = game.record
    description = render_markdown(record.description, allow_html) if record.description else ""
    problems = sorted(game.diagnostics, key=lambda d: d.line)
    return env.get_template("game.html").render(
        base, description=description, problems=problems, record_name=RECORD_NAME,
        game_notes=[render_markdown(n.text, allow_html) for n in record.game_notes],
        turns=game.turns,
        **boards.board(game.final.cells, game.rules.layout, game.rules.distribution,
                       frozenset(), orientation),
        board_caption="Board at the end of the record",
        chart=score_chart(game), current=None, rules_text=_rules_text(game))


def _rules_text(game: CrosswordGame) -> str:
    rules = game.rules
    size = rules.layout.size
    parts = [rules.lexicon] if rules.lexicon else []
    parts += [f"{rules.distribution.name.replace('_', ' ')} tiles", f"{size}×{size} board"]
    return " · ".join(parts)


def _turn_context(entry: GameEntry, game: CrosswordGame, index: int, base: dict[str, Any],
                  orientation: Orientation, allow_html: bool,
                  by_line: dict[int, list[Diagnostic]]) -> dict[str, Any]:
    turn = game.turns[index]
    total = len(game.turns)
    position = turn.position
    move_text = base["sheet"][index].summary
    problems = list(by_line.get(turn.event.line, []))
    if index == total - 1 and game.stopped_at is not None:
        problems += by_line.get(game.stopped_at, [])
    spoiler = base["spoiler_free"] and turn.number == 1
    title = (f"{entry.label} · turn {turn.number}" if spoiler
             else f"Turn {turn.number}: {move_text} · {entry.label}")
    return dict(
        base, title=title, number=turn.number, total=total, move_text=move_text,
        board_caption=f"Board after turn {turn.number}: {move_text}",
        rack="".join(turn.rack) if turn.rack else turn.event.rack,
        words=turn.words, players=player_lines(game, position),
        game_over=position.game_over, unseen=unseen_view(game, position),
        notes=[NoteView(n.kind, render_markdown(n.text, allow_html)) for n in turn.event.notes],
        problems=problems, cgp=game.cgp(index), current=turn.number,
    )


def game_json(entry: GameEntry, game: CrosswordGame) -> dict[str, Any]:
    """The documented ``game.json``: the ``pgm check --json`` object plus site metadata."""
    return with_site_keys(game_report(game), entry, RECORD_NAME, len(game.turns))

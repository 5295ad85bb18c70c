"""The files of one crossword game's folder: overview, one page per event (made by
pgm.crossword_turns), the record itself, ``game.json`` and ``moves.csv``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jinja2

from pgm.crossword import scores_added_up
from pgm.crossword_board import BoardRenderer
from pgm.crossword_model import CrosswordGame
from pgm.crossword_report import game_report
from pgm.crossword_turns import TurnPages
from pgm.crossword_view import score_chart, score_sheet
from pgm.diagnostics import shown_by_line
from pgm.event_checks import gcg_moves_digest
from pgm.export import moves_csv
from pgm.fragments import kept
from pgm.markdown import render_markdown
from pgm.page_parts import (
    annotated_turns,
    canonical,
    game_json_text,
    last_position_caption,
    with_site_keys,
)
from pgm.site_model import GameEntry

RECORD_NAME = "input.gcg"


def crossword_entry_fields(game: CrosswordGame) -> dict[str, Any]:
    """What the event index needs to know about a crossword game."""
    players = tuple(p.name for p in game.record.players)
    scores = tuple(game.final.scores)
    return {"players": players, "scores": scores, "live": not game.complete,
            "turns": len(game.turns), "moves": gcg_moves_digest(game.turns),
            "added_up": scores_added_up(game.turns, len(players))}


def render_crossword_game(env: jinja2.Environment, entry: GameEntry, game: CrosswordGame,
                          record: bytes, common: dict[str, Any]
                          ) -> Iterator[tuple[str, str | bytes]]:
    """Yield (file name inside the game folder, content) for every file of the game."""
    by_line = shown_by_line(game.diagnostics)
    sheet = score_sheet(game, by_line)
    allow_html = common["event"].allow_html
    base = dict(common, game=entry, sheet=sheet, spoiler_free=common["event"].spoiler_free,
                board_caption_id="board-caption")
    turn_pages = TurnPages(env, game, base, sheet, board_renderer(env), by_line)
    yield from turn_pages.pages()
    yield "index.html", _game_page(env, game, base, allow_html, turn_pages.final_board())
    yield RECORD_NAME, record
    report = game_json(entry, game)
    yield "game.json", game_json_text(report)
    yield "moves.csv", moves_csv(report)


def board_renderer(env: jinja2.Environment) -> BoardRenderer:
    """One row cache per template environment (per worker process)."""
    return kept(env, "pgm_board_renderer", lambda: BoardRenderer(env))


def _game_page(env: jinja2.Environment, game: CrosswordGame, base: dict[str, Any],
               allow_html: bool, board: dict[str, Any]) -> str:
    record = game.record
    description = render_markdown(record.description, allow_html) if record.description else ""
    problems = sorted(game.diagnostics, key=lambda d: d.line)
    return env.get_template("game.html").render(
        base, description=description, problems=problems, record_name=RECORD_NAME,
        game_notes=[render_markdown(n.text, allow_html) for n in record.game_notes],
        turns=game.turns,
        annotations=annotated_turns(game.turns, [row.summary for row in base["sheet"]],
                                    allow_html),
        **board,
        board_caption=(last_position_caption("Board", game.stopped_at) if game.turns
                       else "Board before the first move"),
        chart=score_chart(game), current=None, rules_text=_rules_text(game),
        canonical=canonical(base, "index.html"))


def _rules_text(game: CrosswordGame) -> str:
    rules = game.rules
    size = rules.layout.size
    parts = [rules.lexicon] if rules.lexicon else []
    parts += [f"{rules.distribution.name.replace('_', ' ')} tiles", f"{size}×{size} board"]
    return " · ".join(parts)


def game_json(entry: GameEntry, game: CrosswordGame) -> dict[str, Any]:
    """The documented ``game.json``: the ``pgm check --json`` object plus site metadata."""
    return with_site_keys(game_report(game), entry, RECORD_NAME, len(game.turns))

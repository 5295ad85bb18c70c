"""The files of one Upwords game's folder: overview, one page per event, record, JSON.

Upwords records are GCG (``#game-type upwords``), so the folder mirrors a crossword
game's: turn ``N.html`` shows the stacks after the record's N-th event line (numbered as
the record's events, stable while a game in progress is appended to), the overview has
the score sheet and the final board, and ``game.json`` is the ``pgm check --json`` object
of the record. Where a crossword page offers the position as CGP, an Upwords page offers
the board as UBF, the format Upwords tools exchange boards in.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jinja2

from pgm.crossword import scores_added_up
from pgm.diagnostics import Diagnostic, shown_by_line
from pgm.event_checks import gcg_moves_digest
from pgm.export import moves_csv
from pgm.markdown import render_markdown
from pgm.page_parts import (
    annotated_turns,
    canonical,
    final_result,
    game_json_text,
    last_position_caption,
    navigation,
    note_views,
    turn_title,
    with_site_keys,
)
from pgm.render import printed
from pgm.site_model import GameEntry
from pgm.turn_window import TurnWindow
from pgm.upwords import UpwordsGame
from pgm.upwords_report import game_report
from pgm.upwords_view import board_view, describe, play_squares, player_lines, score_sheet

RECORD_NAME = "input.gcg"


def upwords_entry_fields(game: UpwordsGame) -> dict[str, Any]:
    """What the event index needs: players, recorded scores, in progress until the
    record ends the game."""
    players = tuple(p.name for p in game.record.players)
    return {"players": players, "scores": tuple(game.final.scores),
            "live": not game.complete, "turns": len(game.turns),
            "moves": gcg_moves_digest(game.turns),
            "added_up": scores_added_up(game.turns, len(players))}


def render_upwords_game(env: jinja2.Environment, entry: GameEntry, game: UpwordsGame,
                        record: bytes, common: dict[str, Any]
                        ) -> Iterator[tuple[str, str | bytes]]:
    """Yield (file name inside the game folder, content) for every file of the game."""
    by_line = shown_by_line(game.diagnostics)
    allow_html = common["event"].allow_html
    base = dict(common, game=entry, sheet=score_sheet(game, by_line),
                spoiler_free=common["event"].spoiler_free, record_name=RECORD_NAME,
                board_caption_id="board-caption")
    report = game_json(entry, game)
    yield "index.html", _overview(env, game, base, allow_html)
    template = env.get_template("upwords_turn.html")
    parts = env.get_template("partials/turn_parts.html").module
    for index in range(len(game.turns)):
        yield f"{game.turns[index].number}.html", template.render(
            _turn_context(entry, game, index, base, allow_html, by_line, parts))
    yield RECORD_NAME, record
    yield "game.json", game_json_text(report)
    yield "moves.csv", moves_csv(report)


def _rules_text(game: UpwordsGame) -> str:
    parts = [game.record.lexicon] if game.record.lexicon else []
    return " · ".join(parts + ["Upwords", "10×10 board, stacks of up to 5",
                               "scores as recorded"])


def _overview(env: jinja2.Environment, game: UpwordsGame, base: dict[str, Any],
              allow_html: bool) -> str:
    record = game.record
    description = render_markdown(record.description, allow_html) if record.description else ""
    return env.get_template("upwords_game.html").render(
        base, description=description, problems=sorted(game.diagnostics, key=lambda d: d.line),
        game_notes=[render_markdown(n.text, allow_html) for n in record.game_notes],
        turns=game.turns, board=board_view(game.final.board),
        annotations=annotated_turns(game.turns, [row.summary for row in base["sheet"]],
                                    allow_html),
        board_caption=last_position_caption("Board", game.stopped_at), current=None,
        rules_text=_rules_text(game), canonical=canonical(base, "index.html"))


def _turn_context(entry: GameEntry, game: UpwordsGame, index: int, base: dict[str, Any],
                  allow_html: bool, by_line: dict[int, list[Diagnostic]], parts: Any
                  ) -> dict[str, Any]:
    turn = game.turns[index]
    total = len(game.turns)
    move_text = describe(turn, game)
    problems = list(by_line.get(turn.event.line, []))
    if index == total - 1 and game.stopped_at is not None:
        problems += by_line.get(game.stopped_at, [])
    title = turn_title("Turn", turn.number, printed(move_text), printed(entry.label),
                       base["spoiler_free"])
    stacked, through = play_squares(turn)
    window = TurnWindow.of(turn.number, total, base["spoiler_free"])
    return dict(
        base, title=title, number=turn.number, total=total, move_text=move_text,
        board=board_view(turn.position.board, stacked, through),
        board_caption=f"Board after turn {turn.number}: {move_text}",
        rack=turn.event.rack, words=turn.words, players=player_lines(game, index),
        game_over=turn.position.game_over,
        result=final_result(parts, entry, index == total - 1),
        notes=note_views(turn.event.notes, allow_html),
        problems=problems, ubf=game.ubf(index), current=turn.number,
        nav=navigation(turn.number, total),
        sheet=window.rows(base["sheet"]), sheet_before=window.before,
        sheet_after=window.after,
        canonical=canonical(base, f"{turn.number}.html"))


def game_json(entry: GameEntry, game: UpwordsGame) -> dict[str, Any]:
    """The documented ``game.json``: the ``pgm check --json`` object plus site metadata."""
    return with_site_keys(game_report(game), entry, RECORD_NAME, len(game.turns))

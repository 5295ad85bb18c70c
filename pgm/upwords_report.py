"""The ``pgm check --json`` object for an Upwords record (``#game-type upwords``).

The keys are the crossword report's (README, "Checking records") so that tools reading
either need one code path: ``game`` is ``"upwords"``, ``distribution`` is null (no tile
counts are checked), ``board`` is ``"Upwords"`` (10x10, no premiums), ``computed_score``
is always null (scores are taken as recorded) and each event carries ``ubf``, the board
after it as UBF text, where a crossword event has ``cgp``.
"""

from __future__ import annotations

from typing import Any

from pgm.crossword_report import event_fields, gcg_report
from pgm.diagnostics import Diagnostic
from pgm.gcg import GcgRecord, parse_gcg
from pgm.upwords import BOARD_NAME, UpwordsGame, replay


def upwords_report(data: bytes, path: str) -> tuple[dict[str, Any], list[Diagnostic]]:
    return record_report(parse_gcg(data, path))


def record_report(record: GcgRecord) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The report of a record already parsed (``pgm check`` parses a .gcg once to see
    its ``#game-type``)."""
    game = replay(record)
    return game_report(game), list(game.diagnostics)


def game_report(game: UpwordsGame) -> dict[str, Any]:
    return gcg_report(game, "upwords", (game.record.lexicon or None, None, BOARD_NAME),
                      [_event(game, index) for index in range(len(game.turns))])


def _event(game: UpwordsGame, index: int) -> dict[str, Any]:
    turn = game.turns[index]
    return dict(event_fields(turn.event, turn.player, game.record.players[turn.player].nick,
                             None, turn.position.scores, turn.words),
                ubf=game.ubf(index))

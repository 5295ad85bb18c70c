"""The ``pgm check --json`` object for a crossword record (documented in README)."""

from __future__ import annotations

from typing import Any

from pgm.crossword import replay
from pgm.crossword_model import CrosswordGame
from pgm.diagnostics import Diagnostic
from pgm.gcg import parse_gcg


def crossword_report(data: bytes, path: str) -> tuple[dict[str, Any], list[Diagnostic]]:
    game = replay(parse_gcg(data, path))
    return game_report(game), list(game.diagnostics)


def game_report(game: CrosswordGame) -> dict[str, Any]:
    record = game.record
    return {
        "path": record.path,
        "game": "crossword",
        "players": [p.nick for p in record.players],
        "names": [p.name for p in record.players],
        "lexicon": game.rules.lexicon or None,
        "distribution": game.rules.distribution.name,
        "board": game.rules.layout.name,
        "complete": game.complete,
        "diagnostics": [d.to_json() for d in game.diagnostics],
        "events": [_event(game, index) for index in range(len(game.turns))],
        "final_scores": list(game.final.scores),
    }


def _event(game: CrosswordGame, index: int) -> dict[str, Any]:
    turn = game.turns[index]
    event = turn.event
    return {
        "line": event.line,
        "player": game.record.players[turn.player].nick,
        "kind": event.kind.value,
        "rack": event.rack or None,
        "position": event.position or None,
        "word": event.word or None,
        "stated_score": event.score,
        "computed_score": turn.computed_score,
        "cumulative": list(turn.position.scores),
        "words_formed": list(turn.words),
        "notes": [note.text for note in event.notes],
        "cgp": game.cgp(index),
    }

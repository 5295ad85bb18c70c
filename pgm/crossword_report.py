"""The ``pgm check --json`` object for a crossword record (documented in README).

GCG also records Upwords (``#game-type upwords``), whose stacks the crossword replay
cannot place: :func:`crossword_report` hands such a record to ``pgm.upwords_report``,
so ``pgm check`` picks the game by the record's content, as the extension cannot.
"""

from __future__ import annotations

from typing import Any, Protocol

from pgm.config import GameSettings
from pgm.crossword import replay
from pgm.crossword_model import CrosswordGame
from pgm.diagnostics import Diagnostic
from pgm.gcg import Event, GcgRecord, parse_gcg
from pgm.upwords import is_upwords


def crossword_report(data: bytes, path: str, settings: GameSettings
                     ) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The report of a .gcg replayed with the lexicon, tile set and board its event's
    ``event.yaml`` gives a record that does not name its own."""
    record = parse_gcg(data, path)
    if is_upwords(record):
        from pgm.upwords_report import record_report  # loaded only for Upwords records

        return record_report(record)
    game = replay(record, distribution=settings.distribution, board=settings.board,
                  lexicon=settings.lexicon)
    return game_report(game), list(game.diagnostics)


def game_report(game: CrosswordGame) -> dict[str, Any]:
    rules = game.rules
    return gcg_report(game, "crossword", (rules.lexicon or None, rules.distribution.name,
                                          rules.layout.name),
                      [_event(game, index) for index in range(len(game.turns))])


class _Scored(Protocol):
    @property
    def scores(self) -> tuple[int, ...]: ...


class ReplayedGcg(Protocol):
    """What a report needs of a replayed GCG record, crossword game or Upwords."""

    @property
    def record(self) -> GcgRecord: ...
    @property
    def complete(self) -> bool: ...
    @property
    def stopped_at(self) -> int | None: ...
    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]: ...
    @property
    def final(self) -> _Scored: ...


def gcg_report(game: ReplayedGcg, kind: str,
               rules: tuple[str | None, str | None, str], events: list[dict[str, Any]]
               ) -> dict[str, Any]:
    """The ``pgm check --json`` object of a replayed GCG record; ``rules`` are its
    lexicon, tile set and board by name."""
    record = game.record
    lexicon, distribution, board = rules
    return {
        "path": record.path,
        "game": kind,
        "players": [p.nick for p in record.players],
        "names": [p.name for p in record.players],
        "lexicon": lexicon,
        "distribution": distribution,
        "board": board,
        "complete": game.complete,
        "stopped_at": game.stopped_at,
        "diagnostics": [d.to_json() for d in game.diagnostics],
        "events": events,
        "final_scores": list(game.final.scores),
    }


def _event(game: CrosswordGame, index: int) -> dict[str, Any]:
    turn = game.turns[index]
    return dict(event_fields(turn.event, turn.player, game.record.players[turn.player].nick,
                             turn.computed_score, turn.position.scores, turn.words),
                cgp=game.cgp(index))


def event_fields(event: Event, seat: int, nick: str, computed: int | None,
                 scores: tuple[int, ...], words: tuple[str, ...]) -> dict[str, Any]:
    """The keys every replayed GCG event has in ``pgm check --json`` (crossword and
    Upwords alike); each game kind adds its position format. ``word`` is a play's
    alone; the tiles an exchange or an end-of-game rack line names are ``tiles``, as
    written after the ``-`` or inside the parentheses (``exchange_count`` when an
    exchange gives only how many)."""
    return {
        "line": event.line,
        "seat": seat,
        "player": nick,
        "kind": event.kind.value,
        "rack": event.rack or None,
        "position": event.position or None,
        "word": event.word or None,
        "tiles": event.tiles or None,
        "exchange_count": event.exchange_count,
        "stated_score": event.score,
        "computed_score": computed,
        "cumulative": list(scores),
        "words_formed": list(words),
        "notes": [note.text for note in event.notes],
    }

"""Checks across the games of an event, which no single record can show.

A TD's folder gathers copies: ``table-1 (1).gcg`` from a file manager, a ``round-4-old``
folder kept just in case. Each copy replays cleanly, is listed as a game of its own and
counts again on the player index, so a win becomes two. A copy is told by its players
and its moves (``moves_digest``): an edited copy (a note added, a score corrected) is
still one, and two games of one pair are not.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from pgm.diagnostics import Diagnostic, Severity
from pgm.site_model import GameEntry


def repeated_games(entries: Iterable[GameEntry], named: Callable[[str], str] = str
                   ) -> list[Diagnostic]:
    """A warning at every game that repeats another, naming it (``named``: a record's
    path as the user reads it). The shorter path is taken for the original: copies
    add to a name (`` (1)``, `` - Copy``, ``-old``)."""
    first: dict[Hashable, GameEntry] = {}
    warnings = []
    for entry in sorted(entries, key=lambda e: (len(e.relative), e.relative)):
        key = _game_key(entry)
        if key is None:
            continue
        original = first.setdefault(key, entry)
        if original is not entry:
            warnings.append(Diagnostic(
                entry.relative, 0, Severity.WARNING,
                f"the same game as {named(original.relative)} (players and moves): "
                "listed twice, and counted twice on the player index once it has "
                "a result; remove the copy, or make one of them a draft in event.yaml"))
    return warnings


def moves_digest(moves: Iterable[str]) -> str:
    """A short digest of a game's moves as written, for :func:`repeated_games`."""
    return hashlib.blake2b("\n".join(moves).encode("utf-8", "surrogateescape"),
                           digest_size=12).hexdigest()


def gcg_moves_digest(turns: Iterable[Any]) -> str:
    """:func:`moves_digest` of a crossword or Upwords game's turns: each event's place,
    word and tiles as the record writes them."""
    return moves_digest(f"{turn.event.position} {turn.event.word}{turn.event.tiles}"
                        for turn in turns)


def _game_key(entry: GameEntry) -> Hashable | None:
    """What two copies of a game share; None for a game with too little to tell it
    from another (no move yet: every game of a round starts alike)."""
    if entry.turns == 0 or not entry.players or not entry.moves or entry.failed:
        return None
    return (entry.kind, entry.players, entry.moves)

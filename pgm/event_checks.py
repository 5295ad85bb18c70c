"""Checks across the games of an event, which no single record can show.

A TD's folder gathers copies: ``table-1 (1).gcg`` from a file manager, a ``round-4-old``
folder kept just in case. Each copy replays cleanly, is listed as a game of its own and
counts again on the player index, so a win becomes two. A copy is told by what the
index shows of a game: the same players, the same number of turns and the same result.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

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
                f"the same game as {named(original.relative)} (players, turns and "
                "result): listed, and counted on the player index, twice; remove the "
                "copy, or make it a draft in event.yaml"))
    return warnings


def _game_key(entry: GameEntry) -> Hashable | None:
    """What two copies of a game share; None for a game with too little to tell it
    from another (no move yet: every game of a round starts alike)."""
    if entry.turns == 0 or not entry.players or entry.failed:
        return None
    return (entry.kind, entry.players, entry.scores, entry.turns, entry.status)

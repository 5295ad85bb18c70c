"""Checks across the games of an event, which no single record can show.

A TD's folder gathers copies: ``table-1 (1).gcg`` from a file manager, a ``round-4-old``
folder kept just in case. Each copy replays cleanly, is listed as a game of its own and
counts again on the player index, so a win becomes two. A copy is told by what the
index shows of a game: the same players, the same number of turns and the same scores.
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
                "scores): listed twice, and counted twice on the player index once it has "
                "a result; remove the copy, or make one of them a draft in event.yaml"))
    return warnings


def _game_key(entry: GameEntry) -> Hashable | None:
    """What two copies of a game share; None for a game with too little to tell it
    from another: no move yet (every game of a round starts alike), or no scores (two
    Gungi games of one pair, as long and with the same result, are not copies)."""
    if entry.turns == 0 or not entry.players or entry.scores is None or entry.failed:
        return None
    return (entry.kind, entry.players, entry.scores, entry.turns, entry.status)

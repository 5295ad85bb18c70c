"""Checks across the games of an event, which no single record can show.

A TD's folder gathers copies: ``table-1 (1).gcg`` from a file manager, a ``round-4-old``
folder kept just in case. Each copy replays cleanly, is listed as a game of its own and
counts again on the player index, so a win becomes two. A copy is told by its players
and its moves (``moves_digest``): an edited copy (a note added, a score corrected) is
still one, and two games of one pair are not.

Names are typed anew in every record: ``Doug`` in round 1 and ``doug`` in round 2 are
two players on the player index, each with half the record, unless pgm says so.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from pgm.diagnostics import Diagnostic, Severity
from pgm.site_model import GameEntry, natural_key


def repeated_games(entries: Iterable[GameEntry], named: Callable[[str], str] = str
                   ) -> list[Diagnostic]:
    """A warning at every game that repeats another, naming it (``named``: a record's
    path as the user reads it), at line 1: an editor opens the file. The shorter path is
    taken for the original: copies add to a name (`` (1)``, `` - Copy``, ``-old``)."""
    first: dict[Hashable, GameEntry] = {}
    warnings = []
    for entry in sorted(entries, key=lambda e: (len(e.relative), e.relative)):
        key = _game_key(entry)
        if key is None:
            continue
        original = first.setdefault(key, entry)
        if original is not entry:
            warnings.append(Diagnostic(
                entry.relative, 1, Severity.WARNING,
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


def name_variants(entries: Iterable[GameEntry], named: Callable[[str], str] = str
                  ) -> list[Diagnostic]:
    """A warning at the first game of each spelling of a player's name that differs from
    another of the same division only in case, spaces or accents: the player index lists
    each spelling as a player of its own. The most used spelling is taken for the right
    one (the first met on a tie)."""
    spellings: dict[tuple[str | None, str], dict[str, list[GameEntry]]] = {}
    for entry in sorted(entries, key=lambda e: natural_key(e.relative)):
        if entry.kind in ("crossword", "upwords", "gungi"):
            for name in entry.players:
                key = (entry.division, _name_key(name))
                spellings.setdefault(key, {}).setdefault(name, []).append(entry)
    warnings = []
    for found in spellings.values():
        if len(found) < 2:
            continue
        usual = max(found, key=lambda name: len(found[name]))
        for name, games in found.items():
            if name != usual:
                where = named(found[usual][0].relative)
                warnings.append(Diagnostic(
                    games[0].relative, 1, Severity.WARNING,
                    f"player {name!r} is spelled {usual!r} in {where}: listed as another player"
                    " on the player index; spell the name alike in every record"))
    return warnings


@functools.lru_cache(maxsize=65_536)
def _name_key(name: str) -> str:
    """``name`` without case, accents and extra spaces (``José  Díaz`` is ``jose diaz``);
    kept, because every rebuild under ``pgm watch`` asks it of every player again."""
    plain = unicodedata.normalize("NFKD", name.casefold())
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split())

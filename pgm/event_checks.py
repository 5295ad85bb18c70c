"""Checks across the games of an event, which no single record can show.

A TD's folder gathers copies: ``table-1 (1).gcg`` from a file manager, a ``round-4-old``
folder kept just in case. Each copy replays cleanly, is listed as a game of its own and
counts again on the player index, so a win becomes two. A copy is told by its players
and its moves (``moves_digest``): an edited copy (a note added, a score corrected) is
still one, and two games of one pair are not.

Names are typed anew in every record: ``Doug`` in round 1 and ``doug`` in round 2 are
two players on the player index, each with half the record, unless pgm says so.

A game is listed by its division, round and table, read from its folders and file name
unless ``event.yaml`` says them: an archive of several events built as one site
(``2022/Spring Open/round-1``, ``2022/Autumn Cup/round-1``) lists both events' round 1
as one, the events' folder names nowhere, and adds up their results on the player index,
unless ``division_folders`` names each division by more than its first folder.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator
from pathlib import Path
from typing import Any

from pgm.diagnostics import Diagnostic, Severity
from pgm.discover import DIVISION_JOIN, guess_division, names_round, shown_name
from pgm.site_model import POSITION_KINDS, GameEntry, natural_key, round_title
from pgm.text_fold import without_accents


def repeated_games(entries: Iterable[GameEntry], named: Callable[[str], str] = str
                   ) -> list[Diagnostic]:
    """A warning at every game that repeats another, naming it (``named``: a record's
    path as the user reads it), at line 1: an editor opens the file. The shorter path is
    taken for the original: copies add to a name (`` (1)``, `` - Copy``, ``-old``)."""
    return [Diagnostic(entry.relative, 1, Severity.WARNING,
                       f"the same game as {named(original.relative)} (players and moves): "
                       "listed twice, and counted twice on the player index once it has "
                       "a result; remove the copy, or make one of them a draft in event.yaml")
            for entry, original in _originals(entries) if original is not entry]


def _originals(entries: Iterable[GameEntry]) -> Iterator[tuple[GameEntry, GameEntry]]:
    """Each entry with the game it is a copy of, or itself: the shortest path of those
    with its players and moves (see :func:`repeated_games`)."""
    first: dict[Hashable, GameEntry] = {}
    for entry in sorted(entries, key=lambda e: (len(e.relative), e.relative)):
        key = _game_key(entry)
        yield entry, entry if key is None else first.setdefault(key, entry)


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
    """``name`` without case, accents and extra spaces (``José  Díaz`` is ``jose diaz``,
    ``Łukasz`` is ``lukasz``);
    kept, because every rebuild under ``pgm watch`` asks it of every player again."""
    return " ".join(without_accents(name).casefold().split())


def same_places(entries: Iterable[GameEntry], named: Callable[[str], str] = str
                ) -> list[Diagnostic]:
    """A warning at every game listed at the same division, round and table as another
    (a set of positions is no game): from another event's folder, when folders above a
    round's that the listing does not show tell them apart (two events built as one
    site), and at a known table, by other players (a table mistyped in a file name; the
    same players at one table are a match of several games). Copies of one game are
    left to :func:`repeated_games`; games of one event at no known table are a round's."""
    places: dict[tuple[str | None, str | None, str | None], list[GameEntry]] = {}
    for entry, original in _originals(entries):
        if entry.kind not in POSITION_KINDS and original is entry:
            places.setdefault((entry.division, entry.round, entry.table), []).append(entry)
    warnings = []
    for (division, round_name, table), games in places.items():
        if len(games) < 2:
            continue
        games.sort(key=lambda e: natural_key(e.relative))
        where = _place(division, round_name, table)
        for game, found in _SamePlace(games, table is not None).conflicts():
            warnings.append(Diagnostic(game.relative, 1, Severity.WARNING,
                                       _same_place(game, found, where, named)))
    return warnings


class _SamePlace:
    """The games listed at one place, each with the first other it is wrongly listed
    with and how many there are. Games are grouped once, by event (and at a known
    table, by players too: a match), and the others counted by group, so that a place
    holding thousands of games (an archive with no rounds or tables) costs one pass."""

    def __init__(self, games: list[GameEntry], at_table: bool) -> None:
        self.games = games
        self.groups: list[Hashable] = [
            (_event_key(game), frozenset(game.players)) if at_table else _event_key(game)
            for game in games]
        self.sizes = Counter(self.groups)
        firsts: dict[Hashable, int] = {}
        for index, group in enumerate(self.groups):
            firsts.setdefault(group, index)
        self.earliest = sorted(firsts.items(), key=lambda item: item[1])[:2]
        """The two groups met first, and where: another group's first is among them."""

    def conflicts(self) -> Iterator[tuple[GameEntry, tuple[GameEntry, int]]]:
        if len(self.sizes) < 2:
            return  # one event's round, or one match at its table
        for game, group in zip(self.games, self.groups, strict=True):
            first = next(index for other, index in self.earliest if other != group)
            yield game, (self.games[first], len(self.games) - self.sizes[group])


def _folders(relative: str) -> list[str]:
    """The folders of the record at ``relative``, below the event, as named."""
    return shown_name(relative).split("/")[:-1]


def _event_key(entry: GameEntry) -> tuple[str, ...]:
    """The folders above a record's round folder that name no round: two records whose
    differ there are of two events the listing shows as one (``2022/Spring Open/round-1``
    and ``2022/Autumn Cup/round-1``). Folders below the event with no round folder in
    them (a folder per player or per board) tell no events apart."""
    return _event_key_of(entry.relative)


@functools.lru_cache(maxsize=65_536)
def _event_key_of(relative: str) -> tuple[str, ...]:
    """:func:`_event_key` of the record at ``relative``, kept: every rebuild under ``pgm
    watch`` asks it of every game again."""
    folders = _folders(relative)
    rounds = [i for i, folder in enumerate(folders) if names_round(folder)]
    return tuple(f for f in folders[:rounds[-1]] if not names_round(f)) if rounds else ()


def _place(division: str | None, round_name: str | None, table: str | None) -> str:
    """Where the index lists a game, as its headings read."""
    where = " › ".join(filter(None, (division, round_title(round_name) if round_name else "")))
    if table is None:
        return where
    return f"{where}, table {table}" if where else f"table {table}"


def _same_place(game: GameEntry, found: tuple[GameEntry, int], where: str,
                named: Callable[[str], str]) -> str:
    other, count = found
    also = f" (and {count - 1} other game{'s' if count > 2 else ''})" if count > 1 else ""
    folders, others = _folders(game.relative), _folders(other.relative)
    if folders == others:
        return (f"listed at {where}, as is {named(other.relative)}{also} in the same folder: "
                "two games at one table; correct the table in the file name, "
                "or set table: for one of them under games: in event.yaml")
    hidden, theirs = _hidden(folders, others, game.division)
    if not hidden:
        return (f"listed at {where}, as is {named(other.relative)}{also} from another folder "
                "of the same round: two games at one table; correct the table "
                "or the round in a file or folder name, or set table: or round: in "
                "event.yaml")
    shown = " and ".join(f"'{name}'" for name in hidden)
    why = " (the division is the first folder that is not a round)" if \
        game.division is not None and game.division == guess_division(shown_name(game.relative)) \
        else ""
    return (f"listed at {where}, as is {named(other.relative)}{also} from another folder: "
            f"the index leaves out folder{'s' if len(hidden) > 1 else ''} {shown}{why}, "
            "so both folders' games are listed as one event and the player index adds up "
            f"their results; {_numbered_hint(hidden)}"
            f"{_folders_hint(other if theirs else game, hidden)}set division: in each "
            f"folder's event.yaml (e.g. division: {_example(other if theirs else game, named)}"
            "), or build each event folder as a site of its own")


def _folders_hint(game: GameEntry, hidden: list[str]) -> str:
    """The ``division_folders`` that names the game's division down to the folders the
    listing leaves out: one setting for an archive of years and tournaments, where
    ``division:`` would take an ``event.yaml`` in each of their folders."""
    kept = [f for f in _folders(game.relative) if not names_round(f)]
    depth = max(kept.index(f) for f in hidden) + 1
    if depth < 2:
        return ""
    return (f"set division_folders: {depth} in the event's event.yaml, to name each division "
            f"by its first {depth} folders (\"{DIVISION_JOIN.join(kept[:depth])}\"), or ")


_NUMBERED = re.compile(r"[^\W\d_]+[\s_-]*(\d{1,3})")
"""A word and a number of at most three digits, as rounds are named (``etap-2``); a year
(``2023``, ``Tour 2024``) is no round, as :mod:`pgm.discover` reads names too."""


def _numbered_hint(folders: list[str]) -> str:
    """Folders named as a word and a number (``etap-2``) are most likely rounds named
    in a word pgm does not know: the round is what to set, not a division per round."""
    numbered = [found for f in folders if (found := _NUMBERED.fullmatch(f))]
    if len(numbered) != len(folders):
        return ""
    first = numbered[0]
    return (f"if {first.group(0)!r} is a round, set round: {int(first.group(1))} in its "
            "event.yaml (and so for the others); otherwise ")


def _hidden(folders: list[str], others: list[str], division: str | None
            ) -> tuple[list[str], bool]:
    """The folders, named by no round, that tell two records' folders apart: the
    record's own, else the other's (``late`` of ``Open/round-1/late``, for a game in
    ``Open/round-1``), and whether they are the other's; none when the two differ only
    in how they name the round."""
    own, theirs = ([f for f in found if not names_round(f)] for found in (folders, others))
    if own == theirs:
        return [], False
    if only_own := [f for f in own if f not in theirs]:
        return only_own, False
    if only_theirs := [f for f in theirs if f not in own]:
        return only_theirs, True
    return [f for f in own if f != division], False


def _example(game: GameEntry, named: Callable[[str], str]) -> str:
    """A division that tells the game's folder apart (its folders but the rounds), and
    the ``event.yaml`` to set it in: in the innermost of those folders."""
    folders = _folders(game.relative)
    kept = [f for f in folders if not names_round(f)]
    depth = max(i for i, f in enumerate(folders) if not names_round(f)) + 1
    place = Path(named(game.relative)).parents[len(folders) - depth] / "event.yaml"
    return f"{' '.join(kept)} in {place}"


def players_at_two_tables(entries: Iterable[GameEntry], named: Callable[[str], str] = str
                          ) -> list[Diagnostic]:
    """A warning at every game that lists a player whom another game of the same round
    (of one division and one event, see :func:`same_places`) lists at another known
    table: nobody plays at two tables at once, so one of the records names the wrong
    players (a header copied from another game) or the wrong table. The warning names
    the first such game and counts the others. Names are compared as
    :func:`name_variants` compares them. Games at no known table, the games of a match
    (one table), positions and copies (see :func:`repeated_games`) are left out, and so
    is a Gungi side no name is given for (listed as ``Black`` or ``White``)."""
    rounds: dict[Hashable, dict[str, list[tuple[GameEntry, str]]]] = {}
    for entry, original in sorted(_originals(entries),
                                  key=lambda pair: natural_key(pair[0].relative)):
        if (entry.kind in POSITION_KINDS or original is not entry or entry.round is None
                or entry.table is None):
            continue
        seats = rounds.setdefault((_event_key(entry), entry.division, entry.round), {})
        for key, name in {_seat_key(entry, seat, name): name
                          for seat, name in enumerate(entry.players)}.items():
            if key:
                seats.setdefault(key, []).append((entry, name))
    clashes: dict[GameEntry, dict[tuple[GameEntry, int], list[str]]] = {}
    for seats in rounds.values():
        for games in seats.values():
            for (game, name), (other, theirs), count in _other_tables(games):
                clashes.setdefault(game, {}).setdefault((other, count), []).append(
                    f"{name!r}" if theirs == name else f"{name!r} (spelled {theirs!r} there)")
    return [Diagnostic(game.relative, 1, Severity.WARNING,
                       _at_two_tables(game, found, names, named))
            for game in sorted(clashes, key=lambda e: natural_key(e.relative))
            for found, names in clashes[game].items()]


def _seat_key(entry: GameEntry, seat: int, name: str) -> str:
    """The player at ``seat`` as :func:`name_variants` tells players apart; empty for a
    name that names nobody (blank, or the side of a Gungi player given no name)."""
    if entry.kind == "gungi" and name == ("Black", "White")[seat % 2]:
        return ""
    return _name_key(name)


def _other_tables(games: list[tuple[GameEntry, str]]
                  ) -> Iterator[tuple[tuple[GameEntry, str], tuple[GameEntry, str], int]]:
    """Each of one player's games of a round (in the listing's order) with the first of
    the player's games at another table, and how many there are; none when all are at
    one table. One pass: the first game at each of the first two tables met is where
    any game's first other is."""
    tables = Counter(game.table for game, _ in games)
    if len(tables) < 2:
        return  # one table: a match, or one game
    firsts: dict[str | None, tuple[GameEntry, str]] = {}
    for game, name in games:
        firsts.setdefault(game.table, (game, name))
        if len(firsts) == 2:
            break
    for game, name in games:
        other = next(found for table, found in firsts.items() if table != game.table)
        yield (game, name), other, len(games) - tables[game.table]


def _at_two_tables(game: GameEntry, found: tuple[GameEntry, int], names: list[str],
                   named: Callable[[str], str]) -> str:
    other, count = found
    who = (f"player {names[0]} is" if len(names) == 1 else
           f"players {', '.join(names[:-1])} and {names[-1]} are")
    also = f" (and {count - 1} other game{'s' if count > 2 else ''})" if count > 1 else ""
    return (f"{who} listed at {_place(game.division, game.round, game.table)}, and at "
            f"table {other.table} in {named(other.relative)}{also}: nobody plays at two "
            "tables of one round (a header copied from another game?); correct the names "
            "in the record that has them wrong, or the table in its file name")

"""The event as the index pages see it: games grouped by division and round, players.

Built from every game before any page is written, so the event index, the player index
and each game's pages agree (two phases, as MkDocs and Pelican build).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import posixpath
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, replace

from pgm.diagnostics import Diagnostic, Severity
from pgm.markdown import strip_bidi_controls
from pgm.text_fold import name_order, without_accents
from pgm.ubf_report import KIND as UBF_KIND

POSITION_KINDS = frozenset({"cgp", UBF_KIND})
"""The kinds of record that hold positions, not a game: never in progress, never won."""

FSI, PDI = "\u2068", "\u2069"
"""FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: what pgm puts around a name in text
it composes, so that the name reads in its own direction and the numbers and punctuation
beside it keep their places. They work in plain text (``<title>``, attributes, live.json,
which pgm-live.js sets as text); HTML a template lays out uses ``<bdi>`` instead."""

_RIGHT_TO_LEFT = frozenset({"R", "AL", "AN"})
"""Bidi classes that reorder the text around them in a left-to-right paragraph: Hebrew
and Arabic letters (and marks such as RLM), Arabic digits."""


def _reorders(text: str) -> bool:
    """Whether ``text`` holds right-to-left characters. Text without any reads the same
    isolated or not in pgm's left-to-right pages, so it is left as it is: a record of
    plain names keeps pages of plain ASCII, half the memory and written without encoding."""
    return not text.isascii() and any(
        unicodedata.bidirectional(c) in _RIGHT_TO_LEFT for c in text)


@functools.lru_cache(maxsize=4096)
def isolated(name: str) -> str:
    """``name`` (a player's, or any text from a record) as pgm puts it in text it
    composes ("NAME played HI at 9I"): without bidi controls of its own, between FSI and
    PDI when it holds right-to-left text. Kept per name: a game's names are isolated
    once, whatever number of pages show them. The name loses its own controls first,
    which could reorder what a spectator reads around it (an RLO), or end the isolate
    pgm puts it in (a PDI)."""
    name = strip_bidi_controls(name)
    return f"{FSI}{name}{PDI}" if _reorders(name) else name


@dataclass(frozen=True)
class GameEntry:
    slug: str
    relative: str
    kind: str
    """``crossword``, ``upwords``, ``gungi``, ``cgp`` (a set of positions) or
    ``upwords-board`` (one board, a ``.ubf`` file)."""
    label: str
    """The game's name on the site (a title, or "Ann vs jvc"), its names and title
    :func:`isolated`: printed beside other text, it cannot reorder that text."""
    players: tuple[str, ...]
    """As the record names them (the player index and the event's checks match them)."""
    scores: tuple[int, ...] | None
    """Final (or current) scores in seat order; None for games without scores."""
    live: bool
    status: str
    """"Ann 381 – jvc 520, jvc won", its names :func:`isolated`: on pages, in ``<title>``
    and in live.json, whose text pgm-live.js sets as it is."""
    result_by_seat: tuple[str, ...]
    """``W``/``L``/``T`` per seat when the game is over, else empty strings."""
    turns: int
    division: str | None
    round: str | None
    table: str | None
    updated: str = ""
    """ISO time the record last changed."""
    diagnostics: tuple[Diagnostic, ...] = ()
    stopped_at: int | None = None
    """Line of the error that stopped the replay: the game is shown up to it, neither
    in progress nor with a result."""
    failed: bool = False
    """The record could not be read, or pgm failed on it: its folder holds a page that
    says so, never kept as the game's last good pages."""
    unfinished: bool = False
    """The record does not end the game and nobody adds to it (``live: false``): shown
    as it stands, with no result, and not counted on the player index."""
    moves: str = ""
    """A digest of the game's moves (``pgm.event_checks.moves_digest``): two records
    with the same players and moves are copies of one game."""

    @property
    def division_anchor(self) -> str:
        """Where the event index lists the game's division (see :func:`index_anchor`)."""
        return index_anchor(self.division)

    @property
    def round_anchor(self) -> str:
        """Where the event index lists the game's round."""
        return index_anchor(self.division, self.round)

    @property
    def player_rows(self) -> tuple[tuple[str, str], ...]:
        """Each seat's name and the id of that player's row on the player index (see
        :func:`player_anchor`), in seat order: made from the game alone, as a game page
        is rendered without the other games."""
        return tuple((name, player_anchor(self.division, name)) for name in self.players)

    @property
    def updated_utc(self) -> str:
        """``updated`` as a live page shows it (see :func:`utc_text`)."""
        return utc_text(self.updated)

    def __hash__(self) -> int:
        """By slug alone: equal entries have equal slugs, and the index pages key their
        memoized rows by entries, thousands of them, at every rebuild."""
        return hash(self.slug)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def over(self) -> bool:
        """The record ends the game: it has a result, even while its pages still follow
        the record for corrections (``live: true``)."""
        return any(self.result_by_seat)

    @property
    def in_progress(self) -> bool:
        """Followed for new moves, with no end of the game recorded yet."""
        return self.live and not self.over

    @property
    def status_class(self) -> str:
        return "live" if self.live else "final"

    @property
    def short_status(self) -> str:
        """The status that gives nothing away, for spoiler-free events. A board or a
        set of positions has no result to give away: its status, what the file holds
        ("Upwords board: 74 tiles in 30 stacks", "3 positions"), is shown as it is."""
        if self.failed:
            return "not shown"
        if self.kind in POSITION_KINDS:
            return self.status
        if self.in_progress:
            return "in progress"
        if self.stopped_at is not None:
            return "stopped by an error"
        return "unfinished" if self.unfinished else "finished"


def utc_text(iso: str) -> str:
    """The date and time of an ISO time in UTC (``YYYY-MM-DD HH:MM:SS``), as pages show
    the last update without JavaScript: a change made yesterday must not read as today's."""
    return f"{iso[:10]} {iso[11:19]}" if iso else ""


def round_title(name: str, short: bool = False) -> str:
    """A round as headings name it: "Round 3" ("R3" ``short``, as a player's list of
    games does), but a round named in words (``round: Final`` in ``event.yaml``) by its
    own name, not "Round Final"."""
    if not name[:1].isdigit():
        return name
    return f"R{name}" if short else f"Round {name}"


def index_anchor(division: str | None, round_name: str | None = None) -> str:
    """The id of a division's section or a round's heading on the event index, to which
    a game page's trail links: made from the names alone, as a game page is rendered
    without the other games, and so the same from build to build. The names are kept
    as they are but for their spaces, written ``_`` as in :func:`player_anchor` (an id
    has none): a slug would give ``Группа А`` and ``Группа Б`` one id, and ``Élite``
    and ``Elite`` too; ``Open A`` and ``Open-A`` keep theirs. A name that would not read
    back gets a digest, as a player's does. Prefixed, so that no name can take an id the
    page uses already (``main``)."""
    parts = [f"division-{_anchor_part(division, folders=True)}"] if division else []
    if round_name is not None:
        parts.append(f"round-{_anchor_part(round_name)}")
    return "-".join(parts)


def _anchor_part(text: str, folders: bool = False) -> str:
    """``text`` as an id holds it (:func:`_anchor_text`), with a digest when it does not
    read back, or could be read as a division and a round (``Open-round-2``)."""
    shown = _anchor_text(text, folders)
    if _reads_back(text, shown, folders) and "-round-" not in shown:
        return shown
    return f"{shown}~{_digest(text)}"


def _digest(*texts: str | None) -> str:
    """8 hex digits that tell these exact names from any others."""
    return hashlib.sha256(json.dumps(texts).encode()).hexdigest()[:8]


PLAYER_ANCHOR_PREFIX = "player-"
"""What every row id of the player index starts with: no other id of the page does."""


def _anchor_text(text: str, folders: bool = False) -> str:
    """``text`` with each run of spaces and invisible characters (controls, bidi marks,
    zero-width spaces) as one ``_``: an id holds no space, and a fragment no control.
    With ``folders`` (a division's name), each `` / `` between its folders is ``/``."""
    if folders:
        text = text.replace(" / ", "/")
    return "".join("_" if gap else "".join(chars)
                   for gap, chars in itertools.groupby(text, _anchor_gap))


def _anchor_gap(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Zs", "Zl", "Zp")


def _reads_back(text: str, shown: str, folders: bool = False) -> bool:
    """Whether ``text`` is what its :func:`_anchor_text` reads as, ``_`` a space and
    (``folders``) ``/`` a `` / ``: then no other text has the same."""
    back = shown.replace("_", " ")
    back = back.replace("/", " / ") if folders else back
    return back == text and "~" not in text and (folders or "/" not in text)


@functools.lru_cache(maxsize=16_384)
def player_anchor(division: str | None, name: str) -> str:
    """The id of a player's row on the player index: ``player-`` and the name, after
    the game's division and a ``/`` when it has one (``player-Ann_Lee``,
    ``player-2016/Spring_Open/Division_A/Ann_Lee`` for the division ``2016 / Spring Open
    / Division A``). Made from those names alone, so a game page can link to the row,
    and a row keeps its id whatever players are added or removed (a member's bookmark
    stays theirs). The division is in the id even when the event has one division
    only: a second one added later then moves no row.

    The names keep their letters, case and accents, in any script (``Élodie``,
    ``Алёна``, ``李娜``), each run of spaces (or invisible characters) written ``_``:
    ``Doug`` and ``doug``, ``Élodie`` and ``Elodie``, ``Ann-Lee`` and ``Ann Lee`` keep
    ids of their own. A name that does not read back from its id (one holding ``_``,
    ``~`` or ``/``, two spaces in a row, a tab, a bidi mark; a division holding ``_``,
    ``~``, or ``/`` not between spaces) gets ``~`` and 8 hex digits of a digest of the
    exact names after it, which no other id has. Links percent-encode the id, as they
    do the event index's anchors (``|urlencode``)."""
    shown = _anchor_text(name)
    plain = _reads_back(name, shown)
    if division is not None:
        folders = _anchor_text(division, folders=True)
        plain = plain and _reads_back(division, folders, folders=True)
        shown = f"{folders}/{shown}"
    if plain:
        return PLAYER_ANCHOR_PREFIX + shown
    return f"{PLAYER_ANCHOR_PREFIX}{shown}~{_digest(division, name)}"


@dataclass(frozen=True)
class RoundGroup:
    name: str | None
    games: tuple[GameEntry, ...]
    division: str | None = None

    @property
    def anchor(self) -> str:
        return index_anchor(self.division, self.name)


@dataclass(frozen=True)
class DivisionGroup:
    name: str | None
    rounds: tuple[RoundGroup, ...]

    @property
    def anchor(self) -> str:
        return index_anchor(self.name)


@functools.lru_cache(maxsize=4096)
def natural_key(text: str | None) -> tuple[object, ...]:
    """Sort ``Round 10`` after ``Round 9``, and ``Élite`` before ``Open``; missing values
    first. The exact text comes last (tagged to sort before any further part, as
    ``Round 9`` sorts before ``Round 9b``), so names that differ only in case or accents
    keep one order."""
    if text is None:
        return ((0, ""),)
    folded = without_accents(text).lower()
    return (*((1, int(part)) if part.isdigit() else (2, part)
              for part in re.split(r"(\d+)", folded) if part), (0, text))


def group_games(games: list[GameEntry]) -> tuple[DivisionGroup, ...]:
    divisions: dict[str | None, dict[str | None, list[GameEntry]]] = defaultdict(
        lambda: defaultdict(list))
    for game in games:
        divisions[game.division][game.round].append(game)
    result = []
    order = division_order(games)
    for division in sorted(divisions, key=order.__getitem__):
        rounds = divisions[division]
        result.append(DivisionGroup(division, tuple(
            RoundGroup(name, tuple(sorted(rounds[name], key=lambda g: (natural_key(g.table),
                                                                        g.relative))),
                       division)
            for name in sorted(rounds, key=natural_key))))
    return tuple(result)


def division_order(games: list[GameEntry]) -> dict[str | None, tuple[object, ...]]:
    """How divisions sort: by the folder that holds each one's records, as the director
    laid the event out (``2004/`` before ``2010/``, whatever event.yaml names them),
    then by name (divisions that share a folder, named by the records or a pattern)."""
    folders: dict[str | None, str] = {}
    for game in games:
        folder = posixpath.dirname(game.relative)
        held = folders.setdefault(game.division, folder)
        if held != folder:
            folders[game.division] = posixpath.commonpath([held, folder])
    return {division: (natural_key(folder), natural_key(division))
            for division, folder in folders.items()}


@dataclass(frozen=True)
class PlayerGame:
    slug: str
    round: str | None
    opponent: str
    """The opponents' names ("Ann & Bob"), each :func:`isolated`: the list prints the
    game's result beside them."""
    result: str


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    anchor: str
    won: int
    lost: int
    tied: int
    spread: int | None
    """Sum of score differences over finished scored games; None when there are none
    (Gungi games have no scores)."""
    games: tuple[PlayerGame, ...]


@dataclass(frozen=True)
class PlayerGroup:
    """The players of one division (None: of the games that name none)."""

    division: str | None
    players: tuple[PlayerEntry, ...]


def player_index(games: list[GameEntry], keep: bool = True, by_division: bool = True,
                 by_standing: bool = False) -> tuple[PlayerGroup, ...]:
    """Every player's row, by division when the event has several (a player's record in
    one division is not their record in another) unless not ``by_division``; with
    ``keep``, each row is kept for the next build in this process (a watch session).
    Rows are in name order, or with ``by_standing`` in the order of the standings; a
    row's anchor (:func:`player_anchor`, of its division and name) is the same in both,
    and the same on a game page."""
    divisions: dict[str | None, dict[str, list[tuple[GameEntry, int]]]] = defaultdict(
        lambda: defaultdict(list))
    for game in games:
        for seat, name in enumerate(game.players):
            divisions[game.division if by_division else None][name].append((game, seat))
    player = _player if keep else _player.__wrapped__
    several = len(divisions) > 1  # else one list, headed by no division
    order: dict[str | None, tuple[object, ...]] = (
        division_order(games) if several else dict.fromkeys(divisions, ()))
    groups = [PlayerGroup(division if several else None, tuple(
        player(name, player_anchor(division, name), tuple(rows[name]))
        for name in sorted(rows, key=name_order)))
        for division, rows in sorted(divisions.items(), key=lambda item: order[item[0]])]
    if by_standing:
        groups = [replace(group, players=tuple(sorted(group.players, key=_standing)))
                  for group in groups]
    return tuple(groups)


def _standing(player: PlayerEntry) -> tuple[float, int, int, tuple[str, str]]:
    """A tournament's standings order: games won (a tie counts half), fewer lost (the
    records of an event may not hold every game), spread, then the name."""
    return (-(player.won + player.tied / 2), player.lost, -(player.spread or 0),
            name_order(player.name))


@functools.lru_cache(maxsize=16_384)
def _player(name: str, anchor: str, seats: tuple[tuple[GameEntry, int], ...]) -> PlayerEntry:
    """One player's row from their games; a rebuild after one game changed makes only
    its players' rows again."""
    won = lost = tied = spread = scored = 0
    listed = []
    for game, seat in sorted(seats, key=lambda gs: (natural_key(gs[0].round), gs[0].relative)):
        outcome = game.result_by_seat[seat] if game.result_by_seat else ""
        won += outcome == "W"
        lost += outcome == "L"
        tied += outcome == "T"
        if outcome and game.scores:
            others = [s for i, s in enumerate(game.scores) if i != seat]
            spread += game.scores[seat] - max(others)
            scored += 1
        opponents = " & ".join(isolated(p) for i, p in enumerate(game.players) if i != seat)
        listed.append(PlayerGame(game.slug, game.round, opponents,
                                 _result_text(game, seat, outcome)))
    return PlayerEntry(name, anchor, won, lost, tied, spread if scored else None, tuple(listed))


def _result_text(game: GameEntry, seat: int, outcome: str) -> str:
    """The game as a player's list shows it: the result (with the scores) once the
    record ends the game, even while its pages follow it (``live: true``); else where
    it stands."""
    if game.stopped_at is not None and not game.live:
        return "stopped by an error"
    if outcome:
        if not game.scores:
            return outcome
        others = "–".join(str(s) for i, s in enumerate(game.scores) if i != seat)
        return f"{outcome} {game.scores[seat]}–{others}"
    if game.live:
        return "in progress"
    return "unfinished" if game.unfinished else ""


def results(scores: tuple[int, ...], over: bool) -> tuple[str, ...]:
    if not over or not scores:
        return tuple("" for _ in scores)
    best = max(scores)
    winners = [i for i, s in enumerate(scores) if s == best]
    return tuple(("T" if len(winners) > 1 else "W") if i in winners else "L"
                 for i in range(len(scores)))

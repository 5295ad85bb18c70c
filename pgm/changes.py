"""Which games of an event a build must render, and which it carries over.

A game is carried over when the fingerprint of its record, settings and path is the one
its state kept. The record's bytes are read only when its file's stamp says they may
have changed (``pgm.state.record_print``): a rebuild of an event of thousands of games
then costs one ``stat`` per record, and one read for each record that was written.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

from pgm.config import ConfigSet, GameSettings
from pgm.discover import Source
from pgm.state import BuildState, GameState, RecordPrint, fingerprint, record_print


@dataclass(frozen=True)
class Change:
    """A game to render: new, or its fingerprint is not the one kept."""

    source: Source
    settings: GameSettings
    fingerprint: str
    record: RecordPrint
    previous: GameState | None
    """The state the game had, for its stale files to be removed and, while its record
    does not replay, its last good pages kept; None for a game new at its slug."""


@dataclass
class Plan:
    """Every game of the event: to be (re)rendered now, or carried over from the state."""

    changes: list[Change] = field(default_factory=list)
    kept: dict[str, GameState] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    """Every game's slug, in path order (drafts left out)."""
    replaced: list[GameState] = field(default_factory=list)
    """Games whose records are gone and whose slug a new record took: the files the new
    game does not write over are removed. Their state is never handed to the new game,
    so their pages are never kept as its last good ones."""
    drafts: dict[str, str] = field(default_factory=dict)
    """The slugs of the drafts by their records' paths: kept for them, so that a game
    made a draft for a while comes back at its address."""


def plan_games(configs: ConfigSet, sources: tuple[Source, ...], state: BuildState | None
               ) -> Plan:
    plan = Plan()
    now_ns = time.time_ns()
    for source in sources:
        settings = configs.settings_for(source.path)
        if settings.draft:
            plan.drafts[source.relative] = source.slug
            continue
        old = state.games.get(source.slug) if state else None
        if old is not None and old.entry.relative != source.relative:
            plan.replaced.append(old)
            old = None
        record = _record_print(source, old, now_ns)
        # Kept for rebuilds, which ask again for every game; a first build asks once.
        game_print = (_game_print if old else fingerprint)(
            record.digest, _settings_text(settings), source.relative)
        plan.order.append(source.slug)
        if old is not None and old.fingerprint == game_print:
            old.remember(record)
            plan.kept[source.slug] = old
        else:
            plan.changes.append(Change(source, settings, game_print, record, old))
    return plan


def _record_print(source: Source, old: GameState | None, now_ns: int) -> RecordPrint:
    """The record's print; for a record that cannot be read, one that says so and is
    never taken as settled: its game is rendered, as a page saying the record could not
    be read (pgm.workers), and the next build reads it again."""
    try:
        return record_print(source.path, old.record if old else None, now_ns)
    except OSError as exc:
        return RecordPrint(f"unreadable: {exc.strerror}", None)


@functools.lru_cache(maxsize=256)
def _settings_text(settings: GameSettings) -> str:
    """Games share their settings objects, so each is spelled out once."""
    return repr(settings)


@functools.lru_cache(maxsize=65_536)
def _game_print(digest: str, settings: str, relative: str) -> str:
    return fingerprint(digest, settings, relative)

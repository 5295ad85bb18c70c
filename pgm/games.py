"""Load one record of any supported kind into what the site needs: its index entry and
a function that renders its files. The extension picks the reader (one dict, as
Pelican's readers registry), so adding a game kind touches only this table.

Crossword records are most events' all; the readers and pages of the other kinds (Gungi,
position sets, Upwords) are imported by their loaders, when an event has such a record,
so that a build's processes do not start by loading them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any

import jinja2

from pgm.config import GameSettings
from pgm.crossword import replay
from pgm.crossword_board import Orientation
from pgm.crossword_pages import crossword_entry_fields, render_crossword_game
from pgm.diagnostics import Diagnostic, Severity
from pgm.discover import Source, guess_division, guess_round, guess_table, shown_name
from pgm.gcg import GcgRecord, parse_gcg
from pgm.site_model import POSITION_KINDS, GameEntry, isolated, results
from pgm.ubf_report import KIND
from pgm.upwords import is_upwords

GameFiles = Iterator[tuple[str, str | bytes]]
Renderer = Callable[[jinja2.Environment, dict[str, Any]], GameFiles]


@dataclass(frozen=True)
class LoadedGame:
    source: Source
    entry: GameEntry
    render: Renderer
    """Yields (file name inside the game folder, content)."""


def load_game(source: Source, settings: GameSettings, data: bytes) -> LoadedGame:
    loader = _LOADERS[source.path.suffix.lower()]
    return loader(source, settings, data)


def failed_game(source: Source, settings: GameSettings, data: bytes | None,
                problem: str) -> LoadedGame:
    """A record pgm could not read, or failed on (a bug): its entry carries the error,
    and its folder holds a page that says so and the record itself (``data``, when it
    could be read), so that one record never stops the build of the event."""
    diagnostic = Diagnostic(shown_name(source.relative), 0, Severity.ERROR, problem)
    entry = make_entry(source, replace(settings, live=None), _KINDS[source.path.suffix.lower()],
                       "", {"players": (), "scores": None, "live": False, "turns": 0,
                            "status": "not shown: see the error"}, (diagnostic,))
    entry = replace(entry, failed=True)
    record_name = f"input{source.path.suffix.lower()}" if data is not None else None

    def render(env: jinja2.Environment, common: dict[str, Any]) -> GameFiles:
        yield "index.html", env.get_template("game_failed.html").render(
            common, game=entry, problem=problem, record_name=record_name)
        if record_name is not None and data is not None:
            yield record_name, data

    return LoadedGame(source, entry, render)


def _load_crossword(source: Source, settings: GameSettings, data: bytes) -> LoadedGame:
    record = parse_gcg(data, shown_name(source.relative))
    if is_upwords(record):
        return _load_upwords(source, settings, record, data)
    game = replay(record, distribution=settings.distribution, board=settings.board,
                  lexicon=settings.lexicon)
    if settings.orientation and "orientation" not in record.pragmas:
        game = replace(game, rules=replace(game.rules, orientation=settings.orientation))
    entry = make_entry(source, settings, "crossword", record.title,
                       dict(crossword_entry_fields(game), stopped=game.stopped_at),
                       game.diagnostics)

    def render(env: jinja2.Environment, common: dict[str, Any]) -> GameFiles:
        return render_crossword_game(env, entry, game, data, common)

    return LoadedGame(source, entry, render)


def _load_upwords(source: Source, settings: GameSettings, record: GcgRecord,
                  data: bytes) -> LoadedGame:
    """A .gcg that says ``#game-type upwords``: the extension cannot tell, the record can."""
    from pgm.upwords import replay as replay_upwords
    from pgm.upwords_pages import render_upwords_game, upwords_entry_fields

    game = replay_upwords(record)
    entry = make_entry(source, settings, "upwords", record.title,
                       dict(upwords_entry_fields(game), stopped=game.stopped_at),
                       game.diagnostics)

    def render(env: jinja2.Environment, common: dict[str, Any]) -> GameFiles:
        return render_upwords_game(env, entry, game, data, common)

    return LoadedGame(source, entry, render)


def _load_cgp(source: Source, settings: GameSettings, data: bytes) -> LoadedGame:
    from pgm.cgp_file import read_cgp_file
    from pgm.cgp_pages import cgp_entry_fields, render_cgp_set
    from pgm.cgp_pages import record_title as cgp_record_title

    shown = shown_name(source.relative)
    found = read_cgp_file(data, shown)
    entry = make_entry(source, settings, "cgp", cgp_record_title(shown),
                       cgp_entry_fields(found), found.diagnostics)
    orientation = Orientation(settings.orientation == "lettered-rows")

    def render(env: jinja2.Environment, common: dict[str, Any]) -> GameFiles:
        return render_cgp_set(env, entry, found, data, common, orientation)

    return LoadedGame(source, entry, render)


def _load_gungi(source: Source, settings: GameSettings, data: bytes) -> LoadedGame:
    from pgm.gungi import load as load_gungi
    from pgm.gungi_pages import gungi_entry_fields, record_title, render_gungi_game

    game = load_gungi(data, shown_name(source.relative))
    # A game that ended before the error that stopped its replay (a ply after a captured
    # Commander is one) keeps its result, on the index and the player page alike.
    stopped = game.stopped_line if game.end is None else None
    entry = make_entry(source, settings, "gungi", record_title(game.record),
                       dict(gungi_entry_fields(game), stopped=stopped), game.diagnostics)

    def render(env: jinja2.Environment, common: dict[str, Any]) -> GameFiles:
        return render_gungi_game(env, entry, game, data, common)

    return LoadedGame(source, entry, render)


def _load_ubf(source: Source, settings: GameSettings, data: bytes) -> LoadedGame:
    """One Upwords board: a position, not a game."""
    from pgm.ubf import read_ubf
    from pgm.ubf_pages import record_title as ubf_record_title
    from pgm.ubf_pages import render_ubf_board, ubf_entry_fields

    shown = shown_name(source.relative)
    result = read_ubf(data, shown)
    entry = make_entry(source, settings, KIND, ubf_record_title(shown), ubf_entry_fields(result),
                       result.diagnostics)

    def render(env: jinja2.Environment, common: dict[str, Any]) -> GameFiles:
        return render_ubf_board(env, entry, result, data, common)

    return LoadedGame(source, entry, render)


_KINDS = {".cgp": "cgp", ".gcg": "crossword", ".gn": "gungi", ".ubf": KIND}
"""The kind of game each extension holds, as far as the extension tells."""

_LOADERS: dict[str, Callable[[Source, GameSettings, bytes], LoadedGame]] = {
    ".cgp": _load_cgp,
    ".gcg": _load_crossword,
    ".gn": _load_gungi,
    ".ubf": _load_ubf,
}


def make_entry(source: Source, settings: GameSettings, kind: str, record_title: str,
               fields: dict[str, Any], diagnostics: tuple[Diagnostic, ...]) -> GameEntry:
    """The event index's view of a game; ``fields`` gives players, scores, live, turns,
    and ``stopped``, the line of an error that stopped the replay.

    Only a record that ends its game (``fields["live"]`` false: an end-of-game line,
    six scoreless turns, a Gungi result or captured Commander) and replays to its end
    gives a result, whatever ``live`` in ``event.yaml`` says. ``live`` decides whether
    the pages follow the record: by default while it has not ended. A record that has
    not ended and is not live (``live: false``: abandoned, or the rest never recorded)
    is *unfinished*: shown as it stands, with no winner.

    A game whose replay stopped at an error is not in progress (its pages would wait
    for moves that its record already holds, past the error) and has no result: its
    status says where it stopped. Only ``live: true`` in ``event.yaml`` says otherwise.
    (``pgm watch`` keeps the last good pages of a game in progress whose record is
    saved half-way, so its status stays as it was meanwhile.)
    """
    players: tuple[str, ...] = fields["players"]
    scores: tuple[int, ...] | None = fields["scores"]
    stopped: int | None = fields.get("stopped")
    # positions, not a game (POSITION_KINDS): never in progress, whatever ``live`` says
    live = settings.live if settings.live is not None and kind not in POSITION_KINDS \
        else fields["live"] and stopped is None
    over = not fields["live"] and stopped is None
    unfinished = not over and not live and stopped is None
    shown = shown_name(source.relative)  # the path as pages show it; entries keep it as is
    # composed of names and titles as text shows them beside numbers (site_model.isolated)
    names = tuple(map(isolated, players))
    title = settings.title or record_title
    label = isolated(title) if title else " vs ".join(names) or isolated(shown)
    score_line = " – ".join(f"{p} {s}" for p, s in zip(names, scores or (), strict=False))
    if stopped is not None and not live:
        status = _stopped_status(stopped, score_line, None if fields["live"]
                                 else fields.get("status"))
    elif over:
        status = (f"{score_line}, {_winner(names, scores or ())}" if score_line
                  else fields.get("status") or "finished")
        added_up = fields.get("added_up")
        if score_line and added_up is not None and added_up != scores:
            # a mistyped total decides the result: the record's figure stands, told as such
            status += " as recorded; the scores add up to " + " – ".join(
                f"{p} {s}" for p, s in zip(names, added_up, strict=False))
    else:
        state = "in progress" if live else "unfinished"
        status = f"{state}: {score_line}" if score_line else state
    return GameEntry(
        slug=source.slug, relative=source.relative, kind=kind, label=label, players=players,
        scores=scores, live=live, status=status, stopped_at=stopped, unfinished=unfinished,
        result_by_seat=results(scores, over) if scores else
        fields.get("result_by_seat", ()) if over else (),
        turns=fields["turns"],
        division=settings.division or guess_division(shown, settings.division_folders),
        round=settings.round or guess_round(shown),
        table=settings.table or guess_table(shown),
        updated=_modified(source),
        diagnostics=diagnostics,
        moves=fields.get("moves", ""))


def _stopped_status(line: int, score_line: str, result: str | None) -> str:
    """The status of a game whose replay stopped at an error: where, then the scores
    reached (or a result the record states, for Gungi)."""
    where = f"stopped by an error at line {line}"
    if score_line:
        return f"{where}: {score_line}"
    return f"{result} ({where})" if result else where


def _winner(players: tuple[str, ...], scores: tuple[int, ...]) -> str:
    best = max(scores)
    leaders = [p for p, s in zip(players, scores, strict=False) if s == best]
    return f"{leaders[0]} won" if len(leaders) == 1 else "tie"


def _modified(source: Source) -> str:
    """When the record last changed (its file time), shown as "updated" on live pages;
    empty for a record gone since it was found."""
    try:
        stamp = os.stat(source.path).st_mtime
    except OSError:
        return ""
    return datetime.fromtimestamp(stamp, timezone.utc).isoformat(timespec="seconds")

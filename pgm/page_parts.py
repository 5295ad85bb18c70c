"""Pieces every kind of game page shares: turn navigation, turn page titles and the site
keys of game.json."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import jinja2
from markupsafe import Markup

from pgm.discover import shown_name
from pgm.fragments import memo
from pgm.gcg_model import Note
from pgm.markdown import render_markdown, strip_bidi_controls
from pgm.render import markup, printed
from pgm.site_model import GameEntry


@dataclass(frozen=True)
class NoteView:
    """A note or comment as a page shows it: its kind (the list item's class) and its
    markdown rendered."""

    kind: str
    html: str


def note_views(notes: tuple[Note, ...], allow_html: bool, depth: int = 2) -> list[NoteView]:
    """``depth``: how far below the page's top the notes' headings go (under a turn
    page's ``<h2>``, or the game page's ``<h3>`` of each turn)."""
    return [NoteView(note.kind, render_markdown(note.text, allow_html, depth=depth))
            for note in notes]


@dataclass(frozen=True)
class AnnotatedTurn:
    """A turn with notes, as the game page lists them all: what a coach prints is the
    game's every note, each under its move, on the page that also holds the sheet."""

    number: int
    move: str
    """The move in words (the sheet's summary)."""
    notes: list[NoteView]


def annotated_turns(turns: Sequence[Any], summaries: Sequence[str], allow_html: bool
                    ) -> list[AnnotatedTurn]:
    """The turns of a crossword or Upwords game (``summaries``: each one's move in
    words) that have notes, in order."""
    return [AnnotatedTurn(turn.number, summary, note_views(turn.event.notes, allow_html, 3))
            for turn, summary in zip(turns, summaries, strict=True) if turn.event.notes]


@dataclass(frozen=True)
class Navigation:
    """Links for partials/nav.html, whose ``data-key`` attributes pgm.js follows."""

    first: str | None
    prev: str | None
    next: str | None
    last: str | None
    label: str


def navigation(number: int, total: int) -> Navigation:
    """First/previous/next/last for page ``number`` of ``total`` (``N.html``)."""
    return Navigation(
        "1.html" if number > 1 else None,
        f"{number - 1}.html" if number > 1 else None,
        f"{number + 1}.html" if number < total else None,
        f"{total}.html" if number < total else None,
        f"{number} / {total}",
    )


def navigation_values(env: jinja2.Environment, number: int, total: int
                      ) -> dict[str, Navigation | Markup]:
    """``nav`` (for the page's head links) and ``nav_html``: ``partials/nav.html``, the
    same for turn 12 of 27 of every game, so it is rendered once. The partial sees
    ``nav`` only."""
    nav = navigation(number, total)
    return {"nav": nav, "nav_html": memo(env, "partials/nav.html")(nav=nav)}


def turn_title(noun: str, number: int, move_html: str, label_html: str,
               spoiler_free: bool) -> Markup:
    """The title of turn (or ply) page ``number``: "Turn 12: <move> &middot; <label>",
    from the move in words and the game's label, both printed already. Turn 1 of a
    spoiler-free event is "<label> &middot; turn 1": its move would tell a score before
    the page is open (a Gungi move tells none, so ply pages pass ``spoiler_free`` false).

    The dot is written as an entity: a page whose record is plain ASCII is then ASCII
    throughout, held at one byte a character and written without encoding. Crossword
    turn pages call this for every turn, so it makes the title string and nothing more.
    """
    if spoiler_free and number == 1:
        return markup(f"{label_html} &middot; {noun.lower()} {number}")
    return markup(f"{noun} {number}: {move_html} &middot; {label_html}")


def last_position_caption(noun: str, stopped_line: int | None) -> str:
    """The caption of a game page's last position: where the record ends, or where an
    error stopped the replay (the record goes on past it)."""
    if stopped_line is not None:
        return f"{noun} where the replay stopped, at line {stopped_line}"
    return f"{noun} at the end of the record"


def canonical(context: dict[str, Any], name: str) -> str | None:
    """The public address of the game's page ``name``, when the event has a ``base_url``:
    every page in ``sitemap.xml`` names itself with a canonical link."""
    url = context.get("game_url")
    return f"{url}{name}" if url else None


def game_json_text(report: dict[str, Any]) -> str:
    """``game.json`` as written: compact, because viewers of a game in progress poll it
    and the compact form is what the standard library encodes in C (``pgm check --json``
    is the indented one, for people)."""
    return json.dumps(report, ensure_ascii=False, separators=(",", ":"))


def with_site_keys(report: dict[str, Any], entry: GameEntry, record_name: str,
                   turns: int) -> dict[str, Any]:
    """The documented ``game.json``: the ``pgm check --json`` object of the record with
    its path relative to the event, plus what the site knows about the game (its title
    as data, without the isolates the site shows it in)."""
    data = dict(report, path=shown_name(entry.relative))
    data.update(format="pgm-game/1", title=strip_bidi_controls(entry.label),
                slug=entry.slug, round=entry.round, division=entry.division,
                table=entry.table, live=entry.live, updated=entry.updated,
                record=record_name, turns=turns)
    return data


def final_result(parts: Any, entry: GameEntry, last_turn: bool) -> Markup:
    """The result a game's last turn page gives ("Ann 381 – jvc 520, jvc won"), as the
    event index does, from the ``final_result`` macro of ``parts``
    (``partials/turn_parts.html``); "" on any other page, or when the record has not
    ended the game (in progress, unfinished, stopped by an error). The status is
    printed with character references for what is not ASCII (its dash), as the rest of
    a turn page is: a page of plain names is plain ASCII."""
    if not last_turn or not any(entry.result_by_seat):
        return markup("")
    status = printed(entry.status).encode("ascii", "xmlcharrefreplace").decode("ascii")
    return markup(str(parts.final_result(markup(status))))

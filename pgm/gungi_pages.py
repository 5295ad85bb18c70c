"""The files of one Gungi game's folder: overview, one page per ply, record, JSON.

Page ``N.html`` shows the position after the record's N-th ply. Numbering follows the
record's plies, not its numbered groups (a group holds one to two plies, and a forced
recovery gives one player two plies in a row), so a link to ply 51 stays valid while a
game in progress is appended to. A record that stops replaying at an error has pages up
to the last ply before it; that page and the overview show the error.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from typing import Any

import jinja2
from markupsafe import Markup

from pgm.diagnostics import Diagnostic
from pgm.event_checks import moves_digest
from pgm.export import moves_csv
from pgm.gn import Comment, CommentKind, GnRecord, Result
from pgm.gungi import GungiReplay
from pgm.gungi_describe import describe
from pgm.gungi_ending import EndKind, GameEnd
from pgm.gungi_report import gungi_report
from pgm.gungi_view import (
    RESULT_WORDS,
    HeaderField,
    board_view,
    header_fields,
    played_words,
    ply_rows,
    ply_squares,
    side_views,
    status_lines,
)
from pgm.markdown import render_markdown
from pgm.page_parts import (
    canonical,
    game_json_text,
    last_position_caption,
    navigation,
    turn_title,
    with_site_keys,
)
from pgm.render import printed
from pgm.site_model import GameEntry
from pgm.turn_window import TurnWindow

RECORD_NAME = "input.gn"

Problems = tuple[tuple[Diagnostic, ...], ...]


# ---------------------------------------------------------------------------------------
# What the event index needs


def gungi_entry_fields(game: GungiReplay) -> dict[str, Any]:
    """Players Black first (Black moves first); no scores; the Result tag in words, and
    won or lost for each player, which the player index counts."""
    record = game.record
    names = (record.value("Black"), record.value("White"))
    players = tuple(n or side for n, side in zip(names, ("Black", "White"), strict=True))
    live = is_live(game)
    return {"players": players if any(names) else (), "scores": None, "live": live,
            "turns": len(game.positions), "status": status_words(game),
            "result_by_seat": seat_results(game),
            # two games of one pair may open alike (the arrangement typed, no more): the
            # event, date and place of the game are part of what a copy repeats
            "moves": moves_digest([*(record.value(tag) or "" for tag in _OCCASION),
                                   *(ply.notation for ply in record.plies)])}


_OCCASION = ("Event", "Date", "Location")
"""The header tags that tell one game of a pair from another."""


def record_title(record: GnRecord) -> str:
    """A record with player names is listed as "Black vs White"; one without by its Event."""
    if record.value("Black") or record.value("White"):
        return ""
    return record.value("Event") or ""


def is_live(game: GungiReplay) -> bool:
    """In progress: not ended (no Commander captured, no checkmate or repetition), and no
    result or ``Result "*"``."""
    return game.end is None and game.record.result in (None, Result.UNFINISHED)


_SEAT_RESULTS = {Result.BLACK_WON: ("W", "L"), Result.WHITE_WON: ("L", "W"),
                 Result.DRAW: ("T", "T")}


def _result(game: GungiReplay) -> Result | None:
    """The game's result: a captured Commander decides it, whatever the Result tag says
    (the tag that disagrees is an error of the record); else the tag once filled in,
    over the checkmate or repetition pgm's reading of the rules found."""
    result, end = game.record.result, game.end
    if end is not None and (end.kind is EndKind.COMMANDER_CAPTURED
                            or result in (None, Result.UNFINISHED)):
        return end.result
    return result


def seat_results(game: GungiReplay) -> tuple[str, ...]:
    """``W``/``L``/``T`` for Black and White, as :func:`status_words` tells the result;
    empty while the game has not ended."""
    result = _result(game)
    return _SEAT_RESULTS.get(result, ()) if result is not None else ()


def status_words(game: GungiReplay) -> str:
    """The result in words (:func:`_result`); a checkmate or repetition that decides it
    is named, e.g. "Black wins by checkmate"."""
    result, end = _result(game), game.end
    if end is None or result is not end.result:
        return RESULT_WORDS[result] if result not in (None, Result.UNFINISHED) else \
            "in progress"
    if end.kind is EndKind.CHECKMATE:
        return f"{RESULT_WORDS[end.result]} by checkmate"
    if end.kind is EndKind.REPETITION:
        return "draw by repetition"
    return RESULT_WORDS[end.result]


# ---------------------------------------------------------------------------------------
# The game's folder


def render_gungi_game(env: jinja2.Environment, entry: GameEntry, game: GungiReplay,
                      record: bytes, common: dict[str, Any]) -> Iterator[tuple[str, str | bytes]]:
    """Yield (file name inside the game folder, content) for every file of the game."""
    event = common["event"]
    problems = problems_by_ply(game)
    summaries = tuple(describe(ply, game.before(i), after, _end_with(game, i + 1))
                      for i, (ply, after) in enumerate(zip(game.record.plies, game.positions,
                                                           strict=False)))
    flagged = frozenset(n for n, found in enumerate(problems, start=1) if found)
    movers = (game.before(i).to_move for i in range(len(game.positions)))
    base = dict(common, game=entry, spoiler_free=event.spoiler_free,
                plies=ply_rows(game.record, movers, summaries, flagged),
                plies_before=None, plies_after=None,
                header=_header(game.record, event.spoiler_free, _pending_words(entry)),
                record_name=RECORD_NAME,
                board_caption_id="board-caption")
    yield "index.html", _overview(env, game, base, event.allow_html)
    template = env.get_template("gungi_turn.html")
    for index, summary in enumerate(summaries):
        yield f"{index + 1}.html", template.render(
            _ply_context(entry, game, index, summary, base, problems[index], event.allow_html))
    yield RECORD_NAME, record
    report = game_json(entry, record)
    yield "game.json", game_json_text(report)
    yield "moves.csv", moves_csv(report)


def _header(record: GnRecord, spoiler_free: bool, pending: str) -> tuple[HeaderField, ...]:
    """The header tags; a spoiler-free event leaves out the Result."""
    return tuple(f for f in header_fields(record, pending)
                 if not (spoiler_free and f.name == "Result"))


def _pending_words(entry: GameEntry) -> str:
    """``Result "*"`` in words, as the game's status tells it: "in progress" while the
    site follows the record, "unfinished" when it does not (``live: false``, or a replay
    stopped at an error); "not filled in" when a captured Commander ended the game, which
    the status then names the winner of."""
    if entry.live:
        return "in progress"
    if entry.unfinished or entry.stopped_at is not None:
        return "unfinished"
    return "not filled in"


def _overview(env: jinja2.Environment, game: GungiReplay, base: dict[str, Any],
              allow_html: bool) -> str:
    final = game.final
    return env.get_template("gungi_game.html").render(
        base, problems=game.diagnostics,
        comments=comment_blocks(game.record.comments_after(0), allow_html),
        board=board_view(final), board_caption=last_position_caption("Position", game.stopped_line),
        sides=side_views(final, game.record, _ends_at(game, len(game.positions))),
        status=status_lines(final, game.end, len(game.positions)), current=None,
        canonical=canonical(base, "index.html"))


def _ply_context(entry: GameEntry, game: GungiReplay, index: int, move_text: str,
                 base: dict[str, Any], problems: tuple[Diagnostic, ...],
                 allow_html: bool) -> dict[str, Any]:
    ply, after = game.record.plies[index], game.positions[index]
    number, total = index + 1, len(game.positions)
    moved_from, moved_to = ply_squares(ply)
    window = TurnWindow.of(number, total, base["spoiler_free"])
    # a move tells no score: ply 1's title is the same in a spoiler-free event
    title = turn_title("Ply", number, printed(move_text), printed(entry.label), False)
    return dict(
        base, title=title, number=number, total=total,
        move_text=move_text, notation=ply.notation, mover=game.before(index).to_move.title,
        board=board_view(after, moved_from, moved_to, played_words(ply)),
        board_caption=f"Board after ply {number}, {ply.notation}: {move_text}",
        sides=side_views(after, game.record, _ends_at(game, number)),
        status=status_lines(after, _ended_by(game, number), number),
        comments=comment_blocks(game.record.comments_after(number), allow_html),
        problems=list(problems), current=number, nav=navigation(number, total),
        plies=window.rows(base["plies"]), plies_before=window.before,
        plies_after=window.after, canonical=canonical(base, f"{number}.html"))


def _ended_by(game: GungiReplay, number: int) -> GameEnd | None:
    """The game's first end if it came with ply ``number`` or before: a checkmate found
    before a captured Commander stays the end the plies between are played after."""
    first = game.first_end
    return first if first is not None and first.ply <= number else None


def _end_with(game: GungiReplay, number: int) -> GameEnd | None:
    """The end ply ``number`` brought, if any: the checkmate or repetition pgm found, or
    a captured Commander (also one after those)."""
    return next((e for e in (game.overruled, game.end) if e is not None and e.ply == number),
                None)


def _ends_at(game: GungiReplay, number: int) -> bool:
    return _end_with(game, number) is not None


def problems_by_ply(game: GungiReplay) -> Problems:
    """Each diagnostic on the page of the last replayed ply at or before the place it
    names: a ply's own warnings on its page, and the error that stopped the replay (and
    anything after it) on the last page. Problems in the header are only on the overview.

    Several plies share a line in .gn files, so the column decides, not the line alone.
    """
    starts = [(p.line, p.column) for p in game.record.plies[: len(game.positions)]]
    found: list[list[Diagnostic]] = [[] for _ in starts]
    for diagnostic in game.diagnostics:
        index = bisect_right(starts, (diagnostic.line, diagnostic.column or 0)) - 1
        if index >= 0 and diagnostic.on_pages:
            found[index].append(diagnostic)
    return tuple(tuple(items) for items in found)


def comment_blocks(comments: Iterable[Comment], allow_html: bool) -> tuple[Markup, ...]:
    """Comments rendered as markdown; ``#`` comments on consecutive lines are one block,
    because writers wrap a long remark over several ``#`` lines."""
    blocks: list[list[Comment]] = []
    for comment in comments:
        last = blocks[-1][-1] if blocks else None
        if (last is not None and comment.kind is CommentKind.LINE
                and last.kind is CommentKind.LINE and comment.line == last.line + 1):
            blocks[-1].append(comment)
        else:
            blocks.append([comment])
    texts = ("\n".join(c.text for c in block) for block in blocks)
    return tuple(render_markdown(text, allow_html) for text in texts if text.strip())


def game_json(entry: GameEntry, record: bytes) -> dict[str, Any]:
    """The documented ``game.json``: the ``pgm check --json`` object plus site metadata."""
    data, _ = gungi_report(record, entry.relative)
    return with_site_keys(data, entry, RECORD_NAME, entry.turns)

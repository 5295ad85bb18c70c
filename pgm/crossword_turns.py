"""The turn pages of a crossword game: ``N.html`` shows the position after the record's
N-th event line, numbered in the record's own order, so a page keeps its number as long
as the record is only appended to.

Each page is ``turn.html`` filled in from a plan made once per game (pgm.page_plan):
what changes from turn to turn is computed here, its markup comes from the macros of
``partials/turn_parts.html`` and the memoized fragments, and the rest of the page is
rendered once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import replace
from functools import lru_cache
from typing import Any

import jinja2
from markupsafe import Markup

from pgm.crossword_board import BoardRenderer, Orientation, TurnBoards
from pgm.crossword_model import CrosswordGame, off_board_counts
from pgm.crossword_view import (
    PlayerLine,
    SheetRow,
    Unseen,
    describe,
    player_lines,
    unseen_view,
    unseen_viewer,
)
from pgm.diagnostics import Diagnostic
from pgm.fragments import kept, memo
from pgm.page_parts import final_result, navigation, note_views, turn_title
from pgm.page_plan import Holes, PagePlan, count_class, shared_key
from pgm.render import markup, printed
from pgm.tiles import BLANK, RACK_LABELS, TILE_TEXTS, UNKNOWN, tile_text
from pgm.turn_window import Gap, TurnWindow


class TurnList:
    """The list of every turn on each turn page: items are made once per game and only
    the current one differs from page to page. An item is ``turn_item`` filled in from
    a plan (one for the current item, one for the others) when the macro only prints
    the row's number, word and score. In a spoiler-free event the list stops at the
    page's own turn: the turns after it would give the game away. Beyond
    ``pgm.turn_window.LISTED`` turns, a gap links to the first and last turns left out."""

    _FIELDS = ("number", "word", "score")

    def __init__(self, env: jinja2.Environment, sheet: tuple[SheetRow, ...],
                 spoiler_free: bool) -> None:
        macro = self._macro = env.get_template("partials/fragments.html").module.turn_item  # type: ignore[attr-defined]
        plans: dict[bool, PagePlan | None] = kept(env, "pgm_turn_item_plans", dict)
        for current in (False, True):
            if current not in plans:
                plans[current] = PagePlan.of(
                    lambda markers, now=current: macro(Holes(markers), now), self._FIELDS)
        self._plans = plans
        self._sheet = sheet
        self._items = [self._item(row, False) for row in sheet]
        self._spoiler_free = spoiler_free
        self._env = env

    def for_turn(self, number: int) -> Markup:
        current = self._item(self._sheet[number - 1], True)
        window = _window(number, len(self._sheet), self._spoiler_free)
        items = self._items[window.first - 1:number - 1] + [current] + \
            self._items[number:window.last]
        if window.before:
            items.insert(0, self._gap(window.before))
        if window.after:
            items.append(self._gap(window.after))
        return markup("".join(items))

    def _gap(self, gap: Gap) -> str:
        """The list's item for the turns ``gap`` leaves out (a theme's ``fragments.html``
        older than the macro gets pgm's: see pgm.render's theme macro files)."""
        module = self._env.get_template("partials/fragments.html").module
        return str(module.turn_list_gap(gap.first, gap.last))  # type: ignore[attr-defined]

    def _item(self, row: SheetRow, current: bool) -> str:
        plan = self._plans[current]
        if plan is None:
            return str(self._macro(row, current))
        return plan.fill({"number": row.number, "word": row.word, "score": row.score})


_window = lru_cache(maxsize=4096)(TurnWindow.of)
"""The window of turn N of M, the same in every game of that length: made once."""


class _UnseenTiles:
    """The ``unseen_tile`` fragments of a page's (label, count) pairs: some thirty per
    page, looked up all at once in a dict of their own; only pairs not seen before go
    through the macro."""

    def __init__(self, env: jinja2.Environment) -> None:
        self._macro = env.get_template("partials/fragments.html").module.unseen_tile  # type: ignore[attr-defined]
        self._html: dict[tuple[str, int], str] = {}

    def piece(self, shown: str, count: int) -> str:
        """The fragment of ``count`` tiles shown as ``shown``."""
        html = self._html.get((shown, count))
        if html is None:
            html = self._html[(shown, count)] = str(self._macro(shown, count))
        return html


Counts = tuple[int, int, int, int, int, str | None, bool]
"""All of an ``Unseen`` but its tiles: total, vowels, consonants, blanks, bag, viewer,
partial."""


class UnseenPanel:
    """The unseen tiles of one game's turn pages, as markup, and their counts, in turn
    order. Each tile's fragment for its count off the board is kept from page to page,
    and a page redoes only those of the tiles its turn placed or took back (nothing else
    changes the board) and of the mover's rack, which the mover sees: a few where the
    set has some thirty. Asked out of order, it counts the board."""

    def __init__(self, game: CrosswordGame, tiles: _UnseenTiles) -> None:
        self._game = game
        self._tiles = tiles
        self._vowels = game.rules.distribution.vowels
        self._last = -2
        self._off: dict[str, int] = {}
        """The set less the board, by rack label, in ``off_board_counts``'s order."""
        self._slots: dict[str, int] = {}
        """Each label's place in ``_off`` and ``_pieces``."""
        self._pieces: list[str] = []
        """Each label's fragment for its count in ``_off`` ("" for none)."""
        self._total = self._vowel_total = 0
        """The tiles and the vowels among them in ``_off``, counting no label below 0."""

    def view(self, index: int) -> tuple[Markup, Counts]:
        """The unseen tiles' markup and their counts after the ``index``-th turn."""
        game = self._game
        turn = game.turns[index]
        if index == self._last + 1 and self._last >= 0:
            for tile in turn.placed:
                self._move(RACK_LABELS[tile.label], -1)
            for tile in turn.removed:
                self._move(RACK_LABELS[tile.label], 1)
        else:
            self._count(off_board_counts(game.rules, turn.position.cells))
        self._last = index
        position = turn.position
        pieces, total, vowels = self._pieces, self._total, self._vowel_total
        blanks = self._off.get(BLANK, 0)
        seat = position.to_move
        rack = position.racks[seat] if seat is not None and position.racks else None
        if rack:
            pieces = pieces.copy()
            off, slots, vowel_labels = self._off, self._slots, self._vowels
            left: dict[str, int] = {}  # the count of each rack tile that is unseen
            for label in rack:
                count = left.get(label)
                if count is None:
                    if label == UNKNOWN or label not in slots:  # not a tile of the set
                        continue
                    count = off[label]
                left[label] = count - 1
                if count > 0:
                    total -= 1
                    if label in vowel_labels:
                        vowels -= 1
            for label, count in left.items():
                pieces[slots[label]] = self._piece(label, count)
            blanks = left.get(BLANK, blanks)
        blanks = blanks if blanks > 0 else 0
        return markup("".join(pieces)), (total, vowels, total - vowels - blanks, blanks,
                                         position.bag, *unseen_viewer(game, position))

    def unseen(self) -> Unseen:
        """The ``Unseen`` of the last page viewed, tiles and all."""
        return unseen_view(self._game, self._game.turns[self._last].position, self._off)

    def _piece(self, label: str, count: int) -> str:
        return self._tiles.piece(TILE_TEXTS[label], count) if count > 0 else ""

    def _count(self, off: dict[str, int]) -> None:
        self._off = off
        self._slots = {label: slot for slot, label in enumerate(off)}
        self._pieces = [self._piece(label, count) for label, count in off.items()]
        self._total = sum(count for count in off.values() if count > 0)
        self._vowel_total = sum(count for label, count in off.items()
                                if count > 0 and label in self._vowels)

    def _move(self, label: str, change: int) -> None:
        """``change`` tiles of ``label`` taken off the board (-1: put on it)."""
        before = self._off.get(label, 0)
        after = self._off[label] = before + change
        slot = self._slots.get(label)
        if slot is None:  # a label the set does not have, on the board
            slot = self._slots[label] = len(self._pieces)
            self._pieces.append("")
        self._pieces[slot] = self._piece(label, after)
        added = (after if after > 0 else 0) - (before if before > 0 else 0)
        self._total += added
        if label in self._vowels:
            self._vowel_total += added


def _summaries(game: CrosswordGame, sheet: tuple[SheetRow, ...], spoiler_free: bool
               ) -> list[str]:
    """Each turn's move in words. In a spoiler-free event a page does not tell what a
    later turn does to its move: a phoney reads as the play it was, until the next page
    shows it challenged off."""
    summaries = [row.summary for row in sheet]
    if spoiler_free:
        for index, turn in enumerate(game.turns):
            if turn.withdrawn:
                summaries[index] = describe(replace(turn, withdrawn=False), game,
                                            sheet[index].word)
    return summaries


class ScoreTables:
    """The score table of each turn page: ``score_table`` planned once per shape of the
    table (who is to move, which racks are known, empty or unknown, whether the game is
    over) and filled with the players' names, scores, spreads and racks; the macro
    itself for a shape where it does more with them than print them."""

    _FIELDS = ("name", "score", "spread_text")

    def __init__(self, env: jinja2.Environment) -> None:
        self._macro = env.get_template("partials/turn_parts.html").module.score_table  # type: ignore[attr-defined]
        self._plans: dict[Hashable, PagePlan | None] = kept(env, "pgm_score_table_plans", dict)
        self._seat_holes: list[tuple[str, str, str, str]] = []

    def __call__(self, lines: tuple[PlayerLine, ...], game_over: bool) -> Markup:
        # a rack is tested for None (unknown) and for being empty, else printed
        shape = (game_over, tuple([(line.to_move, True if line.rack else line.rack)
                                   for line in lines]))
        if shape not in self._plans:
            self._plans[shape] = self._plan(shape)
        plan = self._plans[shape]
        if plan is None:
            return Markup(self._macro(lines, game_over))
        values: dict[str, Any] = {}
        # the holes of as many seats as any game so far had: this one's are the first
        for (name, score, spread, rack), line in zip(self._holes(len(lines)), lines,
                                                     strict=False):
            values[name], values[score] = line.name, line.score
            values[spread], values[rack] = line.spread_text, line.rack
        return markup(plan.fill(values))

    def _holes(self, seats: int) -> list[tuple[str, str, str, str]]:
        """The names of each seat's holes (name, score, spread, rack), made once."""
        while len(self._seat_holes) < seats:
            seat = len(self._seat_holes)
            self._seat_holes.append((f"name{seat}", f"score{seat}", f"spread_text{seat}",
                                     f"rack{seat}"))
        return self._seat_holes

    def _plan(self, shape: tuple[bool, tuple[tuple[bool, Any], ...]]) -> PagePlan | None:
        game_over, seats = shape
        holes = [f"{field}{seat}" for seat in range(len(seats)) for field in self._FIELDS]
        known = [f"rack{seat}" for seat, (_, rack) in enumerate(seats) if rack is True]

        def render(markers: dict[str, Any]) -> str:
            rows = [Holes({**{field: markers[f"{field}{seat}"] for field in self._FIELDS},
                           "to_move": to_move,
                           "rack": markers[f"rack{seat}"] if rack is True else rack})
                    for seat, (to_move, rack) in enumerate(seats)]
            return str(self._macro(rows, game_over))

        return PagePlan.of(render, holes + known, truthy=known)


class UnseenCounts:
    """The ``unseen_counts`` of each turn page, planned once per shape (whose view it is,
    and each count's ``count_class``: the plurals) and filled with the viewer's name and
    the counts; the memoized macro itself when a theme's does more with them than print
    them or compare them with 0 and 1."""

    _COUNTS = ("total", "vowels", "consonants", "blanks", "bag")

    def __init__(self, env: jinja2.Environment) -> None:
        self._macro = env.get_template("partials/turn_parts.html").module.unseen_counts  # type: ignore[attr-defined]
        self._memo = memo(env, "partials/turn_parts.html", "unseen_counts")
        self._plans: dict[Hashable, PagePlan | None] = {}

    def __call__(self, counts: Counts, unseen: Callable[[], Unseen]) -> Markup:
        """The markup of ``counts``; ``unseen`` gives them with their tiles, for a
        theme's macro that is not planned."""
        total, vowels, consonants, blanks, bag, viewer, partial = counts
        shape = (viewer is None, partial, count_class(total), count_class(vowels),
                 count_class(consonants), count_class(blanks), count_class(bag))
        if shape not in self._plans:
            self._plans[shape] = self._plan(counts)
        plan = self._plans[shape]
        if plan is None:
            return self._memo.keyed(counts, unseen())
        return markup(plan.fill({"total": total, "vowels": vowels, "consonants": consonants,
                                 "blanks": blanks, "bag": bag, "viewer": viewer}))

    def _plan(self, counts: Counts) -> PagePlan | None:
        viewer, partial = counts[5:]
        holes = list(self._COUNTS) + ([] if viewer is None else ["viewer"])

        def render(markers: dict[str, Any]) -> str:
            return str(self._macro(Holes({**markers, "partial": partial,
                                          "viewer": markers.get("viewer")})))

        return PagePlan.of(render, holes, counts=dict(zip(self._COUNTS, counts[:5], strict=True)))


_GAME_HOLES = {"label": "game_label", "updated": "game_updated",
               "updated_utc": "game_updated_utc"}
"""The attributes of ``game`` a turn page plan shared by many games may print, and the
holes they are filled in from."""

_SHARED_PLANS = 32
"""Turn-page plans kept per environment: one per event configuration and game shape, so
a watch session whose configuration is edited keeps no more than this."""


class TurnPages:
    """Renders the turn pages of one game; ``context`` holds what every page shares."""

    def __init__(self, env: jinja2.Environment, game: CrosswordGame, context: dict[str, Any],
                 sheet: tuple[SheetRow, ...], boards: BoardRenderer,
                 diagnostics_by_line: dict[int, list[Diagnostic]]) -> None:
        self._env = env
        self._game = game
        self._context = dict(context, total=len(game.turns), trail=Markup(env.get_template(
            "partials/trail.html").render(context)))
        self._sheet = sheet
        self._boards = TurnBoards(boards, game.rules.layout, game.rules.distribution,
                                  Orientation(game.rules.orientation == "lettered-rows"),
                                  game.start.cells)
        self._by_line = diagnostics_by_line
        self._unseen = UnseenPanel(game, kept(env, "pgm_unseen_tiles", lambda: _UnseenTiles(env)))
        self._turn_list = TurnList(env, sheet, context["spoiler_free"])
        self._summaries = _summaries(game, sheet, context["spoiler_free"])
        self._score_tables = kept(env, "pgm_score_tables", lambda: ScoreTables(env))
        self._parts: Any = env.get_template("partials/turn_parts.html").module
        self._problems = env.get_template("partials/problems.html")
        self._head_links = memo(env, "partials/turn_parts.html", "head_links")
        self._nav = memo(env, "partials/nav.html")
        self._navigations: dict[tuple[int, int], tuple[Markup, Markup]] = \
            kept(env, "pgm_turn_navigation", dict)
        self._unseen_counts = kept(env, "pgm_unseen_counts", lambda: UnseenCounts(env))
        entry = context["game"]
        self._url = context.get("game_url")
        """Where the game's pages are published, when the event says (canonical links)."""
        self._label = printed(entry.label)
        self._game_values = {"root": context["root"], "total": self._context["total"],
                             "sheet": sheet, "trail": self._context["trail"]}
        """What the plan shared by many games leaves for each game to fill in, the
        game's own attributes printed once for all its pages, and its place in the event
        (its division and round, as the game page's trail links them)."""
        self._game_values.update((hole, markup(printed(getattr(entry, attribute))))
                                 for attribute, hole in _GAME_HOLES.items())

    def pages(self) -> Iterator[tuple[str, str]]:
        """(file name, page) for every turn."""
        template = self._env.get_template("turn.html")
        plan = None
        for index, turn in enumerate(self._game.turns):
            values = self.values(index)
            if index == 0:
                plan = self._plan(template, {**values, **self._game_values})
                # the game's own values printed once, not on every page
                plan = plan.specialized(self._game_values) if plan else None
            if plan is None:
                values.update(self._game_values)
                yield f"{turn.number}.html", template.render(self._context, **values)
            else:
                yield f"{turn.number}.html", plan.fill(values)

    def final_board(self) -> dict[str, Any]:
        """The board values of the game's final position, nothing highlighted: for the
        game page, made after the turn pages from the last one's board."""
        return self._boards.final(len(self._game.turns) - 1, self._game.final.cells)

    def _plan(self, template: jinja2.Template, values: dict[str, Any]) -> PagePlan | None:
        """The plan of every game of the event that has this one's shape (live or not),
        with holes for what differs from game to game too; this game's own plan when the
        template does more with a game's values than print them."""
        per_turn = [name for name in values if name not in self._game_values]
        key = shared_key(self._context, self._game_values.keys() | {"game", "game_url"})
        if key is None:
            return PagePlan.make(template, self._context, per_turn)
        plans: dict[Hashable, PagePlan | None] = kept(self._env, "pgm_turn_page_plans", dict)
        entry = self._context["game"]
        live, in_progress = entry.live, entry.in_progress  # one plan for all games not live
        plan_key = (template, live, in_progress, key)
        if plan_key not in plans:
            if len(plans) >= _SHARED_PLANS:
                plans.clear()
            plans[plan_key] = PagePlan.of(
                lambda markers: template.render(self._context, **markers, game=Holes(
                    {**{attribute: markers[hole] for attribute, hole in _GAME_HOLES.items()},
                     "live": live, "over": live and not in_progress,
                     "in_progress": in_progress})),
                values)
        return plans[plan_key] or PagePlan.make(template, self._context, per_turn)

    def values(self, index: int) -> dict[str, Any]:
        """What turn.html prints that changes from turn to turn."""
        game, turn = self._game, self._game.turns[index]
        number, position = turn.number, turn.position
        total = len(game.turns)
        move_html = printed(self._summaries[index])
        head_links, nav_html = self._navigation(number, total)
        unseen_tiles, unseen_counts = self._unseen.view(index)
        values = dict(
            title=turn_title("Turn", number, move_html, self._label,
                             self._context["spoiler_free"]),
            number=number, move_text=markup(move_html),
            board_caption=markup(f"Board after turn {number}: {move_html}"),
            head_links=head_links, nav_html=nav_html,
            move_details=self._parts.move_details(
                tile_text(turn.rack) if turn.rack else turn.event.rack, turn.words),
            score_table=self._score_tables(player_lines(game, position), position.game_over),
            notes=self._notes(index), problems=self._problems_of(index),
            unseen_counts=self._unseen_counts(unseen_counts, self._unseen.unseen),
            unseen_tiles=unseen_tiles,
            cgp=game.cgp(index), turn_list=self._turn_list.for_turn(number),
            result=self._result(index),
        )
        values.update(self._boards.board(index, turn))
        if self._url:
            values["canonical"] = f"{self._url}{number}.html"
        return values

    def _result(self, index: int) -> Markup:
        """The game's result on its last turn page, once the record ends the game."""
        return final_result(self._parts, self._context["game"],
                            index == len(self._game.turns) - 1)

    def _navigation(self, number: int, total: int) -> tuple[Markup, Markup]:
        """``head_links`` and ``nav_html`` of turn ``number`` of ``total``: the same in
        every game of that length, so kept per environment."""
        found = self._navigations.get((number, total))
        if found is None:
            nav = navigation(number, total)
            found = self._navigations[(number, total)] = (self._head_links(nav),
                                                          self._nav(nav=nav))
        return found

    def _notes(self, index: int) -> str:
        notes = self._game.turns[index].event.notes
        if not notes:
            return ""
        allow_html = self._context["event"].allow_html
        return self._parts.notes(note_views(notes, allow_html))

    def _problems_of(self, index: int) -> str:
        problems = list(self._by_line.get(self._game.turns[index].event.line, []))
        if index == len(self._game.turns) - 1 and self._game.stopped_at is not None:
            problems += self._by_line.get(self._game.stopped_at, [])
        return Markup(self._problems.render(problems=problems)) if problems else ""

"""The parts of a turn page made without a template render per page give what the
macros give, for every real record: boards started from the empty board's markup, the
unseen tiles redone tile by tile, the unseen counts filled in from plans (count holes:
pgm.page_plan); a theme's macro that does more with the values is called instead."""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS, ROOT
from markupsafe import Markup
from sitehelpers import make_event

from pgm.build import BuildOptions, build
from pgm.crossword import replay
from pgm.crossword_board import BoardRenderer, Orientation, TurnBoards, played_through
from pgm.crossword_model import CrosswordGame
from pgm.crossword_turns import UnseenCounts, UnseenPanel, _UnseenTiles
from pgm.crossword_view import unseen_view
from pgm.gcg import parse_gcg
from pgm.page_plan import PagePlan, count_class
from pgm.render import make_environment

RECORDS = sorted((CORPUS / "gcg").glob("*.gcg")) + sorted((CORPUS / "gcg-nonexact").glob("*.gcg"))


def replayed(path) -> CrosswordGame:
    return replay(parse_gcg(path.read_bytes(), path.name))


@pytest.mark.parametrize("lettered_rows", [False, True])
@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_boards_started_from_the_empty_board_equal_full_renders(path, lettered_rows) -> None:
    game = replayed(path)
    renderer = BoardRenderer(make_environment(None))
    orientation = Orientation(lettered_rows)
    rules = game.rules
    boards = TurnBoards(renderer, rules.layout, rules.distribution, orientation,
                        game.start.cells)
    for index, turn in enumerate(game.turns):
        full = renderer.board(turn.position.cells, rules.layout, rules.distribution,
                              [(t.row, t.col) for t in turn.placed], orientation,
                              played_through(turn, rules.layout.size))
        assert boards.board(index, turn) == full, f"turn {turn.number}"
    if game.turns:
        final = renderer.board(game.final.cells, rules.layout, rules.distribution, [],
                               orientation)
        assert boards.final(len(game.turns) - 1, game.final.cells) == final


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_unseen_tiles_redone_tile_by_tile_equal_a_fresh_count(path) -> None:
    game = replayed(path)
    env = make_environment(None)
    tiles = _UnseenTiles(env)
    panel = UnseenPanel(game, tiles)
    order = [*range(len(game.turns)), *(index for index in (5, 3, 3, 0, 1)
                                        if index < len(game.turns))]
    for index in order:
        html, counts = panel.view(index)
        fresh = unseen_view(game, game.turns[index].position)
        assert html == "".join(tiles.piece(*tile) for tile in fresh.tiles), f"turn {index}"
        assert counts == fresh[1:] and panel.unseen() == fresh, f"turn {index}"


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_planned_unseen_counts_equal_the_macro(path) -> None:
    game = replayed(path)
    env = make_environment(None)
    parts = env.get_template("partials/turn_parts.html").module
    counts = UnseenCounts(env)
    for turn in game.turns:
        unseen = unseen_view(game, turn.position)
        assert counts(unseen[1:], lambda u=unseen: u) == parts.unseen_counts(unseen), \
            f"turn {turn.number}"


@pytest.mark.parametrize(("count", "expected"), [(-3, -1), (0, 0), (1, 1), (2, 2), (97, 2)])
def test_a_count_s_class_is_what_comparisons_with_0_and_1_tell(count, expected) -> None:
    assert count_class(count) == expected


PLURALS = ('{{ n }} tile{{ "s" if n != 1 }}{% if n > 1 %} (many){% endif %}'
           '{% if not n %}: none{% endif %}{% if n < 0 %}: too few{% endif %}')


@pytest.mark.parametrize("count", [-2, 0, 1, 2, 5])
def test_a_plan_with_a_count_hole_holds_for_every_count_of_its_class(count) -> None:
    template = make_environment(None).from_string(PLURALS)
    plan = PagePlan.of(lambda markers: template.render(**markers), ["n"],
                       counts={"n": count})
    assert plan is not None
    for other in range(-4, 9):
        if count_class(other) == count_class(count):
            assert plan.fill({"n": other}) == template.render(n=other)


@pytest.mark.parametrize("source", [
    "{% if n > 5 %}x{% endif %}", "{{ n + 1 }}", "{{ n|int }}", "{{ n * 2 }}",
    "{% if n == 1.0 %}x{% endif %}", "{% if n in [1, 2] %}x{% endif %}",
    '{{ "%03d"|format(n) }}', "{{ n|length }}"])
def test_a_count_hole_used_other_than_printed_or_compared_with_0_or_1_refuses(source):
    template = make_environment(None).from_string(source)
    assert PagePlan.of(lambda markers: template.render(**markers), ["n"],
                       counts={"n": 3}) is None


def test_a_theme_unseen_counts_that_shows_the_tiles_is_called_per_page(tmp_path) -> None:
    """unseen_counts is planned with holes for the counts and the viewer only; a theme's
    macro that also lists the tiles is called for every page, with them."""
    source = (ROOT / "templates/partials/turn_parts.html").read_text(encoding="utf-8")
    start = source.index("{% macro unseen_counts(")
    end = source.index("{% endmacro %}", start) + len("{% endmacro %}")
    macro = ('{% macro unseen_counts(unseen) %}<p class="mine">{{ unseen.total }}:'
             '{% for label, count in unseen.tiles %} {{ label }}{{ count }}{% endfor %}'
             '</p>{% endmacro %}')
    event = make_event(tmp_path / "ev", {
        "g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes(),
        "event.yaml": "theme_dir: theme\n",
        "theme/partials/turn_parts.html": source[:start] + macro + source[end:]})
    assert not build(BuildOptions(event, tmp_path / "o", jobs=1)).errors
    page = (tmp_path / "o/g/2.html").read_text(encoding="utf-8")
    game = replayed(CORPUS / "gcg/macondo__vs_andy.gcg")
    unseen = unseen_view(game, game.turns[1].position)
    shown = re.search(r'<p class="mine">([^<]*)</p>', page)
    assert shown is not None
    assert shown.group(1) == f"{unseen.total}:" + "".join(
        f" {Markup.escape(label)}{count}" for label, count in unseen.tiles)

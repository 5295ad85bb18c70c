"""Turn pages filled in from a plan made once per game (pgm.page_plan) are the pages a
full render of turn.html gives, for every real record; a theme template that does more
with a per-turn value than print it is rendered per turn and still right."""

from __future__ import annotations

import re

import jinja2
import pytest
from conftest import CORPUS, ROOT
from markupsafe import Markup
from sitehelpers import make_event, record_prefix, site_files

import pgm.crossword_turns
import pgm.page_plan
import pgm.render
from pgm.build import BuildOptions, build
from pgm.render import make_environment, printed

RECORDS = sorted((CORPUS / "gcg").glob("*.gcg")) + sorted((CORPUS / "gcg-nonexact").glob("*.gcg"))


@pytest.mark.parametrize("base_url", [None, "https://example.org/club/"])
def test_planned_pages_equal_full_renders_for_every_corpus_record(tmp_path, monkeypatch,
                                                                  base_url):
    event = make_event(tmp_path / "ev", {f"{p.parent.name}/{p.name}": p.read_bytes()
                                         for p in RECORDS})
    turn_plans = []
    make_plan = pgm.crossword_turns.TurnPages._plan
    monkeypatch.setattr(pgm.crossword_turns.TurnPages, "_plan", lambda *args: turn_plans.append(
        make_plan(*args)) or turn_plans[-1])
    build(BuildOptions(event, tmp_path / "planned", jobs=1, base_url=base_url))
    assert len(turn_plans) > 60 and None not in turn_plans  # canonical links too are holes
    made = []
    pgm.render._environment.cache_clear()  # plans made so far are kept with it
    monkeypatch.setattr(pgm.page_plan.PagePlan, "of",
                        classmethod(lambda cls, *args, **kw: made.append(args) and None))
    build(BuildOptions(event, tmp_path / "rendered", jobs=1, base_url=base_url))
    assert len(made) > 60  # pages, rows and items asked for plans and got none
    planned, rendered = site_files(tmp_path / "planned"), site_files(tmp_path / "rendered")
    assert planned.keys() == rendered.keys()
    different = [name for name in planned if planned[name] != rendered[name]]
    assert different == []


THEMES = {
    "a test on a per-turn value": "{% block footer %}{% if number > 3 %} late{% endif %}"
                                  "{% endblock %}",
    "a filter on a per-turn value": "{% block footer %} {{ move_text|upper }}{% endblock %}",
    "a per-turn value in a loop": "{% block footer %}{% for c in title %}{% endfor %} x"
                                  "{% endblock %}",
    "a filter that leaves a marker's text as it is":
        "{% block footer %} {{ move_text|lower }}{% endblock %}",
    "a method that leaves a marker's text as it is":
        "{% block footer %} {{ move_text.replace(' ', '_') }}{% endblock %}",
}


def footer_and_move(page: str) -> tuple[str, str]:
    move = re.search(r'<p class="move-text"[^>]*>(.*?)</p>', page).group(1)
    return page.split("<footer", 1)[1], move


@pytest.mark.parametrize("footer", THEMES.values(), ids=THEMES.keys())
def test_a_theme_using_per_turn_values_gets_pages_rendered_per_turn(tmp_path, footer) -> None:
    record = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {
        "g.gcg": record, "event.yaml": "theme_dir: theme\n",
        "theme/turn.html": "{% extends '!default/turn.html' %}" + footer})
    assert not build(BuildOptions(event, tmp_path / "o", jobs=1)).errors
    for number in (2, 5):
        page = (tmp_path / f"o/g/{number}.html").read_text(encoding="utf-8")
        end, move = footer_and_move(page)
        assert "\0" not in page and f">Turn {number} of " in page
        if "late" in footer:
            assert ("late" in end) == (number > 3)
        if "upper" in footer:
            assert move.upper() in end and move.upper() != move
        if "lower" in footer:
            assert move.lower() in end and move.lower() != move
        if "replace" in footer:
            assert move.replace(" ", "_") in end and " " in move


@pytest.mark.parametrize("footer", ["{{ game.round }} {{ game.label }}",
                                    "{{ game.label|upper }}", "{{ game }}"])
def test_a_theme_using_more_of_the_game_gets_each_games_own_plan(tmp_path, footer) -> None:
    """Turn pages are planned once for all games of an event, with holes for each game's
    label; a theme that uses the game otherwise gets a plan per game, and each game's
    pages still show that game."""
    record = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {
        "round-1/a.gcg": record, "round-2/b.gcg": record,
        "event.yaml": "theme_dir: theme\ngames:\n  'round-2/b.gcg': {title: 'Final <b>'}\n",
        "theme/turn.html": "{% extends '!default/turn.html' %}{% block footer %} <b>"
                           + footer + "</b>{% endblock %}"})
    assert not build(BuildOptions(event, tmp_path / "o", jobs=1)).errors
    shown = {}
    for slug in ("round-1/a", "round-2/b"):
        page = (tmp_path / f"o/{slug}/4.html").read_text(encoding="utf-8")
        assert "\0" not in page
        shown[slug] = re.search(r"<b>(.*)</b>", page.split("<footer", 1)[1]).group(1)
        assert ("Final &lt;b&gt;" in page) == (slug == "round-2/b")
    assert shown["round-1/a"] != shown["round-2/b"]
    if "round" in footer:
        assert shown["round-1/a"].startswith("1 ") and shown["round-2/b"].startswith("2 ")


DIFFERENTIAL_FOOTERS = [
    # printing, which plans take
    "{{ game.label }} {{ root }} {{ total }} {{ number }} {{ move_text }}",
    "{{ game.label|string }} {{ game.round }} {{ game['label'] }}",
    # everything else, which must give the pages a full render gives
    "{{ game.round|default('-', true) }}", "{% if game.round is defined %}R{% endif %}",
    "{{ game|attr('round') }}", "{{ game.label|tojson }}", "{{ root|tojson }}",
    "{{ cgp|tojson }}", "{{ total|int }}", "{{ number|int }}|{{ number|float }}",
    "{% if sheet is iterable %}it{% else %}noit{% endif %}",
    "{% if sheet is sequence %}seq{% endif %}", "{% if total is number %}n{% endif %}",
    "{% if move_text is string %}s{% endif %}", "{% if cgp is escaped %}e{% endif %}",
    "{{ game.label|title }}", "{{ game.label|wordcount }}", "{{ game.label|striptags }}",
    "{{ move_text|safe }}", "{{ game.label|e }}", "{{ game.label ~ '!' }}",
    "{% autoescape false %}{{ game.label }}{{ move_text }}{% endautoescape %}",
    "{{ '%s'|format(game.label) }}", "{{ [game.label, cgp]|join(', ') }}",
    "{{ game }}", "{% for r in sheet %}{{ r.word }}{% endfor %}",
]


@pytest.mark.parametrize("footer", DIFFERENTIAL_FOOTERS)
def test_planned_pages_equal_full_renders_whatever_a_theme_does(tmp_path, footer) -> None:
    """An event of games that differ in title (with markup and a bidi control), folder
    depth, length and state (one in progress), under a theme that uses per-game and
    per-turn values in a way: the planned site is the fully rendered one."""
    record = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    other = (CORPUS / "gcg/liwords__doug_vs_emely.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {
        "round-1/a.gcg": record, "round-2/deep/b.gcg": other,
        "round-3/c.gcg": record_prefix(other, 7), "d.gcg": record,
        "event.yaml": "theme_dir: theme\ngames:\n"
                      "  'round-2/deep/b.gcg': {title: 'Final <b> &amp; \u202eevil'}\n",
        "theme/turn.html": "{% extends '!default/turn.html' %}{% block footer %}<p id=probe>"
                           + footer + "</p>{% endblock %}"})
    pgm.render._environment.cache_clear()
    assert not build(BuildOptions(event, tmp_path / "planned", jobs=1)).errors
    pgm.render._environment.cache_clear()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pgm.page_plan.PagePlan, "of", classmethod(lambda cls, *a, **k: None))
        assert not build(BuildOptions(event, tmp_path / "rendered", jobs=1)).errors
    pgm.render._environment.cache_clear()
    planned, rendered = site_files(tmp_path / "planned"), site_files(tmp_path / "rendered")
    assert planned.keys() == rendered.keys()
    assert [name for name in planned if planned[name] != rendered[name]] == []


def test_a_themes_head_header_and_footer_are_planned_on_turn_pages(tmp_path, monkeypatch):
    """A theme's ``head`` (in its base.html and its turn.html), ``header`` and ``footer``
    that print per-turn values keep turn pages planned, with pgm's links to the turns
    either side (``head_links``) still in the head and the event's css after all."""
    record = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {
        "round-1/a.gcg": record, "b.gcg": record_prefix(record, 7),
        "club.css": ":root { --accent: red; }\n",
        "event.yaml": "theme_dir: theme\ncss: club.css\n",
        "theme/base.html": "{% extends '!default/base.html' %}"
                           "{% block head %}<link rel=stylesheet href='{{ root }}static/t.css'>"
                           "{% endblock %}{% block header %}<header id=club>{{ event.title }}"
                           "{% block crumbs %}{% endblock %}</header>{% endblock %}"
                           "{% block footer %}<nav>{{ root }}</nav>{% endblock %}",
        "theme/turn.html": "{% extends '!default/turn.html' %}{% block head %}{{ super() }}"
                           "<meta name=turn content='{{ number }} of {{ total }}'>{% endblock %}"})
    plans = []
    make_plan = pgm.crossword_turns.TurnPages._plan
    monkeypatch.setattr(pgm.crossword_turns.TurnPages, "_plan", lambda *args: plans.append(
        make_plan(*args)) or plans[-1])
    pgm.render._environment.cache_clear()
    assert not build(BuildOptions(event, tmp_path / "planned", jobs=1)).errors
    assert plans and None not in plans
    pgm.render._environment.cache_clear()
    monkeypatch.setattr(pgm.page_plan.PagePlan, "of", classmethod(lambda cls, *a, **k: None))
    assert not build(BuildOptions(event, tmp_path / "rendered", jobs=1)).errors
    pgm.render._environment.cache_clear()
    planned, rendered = site_files(tmp_path / "planned"), site_files(tmp_path / "rendered")
    assert [name for name in planned if planned[name] != rendered[name]] == []
    head = planned["round-1/a/3.html"].decode().split("</head>")[0]
    assert head.endswith('<link rel="prefetch" href="4.html"><link rel="prev" href="2.html">'
                         '<link rel="next" href="4.html"><link rel=stylesheet '
                         "href='../../static/t.css'><meta name=turn content='3 of 27'>"
                         '<link rel="stylesheet" href="../../static/event/club.css">\n')
    assert "<header id=club>Games <a href=\"index.html\">" in planned["b/2.html"].decode()


def test_a_theme_looping_over_the_sheet_still_gets_a_plan_per_game(tmp_path, monkeypatch):
    """What differs from game to game is a hole only in the plan shared by games; a
    theme that loops over ``sheet`` gets a plan of its own for each game instead."""
    made = []
    make = pgm.page_plan.PagePlan.make.__func__
    monkeypatch.setattr(pgm.page_plan.PagePlan, "make",
                        classmethod(lambda cls, *args: made.append(make(cls, *args))
                                    or made[-1]))
    record = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {
        "a.gcg": record, "b.gcg": record, "event.yaml": "theme_dir: theme\n",
        "theme/turn.html": "{% extends '!default/turn.html' %}{% block footer %}"
                           "{% for r in sheet %}{{ r.word }} {% endfor %}{% endblock %}"})
    pgm.render._environment.cache_clear()
    assert not build(BuildOptions(event, tmp_path / "o", jobs=1)).errors
    assert len(made) == 2 and None not in made
    page = (tmp_path / "o/b/3.html").read_text(encoding="utf-8")
    assert "GYP ZA THEW" in page.split("<footer")[1]


def _built_with_theme_macro(tmp_path, partial: str, name: str, macro: str):
    """A site of one corpus game built with a theme whose ``partials/PARTIAL`` is pgm's
    own with the macro ``name`` replaced by ``macro``; its output folder."""
    source = (ROOT / "templates/partials" / partial).read_text(encoding="utf-8")
    start = source.index("{% macro " + name + "(")
    end = source.index("{% endmacro %}", start) + len("{% endmacro %}")
    event = make_event(tmp_path / "ev", {
        "g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes(),
        "event.yaml": "theme_dir: theme\n",
        f"theme/partials/{partial}": source[:start] + macro + source[end:]})
    assert not build(BuildOptions(event, tmp_path / "o", jobs=1)).errors
    return tmp_path / "o"


def test_a_theme_turn_item_that_shows_more_of_the_row_is_rendered_per_item(tmp_path) -> None:
    """turn_item is planned with holes for the row's number, word and score only; a
    theme's item that shows the player is rendered for every item instead."""
    out = _built_with_theme_macro(tmp_path, "fragments.html", "turn_item",
                                  '{% macro turn_item(r, current) %}<li>{{ r.number }} '
                                  '{{ r.player }}</li>{% endmacro %}')
    page = (out / "g/2.html").read_text(encoding="utf-8")
    items = re.findall(r"<li>(\d+) ([^<]*)</li>", page.split('class="turn-list"')[1])
    assert items[:2] == [("1", "andy"), ("2", "cesar")]


def test_a_theme_score_table_that_shows_more_of_a_player_is_called_per_page(tmp_path) -> None:
    """score_table is planned per shape with holes for each player's name, score, spread
    and rack; a theme's table that also shows the nickname and the raw spread is called
    for every page instead, and gets the players as they are."""
    out = _built_with_theme_macro(
        tmp_path, "turn_parts.html", "score_table",
        '{% macro score_table(players, game_over) %}{% for p in players %}<p class="sc">'
        '{{ p.nick }} {{ p.score }} {{ "%+d"|format(p.spread) }} {{ p.rack or "?" }}</p>'
        '{% endfor %}{% endmacro %}')
    rows = re.findall(r'<p class="sc">([^<]*)</p>', (out / "g/3.html").read_text())
    assert [row.split()[:3] for row in rows] == [["andy", "40", "+24"], ["cesar", "16", "-24"]]


class _Html:
    def __html__(self) -> str:
        return "<i>own markup</i>"


PRINTED_VALUES = [0, -5, 10**20, True, 1.5, None, "", "plain words", "a<b & 'c'", 'say "x"', "it's",
                  "x\u202ey", "caf\u00e9 \u2066<z>", Markup("<b>kept</b>"), _Html(),
                  ("a", "<b>")]
STOCK = jinja2.Environment(autoescape=True, finalize=pgm.render._without_bidi_controls,
                           undefined=jinja2.StrictUndefined)
"""Jinja as it comes: pgm's environment compiles printing to one call, and must print
exactly what this one prints."""


@pytest.mark.parametrize("value", PRINTED_VALUES)
def test_a_plan_prints_values_as_jinja_would(value) -> None:
    assert printed(value) == STOCK.from_string("{{ v }}").render(v=value)


@pytest.mark.parametrize("source", [
    "{{ v }}", "[{{ v }}|{{ v|string }}]", "{{ v if v else 'nothing' }}",
    "{% macro m(x) %}<{{ x }}>{% endmacro %}{{ m(v) }}{{ m(v)|length }}",
    "{% set s %}{{ v }}{% endset %}{{ s }}{{ s|length }}",
    "{% autoescape false %}{{ v }}{% endautoescape %}{{ v }}",
    "{% for x in [v, v] %}{{ loop.index }}{{ x }}{% endfor %}"])
@pytest.mark.parametrize("value", PRINTED_VALUES)
def test_templates_print_values_as_jinja_would(source, value) -> None:
    ours = make_environment(None).from_string(source).render(v=value)
    assert ours == STOCK.from_string(source).render(v=value)


def test_an_undefined_value_still_fails_loudly() -> None:
    with pytest.raises(jinja2.UndefinedError, match="'nope' is undefined"):
        make_environment(None).from_string("{{ nope }}").render()

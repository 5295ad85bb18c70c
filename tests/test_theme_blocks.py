"""The blocks of ``base.html`` a theme fills: its ``head`` on every page, after pgm's own
links and before the event's ``css`` (which comes last, so that it wins the cascade), a
``header`` it can replace alone, and a ``footer`` outside pgm's paragraph."""

from __future__ import annotations

import re
import shutil

import pytest
from conftest import SAMPLE_GAMES
from sitehelpers import run_build

PAGES = {
    "index.html": "pgm.css",
    "players.html": "pgm.css",
    "404.html": "pgm.css",
    "round-1/table-1/index.html": "pgm.css",
    "round-1/table-1/3.html": "pgm.css",  # a crossword turn page: made from a page plan
    "round-3/table-2/3.html": "pgm.css",  # ... of a game in progress
    "upwords/upwords-sample/index.html": "upwords.css",
    "upwords/upwords-sample/3.html": "upwords.css",
    "upwords/example/index.html": "upwords.css",
    "exhibition/gungi-sample/index.html": "gungi.css",
    "exhibition/gungi-sample/3.html": "gungi.css",
    "positions/puzzles/index.html": "cgp.css",
    "positions/puzzles/2.html": "cgp.css",
}
"""A page of each template of pgm's, and the last stylesheet of pgm's it links."""

THEME_BASE = """\
{% extends "!default/base.html" %}
{% block head %}<link rel="stylesheet" href="{{ root }}static/club-theme.css">
{% endblock %}
{% block header %}<header class="club"><a href="{{ root }}index.html">Club</a></header>
{% endblock %}
{% block footer %}<nav aria-label="Club"><a href="https://c.example/">Club</a></nav>{% endblock %}
"""


def _event(tmp_path, theme: dict[str, str] | None = None):
    """The sample event with a stylesheet of its own (``css``) and, if given, a theme."""
    event = tmp_path / "ev"
    shutil.copytree(SAMPLE_GAMES, event)
    config = event / "event.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "css: club.css\n" +
                      ("theme_dir: club-theme\n" if theme else ""), encoding="utf-8")
    (event / "club.css").write_text(":root { --accent: #8a1c1c; }\n", encoding="utf-8")
    for name, text in (theme or {}).items():
        (event / "club-theme" / name).parent.mkdir(parents=True, exist_ok=True)
        (event / "club-theme" / name).write_text(text, encoding="utf-8")
    return event


def _stylesheets(page: str) -> list[str]:
    head = page.split("</head>", 1)[0]
    return [href.rsplit("/", 1)[1] for href in
            re.findall(r'<link rel="stylesheet" href="([^"]+)">', head)]


def test_the_events_css_is_the_last_stylesheet_of_every_page(tmp_path) -> None:
    """Upwords, Gungi and position pages link a sheet of their own after pgm.css: the
    event's sheet comes after that one too, or its rules would lose the cascade there."""
    result = run_build(str(_event(tmp_path)), "-o", str(tmp_path / "o"), "--strict")
    assert result.exit_code == 0, result.output
    for name, last_of_pgms in PAGES.items():
        sheets = _stylesheets((tmp_path / "o" / name).read_text(encoding="utf-8"))
        assert sheets[-2:] == [last_of_pgms, "club.css"], name


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_themes_head_header_and_footer_are_on_every_page(tmp_path, jobs) -> None:
    result = run_build(str(_event(tmp_path, {"base.html": THEME_BASE})), "-o",
                       str(tmp_path / "o"), "--strict", "--jobs", jobs)
    assert result.exit_code == 0, result.output
    for name, last_of_pgms in PAGES.items():
        page = (tmp_path / "o" / name).read_text(encoding="utf-8")
        assert _stylesheets(page)[-3:] == [last_of_pgms, "club-theme.css", "club.css"], name
        assert '<header class="club"><a href="' in page and '<header class="site">' not in page
        # the nav is the footer's, outside pgm's paragraph (a <p> cannot hold a <nav>)
        assert re.search(r'<footer class="site"><p>Made with pgm [^<]*\.</p><nav aria-label='
                         r'"Club"><a href="https://c.example/">Club</a></nav></footer>',
                         page), name
    turn = (tmp_path / "o/round-1/table-1/3.html").read_text(encoding="utf-8")
    assert '<link rel="prev" href="2.html"><link rel="next" href="4.html">' in turn


def test_a_themes_turn_page_adds_to_the_head_and_keeps_pgms_links(tmp_path) -> None:
    """``head`` is the theme's: pgm's turn page puts its links to the turns either side
    in a block of its own, which a theme's ``head`` leaves in place."""
    theme = {"turn.html": '{% extends "!default/turn.html" %}\n'
                          '{% block head %}<meta name="club" content="turn {{ number }}">'
                          '{% endblock %}\n'}
    result = run_build(str(_event(tmp_path, theme)), "-o", str(tmp_path / "o"), "--strict")
    assert result.exit_code == 0, result.output
    for number in (1, 3, 20):
        page = (tmp_path / f"o/round-3/table-2/{number}.html").read_text(encoding="utf-8")
        head = page.split("</head>", 1)[0]
        assert f'<meta name="club" content="turn {number}">' in head
        assert head.index('<meta name="club"') < head.index("static/event/club.css")
        nearby = [f'<link rel="{rel}" href="{n}.html">' for rel, n in
                  (("prev", number - 1), ("next", number + 1)) if 1 <= n <= 20]
        assert nearby and all(link in head for link in nearby), number


def test_a_theme_can_replace_the_header_and_keep_the_crumbs(tmp_path) -> None:
    """The page's crumbs are a block of their own inside the header: a theme's header
    calls them where it wants them."""
    theme = {"base.html": '{% extends "!default/base.html" %}\n'
                          '{% block header %}<header class="club"><nav>Club'
                          '{% block crumbs %}{% endblock %}</nav></header>\n{% endblock %}\n'}
    result = run_build(str(_event(tmp_path, theme)), "-o", str(tmp_path / "o"), "--strict")
    assert result.exit_code == 0, result.output
    turn = (tmp_path / "o/round-1/table-1/3.html").read_text(encoding="utf-8")
    assert ('<header class="club"><nav>Club <a href="../../index.html#round-1">Round 1</a> '
            '<a href="index.html">') in turn

"""What a theme author meets: template errors that say where and what, and macro files
that replace some of pgm's macros and keep the rest."""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS, ROOT
from sitehelpers import make_event, run_build

GOOD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
RECORDS = {f"g{n}.gcg": GOOD.replace(b"#player1 andy andy", f"#player1 andy Andy {n}".encode())
           for n in range(8)}
"""Enough games for worker processes; each its own game (copies of one would be warned of)."""
FRAGMENTS = (ROOT / "templates/partials/fragments.html").read_text(encoding="utf-8")


def _theme_event(tmp_path, theme: dict[str, str]):
    files: dict[str, str | bytes] = {**RECORDS, "event.yaml": "theme_dir: mytheme\n"}
    files.update({f"mytheme/{name}": text for name, text in theme.items()})
    return make_event(tmp_path / "ev", files)


def _broken_line(line: int, old: str, new: str) -> str:
    lines = FRAGMENTS.split("\n")
    assert old in lines[line - 1], "pgm's fragments.html changed: update the test"
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    return "\n".join(lines)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(("line", "old", "new", "message"), [
    (5, "{{ s.label }}", "{{ 1 // 0 }}", "ZeroDivisionError: integer division or modulo by zero"),
    (9, "{{ r.word }}", "{{ r.word.nope.x }}", "'str object' has no attribute 'nope'"),
], ids=["square", "turn_item"])
def test_an_error_in_a_theme_macro_names_the_macros_line(tmp_path, jobs, line, old, new,
                                                         message) -> None:
    """pgm calls these macros from Python, outside any render, where Jinja does not put
    the template's lines into the traceback: pgm maps them itself."""
    event = _theme_event(tmp_path, {"partials/fragments.html": _broken_line(line, old, new)})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--jobs", str(jobs))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (f"template error in {event}/mytheme/partials/fragments.html, line {line}: "
            f"{message}\n") in result.output, result.output


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_missing_include_says_which_template_is_missing_and_where_pgm_looked(
        tmp_path, jobs) -> None:
    event = _theme_event(tmp_path, {"base.html": '<!doctype html>\n'
                                                 '{% include "partials/nothere.html" %}\n'})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--jobs", str(jobs))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (f"template error in {event}/mytheme/base.html, line 2: template "
            "'partials/nothere.html' not found (looked in the theme's folder and pgm's "
            "templates)\n") in result.output, result.output


@pytest.mark.parametrize(("name", "source", "said"), [
    ("base.html", '{% include ["a.html", "!default/b.html"] %}',
     "none of the templates 'a.html', '!default/b.html' found (looked in the theme's folder "
     "and pgm's templates)"),
    ("turn.html", '{% extends "!default/turns.html" %}',
     "template '!default/turns.html' not found (looked in pgm's templates)")])
def test_a_missing_template_is_named_with_where_pgm_looked(tmp_path, name: str, source: str,
                                                           said: str) -> None:
    """A list names every template in it; a ``!default/`` name is looked for in pgm's
    templates only."""
    event = _theme_event(tmp_path, {name: source})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--jobs", "1")
    assert result.exit_code == 1
    assert f"line 1: {said}\n" in result.output, result.output


README_EXAMPLE = (
    '{% macro turn_item(r, current) %}<li><a href="{{ r.number }}.html"'
    '{% if current %} aria-current="page"{% endif %}>{{ r.number }}. {{ r.word }}</a> '
    '<small>{{ r.score }}</small></li>{% endmacro %}\n')
"""The example of README's "Themes": a theme's fragments.html with one macro."""


@pytest.mark.parametrize("extends", ["", '{% extends "!default/partials/fragments.html" %}\n'],
                         ids=["alone", "extending pgm's"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_theme_macro_file_replaces_its_macros_and_keeps_pgms_others(
        tmp_path, extends, jobs) -> None:
    """A macro file of the theme with one macro: pages use it, and pgm's macros for the
    rest (the board's squares and rows, the index's rounds). Extending pgm's file, which
    in Jinja lets the parent's macros win, gives the same."""
    assert f"```\n{README_EXAMPLE}```\n" in (ROOT / "README.md").read_text(encoding="utf-8")
    plain = tmp_path / "plain"
    assert run_build(str(make_event(plain / "ev", RECORDS)), "-o", str(plain / "o"),
                     "--jobs", str(jobs)).exit_code == 0
    event = _theme_event(tmp_path, {"partials/fragments.html": extends + README_EXAMPLE})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--jobs", str(jobs), "--strict")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "o/g3/3.html").read_text(encoding="utf-8")
    assert '<li><a href="2.html">2. ZA</a> <small>+16</small></li>' in page
    assert '<a href="3.html" aria-current="page">3. ' in page
    before = (plain / "o/g3/3.html").read_text(encoding="utf-8")
    board = re.compile(r"<tbody>.*?</tbody>", re.S)
    assert board.findall(page) == board.findall(before)
    assert (tmp_path / "o/index.html").read_text() == (plain / "o/index.html").read_text()


def test_a_theme_turn_parts_file_with_one_macro_keeps_pgms_others(tmp_path) -> None:
    event = _theme_event(tmp_path, {"partials/turn_parts.html": (
        '{% macro unseen_counts(unseen) %}<p class="my-unseen">{{ unseen.total }} unseen</p>'
        '{% endmacro %}\n')})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--jobs", "1", "--strict")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "o/g0/3.html").read_text(encoding="utf-8")
    assert re.search(r'<p class="my-unseen">\d+ unseen</p>', page)
    assert '<table class="score-table">' in page and 'rel="next" href="4.html"' in page


def test_a_theme_macro_file_can_still_call_pgms_macros(tmp_path) -> None:
    event = _theme_event(tmp_path, {"partials/fragments.html": (
        '{% import "!default/partials/fragments.html" as pgm %}'
        '{% macro turn_item(r, current) %}{{ pgm.turn_item(r, current) }}<!-- mine -->'
        '{% endmacro %}\n')})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--jobs", "1", "--strict")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "o/g0/3.html").read_text(encoding="utf-8")
    assert '<li><a href="2.html">2 ZA</a> +16</li><!-- mine -->' in page

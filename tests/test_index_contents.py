"""An event index of several divisions opens with a "Contents" list: a link to each
division's section, in the order of the page, in a labelled nav that needs no script.
An index of one division, or none, has none."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from urllib.parse import unquote

from conftest import CORPUS
from sitehelpers import make_event, run_build

GAME = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def index_of(tmp_path: Path, records: list[str]) -> str:
    event = make_event(tmp_path / "ev", dict.fromkeys(records, GAME))
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output
    return (tmp_path / "o/index.html").read_text(encoding="utf-8")


def contents(html: str) -> list[tuple[str, str]]:
    """(href, text) of each link of the contents nav; the nav is labelled "Contents"."""
    navs = re.findall(r'<nav class="contents" aria-labelledby="([^"]+)">(.*?)</nav>', html, re.S)
    assert len(navs) == 1
    label, nav = navs[0]
    assert re.search(rf'<h2 id="{label}">Contents</h2>', nav)
    return [(unescape(href), unescape(text))
            for href, text in re.findall(r'<li><a href="([^"]*)">([^<]*)</a></li>', nav)]


def test_several_divisions_are_listed_and_linked_to_their_sections(tmp_path) -> None:
    html = index_of(tmp_path, ["2010 Open/r1.gcg", "2004 Open/r1.gcg", "Группа Б/r1.gcg",
                               "Группа А/r1.gcg", "Élite & Co/r1.gcg"])
    links = contents(html)
    sections = re.findall(r'<section class="division" id="([^"]*)"[^>]*>\s*<h2[^>]*>([^<]*)</h2>',
                          html)
    assert [text for _, text in links] == [unescape(name) for _, name in sections] == [
        "2004 Open", "2010 Open", "Élite & Co", "Группа А", "Группа Б"]
    for (href, _), (section, _) in zip(links, sections, strict=True):
        assert href.startswith("#") and href.isascii() and " " not in href
        assert unquote(href[1:]) == unescape(section)
    # the contents come before the first division
    assert html.index('class="contents"') < html.index('<section class="division"')


def test_games_of_no_division_are_not_a_contents_entry(tmp_path) -> None:
    html = index_of(tmp_path, ["r1/t1.gcg", "Juniors/r1.gcg", "Seniors/r1.gcg"])
    assert [text for _, text in contents(html)] == ["Juniors", "Seniors"]


def test_one_division_or_none_has_no_contents(tmp_path) -> None:
    assert 'class="contents"' not in index_of(tmp_path / "a", ["r1/t1.gcg", "r2/t1.gcg"])
    assert 'class="contents"' not in index_of(tmp_path / "b", ["Open/r1.gcg", "Open/r2.gcg"])
    assert 'class="contents"' not in index_of(tmp_path / "c", ["r1/t1.gcg", "Open/r1.gcg"])

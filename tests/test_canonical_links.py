"""With ``base_url`` every page the sitemap lists names its public address with a
canonical link: search engines then index the event's pages under that address, not
under a mirror or a copy opened from disk."""

from __future__ import annotations

import re
import shutil

from conftest import SAMPLE_GAMES
from sitehelpers import run_build

BASE = "https://example.org/club/"
POSITIONS = ("# An empty board\n"
             "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0 -lex CSW21;\n")
CANONICAL = re.compile(r'<link rel="canonical" href="([^"]*)">')


def _canonical_of(page) -> list[str]:
    return CANONICAL.findall(page.read_text(encoding="utf-8"))


def test_every_page_in_the_sitemap_names_its_own_address(tmp_path) -> None:
    event = tmp_path / "ev"
    shutil.copytree(SAMPLE_GAMES, event)
    (event / "exhibition/positions.cgp").write_text(POSITIONS)
    out = tmp_path / "site"
    result = run_build(str(event), "-o", str(out), "--base-url", BASE)
    assert result.exit_code == 0, result.output
    listed = re.findall(r"<loc>([^<]*)</loc>", (out / "sitemap.xml").read_text())
    pages = {url: out / url.removeprefix(BASE) for url in listed}
    assert len(pages) > 100
    # every kind of game: crossword, Upwords, Gungi and a position set
    for page in ("round-1/table-1/17.html", "upwords/upwords-sample/3.html",
                 "exhibition/gungi-sample/2.html", "exhibition/positions/1.html",
                 "exhibition/positions/index.html", "round-2/table-1/index.html"):
        assert f"{BASE}{page}" in pages
    for url, page in pages.items():
        assert _canonical_of(page) == [url], page
    # The 404 page is served at every missing address: none of them is its own, and
    # search engines are asked to leave it out.
    not_found = (out / "404.html").read_text(encoding="utf-8")
    assert f"{BASE}404.html" not in listed and CANONICAL.search(not_found) is None
    assert '<meta name="robots" content="noindex">' in not_found


def test_without_base_url_no_page_has_a_canonical_link(tmp_path) -> None:
    out = tmp_path / "site"
    assert run_build(str(SAMPLE_GAMES), "-o", str(out)).exit_code == 0
    assert not any(_canonical_of(page) for page in out.rglob("*.html"))

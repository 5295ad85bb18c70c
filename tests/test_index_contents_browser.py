"""The event index's contents in Debian's Chromium: shown on screens (in the page's link
colour, light and dark), a link goes to its division without JavaScript, and paper,
which cannot follow links, leaves it out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browserhelpers import open_page, serve
from conftest import CORPUS
from playwright.sync_api import Browser, Page
from sitehelpers import make_event, run_build

DIVISIONS = [f"Division {n}" for n in range(1, 13)] + ["Группа А"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("contents")
    game = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(root / "ev", {f"{name}/r1.gcg": game for name in DIVISIONS})
    result = run_build(str(event), "-o", str(root / "site"))
    assert result.exit_code == 0, result.output
    with serve(root / "site") as url:
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser, java_script_enabled=False,
                   viewport={"width": 1000, "height": 700}) as opened:
        yield opened


def test_the_contents_lead_to_each_division_without_javascript(page: Page, server: str
                                                               ) -> None:
    page.goto(server + "index.html")
    nav = page.get_by_role("navigation", name="Contents")
    assert nav.is_visible()
    links = nav.get_by_role("link")
    assert links.all_inner_texts() == DIVISIONS
    links.last.click()
    page.wait_for_url("**/index.html#division-*")
    # the link's target is the division's section, scrolled to
    assert page.evaluate("document.querySelector(':target h2').textContent") == "Группа А"
    assert page.evaluate("window.scrollY") > 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_contents_links_are_in_the_pages_link_colour(page: Page, server: str,
                                                         scheme: str) -> None:
    page.emulate_media(media="screen", color_scheme=scheme)
    page.goto(server + "index.html")
    colours = page.evaluate("""() => [
        getComputedStyle(document.querySelector('nav.contents a')).color,
        getComputedStyle(document.querySelector('.description, .downloads a')).color]""")
    assert colours[0] == colours[1]
    # the list is laid out in columns, not one long line per division
    tops = page.evaluate("""() => [...document.querySelectorAll('nav.contents li')]
        .map(li => li.getBoundingClientRect().top)""")
    assert len(set(tops)) < len(DIVISIONS)


def test_print_leaves_the_contents_out(page: Page, server: str) -> None:
    page.emulate_media(media="print")
    page.goto(server + "index.html")
    assert not page.get_by_role("navigation", name="Contents").is_visible()
    assert page.get_by_role("heading", name="Division 1", level=2, exact=True).is_visible()

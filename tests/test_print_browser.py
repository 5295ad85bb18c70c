"""Printed pages, measured in Debian's Chromium with print media emulated.

A coach who prints annotated games (or saves them as PDF) found a long code line of a note
cut at the page's edge and its tables unruled, premium squares in faint grey, a dark board
from a dark system scheme, no game name on a turn page, link addresses lost, the "Final
position" heading alone at a page's foot, two chart lines in the same grey, and screen
things (the turn list, the live status) on paper. Paper keeps neither backgrounds nor
colour: what must read on it is measured as text colour, borders and outlines against
white, on the layout of a printed page's width.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal

import pytest
from browserhelpers import open_page, serve
from playwright.sync_api import Browser, Page
from sitehelpers import build_sample, make_event, run_build

# An A4 page less the print margins, in CSS pixels: what a printed page lays out in.
PAPER = {"width": 718, "height": 1000}
# A note's fenced code line as long as the coach's (an engine's output: 150 characters),
# ending in a word that must reach the paper.
LONG_LINE = ("8H QUIXOTIC 365 " + "then-the-long-analysis-line " * 5)[:144] + " LASTW"
CLUB_GAME = f"""\
#player1 Ann Ann
#player2 Bob Bob
>Ann: ABDELNO 8D BLONDE +24 24
#note Quackle's run:
```
{LONG_LINE}
```

| Play | Score | Equity |
| --- | --- | --- |
| BLONDE | 24 | 30.1 |

More at [the analysis](https://example.org/analysis/blonde).
>Bob: ACCHLTV E7 C.ATCH +26 99
"""
"""A game in progress with a long note and a wrong running total (a problem to list)."""
TURN = "round-2/table-2/14.html"  # new tiles, a tile played through, premium squares
GAME = "round-2/table-2/index.html"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The sample event at /sample/ and a club event with the long note at /club/."""
    root = tmp_path_factory.mktemp("print")
    build_sample(root / "sample")
    event = make_event(root / "club-event", {
        "event.yaml": "title: Club night\ndescription: Rules at "
                      "[the club's site](https://example.org/rules).\n",
        "game.gcg": CLUB_GAME})
    result = run_build(str(event), "-o", str(root / "club"))
    assert result.exit_code == 0, result.output
    with serve(root) as url:
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser, viewport=PAPER) as opened:
        yield opened


def printed(page: Page, url: str, scheme: Literal["light", "dark"] = "light") -> None:
    """Open a page as the browser lays it out for printing."""
    page.emulate_media(media="print", color_scheme=scheme)
    page.goto(url, wait_until="load")


def luminance(css_colour: str) -> float:
    """Relative luminance (WCAG) of a computed colour, "rgb(...)" or "rgba(...)"."""
    red, green, blue = (int(v) / 255 for v in re.findall(r"[\d.]+", css_colour)[:3])
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
              for c in (red, green, blue)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_on_paper(css_colour: str) -> float:
    """Contrast ratio of a colour against white paper."""
    return 1.05 / (luminance(css_colour) + 0.05)


STYLE_JS = """([selector, pseudo, names]) => {
  const found = document.querySelector(selector);
  if (!found) return null;
  const style = getComputedStyle(found, pseudo);
  return Object.fromEntries(names.map(name => [name, style.getPropertyValue(name)]));
}"""


def style(page: Page, selector: str, *names: str, pseudo: str | None = None) -> dict[str, str]:
    """Computed values of the first element matching ``selector`` (or its pseudo-element)."""
    found = page.evaluate(STYLE_JS, [selector, pseudo, list(names)])
    assert found is not None, f"nothing matches {selector}"
    return found


# ---------------------------------------------------------------------------------------
# Notes on paper


def test_a_long_code_line_in_a_note_wraps_within_the_printed_page(page: Page,
                                                                  server: str) -> None:
    """The end of a 150-character line is on the paper, not past its right edge."""
    printed(page, server + "club/game/1.html")
    width = page.evaluate("document.documentElement.clientWidth")
    last_word = page.evaluate("""() => {
      const code = document.querySelector(".notes pre code").firstChild;
      const range = document.createRange();
      range.setStart(code, code.data.indexOf("LASTW"));
      range.setEnd(code, code.data.indexOf("LASTW") + 5);
      return range.getBoundingClientRect().right;
    }""")
    assert 0 < last_word <= width, (last_word, width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_note_table_prints_ruled_and_padded(page: Page, server: str) -> None:
    """Header cells are boxed apart, not run together ("PlayScoreEquity")."""
    printed(page, server + "club/game/1.html")
    cell = style(page, ".notes th", "border-left-style", "border-left-width",
                 "border-left-color", "padding-left")
    assert cell["border-left-style"] == "solid"
    assert float(cell["border-left-width"].removesuffix("px")) >= 1
    assert contrast_on_paper(cell["border-left-color"]) >= 3
    assert float(cell["padding-left"].removesuffix("px")) >= 4


def test_links_in_notes_and_descriptions_print_their_address(page: Page,
                                                             server: str) -> None:
    """Paper cannot follow a link: a note's or description's external link shows its
    address after its text; the site's own links (to the game, the turns) do not."""
    printed(page, server + "club/game/1.html")
    after = style(page, ".notes a[href]", "content", pseudo="::after")["content"]
    assert "https://example.org/analysis/blonde" in after
    site_link = style(page, "main a[href='index.html']", "content", pseudo="::after")
    assert site_link["content"] in ("none", "normal")
    printed(page, server + "club/index.html")
    after = style(page, ".description a[href]", "content", pseudo="::after")["content"]
    assert "https://example.org/rules" in after


# ---------------------------------------------------------------------------------------
# What a printed page says and leaves out


def test_a_printed_turn_page_names_its_game(page: Page, server: str) -> None:
    """The site header is not printed, so the page's heading says which game it is; on
    screen it stays for screen readers only, as before."""
    printed(page, server + "sample/" + TURN)
    heading = page.locator("h1")
    box = heading.bounding_box()
    assert box and box["width"] > 100 and box["height"] > 10, box
    assert "HastyBot vs RightBehindYou" in heading.inner_text()
    page.emulate_media(media="screen")
    box = heading.bounding_box()
    assert box and box["width"] <= 1 and box["height"] <= 1, box


def test_turn_list_and_live_status_are_left_out_of_print(page: Page, server: str) -> None:
    """Links to other turns and "In progress · updated ..." are of no use on paper; the
    problems of the record, which a director reads, stay."""
    printed(page, server + "club/game/2.html")
    for selector in (".turn-list", "#live-status"):
        assert style(page, selector, "display")["display"] == "none", selector
    assert page.locator(".problems li").first.is_visible()
    printed(page, server + "sample/upwords/upwords-sample/7.html")
    assert style(page, ".turn-page .sheet-section", "display")["display"] == "none"
    printed(page, server + "sample/" + GAME)  # a game page's score sheet is printed
    assert page.locator("table.sheet").is_visible()


def test_the_final_position_heading_stays_with_its_board(page: Page, server: str) -> None:
    """Chromium moves the heading to the next page with the board, instead of leaving it
    alone at the foot of the page (as it did for two sample games)."""
    printed(page, server + "sample/" + GAME)
    section = "section:has(> h2#final-h)"
    assert style(page, section, "break-inside")["break-inside"] == "avoid"
    assert style(page, "h2#final-h", "break-after")["break-after"] == "avoid"


# ---------------------------------------------------------------------------------------
# The board and the chart in black and white

PREMIUMS = ("tw", "dw", "tl", "dl")


def test_premium_squares_print_with_dark_labels_and_frames(page: Page, server: str) -> None:
    """Without background graphics only the labels and lines reach the paper: each premium
    label is dark, and a word premium is framed otherwise than a letter premium."""
    printed(page, server + "sample/" + TURN)
    frames = {}
    for kind in PREMIUMS:
        label = style(page, f".cw td.{kind}", "color", "content", pseudo="::after")
        assert kind.upper() in label["content"], (kind, label)
        assert contrast_on_paper(label["color"]) >= 7, (kind, label)
        frame = style(page, f".cw td.{kind}", "outline-style", "outline-width")
        assert frame["outline-style"] != "none" and frame["outline-width"] != "0px", kind
        frames[kind] = frame["outline-style"]
    assert frames["tw"] == frames["dw"] != frames["tl"] == frames["dl"], frames


def test_tiles_print_framed_apart_from_empty_squares(page: Page, server: str) -> None:
    """A tile has a black edge, heavier than the grid of empty squares; a new tile and a
    tile the play went through keep their marks (solid and dashed inner frames)."""
    printed(page, server + "sample/" + TURN)
    tile = style(page, ".cw td[data-l]:not(.n):not(.t)", "border-top-width", "border-top-color")
    empty = style(page, ".cw td:not([class]):not([data-l])", "border-top-width")
    assert float(tile["border-top-width"][:-2]) > float(empty["border-top-width"][:-2])
    assert contrast_on_paper(tile["border-top-color"]) >= 7
    new = style(page, ".cw td[data-l].n", "outline-style", "outline-color")
    through = style(page, ".cw td[data-l].t", "outline-style", "outline-color")
    assert (new["outline-style"], through["outline-style"]) == ("solid", "dashed")
    assert contrast_on_paper(new["outline-color"]) >= 7


def test_a_dark_system_scheme_prints_the_light_board_and_page(page: Page, server: str) -> None:
    """Printing from a dark system gives white squares and dark text, not a dark slab
    (with background graphics on) or pale grey text (with them off); the screen stays
    dark."""
    printed(page, server + "sample/" + TURN, scheme="dark")
    for selector in (".board", ".cw td:not([data-l])", ".cw td.tw", ".cw td[data-l]",
                     ".board th"):
        background = style(page, selector, "background-color")["background-color"]
        assert luminance(background) > 0.8, (selector, background)
    for selector in (".board caption", ".board th", "h2#move-h", ".score-table td"):
        colour = style(page, selector, "color")["color"]
        assert contrast_on_paper(colour) >= 7, (selector, colour)
    page.emulate_media(media="screen", color_scheme="dark")
    background = style(page, ".cw td:not([data-l])", "background-color")["background-color"]
    assert luminance(background) < 0.1, background


def test_the_second_chart_line_prints_dashed_and_so_does_its_swatch(page: Page,
                                                                  server: str) -> None:
    """Two lines in two greys cannot be told apart on a black-and-white page: the second
    player's is dashed, line and legend alike; on screen both stay solid."""
    printed(page, server + "sample/" + GAME)
    first = style(page, ".chart .series.s1", "stroke-dasharray")["stroke-dasharray"]
    second = style(page, ".chart .series.s2", "stroke-dasharray")["stroke-dasharray"]
    assert first == "none" and second != "none", (first, second)
    swatches = [style(page, f".legend li.s{n}", "border-top-style", "border-top-width",
                      pseudo="::before") for n in (1, 2)]
    assert [s["border-top-style"] for s in swatches] == ["solid", "dashed"], swatches
    assert all(float(s["border-top-width"][:-2]) >= 2 for s in swatches), swatches
    page.emulate_media(media="screen")
    assert style(page, ".chart .series.s2", "stroke-dasharray")["stroke-dasharray"] == "none"

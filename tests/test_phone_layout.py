"""The sample event on phones, measured in Debian's Chromium as a spectator sees it.

A reviewer found the score and running total of a game page off-screen at 390px, a turn
page scrolling sideways at 320px and names split inside words on the players page; and
the players of the event's own games headed "Other players". Each test here measures
the rendered page (bounding boxes, line boxes, pixels), not the HTML. Screenshots of the
pages at 320, 390 and 1280px in both colour schemes go to test-artifacts/screenshots/phone/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browserhelpers import open_page, serve
from conftest import ROOT, SAMPLE_GAMES
from playwright.sync_api import Browser, Page
from sitehelpers import build_sample, make_event, run_build

SCREENSHOTS = ROOT / "test-artifacts" / "screenshots" / "phone"
SMALLEST = {"width": 320, "height": 640}
PHONE = {"width": 390, "height": 844}

# One page or more of every kind: the indexes, crossword game and turn pages (the widest
# score tables: a "to move" badge with a spread, a rack "GS + 5 unknown"), Gungi, a set
# of positions, Upwords and its board, the not-found page.
PAGE_KINDS = (
    "index.html", "players.html", "404.html",
    "round-2/table-2/index.html", "round-3/table-2/index.html",
    "exhibition/french-game/index.html",
    "round-3/table-2/10.html", "round-2/table-2/10.html", "round-2/table-1/10.html",
    "exhibition/gungi-sample/index.html", "exhibition/gungi-sample/5.html",
    "positions/puzzles/index.html", "positions/puzzles/1.html",
    "upwords/upwords-sample/index.html", "upwords/upwords-sample/7.html",
    "upwords/example/index.html",
)
# Turn pages of every kind: crossword (its "10 / 20" the widest of the sample), Gungi,
# a position, Upwords.
TURN_PAGES = ("round-3/table-2/10.html", "exhibition/gungi-sample/5.html",
              "positions/puzzles/1.html", "upwords/upwords-sample/7.html")
# Game pages with a score sheet: every crossword and Upwords game of the sample.
SHEET_PAGES = (
    "round-1/table-1/index.html", "round-1/table-2/index.html", "round-2/table-1/index.html",
    "round-2/table-2/index.html", "round-3/table-1/index.html", "round-3/table-2/index.html",
    "exhibition/french-game/index.html", "upwords/upwords-sample/index.html",
)
# The page's width beyond its window, and what sticks out (outside a box that scrolls).
OVERFLOW_JS = """() => {
  const root = document.documentElement, width = root.clientWidth;
  const out = [...document.querySelectorAll("body *")]
    .filter(e => e.getBoundingClientRect().right > width + 0.5
            && !e.parentElement.closest(".sheet-section, section.scores, .table-scroll"))
    .slice(0, 5).map(e => `${e.tagName.toLowerCase()}.${e.className}`);
  return [root.scrollWidth - width, out];
}"""
# The lines the turn links (and the key help button) take: a box below the one before it
# starts a line.
NAV_LINES_JS = """() => [...document.querySelector(".turn-nav").children]
  .filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect())
  .filter((box, i, boxes) => i === 0 || box.top >= boxes[i - 1].bottom).length"""
# The boxes that scroll a table sideways inside the page, and do.
SCROLLING_BOXES_JS = """() => [...document.querySelectorAll(
    ".sheet-section, section.scores, .table-scroll")]
  .filter(box => box.scrollWidth > box.clientWidth)
  .map(box => `${box.className}: ${box.scrollWidth}px in ${box.clientWidth}px`)"""
# Words (runs of non-space) of the cells matched by a selector that take more than one
# line box: a word split across lines.
SPLIT_WORDS_JS = """selector => {
  const split = [];
  for (const cell of document.querySelectorAll(selector)) {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const node = walk.currentNode;
      if (node.parentElement.closest("[aria-hidden=true], .visually-hidden")) continue;
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) split.push(match[0]);
      }
    }
  }
  return split;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample(tmp_path_factory.mktemp("phone") / "site")


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    with serve(site) as url:
        yield url


def visit(page: Page, url: str) -> None:
    """Open a page and wait for its stylesheets ("load": a page without scripts may
    reach DOMContentLoaded unstyled)."""
    page.goto(url, wait_until="load")


def overflow(page: Page) -> tuple[int, list[str]]:
    extra, sticking_out = page.evaluate(OVERFLOW_JS)
    return extra, sticking_out


# ---------------------------------------------------------------------------------------
# A game page's score sheet on a phone


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("path", SHEET_PAGES)
def test_score_and_total_are_on_screen_of_a_phone(browser: Browser, server: str, path: str,
                                                 width: int) -> None:
    """The columns a spectator wants most lie within the window, and the sheet does not
    need scrolling sideways; no move is split (TANGOi(S) / T), nor a name, which a long
    one gives way to, cut short."""
    with open_page(browser, viewport={**PHONE, "width": width}) as page:
        visit(page, server + path)
        inner = page.evaluate("innerWidth")
        for name in ("#", "Player", "Move", "Score", "Total"):
            header = page.locator("table.sheet thead th", has_text=name).first
            box = header.bounding_box()
            assert box and box["width"] > 0, (path, name)
            assert box["x"] >= 0 and box["x"] + box["width"] <= inner, (path, name, box, inner)
        section = page.locator("section.sheet-section")
        assert section.evaluate("s => s.scrollWidth <= s.clientWidth"), path
        assert page.evaluate(SPLIT_WORDS_JS, "table.sheet td:nth-child(2)") == [], path
        assert page.evaluate(SPLIT_WORDS_JS, "table.sheet td.word > a") == [], path
        assert overflow(page)[0] <= 0, path


def test_a_wide_screen_keeps_every_column_of_the_sheet(browser: Browser, server: str) -> None:
    with open_page(browser, viewport={"width": 1280, "height": 800}) as page:
        visit(page, server + "round-2/table-2/index.html")
        shown = page.evaluate("""() => [...document.querySelectorAll("table.sheet thead th")]
            .filter(th => th.getBoundingClientRect().width > 0).map(th => th.textContent)""")
        assert shown == ["#", "Player", "Rack", "Where", "Move", "Score", "Total"]


def test_a_themes_own_score_sheet_keeps_its_columns(browser: Browser,
                                                    tmp_path: Path) -> None:
    """pgm.css leaves out columns only of a sheet whose header row says it has pgm's
    columns (tr.turn-columns): a theme's sheet.html made without it may order its columns
    otherwise, so it keeps them all and scrolls in its box, not the page."""
    sheet = (ROOT / "templates/partials/sheet.html").read_text(encoding="utf-8")
    assert '<tr class="turn-columns">' in sheet
    event = make_event(tmp_path / "ev", {
        "event.yaml": "theme_dir: theme\n",
        "game.gcg": (SAMPLE_GAMES / "round-2/table-2.gcg").read_bytes(),
        "theme/partials/sheet.html": sheet.replace('<tr class="turn-columns">', "<tr>")})
    assert run_build(str(event), "-o", str(tmp_path / "site")).exit_code == 0
    with serve(tmp_path / "site") as url, open_page(browser, viewport=PHONE) as page:
        visit(page, url + "game/index.html")
        shown = page.evaluate("""() => [...document.querySelectorAll("table.sheet thead th")]
            .filter(th => th.getBoundingClientRect().width > 0).length""")
        assert shown == 7
        assert overflow(page)[0] <= 0


# ---------------------------------------------------------------------------------------
# Nothing scrolls the page sideways at 320px


@pytest.mark.parametrize("path", PAGE_KINDS)
def test_no_page_scrolls_sideways_at_320px(browser: Browser, server: str, path: str) -> None:
    """Neither the page nor, for the sample's names and moves, a table in its own box
    (which scrolls only for what no phone can hold)."""
    with open_page(browser, viewport=SMALLEST) as page:
        visit(page, server + path)
        extra, sticking_out = overflow(page)
        assert extra <= 0, f"{path} is {extra}px wider than the window: {sticking_out}"
        assert page.evaluate(SCROLLING_BOXES_JS) == [], path


LARGE_TEXT = ":root { font-size: 32px; }"
"""A reader's default font of 32px for 16 (a browser's "very large" text setting)."""
# The tile letters on a crossword board against their squares.
TILE_FIT_JS = """() => [...document.querySelectorAll(".cw td[data-l]")].map(td => {
  const size = parseFloat(getComputedStyle(td, "::after").fontSize);
  return [td.getBoundingClientRect().width, size];
})"""


@pytest.mark.parametrize("path", TURN_PAGES)
def test_large_text_keeps_the_board_whole_and_the_page_within_a_phone(
        browser: Browser, server: str, path: str) -> None:
    """Body text follows the reader's font size; the board's letters follow its squares,
    which the screen's width sets, so they still fit, and no page scrolls sideways."""
    with open_page(browser, viewport={**PHONE, "width": 360}) as page:
        visit(page, server + path)
        page.add_style_tag(content=LARGE_TEXT)
        assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 32
        extra, sticking_out = overflow(page)
        assert extra <= 0, f"{path} is {extra}px wider than the window: {sticking_out}"
        for square, letter in page.evaluate(TILE_FIT_JS):
            assert letter < 0.6 * square, (path, square, letter)


@pytest.mark.parametrize("width", [320, 360, 390])
def test_a_phoney_is_marked_on_the_sheet_of_a_phone(browser: Browser, server: str,
                                                     width: int) -> None:
    """Struck through at every width, and its badge seen from 360px up (at 320px it is
    for screen readers only: it would widen the sheet past the screen); nothing
    overflows."""
    with open_page(browser, viewport={"width": width, "height": 800}) as page:
        visit(page, server + "round-2/table-2/index.html")
        badge = page.locator("table.sheet tr.phoney .badge.phoney")
        assert badge.count() == 1 and badge.text_content() == "phoney"
        shown = badge.evaluate("b => b.getBoundingClientRect().width > 5")
        assert shown is (width >= 360), width
        struck = page.locator("table.sheet tr.phoney td.word > a").evaluate(
            "a => getComputedStyle(a).textDecorationLine")
        assert struck == "line-through"
        assert overflow(page)[0] <= 0 and page.evaluate(SCROLLING_BOXES_JS) == []


def test_turn_page_scores_fit_320px_with_racks_whole(browser: Browser, server: str) -> None:
    """The score table with the "to move" badge, the spread and a partly known rack fits:
    a rack wraps between "GS + 5" and "unknown", never inside its letters."""
    with open_page(browser, viewport=SMALLEST) as page:
        for path in ("round-3/table-2/10.html", "round-2/table-2/10.html"):
            visit(page, server + path)
            table = page.locator("table.score-table").bounding_box()
            assert table and table["x"] + table["width"] <= page.evaluate("innerWidth"), path
            assert page.evaluate(SPLIT_WORDS_JS, ".score-table td.rack") == [], path
            assert page.evaluate(SPLIT_WORDS_JS, ".score-table th") == [], path


@pytest.mark.parametrize("path", TURN_PAGES)
def test_a_phone_has_no_key_help_button_and_the_turn_links_keep_one_line(
        browser: Browser, server: str, path: str) -> None:
    """The "?" button lists keys, which a touch screen has none of: a phone shows none
    (a keyboard plugged in still opens the help with "?"), and First, Previous, the
    turn, Next, Last and the play button keep one line at 360px. So does a window that
    narrow with a mouse, which leaves the "?" button out too (no room for it); a wider
    one shows it."""
    narrow = {"width": 360, "height": 800}
    with open_page(browser, viewport=narrow, has_touch=True, is_mobile=True) as phone:
        visit(phone, server + path)
        assert not phone.locator(".help-toggle").is_visible(), path
        assert phone.evaluate(NAV_LINES_JS) == 1, path
        phone.keyboard.press("?")
        assert phone.locator("#key-help").is_visible(), path
        if "positions/" not in path:  # a set of positions does not play
            assert phone.locator(".play-toggle").is_visible(), path
    with open_page(browser, viewport=narrow) as window:
        visit(window, server + path)
        assert window.evaluate(NAV_LINES_JS) == 1, path
        help_button = window.get_by_role("button", name="Keyboard shortcuts")
        assert not help_button.is_visible(), path
        window.keyboard.press("?")
        assert window.locator("#key-help").is_visible(), path
        window.set_viewport_size({"width": 481, "height": 800})
        assert help_button.is_visible(), path
        assert window.evaluate(NAV_LINES_JS) == 1, path


# ---------------------------------------------------------------------------------------
# The players page keeps names and games whole on phones


def test_a_turn_pages_scores_start_on_a_phones_first_screen(browser: Browser,
                                                            server: str) -> None:
    """Stepping through turns, a spectator sees the board, the move and where the scores
    start without scrolling: the board's caption, which the move section repeats, is
    for screen readers only."""
    with open_page(browser, viewport=PHONE) as page:
        visit(page, server + "round-2/table-2/10.html")
        scores = page.locator("section.scores").bounding_box()
        assert scores and scores["y"] < page.evaluate("innerHeight")
        caption = page.locator("table.board caption")
        assert "Board after turn 10: RightBehindYou played VOKDA" in caption.text_content()
        assert caption.evaluate("c => c.getBoundingClientRect().width") <= 1
        visit(page, server + "positions/puzzles/1.html")  # a position says more in it
        assert page.locator("table.board caption").evaluate(
            "c => c.getBoundingClientRect().width") > 100


def test_a_gungi_plys_move_is_on_a_phones_first_screen_and_its_key_under_a_wide_board(
        browser: Browser, server: str) -> None:
    """The towers and the key of the units came between the board and the move, which
    was then below a phone's first screen on most plies; on a wide screen they stay
    under the board, one gap below its links."""
    with open_page(browser, viewport=PHONE) as page:
        for ply in (10, 30, 60):
            visit(page, server + f"exhibition/gungi-sample/{ply}.html")
            move = page.locator("section.move .move-text").bounding_box()
            assert move and move["y"] + move["height"] < page.evaluate("innerHeight"), ply
    with open_page(browser, viewport={"width": 1200, "height": 900}) as page:
        visit(page, server + "exhibition/gungi-sample/10.html")
        board, nav, key, move = (page.locator(selector).bounding_box() for selector in (
            "table.board", ".turn-nav", ".board-key", "section.move"))
        assert board and nav and key and move
        assert key["x"] == board["x"] and 0 <= key["y"] - (nav["y"] + nav["height"]) < 40
        assert move["x"] > board["x"] + board["width"]


@pytest.mark.parametrize("path", ["round-3/table-2/10.html", "upwords/upwords-sample/10.html"])
def test_a_live_games_scores_come_before_its_live_status(browser: Browser, server: str,
                                                        path: str) -> None:
    """A game in progress: the live status (updated at, follow new moves) comes after
    the scores, not between them and the move; on a crossword turn page every score
    row ends on a 390x844 phone's first screen (an Upwords board, with its key to the
    stack heights, is taller: its scores start there)."""
    with open_page(browser, viewport=PHONE) as page:
        visit(page, server + path)
        rows = page.locator("section.scores tbody tr")
        assert rows.count() == 2
        boxes = [rows.nth(i).bounding_box() for i in range(2)]
        bottom = max(box["y"] + box["height"] for box in boxes if box)
        on_screen = bottom if path.startswith("round-") else min(
            box["y"] for box in boxes if box)
        assert on_screen <= page.evaluate("innerHeight"), path
        status = page.locator("#live-status").bounding_box()
        assert status and status["y"] > bottom


@pytest.mark.parametrize("viewport", [SMALLEST, PHONE], ids=["320px", "390px"])
def test_player_names_and_games_are_not_split_inside_a_word(browser: Browser, server: str,
                                                            viewport: dict[str, int]) -> None:
    """At 320px the list of games used to be squeezed into a column a few letters wide
    ("RightBe / hindYou"): each player's games now take a line of their own under the
    name and counts, and the table is still a table to a screen reader."""
    with open_page(browser, viewport=viewport) as page:
        visit(page, server + "players.html")
        assert page.get_by_text("RightBehindYou").count() > 0
        assert page.evaluate(SPLIT_WORDS_JS, "table.players th[scope=row]") == []
        assert page.evaluate(SPLIT_WORDS_JS, "table.players td:last-child") == []
        assert overflow(page)[0] <= 0
        row = page.get_by_role("row").filter(
            has=page.get_by_role("rowheader", name="HastyBot", exact=True)).first
        name = row.get_by_role("rowheader").bounding_box()
        games = row.get_by_role("cell").last.bounding_box()
        assert name and games and games["y"] >= name["y"] + name["height"] - 1
        assert games["width"] > viewport["width"] * 0.8
        assert row.get_by_role("link", name="R2 vs RightBehindYou").is_visible()
        # The counts are compact on a phone ("W"), and still named in full for a screen
        # reader (the accessible name of the column header).
        won = page.get_by_role("columnheader", name="Won", exact=True).first
        assert won.locator(".short").is_visible()
        box = won.bounding_box()
        assert box and box["width"] < 30, box


# ---------------------------------------------------------------------------------------
# The players of the event's own games come first, not as "Other players"


def test_players_of_games_without_a_division_come_first_unlabelled(browser: Browser,
                                                                    server: str) -> None:
    """As on the event index, the games that name no division come first and carry no
    visible heading (a heading for screen readers only); named divisions follow."""
    with open_page(browser, viewport=PHONE) as page:
        visit(page, server + "players.html")
        headings = page.get_by_role("heading", level=2)
        assert headings.all_inner_texts() == ["Players", "Exhibition", "Upwords"]
        first = headings.first.bounding_box()
        assert first and first["width"] <= 1 and first["height"] <= 1
        assert page.get_by_text("Other players").count() == 0
        sections = page.locator("main section.division")
        assert sections.first.get_by_role("rowheader", name="Peter Armstrong").count() == 1


# ---------------------------------------------------------------------------------------
# What is wider than any phone scrolls in its own box, and shows it


@pytest.fixture(scope="module")
def long_name_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The in-progress sample game with a first player named by one 30-letter word."""
    root = tmp_path_factory.mktemp("long")
    record = (SAMPLE_GAMES / "round-3/table-2.gcg").read_text(encoding="utf-8")
    assert "#player1 Player_1 Player 1\n" in record
    record = record.replace("#player1 Player_1 Player 1\n",
                            "#player1 Player_1 Bartholomewmaximilianjohannsson\n")
    event = make_event(root / "ev", {"long.gcg": record})
    result = run_build(str(event), "-o", str(root / "site"), "--strict")
    assert result.exit_code == 0, result.output
    return root / "site"


def strip(page: Page, x: float, y: float, height: float) -> bytes:
    """A screenshot of a 2px-wide strip of the page: equal bytes, equal pixels."""
    return page.screenshot(clip={"x": x, "y": y, "width": 2, "height": height})


def test_a_table_wider_than_the_phone_scrolls_in_its_box_with_a_cue(browser: Browser,
                                                                     long_name_site: Path
                                                                     ) -> None:
    with serve(long_name_site) as url, open_page(browser, viewport=SMALLEST) as page:
        for path in ("index.html", "players.html", "long/index.html", "long/5.html"):
            visit(page, url + path)
            extra, sticking_out = overflow(page)
            assert extra <= 0, f"{path} is {extra}px wider than the window: {sticking_out}"
        visit(page, url + "long/index.html")
        section = page.locator("section.sheet-section")
        assert section.evaluate("s => s.scrollWidth > s.clientWidth")
        box = section.bounding_box()
        heading = page.locator("#sheet-h").bounding_box()
        assert box and heading
        # Above the heading "Turns" (its margin) the box shows only its background: plain
        # page colour where there is nothing more to see, a shadow where there is.
        y, height = box["y"], heading["y"] - box["y"]
        assert height >= 8, (box, heading)
        plain = strip(page, 1, y, height)  # the page's margin, outside the box
        left, right = box["x"] + 1, box["x"] + box["width"] - 3
        assert strip(page, left, y, height) == plain
        assert strip(page, right, y, height) != plain, "no cue that the sheet scrolls"
        section.evaluate("s => { s.scrollLeft = s.scrollWidth; }")
        assert strip(page, right, y, height) == plain
        assert strip(page, left, y, height) != plain, "no cue that the sheet scrolled"


# ---------------------------------------------------------------------------------------
# Screenshots to look at


SHOTS = ("index.html", "players.html", "round-3/table-2/index.html", "round-3/table-2/10.html",
         "exhibition/gungi-sample/5.html", "positions/puzzles/1.html")


@pytest.mark.parametrize("width", [320, 390, 1280])
def test_screenshots_in_both_schemes(browser: Browser, server: str, width: int) -> None:
    """Full pages at each width, light and dark, for a person to look at; each page fits
    its window in both schemes."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        with open_page(browser, viewport={"width": width, "height": 844},
                       color_scheme=scheme) as page:
            for path in SHOTS:
                visit(page, server + path)
                page.evaluate("document.fonts.ready")
                assert overflow(page)[0] <= 0, (path, width, scheme)
                name = path.removesuffix(".html").replace("/", "-")
                image = page.screenshot(full_page=True)
                assert image.startswith(b"\x89PNG"), name
                (SCREENSHOTS / f"{name}-{width}-{scheme}.png").write_bytes(image)


@pytest.mark.parametrize(("path", "links"), [
    ("round-1/table-1/index.html", "table.sheet td > a"),
    ("round-1/table-1/5.html", ".turn-list li > a"),
    ("upwords/upwords-sample/7.html", "table.sheet td > a")])
def test_links_a_finger_taps_are_24px_tall_on_a_touch_screen(browser: Browser, server: str,
                                                             path: str, links: str) -> None:
    """WCAG 2.5.8: the score sheet's and the turn list's links, one above the other, were
    16 to 20px tall, so a tap could open the turn above or below."""
    with open_page(browser, viewport=PHONE, has_touch=True, is_mobile=True) as page:
        visit(page, server + path)
        heights = page.locator(links).evaluate_all(
            "links => links.map(a => a.getBoundingClientRect().height)")
        assert heights and min(heights) >= 24

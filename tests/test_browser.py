"""The built sample event in a real browser (Debian's Chromium through Playwright).

The site is built once per module into a temporary folder and opened both over HTTP (a
server thread on 127.0.0.1) and as file:// pages, because spectators use both. What a
browser adds over reading the HTML: links and keys really navigate, the script really
runs (or, with JavaScript off, the links still do everything), the layout fits a phone,
the Nu validator and axe-core find nothing, and the board's accessible names are the ones
Chromium's accessibility tree hands to a screen reader.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from browserhelpers import (
    Validation,
    board_squares,
    open_page,
    serve,
    square_names,
    start_validation,
)
from conftest import ROOT, SAMPLE_GAMES
from playwright.sync_api import Browser, Page, expect
from sitehelpers import build_sample, make_event, run_build, tiles_named

from pgm.board import get_layout
from pgm.crossword import replay
from pgm.gcg import parse_gcg

SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"

# A finished game with an exchange, blanks, notes, a phoney and its withdrawal.
GAME = "round-2/table-2"
GAME_TITLE = "HastyBot vs RightBehindYou (annotated)"
RECORD = SAMPLE_GAMES / f"{GAME}.gcg"
# Turns whose boards are compared with the replay while stepping: the first bingo (with a
# blank), the withdrawal that takes a play back off the board, the end.
CHECKED_TURNS = (5, 11, 29)
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}


# ---------------------------------------------------------------------------------------
# Fixtures: the site, its server and the browser, once per module


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample(tmp_path_factory.mktemp("browser") / "site")


@pytest.fixture(scope="module", autouse=True)
def validation(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Validation]:
    """The validator runs from the module's first test on (autouse), alongside the browser."""
    running = start_validation(site, tmp_path_factory.mktemp("vnu"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    with serve(site) as url:
        yield url


@pytest.fixture(scope="module", params=["http", "file"])
def base(request: pytest.FixtureRequest, site: Path) -> str:
    """The site's address, over HTTP and straight from disk (pages link relatively)."""
    if request.param == "http":
        return request.getfixturevalue("server")
    return site.as_uri() + "/"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser) as opened:
        yield opened


@pytest.fixture(scope="module")
def replayed() -> dict[int, dict[str, str]]:
    """Turn number -> square name -> letter (blank lower case) after that turn, from pgm's
    replay of the record; the browser's board must say the same."""
    game = replay(parse_gcg(RECORD.read_bytes(), str(RECORD)))
    size = game.rules.layout.size
    return {number: {f"{chr(65 + i % size)}{i // size + 1}": label
                     for i, label in enumerate(turn.position.cells) if label}
            for number, turn in enumerate(game.turns, start=1)}


# ---------------------------------------------------------------------------------------
# Small helpers


def turn_count() -> int:
    return len(replay(parse_gcg(RECORD.read_bytes(), str(RECORD))).turns)


def expect_turn(page: Page, number: int, total: int) -> None:
    """The page is turn `number`: its address and its heading agree. (CSS locators here and
    in `go`: role queries walk the whole big page and make a walk of 29 pages slow.)"""
    assert page.url.endswith(f"/{GAME}/{number}.html"), page.url
    assert page.locator("h2#move-h").text_content() == f"Turn {number} of {total}"


def go(page: Page, action: str, number: int) -> None:
    """Follow a turn link by its visible text or press a key, then wait for turn `number`."""
    if action.startswith("key:"):
        page.keyboard.press(action[4:])
    else:
        page.locator("nav.turn-nav a", has_text=re.compile(rf"^{re.escape(action)}$")).click()
    # pgm.js is deferred, so it has run by DOMContentLoaded: no need to wait for "load".
    page.wait_for_url(re.compile(rf"/{number}\.html$"), wait_until="domcontentloaded")


def tiles_in_browser(page: Page) -> dict[str, str]:
    return tiles_named(square_names(page))


# ---------------------------------------------------------------------------------------
# Stepping through a game


@pytest.mark.parametrize(("scheme", "step"), [("http", "Next ›"), ("file", "key:ArrowRight")])
def test_step_through_a_whole_game(page: Page, server: str, site: Path, scheme: str, step: str,
                                   replayed: dict[int, dict[str, str]]) -> None:
    """One walk by link over HTTP, one by key from disk (the other tests use both ways of
    opening the site)."""
    total = len(replayed)
    base = server if scheme == "http" else site.as_uri() + "/"
    page.goto(f"{base}{GAME}/1.html")
    for number in range(1, total + 1):
        expect_turn(page, number, total)
        if number in CHECKED_TURNS:
            assert tiles_in_browser(page) == replayed[number], f"turn {number}"
        if number < total:
            go(page, step, number + 1)
    # The last turn has nowhere further to go: "Next ›" is no link there.
    nav = page.get_by_role("navigation", name="Turns")
    expect(nav.get_by_role("link", name="Next ›")).to_have_count(0)
    expect(nav.locator(".next.disabled")).to_have_text("Next ›")
    go(page, "key:ArrowLeft" if step.startswith("key:") else "‹ Previous", total - 1)
    expect_turn(page, total - 1, total)


def test_home_end_and_the_help(page: Page, base: str) -> None:
    total = turn_count()
    page.goto(f"{base}{GAME}/10.html")
    go(page, "key:End", total)
    expect_turn(page, total, total)
    go(page, "key:Home", 1)
    expect_turn(page, 1, total)

    # Named for what it does, not by its "?".
    toggle = page.get_by_role("button", name="Keyboard shortcuts", exact=True)
    help_box = page.locator("#key-help")
    expect(toggle).to_be_visible()  # made by pgm.js: no page carries it without scripts
    expect(help_box).to_be_hidden()
    page.keyboard.press("?")
    expect(help_box).to_be_visible()
    expect(help_box).to_contain_text("next turn")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Escape")
    expect(help_box).to_be_hidden()
    toggle.click()
    expect(help_box).to_be_visible()
    toggle.click()
    expect(help_box).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")


def test_single_key_shortcuts_can_be_turned_off(page: Page, base: str) -> None:
    """Keys that type a character, which speech input or a screen reader's quick keys
    may send, can be turned off (WCAG 2.1.4), for the site; the arrows stay."""
    total = turn_count()
    page.goto(f"{base}{GAME}/10.html")
    page.get_by_role("button", name="Keyboard shortcuts", exact=True).click()
    page.get_by_label("Single-key shortcuts").uncheck()
    page.goto(f"{base}{GAME}/10.html")
    expect(page.get_by_label("Single-key shortcuts")).not_to_be_checked()
    for key in ("p", "?", "+"):
        page.keyboard.press(key)
    expect(page.locator("#key-help")).to_be_hidden()
    page.wait_for_timeout(1500)
    assert page.url.endswith("/10.html")  # "p" started no autoplay
    go(page, "key:ArrowRight", 11)
    expect_turn(page, 11, total)
    page.get_by_role("button", name="Keyboard shortcuts", exact=True).click()
    page.get_by_label("Single-key shortcuts").check()
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Escape")
    expect(page.locator("#key-help")).to_be_hidden()
    page.keyboard.press("?")
    expect(page.locator("#key-help")).to_be_visible()


def test_autoplay_steps_to_the_last_turn_and_stops(page: Page, base: str) -> None:
    """Play steps on by itself at the chosen pace, each page carrying on from its address
    (which it then takes "#play-N" off), and stops at the last turn, whose button then
    starts again from the first. Back and Forward find pages paused; a step by hand, P
    and Escape stop playing; a link to a section of a page still leads there."""
    total = turn_count()
    page.goto(f"{base}{GAME}/{total - 2}.html")
    play = page.locator(".turn-nav .play-toggle")
    pace = page.locator(".play-pace")
    expect(play).to_have_accessible_name("Play through the game")
    expect(pace).to_be_hidden()
    page.keyboard.press("+")
    page.keyboard.press("+")  # 3 s a turn → 2 → 1
    play.click()
    expect(play).to_have_accessible_name("Pause")
    expect(pace).to_be_visible()
    expect(pace.get_by_label("Playing: a turn every")).to_have_value("1")
    for number in (total - 1, total):
        page.wait_for_url(re.compile(rf"/{number}\.html$"), timeout=5000)
        expect_turn(page, number, total)
    expect(play).to_have_accessible_name("Play the game from the start")
    expect(pace).to_be_hidden()
    page.wait_for_timeout(1500)
    assert page.url.endswith(f"/{total}.html")

    page.go_back()
    page.wait_for_url(re.compile(rf"/{total - 1}\.html$"))
    page.wait_for_timeout(1500)
    expect(play).to_have_accessible_name("Play through the game")
    assert page.url.endswith(f"/{total - 1}.html")
    page.go_forward()
    page.wait_for_url(re.compile(rf"/{total}\.html$"))
    page.wait_for_timeout(1500)
    assert page.url.endswith(f"/{total}.html")

    for _ in range(4):
        page.keyboard.press("-")  # 1 s → 2 → 3 → 5 → 8
    page.keyboard.press("p")  # from the last turn: the first, playing
    page.wait_for_url(re.compile(r"/1\.html$"))
    expect(play).to_have_accessible_name("Pause")
    expect(pace.get_by_label("Playing: a turn every")).to_have_value("8")
    assert page.evaluate("document.activeElement.className") == "play-toggle"
    page.keyboard.press("Enter")  # the focused button pauses
    expect(play).to_have_accessible_name("Play through the game")

    page.evaluate("location.hash = '#play-2'")  # asked on the page itself
    expect(play).to_have_accessible_name("Pause")
    page.keyboard.press("Escape")
    expect(play).to_have_accessible_name("Play through the game")

    page.goto(f"{base}{GAME}/5.html#play-8")
    go(page, "key:ArrowRight", 6)
    expect(play).to_have_accessible_name("Play through the game")

    page.goto(f"{base}{GAME}/5.html#cgp-h")  # a section's link is left alone
    expect(play).to_have_accessible_name("Play through the game")
    assert page.url.endswith("/5.html#cgp-h")
    assert page.evaluate("document.querySelector(':target').id") == "cgp-h"


def test_autoplay_keeps_a_phone_reader_where_they_were(browser: Browser, base: str) -> None:
    """On a phone the notes are below the board: a spectator who scrolled down to read
    them while the game plays stays there from turn to turn, the last turn too, instead
    of being thrown back to the top at each step. A page opened by hand opens at the top."""
    total = turn_count()
    with open_page(browser, viewport=PHONE, has_touch=True, is_mobile=True) as page:
        page.goto(f"{base}{GAME}/{total - 2}.html#play-1")
        page.evaluate("window.scrollTo(0, 600)")
        assert page.evaluate("window.scrollY") == 600  # a phone's page is that long
        for number in (total - 1, total):
            page.wait_for_url(re.compile(rf"/{number}\.html$"), timeout=5000)
            # about where it was: the pace line above goes as the last turn stops playing
            page.wait_for_function("() => Math.abs(window.scrollY - 600) < 60", timeout=5000)
        page.goto(f"{base}{GAME}/3.html")
        assert page.evaluate("window.scrollY") == 0


def test_gungi_autoplay_and_help_count_plies(page: Page, base: str) -> None:
    """Gungi pages count plies ("Ply 3 of 64"): so do the pace and the key help."""
    page.goto(f"{base}exhibition/gungi-sample/3.html#play-8")
    expect(page.get_by_label("Playing: a ply every")).to_have_value("8")
    page.keyboard.press("Escape")
    page.keyboard.press("?")
    expect(page.locator("#key-help")).to_contain_text("\u2192 next ply")


def swipe(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """One finger across the screen, as the touch screen reports it (Chromium's input
    events, not events made up in the page)."""
    session = page.context.new_cdp_session(page)
    try:
        for kind, (x, y) in (("touchStart", start), ("touchMove", end)):
            session.send("Input.dispatchTouchEvent",
                         {"type": kind, "touchPoints": [{"x": x, "y": y}]})
        session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        session.detach()


def test_a_swipe_across_the_board_turns_the_page(browser: Browser, base: str) -> None:
    """On a phone, a swipe to the left across the board opens the next turn, to the right
    the previous one; a mostly downward swipe (scrolling) and a short one do not."""
    total = turn_count()
    with open_page(browser, viewport=PHONE, has_touch=True, is_mobile=True) as page:
        page.goto(f"{base}{GAME}/10.html")
        box = page.locator(".board-col table.board").bounding_box()
        assert box is not None
        middle_y = box["y"] + box["height"] / 2
        left, right = box["x"] + 40, box["x"] + box["width"] - 40
        swipe(page, (right, middle_y), (left, middle_y + 20))
        page.wait_for_url(re.compile(r"/11\.html$"))
        expect_turn(page, 11, total)
        swipe(page, (left, middle_y), (right, middle_y))
        page.wait_for_url(re.compile(r"/10\.html$"))
        for start, end in (((right, box["y"] + 20), (right - 60, box["y"] + 200)),
                           ((right, middle_y), (right - 30, middle_y))):
            page.evaluate("window.stayed = true")
            swipe(page, start, end)
            page.wait_for_timeout(500)
            assert page.evaluate("window.stayed") is True
            assert page.url.endswith(f"/{GAME}/10.html")


def test_keys_typed_into_the_position_box_do_not_turn_the_page(page: Page, base: str) -> None:
    """Arrow keys and Home/End inside the CGP text box move the caret, not the game. pgm.js
    cancels every key it acts on, so a listener that runs after it tells, without waiting
    for a navigation that should not come, whether it took the key."""
    page.goto(f"{base}{GAME}/3.html")
    page.evaluate("addEventListener('keydown', e => { window.keyTaken = e.defaultPrevented; })")
    box = page.locator("#cgp-text")
    box.focus()
    box.evaluate("box => box.setSelectionRange(0, 0)")
    for key in ("ArrowRight", "End", "Home", "?"):
        page.keyboard.press(key)
        assert page.evaluate("window.keyTaken") is False, key
    assert box.evaluate("box => box.selectionStart") == 0  # → moved it, Home moved it back
    expect(page.locator("#key-help")).to_be_hidden()
    assert page.url.endswith(f"/{GAME}/3.html")
    # Outside the box the same key is taken and turns the page.
    page.evaluate("document.activeElement.blur()")
    go(page, "key:ArrowRight", 4)
    expect_turn(page, 4, turn_count())


def test_shifted_arrows_are_left_to_the_browser(page: Page, base: str) -> None:
    """Shift with an arrow, Home or End selects text (caret browsing): pgm.js leaves it
    alone, and the page stays; the arrow alone still turns it."""
    page.goto(f"{base}{GAME}/3.html")
    page.evaluate("addEventListener('keydown', e => { window.keyTaken = e.defaultPrevented; })")
    for key in ("Shift+ArrowRight", "Shift+ArrowLeft", "Shift+End", "Shift+Home"):
        page.keyboard.press(key)
        assert page.evaluate("window.keyTaken") is False, key
    assert page.url.endswith(f"/{GAME}/3.html")
    go(page, "key:ArrowRight", 4)


# ---------------------------------------------------------------------------------------
# Indexes, downloads, no JavaScript


def test_event_and_player_index_lead_to_games_and_back(page: Page, base: str) -> None:
    page.goto(f"{base}index.html")
    expect(page.get_by_role("heading", level=1)).to_have_text("pgm sample event")
    page.get_by_role("link", name=GAME_TITLE, exact=True).click()
    page.wait_for_url(f"{base}{GAME}/index.html")
    expect(page.get_by_role("heading", level=1)).to_have_text(GAME_TITLE)
    page.go_back()
    page.wait_for_url(f"{base}index.html")
    expect(page.get_by_role("heading", level=1)).to_have_text("pgm sample event")

    page.get_by_role("navigation", name="Site").get_by_role("link", name="Players").click()
    page.wait_for_url(f"{base}players.html")
    row = page.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name="Peter Armstrong", exact=True))
    row.get_by_role("link", name="R2 vs Noah").click()
    page.wait_for_url(f"{base}round-2/table-1/index.html")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Peter Armstrong")

    # From the game into its turns and back up by the crumbs.
    page.get_by_role("link", name="Step through the game from turn 1").click()
    page.wait_for_url(f"{base}round-2/table-1/1.html")
    page.get_by_role("navigation", name="Site").get_by_role(
        "link", name=re.compile("Peter Armstrong")).click()
    page.wait_for_url(f"{base}round-2/table-1/index.html")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Players").click()
    page.wait_for_url(f"{base}players.html")
    page.get_by_role("navigation", name="Site").get_by_role(
        "link", name="pgm sample event").click()
    page.wait_for_url(f"{base}index.html")


def test_record_downloads_byte_for_byte(page: Page, base: str, site: Path) -> None:
    """Over HTTP the link downloads the record. Chromium honours `download` only for links
    of the page's own origin, and a file:// page has none, so from disk the link opens the
    record instead: there the file it leads to must be the record."""
    page.goto(f"{base}{GAME}/index.html")
    link = page.get_by_role("link", name="Download the record (input.gcg)")
    expect(link).to_have_attribute("download", "")
    if base.startswith("file:"):
        link.click()
        page.wait_for_url(f"{base}{GAME}/input.gcg")
        assert (site / GAME / "input.gcg").read_bytes() == RECORD.read_bytes()
        expect(page.locator("pre")).to_contain_text("#player1 HastyBot")
        return
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == "input.gcg"
    assert Path(download.path()).read_bytes() == RECORD.read_bytes()


def test_links_work_without_javascript(browser: Browser, base: str) -> None:
    total = turn_count()
    with open_page(browser, java_script_enabled=False) as page:
        page.goto(f"{base}{GAME}/1.html")
        expect(page.get_by_role("button", name="?")).to_be_hidden()  # needs the script
        expect(page.locator(".play-toggle")).to_have_count(0)  # so does playing
        expect(page.locator("#key-help")).to_be_hidden()
        for action, number in (("Next ›", 2), ("Next ›", 3), ("Last »", total),
                               ("‹ Previous", total - 1), ("« First", 1)):
            go(page, action, number)
            expect_turn(page, number, total)
        page.get_by_role("navigation", name="All turns").get_by_role(
            "link", name=re.compile(r"^17 ")).click()
        page.wait_for_url(re.compile(r"/17\.html$"))
        expect_turn(page, 17, total)
        page.get_by_role("navigation", name="Site").get_by_role("link", name=GAME_TITLE).click()
        page.wait_for_url(f"{base}{GAME}/index.html")
        page.get_by_role("link", name="Step through the game from turn 1").click()
        page.wait_for_url(f"{base}{GAME}/1.html")


# ---------------------------------------------------------------------------------------
# Layout: screenshots, phone


def test_turn_page_screenshots_and_phone_layout(browser: Browser, server: str) -> None:
    """Writes the screenshots a person can look at; on a phone the page must not scroll
    sideways and the board must come before the notes and the score sheet."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    url = f"{server}{GAME}/17.html"
    shots = (("desktop", DESKTOP, "light"), ("phone", PHONE, "light"),
             ("phone-dark", PHONE, "dark"))
    for name, viewport, scheme in shots:
        with open_page(browser, viewport=viewport, color_scheme=scheme) as page:
            page.goto(url)
            image = page.screenshot()
            assert image.startswith(b"\x89PNG") and len(image) > 10_000, name
            (SCREENSHOTS / f"turn-{name}.png").write_bytes(image)
            if viewport is not PHONE:
                continue
            width, inner = page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]")
            assert width <= inner, f"{name}: page is {width}px wide in a {inner}px window"
            board = page.locator("table.board").bounding_box()
            notes = page.locator("section.notes").bounding_box()
            sheet = page.locator("nav.turn-list").bounding_box()
            assert board and notes and sheet
            assert board["y"] + board["height"] <= notes["y"], (board, notes)
            assert board["y"] + board["height"] <= sheet["y"], (board, sheet)
            assert board["x"] >= 0 and board["x"] + board["width"] <= inner, board


@pytest.mark.parametrize("path", ["index.html", "players.html", f"{GAME}/index.html"])
def test_other_pages_fit_a_phone(browser: Browser, server: str, path: str) -> None:
    with open_page(browser, viewport=PHONE) as page:
        page.goto(server + path)
        width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width <= inner, f"{path} is {width}px wide in a {inner}px window"


# ---------------------------------------------------------------------------------------
# Validity and accessibility


def test_every_page_is_valid_html(validation: Validation) -> None:
    """Every page of the sample site through the Nu validator: no errors and no warnings.
    A page broken on purpose goes through in the same run, to show the validator looked."""
    messages = validation.messages()
    problems = [m for m in messages if m["type"] != "info" or m.get("subType") == "warning"]
    assert any(m["url"].endswith("/broken.html") for m in problems), messages[:5]
    found = [f"{m['url'].split('/site/', 1)[-1]}:{m.get('lastLine', '?')}: {m['type']}: "
             f"{m['message']}" for m in problems if not m["url"].endswith("/broken.html")]
    assert not found, "\n".join(found[:40]) + f"\n({len(found)} in all)"


AXE_PAGES = ("index.html", "players.html", f"{GAME}/index.html", f"{GAME}/11.html",
             f"{GAME}/17.html", "round-3/table-2/18.html")


@pytest.mark.parametrize("path", AXE_PAGES)
def test_no_serious_accessibility_violations(page: Page, server: str, path: str) -> None:
    """axe-core on the index pages, a game page and turn pages (a withdrawn phoney, notes,
    a game in progress), in the light and the dark colour scheme. axe is injected once per
    page and run for each scheme: switching the scheme needs no reload."""
    page.goto(server + path)
    page.evaluate(Axe().axe_script)
    found = []
    backgrounds = set()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") is (
            scheme == "dark")
        backgrounds.add(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        results = page.evaluate("options => axe.run(document, options)",
                                {"resultTypes": ["violations"]})
        for violation in results["violations"]:
            if violation["impact"] in ("serious", "critical"):
                found += [f"{scheme}: {violation['id']} ({violation['impact']}): "
                          f"{node['html'][:120]} — {node['failureSummary'][:300]}"
                          for node in violation["nodes"]]
    assert not found, "\n".join(found[:30]) + f"\n({len(found)} in all)"
    assert len(backgrounds) == 2, "the page looks the same in both schemes"


def test_the_board_reads_without_sight(page: Page, base: str,
                                       replayed: dict[int, dict[str, str]]) -> None:
    """Every square has an accessible name giving its coordinate (matching its row and
    column headers), its content and, on a premium square, the premium; the move is
    announced in a live region."""
    layout = get_layout("CrosswordGame")
    assert layout is not None
    page.goto(f"{base}{GAME}/5.html")
    squares = board_squares(page)
    assert len(squares) == layout.size ** 2
    tiles, before = replayed[5], replayed[4]
    for square in squares:
        parts = square.name.split(", ")
        assert parts[0] == f"{square.column}{square.row}", square
        letter = tiles.get(parts[0])
        if letter is None:
            assert parts[1] == "empty", square
        else:
            shown = f"blank as {letter.upper()}" if letter.islower() else letter
            assert parts[1] == shown, square
            assert re.fullmatch(r"\d+ points?", parts[2]), square
            assert ("just played" in parts) == (parts[0] not in before), square
        row, col = int(square.row) - 1, ord(square.column) - ord("A")
        premium = layout.premium(row, col).description
        if premium:
            assert premium in square.name, square
        else:
            assert not re.search(r"double|triple", square.name), square
    names = {square.name.split(",")[0]: square.name for square in squares}
    assert names["L6"] == "L6, blank as I, 0 points, just played"
    assert names["H8"] == "H8, A, 1 point, on double word"
    assert names["O15"] == "O15, empty, triple word"

    board = page.get_by_role("table", name=re.compile(r"^Board after turn 5: HastyBot played"))
    expect(board).to_have_count(1)
    announcement = page.locator("[aria-live]").filter(has_text="TANGOi(S)T")
    expect(announcement).to_have_count(1)
    expect(announcement).to_have_attribute("aria-live", "polite")
    expect(announcement).to_have_text(
        "HastyBot played TANGOi(S)T at L1 down for 70 points (bingo)")


# ---------------------------------------------------------------------------------------
# What sight and screen readers get besides the board's names


# WCAG contrast of the colours getComputedStyle gives, as rgb()/rgba() text.
CONTRAST_JS = """([a, b]) => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => rgb(c).map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [x, y] = [lum(a), lum(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}"""
# Every kind of square with generated text: each premium (QL and QW are on the bigger
# boards: the test gives an empty square their class), the centre star, tiles (new,
# blank, new blank); the letter is ::after, the points ::before.
SQUARE_KINDS = {"tw": {}, "dw": {}, "tl": {}, "dl": {}, "ql": {}, "qw": {}, "dw c": {},
                "": {"data-l": "Q", "data-p": "10"}, "n": {"data-l": "Q", "data-p": "10"},
                "b": {"data-l": "Q"}, "b n": {"data-l": "Q"}}


@pytest.fixture(scope="module")
def classic_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("classic")
    event = make_event(root / "ev", {"event.yaml": "theme: classic\n",
                                     "game.gcg": RECORD.read_bytes()})
    result = run_build(str(event), "-o", str(root / "site"), "--strict")
    assert result.exit_code == 0, result.output
    return root / "site"


@pytest.mark.parametrize("theme", ["default", "classic"])
def test_premium_labels_and_tile_letters_are_readable(browser: Browser, site: Path,
                                                      classic_site: Path, theme: str) -> None:
    """The labels and letters are CSS generated content, which axe does not see: their
    computed colour against their square's is at least 4.5:1 (small text), in both
    themes and both colour schemes."""
    path = (site / GAME / "5.html") if theme == "default" else (classic_site / "game/5.html")
    found = []
    for scheme in ("light", "dark"):
        with open_page(browser, color_scheme=scheme) as page:
            page.goto(path.as_uri())
            square = page.locator("table.cw tbody td").nth(1)  # B1: empty, no premium
            for kind, attributes in SQUARE_KINDS.items():
                square.evaluate("""(td, [kind, attributes]) => {
                    td.className = kind; td.removeAttribute("data-l"); td.removeAttribute("data-p");
                    for (const [name, value] of Object.entries(attributes))
                        td.setAttribute(name, value);
                }""", [kind, attributes])
                for pseudo in ("::after", "::before") if "data-p" in attributes else ("::after",):
                    shown = square.evaluate(
                        "(td, pseudo) => { const s = getComputedStyle(td, pseudo);"
                        " return [s.content, s.color, getComputedStyle(td).backgroundColor]; }",
                        pseudo)
                    assert shown[0] not in ("none", "normal", '""'), (kind, pseudo, shown)
                    ratio = page.evaluate(CONTRAST_JS, shown[1:])
                    if ratio < 4.5:
                        found.append(f"{scheme} {kind or 'tile'}{pseudo}: {shown} {ratio:.2f}:1")
    assert not found, "\n".join(found)


def test_racks_and_names_stay_whole_on_a_phone(browser: Browser, server: str) -> None:
    """At 375px a rack stays on one line, and the event index breaks names at spaces only
    (RightBehindYou was split "RightBehindYo / u")."""
    one_line = """sel => [...document.querySelectorAll(sel)].map(cell => {
        const range = document.createRange(); range.selectNodeContents(cell);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        return [cell.textContent, tops.size]; })"""
    # Each word of the index's cells: one line box (a broken word has two).
    split_words = """() => { const split = [];
        const walk = document.createTreeWalker(document.querySelector("main"),
                                               NodeFilter.SHOW_TEXT);
        while (walk.nextNode()) { const node = walk.currentNode;
          if (!node.parentElement.closest("table.games")) continue;
          for (const match of node.data.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index); range.setEnd(node, match.index + match[0].length);
            const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
            if (tops.size > 1) split.push(match[0]); } }
        return split; }"""
    with open_page(browser, viewport=PHONE) as page:
        for path in (f"{GAME}/5.html", f"{GAME}/17.html", "round-3/table-2/18.html"):
            page.goto(server + path)
            racks = page.evaluate(one_line, ".score-table td.rack")
            assert racks and all(lines == 1 for _, lines in racks), (path, racks)
        page.goto(server + "index.html")
        assert page.get_by_text("RightBehindYou").count() > 0
        assert page.evaluate(split_words) == []
        width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width <= inner


def ax_nodes(page: Page) -> list[dict]:
    """Chromium's accessibility tree, as the platform gives it to a screen reader."""
    session = page.context.new_cdp_session(page)
    try:
        return session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()


def test_counts_turns_and_the_board_read_once_and_rightly(page: Page, server: str) -> None:
    """Unseen tiles read as counts ("A ×6", not the square A6); the current turn in the
    list is the link marked as the current page; the board is named by its caption and
    not described by it again; the help button says what it is for."""
    page.goto(f"{server}{GAME}/5.html")
    unseen = page.locator(".unseen-tiles")
    assert re.search(r"^A\s*×\s*6\s+B\s+C\s+D\s*×\s*3\b", unseen.inner_text()), unseen.inner_text()
    # Visibly the counts are as they were: a letter and a small number.
    assert page.locator(".unseen-tiles sub").first.evaluate(
        "sub => sub.getBoundingClientRect().width < 20")
    current = page.locator("nav.turn-list [aria-current]")
    expect(current).to_have_count(1)
    expect(current).to_have_attribute("aria-current", "page")
    assert current.evaluate("e => e.tagName") == "A"
    expect(current).to_have_text("5 TANGOi(S)T")

    nodes = ax_nodes(page)
    tables = [n for n in nodes if n.get("role", {}).get("value") == "table"
              and n.get("name", {}).get("value", "").startswith("Board after turn 5")]
    assert len(tables) == 1
    assert tables[0].get("description", {}).get("value", "") == "", tables[0]
    buttons = [n.get("name", {}).get("value") for n in nodes
               if n.get("role", {}).get("value") == "button"]
    assert buttons == ["Play through the game", "Keyboard shortcuts"]


def test_division_headings_stand_above_round_headings(page: Page, server: str) -> None:
    page.goto(server + "index.html")
    sizes = page.evaluate("""() => ["h2", "h3"].map(tag => [...document.querySelectorAll(
        `main ${tag}:not(.visually-hidden)`)]
        .map(h => parseFloat(getComputedStyle(h).fontSize)))""")
    assert sizes[0] and sizes[1]
    assert min(sizes[0]) >= 1.2 * max(sizes[1]), sizes

"""Following a game in progress on a slow network, in a real browser.

A move published while a page is on its way (a reload for a note, a "latest turn" link
followed) does not make a follower a viewer who stepped back; a reload for a note keeps
autoplay playing; following a move keeps a phone reader's place; a follower downloads
each new turn page once; a page brought back by Back or shown again in its tab looks at
the game at once, and a hidden tab does not poll; polls that fail are said.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from browserhelpers import CHROMIUM, CHROMIUM_ARGS, open_page, serve
from playwright.sync_api import Browser, Page, Route
from sitehelpers import make_event
from test_live_browser import (
    NOTE,
    WAIT_MS,
    _built_with_saves,
    counting_server,
    offers,
    prefix,
    shows,
)

# pgm's note on turn 5 and the move after it, as the annotator saves them.
NOTED = prefix(5) + NOTE


def noted(events: int) -> bytes:
    """The record of ``events`` events with the note on turn 5."""
    return NOTED + prefix(events)[len(prefix(5)):]


def event_site(tmp_path: Any, record: bytes, poll: int = 1,
               name: str = "board-1.gcg") -> Callable[[str, bytes], None]:
    event = make_event(tmp_path / "ev", {name: record,
                                         "event.yaml": f"live_poll_seconds: {poll}\n"})
    return _built_with_saves(event, tmp_path / "site")


@contextmanager
def watched(page: Page) -> Iterator[list[str]]:
    """The page's script errors, none expected."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield errors
    assert errors == []


def hold_navigation(page: Page, path: str, then: Callable[[], None]) -> None:
    """The next time the page navigates to ``path`` (a reload, a link), ``then`` runs
    (a move is published) before the request goes on: the page comes a move behind."""
    armed = [True]

    def handle(route: Route) -> None:
        if armed[0] and route.request.is_navigation_request():
            armed[0] = False
            then()
        route.continue_()

    page.route(re.compile(re.escape(path) + "$"), handle)


def test_a_follower_whose_reload_comes_a_move_behind_follows_on(browser, tmp_path) -> None:
    """The annotator adds a note to the latest turn, then the next move: the page
    reloads for the note, and the move is published before the reload's answer comes.
    The follower goes on to the new move, and on following."""
    save = event_site(tmp_path, prefix(5))
    with serve(tmp_path / "site") as url, open_page(browser) as page, watched(page):
        page.goto(url + "board-1/5.html")
        hold_navigation(page, "/board-1/5.html", lambda: save("board-1.gcg", noted(6)))
        save("board-1.gcg", NOTED)
        page.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=WAIT_MS)
        assert page.locator("#live-link").is_hidden()
        save("board-1.gcg", noted(7))
        page.wait_for_url(re.compile(r"board-1/7\.html$"), timeout=WAIT_MS)


def test_the_latest_turn_opened_as_a_move_lands_follows_on(browser, tmp_path) -> None:
    """The game's "Latest turn" link, and the End key on an earlier turn, open the latest
    turn; a move published meanwhile makes it the one before: the viewer meant to follow
    the game, and goes on to the new latest turn."""
    save = event_site(tmp_path, prefix(5))
    with serve(tmp_path / "site") as url, open_page(browser) as page, watched(page):
        page.goto(url + "board-1/index.html")
        hold_navigation(page, "/board-1/5.html", lambda: save("board-1.gcg", prefix(6)))
        page.get_by_role("link", name="Latest turn (5)").click()
        page.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=WAIT_MS)

        page.goto(url + "board-1/3.html")
        offers(page, "3 moves ahead")
        hold_navigation(page, "/board-1/6.html", lambda: save("board-1.gcg", prefix(7)))
        page.keyboard.press("End")
        page.wait_for_url(re.compile(r"board-1/7\.html$"), timeout=WAIT_MS)


def play_label(page: Page) -> str:
    return page.locator(".play-toggle").get_attribute("aria-label") or ""


def test_autoplay_goes_on_through_a_reload_for_a_note(browser, tmp_path) -> None:
    """A note added to the turn on screen reloads it in the middle of autoplay: it comes
    back playing, at the same pace, and goes on to the next turn. A reload by hand
    still stops playing."""
    save = event_site(tmp_path, prefix(7))
    record = prefix(7)
    with serve(tmp_path / "site") as url, open_page(browser) as page, watched(page):
        page.goto(url + "board-1/5.html#play-8")
        assert play_label(page) == "Pause"
        page.evaluate("window.__marker = 1")
        save("board-1.gcg", NOTED + record[len(prefix(5)):])
        shows(page, ".notes", "keeps the J off the triple lane")
        assert page.evaluate("window.__marker") is None  # reloaded
        assert page.url.endswith("board-1/5.html")
        assert play_label(page) == "Pause"
        assert page.locator(".play-pace select").input_value() == "8"
        page.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=15_000)
        assert play_label(page) == "Pause"
        page.reload()
        assert play_label(page) == "Play through the game"


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_following_a_move_keeps_a_phone_readers_place(browser, tmp_path) -> None:
    """A spectator on a phone reads the notes below the board: each move followed opens
    the next turn where they were reading, as autoplay does, not at the top."""
    save = event_site(tmp_path, prefix(5))
    with serve(tmp_path / "site") as url, open_page(browser, **PHONE) as page, watched(page):
        page.goto(url + "board-1/5.html")
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height > 844 + 500, height
        page.evaluate("window.scrollTo(0, 500)")
        assert page.evaluate("window.scrollY") == 500
        for events in (6, 7):
            save("board-1.gcg", prefix(events))
            page.wait_for_url(re.compile(rf"board-1/{events}\.html$"), timeout=WAIT_MS)
            page.wait_for_load_state()
            assert page.evaluate("window.scrollY") == 500, events


def test_a_follower_downloads_each_new_turn_page_once(browser, tmp_path) -> None:
    """A page knows what it was made from: its first polls find game.json the same, so
    the page a follower was taken to is not downloaded again to compare."""
    save = event_site(tmp_path, prefix(5))
    with counting_server(tmp_path / "site") as server, open_page(browser) as page, \
            watched(page):
        page.goto(server.url + "board-1/5.html")
        save("board-1.gcg", prefix(6))
        page.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=WAIT_MS)
        polls = server.count("/board-1/game.json")
        server.wait_for("/board-1/game.json", polls + 3)
        assert server.count("/board-1/6.html") == 1, server.asked
        assert page.url.endswith("board-1/6.html")
        # and a note on its turn still shows
        save("board-1.gcg", prefix(6) + NOTE)
        shows(page, ".notes", "keeps the J off the triple lane")


@contextmanager
def browser_with_back_cache(browser: Browser) -> Iterator[Browser]:
    """Chromium as a phone's or a desktop's browser is: with its back/forward cache,
    which Playwright turns off by default."""
    launched = browser.browser_type.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=30_000,
        ignore_default_args=["--disable-back-forward-cache"])
    try:
        yield launched
    finally:
        launched.close()


def test_a_page_brought_back_by_back_looks_at_the_game_at_once(browser, tmp_path) -> None:
    """Back restores a page as it was left (the back/forward cache): it looks at the game
    at once, not at its next poll (30 s away here)."""
    save = event_site(tmp_path, prefix(5), poll=30)
    with serve(tmp_path / "site") as url, browser_with_back_cache(browser) as cached, \
            open_page(cached) as page, watched(page):
        page.goto(url + "board-1/2.html")
        offers(page, "3 moves ahead")
        page.evaluate("window.__marker = 1")
        page.locator(".turn-nav a.next").click()
        page.wait_for_url(re.compile(r"board-1/3\.html$"))
        save("board-1.gcg", prefix(8))
        page.go_back(wait_until="commit")  # a page restored fires no "load"
        assert page.url.endswith("board-1/2.html")
        assert page.evaluate("window.__marker") == 1  # restored as it was left
        offers(page, "6 moves ahead")
        shows(page, ".turn-nav .where", "2 / 8")


HIDE = """hidden => {
  if (!("__hidden" in window)) {
    Object.defineProperty(document, "hidden", {configurable: true,
                                               get: () => window.__hidden});
    Object.defineProperty(document, "visibilityState", {configurable: true,
      get: () => window.__hidden ? "hidden" : "visible"});
  }
  window.__hidden = hidden;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_tab_does_not_poll_and_looks_at_once_when_shown(browser, tmp_path) -> None:
    """A tab in the background asks for nothing; shown again, it looks at once and the
    follower goes to the move made meanwhile."""
    save = event_site(tmp_path, prefix(5), poll=2)
    with counting_server(tmp_path / "site") as server, open_page(browser) as page, \
            watched(page):
        page.goto(server.url + "board-1/5.html")
        server.wait_for("/board-1/game.json", 1)
        page.evaluate(HIDE, True)
        page.wait_for_timeout(500)  # a poll under way ends
        polls = server.count("/board-1/game.json")
        save("board-1.gcg", prefix(6))
        page.wait_for_timeout(4500)  # two poll intervals and more
        assert server.count("/board-1/game.json") == polls
        assert page.url.endswith("board-1/5.html")
        page.evaluate(HIDE, False)
        page.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=1500)


def test_polls_that_fail_are_said_until_one_succeeds(browser, tmp_path) -> None:
    """The network gone, the status line says since when the page is not updating (in
    its live region, for a screen reader too), instead of "In progress" alone; the next
    poll that succeeds takes that back, and the page follows again."""
    save = event_site(tmp_path, prefix(5))
    with serve(tmp_path / "site") as url, open_page(browser) as page, watched(page):
        page.goto(url + "board-1/5.html")
        status = page.locator("#live-status")
        assert status.get_attribute("aria-live") == "polite"
        page.route("**/game.json", lambda route: route.abort("internetdisconnected"))
        shows(page, "#live-status", "connection lost")
        text = status.inner_text()
        assert re.search(r"not updating since \d\d:\d\d( [AP]M)? — connection lost", text), text
        assert "lost" in (status.get_attribute("class") or "")
        page.unroute("**/game.json")
        page.wait_for_function(
            "!document.getElementById('live-status').textContent.includes('lost')",
            timeout=WAIT_MS)
        assert "lost" not in (status.get_attribute("class") or "")
        save("board-1.gcg", prefix(6))
        page.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=WAIT_MS)


def test_a_game_taken_off_the_site_is_no_lost_connection(browser, tmp_path) -> None:
    """``game.json`` answering 404 (the record renamed or made a draft): the server is
    there, so the status line does not blame the connection; a 5xx does."""
    event_site(tmp_path, prefix(5))
    with serve(tmp_path / "site") as url, open_page(browser) as page, watched(page):
        page.goto(url + "board-1/5.html")
        page.route("**/game.json", lambda route: route.fulfill(status=404, body="gone"))
        page.wait_for_timeout(4500)  # two poll intervals and more
        assert "connection lost" not in page.locator("#live-status").inner_text()
        page.route("**/game.json", lambda route: route.fulfill(status=503, body="down"))
        shows(page, "#live-status", "connection lost")

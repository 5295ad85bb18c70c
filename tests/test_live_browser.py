"""Pages of a game in progress, in a real browser, while the annotator saves moves.

A viewer on the latest turn follows the game; a viewer who stepped back stays, with a
"moves ahead" link, and the new moves come into their page without a reload; when a
move is taken back, a viewer on a turn that no longer exists goes to the latest; the
event index refreshes the game's row. A note, a corrected score or a new title shows on
the open pages it changes, and pages it does not change are left alone.
"""

from __future__ import annotations

import functools
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from browserhelpers import chromium, open_page, serve
from conftest import CORPUS
from playwright.sync_api import Page
from sitehelpers import make_event, record_prefix

from pgm.build import BuildOptions, build
from pgm.live import serve as pgm_serve
from pgm.state import SAVE_SETTLE_NS

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
GUNGI = (CORPUS / "gn/authored__2_every_move_form.gn").read_bytes()
"""64 plies, Result "*": a Gungi game in progress."""
WAIT_MS = 10_000


def prefix(events: int) -> bytes:
    return record_prefix(RECORD, events)


def offers(page: Page, text: str) -> None:
    """Wait until the page shows the link to the live turn, starting with ``text``."""
    page.wait_for_function(
        "text => { const link = document.getElementById('live-link');"
        " return !link.hidden && link.textContent.startsWith(text); }",
        arg=text, timeout=WAIT_MS)


def _built_with_saves(event: Path, out: Path) -> Callable[[str, bytes], None]:
    """Build the site; what it gives saves one record and rebuilds as ``pgm watch`` does
    (keeping the last good pages through a half-written save)."""

    def save(name: str, content: bytes) -> None:
        (event / name).write_bytes(content)
        build(BuildOptions(event, out, keep_last_good=True, jobs=1))

    build(BuildOptions(event, out, jobs=1))
    return save


def test_viewers_follow_a_game_in_progress(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5),
                                         "event.yaml": "live_poll_seconds: 1\n"})
    out = tmp_path / "site"

    def save(events: int) -> None:
        (event / "board-1.gcg").write_bytes(prefix(events))
        # as pgm watch publishes a save that takes turns back: once left alone a moment
        settled = time.time_ns() - 2 * SAVE_SETTLE_NS
        os.utime(event / "board-1.gcg", ns=(settled, settled))
        build(BuildOptions(event, out, keep_last_good=True, jobs=1))

    build(BuildOptions(event, out, jobs=1))
    with serve(out) as url, chromium() as browser, open_page(browser) as live, \
            open_page(browser) as back, open_page(browser) as index:
        live.goto(url + "board-1/5.html")
        back.goto(url + "board-1/3.html")
        index.goto(url + "index.html")
        assert live.locator("#live-status time").inner_text() != ""
        # Turn 3 of 5: the viewer stepped back, so the way to the live turn is offered.
        offers(back, "2 moves ahead")

        save(7)
        live.wait_for_url(re.compile(r"board-1/7\.html$"), timeout=WAIT_MS)
        link = back.locator("#live-link")
        offers(back, "4 moves ahead — go to live")
        assert back.url.endswith("board-1/3.html")
        index.wait_for_function(
            "document.querySelector('tr[data-game] .turns').textContent.trim() === '7'",
            timeout=WAIT_MS)
        # and says so in its live region, for a screen reader's user
        shows(index, "#live-status .live-news", "Table 1, andy vs cesar: in progress: andy")

        save(6)  # the annotator takes the last move back
        live.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=WAIT_MS)
        offers(back, "3 moves ahead")
        assert back.url.endswith("board-1/3.html")

        link.click()
        back.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=WAIT_MS)


def test_a_viewer_at_work_on_the_latest_turn_or_not_following_stays(tmp_path) -> None:
    """A keyboard's focus on the page (a screen reader's user reading the board) or
    "Follow new moves" unticked keeps the viewer on their turn, with the link to the
    live one; ticked again, with the focus off the page, the viewer follows."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5),
                                         "event.yaml": "live_poll_seconds: 1\n"})
    save = _built_with_saves(event, tmp_path / "site")
    with serve(tmp_path / "site") as url, chromium() as browser, \
            open_page(browser) as reading, open_page(browser) as unticked:
        reading.goto(url + "board-1/5.html")
        unticked.goto(url + "board-1/5.html")
        reading.locator(".turn-nav a").first.focus()
        box = unticked.get_by_label("Follow new moves")
        assert box.is_checked()
        box.uncheck()
        unticked.evaluate("document.activeElement.blur()")
        save("board-1.gcg", prefix(6))
        offers(reading, "1 move ahead — go to live")
        offers(unticked, "1 move ahead — go to live")
        assert reading.url.endswith("/5.html") and unticked.url.endswith("/5.html")
        latest = unticked.context.new_page()
        latest.goto(url + "board-1/6.html")
        box = latest.get_by_label("Follow new moves")
        assert not box.is_checked()  # kept from page to page
        box.check()
        save("board-1.gcg", prefix(7))
        latest.wait_for_url(re.compile(r"board-1/7\.html$"), timeout=WAIT_MS)


# Turn 5 as first saved with a typo in its score (the board scores JOL(T) 22).
TYPO = prefix(5).replace(b"+22 62", b"+21 61")
NOTE = b"#note JOLT keeps the J off the triple lane\n"


class Visits:
    """What one page of the browser asked for and where it went: the reloads it made,
    and how often it polled its game since a moment of the test."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.log: list[str] = []
        page.on("request", lambda request: self.log.append(request.url))
        page.on("framenavigated", lambda frame: frame == page.main_frame
                and self.log.append("navigated"))

    def mark(self) -> int:
        return len(self.log)

    def polled_twice_since(self, mark: int, data: str) -> list[str]:
        """Wait until the page has asked for ``data`` twice since ``mark`` (the first
        answer is the data as saved, so by the second one the page has compared itself
        with the site and reloaded if it meant to); what happened since."""
        deadline = time.monotonic() + WAIT_MS / 1000
        while sum(url.endswith(data) for url in self.log[mark:]) < 2:
            assert time.monotonic() < deadline, self.log[mark:]
            self.page.wait_for_timeout(50)
        return self.log[mark:]


def shows(page: Page, selector: str, text: str) -> None:
    """Wait until the element of ``selector`` contains ``text``."""
    page.wait_for_function(
        "([selector, text]) => (document.querySelector(selector) || {textContent: ''})"
        ".textContent.includes(text)", arg=[selector, text], timeout=WAIT_MS)


def test_open_pages_show_notes_corrections_and_titles(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"board-1.gcg": TYPO,
                                         "event.yaml": "title: Club night\n"
                                                       "live_poll_seconds: 1\n"})
    out = tmp_path / "site"

    save = _built_with_saves(event, out)
    with serve(out) as url, chromium() as browser, open_page(browser) as live, \
            open_page(browser) as back, open_page(browser) as index:
        live.goto(url + "board-1/5.html")
        back.goto(url + "board-1/3.html")
        index.goto(url + "index.html")
        visits = {page: Visits(page) for page in (back, index)}
        offers(back, "2 moves ahead")

        # A note on the turn the viewer is on: that page shows it, and the pages it
        # does not change (an earlier turn, the index) are not reloaded for it.
        marks = {page: v.mark() for page, v in visits.items()}
        save("board-1.gcg", TYPO + NOTE)
        shows(live, ".notes", "keeps the J off the triple lane")
        assert live.url.endswith("board-1/5.html")
        assert "navigated" not in visits[back].polled_twice_since(marks[back], "game.json")
        assert "navigated" not in visits[index].polled_twice_since(marks[index], "live.json")

        # The score corrected: the turn's page and the turn list of the earlier turn
        # show it, and that viewer stays on turn 3 with the way to the live turn.
        save("board-1.gcg", prefix(5) + NOTE)
        shows(live, ".score-table", "62")
        shows(live, ".turn-list li:nth-child(5)", "+22")
        assert live.locator(".notes").inner_text().endswith("keeps the J off the triple lane")
        shows(back, ".turn-list li:nth-child(5)", "+22")
        assert back.url.endswith("board-1/3.html")
        offers(back, "2 moves ahead")

        # A new move: the viewer on the latest turn goes to it, the other stays and
        # sees it in the turn list.
        save("board-1.gcg", prefix(6))
        live.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=WAIT_MS)
        offers(back, "3 moves ahead")
        shows(back, ".turn-list", "6 TORI")
        assert back.url.endswith("board-1/3.html")
        shows(index, "tr[data-game] .turns", "6")

        # The event renamed in event.yaml: the index shows the new title; a turn page
        # polls its game.json, which a title leaves as it was: the follower sees the new
        # title from the next move on.
        save("event.yaml", b"title: Club night, final round\nlive_poll_seconds: 1\n")
        shows(index, "h1", "Club night, final round")
        assert live.url.endswith("board-1/6.html") and back.url.endswith("board-1/3.html")
        save("board-1.gcg", prefix(7))
        live.wait_for_url(re.compile(r"board-1/7\.html$"), timeout=WAIT_MS)
        shows(live, "header.site", "Club night, final round")


def test_pgm_serve_shows_a_note_on_the_open_turn_and_a_new_title(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5),
                                         "event.yaml": "title: Club night\n"
                                                       "live_poll_seconds: 1\n"})
    stop = threading.Event()
    where: dict[str, str] = {}

    def ready(address: str, out: Path) -> None:
        where["url"] = address

    thread = threading.Thread(target=pgm_serve, args=(BuildOptions(event), 0,
                                                      lambda result: None, ready, stop),
                              daemon=True)
    thread.start()
    try:
        with chromium() as browser, open_page(browser) as live, open_page(browser) as index:
            deadline = time.monotonic() + 60
            while "url" not in where:
                assert time.monotonic() < deadline, "pgm serve did not start"
                time.sleep(0.05)
            live.goto(where["url"] + "board-1/5.html")
            index.goto(where["url"] + "index.html")
            (event / "board-1.gcg").write_bytes(prefix(5) + NOTE)
            shows(live, ".notes", "keeps the J off the triple lane")
            assert live.url.endswith("board-1/5.html")
            (event / "event.yaml").write_text("title: Club night, final round\n"
                                              "live_poll_seconds: 1\n")
            shows(index, "h1", "Club night, final round")
            (event / "board-1.gcg").write_bytes(prefix(6))
            live.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=WAIT_MS)
    finally:
        stop.set()
        thread.join(timeout=30)


class Server:
    """What a web server of the site was asked for, path by path; it answers 503 to the
    N-th request for a path in ``fail`` and to every request for a path in ``down``,
    and can forbid browsers to keep what it sends."""

    def __init__(self, fail: set[tuple[str, int]], no_store: bool) -> None:
        self.url = ""
        self.asked: list[str] = []
        self.fail = fail
        self.down: set[str] = set()
        self.no_store = no_store
        self.lock = threading.Lock()

    def count(self, path: str) -> int:
        with self.lock:
            return self.asked.count(path)

    def wait_for(self, path: str, count: int) -> None:
        """Wait until ``path`` has been asked for ``count`` times in all."""
        deadline = time.monotonic() + WAIT_MS / 1000
        while self.count(path) < count:
            assert time.monotonic() < deadline, (path, count, self.asked)
            time.sleep(0.05)


class _Handler(SimpleHTTPRequestHandler):
    def __init__(self, *args: Any, server_log: Server, **kwargs: Any) -> None:
        self.log = server_log
        super().__init__(*args, **kwargs)

    def send_head(self) -> Any:
        path = urlsplit(self.path).path
        with self.log.lock:
            self.log.asked.append(path)
            number = self.log.asked.count(path)
            failed = (path, number) in self.log.fail or path in self.log.down
        if failed:
            self.send_error(503)
            return None
        return super().send_head()

    def end_headers(self) -> None:
        if self.log.no_store:
            self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - base signature
        pass


@contextmanager
def counting_server(folder: Path, fail: set[tuple[str, int]] = frozenset(),
                    no_store: bool = False) -> Iterator[Server]:
    log = Server(set(fail), no_store)
    handler = functools.partial(_Handler, directory=str(folder), server_log=log)
    with serve(folder, handler) as url:
        log.url = url
        yield log


RENAMED = b"#player2 cesar Cesar Del Solar"


def test_the_index_downloads_itself_only_when_more_than_a_move_changed(tmp_path) -> None:
    """A move changes the status and turns, which the index refreshes from live.json:
    it does not download index.html for it. A renamed player and a new title change
    what the index shows: it reloads for them."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5), "board-2.gcg": prefix(3),
                                         "event.yaml": "title: Club night\n"
                                                       "live_poll_seconds: 1\n"})
    out = tmp_path / "site"

    save = _built_with_saves(event, out)
    with counting_server(out) as server, chromium() as browser, \
            open_page(browser) as index:
        index.goto(server.url + "index.html")
        visits = Visits(index)
        # The first poll compares the page with the site's (a page may be older than the
        # first live.json it sees); the second starts once the first is done.
        server.wait_for("/live.json", 2)
        downloads = server.count("/index.html")

        save("board-1.gcg", prefix(6))
        save("board-1.gcg", prefix(7))
        shows(index, 'tr[data-game="board-1"] .turns', "7")
        # The poll that brought turn 7 is done (and so is any look it made at the page)
        # once the next one has started.
        server.wait_for("/live.json", server.count("/live.json") + 1)
        assert server.count("/index.html") == downloads
        assert "navigated" not in visits.log

        save("board-2.gcg", prefix(3).replace(b"#player2 cesar cesar", RENAMED))
        shows(index, 'tr[data-game="board-2"]', "Cesar Del Solar")
        save("event.yaml", b"title: Club night, final round\nlive_poll_seconds: 1\n")
        shows(index, "h1", "Club night, final round")
        shows(index, 'tr[data-game="board-1"] .turns', "7")


def test_a_page_that_could_not_get_the_copy_it_shows_tries_again(tmp_path) -> None:
    """The server answers 503 to a page's first look at its own copy (a network blip, a
    rebuild swapping the folder): a later note still shows. An index whose second look
    gets a newer copy than the one on screen (the title changed meanwhile) reloads."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5),
                                         "event.yaml": "title: Club night\n"
                                                       "live_poll_seconds: 1\n"})
    out = tmp_path / "site"

    save = _built_with_saves(event, out)
    # Kept copies would answer the look from the browser's cache: no-store sends it to
    # the server. The first request for each page is the page itself, the second the look.
    fail = {("/board-1/5.html", 2), ("/index.html", 2)}
    with counting_server(out, fail, no_store=True) as server, chromium() as browser, \
            open_page(browser) as live, open_page(browser) as index:
        server.down.add("/live.json")
        live.goto(server.url + "board-1/5.html")
        index.goto(server.url + "index.html")
        visits = Visits(live)
        # The turn page looks again (and then at the site's copy) at a later poll, and,
        # finding the same page, stays.
        server.wait_for("/board-1/5.html", 4)
        mark = visits.mark()
        assert "navigated" not in visits.polled_twice_since(mark, "game.json")
        save("board-1.gcg", prefix(5) + NOTE)
        shows(live, ".notes", "keeps the J off the triple lane")
        assert live.url.endswith("board-1/5.html")

        # The index has not looked again yet (live.json is down); the title changes.
        assert server.count("/index.html") == 2
        save("event.yaml", b"title: Club night, final round\nlive_poll_seconds: 1\n")
        server.down.clear()
        shows(index, "h1", "Club night, final round")


# What a page of an earlier turn keeps when the moves after it come in place, and what
# it shows of them.
KEPT = """() => ({
  marker: window.__marker,
  focused: document.activeElement === window.__focused,
  href: document.activeElement.getAttribute("href"),
  help: !document.getElementById("key-help").hidden,
  expanded: document.querySelector(".help-toggle").getAttribute("aria-expanded"),
  scroll: window.scrollY,
  where: document.querySelector(".turn-nav .where").textContent,
  last: document.querySelector(".turn-nav a.last").getAttribute("href"),
  heading: document.getElementById("move-h").textContent,
  title: document.querySelector("main h1").textContent,
})"""


def step_back(page: Page, link: str) -> dict[str, Any]:
    """Focus the page's ``link``, open the key help with "?", and mark the document (a
    reload loses the mark); what the page then keeps, as KEPT gives it."""
    page.locator(link).focus()
    page.keyboard.press("?")
    page.evaluate("() => { window.__marker = 1; window.__focused = document.activeElement; }")
    return page.evaluate(KEPT)


def test_moves_after_an_earlier_turn_come_in_place(tmp_path) -> None:
    """A viewer on turn 2 of 10 with a link of the turn list focused and the key help
    open: two new moves come into the list, the counter, the headings and the Last
    link without a reload, which would send the focus back to the start of the page,
    close the help and have a screen reader read the page again. A note on turn 2
    itself changes what the page says: it reloads for it."""
    event = make_event(tmp_path / "ev", {"board-3.gcg": prefix(10),
                                         "event.yaml": "live_poll_seconds: 1\n"})
    out = tmp_path / "site"

    save = _built_with_saves(event, out)
    with serve(out) as url, chromium() as browser, open_page(browser) as page:
        page.goto(url + "board-3/2.html")
        offers(page, "8 moves ahead")
        visits = Visits(page)
        before = step_back(page, 'nav.turn-list a[href="5.html"]')
        assert before["help"] and before["href"] == "5.html"

        save("board-3.gcg", prefix(11))
        save("board-3.gcg", prefix(12))
        offers(page, "10 moves ahead")
        page.wait_for_function(
            "document.querySelectorAll('nav.turn-list li').length === 12", timeout=WAIT_MS)
        shows(page, ".turn-nav .where", "2 / 12")
        assert page.evaluate(KEPT) == dict(
            before, where="2 / 12", last="12.html", heading="Turn 2 of 12",
            title=before["title"].replace("of 10", "of 12"))
        assert page.locator("nav.turn-list li:last-child a").get_attribute("href") == "12.html"
        assert page.locator("nav.turn-list a[aria-current=page]").get_attribute("href") == "2.html"
        assert "navigated" not in visits.log

        # A note on the viewer's own turn: the page reloads and shows it.
        record = prefix(12)
        assert record.startswith(prefix(2))
        save("board-3.gcg", prefix(2) + NOTE + record[len(prefix(2)):])
        shows(page, ".notes", "keeps the J off the triple lane")
        assert page.evaluate("window.__marker") is None
        assert page.url.endswith("board-3/2.html")


GUNGI_PLIES = ["PZ*0-6-0", "PZ*0-1-0", "PZ*1-6-0", "PZ*1-1-0", "PZ*2-6-0", "PZ*2-2-0"]


def gungi(plies: int) -> str:
    """A Gungi record in progress, of its first ``plies`` plies."""
    moves = [f"{index // 2 + 1}. {ply}" if index % 2 == 0 else ply
             for index, ply in enumerate(GUNGI_PLIES[:plies])]
    return ('[White "Ann"]\n[Black "Bob"]\n[Result "*"]\n' + " ".join(moves) + "\n")


def test_a_ply_page_and_a_spoiler_free_turn_page_take_new_moves_in_place(tmp_path) -> None:
    """A Gungi ply page lists the plies in a table (rows, not list items): a new ply
    comes in as a new row. In a spoiler-free event a turn page lists the turns up to its
    own only: a new move changes the totals and the Last link, not the list."""
    gungi_event = make_event(tmp_path / "gungi", {"board-1.gn": gungi(5),
                                                  "event.yaml": "live_poll_seconds: 1\n"})
    quiet_event = make_event(tmp_path / "quiet", {"board-1.gcg": prefix(5),
                                                  "event.yaml": "live_poll_seconds: 1\n"
                                                                "spoiler_free: true\n"})
    save_ply = _built_with_saves(gungi_event, tmp_path / "gungi-site")
    save_quiet = _built_with_saves(quiet_event, tmp_path / "quiet-site")
    with serve(tmp_path / "gungi-site") as gungi_url, serve(tmp_path / "quiet-site") as url, \
            chromium() as browser, open_page(browser) as ply, open_page(browser) as quiet:
        ply.goto(gungi_url + "board-1/2.html")
        quiet.goto(url + "board-1/2.html")
        visits = {page: Visits(page) for page in (ply, quiet)}
        kept = {ply: step_back(ply, '.sheet-section td:first-child a[href="4.html"]'),
                quiet: step_back(quiet, 'nav.turn-list a[href="1.html"]')}
        listed = quiet.locator("nav.turn-list li").count()

        save_ply("board-1.gn", gungi(6).encode())
        save_quiet("board-1.gcg", prefix(6))
        for page in (ply, quiet):
            shows(page, ".turn-nav .where", "2 / 6")
            before = kept[page]
            assert page.evaluate(KEPT) == dict(
                before, where="2 / 6", last="6.html",
                heading=before["heading"].replace("of 5", "of 6"),
                title=before["title"].replace("of 5", "of 6"))
            assert "navigated" not in visits[page].log
        assert ply.locator(".sheet-section tbody tr:last-child a").first \
            .get_attribute("href") == "6.html"
        assert quiet.locator("nav.turn-list li").count() == listed == 2


# Records every change inside the live region: each one is announced to screen readers.
WATCH_LIVE_REGION = """() => { window.liveChanges = [];
  const region = document.getElementById("live-status");
  new MutationObserver(changes => changes.forEach(change => window.liveChanges.push(
      [change.type, change.attributeName, region.textContent.trim()])))
    .observe(region, {childList: true, subtree: true, characterData: true, attributes: true});
}"""


def test_the_live_region_changes_only_when_there_is_news(tmp_path) -> None:
    """Polls that bring nothing new leave #live-status (aria-live) untouched on the
    latest turn, on an earlier turn (with its "N moves ahead" link) and on the event index;
    a new move changes it once, with the new count for the viewer who stepped back."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5),
                                         "event.yaml": "live_poll_seconds: 1\n"})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    with counting_server(out) as server, chromium() as browser, open_page(browser) as live, \
            open_page(browser) as back, open_page(browser) as index:
        live.goto(server.url + "board-1/5.html")
        back.goto(server.url + "board-1/3.html")
        index.goto(server.url + "index.html")
        offers(back, "2 moves ahead")
        for page in (live, back, index):
            page.evaluate(WATCH_LIVE_REGION)
        text = {page: page.locator("#live-status").text_content() for page in (live, back)}
        polls = server.count("/board-1/game.json"), server.count("/live.json")
        # Three more polls of each page's data, answered with what it already shows.
        server.wait_for("/board-1/game.json", polls[0] + 6)
        server.wait_for("/live.json", polls[1] + 3)
        for page in (live, back, index):
            assert page.evaluate("window.liveChanges") == [], page.url
        assert text[back].endswith("2 moves ahead — go to live")
        assert text[live] == live.locator("#live-status").text_content()

        # The earlier turn's list gains a move: the page takes it in place, shows the
        # new count, and is quiet again from then on.
        back.evaluate("window.__marker = 1")
        (event / "board-1.gcg").write_bytes(prefix(6))
        build(BuildOptions(event, out, keep_last_good=True, jobs=1))
        offers(back, "3 moves ahead — go to live")
        shows(back, ".turn-list", "6 TORI")
        back.evaluate(WATCH_LIVE_REGION)
        polls = server.count("/board-1/game.json")
        server.wait_for("/board-1/game.json", polls + 6)
        assert back.evaluate("window.liveChanges") == []
        assert back.evaluate("window.__marker") == 1
        assert back.url.endswith("board-1/3.html")


def test_the_time_of_the_last_change_is_shown_in_the_viewers_own_time(tmp_path) -> None:
    """The page can only say UTC; a spectator at the venue reads the time in theirs (the
    UTC time stays in the tooltip), with its date even today's: a page left open
    overnight must not read as changed today."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5)})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    with serve(out) as url, chromium() as browser, \
            open_page(browser, timezone_id="America/New_York", locale="en-GB") as page:
        for address in ("board-1/5.html", "index.html"):
            page.goto(url + address)
            slot = page.locator("#live-status time")
            stamp = slot.get_attribute("datetime")
            local = datetime.fromisoformat(stamp).astimezone(ZoneInfo("America/New_York"))
            shown = slot.inner_text()
            assert shown.startswith(f"{local.day} ") and str(local.year) in shown, shown
            assert shown.endswith(local.strftime(" %H:%M:%S")), (shown, stamp)
            assert slot.get_attribute("title") == f"{stamp[:10]} {stamp[11:19]} UTC"
            # a live region from then on, not before: the change to local time is silent
            assert page.locator("#live-status").get_attribute("aria-live") == "polite"
            assert 'id="live-status" class="live-status">' in (out / address).read_text()


def test_an_index_with_no_game_in_progress_shows_the_next_rounds_games(tmp_path) -> None:
    """A venue screen shows the event index before round 1 and between rounds: with no
    game in progress it looks for new games at a slower pace, and shows them."""
    event = make_event(tmp_path / "ev", {"event.yaml": "live_poll_seconds: 1\n"})
    save = _built_with_saves(event, tmp_path / "site")
    index_file = tmp_path / "site" / "index.html"
    with serve(tmp_path / "site") as url, chromium() as browser, open_page(browser) as index:
        opened = time.time()
        os.utime(index_file, (opened, opened))
        index.goto(url + "index.html")
        assert "No games yet" in index.inner_text("main")
        (event / "round-1").mkdir()
        (event / "round-2").mkdir()
        save("round-1/board-1.gcg", RECORD)  # a whole game at once: none in progress
        # Rewritten within the second of the copy on screen, as on a fast machine: the
        # server answers a plain reload "304 Not Modified".
        os.utime(index_file, (opened, opened))
        index.wait_for_function("() => document.querySelector('tr[data-game]') !== null",
                                timeout=WAIT_MS)
        assert "andy" in index.inner_text("main") and "data-waiting" in index.content()
        save("round-2/board-1.gcg", prefix(3))
        index.wait_for_function("() => document.querySelectorAll('tr[data-game]').length == 2",
                                timeout=WAIT_MS)
        assert "in progress" in index.inner_text("main")


def banner(page: Page) -> str:
    """What an index shows of its "Games in progress" line: its text, "" when none."""
    return page.evaluate("() => { const line = document.getElementById('live-status');"
                         " return line && !line.hidden ? line.textContent.trim() : ''; }")


def test_an_open_index_says_no_games_are_in_progress_once_the_last_one_ends(tmp_path) -> None:
    """With ``live: true`` in event.yaml a finished game's pages follow its record for
    corrections: on the index it is final, not in progress. An index left open shows
    what one opened anew does: "Games in progress" with the time of the game that is
    (a correction to a finished game does not change it), and no such line once the
    last game in progress has ended."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": RECORD, "board-2.gcg": prefix(5),
                                         "event.yaml": "live: true\nlive_poll_seconds: 1\n"})
    os.utime(event / "board-2.gcg", (1_780_000_000, 1_780_000_000))  # 2026-05-28 20:26:40 UTC
    out = tmp_path / "site"

    save = _built_with_saves(event, out)
    with counting_server(out) as server, chromium() as browser, open_page(browser) as index, \
            open_page(browser) as fresh:
        index.goto(server.url + "index.html")
        assert banner(index).startswith("Games in progress")
        slot = index.locator("#live-status time")
        assert slot.get_attribute("datetime") == "2026-05-28T20:26:40+00:00"

        # A note added to the finished game: the games in progress were not updated.
        save("board-1.gcg", RECORD + NOTE)
        server.wait_for("/live.json", server.count("/live.json") + 2)
        assert slot.get_attribute("datetime") == "2026-05-28T20:26:40+00:00"
        assert banner(index).startswith("Games in progress")

        save("board-2.gcg", RECORD)
        shows(index, 'tr[data-game="board-2"] .status-text', "andy won")
        index.wait_for_function("() => { const line = document.getElementById('live-status');"
                                " return !line || line.hidden; }", timeout=WAIT_MS)
        server.wait_for("/live.json", server.count("/live.json") + 2)
        fresh.goto(server.url + "index.html")
        assert banner(index) == banner(fresh) == ""
        assert index.inner_text("main") == fresh.inner_text("main")


def test_a_change_made_on_another_day_shows_its_date(tmp_path) -> None:
    """A game last changed three days ago must not read as changing now: the time
    comes with its date."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5)})
    three_days_ago = time.time() - 3 * 86400
    os.utime(event / "board-1.gcg", (three_days_ago, three_days_ago))
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    year = time.strftime("%Y", time.localtime(three_days_ago))
    with serve(out) as url, chromium() as browser, open_page(browser, locale="en-GB") as page:
        page.goto(url + "board-1/5.html")
        shown = page.locator("#live-status time").inner_text()
        assert year in shown and re.search(r"\d\d:\d\d:\d\d", shown), shown


def test_a_gungi_viewer_behind_the_game_is_told_how_many_plies(tmp_path) -> None:
    """Gungi pages count plies ("Ply 32 of 64"), and so does the link to the live ply;
    a crossword game's beside it counts moves."""
    event = make_event(tmp_path / "ev", {"board-1.gn": GUNGI, "board-2.gcg": prefix(5)})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    with serve(out) as url, chromium() as browser, open_page(browser) as page:
        page.goto(url + "board-1/32.html")
        assert page.locator("#move-h").inner_text() == "Ply 32 of 64"
        offers(page, "32 plies ahead — go to live")
        page.goto(url + "board-1/63.html")
        offers(page, "1 ply ahead — go to live")
        page.goto(url + "board-2/4.html")
        offers(page, "1 move ahead — go to live")
        page.goto((out / "board-1/32.html").as_uri())
        status = page.locator("#live-status").inner_text()
        assert status.endswith("reload to see new plies"), status


def test_a_page_opened_from_disk_says_how_to_see_new_moves_and_does_not_poll(
        tmp_path) -> None:
    """Browsers refuse a file:// page's requests for the site's files: such a page says
    to reload, and asks for nothing (no error every few seconds)."""
    event = make_event(tmp_path / "ev", {"event.yaml": "live_poll_seconds: 1\n",
                                         "board-1.gcg": prefix(5)})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    with chromium() as browser, open_page(browser) as page:
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        for address in ("board-1/5.html", "index.html"):
            page.goto((out / address).as_uri())
            page.wait_for_timeout(2500)
            status = page.locator("#live-status").inner_text()
            assert status.endswith("reload to see new moves"), status
        assert not [url for url in asked if url.endswith(".json")], asked

"""Pages of a game in progress, in a real browser, while the annotator saves moves.

A viewer on the latest turn follows the game; a viewer who stepped back stays, with a
"new moves" link; when a move is taken back, a viewer on a turn that no longer exists
goes to the latest; the event index refreshes the game's row.
"""

from __future__ import annotations

import re

from browserhelpers import chromium, open_page, serve
from conftest import CORPUS
from sitehelpers import make_event, record_prefix

from pgm.build import BuildOptions, build

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
WAIT_MS = 10_000


def prefix(events: int) -> bytes:
    return record_prefix(RECORD, events)


def test_viewers_follow_a_game_in_progress(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5),
                                         "event.yaml": "live_poll_seconds: 1\n"})
    out = tmp_path / "site"

    def save(events: int) -> None:
        (event / "board-1.gcg").write_bytes(prefix(events))
        build(BuildOptions(event, out, keep_last_good=True, jobs=1))

    build(BuildOptions(event, out, jobs=1))
    with serve(out) as url, chromium() as browser, open_page(browser) as live, \
            open_page(browser) as back, open_page(browser) as index:
        live.goto(url + "board-1/5.html")
        back.goto(url + "board-1/3.html")
        index.goto(url + "index.html")
        assert live.locator("#live-status time").inner_text() != ""
        # Turn 3 of 5: the viewer stepped back, so the way to the live turn is offered.
        back.wait_for_function("document.getElementById('live-link').textContent"
                               ".startsWith('2 new moves')", timeout=WAIT_MS)

        save(7)
        live.wait_for_url(re.compile(r"board-1/7\.html$"), timeout=WAIT_MS)
        link = back.locator("#live-link")
        back.wait_for_function("document.getElementById('live-link').textContent"
                               " === '4 new moves — go to live'", timeout=WAIT_MS)
        assert link.is_visible()
        assert back.url.endswith("board-1/3.html")
        index.wait_for_function(
            "document.querySelector('tr[data-game] .turns').textContent.trim() === '7'",
            timeout=WAIT_MS)

        save(6)  # the annotator takes the last move back
        live.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=WAIT_MS)
        back.wait_for_function(
            "document.getElementById('live-link').textContent.startsWith('3 new moves')",
            timeout=WAIT_MS)
        assert back.url.endswith("board-1/3.html")

        link.click()
        back.wait_for_url(re.compile(r"board-1/6\.html$"), timeout=WAIT_MS)

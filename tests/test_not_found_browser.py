"""The not-found page, in a real browser, as a web host serves it: at any missing
address, at any depth.

A spectator's link to a turn the game no longer has (a record corrected to fewer turns)
leads to the game's page and its last turn; without JavaScript, or at any other missing
address, the page still leads to the event's index. Nothing of the address becomes
markup.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from browserhelpers import chromium, open_page, serve
from conftest import CORPUS
from playwright.sync_api import Page
from sitehelpers import make_event, record_prefix

from pgm.build import BuildOptions, build
from pgm.live import SiteHandler

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
GUNGI = (CORPUS / "gn/authored__2_every_move_form.gn").read_bytes()
"""64 plies."""


class _Host(SiteHandler):
    """A static host: the site below ``prefix``, and the site's 404.html (status 404)
    for any address it does not have, as hosts are set up for pgm's sites."""

    def __init__(self, *args: Any, prefix: str, **kwargs: Any) -> None:
        self.prefix = prefix
        super().__init__(*args, **kwargs)

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "no such file")
        return super().translate_path("/" + path[len(self.prefix):])


@contextmanager
def host(folder: Path, prefix: str = "/") -> Iterator[str]:
    """Serve ``folder`` at ``prefix`` on 127.0.0.1; yields the site's URL."""
    with serve(folder, functools.partial(_Host, directory=str(folder), prefix=prefix)) as url:
        yield url.rstrip("/") + prefix


def offered(page: Page) -> str:
    """The offer of the game's page as the spectator sees it ("" while hidden)."""
    page.wait_for_load_state("networkidle")
    offer = page.locator("#turn-gone")
    return offer.inner_text() if offer.is_visible() else ""


def test_a_turn_a_corrected_record_no_longer_has_leads_to_the_game(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"round-1/board-2.gcg": record_prefix(RECORD, 10),
                                         "round-1/board-3.gn": GUNGI})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    assert (out / "round-1/board-2/10.html").is_file()
    (event / "round-1/board-2.gcg").write_bytes(record_prefix(RECORD, 8))  # corrected
    build(BuildOptions(event, out, jobs=1))
    with host(out) as url, chromium() as browser, open_page(browser) as page:
        problems: list[str] = []
        page.on("pageerror", lambda error: problems.append(str(error)))
        response = page.goto(url + "round-1/board-2/10.html")
        assert response is not None and response.status == 404
        assert page.locator("h1").inner_text() == "Page not found"
        assert offered(page) == ("This turn is not in the game (any more): go to the "
                                 "game's page or to its last turn (8).")
        page.get_by_role("link", name="last turn (8)").click()
        page.wait_for_url(re.compile(r"/round-1/board-2/8\.html$"))
        assert page.locator("main h1").inner_text().endswith("turn 8 of 8")

        page.goto(url + "round-1/board-2/10.html")
        page.get_by_role("link", name="game's page").click()
        page.wait_for_url(re.compile(r"/round-1/board-2/index\.html$"))

        # Gungi pages count plies.
        page.goto(url + "round-1/board-3/70.html")
        assert offered(page) == ("This ply is not in the game (any more): go to the "
                                 "game's page or to its last ply (64).")
        assert problems == []


def test_other_missing_addresses_lead_to_the_index(tmp_path) -> None:
    """A renamed game's turn (no game there any more), a page that never was, an address
    made to inject markup, and any address without JavaScript: the index only."""
    event = make_event(tmp_path / "ev", {"round-1/board-2.gcg": record_prefix(RECORD, 8)})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    hostile = "%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E/3.html"
    with host(out) as url, chromium() as browser, open_page(browser) as page, \
            open_page(browser, java_script_enabled=False) as plain:
        dialogs: list[str] = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for address in ("round-1/board-9/3.html", "round-1/board-2/notes.html",
                        "deep/down/nowhere/", hostile, "round-1/board-2/10.html"):
            for viewer in (page, plain) if address != "round-1/board-2/10.html" else (plain,):
                response = viewer.goto(url + address)
                assert response is not None and response.status == 404, address
                assert offered(viewer) == "", address
                viewer.get_by_role("link", name="list of games").click()
                viewer.wait_for_url(url + "index.html")
                assert viewer.locator("tr[data-game]").count() == 1
        assert page.locator("img").count() == 0 and dialogs == []


def test_a_site_under_a_sub_path_offers_the_game_there(tmp_path) -> None:
    """With ``base_url`` naming a sub-path, the page's links start there: the game's
    page is looked for below it, on the host the page came from."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": record_prefix(RECORD, 5),
                                         "event.yaml": "base_url: https://example.org/open/\n"})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    with host(out, "/open/") as url, chromium() as browser, open_page(browser) as page:
        page.goto(url + "board-1/6.html")
        assert page.get_by_role("link", name="list of games").get_attribute("href") == \
            "https://example.org/open/index.html"
        assert offered(page).endswith("or to its last turn (5).")
        assert page.get_by_role("link", name="game's page").get_attribute("href") == \
            "/open/board-1/index.html"
        page.get_by_role("link", name="last turn (5)").click()
        page.wait_for_url(url + "board-1/5.html")
        # Outside the site's path the page offers nothing of the site.
        page.goto(url.replace("/open/", "/elsewhere/") + "board-1/6.html")
        assert offered(page) == ""

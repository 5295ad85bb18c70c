"""Right-to-left names in Chromium: a score stays beside its player on the screen.

Each check measures where the pieces of a line are drawn (``Range.getBoundingClientRect``)
and asserts that they come left to right in the order the sentence says them: "محمد علي",
then "393", then "Ruth", then "539". Without isolation the bidi algorithm draws "393"
on the other side of the Arabic name, and the checks see it: each test first shows that
the same line with the isolates taken out is misdrawn.
"""

from __future__ import annotations

import pytest
from browserhelpers import chromium, open_page, serve
from test_bidi_names import ARABIC, HEBREW, arabic_record, built, hebrew_record

from pgm.site_model import FSI, PDI

_RECTS = """([selector, pieces]) => {
  const element = document.querySelector(selector);
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const nodes = [];
  let text = "";
  while (walker.nextNode()) {
    nodes.push([walker.currentNode, text.length]);
    text += walker.currentNode.data;
  }
  // the text node and offset of a point of the whole text; an end point stays in the
  // node it ends
  function at(offset, end) {
    for (let i = nodes.length - 1; i >= 0; i--) {
      const [node, start] = nodes[i];
      if (end ? start < offset : start <= offset) { return [node, offset - start]; }
    }
  }
  let from = 0;
  return pieces.map((piece) => {
    const found = text.indexOf(piece, from);
    if (found < 0) { return null; }
    from = found + piece.length;
    const range = document.createRange();
    range.setStart(...at(found, false));
    range.setEnd(...at(found + piece.length, true));
    const box = range.getBoundingClientRect();
    return {left: box.left, right: box.right, top: box.top, bottom: box.bottom};
  });
}"""


def _drawn_in_order(page, selector: str, pieces: list[str]) -> bool:
    """Whether ``pieces``, found in this order in the text of ``selector``, are drawn
    left to right on one line."""
    boxes = page.evaluate(_RECTS, [selector, pieces])
    assert None not in boxes, (selector, pieces, boxes)
    # on one line: a piece broken over two would span both
    assert len({(round(b["top"]), round(b["bottom"])) for b in boxes}) == 1, (selector, boxes)
    return all(a["right"] <= b["left"] + 0.5 for a, b in zip(boxes, boxes[1:], strict=False))


def _strip_isolates(page, selector: str) -> None:
    """The control: the element's text as it was before pgm isolated names."""
    page.evaluate("""(selector) => {
      const element = document.querySelector(selector);
      element.textContent = element.textContent.replace(/[\\u2066-\\u2069]/g, "");
    }""", selector)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    site = built(tmp_path_factory.mktemp("bidi-browser"),
                 {"r1/heb.gcg": hebrew_record(), "r1/ar.gcg": arabic_record()})
    with serve(site) as url, chromium() as browser, \
            open_page(browser, viewport={"width": 1400, "height": 900}) as page:
        yield url, page


STATUS_AR = [ARABIC, "393", "Ruth", "539", "Ruth", "won"]
STATUS_HE = ["Josh Castellano", "384", HEBREW, "423", HEBREW, "won"]


def test_the_event_index_keeps_each_score_beside_its_player(served) -> None:
    url, page = served
    page.goto(url + "index.html")
    ar = 'tr[data-game="r1/ar"] .status-text'
    he = 'tr[data-game="r1/heb"] .status-text'
    assert _drawn_in_order(page, ar, STATUS_AR)
    assert _drawn_in_order(page, he, STATUS_HE)
    assert _drawn_in_order(page, 'tr[data-game="r1/ar"] a', [ARABIC, "vs", "Ruth"])
    _strip_isolates(page, ar)
    _strip_isolates(page, he)
    assert not _drawn_in_order(page, ar, STATUS_AR)
    assert not _drawn_in_order(page, he, STATUS_HE)


def test_live_json_text_set_as_text_keeps_each_score_beside_its_player(served) -> None:
    """pgm-live.js puts live.json's status in the index with textContent: the isolates
    are plain characters there, and work as such."""
    url, page = served
    page.goto(url + "index.html")
    statuses = page.evaluate("""async () => {
      const data = await (await fetch("live.json", {cache: "no-store"})).json();
      const statuses = {};
      for (const game of data.games) {
        const cell = document.querySelector(`tr[data-game="${game.slug}"] .status-text`);
        cell.textContent = game.status;
        statuses[game.slug] = game.status;
      }
      return statuses;
    }""")
    assert statuses["r1/heb"].count(FSI) == statuses["r1/heb"].count(PDI) == 2
    assert _drawn_in_order(page, 'tr[data-game="r1/ar"] .status-text', STATUS_AR)
    assert _drawn_in_order(page, 'tr[data-game="r1/heb"] .status-text', STATUS_HE)


def test_the_game_page_keeps_each_score_beside_its_player(served) -> None:
    url, page = served
    page.goto(url + "r1/ar/index.html")
    assert _drawn_in_order(page, "p.result", STATUS_AR)
    assert _drawn_in_order(page, "ul.legend li.s1", [ARABIC, "393"])
    assert page.title() == f"{FSI}{ARABIC}{PDI} vs Ruth · Games"
    label = page.locator("svg[role=img]").get_attribute("aria-label")
    assert label == f"Scores after each turn, {FSI}{ARABIC}{PDI} 393, Ruth 539"
    _strip_isolates(page, "p.result")
    assert not _drawn_in_order(page, "p.result", STATUS_AR)


def test_a_turn_page_keeps_the_move_and_the_result_beside_the_player(served) -> None:
    url, page = served
    page.goto(url + "r1/heb/2.html")
    move = [HEBREW, "played", "HI", "9I", "across"]
    assert _drawn_in_order(page, "p.move-text", move)
    assert page.title().startswith(f"Turn 2: {FSI}{HEBREW}{PDI} played HI")
    assert page.locator(f'.score-table th bdi:text-is("{HEBREW}")').count() == 1
    page.goto(url + "r1/ar/1.html")
    assert _drawn_in_order(page, "p.move-text", [ARABIC, "played", "WAITE", "8D", "across"])
    page.goto(url + "r1/ar/26.html")
    result = "section.scores p.result"
    assert _drawn_in_order(page, result, ["Result:", *STATUS_AR])
    _strip_isolates(page, result)
    assert not _drawn_in_order(page, result, ["Result:", *STATUS_AR])


def test_the_unseen_heading_keeps_its_count_after_the_player(served) -> None:
    url, page = served
    for number in range(1, 24):
        page.goto(url + f"r1/heb/{number}.html")
        if page.locator("#unseen-h bdi").count():
            assert _drawn_in_order(page, "#unseen-h", ["Unseen by", HEBREW, ":"])
            return
    pytest.fail("no turn page of the game says whose view its unseen tiles are")


def test_the_player_index_keeps_the_result_after_the_opponent(served) -> None:
    """(The result's first letter, W, L or T, would keep it in place here even without
    the isolate: the check is that the isolate changes nothing of it.)"""
    url, page = served
    page.goto(url + "players.html")
    row = page.locator("tr", has=page.locator('th:text-is("Josh Castellano")'))
    pieces = ["R1", "vs", HEBREW, "L", "384–423"]
    selector = f"#{row.get_attribute('id')} ul.inline li"
    assert _drawn_in_order(page, selector, pieces)

"""``pgm build`` with Upwords records: the stack height of every square on the pages (as a
visible number and in its accessible name) after chosen events, against the replay; the
board as UBF on every turn page; navigation, overview and errors."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser

import pytest
from conftest import SAMPLE_GAMES
from sitehelpers import build_sample, make_event, run_build, text_of

from pgm.gcg import parse_gcg
from pgm.scoring import square_name
from pgm.ubf import SIZE, read_ubf
from pgm.upwords import UpwordsGame, replay

RECORD = SAMPLE_GAMES / "upwords/upwords-sample.gcg"
SLUG = "upwords/upwords-sample"
CHOSEN = (1, 2, 4, 9, 10, 12, 13, 14, 15, 16, 19)
"""The first play, the first stacks, the exchange, D9 growing to 4, F5 to 5, the pass,
the last event."""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_sample(tmp_path_factory.mktemp("upwords") / "site")


@pytest.fixture(scope="module")
def game() -> UpwordsGame:
    return replay(parse_gcg(RECORD.read_bytes(), str(RECORD)))


class _Stacks(HTMLParser):
    """Square name -> (accessible name, height drawn on the square, classes)."""

    def __init__(self) -> None:
        super().__init__()
        self.squares: dict[str, tuple[str, str, set[str]]] = {}
        self._classes: set[str] | None = None
        self._name: list[str] | None = None
        self._height: list[str] | None = None
        self._label = ""
        self._shown = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = set((dict(attrs).get("class") or "").split())
        if tag == "td":
            self._classes = classes if "sq" in classes else None
            self._label, self._shown = "", ""
        elif tag == "span" and self._classes is not None:
            if "visually-hidden" in classes:
                self._name = []
            elif "ht" in classes:
                self._height = []

    def handle_data(self, data: str) -> None:
        for part in (self._name, self._height):
            if part is not None:
                part.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._name is not None:
            self._label, self._name = "".join(self._name), None
        elif tag == "span" and self._height is not None:
            self._shown, self._height = "".join(self._height), None
        elif tag == "td" and self._classes is not None:
            self.squares[self._label.split(":")[0]] = (self._label, self._shown, self._classes)
            self._classes = None


def stacks(html: str) -> dict[str, tuple[str, str, set[str]]]:
    board = html.split('<table class="board upwords-board', 1)[1].split("</table>", 1)[0]
    parser = _Stacks()
    parser.feed('<table class="board upwords-board' + board + "</table>")
    return parser.squares


def ubf_box(html: str) -> str:
    found = re.search(r'<textarea id="ubf-text"[^>]*>(.*?)</textarea>', html, re.S)
    assert found
    return unescape(found.group(1))


@pytest.mark.parametrize("number", CHOSEN)
def test_every_square_shows_its_stack_height_after_chosen_events(site, game: UpwordsGame,
                                                                 number: int) -> None:
    turn = game.turns[number - 1]
    html = (site / SLUG / f"{number}.html").read_text(encoding="utf-8")
    squares = stacks(html)
    assert len(squares) == SIZE * SIZE
    for row in range(SIZE):
        for col in range(SIZE):
            name = square_name(row, col)
            label, shown, classes = squares[name]
            stack = turn.position.board.at(row, col)
            if stack is None:
                assert label == f"{name}: empty" and shown == "", label
                continue
            letter = "Qu" if stack.letter == "Q" else stack.letter
            assert label.startswith(f"{name}: {letter}, height {stack.height}"), label
            assert shown == str(stack.height), (name, shown)
            assert f"h{stack.height}" in classes
    just = {name for name, (label, _, _) in squares.items() if label.endswith("just played")}
    assert just == {square_name(r, c) for r, c in turn.stacked}
    assert {name for name, (_, _, classes) in squares.items() if "new" in classes} == just


def test_the_names_read_like_the_readme_says(site) -> None:
    squares = stacks((site / SLUG / "15.html").read_text(encoding="utf-8"))
    assert squares["F5"][0] == "F5: I, height 5, just played"
    # 5D ..I.. plays through S, H, R and T.
    assert squares["D5"][0] == "D5: S, height 2, played through"
    assert squares["H9"][0] == "H9: D, height 1"
    assert squares["A1"][0] == "A1: empty"


@pytest.mark.parametrize("number", CHOSEN)
def test_every_turn_page_offers_the_board_as_ubf(site, game: UpwordsGame, number: int) -> None:
    html = (site / SLUG / f"{number}.html").read_text(encoding="utf-8")
    box = ubf_box(html)
    assert box == game.ubf(number - 1)
    read = read_ubf(box)
    assert read.diagnostics == () and read.board == game.turns[number - 1].position.board
    assert '<label for="ubf-text">Board (UBF)</label>' in html and "readonly" in html


def test_turn_page_has_the_move_scores_racks_notes_and_navigation(site) -> None:
    html = (site / SLUG / "2.html").read_text(encoding="utf-8")
    text = text_of(html)
    assert "Tobias Brandt played S(H)O(RT) at 5D across for 7 points (2 tiles, 2 on top of " \
           "other tiles)" in text
    assert "Rack: DELNOSU" in text and "Words: SHORT" in text
    # The scores as recorded, and each rack from its player's next line: Tobi's from
    # the exchange two lines on.
    assert re.search(r"Mara Lindqvist to move\s+10 \(\+3\)\s+AEIMSWY", text)
    assert re.search(r"Tobias Brandt\s+7 \(-3\)\s+DELNUUV", text)
    for link in ('href="1.html" class="first"', 'href="1.html" rel="prev"',
                 'href="3.html" rel="next"', 'href="19.html" class="last"'):
        assert link in html
    assert '<script src="../../static/pgm.js" defer></script>' in html
    assert 'aria-live="polite"' in html
    exchange = text_of((site / SLUG / "4.html").read_text(encoding="utf-8"))
    assert "Tobias Brandt exchanged 1 tile (V)" in exchange
    assert "a single-tile exchange, as the Upwords rules allow" in exchange
    assert "Tobias Brandt passed" in text_of((site / SLUG / "16.html").read_text())


def test_overview_index_and_game_json(site, game: UpwordsGame) -> None:
    overview = (site / SLUG / "index.html").read_text(encoding="utf-8")
    assert '<a href="moves.csv" download>' in overview and '<a href="input.gcg" download>' in \
        overview
    assert "Board at the end of the record" in overview
    final = stacks(overview)
    assert final["D9"][0] == "D9: D, height 4" and final["A10"][0] == "A10: T, height 2"
    assert text_of(overview).count("S(H)O(RT)") == 1
    index = text_of((site / "index.html").read_text(encoding="utf-8"))
    assert "Upwords" in index and "Club night, board 2: Mara vs Tobi" in index
    assert "in progress: Mara Lindqvist 89 – Tobias Brandt 66" in index
    data = json.loads((site / SLUG / "game.json").read_text(encoding="utf-8"))
    assert data["game"] == "upwords" and data["turns"] == len(game.turns) == 19
    assert data["live"] is True and data["events"][14]["ubf"] == game.ubf(14)
    players = text_of((site / "players.html").read_text(encoding="utf-8"))
    assert "Mara Lindqvist" in players


def test_a_sixth_tile_stops_the_game_with_the_error_on_its_last_page(tmp_path) -> None:
    body = "#game-type upwords\n#player1 ann Ann\n#player2 bob Bob\n" + "".join(
        f">{'ann' if i % 2 == 0 else 'bob'}: ? 5E {letter} +2 {2 * (i // 2 + 1)}\n"
        for i, letter in enumerate("ABCDEF"))
    event = make_event(tmp_path / "ev", {"u.gcg": body.encode()})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert "u.gcg:9: error: 5E F: F on E5 would make a stack of 6" in result.output
    folder = tmp_path / "o/u"
    assert (folder / "5.html").is_file() and not (folder / "6.html").exists()
    last = (folder / "5.html").read_text()
    assert "would make a stack of 6" in last
    assert stacks(last)["E5"][0] == "E5: E, height 5, just played"


@pytest.mark.parametrize("number", [1, 9, 19])
def test_the_turn_page_sheet_marks_its_own_turn_only(site, number) -> None:
    page = (site / SLUG / f"{number}.html").read_text(encoding="utf-8")
    sheet = page.split('<table class="sheet">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr class="([^"]*)"><td><a href="(\d+)\.html"( aria-current="page")?',
                      sheet)
    assert [int(n) for _, n, _ in rows] == list(range(1, 20))
    marked = [(int(n), "current" in classes.split(), bool(aria)) for classes, n, aria in rows
              if "current" in classes.split() or aria]
    assert marked == [(number, True, True)]
    overview = (site / SLUG / "index.html").read_text(encoding="utf-8")
    assert "aria-current" not in overview.split('<table class="sheet">', 1)[1]


def test_a_spoiler_free_event_lists_no_turn_after_the_page_s_own(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"event.yaml": "spoiler_free: true\n",
                                         "g.gcg": RECORD.read_bytes()})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    page = (tmp_path / "o/g/9.html").read_text(encoding="utf-8")
    sheet = page.split('<table class="sheet">', 1)[1].split("</table>", 1)[0]
    assert re.findall(r'<td><a href="(\d+)\.html"', sheet) == [str(n) for n in range(1, 10)]
    assert "Turns so far" in page
    assert '<table class="sheet">' not in (tmp_path / "o/g/index.html").read_text()


def test_a_phoney_is_marked_on_the_score_sheet(tmp_path) -> None:
    """As on a crossword game's sheet: the play taken back is struck through and marked,
    the other plays are not."""
    lines = RECORD.read_bytes().splitlines(keepends=True)
    third = next(i for i, line in enumerate(lines) if line.startswith(b">Mara: AEIMSWY"))
    record = b"".join(lines[:third + 1] + [b">Mara: AEIMSWY -- -10 10\n"] + lines[third + 1:])
    event = make_event(tmp_path / "ev", {"g.gcg": record})
    run_build(str(event), "-o", str(tmp_path / "site"))
    sheet = (tmp_path / "site/g/index.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr class="([^"]*)"><td><a href="(\d+)\.html"', sheet)
    assert [number for classes, number in rows if "phoney" in classes.split()] == ["3"]


def test_a_multi_line_note_keeps_its_lines(tmp_path) -> None:
    """As on crossword turn pages: each line of a note is a line on the page."""
    note = b"#note Tobi throws back the V: a single-tile exchange, as the Upwords rules allow."
    record = RECORD.read_bytes()
    assert note in record
    event = make_event(tmp_path / "ev", {"g.gcg": record.replace(
        note, b"#note Tobi throws back the V:\na single-tile exchange,\n<i>as allowed</i>")})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    page = (tmp_path / "o/g/4.html").read_text(encoding="utf-8")
    assert ('<li class="note"><p>Tobi throws back the V:<br>\na single-tile exchange,<br>\n'
            "&lt;i&gt;as allowed&lt;/i&gt;</p>\n</li>") in page


def test_a_qu_tile_typed_qu_is_one_square_on_the_turn_page(tmp_path) -> None:
    """``QUIT`` puts three tiles down: the Qu tile shows "Qu", the square after the T is
    empty (not ringed as played through), and the words spell QUIT."""
    record = (b"#game-type upwords\n#player1 ann Ann\n#player2 bob Bob\n"
              b">ann: ? 5E QUIT +8 8\n>bob: ? 6E A +4 4\n")
    event = make_event(tmp_path / "ev", {"g.gcg": record})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    page = (tmp_path / "o/g/1.html").read_text(encoding="utf-8")
    squares = stacks(page)
    assert [squares[name][0] for name in ("E5", "F5", "G5", "H5")] == [
        "E5: Qu, height 1, just played", "F5: I, height 1, just played",
        "G5: T, height 1, just played", "H5: empty"]
    assert "through" not in squares["H5"][2]
    assert "Ann played QuIT at 5E across for 8 points (3 tiles)" in text_of(page)
    assert "Words: QUIT" in text_of(page)
    assert "Line 4: warning: 5E QUIT: the Qu tile is written Q; 'QU' is read as one Qu " \
           "tile" in text_of(page)
    assert "Words: QUA" in text_of((tmp_path / "o/g/2.html").read_text(encoding="utf-8"))

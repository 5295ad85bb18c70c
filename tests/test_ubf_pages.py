"""``pgm build`` with Upwords boards (.ubf): the spec's example drawn with every stack's
height, read back from the page; the UBF box, input.ubf and game.json; a broken file; the
index, players, live.json, sitemap and moves; rebuilds and watching; escaping."""

from __future__ import annotations

import csv
import io
import json
import re
import time
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
import watchfiles
from click.testing import CliRunner
from conftest import SAMPLE_GAMES, SHARED
from sitehelpers import make_event, run_build, text_of, wait_for, watching

from pgm.build import BuildOptions, build
from pgm.check import supported_extensions
from pgm.cli import main
from pgm.discover import RECORD_EXTENSIONS
from pgm.gcg import parse_gcg
from pgm.live import _relevant
from pgm.scoring import square_name
from pgm.ubf import SIZE, UpwordsBoard, read_ubf
from pgm.ubf_pages import ubf_entry_fields
from pgm.upwords import replay

SPEC = (SHARED / "specs/upwords-ubf.md").read_text(encoding="utf-8")
EXAMPLE = SPEC.split("```")[-2].strip("\n") + "\n"
"""The spec's sample mid-game board, exactly as the spec writes it."""
SAMPLE = SAMPLE_GAMES / "upwords/example.ubf"
SLUG = "upwords/example"
SITE_KEYS = {"format", "title", "slug", "round", "division", "table", "live", "updated",
             "record", "turns"}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ubf") / "site"
    result = run_build(str(SAMPLE_GAMES), "-o", str(out), "--strict",
                       "--base-url", "https://example.org/event/")
    assert result.exit_code == 0, result.output
    return out


class _Stacks(HTMLParser):
    """Square name -> (accessible name, letter drawn, height drawn, classes) of the first
    Upwords board of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.squares: dict[str, tuple[str, str, str, set[str]]] = {}
        self._cell: dict[str, str] | None = None
        self._part: str | None = None
        self._classes: set[str] = set()
        self._done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = set((dict(attrs).get("class") or "").split())
        if self._done:
            return
        if tag == "td" and "sq" in classes:
            self._cell, self._classes = {"name": "", "l": "", "ht": ""}, classes
        elif tag == "span" and self._cell is not None:
            self._part = "name" if "visually-hidden" in classes else \
                "l" if "l" in classes else "ht" if "ht" in classes else None

    def handle_data(self, data: str) -> None:
        if self._cell is not None and self._part is not None:
            self._cell[self._part] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            self._part = None
        elif tag == "td" and self._cell is not None:
            cell = self._cell
            self.squares[cell["name"].split(":")[0]] = (cell["name"], cell["l"], cell["ht"],
                                                        self._classes)
            self._cell = None
        elif tag == "table" and self.squares:
            self._done = True


def stacks(html: str) -> dict[str, tuple[str, str, str, set[str]]]:
    parser = _Stacks()
    parser.feed(html)
    return parser.squares


def ubf_box(html: str) -> str:
    found = re.search(r'<textarea id="ubf-text"[^>]*>(.*?)</textarea>', html, re.S)
    assert found
    return unescape(found.group(1))


def assert_drawn(html: str, board: UpwordsBoard) -> None:
    """Every square on the page says and shows what ``board`` holds there."""
    squares = stacks(html)
    assert len(squares) == SIZE * SIZE
    for row in range(SIZE):
        for col in range(SIZE):
            name = square_name(row, col)
            label, letter, height, classes = squares[name]
            stack = board.at(row, col)
            if stack is None:
                assert (label, letter, height) == (f"{name}: empty", "", ""), name
                assert "tile" not in classes
                continue
            shown = "Qu" if stack.letter == "Q" else stack.letter
            assert label == f"{name}: {shown}, height {stack.height}"
            assert (letter, height) == (shown, str(stack.height)), name
            assert {"tile", f"h{stack.height}"} <= classes and "new" not in classes


def test_the_sample_event_holds_the_spec_example() -> None:
    assert SAMPLE.read_text(encoding="utf-8") == EXAMPLE
    assert read_ubf(SAMPLE.read_bytes()).diagnostics == ()


def test_the_spec_example_renders_with_its_heights(site) -> None:
    html = (site / SLUG / "index.html").read_text(encoding="utf-8")
    board = read_ubf(SAMPLE.read_bytes()).board
    assert_drawn(html, board)
    squares = stacks(html)
    # spot checks against the spec's text: '5F' in row 3, column 4; '2M' in row 8, column 8
    assert squares["E4"][0] == "E4: F, height 5"
    assert squares["I9"][0] == "I9: M, height 2"
    assert sum(1 for s in squares.values() if s[2]) == 30
    assert "<h1>Upwords board: example.ubf</h1>" in html
    assert "Upwords board: 74 tiles in 30 stacks" in text_of(html)
    # the key explains the heights; a lone board has no move to outline or ring
    assert "height of its stack" in text_of(html) and "just played" not in text_of(html)


@pytest.mark.parametrize(("rows", "status"), [
    ((), "Upwords board: no tiles"),
    (("['1A', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']",),
     "Upwords board: 1 tile in 1 stack"),
    (("['2A', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']",),
     "Upwords board: 2 tiles in 1 stack"),
    (("['5A', '1B', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']",),
     "Upwords board: 6 tiles in 2 stacks"),
])
def test_the_status_counts_the_tiles_of_every_stack(rows: tuple[str, ...], status: str
                                                    ) -> None:
    """A square holds a stack: the spec's example has 74 tiles on 30 squares."""
    empty = "['0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ', '0 ']"
    text = ",\n".join(list(rows) + [empty] * (10 - len(rows))) + "\n"
    assert ubf_entry_fields(read_ubf(text))["status"] == status


def test_the_ubf_box_reads_back_to_the_same_board(site) -> None:
    html = (site / SLUG / "index.html").read_text(encoding="utf-8")
    box = ubf_box(html)
    assert box == EXAMPLE
    assert read_ubf(box) == read_ubf(SAMPLE.read_bytes(), "<ubf>")


def test_the_file_is_kept_byte_identical(site) -> None:
    assert (site / SLUG / "input.ubf").read_bytes() == SAMPLE.read_bytes()
    assert 'href="input.ubf" download' in (site / SLUG / "index.html").read_text()
    assert sorted(p.name for p in (site / SLUG).iterdir()) == ["game.json", "index.html",
                                                               "input.ubf"]


def test_game_json_is_the_check_report_plus_the_site_keys(site) -> None:
    shown = json.loads((site / SLUG / "game.json").read_text(encoding="utf-8"))
    checked = CliRunner().invoke(main, ["check", "--json", str(SAMPLE)])
    assert checked.exit_code == 0, checked.output
    [report] = json.loads(checked.stdout)
    assert set(shown) == set(report) | SITE_KEYS
    assert {k: v for k, v in shown.items() if k not in SITE_KEYS} == \
        dict(report, path="upwords/example.ubf")
    assert {k: shown[k] for k in SITE_KEYS - {"updated"}} == {
        "format": "pgm-game/1", "title": "Upwords board: example.ubf", "slug": SLUG,
        "round": None, "division": "Upwords", "table": None, "live": False,
        "record": "input.ubf", "turns": 0}


def test_the_index_lists_the_board_and_nothing_counts_it_as_a_game(site) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    row = re.search(r'<tr class="final" data-game="upwords/example">(.*?)</tr>', index,
                    re.S)
    assert row, "no row for the board"
    assert 'href="upwords/example/index.html">Upwords board: example.ubf</a>' \
        in row.group(1)
    assert '<span class="status-text">Upwords board: 74 tiles in 30 stacks</span>' \
        in row.group(1)
    assert "badge error" not in row.group(1)
    assert '<td class="turns"></td>' in row.group(1)  # a board has no turns to count
    assert "upwords/example" not in (site / "players.html").read_text(encoding="utf-8")
    listed = {g["slug"]: g for g in json.loads((site / "live.json").read_text())["games"]}
    assert (listed[SLUG]["live"], listed[SLUG]["turns"], listed[SLUG]["status"]) == \
        (False, 0, "Upwords board: 74 tiles in 30 stacks")
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert re.findall(r"<loc>([^<]*upwords/example[^<]*)</loc>", sitemap) == \
        ["https://example.org/event/upwords/example/index.html"]
    page = (site / SLUG / "index.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://example.org/event/upwords/example/' \
        'index.html">' in page
    rows = list(csv.DictReader(io.StringIO((site / "moves.csv").read_text(encoding="utf-8"))))
    assert rows and not [r for r in rows if r["game"].endswith(".ubf")]


def test_build_check_export_and_watch_find_the_same_files(tmp_path) -> None:
    assert sorted(RECORD_EXTENSIONS) == supported_extensions()
    event = make_event(tmp_path / "ev", {"boards/final.ubf": EXAMPLE})
    checked = CliRunner().invoke(main, ["check", "--json", str(event)])
    assert checked.exit_code == 0 and json.loads(checked.stdout)[0]["game"] == "upwords-board"
    exported = CliRunner().invoke(main, ["export", str(event)])
    assert exported.exit_code == 0, exported.output
    assert exported.stdout.splitlines() == [
        "game,turn,player,rack,position,word,score,cumulative,kind,notation"]
    out = tmp_path / "site"
    assert _relevant(event, out, watchfiles.Change.modified, str(event / "boards/final.ubf"))
    result = run_build(str(event), "-o", str(out))
    assert result.exit_code == 0 and "Built 1 record" in result.output, result.output


def test_a_broken_board_gets_its_page_and_fails_the_build(tmp_path) -> None:
    text = EXAMPLE.replace("'3H'", "'7H'").replace("'1M'", "'1m'").replace("'2M'", "'2Mx'")
    event = make_event(tmp_path / "ev", {"bad.ubf": text, "good.ubf": EXAMPLE})
    out = tmp_path / "site"
    result = run_build(str(event), "-o", str(out))
    assert result.exit_code == 1
    found = read_ubf(text.encode(), "bad.ubf")
    assert [(d.line, d.column, d.severity.value) for d in found.diagnostics] == [
        (2, 8, "warning"), (3, 14, "error"), (9, 50, "error")]
    for diagnostic in found.diagnostics:
        assert str(diagnostic) in result.output
    assert f"Records with errors (rendered up to the problem): {event}/bad.ubf" in result.output
    html = (out / "bad/index.html").read_text(encoding="utf-8")
    assert_drawn(html, found.board)  # the best reading: the bad squares empty
    assert found.board.at(2, 2) is None and found.board.at(1, 1) is not None
    problems = text_of(html.split('class="problems"', 1)[1].split("</section>", 1)[0])
    assert "Line 2, column 8: warning: square '1m'" in problems
    assert "Line 3, column 14: error: square '7H': height 7 is over the stacking limit" \
        in problems
    assert "Line 9, column 50: error: square '2Mx'" in problems
    assert read_ubf(ubf_box(html)).board == found.board
    assert (out / "bad/input.ubf").read_text(encoding="utf-8") == text
    report = json.loads((out / "bad/game.json").read_text(encoding="utf-8"))
    assert report["diagnostics"] == [d.to_json() for d in found.diagnostics]
    assert report["board"] == found.board.to_json()
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "2 errors" in text_of(index.split('data-game="bad"', 1)[1].split("</tr>", 1)[0])
    assert "problems" not in (out / "good/index.html").read_text(encoding="utf-8")


def test_a_board_drawn_from_a_turn_page_reads_like_that_page(tmp_path) -> None:
    """The Upwords sample's last turn written to a .ubf: its page names every square as
    the turn page does, less what the turn played."""
    record = SAMPLE_GAMES / "upwords/upwords-sample.gcg"
    game = replay(parse_gcg(record.read_bytes(), "r"))
    event = make_event(tmp_path / "ev", {"game.gcg": record.read_bytes(),
                                         "board.ubf": game.ubf(len(game.turns) - 1)})
    out = tmp_path / "site"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    turn = stacks((out / f"game/{len(game.turns)}.html").read_text(encoding="utf-8"))
    board = stacks((out / "board/index.html").read_text(encoding="utf-8"))

    def plain(label: str) -> str:
        return label.removesuffix(", just played").removesuffix(", played through")

    assert {n: (plain(s[0]), s[1], s[2]) for n, s in turn.items()} == \
        {n: s[:3] for n, s in board.items()}
    assert_drawn((out / "board/index.html").read_text(encoding="utf-8"),
                 game.turns[-1].position.board)


def test_a_board_is_never_in_progress_even_when_the_event_says_live(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"event.yaml": "live: true\n", "b.ubf": EXAMPLE})
    out = tmp_path / "site"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    assert json.loads((out / "b/game.json").read_text())["live"] is False
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "data-waiting" in index and "in progress" not in index


def test_names_with_html_are_escaped(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "<i>bold<i> & co.ubf": EXAMPLE, "t.ubf": EXAMPLE,
        "event.yaml": 'games:\n  t.ubf:\n    title: "<script>alert(1)</script>"\n'})
    out = tmp_path / "site"
    result = run_build(str(event), "-o", str(out), "--strict")
    assert result.exit_code == 0, result.output
    index = (out / "index.html").read_text(encoding="utf-8")
    page = (out / "i-bold-i-co/index.html").read_text(encoding="utf-8")
    titled = (out / "t/index.html").read_text(encoding="utf-8")
    for html in (index, page, titled):
        assert "<i>bold" not in html and "<script>alert" not in html
    assert "<h1>Upwords board: &lt;i&gt;bold&lt;i&gt; &amp; co.ubf</h1>" in page
    assert "The board of &lt;i&gt;bold&lt;i&gt; &amp; co.ubf" in page
    assert "Upwords board: &lt;i&gt;bold&lt;i&gt; &amp; co.ubf</a>" in index
    assert "<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>" in titled
    assert json.loads((out / "t/game.json").read_text())["title"] == \
        "<script>alert(1)</script>"


def test_a_changed_board_is_rebuilt_alone(tmp_path) -> None:
    record = (SAMPLE_GAMES / "upwords/upwords-sample.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {"b.ubf": EXAMPLE, "g.gcg": record})
    out = tmp_path / "site"
    first = build(BuildOptions(event, out, jobs=1))
    assert first.rendered_games == 2 and not first.errors
    again = build(BuildOptions(event, out, jobs=1))
    assert again.rendered_games == 0 and again.files_written == 0
    changed = EXAMPLE.replace("'0 ', '0 ', '0 ', '0 ']\n", "'0 ', '0 ', '0 ', '4Z']\n")
    (event / "b.ubf").write_text(changed, encoding="utf-8")
    result = build(BuildOptions(event, out, jobs=1))
    assert result.rendered_games == 1 and not result.errors
    html = (out / "b/index.html").read_text(encoding="utf-8")
    assert stacks(html)["J10"][0] == "J10: Z, height 4"
    assert "Upwords board: 78 tiles in 31 stacks" in \
        (out / "index.html").read_text(encoding="utf-8")
    assert (out / "b/input.ubf").read_text(encoding="utf-8") == changed


def test_a_half_saved_board_keeps_its_last_good_page_while_watched(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"b.ubf": EXAMPLE})
    out = tmp_path / "site"
    build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    good = (out / "b/index.html").read_bytes()
    (event / "b.ubf").write_text(EXAMPLE[: len(EXAMPLE) // 2], encoding="utf-8")
    result = build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    assert result.errors and result.kept_games == 1
    assert (out / "b/index.html").read_bytes() == good


def test_watch_adds_and_redraws_a_board(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"r1/a.ubf": EXAMPLE})
    out = tmp_path / "site"
    with watching(BuildOptions(event, out)):
        assert wait_for(lambda: (out / "r1/a/index.html").is_file())
        time.sleep(0.3)  # let the watcher settle before the director saves
        (event / "r1/b.ubf").write_text(EXAMPLE, encoding="utf-8")
        assert wait_for(lambda: (out / "r1/b/index.html").is_file())
        changed = EXAMPLE.replace("'1M'", "'2Q'")
        (event / "r1/a.ubf").write_text(changed, encoding="utf-8")
        assert wait_for(lambda: "B2: Qu, height 2" in (out / "r1/a/index.html").read_text(
            encoding="utf-8"))

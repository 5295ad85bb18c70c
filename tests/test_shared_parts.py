"""What the game kinds share is written once: the score sheet partial of crossword and
Upwords pages (so a theme that replaces it changes every page showing a sheet), the style
of a gap row in a turn list, the title of a turn or ply page, and the kind of a board."""

from __future__ import annotations

import inspect
import json
import re
from html import unescape

import pytest
from conftest import CORPUS, SAMPLE_GAMES
from markupsafe import escape
from sitehelpers import make_event, run_build

import pgm.crossword_turns
import pgm.games
import pgm.gungi_pages
import pgm.upwords_pages
from pgm.page_parts import turn_title
from pgm.resources import builtin_dir
from pgm.ubf_report import KIND

UPWORDS = SAMPLE_GAMES / "upwords"


def _sheet(html: str) -> str:
    return html.split('<table class="sheet">', 1)[1].split("</table>", 1)[0]


def test_a_theme_s_score_sheet_is_on_upwords_game_and_turn_pages(tmp_path) -> None:
    """``partials/sheet.html`` of a theme replaced the sheet of an Upwords game page but
    not of its turn pages, which included a copy of their own."""
    sheet = (builtin_dir("templates") / "partials/sheet.html").read_text(encoding="utf-8")
    assert "<caption>Score sheet</caption>" in sheet
    event = make_event(tmp_path / "ev", {
        "upwords-sample.gcg": (UPWORDS / "upwords-sample.gcg").read_bytes(),
        "example.ubf": (UPWORDS / "example.ubf").read_bytes(),
        "event.yaml": "theme_dir: theme\n",
        "theme/partials/sheet.html": sheet.replace("Score sheet", "THEMED SHEET")})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--strict")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "o/upwords-sample"
    for page in ("index.html", "1.html", "3.html", "19.html"):
        assert "<caption>THEMED SHEET</caption>" in (folder / page).read_text(), page
    assert not (builtin_dir("templates") / "partials/upwords_sheet.html").exists()


def test_the_score_sheet_writes_its_marks_as_references(tmp_path) -> None:
    """A crossword game page's sheet is plain ASCII, its note and problem marks written
    as references to the same characters, and said in words to a screen reader."""
    event = make_event(tmp_path / "ev", {
        "noted.gcg": (SAMPLE_GAMES / "round-1/table-1.gcg").read_bytes(),
        "flagged.gcg": (CORPUS / "gcg/quackle__multiplayer-crash.gcg").read_bytes()})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    noted = _sheet((tmp_path / "o/noted/index.html").read_text(encoding="utf-8"))
    flagged = _sheet((tmp_path / "o/flagged/index.html").read_text(encoding="utf-8"))
    # the marks are named to a screen reader too, which reads no title
    assert ('<span class="note-mark" title="has notes"><span aria-hidden="true">&#9998;'
            '</span><span class="visually-hidden"> (has notes)</span></span>') in noted
    assert ('<span class="flag-mark" title="see the problems noted on this turn"><span '
            'aria-hidden="true">&#9888;</span><span class="visually-hidden"> (problem noted)'
            '</span></span>') in flagged
    assert noted.isascii() and flagged.isascii()
    assert unescape("&#9998;&#9888;") == "\u270e\u26a0"


def test_the_gap_row_style_is_in_the_stylesheet_every_page_links() -> None:
    static = builtin_dir("static")
    rule = "table.sheet tr.gap td"
    assert (static / "pgm.css").read_text().count(rule) == 1
    for name in ("gungi.css", "upwords.css"):
        assert rule not in (static / name).read_text(), name


@pytest.mark.parametrize(("args", "title"), [
    (("Turn", 12, "8G QUIZ 56", "A vs B", False), "Turn 12: 8G QUIZ 56 &middot; A vs B"),
    (("Turn", 12, "8G QUIZ 56", "A vs B", True), "Turn 12: 8G QUIZ 56 &middot; A vs B"),
    (("Turn", 1, "8G QUIZ 56", "A vs B", True), "A vs B &middot; turn 1"),
    (("Ply", 1, "Black&#39;s Pawn", "A vs B", False), "Ply 1: Black&#39;s Pawn &middot; A vs B"),
])
def test_turn_titles(args, title) -> None:
    made = turn_title(*args)
    assert made == title and made.__html__() == title and made.isascii()


EVENT = "Club &lt;Night&gt; &amp; Co"


@pytest.mark.parametrize("spoiler_free", [False, True])
def test_every_turn_and_ply_page_is_titled_by_turn_title(tmp_path, spoiler_free) -> None:
    """The move, the game and the event: a tab, a bookmark or a shared link says which."""
    event = make_event(tmp_path / "ev", {
        "cross.gcg": (SAMPLE_GAMES / "round-1/table-2.gcg").read_bytes(),
        "up.gcg": (UPWORDS / "upwords-sample.gcg").read_bytes(),
        "gungi.gn": (SAMPLE_GAMES / "exhibition/gungi-sample.gn").read_bytes(),
        "event.yaml": f"title: Club <Night> & Co\nspoiler_free: {str(spoiler_free).lower()}\n"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    for slug, noun in (("cross", "Turn"), ("up", "Turn"), ("gungi", "Ply")):
        label = str(escape(json.loads((tmp_path / "o" / slug / "game.json").read_text())["title"]))
        for number in (1, 2):
            html = (tmp_path / "o" / slug / f"{number}.html").read_text()
            title = re.search(r"<title>(.*?)</title>", html).group(1)
            # a move gives a score away, and a Gungi ply none
            if spoiler_free and number == 1 and noun == "Turn":
                assert title == f"{label} &middot; turn 1 &middot; {EVENT}"
            else:
                assert title.startswith(f"{noun} {number}: ")
                assert title.endswith(f" &middot; {label} &middot; {EVENT}")
    for module in (pgm.crossword_turns, pgm.upwords_pages, pgm.gungi_pages):
        source = inspect.getsource(module)
        assert "&middot;" not in source and "turn_title(" in source, module.__name__


def test_the_kind_of_a_board_is_named_once() -> None:
    assert '"upwords-board"' not in inspect.getsource(pgm.games)
    assert pgm.games._KINDS[".ubf"] == KIND

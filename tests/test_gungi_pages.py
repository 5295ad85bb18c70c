"""``pgm build`` with Gungi records: an event mixing .gcg and .gn, pages read back
structurally and compared with the replay."""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import CORPUS, SAMPLE_GAMES
from sitehelpers import make_event, run_build, text_of

from pgm import gungi
from pgm.gungi_position import square_name

EVERY_FORM = (CORPUS / "gn/authored__2_every_move_form.gn").read_bytes()
"""64 plies, Result "*": towers of 2 and 3, check, both recoveries, comments."""
CHECKMATE = (CORPUS / "gn/hkpeprah+gungi__scenario_one.gn").read_bytes()
"""45 drops, Result "0 - 1", no player names."""
WARNED = (CORPUS / "gn/authored__1_commander_capture.gn").read_bytes()
"""A warning on ply 48; Black captures the Commander on ply 49."""
CROSSWORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("gungi")
    event = make_event(root / "ev", {"round-1/table-1.gcg": CROSSWORD,
                                     "round-1/table-2.gn": EVERY_FORM,
                                     "round-1/table-3.gn": CHECKMATE})
    result = run_build(str(event), "-o", str(root / "site"))
    assert result.exit_code == 0, result.output
    return root / "site"


class _Squares(HTMLParser):
    """Square name -> (accessible name, classes), from the hidden text in each square."""

    def __init__(self) -> None:
        super().__init__()
        self.squares: dict[str, tuple[str, set[str]]] = {}
        self._classes: set[str] | None = None
        self._name: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = set((dict(attrs).get("class") or "").split())
        if tag == "td":
            self._classes = classes if "sq" in classes else None
        elif tag == "span" and self._classes is not None and "visually-hidden" in classes:
            self._name = []

    def handle_data(self, data: str) -> None:
        if self._name is not None:
            self._name.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._name is not None and self._classes is not None:
            label = "".join(self._name)
            self.squares[label.split(":")[0]] = (label, self._classes)
            self._name = None
        elif tag == "td":
            self._classes = None


def squares(html: str) -> dict[str, tuple[str, set[str]]]:
    board = html.split('<table class="board gungi-board"', 1)[1].split("</table>", 1)[0]
    parser = _Squares()
    parser.feed("<table " + board)
    return parser.squares


UNIT = re.compile(r"\b(Black|White) (Hidden Dragon|Dragon King|[A-Z][a-z]+)")


def units_named(label: str) -> list[tuple[str, str]]:
    """(owner, face) of every unit an accessible name lists, top first."""
    return UNIT.findall(label)


def test_one_page_per_ply_beside_the_crossword_game(site) -> None:
    for slug, record in (("round-1/table-2", EVERY_FORM), ("round-1/table-3", CHECKMATE)):
        plies = len(gungi.load(record, "x").positions)
        pages = sorted(int(p.stem) for p in (site / slug).glob("[0-9]*.html"))
        assert pages == list(range(1, plies + 1))
    assert len(list((site / "round-1/table-2").glob("[0-9]*.html"))) == 64
    assert (site / "round-1/table-1/1.html").is_file()
    index = (site / "index.html").read_text()
    assert 'href="round-1/table-2/index.html">Sample Black vs Sample White</a> ' \
           '<span class="badge">Gungi</span>' in index
    text = text_of(index)
    assert "Turn One Black Checkmate Gungi Black wins 45" in text
    assert "Sample Black vs Sample White Gungi in progress 64" in text


@pytest.mark.parametrize("number", [1, 23, 46, 51, 55, 58, 64])
def test_board_after_a_ply_matches_the_replay(site, number) -> None:
    game = gungi.load(EVERY_FORM, "x")
    position = game.positions[number - 1]
    shown = squares((site / f"round-1/table-2/{number}.html").read_text())
    assert len(shown) == 81
    for square, tower in enumerate(position.towers):
        label, _ = shown[square_name(square)]
        expected = [(u.colour.title, u.face.title) for u in reversed(tower)]
        assert units_named(label) == expected, label
        if not tower:
            assert label.startswith(f"{square_name(square)}: empty")
        elif len(tower) > 1:
            assert f"tower of {len(tower)}" in label


def test_a_recovery_names_its_square_as_where_a_unit_was_lifted_from(site) -> None:
    game = gungi.load(EVERY_FORM, "x")
    number = next(i for i, ply in enumerate(game.record.plies, 1) if ply.notation == "YN+5-7-0")
    label, classes = squares((site / f"round-1/table-2/{number}.html").read_text())["5-7"]
    assert label == "5-7: empty, unit just recovered from here" and "to" in classes


def test_every_tier_of_two_and_three_high_towers_is_listed(site) -> None:
    html = (site / "round-1/table-2/51.html").read_text()
    label, classes = squares(html)["5-2"]
    assert label == ("5-2: tower of 2 — top: Black Spy (face up, back: Clandestinite), "
                     "below: White Pawn (face up, back: Bronze), just played")
    assert {"h2", "to"} <= classes
    three, classes = squares(html)["7-0"]
    assert three == ("7-0: tower of 3 — top: White Samurai (face up, back: Pike), below: "
                     "White Bow (face up, back: Arrow), White Captain (face up, back: Pistol)")
    assert "h3" in classes
    # Visible without hovering: the top letter with its back, the units below as dots, and
    # the same sentence in the list of towers under the board.
    cell = html.split("7-0: tower of 3", 1)[1].split("</td>", 1)[0]
    assert '<span class="u top white">S<small>E</small></span>' in cell
    assert '<span class="below"><span class="u white">B</span><span class="u white">C</span>' \
           in cell
    towers = html.split('<ul class="towers">', 1)[1].split("</ul>", 1)[0]
    assert "<li>7-0: tower of 3 &mdash; top: White Samurai" in towers
    assert "<li>5-2: tower of 2" in towers


def test_ply_page_shows_move_squares_check_hands_and_captures(site) -> None:
    html = (site / "round-1/table-2/51.html").read_text()
    board = squares(html)
    assert "from" in board["6-4"][1] and board["6-4"][0] == "6-4: empty, moved from here"
    assert "check" in board["4-0"][1]
    assert board["4-0"][0] == "4-0: White Commander, Commander in check"
    assert ('<p class="move-text" aria-live="polite">Black&#39;s Spy from 6-4 strikes '
            "White&#39;s Bow on 5-2, tier 1; White is in check</p>") in html
    text = text_of(html)
    assert "Black played YN<6-4-0x5-2-1" in text
    assert "White to move." in text and "White is in check." in text
    # (text_of puts a space for each tag: the page shows "Arrow/Bow ×1")
    assert "Black: Sample Black 22 on the board · 1 in hand A B Arrow /Bow (back: Bow) ×1" in text
    assert "White: Sample White to move in check" in text
    assert "Captured from White: Bow" in text and "Captured from Black: Pawn" in text
    assert "Mobile Strike on the Bow; Black's Spy now sits on White's" in text
    for name, value in (("Event", "Authored sample 2: every move form"),
                        ("Date", "2024.01.02"), ("Location", "research fixture"),
                        ("White", "Sample White"), ("Black", "Sample Black"),
                        ("Result", "* (in progress)")):
        assert f"<dt>{name}</dt><dd>{value}</dd>" in html
    assert 'href="../../static/gungi.css"' in html


def test_a_ply_pages_hands_have_a_heading_of_their_own(site) -> None:
    """Heading navigation finds the hands under "Hands and captures", not under the
    comments or the ply before them."""
    for number in range(1, 65):
        page = (site / f"round-1/table-2/{number}.html").read_text()
        levels = [(int(level), text_of(text)) for level, text in
                  re.findall(r"<h([1-3])[^>]*>(.*?)</h\1>", page, re.S)]
        black = next(i for i, (level, text) in enumerate(levels) if "Black:" in text)
        assert levels[black - 1] == (2, "Hands and captures"), (number, levels)


def test_comments_are_on_the_ply_they_follow(site) -> None:
    folder = site / "round-1/table-2"
    assert "a capture written in plain Move form" in (folder / "50.html").read_text()
    assert "a capture written in plain Move form" not in (folder / "49.html").read_text()
    overview = text_of((folder / "index.html").read_text())
    # The two header lines are one remark, so they are one paragraph.
    assert ("AUTHORED SAMPLE (written for research, not a real game): uses every move form "
            "of the notation at least once.") in overview


def test_record_and_game_json(site) -> None:
    folder = site / "round-1/table-2"
    assert (folder / "input.gn").read_bytes() == EVERY_FORM
    data = json.loads((folder / "game.json").read_text())
    assert data["game"] == "gungi" and data["format"] == "pgm-game/1"
    assert data["players"] == ["Sample Black", "Sample White"]
    assert (data["slug"], data["round"], data["table"], data["record"]) == (
        "round-1/table-2", "1", "2", "input.gn")
    assert data["live"] is True and data["turns"] == 64 == len(data["events"])
    assert data["title"] == "Sample Black vs Sample White" and data["updated"]
    assert data["result"] == "*" and data["division"] is None
    assert data["events"][50]["notation"] == "YN<6-4-0x5-2-1"
    finished = json.loads((site / "round-1/table-3/game.json").read_text())
    assert finished["live"] is False and finished["title"] == "Turn One Black Checkmate"


def test_navigation_and_ply_list(site) -> None:
    folder = site / "round-1/table-2"
    middle = (folder / "51.html").read_text()
    assert '<a href="1.html" class="first" data-key="Home">' in middle
    assert '<a href="50.html" rel="prev" class="prev" data-key="ArrowLeft">' in middle
    assert '<a href="52.html" rel="next" class="next" data-key="ArrowRight">' in middle
    assert '<a href="64.html" class="last" data-key="End">' in middle
    assert '<span class="where">51 / 64</span>' in middle
    assert '<script src="../../static/pgm.js" defer></script>' in middle
    for number in range(1, 65):
        assert f'<a href="{number}.html"' in middle
    assert '<a href="51.html" aria-current="page">51</a>' in middle
    first = (folder / "1.html").read_text()
    assert '<span class="prev disabled">' in first and '<span class="first disabled">' in first
    last = (folder / "64.html").read_text()
    assert '<span class="next disabled">' in last and 'rel="next"' not in last
    overview = (folder / "index.html").read_text()
    assert '<a class="button" href="1.html">' in overview
    assert '<a href="input.gn" download>' in overview


def test_live_games_poll_and_finished_ones_do_not(site) -> None:
    live = (site / "round-1/table-2/51.html").read_text()
    assert ('data-live="game.json" data-poll="5" data-turn="51" data-turns="64"' in live)
    assert "static/pgm-live.js" in live and 'id="live-status"' in live
    assert 'data-turn="0" data-turns="64"' in (site / "round-1/table-2/index.html").read_text()
    for page in ("1.html", "45.html", "index.html"):
        html = (site / "round-1/table-3" / page).read_text()
        assert "data-live" not in html and "pgm-live.js" not in html


def test_the_link_to_the_live_ply_counts_plies(site) -> None:
    """Gungi pages count plies ("Ply 51 of 64"), so the link pgm-live.js shows a viewer
    behind the game counts them too; it is hidden until the script fills it in."""
    folder = site / "round-1/table-2"
    for page in ("51.html", "index.html"):
        html = (folder / page).read_text()
        assert ('<a id="live-link" href="index.html" data-one="ply" data-many="plies" hidden>'
                "Go to the latest ply</a>") in html, page
        status = re.search(r'<p id="live-status".*?</p>', html, re.S)
        assert status and "move" not in status.group(), page
    assert "Ply 51 of 64" in text_of((folder / "51.html").read_text())


def test_live_in_event_yaml_marks_a_finished_record_live(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gn": CHECKMATE, "event.yaml": "live: true\n"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    assert 'data-live="game.json"' in (tmp_path / "o/g/45.html").read_text()
    assert json.loads((tmp_path / "o/g/game.json").read_text())["live"] is True


def test_a_ply_warning_is_shown_on_its_own_page(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gn": WARNED})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0 and "g.gn:15:20: warning:" in result.output
    folder = tmp_path / "o/g"
    assert "left own Commander attacked" in (folder / "48.html").read_text()
    assert "left own Commander attacked" not in (folder / "47.html").read_text()
    assert "left own Commander attacked" in (folder / "index.html").read_text()
    last = text_of((folder / "49.html").read_text())
    assert "Black captured the Commander and wins." in last
    assert "Black wins" in text_of((tmp_path / "o/index.html").read_text())
    assert run_build(str(event), "-o", str(tmp_path / "o"), "--strict").exit_code == 1


HOSTILE = """\
[Event "<script>alert(1)</script>"]
[White "<img src=x onerror=alert(2)>"]
[Black "Eve <b>bold</b>"]
# <script>alert(3)</script> header
1. PZ*0-6-0 # <script>alert(4)</script> **fine**
PZ*0-2-0 (<iframe src=x>)
"""


def test_untrusted_header_and_comments_are_escaped(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"game.gn": HOSTILE})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    pages = list((tmp_path / "o").rglob("*.html"))
    assert len(pages) >= 5
    for page in pages:
        html = page.read_text()
        assert "<script>alert" not in html and "<img src=x" not in html, page
        assert "<b>bold</b>" not in html and "<iframe" not in html, page
    first = (tmp_path / "o/game/1.html").read_text()
    assert "&lt;script&gt;alert(4)&lt;/script&gt; <strong>fine</strong>" in first
    assert "<dd>&lt;script&gt;alert(1)&lt;/script&gt;</dd>" in first
    assert "&lt;iframe src=x&gt;" in (tmp_path / "o/game/2.html").read_text()
    data = json.loads((tmp_path / "o/game/game.json").read_text())
    assert data["players"] == ["Eve <b>bold</b>", "<img src=x onerror=alert(2)>"]


def test_allow_html_lets_raw_html_through_in_comments(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gn": "1. PZ*0-6-0 (<em>raw</em>) PZ*0-2-0\n",
                                         "event.yaml": "allow_html: true\n"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    assert "<em>raw</em>" in (tmp_path / "o/g/1.html").read_text()


BROKEN = b"""[Black "B"]
[White "W"]
1. PZ*0-6-0 PZ*0-2-0 2. PZ*1-6-0 PZ*1-2-0 3. PZ*2-6-0 PZ*2-2-0
4. PZ<0-6-0>0-5-0 PZ*3-2-0
"""


def test_a_broken_record_among_good_games(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"good.gcg": CROSSWORD, "good.gn": EVERY_FORM,
                                         "broken.gn": BROKEN})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert ("broken.gn:4:4: error: PZ<0-6-0>0-5-0: only drops are allowed until all 46 "
            "units are placed (initial arrangement)") in result.output
    assert ("Records with errors (rendered up to the problem): "
            f"{event / 'broken.gn'}") in result.output
    out = tmp_path / "o"
    assert (out / "good/index.html").is_file() and (out / "good-2/64.html").is_file()
    pages = sorted(int(p.stem) for p in (out / "broken").glob("[0-9]*.html"))
    assert pages == [1, 2, 3, 4, 5, 6]
    for page in ("6.html", "index.html"):
        assert "only drops are allowed" in (out / "broken" / page).read_text()
    assert "only drops are allowed" not in (out / "broken/5.html").read_text()
    assert (out / "broken/input.gn").read_bytes() == BROKEN
    assert json.loads((out / "broken/game.json").read_text())["turns"] == 6


def test_sample_event_builds_strictly_with_its_gungi_game(tmp_path) -> None:
    result = run_build(str(SAMPLE_GAMES), "-o", str(tmp_path / "site"), "--strict")
    assert result.exit_code == 0, result.output
    record = SAMPLE_GAMES / "exhibition/gungi-sample.gn"
    folder = tmp_path / "site/exhibition/gungi-sample"
    assert (folder / "input.gn").read_bytes() == record.read_bytes() == EVERY_FORM
    assert len(list(folder.glob("[0-9]*.html"))) == 64


def test_spoiler_free_hides_the_result_and_an_empty_record_builds(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "event.yaml": "spoiler_free: true\n", "mate.gn": WARNED,
        "empty.gn": '[Event "Not started"]\n[Result "1/2 - 1/2"]\n'})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    overview = (tmp_path / "o/mate/index.html").read_text()
    assert "<dt>Result</dt>" not in overview and "Final position" not in overview
    # no ply after the one a spectator is on: not on the overview, not on a ply page
    assert 'class="sheet plies"' not in overview
    second = (tmp_path / "o/mate/2.html").read_text()
    listed = second.split('<table class="sheet plies">', 1)[1].split("</table>", 1)[0]
    assert re.findall(r'<td><a href="(\d+)\.html"', listed) == ["1", "2"]
    assert "Plies so far" in second
    assert "Black wins" not in text_of((tmp_path / "o/index.html").read_text())
    empty = tmp_path / "o/empty"
    assert sorted(p.name for p in empty.iterdir()) == ["game.json", "index.html", "input.gn",
                                                         "moves.csv"]
    assert "Not started" in (empty / "index.html").read_text()
    assert json.loads((empty / "game.json").read_text())["turns"] == 0


def test_the_player_index_counts_gungi_wins_and_losses(tmp_path) -> None:
    won_by_black = (CORPUS / "gn/authored__1_commander_capture.gn").read_bytes()
    assert b'[Result "0 - 1"]' in won_by_black  # Black wins
    event = make_event(tmp_path / "ev", {"g.gn": won_by_black})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    players = (tmp_path / "o/players.html").read_text()

    def row(name: str) -> str:
        return re.search(rf'<th scope="row">{name}</th>\n(.*?)</tr>', players, re.S).group(1)

    assert row("Sample Black").startswith("<td>1</td><td>0</td><td>0</td>")
    assert '<span class="result">W</span>' in row("Sample Black")
    assert row("Sample White").startswith("<td>0</td><td>1</td><td>0</td>")
    assert '<span class="result">L</span>' in row("Sample White")


def assert_black_won(site: Path) -> None:
    """The index gives Black the win, with no other status, and the player page counts it."""
    index = text_of((site / "index.html").read_text())
    assert "Black wins" in index and "White wins" not in index and "stopped" not in index
    players = (site / "players.html").read_text()
    black = re.search(r'<th scope="row">Sample Black</th>\n(.*?)</tr>', players, re.S)
    assert black is not None and black.group(1).startswith("<td>1</td><td>0</td><td>0</td>")


def test_a_captured_commander_decides_the_game_over_a_wrong_result_tag(tmp_path) -> None:
    """The tag is an error of the record; the index and player page follow the capture,
    as the game page's own "Black captured the Commander and wins." does."""
    wrong = (CORPUS / "gn/authored__1_commander_capture.gn").read_bytes() \
        .replace(b'[Result "0 - 1"]', b'[Result "1 - 0"]')
    event = make_event(tmp_path / "ev", {"g.gn": wrong})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1 and 'Result "1 - 0" disagrees with the game' in result.output
    assert_black_won(tmp_path / "o")


def test_plies_after_a_captured_commander_are_listed_in_order_and_keep_the_result(tmp_path) -> None:
    """As pgm check does: the reader's error on line 19 came before the replay's warning
    on line 15."""
    after = (CORPUS / "gn/authored__1_commander_capture.gn").read_bytes() + \
        b"\nPZ<1-2-0>1-3-0 PZ<0-6-0>0-5-0\n"
    event = make_event(tmp_path / "ev", {"g.gn": after})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    places = re.findall(r"g\.gn:(\d+):(\d+): ", result.output)
    assert [int(line) for line, _column in places] == [15, 19, 19]
    assert places == sorted(places, key=lambda p: (int(p[0]), int(p[1])))
    assert_black_won(tmp_path / "o")  # the game had ended when the error came


def test_hands_and_the_key_tell_the_backs_apart(site) -> None:
    """A hand lists one entry per face and back: what a screen reader reads of each entry
    (the disc and the short back shown beside the face are hidden from it) names the
    back, so entries of one face differ, and so does what is shown (Pawn/Bronze); every
    letter shown, the large face-up one and the small back, is in the key."""
    for number in (1, 30, 51):
        html = (site / f"round-1/table-2/{number}.html").read_text()
        hands = re.findall(r'<ul class="hand"[^>]*>(.*?)</ul>', html)
        entries = [text_of(re.sub(r'<span class="[^"]*" aria-hidden="true">.*?</span>', "",
                                  item)).strip()
                   for hand in hands for item in re.findall(r"<li>(.*?)</li>", hand)]
        for hand in hands:
            read = [text_of(re.sub(r'<span class="[^"]*" aria-hidden="true">.*?</span>', "",
                                   item)).strip() for item in re.findall(r"<li>(.*?)</li>", hand)]
            assert len(set(read)) == len(read), read
        name = r"[A-Z][a-z]+( [A-Z][a-z]+)?"
        for entry in entries:
            if not entry.startswith("Commander"):
                assert re.fullmatch(rf"{name} \(back: {name}\) ×\d+", entry), entry
        hidden = r'<span class="(u [^"]*|visually-hidden)"[^>]*>.*?</span>'
        seen = [unescape(re.sub(r"<[^>]+>", "", re.sub(hidden, "", item))).strip()
                for hand in hands for item in re.findall(r"<li>(.*?)</li>", hand)]
        assert all(re.fullmatch(rf"{name}/{name} ×\d+|Commander ×1", entry)
                   for entry in seen), seen
        key = html.split('<p class="legend-key">', 1)[1].split("</p>", 1)[0]
        listed = set(re.findall(r"<b>(.)</b>", key))
        shown = set(re.findall(r'<span class="u[^"]*"[^>]*>(.)(?:<small>(.)</small>)?', html))
        letters = {letter for pair in shown for letter in pair if letter}
        assert letters and letters <= listed, letters - listed
        assert "small letter: its back" in key

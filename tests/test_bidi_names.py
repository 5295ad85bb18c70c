"""Right-to-left player names and titles are isolated wherever pgm prints them beside
other text, so the bidi algorithm cannot carry a score or a comma across a name.

Text pgm composes in Python (a game's status, its label, a move in words, page titles,
attributes, live.json) isolates a name that holds right-to-left text between FSI and
PDI; templates put a name they lay out in a sentence in ``<bdi>``. A name's own bidi
controls are taken out before, so it can never close pgm's isolate or reorder the page.
"""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import CORPUS, SAMPLE_GAMES
from sitehelpers import make_event, run_build

from pgm.config import GameSettings
from pgm.discover import Source
from pgm.games import load_game
from pgm.render import bidi_safe, printed
from pgm.site_model import FSI, PDI, GameEntry, isolated, player_index

HEBREW = "יוסי כהן"
ARABIC = "محمد علي"
HOSTILE = "יוסי\u2069\u202e 99 כהן"
"""A name carrying a PDI (which would close pgm's isolate early) and an RLO."""


def hebrew_record(name: str = HEBREW) -> str:
    """A real game (Josh Castellano's, won by his opponent) with the winner renamed."""
    text = (CORPUS / "gcg/liwords__josh_nationals_round_7.gcg").read_text(encoding="utf-8")
    text = (text.replace("#player1 Josh Josh Castellano", "#player1 jvc Josh Castellano")
            .replace("#player2 Jesse Jesse Day", f"#player2 yk {name}")
            .replace(">Josh:", ">jvc:").replace(">Jesse:", ">yk:"))
    return "#character-encoding UTF-8\n" + text


def arabic_record() -> str:
    """A real game with its first player, who lost, renamed: the status starts with
    the name ("محمد علي 393 – Ruth 539")."""
    text = (CORPUS / "gcg/MAGPIE-DATA__success.gcg").read_text(encoding="utf-8")
    return (text.replace("#player1 Tim Tim Weiss", f"#player1 ma {ARABIC}")
            .replace("#player2 Josh Josh Castellano", "#player2 Ruth Ruth")
            .replace(">Tim:", ">ma:").replace(">Josh:", ">Ruth:"))


def upwords_record() -> str:
    text = (SAMPLE_GAMES / "upwords/upwords-sample.gcg").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^#title .*\n", "", text)
    return text.replace("#player1 Mara Mara Lindqvist", f"#player1 Mara {ARABIC}")


def gungi_record() -> str:
    text = (SAMPLE_GAMES / "exhibition/gungi-sample.gn").read_text(encoding="utf-8")
    return text.replace('[Black "Sample Black"]', f'[Black "{HEBREW}"]')


def built(tmp_path: Path, files: dict[str, str]) -> Path:
    event = make_event(tmp_path / "event", files)
    out = tmp_path / "site"
    result = run_build(str(event), "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return built(tmp_path_factory.mktemp("bidi"), {
        "r1/heb.gcg": hebrew_record(), "r1/ar.gcg": arabic_record(),
        "r1/up.gcg": upwords_record(), "r1/gungi.gn": gungi_record()})


def shown(html: str) -> str:
    """A page's text with its character references read, as a browser has it."""
    return unescape(html)


def last_page(folder: Path) -> Path:
    return max(folder.glob("[0-9]*.html"), key=lambda p: int(p.stem))


# ---------------------------------------------------------------------------------------
# The model: names isolated once, composed text isolating them


def test_a_right_to_left_name_is_isolated_and_a_left_to_right_one_left_alone() -> None:
    assert isolated(HEBREW) == f"{FSI}{HEBREW}{PDI}"
    assert isolated("Josh Castellano") == "Josh Castellano"
    assert isolated("Zoë 2") == "Zoë 2"  # no right-to-left text: nothing to reorder
    assert isolated("\u0661\u0662") == f"{FSI}\u0661\u0662{PDI}"  # Arabic digits reorder


def test_a_name_loses_its_own_controls_before_it_is_isolated() -> None:
    assert isolated(HOSTILE) == f"{FSI}יוסי 99 כהן{PDI}"
    assert isolated("Mal\u202eory\u2069") == "Malory"


def _entry(tmp_path: Path, record: str, title: str | None = None) -> GameEntry:
    path = tmp_path / "g.gcg"
    path.write_text(record, encoding="utf-8")
    return load_game(Source(path, "g.gcg", "g"), GameSettings(title=title),
                     path.read_bytes()).entry


def test_a_games_label_and_status_isolate_each_name_in_them(tmp_path) -> None:
    """Composed of the isolated names: "Josh Castellano 384 – ⁨יוסי כהן⁩ 423, ⁨…⁩ won";
    the players stay as the record names them, for the event's checks to match."""
    untitled = re.sub(r"^#title .*\n", "", hebrew_record(HOSTILE), flags=re.MULTILINE)
    entry = _entry(tmp_path, untitled)
    name = f"{FSI}יוסי 99 כהן{PDI}"
    assert entry.label == f"Josh Castellano vs {name}"
    assert re.fullmatch(f"Josh Castellano \\d+ – {name} \\d+, {name} won", entry.status), \
        entry.status
    assert entry.players == ("Josh Castellano", HOSTILE)


def test_a_title_in_a_right_to_left_script_is_isolated_whole(tmp_path) -> None:
    assert _entry(tmp_path, hebrew_record(), title="גמר 2024").label == f"{FSI}גמר 2024{PDI}"
    assert _entry(tmp_path, hebrew_record(), title="Final").label == "Final"


def test_the_player_index_isolates_the_opponents_beside_the_result() -> None:
    entry = GameEntry(slug="g", relative="g.gcg", kind="crossword", label="x",
                      players=("Ann", ARABIC), scores=(300, 420), live=False, status="",
                      result_by_seat=("L", "W"), turns=20, division=None, round=None,
                      table=None)
    (group,) = player_index([entry], keep=False)
    ann = next(p for p in group.players if p.name == "Ann")
    assert ann.games[0].opponent == f"{FSI}{ARABIC}{PDI}"


# ---------------------------------------------------------------------------------------
# Printing: a pair of isolates stays, any other bidi control goes


def test_printing_keeps_a_pair_of_isolates_and_takes_out_everything_else() -> None:
    assert printed(f"Ann 3 – {FSI}{HEBREW}{PDI} 4") == f"Ann 3 – {FSI}{HEBREW}{PDI} 4"
    assert printed("a\u2069b\u2068c") == "abc"  # a stray PDI, an isolate never closed
    assert printed("a\u202eb\u202cc\u202bd") == "abcd"  # embeddings and overrides
    assert printed(f"{FSI}<{HEBREW}>{PDI}") == f"{FSI}&lt;{HEBREW}&gt;{PDI}"


def test_a_stray_pdi_cannot_close_an_isolate_of_pgm() -> None:
    """Stack matching: pgm's PDI closes pgm's FSI, whatever comes around the pair."""
    text = f"\u2069x \u2067{FSI}{HEBREW}{PDI} 5 \u2069\u2069"
    assert bidi_safe(text) == f"x \u2067{FSI}{HEBREW}{PDI} 5 \u2069"


def test_isolates_nested_beyond_eight_are_taken_out() -> None:
    deep = FSI * 10 + "x" + PDI * 10
    assert bidi_safe(deep) == FSI * 8 + "x" + PDI * 8


# ---------------------------------------------------------------------------------------
# The site


def test_the_event_index_and_live_json_isolate_the_names_of_the_status(site) -> None:
    index = shown((site / "index.html").read_text(encoding="utf-8"))
    heb, ar = f"{FSI}{HEBREW}{PDI}", f"{FSI}{ARABIC}{PDI}"
    assert f">Josh Castellano 384 – {heb} 423, {heb} won<" in index
    assert f">{ar} 393 – Ruth 539, Ruth won<" in index
    assert f'index.html">{ar} vs Ruth</a>' in index  # the label, "NAME vs NAME"
    games = {g["slug"]: g for g in json.loads((site / "live.json").read_text())["games"]}
    assert games["r1/heb"]["status"] == f"Josh Castellano 384 – {heb} 423, {heb} won"
    assert games["r1/ar"]["status"].startswith(f"{ar} 393 – Ruth 539")


def test_the_game_page_isolates_the_names_of_its_title_result_and_chart(site) -> None:
    page = shown((site / "r1/ar/index.html").read_text(encoding="utf-8"))
    ar = f"{FSI}{ARABIC}{PDI}"
    assert f"<title>{ar} vs Ruth · " in page
    assert f'<p class="result">{ar} 393 – Ruth 539, Ruth won</p>' in page
    assert f"Scores after each turn, {ar} 393, Ruth 539" in page  # the chart's aria-label
    assert f"<title>{ar}: 393</title>" in page  # the SVG line's
    assert f'<li class="s1">{ar} 393</li>' in page  # the legend
    # the score sheet: a row's move in words is its link's title
    assert f'title="{ar} played WAITE at 8D across for 24 points"' in page
    assert json.loads((site / "r1/ar/game.json").read_text())["title"] == f"{ARABIC} vs Ruth"


def test_turn_pages_isolate_the_names_of_the_move_title_and_result(site) -> None:
    heb = f"{FSI}{HEBREW}{PDI}"
    page = shown((site / "r1/heb/2.html").read_text(encoding="utf-8"))
    move = f"{heb} played HI at 9I across for 22 points"
    assert f"<title>Turn 2: {move} · 2019 NSC Round CSW7 · Games</title>" in page
    assert f'<p class="move-text" aria-live="polite">{move}</p>' in page
    assert f"Board after turn 2: {move}</caption>" in page
    assert f'<th scope="row"><bdi>{HEBREW}</bdi></th><td class="num">22 ' in page
    last = shown(last_page(site / "r1/heb").read_text(encoding="utf-8"))
    assert f"Result: Josh Castellano 384 – {heb} 423, {heb} won</p>" in last


def test_the_unseen_heading_isolates_its_viewer(site) -> None:
    pages = [shown(p.read_text(encoding="utf-8")) for p in (site / "r1/heb").glob("*.html")]
    assert any(f"Unseen by <bdi>{HEBREW}</bdi>: " in page for page in pages)


def test_a_turn_page_titled_by_a_right_to_left_label_isolates_it(site) -> None:
    page = shown((site / "r1/ar/3.html").read_text(encoding="utf-8"))
    ar = f"{FSI}{ARABIC}{PDI}"
    assert re.search(f"<title>Turn 3: {ar} played [^<]* · {ar} vs Ruth · Games</title>", page)
    assert f'<a href="index.html">{ar} vs Ruth</a></nav>' in page
    assert f'<h1 class="visually-hidden">{ar} vs Ruth, turn 3 of ' in page


def test_the_player_index_isolates_opponents_beside_results(site) -> None:
    page = shown((site / "players.html").read_text(encoding="utf-8"))
    assert f'vs {FSI}{HEBREW}{PDI}</a> <span class="result">L 384–423</span>' in page
    assert f'vs {FSI}{ARABIC}{PDI}</a> <span class="result">W 539–393</span>' in page


def test_upwords_pages_isolate_the_names(site) -> None:
    ar = f"{FSI}{ARABIC}{PDI}"
    index = shown((site / "index.html").read_text(encoding="utf-8"))
    assert f'up/index.html">{ar} vs Tobias Brandt</a>' in index
    page = shown((site / "r1/up/1.html").read_text(encoding="utf-8"))
    assert re.search(f'<p class="move-text"[^>]*>{ar} played ', page)
    assert f'<th scope="row"><bdi>{ARABIC}</bdi>' in page


def test_gungi_pages_isolate_the_names(site) -> None:
    heb = f"{FSI}{HEBREW}{PDI}"
    index = shown((site / "index.html").read_text(encoding="utf-8"))
    assert f'gungi/index.html">{heb} vs Sample White</a>' in index
    page = shown((site / "r1/gungi/1.html").read_text(encoding="utf-8"))
    assert "<title>Ply 1: " in page and f" · {heb} vs Sample White · Games</title>" in page
    assert f": <bdi>{HEBREW}</bdi>" in page  # "Black: NAME", beside its badges


def test_a_record_of_plain_names_keeps_its_pages_plain_ascii(tmp_path) -> None:
    """Names without right-to-left text need no isolate: turn pages stay plain ASCII
    (half the memory, written without encoding), and no page holds one."""
    out = built(tmp_path, {"g.gcg": (CORPUS / "gcg/MAGPIE-DATA__success.gcg").read_text()})
    for page in (out / "g").glob("[0-9]*.html"):
        assert page.read_bytes().isascii(), page.name
    for page in out.rglob("*.html"):
        assert FSI not in shown(page.read_text(encoding="utf-8")), page.name


# ---------------------------------------------------------------------------------------
# A hostile name


class _Texts(HTMLParser):
    """Every text node and attribute value of a page, as a browser reads them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.texts += [value for _, value in attrs if value]

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        if char in "\u2066\u2067\u2068":
            depth += 1
        elif char == PDI:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def test_a_name_with_its_own_pdi_and_rlo_cannot_leak(tmp_path) -> None:
    out = built(tmp_path, {"r1/heb.gcg": hebrew_record(HOSTILE)})
    name = f"{FSI}יוסי 99 כהן{PDI}"
    pages = sorted(out.rglob("*.html"))
    for page in pages:
        parser = _Texts()
        parser.feed(page.read_text(encoding="utf-8"))
        for text in parser.texts:
            assert "\u202e" not in text, page
            assert _balanced(text), (page, text)
    index = shown((out / "index.html").read_text(encoding="utf-8"))
    assert f"Josh Castellano 384 – {name} 423, {name} won" in index
    status = json.loads((out / "live.json").read_text())["games"][0]["status"]
    assert status == f"Josh Castellano 384 – {name} 423, {name} won"
    turn = shown((out / "r1/heb/2.html").read_text(encoding="utf-8"))
    assert f"<title>Turn 2: {name} played HI" in turn
    assert '<th scope="row"><bdi>יוסי 99 כהן</bdi></th>' in turn

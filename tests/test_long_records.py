"""Gungi and Upwords records far longer than any game: each ply or turn page lists at most
500 plies or turns around its own (pgm.turn_window), with gap rows linking to the first
and last left out, so that a record of thousands of lines makes pages of bounded size
instead of thousands of pages listing thousands of rows each. Real games stay listed
whole on every page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import CORPUS, SAMPLE_GAMES
from hypothesis import given
from hypothesis import strategies as st
from sitehelpers import make_event, run_build

from pgm import gungi
from pgm.gcg import parse_gcg
from pgm.turn_window import LISTED, Gap, TurnWindow, listed_turns
from pgm.upwords import replay as replay_upwords

ARRANGEMENT = (CORPUS / "gn/hkpeprah+gungi__initial_arrangement.gn").read_bytes()
"""Both armies placed in 46 drops, nothing moved yet."""
UPWORDS = (SAMPLE_GAMES / "upwords/upwords-sample.gcg").read_bytes()
"""19 events, Mara's last."""
GUNGI_REAL = {"gungi-sample.gn": (SAMPLE_GAMES / "exhibition/gungi-sample.gn").read_bytes(),
              **{path.name: path.read_bytes() for path in sorted((CORPUS / "gn").glob("*.gn"))}}


def long_gungi(plies: int) -> bytes:
    """A legal record of ``plies`` plies: the initial arrangement, then each Commander
    walking round the squares in front of it, Black's round four and White's round three
    (so that the two walks line up again only every 12 groups), and in every 33rd group a
    Black Pawn stepping forward instead, for good: no position comes a fourth time, which
    would draw the game by repetition."""
    black = ("O-<4-8-0>3-7-0", "O-<3-7-0>4-7-2", "O-<4-7-2>5-7-0", "O-<5-7-0>4-8-0")
    white = ("O-<4-0-0>3-1-0", "O-<3-1-0>4-1-2", "O-<4-1-2>4-0-0")
    pawns = [f"{code}<{col}-{row}-0>{col}-{row - 1}-0" for row in (6, 5)
             for col, code in enumerate(["PZ"] * 7 + ["PV", "PG"])]
    lines = [ARRANGEMENT.rstrip(b"\n").decode()]
    walked = 0
    for group in range(24, 24 + (plies - 46) // 2):
        if (group - 24) % 33 == 32:
            move = pawns.pop(0)
        else:
            move, walked = black[walked % 4], walked + 1
        lines.append(f"{group}. {move} {white[(group - 24) % 3]}")
    return ("\n".join(lines) + "\n").encode()


def long_upwords(turns: int) -> bytes:
    """A legal record of ``turns`` events: the sample game, then the players exchanging a
    tile and passing in turn (Upwords has no limit on scoreless turns, and a board of 100
    stacks of at most 5 cannot hold a thousand plays)."""
    game = replay_upwords(parse_gcg(UPWORDS, "upwords.gcg"))
    players = game.record.players
    lines = [UPWORDS.rstrip(b"\n").decode()]
    for n in range(turns - len(game.turns)):
        seat = (game.final.to_move + n) % 2
        rack = "EIKNPSU" if seat else "ACEFLRT"
        move = f"-{rack[0]}" if n % 4 < 2 else "-"
        lines.append(f">{players[seat].nick}: {rack} {move} +0 {game.final.scores[seat]}")
    return ("\n".join(lines) + "\n").encode()


def test_the_long_records_are_legal() -> None:
    """The pages below are those of records that replay clean to their end: nothing but
    the length is unusual about them."""
    long = gungi.load(long_gungi(1200), "long.gn")
    assert (len(long.positions), list(long.diagnostics)) == (1200, [])
    upwords = replay_upwords(parse_gcg(long_upwords(1200), "long.gcg"))
    assert (len(upwords.turns), list(upwords.diagnostics)) == (1200, [])


# ---------------------------------------------------------------------------------------
# The rule


def test_the_window_of_a_real_game_is_the_whole_game() -> None:
    for total in (1, 45, 300, LISTED):
        for number in range(1, total + 1):
            assert TurnWindow.of(number, total, False) == TurnWindow(1, total, None, None)
            assert TurnWindow.of(number, total, True) == TurnWindow(1, number, None, None)


def test_the_window_of_a_long_record() -> None:
    assert TurnWindow.of(600, 1200, False) == TurnWindow(350, 849, Gap(1, 349),
                                                         Gap(850, 1200))
    assert TurnWindow.of(1, 1200, False) == TurnWindow(1, 500, None, Gap(501, 1200))
    assert TurnWindow.of(1200, 1200, False) == TurnWindow(701, 1200, Gap(1, 700), None)
    # never a gap of one turn: that turn is listed instead
    assert TurnWindow.of(252, 1200, False) == TurnWindow(1, 501, None, Gap(502, 1200))
    assert TurnWindow.of(950, 1200, False) == TurnWindow(700, 1200, Gap(1, 699), None)
    # spoiler-free: the turns so far, and no link to a later one
    assert TurnWindow.of(600, 1200, True) == TurnWindow(101, 600, Gap(1, 100), None)
    assert TurnWindow.of(501, 1200, True) == TurnWindow(1, 501, None, None)
    assert TurnWindow.of(502, 1200, True) == TurnWindow(3, 502, Gap(1, 2), None)
    assert TurnWindow(3, 5, None, None).rows("abcdefg") == "cde"


@given(st.integers(1, 3000), st.integers(0, 3000), st.booleans())
def test_a_window_holds_its_page_and_at_most_one_more_than_listed(total, offset,
                                                                   spoiler_free) -> None:
    number = offset % total + 1
    first, last = listed_turns(number, total, spoiler_free)
    assert 1 <= first <= number <= last <= total
    assert last - first + 1 in (min(total if not spoiler_free else number, LISTED),
                                LISTED + 1)
    assert first != 2 and (spoiler_free or last != total - 1)  # no gap of one turn
    if spoiler_free:
        assert last == number


# ---------------------------------------------------------------------------------------
# The pages


GUNGI_ROW = re.compile(r'<tr class="(?:black|white)[^"]*"><td><a href="(\d+)\.html"')
UPWORDS_ROW = re.compile(r'<tr class="(?:play|exchange|pass)[^"]*"><td><a href="(\d+)\.html"')
GAP = re.compile(r'<tr class="gap"><td colspan="(\d+)">(?:Plies|Turns) <a href="(\d+)\.html">'
                 r'\2</a>&ndash;<a href="(\d+)\.html">\3</a> not listed here</td></tr>')


def listed(page: Path) -> tuple[list[int], list[tuple[int, int]]]:
    """The numbers of the plies or turns a page's table lists, and its gaps (first, last),
    checking that a gap row spans every column of its table."""
    html = page.read_text()
    table = html.split('<section class="sheet-section"', 1)[1].split("</table>", 1)[0]
    columns = table.split("</thead>", 1)[0].count('<th scope="col">')
    row = GUNGI_ROW if '<table class="sheet plies">' in table else UPWORDS_ROW
    gaps = GAP.findall(table)
    assert table.count('<tr class="gap">') == len(gaps)
    assert all(int(span) == columns for span, _, _ in gaps)
    return [int(n) for n in row.findall(table)], [(int(a), int(b)) for _, a, b in gaps]


def numbers(first: int, last: int) -> list[int]:
    return list(range(first, last + 1))


def build(root: Path, files: dict[str, str | bytes]) -> Path:
    result = run_build(str(make_event(root / "ev", files)), "-o", str(root / "site"))
    assert result.exit_code == 0, result.output
    return root / "site"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """1,200 plies of Gungi and 1,200 turns of Upwords beside real games of both."""
    return build(tmp_path_factory.mktemp("long"), {
        "gungi.gn": long_gungi(1200), "upwords.gcg": long_upwords(1200),
        "real/upwords.gcg": UPWORDS, **{f"real/{name}": data for name, data in GUNGI_REAL.items()}})


@pytest.fixture(scope="module")
def spoiler_free_site(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("long-sf"), {
        "gungi.gn": long_gungi(560), "upwords.gcg": long_upwords(560),
        "event.yaml": "spoiler_free: true\n"})


@pytest.mark.parametrize("game", ["gungi", "upwords"])
def test_a_page_of_a_long_record_lists_the_500_around_its_own(site, game) -> None:
    folder = site / game
    assert listed(folder / "600.html") == (numbers(350, 849), [(1, 349), (850, 1200)])
    assert listed(folder / "1.html") == (numbers(1, 500), [(501, 1200)])
    assert listed(folder / "1200.html") == (numbers(701, 1200), [(1, 700)])
    assert listed(folder / "252.html") == (numbers(1, 501), [(502, 1200)])
    assert listed(folder / "950.html") == (numbers(700, 1200), [(1, 699)])
    assert 'aria-current="page">600</a>' in (folder / "600.html").read_text()


@pytest.mark.parametrize("game", ["gungi", "upwords"])
def test_the_pages_of_a_long_record_stay_small(site, game) -> None:
    """Every page lists 500 or 501 rows whatever the record's length: all 1,200 rows
    made pages of over 300 KB, and the game's folder some 370 MB."""
    pages = list((site / game).glob("[0-9]*.html"))
    assert len(pages) == 1200
    assert max(p.stat().st_size for p in pages) < 200_000
    # the overview, a single page, still lists every one
    assert listed(site / game / "index.html") == (numbers(1, 1200), [])


def test_real_games_list_every_ply_and_turn_on_every_page(site) -> None:
    for record in GUNGI_REAL:
        game = gungi.load(GUNGI_REAL[record], record)
        folder = next(p.parent for p in site.glob("real/*/input.gn")
                      if p.read_bytes() == GUNGI_REAL[record])
        total = len(game.positions)
        for number in range(1, total + 1):
            assert listed(folder / f"{number}.html") == (numbers(1, total), []), folder
    folder = site / "real/upwords"
    for number in range(1, 20):
        assert listed(folder / f"{number}.html") == (numbers(1, 19), [])


@pytest.mark.parametrize("game", ["gungi", "upwords"])
def test_a_spoiler_free_page_lists_the_500_up_to_its_own(spoiler_free_site, game) -> None:
    folder = spoiler_free_site / game
    assert listed(folder / "300.html") == (numbers(1, 300), [])
    assert listed(folder / "501.html") == (numbers(1, 501), [])
    assert listed(folder / "560.html") == (numbers(61, 560), [(1, 60)])

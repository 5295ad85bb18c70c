"""``live`` in event.yaml against what the record says: a record that does not end its
game has no result, whether it is in progress (the default) or, with ``live: false``,
unfinished; a record that ends its game keeps its result whatever ``live`` says."""

from __future__ import annotations

import json
import os
import re
import time

import pytest
from conftest import CORPUS, SAMPLE_GAMES
from sitehelpers import make_event, record_prefix, run_build, text_of

ANDY = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
"""andy vs cesar, ending with its end-of-game rack line."""
DOUG = (CORPUS / "gcg/liwords__doug_vs_emely.gcg").read_bytes()
"""doug 451, emely 345: a complete game."""
JOSH = (CORPUS / "gcg/liwords__josh_nationals_round_11.gcg").read_bytes()
"""Ubeika 381, jvc 520: a complete game."""
UPWORDS = (SAMPLE_GAMES / "upwords/upwords-sample.gcg").read_bytes()
"""Mara Lindqvist vs Tobias Brandt, 19 events and no end-of-game line."""
GUNGI_OPEN = (CORPUS / "gn/authored__2_every_move_form.gn").read_bytes()
"""Sample Black vs Sample White, Result "*", no Commander captured."""
GUNGI_OVER = (CORPUS / "gn/authored__1_commander_capture.gn").read_bytes()
"""Sample Black vs Sample White, Result "0 - 1": Black wins."""

EVENT_YAML = """\
games:
  unfinished.gcg: {live: false}
  over.gcg: {live: false}
  over-live.gcg: {live: true}
  upwords-open.gcg: {live: false}
  upwords-over.gcg: {live: false}
  gungi-open.gn: {live: false}
  gungi-over.gn: {live: false}
"""


def _renamed(record: bytes, **names: str) -> bytes:
    for old, new in names.items():
        record = re.sub(rb"\b" + old.encode() + rb"\b", new.encode(), record)
    return record


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("unfinished")
    upwords_over = _renamed(UPWORDS, Mara="Mona", Tobi="Toby", Tobias="Tobin")
    upwords_over += b">Toby: (EIKNPSU) +14 80\n"
    event = make_event(root / "ev", {
        "unfinished.gcg": record_prefix(ANDY, 7),
        "over.gcg": DOUG,
        "over-live.gcg": JOSH,
        "upwords-open.gcg": UPWORDS,
        "upwords-over.gcg": upwords_over,
        "gungi-open.gn": GUNGI_OPEN,
        "gungi-over.gn": GUNGI_OVER,
        "event.yaml": EVENT_YAML,
    })
    result = run_build(str(event), "-o", str(root / "o"))
    assert result.exit_code == 0, result.output
    return root / "o"


def _statuses(site) -> dict[str, dict[str, object]]:
    return {g["slug"]: g for g in json.loads((site / "live.json").read_text())["games"]}


def _player_rows(site) -> dict[str, str]:
    """Player name -> the text of their row on the player index."""
    html = (site / "players.html").read_text()
    rows = re.findall(r'<tr id="player-[^"]+"><th scope="row">(.*?)</th>(.*?)</tr>', html, re.S)
    return {name: text_of(row).strip() for name, row in rows}


def test_an_unfinished_record_marked_not_live_has_no_winner(site) -> None:
    game = _statuses(site)["unfinished"]
    assert game["status"] == "unfinished: andy 105 – cesar 60"
    assert game["live"] is False
    index = text_of((site / "index.html").read_text())
    assert "unfinished: andy 105 – cesar 60" in index and "andy won" not in index
    assert "unfinished: andy 105 – cesar 60" in text_of(
        (site / "unfinished/index.html").read_text())


def test_an_unfinished_game_counts_neither_result_nor_spread(site) -> None:
    rows = _player_rows(site)
    # won, lost, tied, spread (none: no finished scored game), then the game listed
    assert rows["andy"] == "0 0 0 vs cesar unfinished"
    assert rows["cesar"] == "0 0 0 vs andy unfinished"


def test_the_pages_of_an_unfinished_game_do_not_poll(site) -> None:
    for page in ("index.html", "1.html", "7.html"):
        assert "data-live" not in (site / "unfinished" / page).read_text()
    assert json.loads((site / "unfinished/game.json").read_text())["live"] is False


def test_a_complete_record_keeps_its_result_whatever_live_says(site) -> None:
    statuses = _statuses(site)
    assert statuses["over"]["status"] == "doug 451 – emely 345, doug won"
    assert statuses["over-live"]["status"] == "Ubeika 381 – jvc 520, jvc won"
    rows = _player_rows(site)
    assert rows["doug"] == "1 0 0 +106 vs emely W 451–345"
    assert rows["jvc"] == "1 0 0 +139 vs Ubeika W 520–381"
    assert rows["Ubeika"] == "0 1 0 -139 vs jvc L 381–520"
    # live: true still makes its pages follow the record, and they say it is over
    game_page = text_of((site / "over-live/index.html").read_text())
    assert "data-live" in (site / "over-live/index.html").read_text()
    assert "Final, still followed for corrections · updated" in game_page
    assert "In progress" not in game_page and "Final position" in game_page
    turn = text_of((site / "over-live/3.html").read_text())
    assert "Final, still followed for corrections" in turn
    assert "Score sheet and final position" in turn
    # no game of the event is in progress: the index says none is
    assert "Games in progress" not in text_of((site / "index.html").read_text())


def test_the_build_asks_whether_play_is_over_on_a_game_idle_for_a_day(tmp_path) -> None:
    """An archive's abandoned game shows in progress until ``live: false``: the build
    says so of a record unchanged for over a day, and not of one just saved."""
    event = make_event(tmp_path / "ev", {"old.gcg": record_prefix(ANDY, 7),
                                         "new.gcg": record_prefix(ANDY, 5)})
    two_days_ago = time.time() - 2 * 86_400
    os.utime(event / "old.gcg", (two_days_ago, two_days_ago))
    lines = run_build(str(event), "-o", str(tmp_path / "o")).output.splitlines()
    hint = ("1 of them unchanged for over a day: if play on them is over, 'live: false' in "
            "event.yaml lists them as unfinished")
    assert lines[-1] == hint and lines[-2].startswith("2 games in progress")
    (event / "event.yaml").write_text("games:\n  old.gcg: {live: false}\n")
    lines = run_build(str(event), "-o", str(tmp_path / "o")).output.splitlines()
    assert lines[-1] == f"1 game in progress (no end of game recorded yet): {event / 'new.gcg'}"


def test_the_build_says_a_finished_game_is_followed_not_in_progress(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "over-live.gcg": JOSH, "open.gcg": record_prefix(ANDY, 7),
        "event.yaml": "games:\n  over-live.gcg: {live: true}\n"})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert f"1 game in progress (no end of game recorded yet): {event / 'open.gcg'}" in lines
    assert ("1 finished game still followed for corrections (live: true in event.yaml): "
            f"{event / 'over-live.gcg'}") in lines
    index = text_of((tmp_path / "o/index.html").read_text())
    assert "Games in progress" in index


def test_upwords_games_follow_the_same_rule(site) -> None:
    statuses = _statuses(site)
    assert statuses["upwords-open"]["status"] == \
        "unfinished: Mara Lindqvist 89 – Tobias Brandt 66"
    assert statuses["upwords-over"]["status"] == \
        "Mona Lindqvist 89 – Tobin Brandt 80, Mona Lindqvist won"
    rows = _player_rows(site)
    assert rows["Mara Lindqvist"] == "0 0 0 vs Tobias Brandt unfinished"
    assert rows["Mona Lindqvist"] == "1 0 0 +9 vs Tobin Brandt W 89–80"
    assert "data-live" not in (site / "upwords-open/index.html").read_text()


def test_gungi_games_follow_the_same_rule(site) -> None:
    statuses = _statuses(site)
    assert statuses["gungi-open"]["status"] == "unfinished"
    assert statuses["gungi-over"]["status"] == "Black wins"
    assert statuses["gungi-open"]["live"] is False
    rows = _player_rows(site)
    # only the game with a result counts
    assert rows["Sample Black"].startswith("1 0 0 ")
    assert rows["Sample White"].startswith("0 1 0 ")
    assert "unfinished" in rows["Sample Black"]
    assert "data-live" not in (site / "gungi-open/index.html").read_text()


def test_a_spoiler_free_index_calls_an_unfinished_game_unfinished(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "unfinished.gcg": record_prefix(ANDY, 7),
        "event.yaml": "spoiler_free: true\ngames:\n  unfinished.gcg: {live: false}\n"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    game = json.loads((tmp_path / "o/live.json").read_text())["games"][0]
    assert game["status"] == "unfinished"
    assert '<span class="status-text">unfinished</span>' in (tmp_path / "o/index.html").read_text()


def test_a_spoiler_free_index_shows_a_board_and_a_position_set_as_they_are(tmp_path) -> None:
    """A board or a set of positions has no result to give away: its status tells what
    the file holds, not "finished"."""
    empty = "/".join(["15"] * 15)
    positions = "".join(f"# {n}\n{empty} AEINRST/ 0/0 0 lex CSW21;\n\n" for n in (1, 2, 3))
    event = make_event(tmp_path / "ev", {
        "board.ubf": (SAMPLE_GAMES / "upwords/example.ubf").read_bytes(),
        "set.cgp": positions, "event.yaml": "spoiler_free: true\n"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    statuses = _statuses(tmp_path / "o")
    assert statuses["board"]["status"] == "Upwords board: 74 tiles in 30 stacks"
    assert statuses["set"]["status"] == "3 positions"
    index = (tmp_path / "o/index.html").read_text()
    assert '<span class="status-text">Upwords board: 74 tiles in 30 stacks</span>' in index
    assert '<span class="status-text">3 positions</span>' in index
    assert "finished" not in text_of(index)


def test_the_result_tag_of_an_unfinished_gungi_game_says_unfinished(site) -> None:
    """``Result "*"`` in words follows the game's status: "unfinished" on every page of a
    game marked ``live: false``, never "in progress"."""
    folder = site / "gungi-open"
    pages = sorted(folder.glob("*.html"))
    assert len(pages) > 2
    for page in pages:
        html = page.read_text()
        assert "<dt>Result</dt><dd>* (unfinished)</dd>" in html, page.name
        assert "in progress" not in html, page.name


@pytest.mark.parametrize(("live", "words"), [("", "in progress"), ("{live: false}", "unfinished")])
def test_the_result_tag_of_a_gungi_game_follows_live(tmp_path, live, words) -> None:
    games = f"games:\n  g.gn: {live}\n" if live else ""
    event = make_event(tmp_path / "ev", {"g.gn": GUNGI_OPEN, "event.yaml": games})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    for page in ("index.html", "1.html"):
        html = (tmp_path / "o/g" / page).read_text()
        assert f"<dt>Result</dt><dd>* ({words})</dd>" in html


def test_a_result_tag_not_filled_in_after_a_captured_commander(tmp_path) -> None:
    """The game is over (Black wins), so its ``Result "*"`` is neither in progress nor
    unfinished: it was not filled in."""
    record = GUNGI_OVER.replace(b'[Result "0 - 1"]', b'[Result "*"]')
    assert record != GUNGI_OVER
    event = make_event(tmp_path / "ev", {"g.gn": record})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    html = (tmp_path / "o/g/index.html").read_text()
    assert '<p class="result">Black wins</p>' in html
    assert "<dt>Result</dt><dd>* (not filled in)</dd>" in html


def test_a_result_resting_on_a_mistyped_total_says_what_the_scores_add_up_to(tmp_path) -> None:
    """The record's last total typed 320 for 520: the recorded totals stand (they are
    what the players signed), and the index says the result is as recorded and what the
    scores add up to, where it used to give the win to the wrong player in silence."""
    mistyped = JOSH.rstrip(b"\n").rsplit(b"\n", 1)[0] + b"\n>jvc:  (N) +2 320\n"
    event = make_event(tmp_path / "ev", {"event.yaml": "title: Nationals\n",
                                         "r1/typo.gcg": mistyped,
                                         "r1/right.gcg": _renamed(JOSH, Ubeika="Ann")})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert "typo.gcg:29: warning: cumulative score is 320, but 518 +2 = 520" in result.output
    statuses = re.findall(r'class="status-text">([^<]*)<',
                          (tmp_path / "o/index.html").read_text(encoding="utf-8"))
    assert sorted(statuses) == [
        "Ann 381 – jvc 520, jvc won",
        "Ubeika 381 – jvc 320, Ubeika won as recorded; the scores add up to Ubeika 381 – "
        "jvc 520"]


def test_the_last_turn_page_of_an_ended_game_gives_its_result(site) -> None:
    """The last turn page said only "The game is over." under the scores: it now says
    who won, as the index does; a game with no result says none on any page."""
    results = {}
    for slug in ("over", "upwords-over", "unfinished", "upwords-open"):
        pages = sorted((site / slug).glob("[0-9]*.html"), key=lambda p: int(p.stem))
        results[slug] = [re.findall(r'<p class="result">(.*?)</p>', page.read_text())
                         for page in pages]
    assert results["over"][-1] == ["Result: doug 451 &#8211; emely 345, doug won"]
    assert results["upwords-over"][-1] == ["Result: Mona Lindqvist 89 &#8211; Tobin Brandt 80, "
                                           "Mona Lindqvist won"]
    assert not any(found for found in results["over"][:-1] + results["upwords-over"][:-1])
    assert not any(found for found in results["unfinished"] + results["upwords-open"])


def test_a_spoiler_free_index_calls_a_followed_finished_game_finished(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "over-live.gcg": JOSH, "open.gcg": record_prefix(ANDY, 7),
        "event.yaml": "spoiler_free: true\ngames:\n  over-live.gcg: {live: true}\n"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    statuses = _statuses(tmp_path / "o")
    assert statuses["over-live"]["status"] == "finished"
    assert statuses["open"]["status"] == "in progress"

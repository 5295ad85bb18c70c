"""``pgm build`` end to end: events built into tmp_path, pages read back structurally."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile

import jinja2
import pytest
from click.testing import CliRunner
from conftest import CORPUS, SAMPLE_GAMES
from sitehelpers import (
    board_squares,
    build_sample,
    make_event,
    record_prefix,
    run_build,
    text_of,
    tiles_on,
)

import pgm.render
from pgm.cli import main
from pgm.config import load_configs
from pgm.crossword import replay
from pgm.gcg import parse_gcg
from pgm.output import MARKER
from pgm.render import make_environment
from pgm.resources import builtin_dir
from pgm.site_pages import render_site_files
from pgm.state import load_state


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory):
    return build_sample(tmp_path_factory.mktemp("site") / "site")


def test_sample_event_index_lists_every_game_by_round(sample_site) -> None:
    html = (sample_site / "index.html").read_text()
    assert "<h1>pgm sample event</h1>" in html
    assert "<strong>still in progress</strong>" in html
    for slug in ("round-1/table-1", "round-1/table-2", "round-2/table-1", "round-2/table-2",
                 "round-3/table-1", "round-3/table-2", "exhibition/french-game"):
        assert f'href="{slug}/index.html"' in html
        assert (sample_site / slug / "index.html").is_file()
    text = text_of(html)
    assert "Round 1" in text and "Round 3" in text and "Exhibition" in text
    assert "HastyBot vs RightBehindYou (annotated)" in text
    assert "in progress: Player 1 336 – Player 2 298" in text
    assert "Noah 471 – Peter Armstrong 407, Noah won" in text


def test_a_game_stopped_by_an_error_does_not_call_its_last_position_final(tmp_path) -> None:
    """The record goes on past the error: its game page shows where the replay stopped,
    and says so, not a "final" position."""
    record = (CORPUS / "gcg-invalid/MAGPIE-DATA__malformed_play.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {"g.gcg": record})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 1
    text = text_of((tmp_path / "o/g/index.html").read_text())
    assert "Position where the replay stopped (line 11)" in text
    assert "Board where the replay stopped, at line 11" in text
    assert "Final position" not in text and "end of the record" not in text


@pytest.mark.parametrize(("slug", "noun", "latest"), [
    ("round-3/table-2", "turn", 20), ("upwords/upwords-sample", "turn", 19),
    ("exhibition/gungi-sample", "ply", 64), ("round-1/table-1", "turn", None)])
def test_a_game_in_progress_links_its_latest_turn_and_shows_the_position_so_far(
        sample_site, slug: str, noun: str, latest: int | None) -> None:
    """Spectators who follow a game from its page go to where it stands, not to turn 1;
    the board below is not "final" while the game goes on."""
    page = (sample_site / slug / "index.html").read_text()
    text = text_of(page)
    if latest is None:
        assert "Latest" not in text and "Final position" in text
    else:
        assert f'<a class="button" href="{latest}.html">Latest {noun} ({latest})</a>' in page
        assert (sample_site / slug / f"{latest}.html").is_file()
        assert (sample_site / slug / f"{latest + 1}.html").exists() is False
        assert "Position so far" in text and "Final position" not in text
    if noun == "turn" and not slug.startswith("upwords"):
        link = "Score sheet and position so far" if latest else "Score sheet and final position"
        assert f'<a href="index.html">{link}</a>' in (sample_site / slug / "1.html").read_text()


def test_every_record_is_embedded_byte_identical(sample_site) -> None:
    records = sorted(SAMPLE_GAMES.rglob("*.gcg")) + sorted(SAMPLE_GAMES.rglob("*.gn"))
    assert any(r.parent.name == "upwords" for r in records)
    for record in records:
        slug = record.relative_to(SAMPLE_GAMES).with_suffix("").as_posix()
        embedded = sample_site / slug / f"input{record.suffix}"
        assert embedded.read_bytes() == record.read_bytes(), record


def test_one_page_per_event_with_the_board_after_it(sample_site) -> None:
    record = SAMPLE_GAMES / "round-2/table-2.gcg"
    game = replay(parse_gcg(record.read_bytes(), "r"))
    folder = sample_site / "round-2/table-2"
    assert sorted(int(p.stem) for p in folder.glob("[0-9]*.html")) == list(
        range(1, len(game.turns) + 1))
    for number in (2, 5, 11, 17, len(game.turns)):
        html = (folder / f"{number}.html").read_text()
        cells = game.turns[number - 1].position.cells
        expected = {f"{chr(65 + i % 15)}{i // 15 + 1}": label
                    for i, label in enumerate(cells) if label}
        assert tiles_on(html) == expected


def test_turn_page_shows_move_scores_racks_notes_and_cgp(sample_site) -> None:
    html = (sample_site / "round-2/table-2/5.html").read_text()
    text = text_of(html)
    assert "HastyBot played TANGOi(S)T at L1 down for 70 points (bingo)" in text
    assert 'aria-live="polite"' in html
    squares = board_squares(html)
    assert squares["L6"] == "L6, blank as I, 0 points, just played"
    assert squares["L1"].startswith("L1, T, 1 point, just played")
    assert squares["O15"] == "O15, empty, triple word"
    first = board_squares((sample_site / "round-2/table-2/1.html").read_text())
    assert first["H8"] == "H8, empty, double word (centre)"
    assert "Unseen by RightBehindYou: " in text and "in the bag" in text
    assert '<textarea id="cgp-text" readonly' in html
    assert 'href="4.html" rel="prev"' in html and 'href="6.html" rel="next"' in html
    noted = (sample_site / "round-2/table-2/17.html").read_text()
    assert "<li class=\"note\"><p>this<br>\nis<br>\na<br>\nmultiline<br>\nnote</p>\n</li>" in noted


def _unseen_section(html: str) -> str:
    return text_of(html.split('aria-labelledby="unseen-h">', 1)[1].split("</section>", 1)[0])


def test_the_unseen_tiles_say_whose_view_they_are(sample_site) -> None:
    """The unseen tiles are the player to move's (the bag and the other rack, shown in
    the score table beside them), and the heading says so; once the game is over they
    are the tiles off the board, the racks left."""
    folder = sample_site / "round-2/table-2"
    turn17 = (folder / "17.html").read_text()
    table = text_of(turn17.split('<table class="score-table"', 1)[1].split("</table>")[0])
    assert "HastyBot to move 360 (+128) CDEEFGO RightBehindYou 232 (-128) HLMOORY" in table
    assert '<section class="unseen" aria-labelledby="unseen-h">\n<h2 id="unseen-h">' in turn17
    unseen = _unseen_section(turn17)
    # 24 in the bag and RightBehindYou's HLMOORY; none of HastyBot's own CDEEFGO
    assert unseen.startswith(" Unseen by HastyBot: 31 16 vowels, 15 consonants · 24 in the bag ")
    tiles = set(unseen.split("in the bag")[1].split())
    assert set("HLMORY") <= tiles and not set("CDFG") & tiles
    for number in (28, 29):
        page = (folder / f"{number}.html").read_text()
        assert "The game is over." in text_of(page)
        assert re.search(r"HastyBot 516 \(\+\d+\) I ", text_of(page))
        assert _unseen_section(page) == \
            " Tiles off the board: 1 1 vowel, 0 consonants · 0 in the bag I "


def test_a_note_keeps_its_line_breaks_on_turn_and_game_pages(tmp_path) -> None:
    """Each line of a multi-line #note is a line on the page, raw HTML escaped unless
    allow_html is on."""
    record = ("#player1 a a\n#player2 b b\n#note before\nthe game\n"
              ">a: AB 8G AB +8 8\n#note first *line*\nsecond <b>line</b>\n")
    for allow_html, bold in ((False, "&lt;b&gt;line&lt;/b&gt;"), (True, "<b>line</b>")):
        event = make_event(tmp_path / f"ev-{allow_html}", {
            "game.gcg": record, "event.yaml": f"allow_html: {str(allow_html).lower()}\n"})
        out = tmp_path / f"o-{allow_html}"
        run_build(str(event), "-o", str(out), "--quiet")
        assert (f'<li class="note"><p>first <em>line</em><br>\nsecond {bold}</p>\n</li>'
                in (out / "game/1.html").read_text())
        assert "<p>before<br>\nthe game</p>" in (out / "game/index.html").read_text()


def test_the_game_page_gathers_every_note_under_its_move(tmp_path) -> None:
    """A coach reads or prints the whole game's annotations from its page: each turn
    with notes, in order, under its move in words and a link to its turn page, the
    note after the last move too. A spoiler-free event leaves them to the turn pages,
    as it does the sheet."""
    record = ("#player1 Ann Ann\n#player2 Bob Bob\n>Ann: AEINRST 8D RETAINS +66 66\n"
              "#note A *bingo*.\n>Bob: EIOU -EIOU +0 0\n>Ann: AB 9C BA +9 75\n"
              "#note Weak.\n#comment text=\"Better: AB 9D\"\n")
    for spoiler_free in (False, True):
        event = make_event(tmp_path / f"ev-{spoiler_free}", {
            "game.gcg": record, "event.yaml": f"spoiler_free: {str(spoiler_free).lower()}\n"})
        out = tmp_path / f"site-{spoiler_free}"
        assert run_build(str(event), "-o", str(out), "--quiet").exit_code == 0
        page = (out / "game/index.html").read_text(encoding="utf-8")
        turns = re.findall(r'<h3 id="notes-\d+-h"><a href="(\d+)\.html">Turn \d+</a>: '
                           r'([^<]+)</h3>\n<ul class="notes">(.*?)</ul></article>', page, re.S)
        if spoiler_free:
            assert turns == [] and "A <em>bingo</em>" in (out / "game/1.html").read_text()
            continue
        assert [(number, move) for number, move, _ in turns] == [
            ("1", "Ann played RETAINS at 8D across for 66 points (bingo)"),
            ("3", "Ann played BA at 9C across for 9 points")]
        assert '<li class="note"><p>A <em>bingo</em>.</p>' in turns[0][2]
        assert re.findall(r'<li class="(\w+)"><p>([^<]+)</p>', turns[1][2]) == [
            ("note", "Weak."), ("comment", "Better: AB 9D")]


def test_the_event_description_is_markdown_whose_lines_join(tmp_path) -> None:
    """Unlike a record's notes, written line by line, the description in event.yaml is
    prose wrapped in the file (as the sample's is): its lines make one paragraph, and
    a line ending in a backslash breaks there, as markdown has it."""
    game = "#player1 a a\n#player2 b b\n>a: AB 8G AB +8 8\n"
    for name, lines, paragraph in (
            ("wrapped", "  The spring open, played\n  at the Town Hall.\n",
             "The spring open, played\nat the Town Hall."),
            ("broken", "  Venue: Town Hall\\\n  Director: Ann\n",
             "Venue: Town Hall<br>\nDirector: Ann")):
        event = make_event(tmp_path / name, {"game.gcg": game,
                                             "event.yaml": f"description: |\n{lines}"})
        out = tmp_path / f"{name}-site"
        assert run_build(str(event), "-o", str(out), "--quiet").exit_code == 0
        assert f"<p>{paragraph}</p>" in (out / "index.html").read_text()


def test_phoney_and_withdrawal_are_marked(sample_site) -> None:
    phoney = text_of((sample_site / "round-2/table-2/10.html").read_text())
    assert "a phoney, challenged off on the next turn" in phoney
    withdrawn = text_of((sample_site / "round-2/table-2/11.html").read_text())
    assert "RightBehindYou's play was challenged off and withdrawn: -27 points" in withdrawn
    # the score sheet marks the phoney, so that a spectator reading its words back
    # does not take it for a word; the other plays are not marked
    sheet = (sample_site / "round-2/table-2/index.html").read_text()
    rows = re.findall(r'<tr class="([^"]*)"><td><a href="(\d+)\.html"', sheet)
    assert [number for classes, number in rows if "phoney" in classes.split()] == ["10"]
    row_10 = sheet.split('<a href="10.html"', 1)[1].split("</tr>", 1)[0]
    assert 'class="play phoney' in sheet and "phoney" in text_of(row_10)


def test_a_play_marks_the_tiles_it_went_through(sample_site) -> None:
    """TANGOi(S)T at L1 down runs through the S on L7: the board says so, by sight (a
    class the stylesheet rings) and by ear; the next turn's board no longer does."""
    page = (sample_site / "round-2/table-2/5.html").read_text()
    squares = board_squares(page)
    assert squares["L7"] == "L7, S, 1 point, played through"
    assert squares["L6"].endswith(", just played") and "just played" in squares["L8"]
    assert '<td class="t" data-l="S" data-p="1"><i>L7,' in page
    assert "played through" not in (sample_site / "round-2/table-2/6.html").read_text()
    assert "played through" not in (sample_site / "round-2/table-2/index.html").read_text()


def test_game_page_has_sheet_board_chart_and_links(sample_site) -> None:
    html = (sample_site / "round-1/table-1/index.html").read_text()
    assert '<a href="input.gcg" download>' in html and 'href="game.json"' in html
    assert "<polyline" in html and 'role="img"' in html
    assert html.count('<a href="1.html"') >= 1
    data = json.loads((sample_site / "round-1/table-1/game.json").read_text())
    assert data["format"] == "pgm-game/1" and data["round"] == "1" and data["table"] == "1"
    assert data["events"][0]["cgp"].startswith("15/")


def test_player_index_links_every_player(sample_site) -> None:
    html = (sample_site / "players.html").read_text()
    assert "Peter Armstrong" in html and 'href="round-2/table-1/index.html"' in html
    assert "W 471–407" in text_of(html)


def test_the_player_index_is_in_standings_order_unless_spoiler_free(tmp_path) -> None:
    """Spectators look for the leaders: most games won, then fewer lost, then spread. A
    spoiler-free event lists by name, whose order tells nothing."""
    records = {"r1/t1.gcg": CORPUS / "gcg/macondo__vs_andy.gcg",  # andy beats cesar
               "r1/t2.gcg": SAMPLE_GAMES / "round-2/table-1.gcg",  # Noah beats Peter
               "r1/t3.gcg": SAMPLE_GAMES / "round-1/table-1.gcg"}  # jvc beats Becky by 11
    event = make_event(tmp_path / "ev", {name: path.read_bytes()
                                         for name, path in records.items()})

    def order(out: str) -> list[str]:
        assert run_build(str(event), "-o", str(tmp_path / out)).exit_code == 0
        html = (tmp_path / out / "players.html").read_text()
        return re.findall(r'<tr id="player-[^"]+"><th scope="row">([^<]*)</th>', html)

    assert order("o") == ["Noah", "andy", "jvc", "Becky", "cesar", "Peter Armstrong"]
    (event / "event.yaml").write_text("spoiler_free: true\n")
    assert order("s") == ["andy", "Becky", "cesar", "jvc", "Noah", "Peter Armstrong"]


def test_the_player_index_keeps_each_divisions_records_apart(tmp_path) -> None:
    """A player's wins in one division are not their record in another: an event of
    several divisions lists its players under each division's heading."""
    game = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {"Division A/r1.gcg": game, "Division B/r1.gcg": game,
                                         "Division B/r2.gcg": game})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    html = (tmp_path / "o/players.html").read_text()
    sections = re.findall(r"<h2 [^>]*>([^<]*)</h2>(.*?)</table>", html, re.S)
    assert [heading for heading, _ in sections] == ["Division A", "Division B"]
    rows = {heading: re.findall(r'<tr id="([^"]+)"><th scope="row">([^<]*)</th>\s*'
                                r"<td>(\d+)</td><td>(\d+)</td>", table)
            for heading, table in sections}
    assert rows == {
        "Division A": [("player-Division_A/andy", "andy", "1", "0"),
                       ("player-Division_A/cesar", "cesar", "0", "1")],
        "Division B": [("player-Division_B/andy", "andy", "2", "0"),
                       ("player-Division_B/cesar", "cesar", "0", "2")]}


def test_divisions_are_listed_in_the_order_of_their_folders_then_of_their_names(
        tmp_path) -> None:
    """An archive's years stay in order whatever event.yaml names them; divisions
    sharing a folder (named by their records) go by name."""
    game = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {
        "2004/round-1/t1.gcg": game, "2004/round-2/t1.gcg": game, "2010/round-1/t1.gcg": game,
        "2019/r1/t1.gcg": game, "2023/t1.gcg": game, "2023/t2.gcg": game,
        "2023/event.yaml": "games:\n  t1.gcg: {division: Open B}\n  t2.gcg: {division: Open A}\n",
        "2004/event.yaml": "division: Club Championship 2004\n",
        "2010/event.yaml": "division: Club Championship 2010\n"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    order = ["Club Championship 2004", "Club Championship 2010", "2019", "Open A", "Open B"]
    index = (tmp_path / "o/index.html").read_text()
    assert [h for h in re.findall(r"<h2[^>]*>([^<]*)</h2>", index) if h in order] == order
    players = (tmp_path / "o/players.html").read_text()
    assert [h for h in re.findall(r"<h2[^>]*>([^<]*)</h2>", players) if h in order] == order


def test_a_themes_player_page_made_before_divisions_lists_each_player_once(tmp_path) -> None:
    game = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {
        "Division A/r1.gcg": game, "Division B/r1.gcg": game, "event.yaml": "theme_dir: t\n",
        "t/players.html": "{% for p in players %}{{ p.name }} {{ p.won }}-{{ p.lost }};"
                          "{% endfor %}"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    assert (tmp_path / "o/players.html").read_text() == "andy 2-0;cesar 0-2;"


def test_static_files_and_marker(sample_site) -> None:
    assert (sample_site / "static/pgm.css").is_file() and (sample_site / "static/pgm.js").is_file()
    assert (sample_site / MARKER).is_file() and (sample_site / "404.html").is_file()
    assert not (sample_site / "sitemap.xml").exists()
    assert 'rel="canonical"' not in (sample_site / "index.html").read_text()


def test_relative_links_only(sample_site) -> None:
    for page in sample_site.rglob("*.html"):
        if page.name == "404.html":
            continue
        html = page.read_text()
        assert 'href="/' not in html and 'src="/' not in html, page


HOSTILE = """
#player1 evil <script>alert(1)</script>
#player2 other "quoted'name <img src=x onerror=alert(2)>
#title <b>bold</b> title
#description [click](javascript:alert(3)) <iframe src=x></iframe>
>evil: AB 8G AB +8 8
#note <script>alert(4)</script> **fine**
>other: CD 9G CD +10 10
"""


def test_untrusted_text_is_escaped(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"game.gcg": HOSTILE})
    result = run_build(str(event), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    for page in (tmp_path / "out").rglob("*.html"):
        html = page.read_text()
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "<iframe" not in html and "javascript:alert" not in html.replace(
            "[click](javascript:alert(3))", "")
        assert "<b>bold</b>" not in html
    turn = (tmp_path / "out/game/1.html").read_text()
    assert "&lt;script&gt;alert(4)&lt;/script&gt; <strong>fine</strong>" in turn
    data = json.loads((tmp_path / "out/game/game.json").read_text())
    assert data["names"][1] == "\"quoted'name <img src=x onerror=alert(2)>"


def test_allow_html_turns_raw_html_on(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"game.gcg": "#player1 a a\n#player2 b b\n"
                                         ">a: AB 8G AB +8 8\n#note <em>raw</em>\n",
                                         "event.yaml": "allow_html: true\n"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    assert "<em>raw</em>" in (tmp_path / "o/game/1.html").read_text()


def test_overlays_folder_and_glob_precedence(tmp_path) -> None:
    good = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Club night\ndivision: Open\nspoiler_free: false\n",
        "A/event.yaml": "division: Premier\nround: 7\n",
        "A/g1.gcg": good, "A/g2.gcg": good, "B/g3.gcg": good,
        "A/sub/event.yaml": "games:\n  g4.gcg:\n    title: Final\n    table: 9\n",
        "A/sub/g4.gcg": good,
    })
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0

    def meta(slug: str) -> tuple:
        data = json.loads((tmp_path / "o" / slug / "game.json").read_text())
        return data["division"], data["round"], data["table"], data["title"]

    assert meta("a/g1") == ("Premier", "7", None, "andy vs cesar")
    assert meta("b/g3") == ("Open", None, None, "andy vs cesar")
    assert meta("a/sub/g4") == ("Premier", "7", "9", "Final")


def test_draft_games_are_left_out_and_spoiler_free_hides_results(tmp_path) -> None:
    good = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {
        "event.yaml": "spoiler_free: true\ngames:\n  secret.gcg:\n    draft: true\n",
        "shown.gcg": good, "secret.gcg": good})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    assert not (tmp_path / "o/secret").exists()
    index = text_of((tmp_path / "o/index.html").read_text())
    assert "423" not in index and "finished" in index
    assert "423" not in text_of((tmp_path / "o/players.html").read_text())
    first = (tmp_path / "o/shown/1.html").read_text()
    assert "<title>andy vs cesar &middot; turn 1 &middot; Games</title>" in first
    # the game page and the turn pages show no turn after the one a spectator is on
    overview = (tmp_path / "o/shown/index.html").read_text()
    assert '<table class="sheet">' not in overview and "423" not in text_of(overview)
    # the downloads give the game away, and say so before a spectator opens one
    assert "Every move of the event as a table (moves.csv) (spoilers: every score and " \
        "result)" in index
    assert "Spoilers: these hold the whole game and its result. Download the record" in \
        text_of(overview)
    turns = len(parse_gcg(good, "g").events)
    for number in (1, 3, turns):
        page = (tmp_path / f"o/shown/{number}.html").read_text()
        listed = page.split('<nav class="turn-list"', 1)[1].split("</nav>", 1)[0]
        assert re.findall(r'href="(\d+)\.html"', listed) == [str(n) for n in
                                                              range(1, number + 1)]
        assert "Turns so far" in listed and "Score sheet" not in listed


def test_a_spoiler_free_page_does_not_tell_that_its_play_is_challenged_off_next(
        tmp_path) -> None:
    """The sample's round 2 table 2 has a phoney (VOKDA) withdrawn on the next turn."""
    record = (SAMPLE_GAMES / "round-2/table-2.gcg").read_bytes()
    phoney = next(n for n, e in enumerate(parse_gcg(record, "g").events, start=1)
                  if "VOKDA" in e.text)
    for spoiler_free, told in ((False, True), (True, False)):
        out = tmp_path / str(spoiler_free)
        event = make_event(out / "ev", {"g.gcg": record,
                                        "event.yaml": f"spoiler_free: {spoiler_free}\n"})
        assert run_build(str(event), "-o", str(out / "o")).exit_code == 0
        page = (out / f"o/g/{phoney}.html").read_text()
        assert "played VOKDA" in page
        assert ("challenged off on the next turn" in page) is told
        assert "challenged off and withdrawn" in (out / f"o/g/{phoney + 1}.html").read_text()


def test_config_problems_name_file_line_and_key(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": "#player1 a a\n#player2 b b\n",
                                         "event.yaml": "title: x\ncolour: red\n"})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0
    assert f"{event / 'event.yaml'}:2: warning: unknown key 'colour' ignored" in result.output
    (event / "event.yaml").write_text("title: x\nspoiler_free: maybe\n")
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert (f"{event / 'event.yaml'}:2: error: key 'spoiler_free' must be true or false, "
            "not 'maybe'") in result.output
    (event / "event.yaml").write_text("title: [unclosed\n")
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1 and "YAML syntax error" in result.output
    assert "Traceback" not in result.output


def test_one_broken_game_among_good_ones(tmp_path) -> None:
    good = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    broken = b"#player1 a a\n#player2 b b\n>a: ZA 8G ZA +22 22\n>b: QI 8G QI +11 11\n"
    event = make_event(tmp_path / "ev", {"good.gcg": good, "broken.gcg": broken})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert "broken.gcg:4: error: cannot place 8G QI" in result.output
    assert f"Records with errors (rendered up to the problem): {event}/broken.gcg" \
        in result.output
    assert (tmp_path / "o/good/index.html").is_file()
    assert (tmp_path / "o/broken/1.html").is_file() and not (tmp_path / "o/broken/2.html").exists()
    assert "G8 already holds" in (tmp_path / "o/broken/1.html").read_text()
    assert "G8 already holds" in (tmp_path / "o/broken/index.html").read_text()


def test_strict_fails_on_warnings(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": "#player1 a a\n#player2 b b\n"
                                         ">a: ZA 8G ZA +25 25\n"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    assert run_build(str(event), "-o", str(tmp_path / "o"), "--strict").exit_code == 1


def test_dangerous_output_folders_are_refused(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"round/g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg")
                                         .read_bytes()})
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "thesis.txt").write_text("precious")
    for out, reason in ((event, "is the event folder"), (tmp_path, "contains the event"),
                        (event / "round", "contains the record"), (repo, ".git"),
                        (foreign, "was not made by pgm build")):
        result = run_build(str(event), "-o", str(out))
        assert result.exit_code == 1 and reason in result.output, (out, result.output)
    assert (foreign / "thesis.txt").read_text() == "precious" and (repo / ".git").is_dir()
    assert (event / "round/g.gcg").is_file()



def test_an_event_named_dot_is_named_by_its_path_in_a_refusal(tmp_path, monkeypatch) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg")
                                         .read_bytes()})
    monkeypatch.chdir(event)
    result = run_build(".", "-o", str(tmp_path))
    assert result.exit_code == 1
    assert f"contains the event folder {event.resolve()};" in result.output


def test_a_site_built_inside_the_event_is_never_read_as_records(tmp_path) -> None:
    """Each game folder of a site holds its record again (input.gcg): a site built to a
    folder of the event must not turn into more games when the event is built again,
    to that folder or any other."""
    event = make_event(tmp_path / "ev", {"round-1/g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg")
                                         .read_bytes()})
    assert run_build(str(event), "-o", str(event / "site")).exit_code == 0
    assert (event / "site/round-1/g/input.gcg").is_file()
    for out in (event / "site", event / "_site", tmp_path / "elsewhere"):
        result = run_build(str(event), "-o", str(out))
        built = "Nothing changed: 1 record up to date" if out == event / "site" \
            else "Built 1 record"
        assert result.exit_code == 0 and built in result.output, result.output
        assert not (out / "site").exists()
    exported = CliRunner().invoke(main, ["export", str(event)]).output
    assert "round-1/g.gcg" in exported and "input.gcg" not in exported


def test_rebuild_touches_only_its_own_files_in_the_default_location(tmp_path) -> None:
    record = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {"g.gcg": record})
    assert run_build(str(event)).exit_code == 0
    site = event / "_site"
    (site / "mine.html").write_text("a file pgm did not make")
    turns = len(list((site / "g").glob("[0-9]*.html")))
    # The record loses its last two events: their pages go, the user's file stays.
    shorter = b"\n".join(record.rstrip().split(b"\n")[:-3]) + b"\n"
    assert len(parse_gcg(shorter, "g").events) == turns - 2
    (event / "g.gcg").write_bytes(shorter)
    assert run_build(str(event)).exit_code == 0
    assert len(list((site / "g").glob("[0-9]*.html"))) == turns - 2
    assert (site / "mine.html").read_text() == "a file pgm did not make"
    assert not [p for p in event.iterdir() if p.name.startswith(".")]
    assert not [p for p in site.rglob(".*.tmp")]


def test_failed_build_leaves_the_previous_site(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg")
                                         .read_bytes()})
    out = tmp_path / "o"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    make_event(event, {"event.yaml": "theme_dir: theme\n",
                       "theme/turn.html": "{% extends 'base.html' %}"
                                          "{% block main %}{{ no_such_value }}{% endblock %}"})
    result = run_build(str(event), "-o", str(out))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "turn.html" in result.output and "no_such_value" in result.output
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_theme_dir_overrides_and_extends_the_builtin(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes(),
        "event.yaml": "theme_dir: theme\ncss: club.css\n",
        "club.css": "body { color: green; }",
        "theme/turn.html": "{% extends '!default/turn.html' %}"
                           "{% block footer %} Club theme.{% endblock %}",
        "theme/static/logo.txt": "logo", "theme/static/pgm.css": "/* the club's look */"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    assert (tmp_path / "o/static/pgm.css").read_text() == "/* the club's look */"
    turn = (tmp_path / "o/g/3.html").read_text()
    assert "Club theme." in turn and 'class="board' in turn
    assert 'href="../static/event/club.css"' in turn
    assert (tmp_path / "o/static/logo.txt").read_text() == "logo"
    assert (tmp_path / "o/static/event/club.css").read_text() == "body { color: green; }"


def test_a_theme_edited_between_builds_of_one_process_is_used(tmp_path) -> None:
    """``pgm watch`` builds again in the same process: an edited template is read anew
    although the environment does not look at file times on every load."""
    event = make_event(tmp_path / "ev", {
        "g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes(),
        "event.yaml": "theme_dir: theme\n",
        "theme/turn.html": "{% extends '!default/turn.html' %}"
                           "{% block footer %} First theme.{% endblock %}"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    make_event(event, {"theme/turn.html": "{% extends '!default/turn.html' %}"
                                          "{% block footer %} Second theme.{% endblock %}"})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    turn = (tmp_path / "o/g/3.html").read_text()
    assert "Second theme." in turn and "First theme." not in turn


@pytest.fixture
def code_cache(tmp_path, monkeypatch):
    """Compiled templates kept in a temp folder of the test's own, and environments made
    anew, as a new run of pgm makes them."""
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    pgm.render._environment.cache_clear()
    yield temp
    pgm.render._environment.cache_clear()


def _compiles(monkeypatch) -> list[str]:
    """The names of the templates Jinja compiles from here on."""
    names: list[str] = []
    compile_source = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, *args, **kwargs):
        names.append(name)
        return compile_source(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return names


def _build_as_a_new_run(event, out) -> str:
    pgm.render._environment.cache_clear()
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    return (out / "g/3.html").read_text()


def test_compiled_templates_are_kept_for_the_next_run(tmp_path, code_cache, monkeypatch):
    event = make_event(tmp_path / "ev", {"g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg")
                                         .read_bytes()})
    first = _build_as_a_new_run(event, tmp_path / "first")
    assert list(code_cache.glob("_jinja2-cache-*/pgm-*.cache"))
    compiled = _compiles(monkeypatch)
    assert _build_as_a_new_run(event, tmp_path / "second") == first
    assert compiled == []
    # another pgm (another code generator) compiles its own
    monkeypatch.setattr(pgm.render, "_CODE_STAMP", "another pgm")
    assert _build_as_a_new_run(event, tmp_path / "third") == first
    assert "turn.html" in compiled


def test_without_a_temp_folder_no_cache_appears_in_the_current_folder(tmp_path, code_cache,
                                                                        monkeypatch):
    """Python's last resort for a temp folder is the current one, here the event's."""
    event = make_event(tmp_path / "ev", {"g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg")
                                         .read_bytes()})
    monkeypatch.chdir(event)
    monkeypatch.delenv("TMPDIR")
    monkeypatch.setattr(tempfile, "tempdir", str(event))
    assert _build_as_a_new_run(event, tmp_path / "o")
    assert sorted(p.name for p in event.iterdir()) == ["g.gcg"]


def test_a_damaged_or_unusable_template_cache_is_passed_by(tmp_path, code_cache):
    event = make_event(tmp_path / "ev", {"g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg")
                                         .read_bytes()})
    first = _build_as_a_new_run(event, tmp_path / "first")
    for kept in code_cache.glob("_jinja2-cache-*/pgm-*.cache"):
        kept.write_bytes(kept.read_bytes()[:40])
    assert _build_as_a_new_run(event, tmp_path / "damaged") == first
    # a cache folder that is not a private folder of this user is not used at all
    for folder in code_cache.glob("_jinja2-cache-*"):
        shutil.rmtree(folder)
        folder.write_text("not a folder")
    assert _build_as_a_new_run(event, tmp_path / "unusable") == first


def test_base_url_adds_sitemap_and_canonical_links(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes(),
        "h.gcg": (CORPUS / "gcg/liwords__r2_tim.gcg").read_bytes()})
    os.utime(event / "g.gcg", (0, 1_700_000_000))
    os.utime(event / "h.gcg", (0, 1_600_000_000))
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--base-url",
                       "https://example.org/club/")
    assert result.exit_code == 0
    sitemap = (tmp_path / "o/sitemap.xml").read_text()
    assert ("<url><loc>https://example.org/club/g/1.html</loc>"
            "<lastmod>2023-11-14T22:13:20+00:00</lastmod></url>") in sitemap
    assert ("<url><loc>https://example.org/club/h/index.html</loc>"
            "<lastmod>2020-09-13T12:26:40+00:00</lastmod></url>") in sitemap
    assert ("<url><loc>https://example.org/club/index.html</loc>"
            "<lastmod>2023-11-14T22:13:20+00:00</lastmod></url>") in sitemap
    assert ('<link rel="canonical" href="https://example.org/club/index.html">'
            in (tmp_path / "o/index.html").read_text())


def test_records_found_recursively_and_output_not_read(tmp_path) -> None:
    good = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {"div/r1/a.gcg": good, ".hidden/b.gcg": good})
    assert run_build(str(event)).exit_code == 0
    shutil.copy(event / "div/r1/a.gcg", event / "_site/copy.gcg")
    assert run_build(str(event)).exit_code == 0
    assert sorted(p.parent.name for p in (event / "_site").rglob("game.json")) == ["a"]


def test_lettered_rows_orientation_labels_rows_with_letters(tmp_path) -> None:
    record = (CORPUS / "gcg-nonexact/scrabscrap__nu19_timon-alex.gcg").read_bytes()
    body = record.replace(b"#player1", b"#orientation lettered-rows\n#player1", 1)
    event = make_event(tmp_path / "ev", {"g.gcg": body})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    game = replay(parse_gcg(body, "g"))
    html = (tmp_path / "o/g/1.html").read_text()
    assert '<th scope="row">A</th>' in html and '<th scope="col">1</th>' in html
    first = game.turns[0]
    # A play the record writes as "8D" is drawn along column 8 of rows D, E, ...
    names = set(tiles_on(html))
    expected = {f"{chr(65 + t.col)}{t.row + 1}" for t in first.placed}
    assert names == expected


def test_lettered_rows_moves_are_described_as_drawn(tmp_path) -> None:
    """``H4`` on a board with lettered rows runs along row H: across, as the board shows
    it; ``7F`` runs down column 7."""
    record = CORPUS / "gcg-nonexact/scrabscrap__nu19_johannes-stefan.gcg"
    event = make_event(tmp_path / "ev", {"g.gcg": record.read_bytes()})
    run_build(str(event), "-o", str(tmp_path / "o"))
    across = (tmp_path / "o/g/2.html").read_text()
    assert "Stefan played MÜHST at H4 across for 32 points" in text_of(across)
    assert set(tiles_on(across)) == {"H4", "H5", "H6", "H7", "H8"}
    down = (tmp_path / "o/g/3.html").read_text()
    assert "Johannes played NI(S)SIGER at 7F down for 62 points" in text_of(down)
    new = set(tiles_on(down)) - set(tiles_on(across))
    assert new == {"F7", "G7", "I7", "J7", "K7", "L7", "M7"}  # through the S on H7


@pytest.mark.parametrize("spoiler_free", [False, True])
def test_index_pages_are_the_same_whether_rows_are_kept_or_not(tmp_path, spoiler_free) -> None:
    """A first build makes the pages about the event without keeping rows; a watch
    rebuild keeps them and reuses them the next time: the bytes are the same."""
    event = tmp_path / "ev"
    shutil.copytree(SAMPLE_GAMES, event)
    config = event / "event.yaml"
    text = config.read_text().replace("spoiler_free: false",
                                      f"spoiler_free: {str(spoiler_free).lower()}")
    config.write_text(text + "\nbase_url: https://example.org/ev/\n")
    out = tmp_path / "o"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    state = load_state(out)
    entries = [state.games[slug].entry for slug in sorted(state.games)]
    configs = load_configs(event, [], {})
    env = make_environment(None)

    def pages(keep: bool) -> dict[str, str]:
        return {name: "".join(chunks)
                for name, chunks in render_site_files(env, configs, entries, keep)}

    once, kept, reused = pages(False), pages(True), pages(True)
    assert once == kept == reused
    assert set(once) == {"index.html", "players.html", "404.html", "live.json", "sitemap.xml"}
    assert all(once[name] == (out / name).read_text(encoding="utf-8") for name in once)


def _stylesheets(html: str) -> list[str]:
    return re.findall(r'<link rel="stylesheet" href="([^"]+)">', html)


def test_event_stylesheets_never_replace_pgms_or_each_other(tmp_path) -> None:
    """``css: [pgm.css]`` once replaced the site's own stylesheet, and two club.css in
    different folders shared one file: each sheet now has a place of its own."""
    event = make_event(tmp_path / "ev", {
        "g.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes(),
        "event.yaml": "css: [pgm.css, a/club.css, b/club.css, gungi.css, my club.css]\n",
        "pgm.css": "body { color: red; }", "a/club.css": "a { color: blue; }",
        "b/club.css": "b { color: green; }", "gungi.css": "i {}", "my club.css": "p {}"})
    out = tmp_path / "o"
    result = run_build(str(event), "-o", str(out), "--strict")
    assert result.exit_code == 0, result.output
    builtin = builtin_dir("static")
    for name in ("pgm.css", "gungi.css"):
        assert (out / "static" / name).read_bytes() == (builtin / name).read_bytes()
    for name in ("pgm.css", "a/club.css", "b/club.css", "gungi.css", "my club.css"):
        assert (out / "static/event" / name).read_bytes() == (event / name).read_bytes()
    assert _stylesheets((out / "g/3.html").read_text()) == [
        "../static/pgm.css", "../static/event/pgm.css", "../static/event/a/club.css",
        "../static/event/b/club.css", "../static/event/gungi.css",
        "../static/event/my%20club.css"]
    assert _stylesheets((out / "index.html").read_text())[1] == "static/event/pgm.css"


def test_turn_pages_of_plain_names_are_plain_ascii(tmp_path) -> None:
    """Every character pgm itself writes on a crossword turn page is ASCII (entities for
    ·, ×): a page of one non-ASCII character is held at two or four bytes a character
    and has to be transcoded to be written, which made every build 6% slower."""
    record = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {"done.gcg": record,
                                         "live.gcg": record_prefix(record, 6)})
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    pages = sorted((tmp_path / "o").glob("*/[0-9]*.html"))
    assert len(pages) > 20 and 'data-live="game.json"' in (tmp_path / "o/live/6.html").read_text()
    assert [p.relative_to(tmp_path / "o").as_posix() for p in pages
            if not p.read_bytes().isascii()] == []

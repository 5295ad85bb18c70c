"""Folders the listing does not show: several events' folders built as one site, two
games at one table, and a subfolder's ``title`` given to each of its games alike."""

from __future__ import annotations

import re
from urllib.parse import unquote

from click.testing import CliRunner
from conftest import CORPUS, SAMPLE_GAMES
from sitehelpers import copy_warning, make_event, run_build

from pgm.cli import main
from pgm.event_checks import same_places
from pgm.site_model import GameEntry

DOUG_V_EMELY = (CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes()
OTHER = (CORPUS / "gcg/MAGPIE-DATA__success.gcg").read_bytes()
THIRD = (CORPUS / "gcg/MAGPIE-DATA__muzaks_empyrean.gcg").read_bytes()
FOURTH = (CORPUS / "gcg/liwords__josh_nationals_round_11.gcg").read_bytes()
FIFTH = (CORPUS / "gcg/liwords__josh_nationals_round_12.gcg").read_bytes()
SIXTH = (CORPUS / "gcg/liwords__every_power_tile.gcg").read_bytes()
POSITIONS = (SAMPLE_GAMES / "positions/puzzles.cgp").read_bytes()


def warnings(output: str) -> list[str]:
    return [line for line in output.splitlines() if ": warning: " in line]


def division_headings(index: str) -> list[str]:
    """The index's division headings, in order (not its table of contents')."""
    return [heading for heading in re.findall(r"<h2 [^>]*>([^<]*)</h2>", index)
            if heading != "Contents"]


def built(tmp_path, files: dict[str, str | bytes], *args: str):
    event = make_event(tmp_path / "ev", files)
    return event, run_build(str(event), "-o", str(tmp_path / "site"), *args)


def builds_clean(tmp_path, files: dict[str, str | bytes]) -> None:
    _, result = built(tmp_path, files, "--strict")
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------------------------------
# Games listed at one place


def test_two_events_built_as_one_site_are_warned_of_at_each_game(tmp_path) -> None:
    """A club's archive of two events (``2022/Spring Open``, ``2022/Autumn Cup``) lists
    both events' round 1 as one, division 2022, and the events' names nowhere."""
    event, result = built(tmp_path, {
        "event.yaml": "title: Club\n",
        "2022/Spring Open/round-1/table-1.gcg": DOUG_V_EMELY,
        "2022/Autumn Cup/round-1/table-1.gcg": OTHER,
    })
    assert result.exit_code == 0, result.output
    spring = event / "2022/Spring Open/round-1/table-1.gcg"
    autumn = event / "2022/Autumn Cup/round-1/table-1.gcg"

    def message(game, other, folder) -> str:
        return (f"{game}:1: warning: listed at 2022 › Round 1, table 1, as is {other} from "
                f"another folder: the index leaves out folder '{folder}' (the division is "
                "the first folder that is not a round), so both folders' games are listed "
                "as one event and the player index adds up their results; set "
                "division_folders: 2 in the event's event.yaml, to name each division by its "
                f"first 2 folders (\"2022 / {folder}\"), or set division: in "
                f"each folder's event.yaml (e.g. division: 2022 {folder} in "
                f"{event / '2022' / folder / 'event.yaml'}), or build each event folder as "
                "a site of its own")

    assert warnings(result.output) == [message(autumn, spring, "Autumn Cup"),
                                       message(spring, autumn, "Spring Open")]
    assert "0 error(s), 2 warning(s)" in result.output
    assert run_build(str(event), "-o", str(tmp_path / "site"), "--strict").exit_code == 1
    # pgm check says so too, as a director runs it before the build
    checked = CliRunner().invoke(main, ["check", str(event)])
    assert checked.stdout.splitlines() == warnings(result.output)


def test_division_folders_lists_an_archives_events_apart(tmp_path) -> None:
    """The fix the warning gives for an archive: ``division_folders: 2`` names each
    division by its first two folders, so both events' round 1 are listed apart, each
    under its own heading, and their players' records stay apart."""
    event, result = built(tmp_path, {
        "event.yaml": "title: Club\ndivision_folders: 2\n",
        "2022/Spring Open/round-1/table-1.gcg": DOUG_V_EMELY,
        "2022/Autumn Cup/round-1/table-1.gcg": OTHER,
    })
    assert result.exit_code == 0, result.output
    assert warnings(result.output) == []
    index = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    headings = division_headings(index)
    assert headings == ["2022 / Autumn Cup", "2022 / Spring Open"]
    players = (tmp_path / "site/players.html").read_text(encoding="utf-8")
    assert re.findall(r"<h2 [^>]*>([^<]*)</h2>", players) == headings
    assert run_build(str(event), "-o", str(tmp_path / "site"), "--strict").exit_code == 0


def test_a_division_in_each_event_folder_lists_the_events_apart(tmp_path) -> None:
    """Each event's folder may name its division as the director likes."""
    builds_clean(tmp_path, {
        "event.yaml": "title: Club\n",
        "2022/Spring Open/event.yaml": "division: Spring Open 2022\n",
        "2022/Spring Open/round-1/table-1.gcg": DOUG_V_EMELY,
        "2022/Autumn Cup/event.yaml": "division: Autumn Cup 2022\n",
        "2022/Autumn Cup/round-1/table-1.gcg": OTHER,
    })
    index = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert division_headings(index) == ["Autumn Cup 2022", "Spring Open 2022"]


def test_games_at_no_table_in_two_event_folders_are_warned_of(tmp_path) -> None:
    """Records named by their players: the two events' rounds are still listed as one."""
    event, result = built(tmp_path, {
        "2022/spring/round-1/ann-bob.gcg": DOUG_V_EMELY,
        "2022/autumn/round-1/carl-dan.gcg": OTHER,
        "2022/autumn/round-1/eve-fay.gcg": THIRD,
    })
    found = warnings(result.output)
    assert [line.split(":1: ")[0] for line in found] == [
        str(event / "2022/autumn/round-1/carl-dan.gcg"),
        str(event / "2022/autumn/round-1/eve-fay.gcg"),
        str(event / "2022/spring/round-1/ann-bob.gcg")]
    assert (f"listed at 2022 › Round 1, as is {event / '2022/autumn/round-1/carl-dan.gcg'} "
            "(and 1 other game) from another folder: the index leaves out folder 'spring' "
            ) in found[2]


def test_folders_below_an_event_with_no_round_folder_in_them_tell_no_events_apart(
        tmp_path) -> None:
    """A folder per player (``players/ann/r1-….gcg``) or per late game below a round's
    folder holds one event's games: listed together, rightly, with no warning."""
    builds_clean(tmp_path, {
        "players/ann/r1-ann-bob.gcg": DOUG_V_EMELY, "players/carl/r1-carl-dan.gcg": OTHER,
        "Open/round-1/ann-bob.gcg": THIRD, "Open/round-1/late/carl-dan.gcg": FOURTH})


def test_the_games_of_a_match_at_one_table_are_no_mistake(tmp_path) -> None:
    """A best-of-three final: the same two players at board 1, three games."""
    lines = DOUG_V_EMELY.splitlines(keepends=True)
    first_moves = b"".join(line for line in lines if not line.startswith(b">"))
    moves = [line for line in lines if line.startswith(b">")]
    builds_clean(tmp_path, {f"finals/board-1-game-{n}.gcg": first_moves + b"".join(moves[:-n])
                            for n in (3, 4, 5)})


def test_an_archive_place_of_thousands_of_games_is_checked_in_one_pass() -> None:
    """Twenty years' folders of a club with no round or table in their names are twenty
    divisions; a place holding many games of two events is grouped, not compared pair by
    pair: each game's warning counts the others."""
    entries = [GameEntry(slug=f"g{n}", relative=f"{event}/round-1/g{n}.gcg", kind="crossword",
                         label="x", players=(f"{event}{n}", f"q{n}"), scores=None, live=False,
                         status="", result_by_seat=(), turns=10, division="2022",
                         round="1", table=None, moves=f"{event}{n}")
               for event in ("spring", "autumn") for n in range(1500)]
    found = same_places(entries)
    assert len(found) == 3000
    assert all("(and 1499 other games)" in d.message for d in found)


def test_two_records_at_one_table_of_one_folder_are_warned_of(tmp_path) -> None:
    """A table mistyped in a file name: two games listed at round 1, table 1."""
    event, result = built(tmp_path, {
        "round-1/table-1.gcg": DOUG_V_EMELY,
        "round-1/t1-ann.gcg": OTHER,
        "round-1/table-2.gcg": FOURTH,
    })
    first, second = event / "round-1/t1-ann.gcg", event / "round-1/table-1.gcg"
    assert warnings(result.output) == [
        f"{first}:1: warning: listed at Round 1, table 1, as is {second} in the same folder: "
        "two games at one table; correct the table in the file name, or set table: for one "
        "of them under games: in event.yaml",
        f"{second}:1: warning: listed at Round 1, table 1, as is {first} in the same folder: "
        "two games at one table; correct the table in the file name, or set table: for one "
        "of them under games: in event.yaml"]


def test_a_table_set_in_event_yaml_ends_the_warning(tmp_path) -> None:
    builds_clean(tmp_path, {
        "event.yaml": "games:\n  round-1/t1-ann.gcg: {table: '3'}\n",
        "round-1/table-1.gcg": DOUG_V_EMELY,
        "round-1/t1-ann.gcg": OTHER,
    })


def test_two_folders_of_one_round_at_one_table_are_warned_of(tmp_path) -> None:
    event, result = built(tmp_path, {
        "round-2/table-3.gcg": DOUG_V_EMELY,
        "Round 2/table-3.gcg": OTHER,
    })
    assert warnings(result.output)[0] == (
        f"{event / 'Round 2/table-3.gcg'}:1: warning: listed at Round 2, table 3, as is "
        f"{event / 'round-2/table-3.gcg'} from another folder of the same round: two games "
        "at one table; correct the table or the round in a file or folder name, or set "
        "table: or round: in event.yaml")


def test_a_rounds_games_at_no_table_are_not_warned_of(tmp_path) -> None:
    """Records named by their players, in their round's folder, and in two folders of
    one round (``round-1``, ``Round 1``): one round's games, as listed."""
    builds_clean(tmp_path, {
        "Open/round-1/ann-bob.gcg": DOUG_V_EMELY,
        "Open/round-1/carl-dan.gcg": OTHER,
        "Open/Round 1/eve-fay.gcg": THIRD,
    })


def test_a_copy_is_warned_of_as_a_copy_only(tmp_path) -> None:
    """A copy is listed at its record's table: the one warning that fits is the copy's."""
    event, result = built(tmp_path, {
        "round-1/table-1.gcg": DOUG_V_EMELY,
        "round-1/table-1 (1).gcg": DOUG_V_EMELY,
    })
    assert warnings(result.output) == [copy_warning(event / "round-1/table-1 (1).gcg",
                                                    event / "round-1/table-1.gcg")]


def test_positions_beside_a_game_are_not_a_second_game_at_its_table(tmp_path) -> None:
    builds_clean(tmp_path, {
        "round-1/table-1.gcg": DOUG_V_EMELY,
        "round-1/table-1.cgp": POSITIONS,
    })


def test_drafts_are_not_listed_with_anything(tmp_path) -> None:
    builds_clean(tmp_path, {
        "event.yaml": "games:\n  'old/*.gcg': {draft: true}\n",
        "round-1/table-1.gcg": DOUG_V_EMELY,
        "old/round-1/table-1.gcg": OTHER,
    })


# ---------------------------------------------------------------------------------------
# A subfolder's title


def test_a_subfolder_title_given_to_several_games_is_warned_of(tmp_path) -> None:
    """``title: Autumn Cup 2022`` in the event's folder lists each of its games as
    "Autumn Cup 2022": the warning says so, and what names a section or an event."""
    event, result = built(tmp_path, {
        "event.yaml": "title: Club\n",
        "Autumn Cup/event.yaml": "# the 2022 edition\ntitle: Autumn Cup 2022\n",
        "Autumn Cup/round-1/table-1.gcg": DOUG_V_EMELY,
        "Autumn Cup/round-1/table-2.gcg": OTHER,
    })
    assert result.exit_code == 0, result.output
    folder = event / "Autumn Cup"
    assert warnings(result.output) == [
        f"{folder / 'event.yaml'}:2: warning: key 'title' titles each of its 2 games alike: "
        "'Autumn Cup 2022', in place of the players' names (below the event's root, title "
        "is each game's own); to name a section, write division: Autumn Cup 2022 instead; "
        f"if {folder} is an event of its own, build that folder for its site"]
    checked = CliRunner().invoke(main, ["check", str(event)])
    assert checked.stdout.splitlines() == warnings(result.output)


def test_a_games_pattern_title_given_to_several_games_is_warned_of(tmp_path) -> None:
    event, result = built(tmp_path, {
        "event.yaml": "title: Club\ngames:\n  'r1/*.gcg': {title: Final}\n",
        "r1/table-1.gcg": DOUG_V_EMELY,
        "r1/table-2.gcg": OTHER,
    })
    assert warnings(result.output) == [
        f"{event / 'event.yaml'}:3: warning: games entry 'r1/*.gcg' titles each of its 2 "
        "games alike: 'Final', in place of the players' names; give each game an entry of "
        "its own for its title, or, to name a section, write division: Final in this entry "
        "instead"]


def test_a_title_for_one_game_is_not_warned_of(tmp_path) -> None:
    """A folder of one game, a pattern matching one, the others drafts or titled by
    entries of their own: the title is one game's."""
    builds_clean(tmp_path, {
        "event.yaml": "title: Club\ngames:\n  'final/*.gcg': {title: Final}\n"
                      "  'r1/table-1.gcg': {title: Opening game}\n",
        "final/table-1.gcg": DOUG_V_EMELY,
        "r1/event.yaml": "title: Round one\ngames:\n  table-2.gcg: {draft: true}\n",
        "r1/table-1.gcg": OTHER,
        "r1/table-2.gcg": THIRD,
        "r1/table-3.gcg": FOURTH,
        "r2/event.yaml": "title: Round two\ngames:\n  table-1.gcg: {title: A}\n"
                         "  table-2.gcg: {title: B}\n",
        "r2/table-1.gcg": FIFTH,
        "r2/table-2.gcg": SIXTH,
        # a set of positions beside the final game is no second game titled so
        "final/puzzles.cgp": POSITIONS,
        "final/event.yaml": "title: The final\n",
    })


# ---------------------------------------------------------------------------------------
# A game page's trail back to the index


def test_a_game_page_links_back_to_its_division_and_round_on_the_index(tmp_path) -> None:
    """A spectator who opened one game of round 2 of the Élite division goes back to
    that round's list, not to the top of the index: each link of the trail is to an id
    the index holds, and an id of a name (``main``) cannot take the page's own."""
    _, result = built(tmp_path, {"Élite/round-2/table-1.gcg": DOUG_V_EMELY,
                                 "Élite/round-10/table-1.gcg": OTHER,
                                 "main/table-1.gcg": THIRD,
                                 "Группа А/t1.gcg": FOURTH, "Группа Б/t1.gcg": FIFTH})
    assert result.exit_code == 0, result.output
    site = tmp_path / "site"
    index = (site / "index.html").read_text(encoding="utf-8")
    trails = {}
    for game in ("elite/round-2/table-1", "elite/round-10/table-1", "main/table-1",
                 "game/t1", "game/t1-2"):
        page = (site / game / "index.html").read_text(encoding="utf-8")
        trail = page.split('aria-label="Site">', 1)[1].split("</nav>", 1)[0]
        up = "../" * (game.count("/") + 1)
        trails[game] = re.findall(f'<a href="{re.escape(up)}index\\.html#([^"]+)">([^<]+)</a>',
                                  trail)
    assert trails == {
        "elite/round-2/table-1": [("division-%C3%89lite", "Élite"),
                                   ("division-%C3%89lite-round-2", "Round 2")],
        "elite/round-10/table-1": [("division-%C3%89lite", "Élite"),
                                   ("division-%C3%89lite-round-10", "Round 10")],
        "main/table-1": [("division-main", "main")],
        "game/t1": [("division-%D0%93%D1%80%D1%83%D0%BF%D0%BF%D0%B0_%D0%90", "Группа А")],
        "game/t1-2": [("division-%D0%93%D1%80%D1%83%D0%BF%D0%BF%D0%B0_%D0%91", "Группа Б")]}
    ids = re.findall(r' id="([^"]+)"', index)
    assert len(ids) == len(set(ids))
    assert {"division-Élite", "division-Élite-round-2", "division-Élite-round-10",
            "division-main", "division-Группа_А", "division-Группа_Б"} <= set(ids)
    assert '<h3 id="division-Élite-round-2">Round 2</h3>' in index


def test_the_division_is_the_first_folders_that_name_no_round() -> None:
    from pgm.discover import guess_division
    archive = "2016/Spring Open/Division A/Round 3/t2.gcg"
    assert guess_division(archive) == "2016"
    assert guess_division(archive, 3) == "2016 / Spring Open / Division A"
    assert guess_division("2016/Spring Open/Division A/playoff.gcg", 3) == \
        "2016 / Spring Open / Division A"
    assert guess_division("Open/Day 1/round-1/t1.gcg") == "Open"
    assert guess_division("Open/round-1/late/t1.gcg") == "Open"
    assert guess_division("round-1/Open/t1.gcg") == "Open"
    assert guess_division("r01b05/input.gcg", 2) is None
    assert guess_division("t1.gcg") is None


def test_every_page_of_a_game_says_where_in_the_event_it_is(tmp_path) -> None:
    """A turn page shared from an archive names its tournament and round, linked to
    where the index lists them, as the game page does."""
    event, result = built(tmp_path, {
        "event.yaml": "division_folders: 3\n",
        "2016/Spring Open/Division A/Round 3/Table 2.gcg": DOUG_V_EMELY,
        "2017/Spring Open/Division A/Round 3/Table 2.gcg": OTHER})
    assert result.exit_code == 0, result.output
    game = next((tmp_path / "site").glob("2016/*/*/*/*/index.html")).parent
    for page in (game / "index.html", game / "5.html"):
        header = page.read_text(encoding="utf-8").split("</header>")[0]
        assert ">2016 / Spring Open / Division A</a>" in header, page
        assert ">Round 3</a>" in header
        index = (tmp_path / "site/index.html").read_text("utf-8")
        hrefs = re.findall(r'href="(?:\.\./)+index\.html#([^"]+)"', header)
        assert len(hrefs) == 2
        for href in hrefs:
            assert f'id="{unquote(href)}"' in index


def test_divisions_named_alike_keep_anchors_of_their_own(tmp_path) -> None:
    """``Open A`` and ``Open-A``: two sections, each trail leading to its own."""
    event, result = built(tmp_path, {"Open A/round-1/t1.gcg": DOUG_V_EMELY,
                                     "Open-A/round-1/t1.gcg": OTHER})
    index = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    ids = re.findall(r' id="([^"]+)"', index)
    assert len(ids) == len(set(ids))
    for game, heading in (("t1", "Open A"), ("t1-2", "Open-A")):
        page = (tmp_path / "site/open-a/round-1" / game / "index.html").read_text("utf-8")
        [href] = re.findall(r'href="(?:\.\./)+index\.html#([^"]+)">' + heading + "<", page)
        section = index.split(f'id="{unquote(href)}"')[1]
        assert re.search(r"<h2[^>]*>([^<]*)</h2>", section).group(1) == heading


def test_a_round_named_in_words_and_a_division_ending_in_a_number(tmp_path) -> None:
    """``round: Final`` reads "Final", not "Round Final"; ``Liga B1/`` is a division,
    not table 1 of each game in it, so its games are no "two games at one table"."""
    event, result = built(tmp_path, {
        "event.yaml": 'games:\n  "Open/final.gcg": {round: Final}\n',
        "Open/round-1/t1.gcg": DOUG_V_EMELY, "Open/final.gcg": OTHER,
        "Liga B1/anna-vs-ben.gcg": THIRD, "Liga B1/cat-vs-dan.gcg": FOURTH,
        "B2/anna-vs-ben.gcg": FIFTH, "B2/cat-vs-dan.gcg": SIXTH})
    assert warnings(result.output) == []
    index = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert re.findall(r"<h3[^>]*>([^<]*)</h3>", index) == ["Round 1", "Final"]
    final = (tmp_path / "site/open/final/index.html").read_text(encoding="utf-8")
    assert ">Final</a>" in final.split("</header>")[0]
    assert "Round Final" not in final

"""A player listed at two tables of one round: a header copied from another game's
record, which the player index counts as a second game of the round."""

from __future__ import annotations

import re

from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import copy_warning, make_event, run_build

from pgm.cli import main

DOUG_V_EMELY = (CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes()
TIM_V_JOSH = (CORPUS / "gcg/MAGPIE-DATA__success.gcg").read_bytes()
NATIONALS = [(CORPUS / f"gcg/liwords__josh_nationals_round_{n}.gcg").read_bytes()
             for n in (4, 7, 17, 9, 11, 12)]
"""More games, each of its own, to seat anyone at."""

WHY = ("nobody plays at two tables of one round (a header copied from another game?); "
       "correct the names in the record that has them wrong, or the table in its file name")


def seated(record: bytes, *players: str) -> bytes:
    """``record`` with its players renamed in order (``"ann Ann Smith"``: nickname, then
    full name), in the ``#player`` lines and in the moves, which name the nickname."""
    nicks = re.findall(rb"^#player\d (\S+)", record, re.MULTILINE)
    assert len(nicks) == len(players)
    for number, (nick, player) in enumerate(zip(nicks, players, strict=True), 1):
        new = player.encode().split()[0]
        record = re.sub(rb"^#player%d .*$" % number, b"#player%d %s" % (number, player.encode()),
                        record, flags=re.MULTILINE)
        record = re.sub(rb"^>%s:" % re.escape(nick), b">%s:" % new, record, flags=re.MULTILINE)
    return record


def warnings(output: str) -> list[str]:
    return [line for line in output.splitlines() if ": warning: " in line]


def test_a_header_copied_to_another_table_is_warned_of_at_both_games(tmp_path) -> None:
    """The annotator's trial: two games of round 3, the second's header copied from the
    first. Each record replays cleanly, and players.html credited Ann and Bob with two
    games of round 3 each; the build and pgm check name both records at each."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Spring Open\n",
        "round-3/table-1.gcg": seated(DOUG_V_EMELY, "ann Ann Smith", "bob Bob Jones"),
        "round-3/table-3.gcg": seated(TIM_V_JOSH, "ann Ann Smith", "bob Bob Jones"),
    })
    first, second = event / "round-3/table-1.gcg", event / "round-3/table-3.gcg"
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    assert warnings(result.output) == [
        f"{first}:1: warning: players 'Ann Smith' and 'Bob Jones' are listed at Round 3, "
        f"table 1, and at table 3 in {second}: {WHY}",
        f"{second}:1: warning: players 'Ann Smith' and 'Bob Jones' are listed at Round 3, "
        f"table 3, and at table 1 in {first}: {WHY}"]
    assert "2 warning(s)" in result.output
    assert run_build(str(event), "-o", str(tmp_path / "site"), "--strict").exit_code == 1
    checked = CliRunner().invoke(main, ["check", str(event)])
    assert checked.exit_code == 0
    assert checked.stdout.splitlines() == warnings(result.output)
    assert checked.stderr == "Checked 2 records: 0 error(s), 2 warning(s).\n"


def test_one_player_at_two_tables_is_named_alone_with_the_count_of_the_others(
        tmp_path) -> None:
    """Ann at tables 1, 2 and 3 of one division's round 2 (her name spelled two ways, as
    the player index and the spelling check tell players apart): each game names the
    first of another table and counts the rest; her opponents are not named."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Spring Open\n",
        "open/round-2/table-1.gcg": seated(DOUG_V_EMELY, "ann Ann Smith", "bob Bob"),
        "open/round-2/table-2.gcg": seated(TIM_V_JOSH, "ann ann  smith", "cy Cy"),
        "open/round-2/table-3.gcg": seated(NATIONALS[5], "di Di", "ann Ann Smith"),
    })
    at = {table: event / f"open/round-2/table-{table}.gcg" for table in (1, 2, 3)}
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    assert warnings(result.output) == [
        f"{at[2]}:1: warning: player 'ann smith' is spelled 'Ann Smith' in {at[1]}: listed "
        "as another player on the player index; spell the name alike in every record",
        f"{at[1]}:1: warning: player 'Ann Smith' (spelled 'ann smith' there) is listed at "
        f"open › Round 2, table 1, and at table 2 in {at[2]} (and 1 other game): {WHY}",
        f"{at[2]}:1: warning: player 'ann smith' (spelled 'Ann Smith' there) is listed at "
        f"open › Round 2, table 2, and at table 1 in {at[1]} (and 1 other game): {WHY}",
        f"{at[3]}:1: warning: player 'Ann Smith' is listed at open › Round 2, table 3, and "
        f"at table 1 in {at[1]} (and 1 other game): {WHY}"]
    checked = CliRunner().invoke(main, ["check", str(event)])
    assert checked.stdout.splitlines() == warnings(result.output)


def test_games_a_player_may_play_in_one_round_are_not_warned_of(tmp_path) -> None:
    """A match of several games at one table, games at no known table (round 3; round 4
    has one at table 1), the same players in other rounds or divisions, a Gungi side
    given no name (listed as "Black") and a position set at a table build clean with
    --strict, and pgm check finds nothing either."""
    tags = '[White "Bob"]\n[Result "*"]\n'
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Spring Open\n",
        "open/round-1/table-1-game-1.gcg": seated(DOUG_V_EMELY, "ann Ann", "bob Bob"),
        "open/round-1/table-1-game-2.gcg": seated(TIM_V_JOSH, "ann Ann", "bob Bob"),
        "open/round-2/table-2.gcg": seated(NATIONALS[5], "ann Ann", "bob Bob"),
        "open/round-3/ann-bob.gcg": seated(NATIONALS[0], "ann Ann", "bob Bob"),
        "open/round-3/ann-cy.gcg": seated(NATIONALS[1], "ann Ann", "cy Cy"),
        "open/round-4/table-1.gcg": seated(NATIONALS[2], "ann Ann", "bob Bob"),
        "open/round-4/ann-dee.gcg": seated(NATIONALS[4], "ann Ann", "dee Dee"),
        "reserve/round-1/table-2.gcg": seated(NATIONALS[3], "ann Ann", "bob Bob"),
        "gungi/round-1/table-1.gn": tags + "1. PZ*0-6-0 PZ*0-1-0\n",
        "gungi/round-1/table-2.gn": tags.replace("Bob", "Cy") + "1. PZ*4-6-0 PZ*4-1-0\n",
        "gungi/round-1/table-3.cgp": "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0 "
                                     "-lex CSW21;\n",
    })
    result = run_build(str(event), "-o", str(tmp_path / "site"), "--strict")
    assert result.exit_code == 0, result.output
    checked = CliRunner().invoke(main, ["check", str(event)])
    assert (checked.exit_code, checked.stdout) == (0, "")


def test_a_copy_at_another_table_is_warned_of_as_a_copy_only(tmp_path) -> None:
    """The same game at two tables is a copy (of the shorter path): one warning, the
    copy's, not also a player at two tables."""
    game = seated(DOUG_V_EMELY, "ann Ann", "bob Bob")
    event = make_event(tmp_path / "ev", {"event.yaml": "title: Spring Open\n",
                                         "round-3/table-1.gcg": game,
                                         "round-3/table-13.gcg": game})
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert warnings(result.output) == [copy_warning(event / "round-3/table-13.gcg",
                                                    event / "round-3/table-1.gcg")]


def test_two_events_built_as_one_site_are_not_one_round(tmp_path) -> None:
    """An archive's two events, each with its round 3, are listed as one division: Ann
    played round 3 of each, at another table, and is not warned of (two games at one
    table would be, as the same place; see test_event_folders)."""
    archive = make_event(tmp_path / "archive", {
        "2022/Spring Open/round-3/table-1.gcg": seated(DOUG_V_EMELY, "ann Ann", "bob Bob"),
        "2022/Autumn Cup/round-3/table-3.gcg": seated(TIM_V_JOSH, "ann Ann", "bob Bob"),
    })
    result = run_build(str(archive), "-o", str(tmp_path / "site"), "--strict")
    assert result.exit_code == 0, result.output

"""event.yaml as a user meets it through ``pgm build``: which problems are reported, on
which line, and what ``--strict`` makes of them."""

from __future__ import annotations

import json

from conftest import CORPUS
from sitehelpers import make_event, run_build

from pgm.config import load_configs

GOOD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def _built(event, tmp_path, *args: str):
    return run_build(str(event), "-o", str(tmp_path / "o"), *args)


def test_a_key_given_twice_is_a_warning(tmp_path) -> None:
    """YAML keeps the last of two equal keys: a second ``games:`` drops the first's."""
    event = make_event(tmp_path / "ev", {"a.gcg": GOOD, "b.gcg": GOOD, "event.yaml": """
        title: Club night
        games:
          a.gcg: {round: "1"}
          b.gcg: {round: "1"}
          a.gcg: {round: "2"}
        games:
          b.gcg: {round: "3"}
        """})
    result = _built(event, tmp_path)
    config = event / "event.yaml"
    assert f"{config}:5: warning: key 'a.gcg' is given twice (first on line 3); the last " \
        "one is used" in result.output
    assert f"{config}:6: warning: key 'games' is given twice (first on line 2)" in result.output
    assert result.output.count("given twice") == 2 and result.exit_code == 0


def test_a_games_entry_that_matches_no_record_is_a_warning(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"div/a.gcg": GOOD, "event.yaml": """
        title: Club night
        games:
          "div/A.gcg": {title: X}
          "nope/*.gcg": {draft: true}
          "div/a.gcg": {round: "2"}
        """})
    result = _built(event, tmp_path)
    assert result.exit_code == 0
    config = event / "event.yaml"
    assert (f"{config}:3: warning: games entry 'div/A.gcg' matches no record; "
            "its settings apply to nothing") in result.output
    assert f"{config}:4: warning: games entry 'nope/*.gcg' matches no record" in result.output
    assert "'div/a.gcg' matches no record" not in result.output
    assert result.output.count("matches no record") == 2
    assert "0 error(s), 2 warning(s)" in result.output
    data = json.loads((tmp_path / "o/div/a/game.json").read_text())
    assert (data["round"], data["title"]) == ("2", "andy vs cesar")
    # A typo in a draft entry must not pass unnoticed where warnings count.
    assert _built(event, tmp_path, "--strict").exit_code == 1


def test_games_entries_match_by_path_below_their_file_or_by_name(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "event.yaml": "games:\n  final.gcg: {table: '1'}\n  r1/*.gcg: {round: '1'}\n",
        "r1/a.gcg": GOOD, "r2/final.gcg": GOOD,
        "r2/event.yaml": "games:\n  final.gcg: {title: Final}\n  a.gcg: {draft: true}\n"})
    result = _built(event, tmp_path, "--strict")
    assert f"{event / 'r2/event.yaml'}:3: warning: games entry 'a.gcg' matches no record" \
        in result.output
    assert result.output.count("matches no record") == 1 and result.exit_code == 1
    (event / "r2/event.yaml").write_text("games:\n  final.gcg: {title: Final}\n")
    result = _built(event, tmp_path, "--strict")
    assert result.exit_code == 0, result.output
    final = json.loads((tmp_path / "o/r2/final/game.json").read_text())
    assert (final["table"], final["title"]) == ("1", "Final")


def test_configuration_read_before_the_records_are_known_warns_of_nothing(tmp_path) -> None:
    """Only a build, which knows every record, can tell that an entry matches none."""
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD,
                                         "event.yaml": "games:\n  other.gcg: {draft: true}\n"})
    assert load_configs(event, [], {}).diagnostics == []


def test_problems_under_games_are_reported_on_their_own_line(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": """
        title: Club night
        # the final
        games:
          g.gcg:
            titel: Final
            round: '7'
            live: perhaps
            orientation: sideways
        """})
    result = _built(event, tmp_path)
    config = event / "event.yaml"
    assert result.exit_code == 1
    assert f"{config}:5: warning: unknown key 'titel' under games -> 'g.gcg' ignored" \
        in result.output
    assert f"{config}:7: error: key 'live' must be true or false, not 'perhaps'" \
        in result.output
    assert (f"{config}:8: error: key 'orientation' must be one of numbered-rows, "
            "lettered-rows") in result.output
    assert f"{config}:4:" not in result.output


def test_a_games_entry_that_is_not_a_mapping_is_reported_on_its_line(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD,
                                         "event.yaml": "games:\n  a.gcg: {}\n  g.gcg: final\n"})
    result = _built(event, tmp_path)
    assert result.exit_code == 1
    assert (f"{event / 'event.yaml'}:3: error: key 'games' -> 'g.gcg' must be a mapping "
            "of settings") in result.output


def test_a_missing_stylesheet_of_a_list_is_reported_on_its_line(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "club.css": "body {}\n",
                                         "event.yaml": "css:\n  - club.css\n  - clbu.css\n"})
    result = _built(event, tmp_path)
    assert result.exit_code == 1
    assert f"{event / 'event.yaml'}:3: error: key 'css': file clbu.css does not exist" \
        in result.output


def test_an_event_yaml_above_the_record_folders_applies_to_the_records_below(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "div/event.yaml": "division: Premier\ngames:\n  r1/g.gcg: {round: '1'}\n",
        "div/r1/g.gcg": GOOD, "div/r2/h.gcg": GOOD})
    assert _built(event, tmp_path, "--strict").exit_code == 0

    def meta(slug: str) -> tuple:
        data = json.loads((tmp_path / "o" / slug / "game.json").read_text())
        return data["division"], data["round"]

    assert meta("div/r1/g") == ("Premier", "1")
    assert meta("div/r2/h") == ("Premier", "2")


def test_a_stylesheet_listed_twice_is_linked_once_with_a_warning(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "g.gcg": GOOD, "styles/club.css": "body {}\n",
        "event.yaml": "css:\n  - styles/club.css\n  - ./styles//club.css\n"})
    result = _built(event, tmp_path)
    assert result.exit_code == 0
    assert (f"{event / 'event.yaml'}:3: warning: key 'css': ./styles//club.css is listed "
            "twice; it is linked once") in result.output
    page = (tmp_path / "o/g/index.html").read_text()
    assert page.count('href="../static/event/styles/club.css"') == 1
    assert _built(event, tmp_path, "--strict").exit_code == 1


def test_a_stylesheet_path_that_ends_outside_the_event_is_refused(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": "css: a/../../x.css\n"})
    (tmp_path / "x.css").write_text("secret {}")
    result = _built(event, tmp_path)
    assert result.exit_code == 1
    assert f"{event / 'event.yaml'}:1: error: key 'css': a/../../x.css is outside the event " \
           "folder" in result.output


def test_dates_and_numbers_are_read_as_the_text_they_are_written_as(tmp_path) -> None:
    """YAML reads 2026-03-01 as a date, 010 as 8, 12:30 as 750 and 5.10 as 5.1; a key
    that wants text gets what was written, and one that wants a number the number."""
    event = make_event(tmp_path / "ev", {"r/a.gcg": GOOD, "r/b.gcg": GOOD, "event.yaml": """
        title: 12:30
        live_poll_seconds: 010
        games:
          "r/a.gcg": {round: 2026-03-01, table: 010, division: 5.10}
          "r/b.gcg": {round: 2026-03-01T10:00:00Z, title: 0x1F}
        """})
    result = _built(event, tmp_path, "--strict")
    assert result.exit_code == 0, result.output
    a = json.loads((tmp_path / "o/r/a/game.json").read_text())
    assert (a["round"], a["table"], a["division"]) == ("2026-03-01", "010", "5.10")
    b = json.loads((tmp_path / "o/r/b/game.json").read_text())
    assert (b["round"], b["title"]) == ("2026-03-01T10:00:00Z", "0x1F")
    assert "<title>12:30</title>" in (tmp_path / "o/index.html").read_text()
    assert load_configs(event, ["r/a.gcg", "r/b.gcg"], {}).event.live_poll_seconds == 8

"""event.yaml as a user meets it through ``pgm build``: which problems are reported, on
which line, and what ``--strict`` makes of them."""

from __future__ import annotations

import json
import os
import time

import pytest
from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import make_event, run_build, wait_for, watching

from pgm.build import BuildOptions, BuildResult
from pgm.cli import main
from pgm.config import load_configs

GOOD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def game(player: str) -> bytes:
    """GOOD with another first player: another game, where a copy of GOOD would be
    warned of as a repeat (which fails a ``--strict`` build)."""
    return GOOD.replace(b"andy", player.encode())


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
    assert (f"{config}:3: warning: games entry 'div/A.gcg' matches no record (did you "
            "mean 'div/a.gcg'?); its settings apply to nothing") in result.output
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
        "r1/a.gcg": GOOD, "r2/final.gcg": game("anna"),
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
    assert (f"{config}:5: warning: unknown key 'titel' under games -> 'g.gcg' ignored "
            "(did you mean 'title'?)") in result.output
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
        "div/r1/g.gcg": GOOD, "div/r2/h.gcg": game("anna")})
    assert _built(event, tmp_path, "--strict").exit_code == 0

    def meta(slug: str) -> tuple:
        data = json.loads((tmp_path / "o" / slug / "game.json").read_text())
        return data["division"], data["round"]

    assert meta("div/r1/g") == ("Premier", "1")
    assert meta("div/r2/h") == ("Premier", "2")


def test_a_games_entry_wins_over_a_subfolders_keys_and_the_innermost_entry_wins(
        tmp_path) -> None:
    """The root's entry for one record keeps its title and round though the record's
    division folder sets both; an entry in the division's file wins over the root's."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Spring Open\ngames:\n"
                      "  A/r1/t1.gcg: {title: 'Feature: andy', round: '1'}\n"
                      "  A/r1/t2.gcg: {title: Root entry}\n",
        "A/event.yaml": "round: '9'\ntitle: Division A game\ngames:\n"
                        "  r1/t2.gcg: {title: Division entry}\n",
        "A/r1/t1.gcg": GOOD, "A/r1/t2.gcg": game("anna"), "A/r1/t3.gcg": game("bo")})
    assert _built(event, tmp_path).exit_code == 0

    def meta(slug: str) -> tuple:
        data = json.loads((tmp_path / "o" / slug / "game.json").read_text())
        return data["title"], data["round"]

    assert meta("a/r1/t1") == ("Feature: andy", "1")
    assert meta("a/r1/t2") == ("Division entry", "9")
    assert meta("a/r1/t3") == ("Division A game", "9")


def test_a_root_pattern_is_a_default_that_a_subfolders_keys_override(tmp_path) -> None:
    """``**/*.gcg`` in the root's ``games:`` sets every record's division, but a folder's
    own event.yaml still says otherwise for its records."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "games:\n  '**/*.gcg': {division: Main}\n",
        "exhibition/event.yaml": "division: Exhibition\n",
        "r1/t1.gcg": GOOD, "exhibition/x.gcg": game("anna")})
    assert _built(event, tmp_path).exit_code == 0

    def division(slug: str) -> str:
        return json.loads((tmp_path / "o" / slug / "game.json").read_text())["division"]

    assert division("r1/t1") == "Main"
    assert division("exhibition/x") == "Exhibition"


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
    event = make_event(tmp_path / "ev", {"r/a.gcg": GOOD, "r/b.gcg": game("anna"),
                                         "event.yaml": """
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


def test_a_mistyped_date_or_a_tag_refusing_its_value_is_reported_not_a_crash(tmp_path) -> None:
    """``round: 2026-13-01`` looks like a date YAML cannot make: a key wanting text takes
    the text; a key wanting a number, or a tag that cannot read its value, is an error
    at its line."""
    event = make_event(tmp_path / "ev", {"r/a.gcg": GOOD, "event.yaml": """
        games:
          "r/a.gcg": {round: 2026-13-01, table: !!int abc}
        live_poll_seconds: 2026-02-30
        spoiler_free: !!bool maybe
        """})
    result = _built(event, tmp_path)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    yaml_file = event / "event.yaml"
    assert f"{yaml_file}:3: error: key 'live_poll_seconds' must be a positive whole number, " \
           "not '2026-02-30'" in result.output
    assert f"{yaml_file}:4: error: key 'spoiler_free' must be true or false, not 'maybe'" \
        in result.output
    event.joinpath("event.yaml").write_text('games:\n  "r/a.gcg": {round: 2026-13-01}\n')
    assert _built(event, tmp_path, "--strict").exit_code == 0
    assert json.loads((tmp_path / "o/r/a/game.json").read_text())["round"] == "2026-13-01"


def test_yes_and_no_are_text_for_a_text_key_and_truth_for_a_flag(tmp_path) -> None:
    """YAML 1.1 reads ``no`` as false: Norway's language tag, or a title "Yes", stays
    the text written, while ``spoiler_free: yes`` is true."""
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml":
                                         "lang: no\ntitle: Yes\nspoiler_free: yes\n"})
    result = _built(event, tmp_path, "--strict")
    assert result.exit_code == 0, result.output
    index = (tmp_path / "o/index.html").read_text()
    assert '<html lang="no">' in index and "<title>Yes</title>" in index
    assert load_configs(event, ["g.gcg"], {}).event.spoiler_free is True


@pytest.mark.parametrize(("data", "problem"), [
    (b"title: Coupe d\xe9t\xe9\n", "1: error: not UTF-8 (byte 0xE9 at column 15)"),
    # columns count characters (a UTF-8 é is one), lines end in CR LF or a lone CR too
    (b"# r\xc3\xa9sum\xc3\xa9\r\ntitle: \xc3\xa9t\xe9\r\n",
     "2: error: not UTF-8 (byte 0xE9 at column 10)"),
    (b"title: Club\rdescription: \x93Open\x94\r", "2: error: not UTF-8 (byte 0x93 at column 14)"),
    # a byte-order mark is no character of the line
    (b"\xef\xbb\xbftitle: Coupe d\xe9t\xe9\n", "1: error: not UTF-8 (byte 0xE9 at column 15)")])
def test_an_event_yaml_that_is_not_utf8_stops_the_build_at_its_first_bad_byte(
        tmp_path, data: bytes, problem: str) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": data})
    result = _built(event, tmp_path)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{event / 'event.yaml'}:{problem}; save the file as UTF-8" in result.output
    assert "codec" not in result.output
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_an_event_yaml_saved_as_unicode_by_notepad_is_read_with_a_warning(
        tmp_path, encoding: str) -> None:
    """Notepad's "Unicode" is UTF-16 (with a byte-order mark, or without): YAML allows
    it, and nothing is guessed, so the event's settings apply and a warning says to save
    it as UTF-8 for other programs."""
    yaml_text = "title: Coupe d'été\r\ngames:\n  g.gcg: {title: Finale}\r\n"
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD,
                                         "event.yaml": yaml_text.encode(encoding)})
    result = _built(event, tmp_path)
    assert result.exit_code == 0, result.output
    assert (f"{event / 'event.yaml'}:1: warning: the file is UTF-16 (Windows calls it "
            '"Unicode"), not UTF-8') in result.output
    index = (tmp_path / "o/index.html").read_text()
    assert "<h1>Coupe d&#39;été</h1>" in index and ">Finale</a>" in index


def test_pgm_check_reports_an_event_yaml_that_is_not_utf8_as_the_build_does(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"r1/g.gcg": GOOD,
                                         "event.yaml": b"title: Coupe d\xe9t\xe9\n"})
    expected = (f"{event / 'event.yaml'}:1: error: not UTF-8 (byte 0xE9 at column 15); "
                "save the file as UTF-8\n")
    for path in (event, event / "r1/g.gcg"):
        result = CliRunner().invoke(main, ["check", str(path)])
        assert result.exit_code == 1 and result.stdout == expected


def test_watch_keeps_the_last_good_title_while_event_yaml_is_not_utf8(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": "title: Coupe\n"})
    out = tmp_path / "site"
    reports: list[object] = []

    def kept() -> list[BuildResult]:
        return [r for r in reports if isinstance(r, BuildResult) and r.kept_configs]

    with watching(BuildOptions(event, out), reports.append):
        assert wait_for(lambda: reports)
        time.sleep(0.3)  # let the watcher settle before the director saves
        (event / "event.yaml").write_bytes(b"title: Coupe d\xe9t\xe9\n")
        assert wait_for(kept)
        assert "<title>Coupe</title>" in (out / "index.html").read_text()
        (event / "event.yaml").write_text("title: Coupe d’été\n", encoding="utf-8")
        assert wait_for(lambda: "<title>Coupe d’été</title>" in (out / "index.html").read_text())
    assert [str(d) for d in kept()[0].diagnostics] == [
        f"{event / 'event.yaml'}:1: error: not UTF-8 (byte 0xE9 at column 15); save the file "
        "as UTF-8"]


def test_games_entries_with_dot_slash_or_backslashes_apply_to_their_record(tmp_path) -> None:
    """``./`` and Windows' ``\\`` are written plainly; ``./final.gcg`` stays the one beside
    the event.yaml, where a bare ``final.gcg`` would name every final.gcg below it."""
    event = make_event(tmp_path / "ev", {
        "r1/t1.gcg": GOOD, "r1/t2.gcg": game("anna").replace(b"cesar", b"dora"),
        "final.gcg": game("bea"),
        "r2/final.gcg": game("cleo"), "event.yaml": r"""
        games:
          "./r1/t1.gcg": {title: Dotted}
          r1\t2.gcg: {title: Backslashed}
          '.\final.gcg': {title: Beside}
        """})
    result = _built(event, tmp_path, "--strict")
    assert result.exit_code == 0, result.output
    index = (tmp_path / "o/index.html").read_text()
    assert '<a href="r1/t1/index.html">Dotted</a>' in index
    assert '<a href="r1/t2/index.html">Backslashed</a>' in index
    assert '<a href="final/index.html">Beside</a>' in index
    assert '<a href="r2/final/index.html">cleo vs cesar</a>' in index


@pytest.mark.skipif(os.name == "nt", reason="a file name cannot hold a backslash on Windows")
def test_a_file_name_with_a_backslash_keeps_its_entry(tmp_path) -> None:
    # both name round 1, table 1: the entry's table keeps them apart (pgm.event_checks)
    event = make_event(tmp_path / "ev", {"r1\\t1.gcg": GOOD.replace(b"cesar", b"dora"),
                                         "r1/t1.gcg": game("anna"),
                                         "event.yaml": "games:\n  'r1\\t1.gcg': "
                                                       "{title: X, table: '2'}\n"})
    assert _built(event, tmp_path, "--strict").exit_code == 0
    titles = {json.loads(p.read_text())["title"] for p in (tmp_path / "o").rglob("game.json")}
    assert titles == {"X", "anna vs cesar"}


@pytest.mark.parametrize(("key", "hint"), [
    ('"r1/T1.gcg"', " (did you mean 'r1/t1.gcg'?)"),
    ('"./r1/T1.gcg"', " (did you mean 'r1/t1.gcg'?)"),
    ("t3.gcg", " (did you mean 't2.gcg', 't1.gcg' or 'r1/t2.gcg'?)"),
    ("rnd1/*.gcg", " (did you mean 'r1/*.gcg'?)"),
    ("nope/*.gcg", "")])
def test_a_games_entry_that_matches_no_record_names_the_closest(tmp_path, key: str,
                                                                  hint: str) -> None:
    text = f"title: Club\ngames:\n  {key}: {{title: F}}\n"
    event = make_event(tmp_path / "ev", {"r1/t1.gcg": GOOD, "r1/t2.gcg": game("anna"),
                                         "event.yaml": text})
    result = _built(event, tmp_path)
    written = key.strip('"')
    message = (f"{event / 'event.yaml'}:3: warning: games entry '{written}' matches no "
               f"record{hint}; its settings apply to nothing")
    assert result.exit_code == 0 and message in result.output, result.output
    assert '<a href="r1/t1/index.html">andy vs cesar</a>' in (tmp_path / "o/index.html").read_text()
    assert _built(event, tmp_path, "--strict").exit_code == 1


def test_a_tab_from_a_double_quoted_backslash_is_shown_and_explained(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"r1/t1.gcg": GOOD,
                                         "event.yaml": 'games:\n  "r1\\t1.gcg": {draft: true}\n'})
    result = _built(event, tmp_path)
    assert (f"{event / 'event.yaml'}:2: warning: games entry 'r1\\t1.gcg' matches no record "
            "(did you mean 'r1/t1.gcg'?); its settings apply to nothing. In double quotes a "
            "backslash starts an escape (\\t is a tab): write / between folders\n") \
        in result.output


def test_an_event_key_below_the_root_says_which_folder_to_build(tmp_path) -> None:
    """A folder above an event built by mistake: the event's own keys are ignored there,
    and the warning names the folder that looks like the event."""
    root = make_event(tmp_path / "top", {
        "spring/event.yaml": "title: Spring Open\ndescription: Two days, 12 rounds\n",
        "spring/round-1/table-1.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()})
    result = run_build(str(root), "-o", str(tmp_path / "site"))
    config = root / "spring" / "event.yaml"
    assert (f"{config}:2: warning: key 'description' only applies in the event's root "
            f"event.yaml; ignored here (if {root / 'spring'} is an event of its own, build "
            "that folder for its site)") in result.output


def test_an_unknown_key_names_the_key_it_most_likely_meant(tmp_path) -> None:
    """A typo gets the key meant; a key like none gets the list of keys."""
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": (
        "title: Open\nSpoiler_fre: true\ncolour: red\ngames:\n  g.gcg:\n    descripton: x\n"
        "    spoiler_free: true\n")})
    result = CliRunner().invoke(main, ["check", str(event)])
    config = event / "event.yaml"
    assert result.stdout.splitlines() == [
        f"{config}:2: warning: unknown key 'Spoiler_fre' ignored (did you mean 'spoiler_free'?)",
        f"{config}:3: warning: unknown key 'colour' ignored (known keys: allow_html, base_url, "
        "board, css, description, distribution, division, division_folders, draft, games, "
        "lang, lexicon, live, live_poll_seconds, orientation, round, spoiler_free, table, "
        "theme, theme_dir, "
        "title)",
        f"{config}:6: warning: unknown key 'descripton' under games -> 'g.gcg' ignored: did "
        "you mean 'description'? 'description' is a setting of the whole event, given at the "
        "top of event.yaml",
        f"{config}:7: warning: key 'spoiler_free' under games -> 'g.gcg' ignored: "
        "'spoiler_free' is a setting of the whole event, given at the top of event.yaml"]

"""``pgm check`` and ``pgm export`` read a record with the settings ``pgm build`` gives
it: an event that says ``lexicon: FRA24`` in its ``event.yaml`` checks its French
records against the French tiles, whichever path names them."""

from __future__ import annotations

import csv
import io
import json

import pytest
from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import make_event, run_build

from pgm.cli import main

FRENCH = CORPUS / "gcg/web_app_warriors__GetGCG.FRA24.TfnqTZkYPL.gcg"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def _unlabelled_french() -> bytes:
    """The French game without the lines that name its lexicon and tiles: without the
    event's settings its tile set is guessed from its plays, with a warning."""
    lines = FRENCH.read_bytes().splitlines(keepends=True)
    return b"".join(line for line in lines
                    if not line.startswith((b"#lexicon", b"#tile-distribution")))


@pytest.fixture
def event(tmp_path, monkeypatch):
    make_event(tmp_path / "ev", {"fr/round-1/g.gcg": _unlabelled_french(),
                                 "fr/event.yaml": "lexicon: FRA24\n",
                                 "event.yaml": "title: Open de Paris\n"})
    monkeypatch.chdir(tmp_path)
    return tmp_path / "ev"


def test_without_the_event_yaml_the_tile_set_is_guessed_with_a_warning(event) -> None:
    (event / "fr/event.yaml").unlink()
    checked = run("check", "ev")
    assert checked.stdout.splitlines() == [
        "ev/fr/round-1/g.gcg:7: warning: no #lexicon or #tile-distribution; the plays put "
        "down 13 E, more than the english set holds; the letters fit the french set, which "
        "is used (set 'distribution' in event.yaml to choose)"]


@pytest.mark.parametrize("named", ["ev", "ev/fr", "ev/fr/round-1", "ev/fr/round-1/g.gcg"])
def test_check_gives_a_record_its_events_settings_however_it_is_named(event, named) -> None:
    checked = run("check", "--json", named)
    assert checked.exit_code == 0 and checked.stderr == ""
    [report] = json.loads(checked.stdout)
    assert (report["lexicon"], report["distribution"]) == ("FRA24", "french")
    assert report["diagnostics"] == []


CLEAN_ONE = "Checked 1 record: 0 error(s), 0 warning(s).\n"
"""What check says of one record with no problem: only its count, on stderr."""


def test_check_from_inside_the_records_folder(event, monkeypatch) -> None:
    monkeypatch.chdir(event / "fr/round-1")
    checked = run("check", "g.gcg")
    assert (checked.exit_code, checked.stdout, checked.stderr) == (0, "", CLEAN_ONE)


def test_a_games_pattern_gives_one_record_its_lexicon(tmp_path, monkeypatch) -> None:
    make_event(tmp_path / "ev", {"a.gcg": _unlabelled_french(),
                                 "b.gcg": _unlabelled_french(),
                                 "event.yaml": "games:\n  a.gcg:\n    lexicon: FRA24\n"})
    monkeypatch.chdir(tmp_path)
    checked = run("check", "ev").stdout
    assert not [line for line in checked.splitlines() if line.startswith("ev/a.gcg")]
    assert "ev/b.gcg:7: warning: no #lexicon or #tile-distribution; the plays put down " \
        "13 E" in checked


def test_check_reports_the_events_configuration_problems(event) -> None:
    (event / "event.yaml").write_text("title: Open\nspoiler_fre: true\n")
    checked = run("check", "ev/fr/round-1/g.gcg")
    assert checked.exit_code == 0
    assert checked.stdout.startswith("ev/event.yaml:2: warning: unknown key 'spoiler_fre'")
    (event / "event.yaml").write_text("title: [Open\n")
    assert run("check", "ev/fr/round-1/g.gcg").exit_code == 1


def test_export_scores_as_the_site_does(event, tmp_path) -> None:
    assert run_build("ev", "-o", str(tmp_path / "site")).exit_code == 0
    site_csv = tmp_path / "site/fr/round-1/g/moves.csv"
    exported = run("export", "ev/fr")
    assert exported.exit_code == 0 and exported.stderr == ""

    def without_game(text: str) -> list[list[str]]:
        return [row[1:] for row in csv.reader(io.StringIO(text))]

    assert without_game(exported.stdout) == without_game(site_csv.read_text())
    assert ["5", "Hannibal9", "?MNSTUX", "6D", "M.X", "33", "33", "play", ""] in \
        without_game(exported.stdout)


def test_a_record_in_no_event_is_checked_alone(tmp_path, monkeypatch) -> None:
    """A file with no event.yaml above it gets the defaults: the event configurations
    beside or below it are another event's, and are not read."""
    make_event(tmp_path, {"loose.gcg": FRENCH.read_bytes(),
                          "other-event/event.yaml": "title: [broken\n",
                          "other-event/g.gcg": FRENCH.read_bytes()})
    monkeypatch.chdir(tmp_path)
    checked = run("check", "loose.gcg")
    assert (checked.exit_code, checked.stdout, checked.stderr) == (0, "", CLEAN_ONE)


def test_the_event_is_the_folder_whose_event_yaml_names_it(tmp_path, monkeypatch) -> None:
    """An event.yaml that sets a key of the whole event (title, base_url) is an event's
    root: one further up (a season's folder) is not this event's, as for pgm build."""
    make_event(tmp_path / "season", {"event.yaml": "lexicon: FRA24\n",
                                     "open/event.yaml": "title: Open\n",
                                     "open/round-1/g.gcg": _unlabelled_french()})
    monkeypatch.chdir(tmp_path)
    built = run_build("season/open", "-o", str(tmp_path / "site"))
    warnings = sorted(line for line in built.output.splitlines() if ": warning: " in line)
    assert warnings, "the French record scores wrong without the season's lexicon"
    for named in ("season/open", "season/open/round-1", "season/open/round-1/g.gcg"):
        assert sorted(run("check", named).stdout.splitlines()) == warnings, named


def test_a_divisions_title_does_not_make_it_an_event(tmp_path, monkeypatch) -> None:
    """The event's root names the tiles and the title; a division's event.yaml titles
    its games only: check reads the division's record with the root's French tiles,
    as the build of the event does."""
    make_event(tmp_path / "club", {"event.yaml": "title: Open de Paris\ndistribution: french\n",
                                   "DivA/event.yaml": "title: Poule A\n",
                                   "DivA/p.gcg": _unlabelled_french()})
    monkeypatch.chdir(tmp_path)
    built = run_build("club", "-o", str(tmp_path / "site"))
    assert built.exit_code == 0 and ": warning: " not in built.output
    for named in ("club/DivA", "club/DivA/p.gcg"):
        checked = run("check", named)
        assert (checked.exit_code, checked.stdout) == (0, ""), named
    monkeypatch.chdir(tmp_path / "club/DivA")
    assert run("check", "p.gcg").stdout == ""


def test_a_record_named_twice_is_checked_and_exported_once(tmp_path) -> None:
    """``pgm export ev ev/round-1`` names round 1's records twice: their moves are
    written once, as ``pgm check`` reports each record once."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Spring Open\n",
        "round-1/table-1.gcg": (CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes(),
    })
    once = run("export", str(event))
    twice = run("export", str(event), str(event / "round-1"),
                str(event / "round-1" / ".." / "round-1" / "table-1.gcg"))
    assert twice.exit_code == 0 and twice.output == once.output
    assert len(list(csv.reader(io.StringIO(once.output)))) == 29  # header and 28 events
    checked = run("check", "--json", str(event), str(event / "round-1" / "table-1.gcg"))
    assert len(json.loads(checked.output)) == 1


def test_an_empty_folder_named_twice_is_reported_once(tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    result = run("check", str(tmp_path / "empty"), str(tmp_path / "empty"))
    assert result.exit_code == 1 and result.output.count("no records in this folder") == 1


@pytest.mark.parametrize("name", ["event.yml", "Event.yaml", "EVENT.YML"])
def test_a_configuration_named_otherwise_than_event_yaml_is_warned_of(tmp_path, name) -> None:
    """`event.yml`, or `Event.yaml` (which Windows and macOS read as event.yaml, a Linux
    server does not): its title, base_url and the rest would be dropped without a word."""
    root = make_event(tmp_path / "ev", {
        "r1/t1.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes(),
        name: "title: Spring Open\n", f"r1/{name}": "round: 2\n"})
    warning = ("warning: pgm reads an event's configuration only from a file named "
               "event.yaml, all in lower case (other spellings are not read on Linux, "
               "where sites are often built): rename it to event.yaml")
    expected = {f"{root / name}: {warning}", f"{root / 'r1' / name}: {warning}"}
    checked = run("check", str(root))
    assert checked.exit_code == 0
    assert expected <= set(checked.stdout.splitlines())
    built = run_build(str(root), "-o", str(tmp_path / "site"))
    assert built.exit_code == 0 and expected <= set(built.stderr.splitlines())
    assert "<h1>Spring Open" not in (tmp_path / "site/index.html").read_text(encoding="utf-8")

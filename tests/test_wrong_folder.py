"""``pgm build`` of a folder that is most likely not the event's own (pgm.wrong_folder):
a round's or a division's folder, or the folder above events, builds all the same, with
a warning naming the folder to build."""

from __future__ import annotations

from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import make_event, run_build
from test_record_inputs import _unlabelled_french

from pgm.cli import main

GAME = (CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes()


def test_building_a_folder_inside_an_event_says_which_event_to_build(tmp_path) -> None:
    """A round's folder built by mistake is built without the event's lexicon: the
    French game scores wrong there, and a warning names the event's folder to build."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Coupe de printemps\nlexicon: FRA24\n",
        "round-2/table-1.gcg": _unlabelled_french(),
    })
    result = run_build(str(event / "round-2"), "-o", str(tmp_path / "site"))
    assert (f"{event / 'round-2'}: warning: this folder is inside the event of "
            f"{event / 'event.yaml'}, whose settings this build leaves out: build {event} "
            "for the event's site") in result.output
    whole = run_build(str(event), "-o", str(tmp_path / "event-site"), "--strict")
    assert whole.exit_code == 0, whole.output
    assert "inside the event" not in whole.output


def test_an_event_of_its_own_inside_a_clubs_folder_builds_without_a_warning(tmp_path) -> None:
    """A club keeps its events in its folder, each titled: building one is no mistake."""
    club = make_event(tmp_path / "club", {
        "event.yaml": "title: Our Club\n",
        "spring/event.yaml": "title: Spring Open\nlexicon: CSW21\n",
        "spring/round-1/table-1.gcg": (CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes(),
    })
    result = run_build(str(club / "spring"), "-o", str(tmp_path / "site"), "--strict")
    assert result.exit_code == 0, result.output


def test_a_round_of_a_titled_event_kept_in_a_clubs_folder_names_that_event(tmp_path) -> None:
    club = make_event(tmp_path / "club", {
        "event.yaml": "title: Our Club\n",
        "spring/event.yaml": "title: Spring Open\n",
        "spring/round-1/table-1.gcg": GAME})
    result = run_build(str(club / "spring" / "round-1"), "-o", str(tmp_path / "site"))
    spring = club / "spring"
    assert (f"{spring / 'round-1'}: warning: this folder is inside the event of "
            f"{spring / 'event.yaml'}, whose settings this build leaves out: build {spring} "
            "for the event's site") in result.output


def test_a_titled_division_of_an_event_with_a_root_key_is_inside_it(tmp_path) -> None:
    """A division's event.yaml may title its games; the event's sets a key only a root
    may: the division is no event of its own."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Spring Open\nbase_url: https://example.org/spring/\n",
        "div-a/event.yaml": "title: Division A game\n",
        "div-a/round-1/table-1.gcg": GAME})
    result = run_build(str(event / "div-a"), "-o", str(tmp_path / "site"))
    assert f"warning: this folder is inside the event of {event / 'event.yaml'}" in result.output


def test_a_titled_division_of_an_event_with_a_lexicon_names_the_event_as_check_does(
        tmp_path) -> None:
    """The event sets the lexicon, the division's event.yaml titles its games: built
    from the division or a round in it, the warning names the event, the folder whose
    settings ``pgm check`` gives the records, and not the division, which would build
    without the lexicon."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Club\nlexicon: CSW21\n",
        "div/event.yaml": "title: Division A game\n",
        "div/r1/t1.gcg": GAME})
    for folder in (event / "div", event / "div" / "r1"):
        result = run_build(str(folder), "-o", str(tmp_path / "site"))
        assert (f"{folder}: warning: this folder is inside the event of "
                f"{event / 'event.yaml'}, whose settings this build leaves out: build "
                f"{event} for the event's site") in result.output
    checked = CliRunner().invoke(main, ["check", "--json", str(event / "div")])
    assert '"lexicon": "CSW21"' in checked.stdout


def test_the_folder_above_events_names_them(tmp_path) -> None:
    """Built from above, each event's title would title its games, under a site titled
    "Games": the warning names the events (the outermost: not their divisions)."""
    club = make_event(tmp_path / "club", {
        "spring/event.yaml": "title: Spring Open\n",
        "spring/div-a/event.yaml": "title: Division A game\n",
        "spring/div-a/round-1/table-1.gcg": GAME,
        "autumn/event.yaml": "title: Autumn Open\n",
        "autumn/round-1/table-1.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()})
    result = run_build(str(club), "-o", str(tmp_path / "site"))
    assert (f"{club}: warning: this folder has no event.yaml, but folders below it have one "
            f"that sets a title ({club / 'autumn'}, {club / 'spring'}): if they are events, "
            "build each of them for its site; built from here, each one's title titles its "
            "games") in result.output
    # an event's own folder builds without a word
    spring = run_build(str(club / "spring"), "-o", str(tmp_path / "spring-site"), "--strict")
    assert spring.exit_code == 0, spring.output


def test_a_site_pgm_built_is_refused_as_an_event_by_build_check_and_export(
        tmp_path, monkeypatch) -> None:
    """Built by mistake, the published site read its own copies of the records
    (``input.gcg``) as an event and got a second site nested inside it; checked or
    exported, it passed off those copies as the event's records."""
    monkeypatch.chdir(tmp_path)
    make_event(tmp_path / "ev", {"event.yaml": "title: Spring\n", "r1/t1.gcg": GAME})
    assert run_build("ev").exit_code == 0
    before = sorted(path for path in (tmp_path / "ev/_site").rglob("*"))
    told = ("a site pgm built, not an event: its games hold copies of the records; name "
            "the event's own folder (most likely ev)")
    result = run_build("ev/_site")
    assert result.exit_code == 1 and f"Error: ev/_site: {told}" in result.output
    inside = run_build("ev/_site/r1")
    assert inside.exit_code == 1
    assert ("Error: ev/_site/r1: a folder inside ev/_site, a site pgm built, not an event"
            in inside.output)
    assert sorted(path for path in (tmp_path / "ev/_site").rglob("*")) == before
    for command in ("watch", "serve"):  # no rebuild would make it an event: stop at once
        refused = CliRunner().invoke(main, [command, "ev/_site"])
        assert refused.exit_code == 1 and f"Error: ev/_site: {told}" in refused.output
    elsewhere = run_build("ev", "-o", "www/_site")
    assert elsewhere.exit_code == 0, elsewhere.output
    no_event = run_build("www/_site")
    assert no_event.output.strip().endswith("Error: www/_site: a site pgm built, not an "
                                            "event: its games hold copies of the records; "
                                            "name the event's own folder")
    checked = CliRunner().invoke(main, ["check", "ev/_site", "ev/r1/t1.gcg"])
    assert checked.exit_code == 1 and checked.stdout == f"ev/_site: error: {told}\n"
    exported = CliRunner().invoke(main, ["export", "ev/_site", "ev"])
    assert exported.exit_code == 1 and f"ev/_site: error: {told}" in exported.output
    assert exported.output.count("ev/r1/t1.gcg,") == 28 and "input.gcg" not in exported.output


def test_a_mistyped_path_or_event_yaml_given_to_check_is_said_so(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_event(tmp_path / "ev", {"event.yaml": "title: Spring\n", "r1/t1.gcg": GAME})
    checked = CliRunner().invoke(main, ["check", "ev/r2", "ev/event.yaml"])
    assert checked.exit_code == 1
    assert checked.stdout == ("ev/r2: error: no such file or folder\n"
                              "ev/event.yaml: error: event.yaml is checked with the records "
                              "of its event: pgm check ev\n")
    assert run_build("evv").output.strip().endswith("Error: evv does not exist")
    make_event(tmp_path / "sp ace", {"event.yaml": "title: Spring\n", "t1.gcg": GAME})
    spaced = CliRunner().invoke(main, ["check", "sp ace/event.yaml"])
    assert spaced.stdout == ("sp ace/event.yaml: error: event.yaml is checked with the "
                             "records of its event: pgm check 'sp ace'\n")

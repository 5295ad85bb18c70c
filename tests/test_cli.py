"""``pgm check`` as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from conftest import CORPUS, SAMPLE_GAMES
from sitehelpers import make_event

from pgm.cli import main

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_check_prints_located_diagnostics_and_fails_on_errors(tmp_path) -> None:
    bad = tmp_path / "bad.gcg"
    bad.write_bytes(b"#player1 a a\n#player2 b b\n>a: ZA 8G ZA +22 22\n>b: QI 8G QI +11 33\n")
    result = run("check", str(bad))
    assert result.exit_code == 1
    assert result.stdout == (f"{bad}:4: error: cannot place 8G QI: G8 already holds 'Z', "
                             "the play has 'Q' there\n")
    assert result.stderr == "Checked 1 record: 1 error(s), 0 warning(s).\n"


def test_check_passes_clean_files_with_warnings() -> None:
    path = CORPUS / "gcg/liwords__r20_peter.gcg"
    result = run("check", str(path))
    assert result.exit_code == 0
    assert result.stdout == (f"{path}:19: warning: N1 BRUnCH..Y is recorded as +115, but the "
                             "board scores it +113\n")
    assert result.stderr == "Checked 1 record: 0 error(s), 1 warning(s).\n"


def test_check_of_an_event_says_how_many_records_it_checked() -> None:
    """A clean event prints no problem, and a tournament director still learns that pgm
    found the records: on stderr, so that an editor reading problems from stdout gets
    only those."""
    result = run("check", str(SAMPLE_GAMES))
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == "Checked 11 records: 0 error(s), 0 warning(s).\n"


def test_check_json_has_the_documented_keys() -> None:
    path = CORPUS / "gcg/MAGPIE-DATA__success_standard.gcg"
    result = run("check", "--json", str(path))
    assert result.exit_code == 0
    [report] = json.loads(result.output)
    assert report["path"] == str(path) and report["game"] == "crossword"
    assert report["players"] == ["HastyBot", "RightBehindYou"]
    assert report["diagnostics"] == []
    assert report["final_scores"] == [516, 358]
    first = report["events"][1]
    assert {k: first[k] for k in ("line", "player", "kind", "stated_score", "computed_score",
                                  "cumulative")} == {
        "line": 13, "player": "RightBehindYou", "kind": "play", "stated_score": 22,
        "computed_score": 22, "cumulative": [0, 22]}
    assert first["cgp"].startswith("15/15/15/15/15/15/15/6ZA7/15/15/15/15/15/15/15 ")
    assert report["events"][0]["kind"] == "exchange"
    assert report["events"][0]["computed_score"] is None


def test_check_json_with_several_files_and_a_missing_one(tmp_path) -> None:
    missing = tmp_path / "nope.gcg"
    result = run("check", "--json", str(CORPUS / "gcg/macondo__vs_andy.gcg"), str(missing))
    assert result.exit_code == 1
    reports = json.loads(result.output)
    assert [r["path"] for r in reports] == [str(CORPUS / "gcg/macondo__vs_andy.gcg"), str(missing)]
    assert reports[1]["diagnostics"][0]["message"] == "no such file or folder"


def test_a_folder_without_records_is_an_error_not_silence(tmp_path) -> None:
    folder = tmp_path / "round-1.gcg"  # a folder, named like a record
    (folder / "notes").mkdir(parents=True)
    result = run("check", str(folder))
    assert result.exit_code == 1
    assert result.output.startswith(f"{folder}: error: no records in this folder")
    both = run("check", "--json", str(folder), str(CORPUS / "gcg/macondo__vs_andy.gcg"))
    assert [r["path"] for r in json.loads(both.output)] == \
        [str(folder), str(CORPUS / "gcg/macondo__vs_andy.gcg")]


def test_a_folder_of_upwords_boards_is_checked(tmp_path) -> None:
    from pgm.ubf import UpwordsBoard, write_ubf

    (tmp_path / "boards").mkdir()
    (tmp_path / "boards/empty.ubf").write_text(write_ubf(UpwordsBoard()))
    result = run("check", "--json", str(tmp_path / "boards"))
    assert result.exit_code == 0
    assert [r["path"] for r in json.loads(result.output)] == [str(tmp_path / "boards/empty.ubf")]


def test_unknown_extension_is_an_error(tmp_path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    result = run("check", str(other))
    assert result.exit_code == 1
    # a problem of the whole file names no line
    assert result.output.startswith(f"{other}: error: unknown record type")


NO_RECORDS = ("no records in this folder or below it (pgm reads .gcg, .gn, .cgp and .ubf "
              "files, but not in folders whose name starts with . or _, nor in sites pgm "
              "built)")


@pytest.mark.parametrize("command", ["build", "check", "export"])
def test_a_folder_with_no_records_and_no_event_fails_every_command_alike(tmp_path,
                                                                         command) -> None:
    # The wrong folder, most likely: its records are where pgm does not look.
    folder = make_event(tmp_path / "ev", {"_drafts/g.gcg": RECORD, ".old/h.gcg": RECORD,
                                          "notes.txt": "round 1 on Monday"})
    result = run(command, str(folder))
    assert result.exit_code == 1
    said = f"{NO_RECORDS}; an event with no records yet needs an event.yaml\n"
    # the build stops with it (click's "Error: "); check and export report it
    assert (f"Error: {folder}: {said}" if command == "build" else f"{folder}: error: {said}") \
        in result.output
    assert result.output.count(NO_RECORDS) == 1
    assert sorted(p.name for p in folder.iterdir()) == [".old", "_drafts", "notes.txt"]


@pytest.mark.parametrize("command", ["build", "check", "export"])
def test_an_event_with_no_records_yet_is_a_warning_for_every_command(tmp_path,
                                                                     command) -> None:
    # Before round 1: the event is set up, its rounds are still empty.
    event = make_event(tmp_path / "ev", {"event.yaml": "title: Club night\n",
                                         "round-1/.keep": ""})
    result = run(command, str(event))
    assert result.exit_code == 0
    assert f"{event}: warning: {NO_RECORDS}\n" in result.output
    inside = run(command, str(event / "round-1"))  # in an event: event.yaml above it
    assert inside.exit_code == 0 and f"{event / 'round-1'}: warning: {NO_RECORDS}" \
        in inside.output


def test_the_build_of_an_event_with_no_records_yet_writes_its_empty_index(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"event.yaml": "title: Club night\n"})
    result = run("build", str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0 and "Built 0 records" in result.output
    assert "Club night" in (tmp_path / "site/index.html").read_text()
    assert "No games to show" not in result.output  # the warning said why
    strict = run("build", str(event), "-o", str(tmp_path / "site"), "--strict")
    assert strict.exit_code == 1 and f"warning: {NO_RECORDS}" in strict.output


def test_an_event_of_drafts_only_says_so(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"event.yaml": "draft: true\n", "r1/a.gcg": RECORD})
    result = run("build", str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0 and "Built 0 records" in result.output
    assert "No games to show: every record is marked draft in event.yaml." in result.output
    assert NO_RECORDS not in result.output
    assert "No games to show" not in run("build", str(SAMPLE_GAMES), "-o",
                                         str(tmp_path / "sample")).output


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run([sys.executable, "-m", "pgm", "--version"], capture_output=True,
                          text=True, check=True)
    assert done.stdout.startswith("pgm, version ")


def test_the_summary_tells_records_not_shown_from_records_shown_up_to_an_error(
        tmp_path, monkeypatch) -> None:
    import errno
    import os

    from sitehelpers import make_event

    good = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    make_event(tmp_path / "ev", {"a.gcg": good, "b.gcg": good,
                             "c.gcg": good + b">Andy: ABC\n"})
    real_open = os.open

    def refusing_b(path, *args, **kwargs):
        if os.fspath(path).endswith("b.gcg"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_b)
    monkeypatch.chdir(tmp_path)
    result = run("build", "ev", "--jobs", "1")
    assert result.exit_code == 1
    # named from where pgm runs, as the problems are: an editor opens them
    assert "ev/c.gcg:37: error: " in result.output
    assert "Records with errors (rendered up to the problem): ev/c.gcg\n" in result.output
    assert "Records not shown (a page says why): ev/b.gcg" in result.output


def test_the_summary_names_the_games_in_progress(tmp_path, monkeypatch) -> None:
    """After the event, a record that lost its end-of-game lines replays cleanly and is
    shown in progress: the build's summary names it, so the director sees which games
    never got their end. A live round of dozens of games is named in part."""
    ended = (CORPUS / "gcg/liwords__josh_nationals_round_17.gcg").read_bytes()
    cut = b"".join(ended.splitlines(keepends=True)[:-3])
    files: dict[str, bytes | str] = {"event.yaml": "title: Open\n", "r1/ended.gcg": ended,
                                     "r1/cut.gcg": cut}
    make_event(tmp_path / "ev", files)
    monkeypatch.chdir(tmp_path)
    result = run("build", "ev")
    assert result.exit_code == 0 and "0 warning(s)" in result.output
    assert result.output.endswith(
        "1 game in progress (no end of game recorded yet): ev/r1/cut.gcg\n")
    for table in range(2, 8):
        renamed = cut.replace(b"Austin", b"Austi" + b"n" * table)
        (tmp_path / f"ev/r1/t{table}.gcg").write_bytes(renamed)
    assert run("build", "ev").output.endswith(
        "7 games in progress (no end of game recorded yet): ev/r1/cut.gcg, ev/r1/t2.gcg, "
        "ev/r1/t3.gcg, ev/r1/t4.gcg, ev/r1/t5.gcg and 2 more\n")


def test_the_watch_log_says_kept_pages_only_when_some_were_kept(tmp_path, capsys) -> None:
    from pgm.build import BuildResult
    from pgm.cli import _RebuildLog

    log = _RebuildLog()
    log(BuildResult(tmp_path, kept=["ev/r1/t2.gcg"]))
    log(BuildResult(tmp_path, rebuilt=["ev/r1/t1.gcg"]))
    first, second = capsys.readouterr().err.splitlines()
    assert first.endswith("0 game(s) rebuilt; 0 file(s) written in 0 ms (kept the last good "
                          "pages of 1 game(s) whose record does not replay)")
    assert second.endswith("1 game(s) rebuilt: ev/r1/t1.gcg; 0 file(s) written in 0 ms")


def test_the_watch_log_names_the_saves_held_and_the_games_taken_off(tmp_path, capsys) -> None:
    from pgm.build import BuildResult
    from pgm.cli import _RebuildLog

    _RebuildLog()(BuildResult(tmp_path, settling=["ev/r1/t2.gcg"], removed=["ev/r1/t3.gcg"]))
    assert capsys.readouterr().err.rstrip().endswith(
        "0 game(s) rebuilt; 0 file(s) written in 0 ms; ev/r1/t2.gcg just saved, with turns "
        "taken back or a new warning: its last pages are kept until it is left alone a "
        "moment; taken off the site: ev/r1/t3.gcg")


def test_the_watch_log_prints_a_warning_when_it_appears_and_an_error_at_each_save(
        tmp_path, capsys) -> None:
    """The annotator of g sees g's problems; h's error, printed once, is then only
    counted while h is not saved again, and printed again when it is."""
    from pgm.build import BuildResult
    from pgm.cli import _RebuildLog
    from pgm.diagnostics import Diagnostic, Severity

    typo = Diagnostic("ev/g.gcg", 4, Severity.WARNING, "cumulative score is 42, but 0 +24 = 24")
    broken = Diagnostic("ev/h.gcg", 9, Severity.ERROR, "square 8D is taken")
    mine = Diagnostic("ev/g.gcg", 5, Severity.ERROR, "expected a cumulative total")
    log = _RebuildLog()
    for saved, diagnostics in (["ev/g.gcg", "ev/h.gcg"], [typo, broken]), \
            (["ev/g.gcg"], [typo, broken, mine]), (["ev/g.gcg"], [typo, broken, mine]), \
            (["ev/h.gcg"], [broken]), (["ev/g.gcg"], [typo]):
        log(BuildResult(tmp_path, rebuilt=saved, diagnostics=diagnostics))
    # h saved half-way twice: its pages are kept, its error printed at each save; then g
    # is saved, and h, kept and only tried again, is counted
    for saved in (["ev/h.gcg"], ["ev/h.gcg"], []):
        log(BuildResult(tmp_path, kept=["ev/h.gcg"], kept_saved=saved,
                        rebuilt=[] if saved else ["ev/g.gcg"], diagnostics=[broken]))
    printed = [line.split(" ", 1)[1] for line in capsys.readouterr().err.splitlines()
               if "rebuilt" not in line]
    still = "still 1 error(s) in records not changed since: ev/h.gcg"
    assert printed == [str(typo), str(broken), str(mine), still, str(mine), still,
                       str(broken), str(typo), str(broken), str(broken), still]


def test_the_watch_log_confirms_a_fix_and_keeps_quiet_when_nothing_was_done(
        tmp_path, capsys) -> None:
    """The annotator who corrects a score sees that the warning is gone; a save of a
    file that is no record (a backup beside it) adds no line of zeros."""
    from pgm.build import BuildResult
    from pgm.cli import _RebuildLog
    from pgm.diagnostics import Diagnostic, Severity

    typo = Diagnostic("ev/g.gcg", 4, Severity.WARNING, "cumulative score is 42, but 0 +24 = 24")
    log = _RebuildLog()
    log(BuildResult(tmp_path))  # the first build, of a site up to date: the watch is ready
    log(BuildResult(tmp_path, rebuilt=["ev/g.gcg"], files_written=30, diagnostics=[typo]))
    log(BuildResult(tmp_path, diagnostics=[typo]))  # a backup saved: nothing to do
    log(BuildResult(tmp_path, rebuilt=["ev/g.gcg"], files_written=30))
    lines = [line.split(" ", 1)[1] for line in capsys.readouterr().err.splitlines()]
    assert lines == ["0 game(s) rebuilt; 0 file(s) written in 0 ms",
                     str(typo), "1 game(s) rebuilt: ev/g.gcg; 30 file(s) written in 0 ms",
                     "ev/g.gcg: fixed: no errors or warnings left",
                     "1 game(s) rebuilt: ev/g.gcg; 30 file(s) written in 0 ms"]


def test_a_kept_record_counts_as_saved_only_when_its_bytes_changed(tmp_path) -> None:
    """A record whose last good pages are kept is tried again at every build; the build
    says which of those were saved again (the watch log prints their errors anew)."""
    from sitehelpers import make_event

    from pgm.build import BuildOptions, build

    good = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes().rstrip(b"\r\n") + b"\n"
    event = make_event(tmp_path / "ev", {"g.gcg": good, "h.gcg": good})
    options = BuildOptions(event, tmp_path / "o", keep_last_good=True, jobs=1)
    build(options)
    (event / "h.gcg").write_bytes(good + b">Andy: ABC\n")
    first = build(options)
    (event / "g.gcg").write_bytes(good + b"#note saved\n")
    second = build(options)
    (event / "h.gcg").write_bytes(good + b">Andy: ABCD\n")
    third = build(options)
    named = str(event / "h.gcg")
    assert [(r.kept, r.kept_saved) for r in (first, second, third)] == [
        ([named], [named]), ([named], []), ([named], [named])]


WARNED = (CORPUS / "gcg-invalid/MAGPIE-DATA__standard_cumulative_scoring_error.gcg")
"""Replays to its end with one warning (a wrong running total) and no error."""


def _warned_event(tmp_path):
    from sitehelpers import make_event

    return make_event(tmp_path / "ev", {"g.gcg": WARNED.read_bytes()})


def test_a_strict_build_says_that_its_warnings_fail_it(tmp_path) -> None:
    event = _warned_event(tmp_path)
    result = run("build", str(event), "-o", str(tmp_path / "o"), "--strict")
    assert result.exit_code == 1
    assert "0 error(s), 1 warning(s)" in result.output
    assert result.output.splitlines()[-1] == (
        "--strict: 1 warning(s) fail the build (exit status 1); the site is written all "
        "the same.")
    # as README says: the site is written, so a CI job can still publish or inspect it
    assert (tmp_path / "o/g/index.html").is_file()


def test_a_quiet_strict_build_still_says_why_it_fails(tmp_path) -> None:
    result = run("build", str(_warned_event(tmp_path)), "-o", str(tmp_path / "o"), "--strict",
                 "--quiet")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1].startswith("--strict: 1 warning(s) fail the build")


def test_warnings_without_strict_fail_nothing_and_say_nothing_of_it(tmp_path) -> None:
    result = run("build", str(_warned_event(tmp_path)), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0
    assert "fail the build" not in result.output


def test_a_build_with_errors_says_that_they_fail_it(tmp_path) -> None:
    from sitehelpers import make_event

    good = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {"c.gcg": good + b">Andy: ABC\n",
                                         "g.gcg": WARNED.read_bytes()})
    result = run("build", str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "1 error(s) fail the build (exit status 1); the site is written all the same.")
    strict = run("build", str(event), "-o", str(tmp_path / "o"), "--strict")
    assert strict.output.splitlines()[-1] == (
        "1 error(s) and, with --strict, 1 warning(s) fail the build (exit status 1); the "
        "site is written all the same.")


def test_build_names_a_records_problem_from_where_pgm_runs_as_check_does(tmp_path,
                                                                          monkeypatch) -> None:
    """``path:line`` a terminal or an editor opens: the event folder as given, then the
    record's path in it, for the record's problems as for event.yaml's."""
    record = (CORPUS / "gcg-invalid" /
              "MAGPIE-DATA__standard_cumulative_scoring_error.gcg").read_bytes()
    make_event(tmp_path / "ev", {"round-1/g.gcg": record, "event.yaml": "title: [x\n"})
    monkeypatch.chdir(tmp_path)
    config_problem, *checked = run("check", "ev/round-1/g.gcg").stdout.splitlines()
    assert config_problem.startswith("ev/event.yaml:1: error: YAML syntax error")
    assert checked and all(line.startswith("ev/round-1/g.gcg:") for line in checked)
    broken = run("build", "ev", "-o", "site")
    assert f"\n{config_problem}" in broken.output
    (tmp_path / "ev/event.yaml").unlink()
    built = run("build", "ev", "-o", "site").output.splitlines()
    assert [line for line in built if line.startswith("ev/")] == checked


def test_check_json_holds_the_event_yaml_problems_too(tmp_path) -> None:
    """A script reads the array alone: an event.yaml error that makes the exit status 1
    is in it, as an object of its own with no game."""
    event = tmp_path / "ev"
    event.mkdir()
    (event / "g.gcg").write_bytes((CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes())
    (event / "event.yaml").write_text("base_url: nope\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--json", str(event)])
    assert result.exit_code == 1
    reports = json.loads(result.stdout)
    assert [(r["path"], r["game"]) for r in reports] == [
        (str(event / "event.yaml"), None), (str(event / "g.gcg"), "crossword")]
    assert [(d["line"], d["severity"]) for d in reports[0]["diagnostics"]] == [(1, "error")]
    assert reports[0]["diagnostics"][0]["message"].startswith("key 'base_url' must be")

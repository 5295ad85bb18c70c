"""Records whose file names are not UTF-8 (``caf\\xe9.gcg`` in ISO-8859-1, as an old
Windows machine or a zip archive leaves them on Linux): built, rebuilt, made drafts,
watched, checked and exported, shown as ``café.gcg``."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import make_event, record_prefix, wait_for, watching

import pgm.state
from pgm.build import BuildOptions, build
from pgm.cli import main
from pgm.discover import shown_name
from pgm.state import load_state

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
OTHER = (CORPUS / "gcg/MAGPIE-DATA__success_standard.gcg").read_bytes()
LATIN1 = os.fsdecode(b"caf\xe9.gcg")
"""The name as Python gives it: the byte 0xE9 as a surrogate escape, no UTF-8 text."""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(autouse=True)
def state_from_disk(monkeypatch) -> None:
    """Every build reads the state file back, instead of the copy a build in this
    process keeps of what it wrote."""
    monkeypatch.setattr(pgm.state, "_remember", lambda path, state: None)


def game_json(folder: Path) -> dict:
    return json.loads((folder / "game.json").read_text(encoding="utf-8"))


def test_a_name_is_shown_with_its_bytes_read_as_iso_8859_1() -> None:
    assert shown_name(os.fsdecode(b"Div \xc9t\xe9/r\xe9sum\xe9.gcg")) == "Div Été/résumé.gcg"
    # 0x80-0x9F as Windows-1252, and the bytes it leaves undefined as U+FFFD
    assert shown_name(os.fsdecode(b"\x80\x81 \x93x\x94.gcg")) == "€\ufffd “x”.gcg"
    assert shown_name("café.gcg") == "café.gcg"  # UTF-8 as it is


def test_an_event_with_names_that_are_not_utf8_builds_and_shows_them_readably(tmp_path
                                                                              ) -> None:
    event = make_event(tmp_path / "ev", {LATIN1: RECORD,
                                         os.fsdecode(b"Div \xc9t\xe9/r1/t\xe91.gcg"): OTHER})
    out = tmp_path / "site"
    result = run("build", str(event), "-o", str(out), "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "Built 2 records" in result.output
    # slugged as shown: the site's paths are plain ASCII
    assert (out / "cafe/index.html").is_file() and (out / "div-ete/r1/te1/index.html").is_file()
    assert all(str(path.relative_to(out)).isascii() for path in out.rglob("*"))
    assert game_json(out / "cafe")["path"] == "café.gcg"
    assert game_json(out / "div-ete/r1/te1")["division"] == "Div Été"
    assert "Div Été" in (out / "index.html").read_text(encoding="utf-8")
    assert "\ncafé.gcg,1,andy,GPY,8G,GYP,18,18,play,\n" in \
        (out / "moves.csv").read_text(encoding="utf-8")
    # the state is read back: nothing changed, nothing is made again
    again = build(BuildOptions(event, out, jobs=1))
    assert again.rendered_games == 0 and again.files_written == 0


def test_a_draft_named_so_is_sealed_and_comes_back_at_its_address(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {LATIN1: RECORD})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    assert game_json(out / "cafe")["players"] == ["andy", "cesar"]
    # event.yaml is UTF-8: it names the record as pgm shows it
    (event / "event.yaml").write_text('games:\n  "café.gcg": {draft: true}\n', encoding="utf-8")
    drafted = build(BuildOptions(event, out, jobs=1))
    assert drafted.diagnostics == [] and not (out / "cafe").exists()
    text = (out / ".pgm-state.json").read_bytes().decode("utf-8")
    assert LATIN1 not in text and "café" not in text and "\\udce9" not in text
    state = load_state(out, [LATIN1])
    assert state is not None and state.drafts == {LATIN1: "cafe"}
    # a record in UTF-8 slugged alike does not take the draft's address...
    (event / "Café.gcg").write_bytes(OTHER)
    build(BuildOptions(event, out, jobs=1))
    assert game_json(out / "cafe-2")["players"] == ["HastyBot", "RightBehindYou"]
    assert not (out / "cafe").exists()
    # ...which it has again once it is no draft
    (event / "event.yaml").unlink()
    build(BuildOptions(event, out, jobs=1))
    assert game_json(out / "cafe")["players"] == ["andy", "cesar"]
    assert game_json(out / "cafe-2")["players"] == ["HastyBot", "RightBehindYou"]


def test_watch_goes_on_when_a_record_named_so_is_saved(tmp_path) -> None:
    # watchfiles gives up on a batch of changes holding such a name
    event = make_event(tmp_path / "ev", {"a.gcg": record_prefix(RECORD, 4)})
    out = tmp_path / "site"
    with watching(BuildOptions(event, out)):
        assert wait_for(lambda: (out / "a/4.html").is_file())
        time.sleep(0.3)  # let the watcher settle before the annotator saves
        (event / LATIN1).write_bytes(record_prefix(RECORD, 4))
        assert wait_for(lambda: (out / "cafe/4.html").is_file())
        (event / LATIN1).write_bytes(record_prefix(RECORD, 6))
        assert wait_for(lambda: (out / "cafe/6.html").is_file())
        (event / "a.gcg").write_bytes(record_prefix(RECORD, 6))
        assert wait_for(lambda: (out / "a/6.html").is_file())


def test_check_and_export_name_such_a_record_readably(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {LATIN1: RECORD.rstrip(b"\n") + b"\n>andy: ?\n"})
    shown = f"{event}/café.gcg"
    check = run("check", str(event))
    assert check.exit_code == 1 and check.output.startswith(f"{shown}:38: error: ")
    [report] = json.loads(run("check", "--json", str(event)).output)
    assert report["path"] == shown
    export = run("export", str(event))
    assert export.exit_code == 1 and f"\n{shown},1,andy,GPY,8G,GYP,18,18,play,\n" in export.output
    build_output = run("build", str(event), "-o", str(tmp_path / "site")).output
    assert f"{shown}:38: error: " in build_output
    assert f"Records with errors (rendered up to the problem): {shown}\n" in build_output


def test_a_theme_file_and_an_event_yaml_folder_named_so_are_read(tmp_path) -> None:
    folder = os.fsdecode(b"Div \xc9")
    event = make_event(tmp_path / "ev", {
        "event.yaml": "theme_dir: theme\n", os.fsdecode(b"theme/static/caf\xe9.css"): "a {}",
        f"{folder}/event.yaml": "bogus: 1\n", f"{folder}/a.gcg": RECORD})
    out = tmp_path / "site"
    result = run("build", str(event), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert f"{event}/Div É/event.yaml:1: warning: unknown key 'bogus'" in result.output
    assert (out / "static" / os.fsdecode(b"caf\xe9.css")).read_text() == "a {}"  # as named


def test_names_and_addresses_do_not_depend_on_the_locale(tmp_path) -> None:
    """A cron job may run in the C locale, where Python reads every byte of a file name
    beyond ASCII as an escape: ``ż.gcg`` must still be shown as ``ż.gcg`` and built at
    the address a UTF-8 locale gives it (it was ``aa3...``), and ``check --json`` must
    write its UTF-8 (it stopped at the first accented name with a UnicodeEncodeError)."""
    import subprocess
    import sys

    from pgm.discover import shown_name

    assert shown_name("\udcc5\udcbc.gcg") == "ż.gcg"  # the bytes of ż, escaped
    assert shown_name("caf\udce9.gcg") == "café.gcg"  # Latin-1 bytes stay Latin-1
    event = make_event(tmp_path / "ev", {"Łódź/żółw.gcg": "#player1 Zoé Zoé\n#player2 b b\n"
                                         ">Zoé: AB 8G AB +8 8\n"})
    c_locale = {"PATH": os.environ["PATH"], "LC_ALL": "C", "PYTHONUTF8": "0"}
    checked = subprocess.run([sys.executable, "-m", "pgm", "check", "--json", str(event)],
                             env=c_locale, capture_output=True, timeout=60, check=False)
    report = json.loads(checked.stdout.decode("utf-8"))
    assert report[0]["path"] == str(event / "Łódź/żółw.gcg") and report[0]["names"][0] == "Zoé"
    built = subprocess.run([sys.executable, "-m", "pgm", "build", str(event), "-o",
                            str(tmp_path / "site"), "--quiet"],
                           env=c_locale, capture_output=True, timeout=60, check=False)
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "site/lodz/zolw/index.html").is_file()

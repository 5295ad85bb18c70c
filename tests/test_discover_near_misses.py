"""A record saved under a near-miss name is not built, and the director is told.

``game.gcg.txt`` (Notepad, with extensions hidden), ``game.txt`` holding a GCG record:
pgm reads records by their names, so these are skipped, each with one warning naming
the file and the name that shows it. An editor's backups are skipped in silence.
"""

from __future__ import annotations

import codecs
import os

import pytest
from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import make_event

from pgm.cli import main

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
OTHER = (CORPUS / "gcg/liwords__r20_peter.gcg").read_bytes()

WARNED = [
    "ev/r1/a.gcg.txt: warning: skipped: named .gcg.txt; rename it to a.gcg to show it",
    "ev/r1/b.GCG.txt: warning: skipped: named .GCG.txt; rename it to b.GCG to show it",
    "ev/r1/c.txt: warning: skipped: a GCG record named .txt; rename it to c.gcg to show it",
    "ev/r1/t1.gcg.txt: warning: skipped: named .gcg.txt, and t1.gcg beside it is shown; "
    "if it is another game, give it a name of its own ending in .gcg",
]
"""One warning per near miss, in name order; none for the backups and notes beside them."""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def event(tmp_path, monkeypatch):
    make_event(tmp_path / "ev", {
        "event.yaml": "title: Club night\n",
        "r1/t1.gcg": RECORD,
        "r1/a.gcg.txt": OTHER, "r1/b.GCG.txt": OTHER, "r1/c.txt": OTHER,
        "r1/t1.gcg.txt": RECORD,  # a copy beside the record
        # an editor's: silence
        "r1/t1.gcg~": RECORD, "r1/t1.gcg.bak": RECORD, "r1/t1.gcg.orig": RECORD,
        "r1/#t1.gcg#": RECORD, "r1/.t1.gcg.swp": b"b0VIM 9.0\0\0", "r1/.c.txt": OTHER,
        "r1/notes.txt": "Round 1 starts at 10:00; #player1 sits north.\n",
    })
    monkeypatch.chdir(tmp_path)
    return tmp_path / "ev"


def test_build_skips_near_misses_with_one_warning_each(event) -> None:
    result = run("build", "ev", "-o", "site")
    assert result.exit_code == 0
    assert [line for line in result.output.splitlines() if ": warning: " in line] == WARNED
    assert "Built 1 record," in result.output and "4 warning(s)" in result.output
    games = sorted(p.parent.relative_to(event.parent / "site").as_posix()
                   for p in (event.parent / "site").glob("**/input.gcg"))
    assert games == ["r1/t1"]


def test_check_of_the_folder_reports_the_same_warnings(event) -> None:
    result = run("check", "ev")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == WARNED
    assert result.stderr == "Checked 1 record: 0 error(s), 4 warning(s).\n"


def test_strict_build_fails_on_a_near_miss(event) -> None:
    result = run("build", "ev", "-o", "site", "--strict")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1].startswith("--strict: 4 warning(s) fail the build")


def test_a_gcg_record_saved_as_utf16_txt_is_recognised(tmp_path) -> None:
    """Notepad's "Unicode" is UTF-16: the record's pragmas are still found."""
    text = RECORD.decode("utf-8")
    make_event(tmp_path / "ev", {"event.yaml": "title: x\n", "g.gcg": RECORD,
                                 "u.txt": codecs.BOM_UTF16_LE + text.encode("utf-16-le")})
    result = run("check", str(tmp_path / "ev"))
    assert result.stdout == (f"{tmp_path / 'ev/u.txt'}: warning: skipped: a GCG record "
                             "named .txt; rename it to u.gcg to show it\n")


def test_a_named_pipe_named_txt_is_not_read(tmp_path) -> None:
    """A .txt file is read to know a GCG record; a pipe would wait for a writer."""
    make_event(tmp_path / "ev", {"event.yaml": "title: x\n", "g.gcg": RECORD})
    os.mkfifo(tmp_path / "ev/pipe.txt")
    result = run("check", str(tmp_path / "ev"))
    assert (result.exit_code, result.stdout) == (0, "")


def test_a_folder_of_near_misses_only_names_them_in_its_error(tmp_path, monkeypatch) -> None:
    """With no record and no event.yaml, the build stops before any warning: its error
    names the files passed by. Check says it once, in that error."""
    make_event(tmp_path / "ev", {"t1.gcg.txt": RECORD, "t2.txt": OTHER})
    monkeypatch.chdir(tmp_path)
    skipped = ("; an event with no records yet needs an event.yaml. Skipped: ev/t1.gcg.txt "
               "(named .gcg.txt; rename it to t1.gcg to show it), ev/t2.txt (a GCG record "
               "named .txt; rename it to t2.gcg to show it)")
    built = run("build", "ev", "-o", "site")
    assert built.exit_code == 1 and built.output.startswith("Error: ev: no records in this")
    assert built.output.endswith(skipped + "\n")
    checked = run("check", "ev")
    assert checked.exit_code == 1
    [line] = checked.stdout.splitlines()
    assert line.startswith("ev: error: no records in this folder") and line.endswith(skipped)


def test_the_watch_log_prints_a_near_miss_once(event, capsys) -> None:
    """Every rebuild finds the file again; the watch log says it when it first appears."""
    from pgm.build import BuildOptions, build
    from pgm.cli import _RebuildLog

    log = _RebuildLog()
    options = BuildOptions(event, event.parent / "site", jobs=1)
    log(build(options))
    (event / "r1/t1.gcg").write_bytes(RECORD.rstrip(b"\r\n") + b"\n#note saved again\n")
    log(build(options))
    printed = capsys.readouterr().err
    assert printed.count("a.gcg.txt: warning: skipped") == 1
    assert printed.count("game(s) rebuilt") == 2

"""What the CLI says when there is nothing to do: a rebuild with nothing changed, an
export of no records (outside an event waiting for its first round), a check of a file
that is not there. Each says so, instead of
words that suggest work was done ("Built 80 records"), an empty table with exit status
0, or "Checked 1 record" of a typo."""

from __future__ import annotations

import re

from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import make_event

from pgm.cli import main
from pgm.export import CSV_HEADER

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes().rstrip(b"\r\n") + b"\n"
OTHER = (CORPUS / "gcg/MAGPIE-DATA__success_standard.gcg").read_bytes()
BROKEN = b"#player1 a a\n#player2 b b\n>a: ZA 8G ZA +22 22\n>b: QI 8G QI +11 33\n"
NO_RECORDS = ("no records in this folder or below it (pgm reads .gcg, .gn, .cgp and .ubf "
              "files, but not in folders whose name starts with . or _, nor in sites pgm "
              "built)")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def _head(output: str) -> str:
    """The summary's first line, its time made ``T``."""
    [line] = [line for line in output.splitlines() if line.endswith("index.html")]
    return re.sub(r"\d+\.\d\d s", "T s", line)


# --- pgm build: a rebuild that changed nothing -------------------------------------


def test_a_build_names_the_games_it_took_off_the_site(tmp_path, monkeypatch) -> None:
    """A record deleted, renamed or made a draft: its game leaves the site, and the
    build says which, after a rebuild of the changed records and after a full one."""
    make_event(tmp_path / "ev", {"r1/t1.gcg": RECORD, "r1/t2.gcg": OTHER,
                                 "r2/t1.gcg": RECORD.replace(b"andy", b"ann")})
    monkeypatch.chdir(tmp_path)
    assert run("build", "ev", "-o", "site").exit_code == 0
    (tmp_path / "ev/r1/t2.gcg").rename(tmp_path / "ev/r1/t9.gcg")
    renamed = run("build", "ev", "-o", "site")
    assert "1 game taken off the site (record removed, renamed or made a draft): " \
        "ev/r1/t2.gcg" in renamed.output
    assert _head(renamed.output).startswith("Built 1 of 3 records (the others unchanged; ")
    (tmp_path / "ev/event.yaml").write_text("title: Club night\n"
                                            "games:\n  r2/t1.gcg: {draft: true}\n")
    drafted = run("build", "ev", "-o", "site")
    assert _head(drafted.output).startswith("Built 2 records, ")  # a full build
    assert "1 game taken off the site (record removed, renamed or made a draft): " \
        "ev/r2/t1.gcg" in drafted.output
    assert not (tmp_path / "site/r2").exists()
    again = run("build", "ev", "-o", "site")
    assert "taken off" not in again.output



def test_a_rebuild_with_nothing_changed_says_so(tmp_path, monkeypatch) -> None:
    make_event(tmp_path / "ev", {"r1/t1.gcg": RECORD, "r1/t2.gcg": OTHER})
    monkeypatch.chdir(tmp_path)
    first = run("build", "ev", "-o", "site")
    assert first.exit_code == 0
    assert _head(first.output).startswith("Built 2 records, ")
    again = run("build", "ev", "-o", "site")
    assert again.exit_code == 0
    assert _head(again.output) == ("Nothing changed: 2 records up to date (T s): 0 error(s), "
                                   "0 warning(s). Open site/index.html")
    (tmp_path / "ev/r1/t1.gcg").write_bytes(RECORD + b"#note corrected\n")
    edited = run("build", "ev", "-o", "site")
    assert _head(edited.output).startswith("Built 1 of 2 records (the others unchanged; ")


def test_a_rebuild_that_finds_a_page_missing_says_it_made_the_site_again(
        tmp_path, monkeypatch) -> None:
    make_event(tmp_path / "ev", {"r1/t1.gcg": RECORD, "r1/t2.gcg": OTHER})
    monkeypatch.chdir(tmp_path)
    run("build", "ev", "-o", "site")
    (tmp_path / "site/r1/t1/2.html").unlink()
    again = run("build", "ev", "-o", "site")
    assert again.exit_code == 0
    assert _head(again.output).startswith("Built 2 records, ")
    assert "site/r1/t1/2.html was missing from the site: it was made again in full" \
        in again.output
    assert (tmp_path / "site/r1/t1/2.html").is_file()


def test_an_unchanged_rebuild_still_counts_and_names_the_errors(tmp_path, monkeypatch) -> None:
    make_event(tmp_path / "ev", {"g.gcg": RECORD, "bad.gcg": BROKEN})
    monkeypatch.chdir(tmp_path)
    run("build", "ev", "-o", "site")
    again = run("build", "ev", "-o", "site")
    assert again.exit_code == 1
    assert "ev/bad.gcg:4: error: cannot place 8G QI" in again.output
    assert _head(again.output) == ("Nothing changed: 2 records up to date (T s): 1 error(s), "
                                   "0 warning(s). Open site/index.html")
    assert "Records with errors (rendered up to the problem): ev/bad.gcg" in again.output


# --- pgm export: no records outside an event, no table --------------------------


def test_export_with_no_records_leaves_the_last_export_as_it_was(tmp_path) -> None:
    """A rerun before the records are copied in must not blank the table of last round."""
    out = tmp_path / "moves.csv"
    out.write_text(CSV_HEADER + "r1/g.gcg,1,Andy,,,,,,pass,\n")
    empty = make_event(tmp_path / "ev", {"notes.txt": "round 2 on Monday\n"})
    result = run("export", str(empty), "-o", str(out))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{empty}: error: {NO_RECORDS}; an event with no "
                                    "records yet needs an event.yaml\n")
    assert out.read_text() == CSV_HEADER + "r1/g.gcg,1,Andy,,,,,,pass,\n"


def test_export_of_a_file_that_is_no_record_prints_no_table(tmp_path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("round 1\n")
    result = run("export", str(notes))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (f"{notes}: error: unknown record type (expected .cgp, .gcg, "
                             ".gn, .ubf)\nError: no records to export; nothing was written\n")


def test_an_empty_event_exported_with_records_is_still_a_warning(tmp_path) -> None:
    empty = make_event(tmp_path / "next", {"event.yaml": "title: Next week\n"})
    played = make_event(tmp_path / "ev", {"g.gcg": RECORD})
    result = run("export", str(empty), str(played))
    assert result.exit_code == 0
    assert result.stdout.startswith(CSV_HEADER + f"{played / 'g.gcg'},1,")
    assert result.stderr == f"{empty}: warning: {NO_RECORDS}\n"


# --- pgm check: a file that is not there ---------------------------------------------


def test_check_of_a_missing_record_counts_no_record(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("check", "tabel-3.gcg")
    assert result.exit_code == 1
    assert result.stdout == "tabel-3.gcg: error: no such file or folder\n"
    assert result.stderr == "Checked 0 records: 1 error(s), 0 warning(s).\n"


def test_check_counts_the_records_there_beside_a_missing_one(tmp_path, monkeypatch) -> None:
    make_event(tmp_path, {"table-3.gcg": RECORD})
    monkeypatch.chdir(tmp_path)
    result = run("check", "table-3.gcg", "table-4.gcg")
    assert result.exit_code == 1
    assert result.stdout == "table-4.gcg: error: no such file or folder\n"
    assert result.stderr == "Checked 1 record: 1 error(s), 0 warning(s).\n"

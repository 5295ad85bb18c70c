"""``pgm export``: the move table equals the events ``pgm check --json`` reports."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, SAMPLE_GAMES

from pgm.cli import main
from pgm.export import COLUMNS

FOLDERS = [CORPUS / "gcg", CORPUS / "gcg-nonexact", CORPUS / "gn"]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def records(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix in (".gcg", ".gn"))


def expected_rows(report: dict) -> list[dict]:
    """What a row must say, read straight off one ``pgm check --json`` object."""
    rows = []
    for turn, event in enumerate(report["events"], start=1):
        row = {"game": report["path"], "turn": turn, "player": event["player"],
               "kind": event["kind"]}
        if report["game"] == "gungi":
            row.update(rack=None, position=None, word=None, score=None, cumulative=None,
                       notation=event["notation"])
        else:
            seat = report["players"].index(event["player"])
            if report["players"].count(event["player"]) > 1:
                seat = event["seat"]
            row.update(rack=event["rack"], position=event["position"], word=word_cell(event),
                       score=event["stated_score"], cumulative=event["cumulative"][seat],
                       notation=None)
        rows.append(row)
    return rows


def word_cell(event: dict) -> str | None:
    """A play's word; the tiles of an exchange (without the sign) or an end-of-game
    line as the record writes them."""
    if event["kind"] == "exchange":
        return event["tiles"] or str(event["exchange_count"])
    if event["kind"] in ("end_rack_points", "end_rack_penalty"):
        return f"({event['tiles']})"
    return event["word"]


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_rows_equal_the_check_json_events_of_every_corpus_record(folder: Path) -> None:
    files = records(folder)
    assert files
    checked = run("check", "--json", *map(str, files))
    reports = json.loads(checked.stdout)
    assert [r["path"] for r in reports] == [str(p) for p in files]
    expected = [row for report in reports for row in expected_rows(report)]
    assert sum(len(r["events"]) for r in reports) == len(expected) > 0

    exported = run("export", "--format", "json", *map(str, files))
    assert exported.exit_code == checked.exit_code
    assert json.loads(exported.stdout) == expected

    from_folder = run("export", "--format", "json", str(folder))
    assert json.loads(from_folder.stdout) == expected

    table = list(csv.DictReader(io.StringIO(run("export", str(folder)).stdout)))
    assert table == [{k: "" if row[k] is None else str(row[k]) for k in COLUMNS}
                     for row in expected]


def test_csv_header_and_a_crossword_row() -> None:
    path = CORPUS / "gcg/MAGPIE-DATA__success_standard.gcg"
    result = run("export", str(path))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "game,turn,player,rack,position,word,score,cumulative,kind,notation"
    assert lines[2] == f"{path},2,RightBehindYou,AAENRSZ,8G,ZA,22,22,play,"
    assert lines[1] == f"{path},1,HastyBot,DIIIILU,,IIILU,0,0,exchange,"


def test_cumulative_is_the_movers_total_even_with_one_nickname_for_both() -> None:
    path = CORPUS / "gcg/quackle__consonant_heaviness_tendency.gcg"
    rows = json.loads(run("export", "--format", "json", str(path)).stdout)
    assert [(r["player"], r["score"], r["cumulative"]) for r in rows[:4]] == [
        ("NoName", 26, 26), ("NoName", 33, 33), ("NoName", 34, 60), ("NoName", 32, 65)]


def test_gungi_rows_have_notation_and_no_scores() -> None:
    rows = json.loads(run("export", "--format", "json",
                          str(SAMPLE_GAMES / "exhibition/gungi-sample.gn")).stdout)
    assert rows[0]["player"] == "black" and rows[1]["player"] == "white"
    assert rows[0]["notation"] and rows[0]["kind"]
    assert all(r["score"] is None and r["cumulative"] is None and r["rack"] is None
               for r in rows)


def test_folders_are_searched_skipping_hidden_and_underscore_folders(tmp_path) -> None:
    source = CORPUS / "gcg/MAGPIE-DATA__success_standard.gcg"
    for folder in ("round-1", "round-1/deep", ".hidden", "_site"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "game.gcg").write_bytes(source.read_bytes())
    (tmp_path / "notes.txt").write_text("not a record")
    out = tmp_path / "moves.json"
    result = run("export", "--format", "json", "-o", str(out), str(tmp_path))
    assert result.exit_code == 0 and result.stdout == ""
    games = {row["game"] for row in json.loads(out.read_text(encoding="utf-8"))}
    assert games == {str(tmp_path / "round-1/game.gcg"), str(tmp_path / "round-1/deep/game.gcg")}


def test_upwords_record_exports_with_its_scores() -> None:
    rows = json.loads(run("export", "--format", "json", str(SAMPLE_GAMES / "upwords")).stdout)
    assert len(rows) == 19
    assert rows[1] == {"game": str(SAMPLE_GAMES / "upwords/upwords-sample.gcg"), "turn": 2,
                       "player": "Tobi", "rack": "DELNOSU", "position": "5D",
                       "word": "S.O..", "score": 7, "cumulative": 7, "kind": "play",
                       "notation": None}


def test_records_with_errors_export_up_to_the_error_and_fail(tmp_path) -> None:
    bad = tmp_path / "bad.gcg"
    bad.write_bytes(b"#player1 a a\n#player2 b b\n>a: ZA 8G ZA +22 22\n>b: QI 8G QI +11 11\n")
    result = run("export", str(bad))
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 2
    assert result.stderr == (f"{bad}:4: error: cannot place 8G QI: G8 already holds 'Z', "
                             "the play has 'Q' there\n")


def test_missing_input_is_a_usage_error(tmp_path) -> None:
    result = run("export", str(tmp_path / "nope.gcg"))
    assert result.exit_code == 2


def test_an_output_named_json_gets_json_unless_a_format_is_asked(tmp_path) -> None:
    """`-o moves.json` alone writes JSON (it used to write CSV into a .json file);
    `--format` still decides, and other names and standard output get CSV."""
    record = str(CORPUS / "gcg/MAGPIE-DATA__success_standard.gcg")
    named_json = tmp_path / "moves.JSON"
    assert run("export", "-o", str(named_json), record).exit_code == 0
    rows = json.loads(named_json.read_text(encoding="utf-8"))
    assert rows[0]["game"] == record and tuple(rows[0]) == COLUMNS
    asked_csv = tmp_path / "moves.json"
    assert run("export", "--format", "csv", "-o", str(asked_csv), record).exit_code == 0
    assert asked_csv.read_text(encoding="utf-8").startswith(",".join(COLUMNS) + "\n")
    other = tmp_path / "moves.txt"
    assert run("export", "-o", str(other), record).exit_code == 0
    assert other.read_text(encoding="utf-8").startswith(",".join(COLUMNS) + "\n")
    assert run("export", record).stdout.startswith(",".join(COLUMNS) + "\n")


def test_an_export_for_french_excel_keeps_accents_and_columns(tmp_path) -> None:
    """``--format excel --separator ';'``: the byte order mark makes Excel read UTF-8
    (else "Hélène" shows as "HÃ©lÃ¨ne"), and ';' is the separator Excel expects where
    the comma is the decimal mark. A second export to the file is refused: it looks
    as a spreadsheet saves the file, which may have been edited since."""
    record = tmp_path / "partie.gcg"
    french = (CORPUS / "gcg/web_app_warriors__GetGCG.FRA24.TfnqTZkYPL.gcg").read_bytes()
    record.write_bytes(french.replace(b"Hannibal9", "Hélène".encode()))
    out = tmp_path / "coups.csv"
    args = ("export", str(record), "--format", "excel", "--separator", ";", "-o", str(out))
    result = run(*args)
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    again = run(*args)
    assert again.exit_code == 1
    assert "a CSV for Excel looks like a spreadsheet's own, which pgm leaves to you); " \
        "remove it or name another file" in again.output
    assert out.read_bytes() == data
    assert data.startswith(b"\xef\xbb\xbfgame;turn;player;") and b"\r\n" in data
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=";"))
    assert rows[0] == list(COLUMNS)
    assert rows[2][1:8] == ["2", "HastyBot", "ABEEGRV", "8D", "VERBE", "28", "28"]
    assert {row[2] for row in rows[1:]} == {"Hélène", "HastyBot"}


def test_a_separator_for_a_json_export_is_refused() -> None:
    result = run("export", str(CORPUS / "gcg/macondo__doug_v_emely.gcg"), "--format", "json",
                 "--separator", ";")
    assert result.exit_code == 2
    assert "--separator is for CSV; JSON has no separator to choose" in result.output


def test_an_export_to_a_tsv_file_is_separated_by_tabs(tmp_path) -> None:
    """A file named ``.tsv`` holds tab-separated values: a spreadsheet opening
    ``moves.tsv`` splits it at tabs, so commas would leave every row in one cell."""
    record = str(CORPUS / "gcg/macondo__doug_v_emely.gcg")
    out = tmp_path / "moves.tsv"
    assert run("export", "-o", str(out), record).exit_code == 0
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"), newline=""),
                           delimiter="\t"))
    assert rows[0] == list(COLUMNS) and all(len(row) == len(COLUMNS) for row in rows)
    asked = tmp_path / "commas.tab"
    assert run("export", "--separator", ",", "-o", str(asked), record).exit_code == 0
    assert asked.read_text(encoding="utf-8").startswith(",".join(COLUMNS) + "\n")

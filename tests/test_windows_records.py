"""Records and settings as Windows machines save them: what a director copies from a
Windows laptop or a synced folder is read as meant, and nothing is published or lost
without a word.

Upper-case extensions in ``games:`` patterns, the Recycle Bin, Office's lock files,
Notepad's ``event.yaml.txt``, DOS's Ctrl-Z at a file's end, backslashes and case slips
in ``css`` and ``theme_dir``, a ``.cgp`` saved as "ANSI", a record without an extension
or with a mistyped one, and a name with square brackets in ``games:``.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import make_event, text_of

from pgm.cli import main
from pgm.discover import guess_round, guess_table

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
OTHER = (CORPUS / "gcg/liwords__r20_peter.gcg").read_bytes()
EMPTY_BOARD = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def built(tmp_path, files: dict[str, str | bytes], *options: str):
    """Build an event of ``files``: the result and the index's text."""
    event = make_event(tmp_path / "ev", files)
    result = run("build", str(event), "-o", str(tmp_path / "site"), *options)
    index = tmp_path / "site" / "index.html"
    return result, text_of(index.read_text("utf-8")) if index.exists() else ""


def test_a_draft_pattern_covers_an_upper_case_extension(tmp_path) -> None:
    result, index = built(tmp_path, {
        "event.yaml": 'games:\n  "Round 1/*.gcg": {draft: true}\n',
        "Round 1/Table 1.gcg": RECORD, "Round 1/Table 2.GCG": OTHER,
        "Round 2/Table 1.gcg": OTHER})
    assert result.exit_code == 0, result.output
    assert "Round 2" in index or "round 2" in index.lower()
    assert not (tmp_path / "site/round-1").exists()
    assert "Table 2" not in index


def test_a_games_key_names_a_file_with_square_brackets(tmp_path) -> None:
    result, index = built(tmp_path, {
        "event.yaml": "games:\n  'Round 1\\Table 6 [final].gcg': {title: The final}\n",
        "Round 1/Table 6 [final].gcg": RECORD})
    assert "matches no record" not in result.output
    assert "The final" in index


def test_the_recycle_bin_and_office_lock_files_are_passed_over_in_silence(tmp_path) -> None:
    result, index = built(tmp_path, {
        "r1/t1.gcg": RECORD,
        "$RECYCLE.BIN/S-1-5-21-1001/$RZ1X2Y3.gcg": OTHER,
        "$RECYCLE.BIN/S-1-5-21-1001/$IZ1X2Y3.gcg": b"\x02" + b"\0" * 47,
        "System Volume Information/t9.gcg": OTHER,
        "r1/~$t1.GCG": b"\x05Admin" + b"\0" * 150,
    })
    assert result.exit_code == 0, result.output
    assert "Built 1 record, " in result.output
    assert ": 0 error(s), 0 warning(s)." in result.output
    assert "RECYCLE" not in index and "~$" not in index


def test_event_yaml_saved_as_txt_is_warned_of(tmp_path) -> None:
    result, index = built(tmp_path, {"event.yaml.txt": "title: Club Open\r\n",
                                     "r1/t1.gcg": RECORD}, "--strict")
    assert result.exit_code == 1
    assert ("ev/event.yaml.txt: warning: not read: pgm reads an event's configuration "
            "from a file named event.yaml; rename it to event.yaml") in result.output


def test_a_ctrl_z_after_the_last_line_is_no_error(tmp_path) -> None:
    clean, _ = built(tmp_path / "a", {"r1/t1.gcg": RECORD.replace(b"\n", b"\r\n")})
    marked, index = built(tmp_path / "b", {"r1/t1.gcg": RECORD.replace(b"\n", b"\r\n")
                                           + b"\x1a"})
    assert marked.exit_code == 0, marked.output
    assert ": 0 error(s), 0 warning(s)." in marked.output
    assert (tmp_path / "b/site/r1/t1/input.gcg").read_bytes().endswith(b"\x1a")
    first = (tmp_path / "a/site/r1/t1/index.html").read_text("utf-8")
    assert (tmp_path / "b/site/r1/t1/index.html").read_text("utf-8") == first


def test_a_cgp_saved_as_ansi_reads_its_accents(tmp_path) -> None:
    position = f"{EMPTY_BOARD} AEÑORST/ 0/0 0 lex FILE2017;"
    path = tmp_path / "p.cgp"
    path.write_bytes(f"# “Puzzle” for José\r\n{position}\r\n".encode("cp1252") + b"\x1a")
    result = run("check", str(path))
    assert result.exit_code == 0, result.output
    assert "p.cgp:1: warning: not UTF-8, which a CGP file is: read as Windows-1252" \
        in result.output
    built_result, _ = built(tmp_path, {"p.cgp": path.read_bytes()})
    page = (tmp_path / "site/p/1.html").read_text("utf-8")
    assert "“Puzzle” for José" in page
    assert "\ufffd" not in page


@pytest.mark.parametrize(("name", "said"), [
    ("Table 4", "a GCG record named without an extension; rename it to Table 4.gcg"),
    ("t7.gc", "a GCG record named .gc; rename it to t7.gcg"),
    ("t8.gcgg", "a GCG record named .gcgg; rename it to t8.gcg"),
    ("t9.cgg", "a GCG record named .cgg; rename it to t9.gcg"),
])
def test_a_record_without_its_extension_is_warned_of(tmp_path, name, said) -> None:
    result, _ = built(tmp_path, {"r1/t1.gcg": RECORD, f"r1/{name}": OTHER,
                                 "r1/README": "Results are on the club's board.\n",
                                 "r1/poster.pdf": b"%PDF-1.4 #player1 x"})
    assert f"ev/r1/{name}: warning: skipped: {said} to show it" in result.output
    assert "README" not in result.output and "poster" not in result.output


def test_check_of_a_txt_record_says_what_build_says(tmp_path) -> None:
    make_event(tmp_path / "ev", {"r1/b.GCG.txt": OTHER})
    result = run("check", str(tmp_path / "ev/r1/b.GCG.txt"))
    assert result.exit_code == 1
    assert "skipped: named .GCG.txt; rename it to b.GCG to show it" in result.output
    assert "unknown record type" not in result.output


@pytest.mark.parametrize(("yaml", "said"), [
    ("css: styles\\club.css\n", None),
    ("theme_dir: themes\\club\n", None),
    ("css: Styles/Club.css\n", "key 'css': file Styles/Club.css does not exist, did you "
                               "mean styles/club.css?"),
    ("theme_dir: Themes/Club\n", "key 'theme_dir': folder Themes/Club does not exist, "
                                 "did you mean themes/club?"),
])
def test_paths_in_event_yaml_as_windows_writes_them(tmp_path, yaml, said) -> None:
    result, _ = built(tmp_path, {"event.yaml": yaml, "r1/t1.gcg": RECORD,
                                 "styles/club.css": "body { color: navy }\n",
                                 "themes/club/static/club.css": "main { margin: 0 }\n"})
    if said is None:
        assert result.exit_code == 0, result.output
        assert "event.yaml" not in result.output
    else:
        assert result.exit_code == 1
        assert said in result.output
    if yaml.startswith("css") and said is None:
        assert "styles/club.css" in (tmp_path / "site/r1/t1/1.html").read_text("utf-8")


def test_round_and_table_names_with_abbreviations_and_number_signs() -> None:
    assert guess_round("Rnd 3/Table #7 (Ann v Bob).gcg") == "3"
    assert guess_table("Rnd 3/Table #7 (Ann v Bob).gcg") == "7"
    assert guess_round("Round #4/t1.gcg") == "4"
    assert guess_round("3rd-4th place.gcg") is None

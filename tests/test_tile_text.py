"""Multi-character tiles in the text people read: a Spanish [CH], [LL] or [RR] and the
Catalan [L·L], [NY] and [QU] are shown in brackets wherever tiles become text (the move
in words, the page title, the turn list, the score sheet, racks, unseen tiles), as GCG
and CGP write them, so that [CH] is not read as C and H and a seven-tile play does not
look like eight. The board keeps one tile a square, and the exports keep the tiles as
the record writes them."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from conftest import gcg_bytes
from sitehelpers import board_squares, make_event, run_build, text_of

from pgm.tiles import TileCodec, get_distribution, tile_text

SPANISH = gcg_bytes("""
    #lexicon FILE2017
    #player1 ana Ana
    #player2 beto Beto
    >ana: [CH]E[RR]OAS 8H [CH]E[RR]O +30 30
    >beto: ?AEI[LL]OU K7 [ch]. +1 1
    >ana: ASEEINT -SE +0 30
    >beto: AEI[LL]OUS -|[LL]|E +0 1
""")

CATALAN = """\
#lexicon DISC2
#player1 a Anna
#player2 b Berta
>a: AL·LA[QU]IS 8G A[L·L]A +24 24
>b: ?ENYOSR 7H [l·l]E +15 15
>a: IQUSTRE -[QU] +0 24
"""


def build(tmp_path: Path, files: dict[str, bytes]) -> Path:
    out = tmp_path / "site"
    result = run_build(str(make_event(tmp_path / "ev", files)), "-o", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    return out


def section(html: str, pattern: str) -> str:
    """The text of the first element whose start tag matches ``pattern``."""
    match = re.search(pattern + r".*?</(p|table|ol|title)>", html, re.S)
    assert match, pattern
    return text_of(match.group(0)).strip()


@pytest.fixture(scope="module")
def spanish_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("es"), {"es.gcg": SPANISH})


def page(site: Path, name: str) -> str:
    return (site / name).read_text(encoding="utf-8")


def test_tile_text_brackets_each_multi_character_tile() -> None:
    assert tile_text(("CH", "E", "RR", "O")) == "[CH]E[RR]O"
    assert tile_text(["ch", "O"]) == "[ch]O"
    assert tile_text(("A", "L·L", "A")) == "A[L·L]A"
    assert tile_text(("?", "A", "_", "Ñ")) == "?A_Ñ"
    assert tile_text(()) == ""


def test_tile_text_reads_back_to_the_same_tiles() -> None:
    for name, labels in (("spanish", ["CH", "E", "RR", "O", "C", "H", "ll"]),
                         ("catalan", ["A", "L·L", "l·l", "NY", "N", "QU", "Ç"])):
        codec = TileCodec(get_distribution(name))
        assert codec.split(tile_text(labels)) == labels


def test_a_spanish_play_reads_with_its_brackets(spanish_site: Path) -> None:
    html = page(spanish_site, "es/1.html")
    move = "Ana played [CH]E[RR]O at 8H across for 30 points"
    assert section(html, r'<p class="move-text"') == move
    assert section(html, r"<title>").startswith(f"Turn 1: {move} ")
    assert "1 [CH]E[RR]O +30" in section(html, r'<nav class="turn-list"')
    # the board stays one tile a square
    squares = board_squares(html)
    assert squares["H8"].startswith("H8, CH, 5 points")
    assert squares["J8"].startswith("J8, RR, 8 points")


def test_a_blank_multi_character_tile_is_lower_case_in_brackets(spanish_site: Path) -> None:
    html = page(spanish_site, "es/2.html")
    assert section(html, r'<p class="move-text"') == \
        "Beto played [ch](O) at K7 down for 1 point"
    assert board_squares(html)["K7"].startswith("K7, blank as CH, 0 points")


def test_racks_and_unseen_tiles_show_the_brackets(spanish_site: Path) -> None:
    html = page(spanish_site, "es/2.html")
    scores = section(html, r'<table class="score-table"')
    assert "Beto 1 (-29) AEI[LL]OUS" in scores
    unseen = section(html, r'<p class="unseen-tiles"')
    assert " L × 4 [LL] M × 2 " in f" {unseen} "
    assert section(page(spanish_site, "es/1.html"), r'<table class="score-table"').endswith(
        "?AEI[LL]OU")


def test_tiles_written_with_bars_are_shown_as_tiles(spanish_site: Path) -> None:
    html = page(spanish_site, "es/4.html")
    assert section(html, r'<p class="move-text"') == "Beto exchanged 2 tiles ([LL]E)"
    assert "4 exch. [LL]E +0" in section(html, r'<nav class="turn-list"')


def test_the_score_sheet_shows_the_brackets(spanish_site: Path) -> None:
    sheet = section(page(spanish_site, "es/index.html"), r'<table class="sheet"')
    assert "1 Ana [CH]E[RR]OAS 8H [CH]E[RR]O +30 30" in sheet
    assert "2 Beto ?AEI[LL]OU K7 [ch](O) +1 1" in sheet
    assert "4 Beto AEI[LL]OUS exch. [LL]E +0 1" in sheet


def test_the_exports_keep_the_tiles_as_written(spanish_site: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(page(spanish_site, "es/moves.csv"))))
    assert [(r["rack"], r["word"]) for r in rows] == [
        ("[CH]E[RR]OAS", "[CH]E[RR]O"), ("?AEI[LL]OU", "[ch]."), ("ASEEINT", "SE"),
        ("AEI[LL]OUS", "|[LL]|E")]
    events = json.loads(page(spanish_site, "es/game.json"))["events"]
    assert [e["word"] for e in events[:2]] == ["[CH]E[RR]O", "[ch]."]
    assert "7[CH]E[RR]O4" in events[0]["cgp"]
    codec = TileCodec(get_distribution("spanish"))
    assert codec.split(rows[0]["word"]) == ["CH", "E", "RR", "O"]


def test_words_formed_and_the_rack_played_from_show_the_brackets(spanish_site: Path
                                                                 ) -> None:
    html = page(spanish_site, "es/1.html")
    assert "Rack: [CH]E[RR]OAS" in text_of(html)
    assert "Words: [CH]E[RR]O" in text_of(html)
    events = json.loads(page(spanish_site, "es/game.json"))["events"]
    assert events[0]["words_formed"] == ["[CH]E[RR]O"]


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
def test_catalan_tiles_in_either_encoding(tmp_path: Path, encoding: str) -> None:
    header = "#character-encoding UTF-8\n" if encoding == "utf-8" else ""
    site = build(tmp_path, {"ca.gcg": (header + CATALAN).encode(encoding)})
    first = page(site, "ca/1.html")
    assert section(first, r'<p class="move-text"') == \
        "Anna played A[L·L]A at 8G across for 24 points"
    assert board_squares(first)["H8"].startswith("H8, L·L, 10 points")
    assert section(first, r'<table class="score-table"').endswith("?E[NY]OSR + 1 unknown")
    second = page(site, "ca/2.html")
    assert section(second, r'<p class="move-text"') == \
        "Berta played [l·l]E at 7H across for 15 points"
    third = page(site, "ca/3.html")
    assert section(third, r'<p class="move-text"') == "Anna exchanged 1 tile ([QU])"
    sheet = section(page(site, "ca/index.html"), r'<table class="sheet"')
    assert "1 Anna A[L·L]A[QU]IS 8G A[L·L]A +24 24" in sheet
    rows = list(csv.DictReader(io.StringIO(page(site, "ca/moves.csv"))))
    assert [(r["rack"], r["word"]) for r in rows] == [
        ("AL·LA[QU]IS", "A[L·L]A"), ("?ENYOSR", "[l·l]E"), ("IQUSTRE", "[QU]")]

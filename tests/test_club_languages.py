"""A French or Polish club's event as its director lays it out: rounds and tables named
in the club's language (``ronde-1``, ``runda-2/stół-1.gcg``), folders and players with
accented names, which sort as a reader of the language expects and make plain web
addresses (``Łódź`` → ``lodz``)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner
from conftest import CORPUS
from sitehelpers import make_event, run_build, text_of

from pgm.cli import main
from pgm.discover import guess_round, guess_table, slugify

FRENCH = (CORPUS / "gcg/web_app_warriors__GetGCG.FRA24.TfnqTZkYPL.gcg").read_bytes()
ENGLISH = (CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes()
OTHERS = [(CORPUS / f"gcg/{name}.gcg").read_bytes() for name in (
    "MAGPIE-DATA__success", "MAGPIE-DATA__muzaks_empyrean", "liwords__josh_nationals_round_11")]


def with_players(record: bytes, first: str, second: str) -> bytes:
    """The record with its players' full names replaced (nicknames kept)."""
    text = record.decode("utf-8")
    text = re.sub(r"(?m)^(#player1 \S+) .*$", lambda m: f"{m.group(1)} {first}", text)
    text = re.sub(r"(?m)^(#player2 \S+) .*$", lambda m: f"{m.group(1)} {second}", text)
    return text.encode("utf-8")


def test_rounds_and_tables_named_in_french_and_polish_are_read(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {
        "Élite/ronde-1/table-1.gcg": FRENCH,
        "Élite/ronde-2/table-1.gcg": OTHERS[0],
        "Polska/runda-1/stol-1.gcg": OTHERS[1],
        "Polska/runda-2/stół-1.gcg": OTHERS[2],
    })
    site = tmp_path / "site"
    result = run_build(str(event), "-o", str(site), "--strict")
    # two rounds at table 1 are no clash: --strict passes
    assert result.exit_code == 0, result.output
    index = text_of((site / "index.html").read_text(encoding="utf-8"))
    assert re.search(r"Élite.*Round 1.*Round 2.*Polska.*Round 1.*Round 2", index, re.S)
    game = text_of((site / "polska/runda-2/stol-1/index.html").read_text(encoding="utf-8"))
    assert "Polska · Round 2 · Table 1" in game


def test_foreign_round_words_take_a_round_number_not_a_year() -> None:
    assert guess_round("Open/Runde 3/Tisch 4.gcg") == "3"
    assert guess_table("Open/Runde 3/Tisch 4.gcg") == "4"
    assert guess_round("tour-3/mesa-5.gcg") == "3"
    assert guess_table("tour-3/mesa-5.gcg") == "5"
    assert guess_round("Català/ronda-2/taula-1.gcg") == "2"
    assert [guess_table(name) for name in ("ronda-2/taula-1.gcg", "Taula 2.gcg",
                                            "r5-taula-4.gcg")] == ["1", "2", "4"]
    assert guess_round("Tour 2024/t3.gcg") is None
    assert guess_round("tournament/x.gcg") is None


def test_web_addresses_keep_letters_that_have_no_accent_free_form(tmp_path) -> None:
    assert [slugify(name) for name in ("Łódź", "Żółw", "Cœur de Lion", "Straße", "Ærø")] \
        == ["lodz", "zolw", "coeur-de-lion", "strasse", "aero"]
    event = make_event(tmp_path / "ev", {"Łódź/Żółw.gcg": ENGLISH})
    site = tmp_path / "site"
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    assert (site / "lodz/zolw/index.html").is_file()


def test_players_and_divisions_sort_without_regard_to_accents(tmp_path) -> None:
    """By name (spoiler-free): Élodie between Eliane and Eric, Łukasz among the L's,
    Zoé last; divisions by folder: Élite before Open."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "spoiler_free: true\n",
        "Open/r1/t1.gcg": with_players(ENGLISH, "Zoé Château", "Élodie Martin"),
        "Open/r1/t2.gcg": with_players(FRENCH, "Eric Blanc", "Łukasz Wójcik"),
        "Open/r1/t3.gcg": with_players(OTHERS[0], "Eliane Roux", "Louis Petit"),
        "Élite/r1/t1.gcg": with_players(OTHERS[1], "Hélène Dubois", "Gaëlle Simon"),
    })
    site = tmp_path / "site"
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    page = (site / "players.html").read_text(encoding="utf-8")
    headings = re.findall(r'<h2 id="players-\d+">([^<]*)</h2>|<th scope="row">(\w+)', page)
    assert ["".join(found) for found in headings] == [
        "Élite", "Gaëlle", "Hélène", "Open", "Eliane", "Élodie", "Eric", "Louis", "Łukasz", "Zoé"]


def test_numbered_folders_pgm_cannot_read_as_rounds_get_the_round_advice(tmp_path) -> None:
    """``etap-1`` and ``etap-2`` (stages) list two games at one table: the advice is to
    set the round, not a division per folder, which would split the standings."""
    event = make_event(tmp_path / "ev", {
        "Open/etap-1/table-1.gcg": ENGLISH,
        "Open/etap-2/table-1.gcg": FRENCH,
    })
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    warnings = [line for line in result.output.splitlines() if ": warning: " in line]
    assert len(warnings) == 2, result.output
    assert "if 'etap-1' is a round, set round: 1 in its event.yaml (and so for the " \
           "others); otherwise set division_folders: 2 in the event's event.yaml, to name " \
           "each division by its first 2 folders (\"Open / etap-1\"), or set division: in " \
           "each folder's event.yaml" in warnings[0]


def without_tile_set(record: bytes, lexicon: str | None = None) -> bytes:
    """The record with no ``#tile-distribution``, and its ``#lexicon`` gone or renamed."""
    lines = [line for line in record.splitlines(keepends=True)
             if not line.startswith((b"#tile-distribution", b"#lexicon"))]
    if lexicon:
        lines.insert(1, f"#lexicon {lexicon}\n".encode())
    return b"".join(lines)


def check_output(path) -> list[str]:
    result = CliRunner().invoke(main, ["check", str(path)])
    return result.stdout.splitlines()


def test_a_french_game_naming_no_tile_set_is_counted_in_french(tmp_path) -> None:
    """Its letters are all English ones, but its thirteen E's are not (English has
    twelve): the French set fits and is used, with a warning saying why, and none of the
    forty score and tile-count warnings an English replay gave."""
    game = tmp_path / "partie.gcg"
    game.write_bytes(without_tile_set(FRENCH))
    assert check_output(game) == [
        f"{game}:7: warning: no #lexicon or #tile-distribution; the plays put down 13 E, "
        "more than the english set holds; the letters fit the french set, which is used "
        "(set 'distribution' in event.yaml to choose)"]
    game.write_bytes(without_tile_set(FRENCH, "FISF"))
    assert [line.split(": ", 2)[2] for line in check_output(game)] == [
        "lexicon 'FISF' does not name a tile set; the plays put down 13 E, more than the "
        "english set holds; the letters fit the french set, which is used (set "
        "'distribution' in event.yaml to choose)"]


def test_the_events_lexicon_names_the_set_when_the_records_is_unknown(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"event.yaml": "lexicon: FRA20\n",
                                         "partie.gcg": without_tile_set(FRENCH, "FISF")})
    assert check_output(event) == []


def test_a_super_board_game_is_counted_against_the_super_set(tmp_path) -> None:
    """Fifteen E's are more than the 15x15 English set holds, not the 21x21 one's 24."""
    game = tmp_path / "super.gcg"
    game.write_text("#board-layout SuperCrosswordGame\n#player1 a Ann\n#player2 b Bob\n"
                    ">a: GEESEAB 11K GEESE +14 14\n>b: EERIEAB 12K EERIE +18 18\n"
                    ">a: TEPEEAB 13K TEPEE +37 51\n>b: EERIEAB 14K EERIE +10 28\n"
                    ">a: GEESEAB 15K GEESE +10 61\n")
    result = CliRunner().invoke(main, ["check", "--json", str(game)])
    [report] = json.loads(result.stdout)
    assert report["distribution"] == "english_super"
    assert not [d for d in report["diagnostics"] if "tile set" in d["message"]]


def test_year_folders_get_no_round_advice(tmp_path) -> None:
    """Two years' folders (``2023``, ``2024``) are two events, not rounds 2023 and 2024:
    the warning gives the division advice alone."""
    event = make_event(tmp_path / "ev", {"Open/2023/table-1.gcg": ENGLISH,
                                         "Open/2024/table-1.gcg": FRENCH})
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    warnings = [line for line in result.output.splitlines() if ": warning: " in line]
    assert len(warnings) == 2 and not [w for w in warnings if "is a round" in w]
    assert "set division: in each folder's event.yaml" in warnings[0]

"""The tiles of exchanges and end-of-game rack lines reach ``pgm check --json`` (``tiles``,
``exchange_count``) and the ``word`` column of ``pgm export`` and the site's moves.csv,
as the record writes them, an exchange's without its sign (``LLNVVW``, ``4``,
``(OPEG)``)."""

from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner
from conftest import CORPUS, SAMPLE_GAMES, gcg_bytes
from sitehelpers import make_event, run_build

from pgm.cli import main

EXCHANGE = CORPUS / "gcg/MAGPIE-DATA__exchange_with_seven_in_bag.gcg"
END_POINTS = CORPUS / "gcg/macondo__doug_v_emely.gcg"
END_PENALTY = CORPUS / "gcg/liwords__combined_low_scoring.gcg"

KINDS = gcg_bytes("""
    #player1 a Ann
    #player2 b Bob
    >a: ZAEINRS 8G ZA +22 22
    >b: QIABCDE 9F QI +11 11
    >b: ABCDE (challenge) +5 16
    >a: EINRSTV -4 +0 22
    >b: ABCDEFG -AB_ +0 16
    >a: EINRSTV -[CH]|V +0 22
    >b: ABCDEFG - +0 16
    >a: EINRSTV 10E VEIN +14 36
    >a: EINRSTV -- -14 22
    >a: EINRSTV (time) -10 12
    >b: ABCDEFG (ABCDEFG) -16 0
""")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def export_json(path) -> list[dict]:
    return json.loads(run("export", "--format", "json", str(path)).stdout)


def check_json(path) -> dict:
    [report] = json.loads(run("check", "--json", str(path)).stdout)
    return report


def test_an_exchange_exports_its_tiles_without_the_sign() -> None:
    [row] = [r for r in export_json(EXCHANGE) if r["kind"] == "exchange"]
    assert (row["turn"], row["player"], row["rack"], row["position"], row["word"],
            row["score"], row["cumulative"]) == (19, "Josh", "DLLNVVW", None, "LLNVVW", 0, 331)
    lines = run("export", str(EXCHANGE)).stdout.splitlines()
    assert f"{EXCHANGE},19,Josh,DLLNVVW,,LLNVVW,0,331,exchange," in lines


def test_end_of_game_rack_lines_export_the_tiles_in_parentheses() -> None:
    last = export_json(END_POINTS)[-1]
    assert (last["player"], last["rack"], last["word"], last["score"], last["kind"]) == (
        "emely", None, "(OPEG)", 14, "end_rack_points")
    penalties = [r for r in export_json(END_PENALTY) if r["kind"] == "end_rack_penalty"]
    assert [(r["rack"], r["word"], r["score"]) for r in penalties] == [
        ("?AEEOTT", "(?AEEOTT)", -6), ("EIOQRRT", "(EIOQRRT)", -16)]


def test_check_json_names_the_tiles_with_their_own_keys() -> None:
    exchange = next(e for e in check_json(EXCHANGE)["events"] if e["kind"] == "exchange")
    assert (exchange["rack"], exchange["position"], exchange["word"], exchange["tiles"],
            exchange["exchange_count"]) == ("DLLNVVW", None, None, "LLNVVW", None)
    last = check_json(END_POINTS)["events"][-1]
    assert (last["rack"], last["word"], last["tiles"], last["exchange_count"]) == (
        None, None, "OPEG", None)
    play = check_json(END_POINTS)["events"][0]
    assert (play["word"], play["tiles"], play["exchange_count"]) == ("WINDY", None, None)


def test_every_kind_of_event_in_check_json_and_export(tmp_path) -> None:
    path = tmp_path / "kinds.gcg"
    path.write_bytes(KINDS)
    report = check_json(path)
    assert [(e["kind"], e["word"], e["tiles"], e["exchange_count"])
            for e in report["events"]] == [
        ("play", "ZA", None, None),
        ("play", "QI", None, None),
        ("challenge_bonus", None, None, None),
        ("exchange", None, None, 4),
        ("exchange", None, "AB_", None),
        ("exchange", None, "[CH]|V", None),
        ("pass", None, None, None),
        ("play", "VEIN", None, None),
        ("withdrawal", None, None, None),
        ("time_penalty", None, None, None),
        ("end_rack_penalty", None, "ABCDEFG", None),
    ]
    assert [(r["kind"], r["rack"], r["position"], r["word"]) for r in export_json(path)] == [
        ("play", "ZAEINRS", "8G", "ZA"),
        ("play", "QIABCDE", "9F", "QI"),
        ("challenge_bonus", "ABCDE", None, None),
        ("exchange", "EINRSTV", None, "4"),
        ("exchange", "ABCDEFG", None, "AB_"),
        ("exchange", "EINRSTV", None, "[CH]|V"),
        ("pass", "ABCDEFG", None, None),
        ("play", "EINRSTV", "10E", "VEIN"),
        ("withdrawal", "EINRSTV", None, None),
        ("time_penalty", "EINRSTV", None, None),
        ("end_rack_penalty", "ABCDEFG", None, "(ABCDEFG)"),
    ]


def test_upwords_exchanges_export_their_tiles_too() -> None:
    path = SAMPLE_GAMES / "upwords/upwords-sample.gcg"
    report = check_json(path)
    rows = export_json(path)
    exchanges = [(e, r) for e, r in zip(report["events"], rows, strict=True)
                 if e["kind"] == "exchange"]
    assert exchanges
    for event, row in exchanges:
        assert event["tiles"] or event["exchange_count"]
        written = event["tiles"] if event["tiles"] is not None else event["exchange_count"]
        assert row["word"] == str(written)


def test_the_sites_moves_csv_holds_the_tiles(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"x.gcg": EXCHANGE.read_bytes(),
                                         "e.gcg": END_POINTS.read_bytes()})
    out = tmp_path / "site"
    assert run_build(str(event), "-o", str(out), "--quiet").exit_code == 0
    game = list(csv.DictReader(io.StringIO((out / "x/moves.csv").read_text(encoding="utf-8"))))
    assert [r["word"] for r in game if r["kind"] == "exchange"] == ["LLNVVW"]
    every = list(csv.DictReader(io.StringIO((out / "moves.csv").read_text(encoding="utf-8"))))
    assert [r["word"] for r in every if r["kind"] == "end_rack_points"] == ["(OPEG)"]
    events = json.loads((out / "x/game.json").read_text(encoding="utf-8"))["events"]
    assert [e["tiles"] for e in events if e["kind"] == "exchange"] == ["LLNVVW"]


def test_readme_shows_every_key_of_a_crossword_event() -> None:
    readme = (SAMPLE_GAMES.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Checking records"):]
    block = section[section.index("```json") + len("```json"):]
    example = json.loads(block[:block.index("```")])
    assert set(example) == set(check_json(EXCHANGE))
    assert list(example["events"][0]) == list(check_json(EXCHANGE)["events"][0])

"""``moves.csv`` in the site: per game the rows ``pgm export`` writes for that record, and
one file for the whole event made of every game's rows, also after an incremental
rebuild that replayed only the game that changed."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner
from conftest import CORPUS, SAMPLE_GAMES
from sitehelpers import make_event

from pgm.build import BuildOptions, build
from pgm.cli import main

HEADER = "game,turn,player,rack,position,word,score,cumulative,kind,notation\n"


def export_in(folder, monkeypatch: pytest.MonkeyPatch, *names: str) -> str:
    """``pgm export NAMES`` run in ``folder``, so the game column holds the paths below it,
    as the site writes them."""
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["export", *names])
    assert result.exception is None, result.output
    return result.stdout


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """The sample event copied (so that a build can be run in it) and built."""
    root = tmp_path_factory.mktemp("moves")
    event = root / "ev"
    shutil.copytree(SAMPLE_GAMES, event)
    result = build(BuildOptions(event, root / "site", jobs=1))
    assert not result.errors
    return event, root / "site"


@pytest.mark.parametrize("record", ["round-2/table-2.gcg", "round-3/table-2.gcg",
                                    "exhibition/french-game.gcg",
                                    "exhibition/gungi-sample.gn",
                                    "upwords/upwords-sample.gcg"])
def test_each_game_offers_the_rows_pgm_export_writes(sample, monkeypatch, record: str) -> None:
    event, site = sample
    slug = record.rsplit(".", 1)[0]
    written = (site / slug / "moves.csv").read_text(encoding="utf-8")
    assert written == export_in(event, monkeypatch, record)
    assert written.startswith(HEADER) and written.count("\n") > 10


def test_the_event_file_holds_every_games_rows(sample, monkeypatch) -> None:
    event, site = sample
    whole = (site / "moves.csv").read_text(encoding="utf-8")
    assert whole == export_in(event, monkeypatch, ".")
    assert whole.count(HEADER) == 1
    games = {line.split(",", 1)[0] for line in whole.splitlines()[1:]}
    assert len(games) == 9 and "upwords/upwords-sample.gcg" in games
    parts = [p.read_text(encoding="utf-8")[len(HEADER):]
             for p in sorted(site.rglob("moves.csv")) if p.parent != site]
    assert sorted(whole[len(HEADER):].splitlines()) == sorted(
        line for part in parts for line in part.splitlines())


GAMES = {"r1/a.gcg": CORPUS / "gcg/macondo__vs_andy.gcg",
         "r1/b.gcg": CORPUS / "gcg/macondo__noah_vs_peter.gcg",
         "r2/c.gn": CORPUS / "gn/authored__1_commander_capture.gn"}


def test_an_incremental_rebuild_keeps_every_games_rows(tmp_path, monkeypatch) -> None:
    event = make_event(tmp_path / "ev", {name: path.read_bytes() for name, path in GAMES.items()})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    before = (out / "moves.csv").read_text(encoding="utf-8")
    # The first game loses its last event: only it is replayed again.
    record = event / "r1/a.gcg"
    lines = record.read_bytes().rstrip(b"\n").split(b"\n")
    last = max(i for i, line in enumerate(lines) if line.startswith(b">"))
    record.write_bytes(b"\n".join(lines[:last] + lines[last + 1:]) + b"\n")
    result = build(BuildOptions(event, out, jobs=1))
    assert result.rendered_games == 1
    after = (out / "moves.csv").read_text(encoding="utf-8")
    assert after == export_in(event, monkeypatch, "r1/a.gcg", "r1/b.gcg", "r2/c.gn")
    assert after.count("\n") == before.count("\n") - 1
    for game in ("r1/b.gcg", "r2/c.gn"):
        rows = [line for line in after.splitlines() if line.startswith(game + ",")]
        assert rows and rows == [line for line in before.splitlines()
                                 if line.startswith(game + ",")]
    # A removed game takes its rows with it; a draft game has none; an unchanged event
    # writes nothing.
    (event / "r1/b.gcg").unlink()
    (event / "r2/event.yaml").write_text("draft: true\n")
    build(BuildOptions(event, out, jobs=1))
    assert (out / "moves.csv").read_text(encoding="utf-8") == export_in(event, monkeypatch,
                                                                        "r1/a.gcg")
    assert build(BuildOptions(event, out, jobs=1)).files_written == 0


def _drop_last_event(record) -> None:
    lines = record.read_bytes().rstrip(b"\n").split(b"\n")
    last = max(i for i, line in enumerate(lines) if line.startswith(b">"))
    record.write_bytes(b"\n".join(lines[:last] + lines[last + 1:]) + b"\n")


def test_a_rebuild_copies_unchanged_games_rows_from_the_previous_event_file(
        tmp_path, monkeypatch) -> None:
    event = make_event(tmp_path / "ev", {name: path.read_bytes() for name, path in GAMES.items()})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    # Rows of the unchanged game b are taken from the event file, not its own folder.
    (out / "r1/b/moves.csv").write_text(HEADER + "r1/b.gcg,not,read\n", encoding="utf-8")
    _drop_last_event(event / "r1/a.gcg")
    build(BuildOptions(event, out, jobs=1))
    after = (out / "moves.csv").read_text(encoding="utf-8")
    assert "not,read" not in after
    assert after == export_in(event, monkeypatch, "r1/a.gcg", "r1/b.gcg", "r2/c.gn")


def test_an_event_file_changed_by_hand_is_joined_again_from_the_game_folders(
        tmp_path, monkeypatch) -> None:
    event = make_event(tmp_path / "ev", {name: path.read_bytes() for name, path in GAMES.items()})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    with open(out / "moves.csv", "a", encoding="utf-8") as handle:
        handle.write("a row someone added\n")
    _drop_last_event(event / "r1/a.gcg")
    build(BuildOptions(event, out, jobs=1))
    assert (out / "moves.csv").read_text(encoding="utf-8") == export_in(
        event, monkeypatch, "r1/a.gcg", "r1/b.gcg", "r2/c.gn")


def test_a_rebuild_that_changes_no_row_leaves_the_event_file_alone(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {name: path.read_bytes() for name, path in GAMES.items()})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    before = (out / "moves.csv").stat()
    record = event / "r1/b.gcg"
    record.write_bytes(record.read_bytes() + b"#note only a note\n")
    assert build(BuildOptions(event, out, jobs=1)).rendered_games == 1
    after = (out / "moves.csv").stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)

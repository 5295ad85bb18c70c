"""Rebuilds redo only what changed, file by file, and never leave a torn page."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS
from sitehelpers import make_event, record_prefix, site_files, text_of

from pgm import changes
from pgm.build import BuildOptions, build
from pgm.state import RecordPrint, load_state, record_print

GAMES = ["macondo__vs_andy.gcg", "macondo__noah_vs_peter.gcg", "liwords__r2_tim.gcg"]


def _event(tmp_path):
    event = make_event(tmp_path / "ev", {f"r1/{n}": (CORPUS / "gcg" / n).read_bytes()
                                         for n in GAMES})
    return event, tmp_path / "site"


def _mtimes(out):
    return {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}


def test_unchanged_event_writes_nothing(tmp_path) -> None:
    event, out = _event(tmp_path)
    first = build(BuildOptions(event, out))
    assert first.rendered_games == 3 and first.files_written > 90
    before = _mtimes(out)
    again = build(BuildOptions(event, out))
    assert again.rendered_games == 0 and again.files_written == 0
    assert again.games == 3 and again.pages == first.pages
    assert _mtimes(out) == before


def test_one_changed_record_rewrites_its_game_and_the_indexes(tmp_path) -> None:
    event, out = _event(tmp_path)
    build(BuildOptions(event, out))
    before = _mtimes(out)
    record = event / "r1" / GAMES[0]
    record.write_bytes(record.read_bytes() + b"\n#note added later\n")
    result = build(BuildOptions(event, out))
    assert result.rendered_games == 1
    changed = {p.relative_to(out).as_posix() for p, t in _mtimes(out).items()
               if before.get(p) != t}
    slug = "r1/macondo-vs-andy"
    assert f"{slug}/input.gcg" in changed and f"{slug}/game.json" in changed
    assert not [c for c in changed if c.startswith(("r1/macondo-noah", "r1/liwords"))]
    last = max(int(p.stem) for p in (out / slug).glob("[0-9]*.html"))
    assert "added later" in (out / slug / f"{last}.html").read_text()


def test_removed_record_takes_its_folder_and_index_row_away(tmp_path) -> None:
    event, out = _event(tmp_path)
    build(BuildOptions(event, out))
    (event / "r1" / GAMES[2]).unlink()
    result = build(BuildOptions(event, out))
    assert result.games == 2
    assert not (out / "r1/liwords-r2-tim").exists()
    assert "liwords-r2-tim" not in (out / "index.html").read_text()
    summary = json.loads((out / "live.json").read_text())
    assert [g["slug"] for g in summary["games"]] == ["r1/macondo-noah-vs-peter",
                                                      "r1/macondo-vs-andy"]


@pytest.mark.parametrize("lost", ["r1/macondo-vs-andy/3.html", "r1/liwords-r2-tim",
                                  "index.html", "static/pgm.css", "moves.csv"])
def test_a_file_of_the_site_deleted_by_hand_is_made_again(tmp_path, lost) -> None:
    """"Nothing changed" after a page was lost would leave spectators a broken link."""
    event, out = _event(tmp_path)
    build(BuildOptions(event, out))
    (out / "static/club-logo.png").write_bytes(b"\x89PNG")  # the user's, kept
    before = site_files(out)
    gone = out / lost
    shutil.rmtree(gone) if gone.is_dir() else gone.unlink()
    result = build(BuildOptions(event, out))
    assert result.missing is not None and result.missing.startswith(lost)
    assert site_files(out) == before
    again = build(BuildOptions(event, out))
    assert again.missing is None and again.rendered_games == 0


def test_template_or_config_change_rebuilds_everything(tmp_path) -> None:
    event, out = _event(tmp_path)
    build(BuildOptions(event, out))
    (event / "event.yaml").write_text("title: Renamed\n")
    result = build(BuildOptions(event, out))
    assert result.rendered_games == 3
    assert "<h1>Renamed</h1>" in (out / "index.html").read_text()


def test_half_written_record_keeps_the_last_good_pages_when_asked(tmp_path) -> None:
    event, out = _event(tmp_path)
    build(BuildOptions(event, out, keep_last_good=True))
    slug = "r1/macondo-vs-andy"
    good = (out / slug / "game.json").read_bytes()
    index, listed = (out / "index.html").read_bytes(), (out / "live.json").read_bytes()
    record = event / "r1" / GAMES[0]
    content = record.read_bytes()
    record.write_bytes(content[: len(content) // 2] + b" Z9 QQ")  # cut mid-line
    result = build(BuildOptions(event, out, keep_last_good=True))
    assert result.errors and result.rendered_games == 0
    assert result.broken_games == [f"r1/{GAMES[0]}"]
    assert (out / slug / "game.json").read_bytes() == good
    # spectators see the game as it was, not the half-saved line's error coming and going
    assert (out / "index.html").read_bytes() == index
    assert (out / "live.json").read_bytes() == listed
    record.write_bytes(content)  # put back as it was, as an editor's undo does
    again = build(BuildOptions(event, out, keep_last_good=True))

    def shown(data: bytes) -> dict:  # the game, less the time its record was written
        return {key: value for key, value in json.loads(data).items() if key != "updated"}

    assert shown((out / slug / "game.json").read_bytes()) == shown(good)
    assert not again.errors and not load_state(out).games[slug].entry.diagnostics


@pytest.mark.parametrize("saved", [b"", b"#player1 Andy Andy\n#player2 Cesar Cesar\n"])
def test_a_record_saved_empty_or_header_only_keeps_its_pages_while_watching(
        tmp_path, saved: bytes) -> None:
    """An editor empties a file before writing it anew: spectators on its turn pages
    stay on them, and the game comes back whole with the next save."""
    record = (CORPUS / "gcg" / GAMES[0]).read_bytes()
    event = make_event(tmp_path / "ev", {"g.gcg": record_prefix(record, 8)})
    out = tmp_path / "site"
    build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    pages = {p.name: p.read_bytes() for p in (out / "g").iterdir()}
    (event / "g.gcg").write_bytes(saved)
    build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    assert {p.name: p.read_bytes() for p in (out / "g").iterdir()} == pages
    (event / "g.gcg").write_bytes(record_prefix(record, 9))
    build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    assert (out / "g/9.html").is_file()
    assert json.loads((out / "g/game.json").read_text())["turns"] == 9


def _watched(tmp_path) -> tuple[Path, Path, Callable[[bytes], Any]]:
    """A game in progress (its first 8 moves) built as ``pgm watch`` builds it: the
    event, the site, and what saves the record and rebuilds (returning the result)."""
    event = make_event(tmp_path / "ev", {"g.gcg": record_prefix(WATCHED, 8)})
    out = tmp_path / "site"

    def save(content: bytes):
        (event / "g.gcg").write_bytes(content)
        return build(BuildOptions(event, out, keep_last_good=True, jobs=1))

    build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    return event, out, save


WATCHED = (CORPUS / "gcg" / GAMES[0]).read_bytes()
MISTYPED = record_prefix(WATCHED, 12).replace(b"O4 ORIgINS", b"P4 ORIgINS")
"""Four moves pasted at once, the second mistyped: it starts off the board."""


def test_moves_pasted_with_a_mistyped_one_are_published_up_to_it_while_watching(
        tmp_path) -> None:
    """An annotator pastes four moves at once, the second mistyped so that it cannot be
    placed: spectators get the move before it, the game stays in progress (its pages
    keep polling, the error shown on the last), and the corrected line follows."""
    _, out, save = _watched(tmp_path)
    result = save(MISTYPED)
    assert [d.severity.value for d in result.diagnostics] == ["error"]
    assert "P4" in result.diagnostics[0].message
    assert (out / "g/9.html").is_file() and not (out / "g/10.html").exists()
    game = json.loads((out / "g/game.json").read_text())
    assert game["turns"] == 9 and game["live"] is True
    assert result.diagnostics[0].message in text_of((out / "g/9.html").read_text())
    overview = text_of((out / "g/index.html").read_text())
    assert "Position where the replay stopped (line 13)" in overview
    listed = json.loads((out / "live.json").read_text())["games"]
    assert listed[0]["status"].startswith("in progress")
    save(MISTYPED + b">andy: EHT 12E THE +20 125\n")
    assert json.loads((out / "g/game.json").read_text())["live"] is True
    fixed = save(record_prefix(WATCHED, 12))
    assert not fixed.errors and (out / "g/12.html").is_file()


@pytest.mark.parametrize("reconfigured", [False, True])
def test_a_directors_build_during_live_coverage_keeps_the_game_in_progress(
        tmp_path, reconfigured: bool) -> None:
    """``pgm build`` run by hand or by a cron job (not pgm watch) while the annotator's
    line is mistyped, also one that renders everything again (event.yaml changed): the
    game stays in progress, so the spectators' pages keep following it, and the
    corrected line shows without anyone reloading."""
    event, out, save = _watched(tmp_path)
    (event / "g.gcg").write_bytes(MISTYPED)
    if reconfigured:
        (event / "event.yaml").write_text("title: Club night, table 1 live\n")
    result = build(BuildOptions(event, out, jobs=1))
    assert result.errors == 1
    game = json.loads((out / "g/game.json").read_text())
    assert game["turns"] == 9 and game["live"] is True
    assert json.loads((out / "live.json").read_text())["games"][0]["status"].startswith(
        "in progress")
    (event / "g.gcg").write_bytes(record_prefix(WATCHED, 12))
    assert not build(BuildOptions(event, out, jobs=1)).errors
    assert json.loads((out / "g/game.json").read_text())["turns"] == 12


def test_a_game_finished_with_an_error_that_stops_nothing_is_over_while_watching(
        tmp_path) -> None:
    """The record ends the game: an error that the replay goes past (a second encoding
    that is not supported) does not keep it in progress, and its pages stop polling."""
    _, out, save = _watched(tmp_path)
    result = save(b"#character-encoding ISO8859-6\n" + WATCHED)
    assert result.errors
    game = json.loads((out / "g/game.json").read_text())
    assert game["live"] is False and game["complete"] is True


def test_live_false_in_event_yaml_stops_following_a_game_with_a_mistyped_line(
        tmp_path) -> None:
    """The TD says the game is not followed: a mistyped line does not keep it so."""
    event, out, save = _watched(tmp_path)
    save(MISTYPED)
    assert json.loads((out / "g/game.json").read_text())["live"] is True
    (event / "event.yaml").write_text("games:\n  g.gcg: {live: false}\n")
    save(MISTYPED)
    assert json.loads((out / "g/game.json").read_text())["live"] is False


def test_a_half_written_record_keeps_its_last_pages_through_a_configuration_change(
        tmp_path) -> None:
    """A changed event.yaml renders every game again, into a new site: the game whose
    record is half-written right then is rendered from the copy of the record its last
    good pages were made from, and follows the record again once it is whole."""
    record = (CORPUS / "gcg" / GAMES[0]).read_bytes()
    event = make_event(tmp_path / "ev", {"g.gcg": record_prefix(record, 5)})
    out = tmp_path / "site"
    build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    good = {p.name: p.read_bytes() for p in (out / "g").iterdir()}
    (event / "g.gcg").write_bytes(record_prefix(record, 5) + b">Andy: ABC")
    (event / "event.yaml").write_text("title: Renamed\n")
    result = build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    assert result.errors and result.broken_games == ["g.gcg"]
    assert "<h1>Renamed</h1>" in (out / "index.html").read_text()
    assert "badge error" not in (out / "index.html").read_text()
    assert sorted(p.name for p in (out / "g").iterdir()) == sorted(good)
    assert (out / "g/input.gcg").read_bytes() == good["input.gcg"]
    shown = json.loads((out / "g/game.json").read_text())
    assert (shown["live"], shown["turns"], shown["diagnostics"]) == (True, 5, [])
    assert 'data-live="game.json"' in (out / "g/5.html").read_text()
    listed = json.loads((out / "live.json").read_text())["games"][0]
    assert (listed["live"], listed["turns"]) == (True, 5)
    (event / "g.gcg").write_bytes(record_prefix(record, 6))
    build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    assert json.loads((out / "g/game.json").read_text())["turns"] == 6


def test_no_temporary_files_are_left_behind(tmp_path) -> None:
    event, out = _event(tmp_path)
    build(BuildOptions(event, out))
    record = event / "r1" / GAMES[1]
    record.write_bytes(record.read_bytes() + b"\n")
    shutil.copy(event / "r1" / GAMES[0], event / "r1" / "copy.gcg")
    build(BuildOptions(event, out))
    leftovers = [p for p in out.rglob("*") if ".tmp" in p.name or "pgm-new" in p.name]
    assert leftovers == [] and os.listdir(tmp_path) == ["ev", "site"]


def _swap_moves(record, mtime_ns) -> None:
    """Rewrite ``record`` in place with the same size (two digits of a score swapped),
    and give it back its old modification time, as a fast editor or a copy tool may."""
    data = record.read_bytes()
    at = data.index(b" +") + 2
    digits = data[at:at + 2]
    record.write_bytes(data[:at] + digits[::-1] + data[at + 2:])
    assert len(record.read_bytes()) == len(data) and digits != digits[::-1]
    os.utime(record, ns=(mtime_ns, mtime_ns))


def test_a_same_size_rewrite_in_the_same_second_is_rebuilt(tmp_path) -> None:
    event, out = _event(tmp_path)
    build(BuildOptions(event, out, jobs=1))
    record = event / "r1" / GAMES[0]
    before = (out / "r1/macondo-vs-andy/game.json").read_bytes()
    _swap_moves(record, record.stat().st_mtime_ns)
    assert build(BuildOptions(event, out, jobs=1)).rendered_games == 1
    assert (out / "r1/macondo-vs-andy/game.json").read_bytes() != before


def test_a_settled_record_is_trusted_by_its_stamp_until_the_stamp_changes(
        tmp_path, monkeypatch) -> None:
    event, out = _event(tmp_path)
    # Seen from a minute later, every record has been left alone long enough.
    later = time.time_ns() + 60_000_000_000
    monkeypatch.setattr(changes.time, "time_ns", lambda: later)
    build(BuildOptions(event, out, jobs=1))
    state = load_state(out)
    assert state is not None and all(g.record.stamp for g in state.games.values())
    record = event / "r1" / GAMES[1]
    _swap_moves(record, record.stat().st_mtime_ns)  # the change time still moves on
    assert build(BuildOptions(event, out, jobs=1)).rendered_games == 1
    other = event / "r1" / GAMES[2]
    replacement = other.with_suffix(".new")
    shutil.copyfile(other, replacement)
    _swap_moves(replacement, other.stat().st_mtime_ns)
    os.replace(replacement, other)  # same size and time, another file
    assert build(BuildOptions(event, out, jobs=1)).rendered_games == 1


def test_a_record_print_is_read_only_when_its_stamp_does_not_vouch_for_it(tmp_path) -> None:
    record = tmp_path / "g.gcg"
    record.write_bytes(b"#player1 A A\n")
    now = time.time_ns()
    fresh = record_print(record, None, now)
    assert fresh.stamp is None  # just written: a second write in the same tick may follow
    settled = record_print(record, None, now + 60_000_000_000)
    assert settled.digest == fresh.digest and settled.stamp is not None
    vouched = RecordPrint("kept digest", settled.stamp)
    assert record_print(record, vouched, now) is vouched
    record.write_bytes(b"#player1 B B\n")
    assert record_print(record, vouched, now).digest not in ("kept digest", fresh.digest)


def test_a_file_with_whole_second_times_must_be_left_alone_longer(tmp_path) -> None:
    """File systems that keep whole seconds (FAT: 2 s) can give two writes a second
    apart the same times: their files are trusted by stamp only much later."""
    record = tmp_path / "g.gcg"
    record.write_bytes(b"#player1 A A\n")
    info = record.stat()
    soon = max(info.st_mtime_ns, info.st_ctime_ns) + 500_000_000
    if info.st_mtime_ns % 1_000_000 and info.st_ctime_ns % 1_000_000:
        assert record_print(record, None, soon).stamp is not None
    whole = info.st_mtime_ns // 1_000_000_000 * 1_000_000_000
    os.utime(record, ns=(whole, whole))
    assert record_print(record, None, soon).stamp is None
    assert record_print(record, None, soon + 3_000_000_000).stamp is not None


def _record_at(out, slug: str) -> bytes:
    return (out / slug / "input.gcg").read_bytes()


def test_an_added_record_never_takes_an_existing_games_address(tmp_path) -> None:
    old, new = (CORPUS / "gcg" / GAMES[0]).read_bytes(), (CORPUS / "gcg" / GAMES[1]).read_bytes()
    event = make_event(tmp_path / "ev", {"sl/table-1.gcg": old})
    out = tmp_path / "site"
    build(BuildOptions(event, out))
    assert _record_at(out, "sl/table-1") == old
    (event / "sl" / "Table 1.gcg").write_bytes(new)  # sorts before table-1.gcg
    result = build(BuildOptions(event, out))
    assert result.games == 2 and result.rendered_games == 1
    assert _record_at(out, "sl/table-1") == old
    assert _record_at(out, "sl/table-1-2") == new
    index = (out / "index.html").read_text()
    assert 'href="sl/table-1/index.html"' in index and 'href="sl/table-1-2/index.html"' in index
    # A change to event.yaml renders everything again, at the same addresses.
    (event / "event.yaml").write_text("title: Renamed\n")
    assert build(BuildOptions(event, out)).rendered_games == 2
    assert _record_at(out, "sl/table-1") == old and _record_at(out, "sl/table-1-2") == new
    # A first build of the same files numbers the names in path order, every time.
    for fresh in (tmp_path / "fresh-1", tmp_path / "fresh-2"):
        build(BuildOptions(event, fresh))
        assert _record_at(fresh, "sl/table-1") == new
        assert _record_at(fresh, "sl/table-1-2") == old


def _games(out) -> list[str]:
    return sorted(p.parent.relative_to(out).as_posix() for p in out.rglob("input.gcg"))


def test_a_folder_added_beside_a_game_of_its_name_goes_beside_it(tmp_path) -> None:
    """The new folder's games never go inside the old game's folder: its name takes a
    number instead, as a new game's would."""
    old, new = (CORPUS / "gcg" / GAMES[0]).read_bytes(), (CORPUS / "gcg" / GAMES[1]).read_bytes()
    event = make_event(tmp_path / "ev", {"static.gcg": old})
    out = tmp_path / "site"
    build(BuildOptions(event, out))
    builtin = {p.name: p.read_bytes() for p in (out / "static").iterdir() if p.is_file()}
    assert _record_at(out, "static-game") == old
    make_event(event, {"Static/a.gcg": new, "static/b.gcg": new + b"\n#note b\n"})
    assert build(BuildOptions(event, out)).games == 3
    assert _record_at(out, "static-game") == old
    assert _record_at(out, "static-game-2/a") == new
    assert sorted(p.name for p in (out / "static-game").iterdir() if p.is_dir()) == []
    assert {p.name: p.read_bytes() for p in (out / "static").iterdir() if p.is_file()} \
        == builtin
    assert _games(out) == ["static-game", "static-game-2/a", "static-game-2/b"]
    # A first build of the same files slugs them in path order, every time, and puts no
    # game inside another's folder either.
    for fresh in (tmp_path / "fresh-1", tmp_path / "fresh-2"):
        build(BuildOptions(event, fresh))
        assert _games(fresh) == ["static-game-2", "static-game/a", "static-game/b"]
        assert _record_at(fresh, "static-game-2") == old


def test_a_game_made_a_draft_for_a_while_comes_back_at_its_address(tmp_path) -> None:
    old, new = (CORPUS / "gcg" / GAMES[0]).read_bytes(), (CORPUS / "gcg" / GAMES[1]).read_bytes()
    other = (CORPUS / "gcg" / GAMES[2]).read_bytes()
    event = make_event(tmp_path / "ev", {"sl/TABLE-1.gcg": old, "other.gcg": other})
    out = tmp_path / "site"
    build(BuildOptions(event, out))
    assert _games(out) == ["other", "sl/table-1"] and _record_at(out, "sl/table-1") == old
    (event / "event.yaml").write_text('games:\n  "sl/TABLE-1.gcg": {draft: true}\n')
    assert build(BuildOptions(event, out)).games == 1
    assert _games(out) == ["other"]
    (event / "sl" / "TABLE 1.gcg").write_bytes(new)  # sorts before TABLE-1.gcg
    assert build(BuildOptions(event, out)).games == 2
    assert _games(out) == ["other", "sl/table-1-2"] and _record_at(out, "sl/table-1-2") == new
    (event / "event.yaml").unlink()
    assert build(BuildOptions(event, out)).games == 3
    assert _games(out) == ["other", "sl/table-1", "sl/table-1-2"]
    assert _record_at(out, "sl/table-1") == old and _record_at(out, "sl/table-1-2") == new
    index = (out / "index.html").read_text()
    assert 'href="sl/table-1/index.html"' in index and 'href="sl/table-1-2/index.html"' in index


def test_a_draft_added_by_an_incremental_build_keeps_its_address_too(tmp_path) -> None:
    """A draft that appears while nothing else changes is still remembered."""
    old, new = (CORPUS / "gcg" / GAMES[0]).read_bytes(), (CORPUS / "gcg" / GAMES[1]).read_bytes()
    event = make_event(tmp_path / "ev", {"other.gcg": old, "event.yaml":
                                         'games:\n  "sl/*.gcg": {draft: true}\n'})
    out = tmp_path / "site"
    build(BuildOptions(event, out))
    (event / "sl").mkdir()
    (event / "sl" / "table-1.gcg").write_bytes(old)
    assert build(BuildOptions(event, out)).rendered_games == 0
    assert load_state(out).drafts == {"sl/table-1.gcg": "sl/table-1"}
    (event / "sl" / "Table 1.gcg").write_bytes(new)
    build(BuildOptions(event, out))
    (event / "event.yaml").unlink()
    build(BuildOptions(event, out))
    assert _record_at(out, "sl/table-1") == old and _record_at(out, "sl/table-1-2") == new


def test_the_published_state_does_not_name_a_draft(tmp_path, monkeypatch) -> None:
    """``.pgm-state.json`` is served with the site: a draft's record name (which often
    names its players) is not readable in it, yet the next build finds its slug."""
    import pgm.state

    game = (CORPUS / "gcg" / GAMES[0]).read_bytes()
    event = make_event(tmp_path / "ev", {"Smith vs Jones.gcg": game, "other.gcg": game,
                                         "event.yaml": 'games:\n  "Smith*": {draft: true}\n'})
    out = tmp_path / "site"
    build(BuildOptions(event, out))
    published = (out / ".pgm-state.json").read_text().lower()
    assert "smith" not in published and "jones" not in published
    monkeypatch.setattr(pgm.state, "_remembered", [])  # as a new process reads it
    assert load_state(out, ["Smith vs Jones.gcg", "other.gcg"]).drafts == \
        {"Smith vs Jones.gcg": "smith-vs-jones"}


def test_drafts_of_a_state_from_before_they_were_sealed_keep_their_addresses(
        tmp_path, monkeypatch) -> None:
    import pgm.state

    game = (CORPUS / "gcg" / GAMES[0]).read_bytes()
    event = make_event(tmp_path / "ev", {"table-1.gcg": game, "event.yaml":
                                         'games:\n  "table-1.gcg": {draft: true}\n'})
    out = tmp_path / "site"
    build(BuildOptions(event, out))
    state_file = out / ".pgm-state.json"
    state = json.loads(state_file.read_text())
    state["drafts"] = {"table-1.gcg": "table-1-2"}  # as an older pgm wrote it
    state_file.write_text(json.dumps(state))
    monkeypatch.setattr(pgm.state, "_remembered", [])
    (event / "other.gcg").write_bytes(game)
    build(BuildOptions(event, out))
    assert "table-1.gcg" not in json.loads(state_file.read_text())["drafts"]  # sealed now
    (event / "event.yaml").unlink()
    build(BuildOptions(event, out))
    assert _games(out) == ["other", "table-1-2"]


def test_a_removed_records_address_is_free_at_once(tmp_path) -> None:
    old, new = (CORPUS / "gcg" / GAMES[1]).read_bytes(), (CORPUS / "gcg" / GAMES[0]).read_bytes()
    event = make_event(tmp_path / "ev", {"sl/table-1.gcg": old})
    out = tmp_path / "site"
    build(BuildOptions(event, out))
    (event / "sl" / "table-1.gcg").unlink()
    (event / "sl" / "Table 1.gcg").write_bytes(new)
    build(BuildOptions(event, out))
    assert _games(out) == ["sl/table-1"] and _record_at(out, "sl/table-1") == new
    # None of the old game's pages stays behind (it had more turns than the new one).
    assert sorted(p.name for p in (out / "sl/table-1").iterdir()) == \
        sorted(load_state(out).games["sl/table-1"].files)


def test_a_freed_address_taken_by_a_broken_record_never_shows_the_old_game(tmp_path) -> None:
    """While watching, a record that does not replay keeps its own last good pages; the
    pages a removed record left at an address a new record now has are not its own."""
    old = (CORPUS / "gcg" / GAMES[0]).read_bytes()
    event = make_event(tmp_path / "ev", {"sl/table-1.gcg": old})
    out = tmp_path / "site"
    build(BuildOptions(event, out, keep_last_good=True))
    (event / "sl" / "table-1.gcg").unlink()
    broken = old[: len(old) // 2] + b" Z9 QQ"
    (event / "sl" / "Table 1.gcg").write_bytes(broken)
    result = build(BuildOptions(event, out, keep_last_good=True))
    assert result.errors and result.games == 1
    assert _record_at(out, "sl/table-1") == broken
    assert json.loads((out / "sl/table-1/game.json").read_text())["path"] == "sl/Table 1.gcg"


def test_only_slugs_pgm_could_have_made_are_kept(tmp_path) -> None:
    from pgm.discover import make_sources

    previous = {"a.gcg": "../outside", "b.gcg": "static", "c.gcg": "sl/c-7", "d.gcg": "sl/c-7",
                "e.gcg": "E", "f.gcg": "x//y"}
    slugs = [s.slug for s in make_sources(tmp_path, list(previous), previous)]
    assert slugs == ["a", "b", "sl/c-7", "d", "e", "f"]
    # A game an older pgm put inside another's folder moves out; the outer one stays.
    previous = {"Static/x.gcg": "static-game/x", "static.gcg": "static-game"}
    slugs = [s.slug for s in make_sources(tmp_path, list(previous), previous)]
    assert slugs == ["static-game-2/x", "static-game"]


def test_a_half_save_of_a_game_with_a_harmless_error_keeps_its_last_pages(tmp_path) -> None:
    """An error that stops nothing (an unknown encoding) must not cost a game in progress
    the protection from half-written saves: its pages would stop following it."""
    record = b"#character-encoding ISO8859-6\n" + (CORPUS / "gcg" / GAMES[0]).read_bytes()
    event = make_event(tmp_path / "ev", {"g.gcg": record_prefix(record, 5)})
    out = tmp_path / "site"

    def saved(data: bytes) -> dict:
        (event / "g.gcg").write_bytes(data)
        build(BuildOptions(event, out, keep_last_good=True, jobs=1))
        return json.loads((out / "live.json").read_text())["games"][0]

    assert saved(record_prefix(record, 5))["live"]
    half = saved(record_prefix(record, 5) + b">Andy: ABC")
    assert (half["live"], half["turns"]) == (True, 5)
    assert 'data-live="game.json"' in (out / "g/5.html").read_text()
    fixed = saved(record_prefix(record, 6))
    assert (fixed["live"], fixed["turns"]) == (True, 6)


def test_a_changed_game_writes_its_pages_then_its_index_then_game_json(tmp_path,
                                                                        monkeypatch) -> None:
    """A page that polls game.json and finds it changed must find itself changed too;
    the event's pages, which link to the game's, come after them."""
    record = (CORPUS / "gcg" / GAMES[0]).read_bytes()
    event = make_event(tmp_path / "ev", {"g.gcg": record_prefix(record, 5)})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    renamed = []
    replace = os.replace
    monkeypatch.setattr(os, "replace", lambda temp, path: renamed.append(
        Path(path).relative_to(out).as_posix()) or replace(temp, path))
    (event / "g.gcg").write_bytes(record_prefix(record, 6))
    build(BuildOptions(event, out, jobs=1))
    game = [name for name in renamed if name.startswith("g/")]
    assert game[-2:] == ["g/index.html", "g/game.json"]
    assert {"g/1.html", "g/6.html", "g/input.gcg", "g/moves.csv"} <= set(game[:-2])
    assert renamed.index("g/game.json") < renamed.index("index.html")


@pytest.mark.parametrize("games", [2, 9])  # 9 changed games go to worker processes
def test_a_rebuild_that_fails_changes_nothing(tmp_path, games) -> None:
    """A theme's template that cannot show one changed record fails the rebuild, and
    the other changed games, rendered before it, are not published either: the site is
    as it was, and no temporary file is left."""
    from sitehelpers import run_build

    record = (CORPUS / "gcg" / GAMES[0]).read_bytes()
    event = make_event(tmp_path / "ev", {f"g{n}.gcg": record for n in range(games)})
    (event / "event.yaml").write_text("theme_dir: theme\n")
    (event / "theme").mkdir()
    (event / "theme/turn.html").write_text(
        '{% extends "!default/turn.html" %}{% block crumbs %}{{ super() }}'
        '{% if "BROKEN" in game.label %}{{ 1 + "x" }}{% endif %}{% endblock %}\n')
    out = tmp_path / "site"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    for n in range(games):
        title = "BROKEN" if n == games - 1 else f"Changed {n}"
        (event / f"g{n}.gcg").write_bytes(f"#title {title}\n".encode() + record)
    result = run_build(str(event), "-o", str(out))
    assert result.exit_code == 1 and "template error in" in result.output
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_a_killed_rebuilds_temporary_files_are_removed_by_the_next(tmp_path) -> None:
    """A rebuild killed while its files wait beside the ones they replace leaves them
    and its mark; the next build removes them, and leaves another live build's alone."""
    event, out = _event(tmp_path)
    build(BuildOptions(event, out))
    dead = _finished_pid()
    game = out / "r1/macondo-vs-andy"
    left = [game / f".3.html.{dead}.tmp", game / f".index.html.{dead}.tmp",
            out / f".index.html.{dead}.tmp"]
    for path in left:
        path.write_text("half")
    (out / f".pgm-staging-{dead}").touch()
    alive = game / f".4.html.{os.getppid()}.tmp"  # a process that is running
    alive.write_text("another build's")
    (out / f".pgm-staging-{os.getppid()}").touch()
    build(BuildOptions(event, out))
    assert not any(path.exists() for path in left)
    assert not (out / f".pgm-staging-{dead}").exists()
    assert alive.exists()


def _finished_pid() -> int:
    import subprocess

    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid

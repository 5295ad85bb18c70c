"""While watching, a save caught half-way never takes pages away from spectators: a
record written in pieces and cut at the end of a line, a running total half typed by
an editor that saves every second, a record renamed aside before it is written anew.
Such a save keeps the game's last pages until the record has been left alone a moment
(pgm.state.SAVE_SETTLE_NS); then it is published as it is, without another save."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

from conftest import CORPUS
from sitehelpers import make_event, record_prefix, wait_for, watching

from pgm.build import BuildOptions, BuildResult, build
from pgm.state import SAVE_SETTLE_NS

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def _turns(out: Path) -> int:
    return json.loads((out / "g/game.json").read_text())["turns"]


def _event(tmp_path: Path, events: int) -> tuple[Path, Path]:
    event = make_event(tmp_path / "ev", {"g.gcg": record_prefix(RECORD, events)})
    out = tmp_path / "site"
    build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    return event, out


def _watch_build(event: Path, out: Path) -> BuildResult:
    return build(BuildOptions(event, out, keep_last_good=True, jobs=1))


def _left_alone(record: Path) -> None:
    """The record as if saved before the settling time."""
    before = time.time_ns() - 2 * SAVE_SETTLE_NS
    os.utime(record, ns=(before, before))


def test_a_save_that_takes_turns_back_keeps_the_pages_until_left_alone(tmp_path) -> None:
    event, out = _event(tmp_path, 10)
    pages = {p.name: p.read_bytes() for p in (out / "g").iterdir()}
    (event / "g.gcg").write_bytes(record_prefix(RECORD, 5))  # the first part of a save
    held = _watch_build(event, out)
    assert held.settling == [f"{event}/g.gcg"] and held.rebuilt == [] and held.kept == []
    assert {p.name: p.read_bytes() for p in (out / "g").iterdir()} == pages
    _left_alone(event / "g.gcg")  # an annotator who took five moves back meant it
    published = _watch_build(event, out)
    assert published.rebuilt == [f"{event}/g.gcg"] and published.settling == []
    assert _turns(out) == 5 and not (out / "g/6.html").exists()


def test_a_running_total_half_typed_is_not_published_until_left_alone(tmp_path) -> None:
    event, out = _event(tmp_path, 4)
    whole = record_prefix(RECORD, 5)
    assert whole.endswith(b" +22 62\n")
    (event / "g.gcg").write_bytes(whole[:-2] + b"\n")  # "+22 6" of "+22 62", autosaved
    held = _watch_build(event, out)
    assert held.settling and held.diagnostics == [] and _turns(out) == 4
    (event / "g.gcg").write_bytes(whole)  # typed on: published at once, no warning
    typed = _watch_build(event, out)
    assert typed.rebuilt and typed.diagnostics == [] and _turns(out) == 5
    (event / "g.gcg").write_bytes(whole[:-2] + b"\n")
    _left_alone(event / "g.gcg")  # a wrong total left there is published, and warned of
    wrong = _watch_build(event, out)
    assert wrong.rebuilt and _turns(out) == 5
    assert [d.message for d in wrong.diagnostics] == ["cumulative score is 6, but 40 +22 = 62"]


def test_a_record_whose_time_is_ahead_of_the_clock_is_published_at_once(tmp_path) -> None:
    """A file synced from a machine whose clock is ahead is no save just made: held, it
    would stay held, the watch building again every second, until the clock caught up."""
    event, out = _event(tmp_path, 10)
    (event / "g.gcg").write_bytes(record_prefix(RECORD, 5))
    ahead = time.time_ns() + 3600 * 10**9
    os.utime(event / "g.gcg", ns=(ahead, ahead))
    result = _watch_build(event, out)
    assert result.settling == [] and _turns(out) == 5


def test_a_note_added_above_a_warning_is_no_new_warning(tmp_path) -> None:
    event, out = _event(tmp_path, 4)
    typo = record_prefix(RECORD, 5).replace(b"+22 62", b"+22 61")  # a wrong total
    (event / "g.gcg").write_bytes(typo)
    _left_alone(event / "g.gcg")
    assert _watch_build(event, out).rebuilt
    (event / "g.gcg").write_bytes(typo.replace(b"+18 18\n", b"+18 18\n#note well played\n"))
    moved = _watch_build(event, out)  # the warning is a line further down: the same one
    assert moved.rebuilt and moved.settling == []


def test_a_build_that_is_not_watching_publishes_the_record_as_it_is(tmp_path) -> None:
    event, out = _event(tmp_path, 10)
    (event / "g.gcg").write_bytes(record_prefix(RECORD, 5))
    result = build(BuildOptions(event, out, jobs=1))
    assert result.settling == [] and _turns(out) == 5


def test_watch_publishes_a_held_save_once_left_alone_without_another_save(tmp_path) -> None:
    event, out = _event(tmp_path, 10)
    results: list[object] = []
    with watching(BuildOptions(event, out), results.append):
        assert wait_for(lambda: results)
        time.sleep(0.3)  # let the watcher settle before the annotator saves
        (event / "g.gcg").write_bytes(record_prefix(RECORD, 6))
        assert wait_for(lambda: any(getattr(r, "settling", None) for r in results))
        assert _turns(out) == 10
        assert wait_for(lambda: _turns(out) == 6)
    assert not (out / "g/7.html").exists()


def test_a_record_renamed_aside_and_written_anew_never_leaves_the_site(tmp_path) -> None:
    """How an editor that keeps a backup saves (Vim's ``writebackup``): the record is
    renamed to ``g.gcg~``, then the new one written, a moment later on a busy machine."""
    event = make_event(tmp_path / "ev", {"g.gcg": record_prefix(RECORD, 8),
                                         "other.gcg": record_prefix(RECORD, 3)})
    out = tmp_path / "site"
    results: list[object] = []
    seen_gone = threading.Event()
    with watching(BuildOptions(event, out), results.append):
        assert wait_for(lambda: results)
        time.sleep(0.3)
        record = event / "g.gcg"
        record.rename(event / "g.gcg~")
        deadline = time.monotonic() + 0.4
        while time.monotonic() < deadline:
            if not (out / "g/8.html").is_file():
                seen_gone.set()
            time.sleep(0.01)
        record.write_bytes(record_prefix(RECORD, 9))
        (event / "g.gcg~").unlink()
        assert wait_for(lambda: (out / "g/9.html").is_file())
    assert not seen_gone.is_set()
    assert [getattr(r, "games", None) for r in results] == [2] * len(results)


def test_a_rebuild_names_the_records_whose_games_it_took_off(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": RECORD, "h.gcg": record_prefix(RECORD, 3)})
    out = tmp_path / "site"
    build(BuildOptions(event, out, jobs=1))
    (event / "h.gcg").unlink()
    result = build(BuildOptions(event, out, jobs=1))
    assert result.removed == [f"{event}/h.gcg"] and not (out / "h").exists()

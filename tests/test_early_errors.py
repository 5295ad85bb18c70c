"""A line that cannot be read stops a crossword or Upwords replay there, wherever it is:
above the first event as among the events (a lost line may have been a move). Lines
that cannot be read beyond the first are one error, not one each."""

from __future__ import annotations

import csv
import io
import json
import random

from click.testing import CliRunner
from conftest import CORPUS, gcg_bytes
from sitehelpers import make_event, run_build

from pgm.cli import main
from pgm.config import GameSettings
from pgm.crossword import replay
from pgm.diagnostics import Severity
from pgm.discover import Source
from pgm.games import load_game
from pgm.gcg import parse_gcg
from pgm.upwords import replay as replay_upwords

HEAD = "#player1 a Ann\n#player2 b Bob\n"
STRAY = "expected a pragma ('#...') or an event ('>nick: ...'), found 'hello world'"
MID = HEAD + "hello world\n>a: AEINRST 8D RETAINS +66 66\n"
AFTER = HEAD + ">a: AEINRST 8D RETAINS +66 66\nhello world\n>b: AEINRST 9D AT +5 5\n"


def play(text: str | bytes):
    data = text if isinstance(text, bytes) else gcg_bytes(text)
    return replay(parse_gcg(data, "t.gcg"))


def messages(game) -> list[str]:
    return [f"{d.line}: {d.severity}: {d.message}" for d in game.diagnostics]


def errors(game) -> list[str]:
    return [m for m, d in zip(messages(game), game.diagnostics, strict=True)
            if d.severity is Severity.ERROR]


def entry(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return load_game(Source(path, name, path.stem), GameSettings(), data).entry


def test_a_stray_line_above_the_first_event_stops_the_replay_there() -> None:
    record = parse_gcg(gcg_bytes(MID), "t.gcg")
    assert record.unreadable_line == 3
    assert record.readable_events() == () and [e.line for e in record.events] == [4]
    game = play(MID)
    assert game.stopped_at == 3 and game.turns == () and not game.complete
    assert messages(game) == [f"3: error: {STRAY}"]
    # as after the first event
    after = play(AFTER)
    assert after.stopped_at == 4 and len(after.turns) == 1
    assert messages(after) == [f"4: error: {STRAY}"]


def test_a_record_of_nothing_but_a_stray_line_stops_at_it() -> None:
    game = play("hello\n")
    assert game.stopped_at == 1 and game.turns == ()
    assert errors(game) == ["1: error: expected a pragma ('#...') or an event ('>nick: ...'), "
                            "found 'hello'"]


def test_a_broken_event_line_first_stops_the_replay_as_it_did() -> None:
    game = play(HEAD + ">a: AEINRST 8D\n>b: AEINRST 8D RETAINS +66 66\n")
    assert game.stopped_at == 3 and game.turns == ()


def test_records_saved_as_utf32_stop_at_the_first_line() -> None:
    """UTF-32 is read as UTF-16 (its byte-order mark starts like one): every line has
    NULs in it, so the record stops at line 1, not "in progress", with one error that
    names the encoding."""
    for encoding in ("utf-32", "utf-32-be"):
        data = (HEAD + ">a: AEINRST 8D RETAINS +66 66\n").encode(encoding)
        if encoding.endswith("-be"):
            data = b"\x00\x00\xfe\xff" + data
        game = play(data)
        assert game.stopped_at == 1 and game.turns == (), encoding
        [error] = errors(game)
        assert "an encoding pgm does not read (UTF-32)" in error


def test_a_utf16_byte_order_mark_before_latin1_text_stops_at_the_first_line() -> None:
    game = play(b"\xff\xfe" + gcg_bytes(MID))
    assert game.stopped_at == 1 and game.turns == ()


def test_what_was_only_a_warning_above_the_events_still_is_and_does_not_stop() -> None:
    game = play("""
        #character-encoding ISO-8859-1
        #player1 a Ann
        #player1 a Ann Again
        #player2 b Bob
        #htarget http://example.com/
        #orientation sideways
        #id io.woogles
        #some-tool-pragma value
        #note a note about the game
        that goes on here
        #rack1 AEINRST
        >a: AEINRST 8D RETAINS +66 66
        >b: AEINRST - +0 0
    """)
    assert game.stopped_at is None and len(game.turns) == 2
    assert game.record.unreadable_line is None
    assert errors(game) == []
    assert [m.split(":")[0] for m in messages(game)] == ["3", "5", "6", "7", "8", "9"]


def test_an_unknown_nickname_in_a_player_pragma_is_no_stray_line() -> None:
    game = play("#player1 a\n#player2 b Bob\n>a: AEINRST 8D RETAINS +66 66\n")
    assert game.stopped_at is None and len(game.turns) == 1


def test_no_corpus_record_stops_above_its_first_event() -> None:
    for path in sorted(CORPUS.glob("gcg*/*.gcg")):
        record = parse_gcg(path.read_bytes(), path.name)
        first = record.events[0].line if record.events else None
        assert record.unreadable_line is None or (
            first is not None and record.unreadable_line > first), path.name


def test_upwords_records_stop_at_a_stray_line_above_the_events_too() -> None:
    head = "#game-type upwords\n#player1 ann Ann\n#player2 bob Bob\n"
    game = replay_upwords(parse_gcg(gcg_bytes(head + "hello world\n>ann: ? 5D CAT +6 6\n"),
                                    "u.gcg"))
    assert game.stopped_at == 4 and game.turns == ()
    assert [(d.line, d.severity.value) for d in game.diagnostics] == [(4, "error")]


def test_a_game_stopped_above_its_first_event_is_neither_live_nor_won(tmp_path) -> None:
    mid = entry(tmp_path, "mid.gcg", gcg_bytes(MID))
    assert not mid.live and mid.stopped_at == 3 and mid.turns == 0
    assert mid.status.startswith("stopped by an error at line 3")
    assert mid.result_by_seat == ("", "")
    only = entry(tmp_path, "only.gcg", b"hello\n")
    assert not only.live and only.stopped_at == 1
    assert only.status == "stopped by an error at line 1"
    upwords = entry(tmp_path, "up.gcg", b"#game-type upwords\n#player1 ann Ann\n"
                                        b"#player2 bob Bob\nhello\n>ann: ? 5D CAT +6 6\n")
    assert not upwords.live and upwords.stopped_at == 4


def test_check_json_and_export_of_a_record_stopped_above_its_first_event(tmp_path) -> None:
    bad = tmp_path / "mid.gcg"
    bad.write_bytes(gcg_bytes(MID))
    checked = CliRunner().invoke(main, ["check", "--json", str(bad)])
    assert checked.exit_code == 1
    [report] = json.loads(checked.stdout)
    assert report["events"] == [] and report["complete"] is False
    assert report["stopped_at"] == 3
    assert report["diagnostics"] == [{"line": 3, "severity": "error", "message": STRAY}]
    exported = CliRunner().invoke(main, ["export", str(bad)])
    assert exported.exit_code == 1
    assert exported.stdout.splitlines()[1:] == []
    assert exported.stderr == f"{bad}:3: error: {STRAY}\n"


def test_the_site_shows_where_each_record_stopped(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"garbage-mid.gcg": gcg_bytes(MID),
                                         "garbage-after.gcg": gcg_bytes(AFTER),
                                         "garbage-only.gcg": b"hello\n"})
    out = tmp_path / "site"
    result = run_build(str(event), "-o", str(out), "--quiet")
    assert result.exit_code == 1
    live = {game["slug"]: game for game in json.loads((out / "live.json").read_text())["games"]}
    assert {slug: (game["live"], game["status"]) for slug, game in live.items()} == {
        "garbage-after": (False, "stopped by an error at line 4: Ann 66 – Bob 0"),
        "garbage-mid": (False, "stopped by an error at line 3: Ann 0 – Bob 0"),
        "garbage-only": (False, "stopped by an error at line 1"),
    }
    # no turn pages before the stop: the game page is the last page made, with the error
    assert not (out / "garbage-mid/1.html").exists()
    page = (out / "garbage-mid/index.html").read_text(encoding="utf-8")
    assert "stopped by an error at line 3" in page and "hello world" in page
    assert "hello world" in (out / "garbage-after/1.html").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO((out / "moves.csv").read_text(encoding="utf-8"))))
    assert [(r["game"], r["turn"]) for r in rows] == [("garbage-after.gcg", "1")]
    game_json = json.loads((out / "garbage-mid/game.json").read_text(encoding="utf-8"))
    assert game_json["live"] is False and game_json["events"] == []


# -- lines beyond the first that cannot be read ------------------------------------------


def test_one_more_unreadable_line_keeps_its_own_message() -> None:
    game = play(HEAD + "hello world\n>a: AEINRST 8D RETAINS +66 66\nbye\n")
    assert errors(game) == [
        f"3: error: {STRAY}",
        "5: error: expected a pragma ('#...') or an event ('>nick: ...'), found 'bye'"]


def test_more_unreadable_lines_are_one_error_saying_how_many() -> None:
    game = play(HEAD + "junk 1\njunk 2\n#some-pragma\n>a: AEINRST 8D\n"
                       ">a: AEINRST 8D RETAINS +66 66\n>b broken\n\n")
    assert messages(game) == [
        "3: error: expected a pragma ('#...') or an event ('>nick: ...'), found 'junk 1'",
        "4: error: 3 more lines could not be read, from this one to line 8",
        "5: warning: unknown pragma #some-pragma ignored",
    ]
    assert game.stopped_at == 3


def test_binary_junk_is_a_few_problems_not_one_a_line(tmp_path) -> None:
    junk = random.Random(5).randbytes(30_000)
    lines = junk.count(b"\n") + junk.count(b"\r") - junk.count(b"\r\n") + 1
    assert lines > 100
    game = play(junk)
    assert game.stopped_at is not None and game.turns == ()
    assert len(errors(game)) == 2
    assert " more lines could not be read, from this one to line " in errors(game)[1]
    path = tmp_path / "junk.gcg"
    path.write_bytes(junk)
    checked = CliRunner().invoke(main, ["check", str(path)])
    assert checked.exit_code == 1
    printed = checked.stdout.splitlines()
    assert 2 <= len(printed) < 10
    assert all(line.startswith(f"{path}:") for line in printed)


def test_an_unknown_pragma_of_control_characters_is_shown_escaped_and_clipped() -> None:
    game = play(HEAD + "#\x1b[2Jwipe\n#" + "x" * 100 + "\n#tool-pragma ok\n")
    assert messages(game)[:3] == [
        "3: warning: unknown pragma '#\\x1b[2jwipe' ignored",
        f"4: warning: unknown pragma #{'x' * 38}… ignored",
        "5: warning: unknown pragma #tool-pragma ignored"]
    assert game.stopped_at is None


def test_check_json_says_where_each_kind_of_record_stopped(tmp_path) -> None:
    """``stopped_at``: the line of the error that stopped the replay, null for a record
    replayed to its last line, for crossword, Upwords and Gungi records alike."""
    gungi = (CORPUS / "gn/authored__2_every_move_form.gn").read_bytes()
    files = {"after.gcg": gcg_bytes(AFTER), "whole.gcg": (CORPUS / "gcg/macondo__vs_andy.gcg")
             .read_bytes(), "upwords.gcg": gcg_bytes("#game-type upwords\n" + AFTER),
             "whole.gn": gungi, "broken.gn": gungi.replace(b"2. PZ*1-6-0", b"2. PZ*1-6-0 QQ", 1)}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    checked = CliRunner().invoke(main, ["check", "--json", *sorted(
        str(tmp_path / name) for name in files)])
    stopped = {report["path"].rsplit("/", 1)[1]: report["stopped_at"]
               for report in json.loads(checked.stdout)}
    assert stopped == {"after.gcg": 4, "broken.gn": 9, "upwords.gcg": 5, "whole.gcg": None,
                       "whole.gn": None}

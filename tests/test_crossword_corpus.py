"""Replay every real record of the shared corpus and hold it to what is known about it.

* every play scores on the board what was recorded, except the recording errors the
  MANIFEST lists, which must each be reported at their line with both numbers;
* the board after N events equals the snapshots another program asserts;
* every deliberately broken record yields a located diagnostic and no crash.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from conftest import CORPUS
from sitehelpers import make_event, run_build, text_of

from pgm.cgp import write_board
from pgm.crossword import replay
from pgm.crossword_model import unseen_tiles
from pgm.crossword_view import player_lines
from pgm.diagnostics import Severity
from pgm.gcg import EventKind, parse_gcg
from pgm.tiles import RACK_LABELS

VALID = sorted((CORPUS / "gcg").glob("*.gcg")) + sorted((CORPUS / "gcg-nonexact").glob("*.gcg"))
INVALID = sorted((CORPUS / "gcg-invalid").glob("*.gcg"))


def _manifest() -> dict[str, dict[str, str]]:
    with (CORPUS / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        return {row["filename"]: row for row in csv.DictReader(handle, delimiter="\t")}


MANIFEST = _manifest()
_SCORE_ODDITY = re.compile(r"ev(\d+) (\S+) (\S+): stated \+(-?\d+), computed (-?\d+)")


def known_score_errors(name: str) -> dict[int, tuple[str, int, int]]:
    """Event number -> (word, stated, computed) for the recording errors MANIFEST lists."""
    oddities = MANIFEST[name]["oddities"]
    part = oddities.split("board-score != stated:", 1)
    if len(part) < 2:
        return {}
    found = _SCORE_ODDITY.findall(part[1].split("||")[0])
    return {int(n): (word, int(stated), int(computed)) for n, _pos, word, stated, computed in found}


def load(path: Path):
    return replay(parse_gcg(path.read_bytes(), path.name))


def test_the_corpus_is_there() -> None:
    assert len(VALID) == 72 and len(INVALID) == 25


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_every_play_scores_as_recorded_except_known_errors(path: Path) -> None:
    game = load(path)
    expected_errors = known_score_errors(path.name)
    assert game.stopped_at is None
    assert not [d for d in game.diagnostics if d.severity is Severity.ERROR]
    plays = [t for t in game.turns if t.event.kind is EventKind.PLAY]
    assert plays or MANIFEST[path.name]["complete"] == "no-events"
    for turn in plays:
        if turn.number in expected_errors:
            word, stated, computed = expected_errors[turn.number]
            assert (turn.event.word, turn.event.score, turn.computed_score) == (
                word, stated, computed)
            warnings = [d for d in game.diagnostics if d.line == turn.event.line]
            assert any(f"{stated:+d}" in d.message and f"{computed:+d}" in d.message
                       for d in warnings), warnings
        else:
            assert turn.computed_score == turn.event.score, turn.event.text


def test_known_errors_were_found_in_the_manifest() -> None:
    """Guard the parsing of MANIFEST: the two documented mis-scored plays are there."""
    assert known_score_errors("liwords__r20_peter.gcg") == {15: ("BRUnCH..Y", 115, 113)}
    assert known_score_errors("scrabscrap__nu19_johannes-stefan.gcg") == {
        15: ("NEUENDER", 66, 104)}


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_final_scores_are_the_recorded_ones(path: Path) -> None:
    game = load(path)
    stated = MANIFEST[path.name]["final_stated_scores"]
    for entry in stated.split(";"):
        nick_part, _, score = entry.rpartition("=")
        if not score.lstrip("-").isdigit():
            continue
        nicks = [p.nick for p in game.record.players]
        nick = nick_part if nick_part in nicks else nick_part.split("(")[0]
        seats = [i for i, p in enumerate(game.record.players) if p.nick == nick]
        assert any(game.final.scores[s] == int(score) for s in seats), (nick, score)


def _snapshots() -> list[tuple[str, int, str]]:
    rows = []
    with (CORPUS / "cgp/gcg_replay_snapshots.tsv").open(encoding="utf-8") as handle:
        for row in csv.reader(handle, delimiter="\t"):
            if row[0] == "corpus_file":
                continue
            rows.append((row[0], int(row[1]) if row[1] != "end" else -1, row[2]))
    return rows


SNAPSHOTS = _snapshots()


@pytest.mark.parametrize("relative,events,expected", SNAPSHOTS,
                         ids=[f"{r}@{n}" for r, n, _ in SNAPSHOTS])
def test_board_after_n_events_matches_snapshot(relative: str, events: int, expected: str) -> None:
    game = load(CORPUS / relative)
    # The snapshot program clamps N to the number of events.
    position = game.final if events < 0 or events >= len(game.turns) else \
        game.position_before(events)
    board, racks, scores, zeros = expected.split()[:4]
    assert write_board(position.cells, game.rules.layout.size) == board
    seat = position.to_move if position.to_move is not None else 0
    ordered = [position.scores[(seat + k) % 2] for k in range(2)]
    assert "/".join(map(str, ordered)) == scores
    assert position.scoreless_turns == int(zeros)


def test_snapshots_cover_many_positions() -> None:
    assert len(SNAPSHOTS) >= 30


VALID_BY_THE_SPEC = {
    "MAGPIE-DATA__event_after_last_rack.gcg":
        "MAGPIE refuses an event after #rackN; the GCG spec lets #rackN give a rack in a "
        "game in progress, events following",
}
"""Records of gcg-invalid that another program refuses but the GCG spec allows."""


@pytest.mark.parametrize("path", [p for p in INVALID if p.name not in VALID_BY_THE_SPEC],
                         ids=lambda p: p.name)
def test_broken_records_give_located_diagnostics(path: Path) -> None:
    game = load(path)
    located = [d for d in game.diagnostics if d.line > 0 and d.message]
    assert located, f"{path.name}: no diagnostic"
    assert all(str(d).startswith(f"{path.name}:{d.line}: ") for d in located)


def test_a_rack_line_followed_by_events_is_the_racks_then() -> None:
    """MAGPIE's 'event after last rack' record is its valid standard game with
    '#rack1 CEGIIOX' after line 35, HastyBot's rack for their next play, as it says."""
    game = load(CORPUS / "gcg-invalid/MAGPIE-DATA__event_after_last_rack.gcg")
    valid = load(CORPUS / "gcg/MAGPIE-DATA__success_standard.gcg")
    assert game.diagnostics == valid.diagnostics == ()
    assert game.final.scores == valid.final.scores and game.stopped_at is None
    turn = next(t for t in game.turns if t.event.line == 35)
    assert turn.position.racks[0] == tuple("CEGIIOX")
    assert game.cgp(turn.number - 1).split()[1].startswith("CEGIIOX/")


@pytest.mark.parametrize("name", ["macondo__vs_andy", "macondo__doug_v_emely"])
def test_words_formed_agree_with_another_program(name: str) -> None:
    golden = json.loads((CORPUS / f"expected/{name}.json").read_text(encoding="utf-8"))
    game = load(CORPUS / f"gcg/{name}.gcg")
    plays = [t for t in game.turns if t.event.kind is EventKind.PLAY]
    theirs = [e for e in golden["events"] if "words_formed" in e]
    assert len(theirs) == len(plays)
    for ours, other in zip(plays, theirs, strict=True):
        expected = sorted(w.upper() for w in other["words_formed"])
        assert sorted(w.upper() for w in ours.words) == expected
        assert ours.computed_score == other["score"]
    assert list(game.final.scores) == golden["final_scores"]


@pytest.mark.parametrize("path", VALID + INVALID, ids=lambda p: p.name)
def test_cgp_asked_in_order_keeps_rows_the_same_as_written_afresh(path: Path) -> None:
    """Turn pages ask for the CGPs in order and get the rows a turn did not touch kept
    from the turn before; asked backwards, every board is written whole."""
    in_order = load(path)
    backwards = load(path)
    indices = range(-1, len(in_order.turns))
    assert [in_order.cgp(i) for i in indices] == [backwards.cgp(i) for i in reversed(indices)][::-1]
    for index in indices:
        position = in_order.turns[index].position if index >= 0 else in_order.start
        size = in_order.rules.layout.size
        assert in_order.cgp(index).split()[0] == write_board(position.cells, size)


# -- racks around a withdrawn phoney -----------------------------------------------------

WITHDRAWALS = [p for p in VALID if b" -- " in p.read_bytes()]


def _withdrawals(game) -> list[int]:
    return [i for i, t in enumerate(game.turns)
            if t.event.kind is EventKind.WITHDRAWAL and game.turns[i - 1].withdrawn]


def _seat_rack(game, index: int, seat: int) -> Counter[str]:
    return Counter(game.turns[index].position.racks[seat] or ())


@pytest.mark.parametrize("path", WITHDRAWALS, ids=lambda p: p.name)
def test_a_withdrawn_phoneys_tiles_are_back_on_the_rack_until_the_next_move(path: Path) -> None:
    """The phoney's tiles go back to the rack: from the withdrawal to the player's next
    move the rack holds every tile the withdrawal line and that move's line list."""
    game = load(path)
    assert _withdrawals(game), "no withdrawal replayed"
    for index in _withdrawals(game):
        turn = game.turns[index]
        listed = Counter(t for t in turn.rack or () if t != "_")
        following = next((t for t in game.turns[index + 1:] if t.player == turn.player), None)
        stop = game.turns.index(following) if following else len(game.turns)
        for between in range(index, stop):
            held = _seat_rack(game, between, turn.player)
            assert not listed - held, (turn.event.line, between)
            if following is not None and following.event.kind is EventKind.PLAY:
                assert not Counter(following.rack or ()) - held, (following.event.line, between)


@pytest.mark.parametrize(("name", "line", "rack"), [
    ("liwords__r20_peter.gcg", 20, "?BCHRUY"),
    ("liwords__josh_nationals_round_12.gcg", 12, "CEIRSW + 1 unknown"),
    ("macondo__phony_tiles_returned.gcg", 21, "BEKOV + 2 unknown"),
    ("macondo__phony_tiles_returned.gcg", 29, "BELRRU + 1 unknown"),
    ("liwords__josh_nationals_round_29.gcg", 15, "ACGHIO + 1 unknown"),
])
def test_rack_shown_after_a_withdrawal(name: str, line: int, rack: str) -> None:
    """What the withdrawal line and the player's next line tell of the rack together."""
    game = load(CORPUS / "gcg" / name)
    index = next(i for i, t in enumerate(game.turns) if t.event.line == line)
    turn = game.turns[index]
    for shown in (index, index + 1):  # the withdrawal, and the opponent's move after it
        lines = player_lines(game, game.turns[shown].position)
        assert lines[turn.player].rack == rack


# -- racks told by later lines --------------------------------------------------------


def _racks_at(name: str, line: int) -> tuple[list[str | None], int]:
    """The racks the score table shows after the event on ``line``, and the unseen count."""
    game = load(CORPUS / "gcg" / name)
    index = next(i for i, t in enumerate(game.turns) if t.event.line == line)
    position = game.turns[index].position
    return ([p.rack for p in player_lines(game, position)],
            sum(unseen_tiles(game.rules, position).values()))


@pytest.mark.parametrize(("name", "line", "seat", "rack", "unseen"), [
    # Bag empty after line 28: line 32 ILNNU is what is left after TE., nothing drawn.
    ("liwords__josh_nationals_round_12.gcg", 28, 1, "EILNNTU", 3),
    ("liwords__josh_nationals_round_12.gcg", 27, 1, "EILNNTU", 8),
    # The end-of-game line (?ARR) is the rest of KEP's rack.
    ("liwords__r20_peter.gcg", 27, 0, "?AEKPRR", 3),
    ("liwords__r20_peter.gcg", 26, 0, "?AEKPRR", 8),
    # ?R kept from the rack after the phoney, O played next, and an R of the two in
    # the rack after it, which one drawn tile cannot account for.
    ("liwords__r20_peter.gcg", 24, 0, "?OR + 4 unknown", 13),
    ("liwords__josh_nationals_round_8.gcg", 26, 0, "AIPQRSU", 4),
    ("liwords__josh_nationals_round_15.gcg", 29, 1, "AIINOSW", 7),
    ("liwords__josh_nationals_round_17.gcg", 27, 0, "EEJORUY", 3),
    ("liwords__josh_nationals_round_21.gcg", 30, 1, "?HIMNRY", 7),
    ("macondo__phony_tiles_returned.gcg", 32, 1, "EEJLORT", 6),
    # After the phoney R... the rack it was made from less the R; the tile drawn
    # after it and two more are unknown.
    ("MAGPIE-DATA__success_long_game.gcg", 48, 0, "JOST + 3 unknown", 7),
    ("MAGPIE-DATA__success_long_game.gcg", 47, 0, "JORST + 2 unknown", 10),
    # The leave stays: EOQRSTW less the exchanged QW, with F from the next line.
    ("MAGPIE-DATA__success_long_game.gcg", 35, 0, "EFORST + 1 unknown", 20),
    ("MAGPIE-DATA__exchange_with_seven_in_bag.gcg", 22, 0, "D + 6 unknown", 14),
    # A challenge bonus line gives the rack after the challenged play.
    ("MAGPIE-DATA__incomplete_after_five_point_challenge.gcg", 24, 1, "DEIINRR", 24),
    # Four players and the bag empty: nothing tells Mark's four other tiles.
    ("quackle__multiplayer-crash.gcg", 20, 0, "DFI + 4 unknown", 25),
])
def test_racks_later_lines_tell(name: str, line: int, seat: int, rack: str,
                                unseen: int) -> None:
    racks, count = _racks_at(name, line)
    assert (racks[seat], count) == (rack, unseen)


def test_r20_peter_turn_pages_show_the_rack_the_end_line_tells(corpus_site) -> None:
    """Turns 20-21: KEP and the (?ARR) Josh scored for at the end."""
    slug = corpus_site / "liwords-r20-peter"
    for number in (20, 21):
        html = (slug / f"{number}.html").read_text()
        assert re.search(r"Peter (to move )?\d+ \([-+]\d+\) \?AEKPRR ", _score_table(html))
        assert "unknown" not in _score_table(html)
    text = text_of((slug / "21.html").read_text())
    assert " ?AEKPRR/ANO 327/489 0 " in text  # the CGP agrees
    assert "Unseen by Peter: 3 " in text  # Josh's ANO, the bag empty


def _off_board(game, position) -> Counter[str]:
    counts = Counter(game.rules.distribution.counts)
    counts.subtract(RACK_LABELS[c] for c in position.cells if c)
    return counts


def _next_lines(game, index: int, seat: int):
    """The events of ``seat`` after turn ``index`` (index -1: the start) up to and
    with the first that changes the rack, and the end-of-game line that names it."""
    for turn in game.turns[index + 1:]:
        event = turn.event
        if event.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
            if (turn.player == seat) == (event.kind is EventKind.END_RACK_PENALTY):
                yield turn
            continue
        if turn.player == seat:
            yield turn
            if event.kind in (EventKind.PLAY, EventKind.EXCHANGE, EventKind.WITHDRAWAL):
                return


# Records whose own whole racks claim more of a tile than the set has off the board.
_RACKS_BEYOND_THE_SET = {"liwords__r16_lola.gcg", "quackle__multiplayer-crash.gcg",
                         "MAGPIE-DATA__exchange_with_seven_in_bag.gcg"}


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_no_rack_shown_is_more_than_the_record_allows(path: Path) -> None:
    """Every rack a position shows: no more tiles than held (no negative unknown
    count), no tile the set no longer has off the board, and nothing a later line
    of the same rack contradicts: the tiles of a whole rack field (or the
    end-of-game tiles) hold every tile shown, and a whole rack shown holds what the
    next move plays."""
    game = load(path)
    positions = [(-1, game.start)] + [(i, t.position) for i, t in enumerate(game.turns)]
    for index, position in positions:
        off_board = _off_board(game, position)
        for line in player_lines(game, position):
            assert line.rack is None or " + -" not in line.rack
        for seat, rack in enumerate(position.racks):
            where = (path.name, game.turns[index].event.line if index >= 0 else 0, seat)
            held = position.rack_sizes[seat]
            shown = Counter(t for t in rack or () if t != "_")
            assert sum(shown.values()) <= max(held, 0), where
            if path.name not in _RACKS_BEYOND_THE_SET:
                assert not shown - off_board, where
            for turn in _next_lines(game, index, seat):
                event = turn.event
                if event.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
                    tiles = game.rules.codec.split(event.tiles, allow="?")
                    assert not shown - Counter(t.upper() for t in tiles), where
                elif event.kind is EventKind.WITHDRAWAL:
                    break  # the rack of the phoney, not this one
                elif turn.rack is not None and "_" not in turn.rack and len(turn.rack) == held:
                    assert not shown - Counter(turn.rack), where
                if event.kind is EventKind.PLAY and sum(shown.values()) == held:
                    played = Counter(RACK_LABELS[t.label] for t in turn.placed)
                    if not played - Counter(turn.rack or played):  # the line agrees
                        assert not played - shown, where


R20 = CORPUS / "gcg" / "liwords__r20_peter.gcg"


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory) -> Path:
    event = tmp_path_factory.mktemp("corpus-event")
    for path in (R20, CORPUS / "gcg-invalid/MAGPIE-DATA__player_does_not_exist.gcg",
                 CORPUS / "gcg-invalid/MAGPIE-DATA__no_matching_token.gcg"):
        shutil.copy(path, event)
    out = tmp_path_factory.mktemp("corpus-site") / "site"
    run_build(str(event), "-o", str(out), "--quiet")
    return out


def _score_table(html: str) -> str:
    return text_of(html.split('<table class="score-table"', 1)[1].split("</table>", 1)[0])


def test_peters_rack_and_the_unseen_tiles_after_his_withdrawn_phoney(corpus_site) -> None:
    """r20_peter line 20: Peter holds ?BCHRUY again; line 23 lists only BCHUY."""
    slug = corpus_site / "liwords-r20-peter"
    for number in (16, 17):
        html = (slug / f"{number}.html").read_text()
        assert re.search(r"Peter (to move )?277 \(-\d+\) \?BCHRUY ", _score_table(html))
    turn17 = (slug / "17.html").read_text()
    text = text_of(turn17)
    # 11 in the bag and Josh's 7: nothing of Peter's own rack is unseen to him.
    assert "Unseen by Peter: 18 " in text and "11 in the bag" in text
    unseen = text_of(turn17.split('class="unseen"', 1)[1].split("</section>", 1)[0])
    assert "?" not in unseen and " R × 2 " in unseen  # Josh's R and one in the bag: not 3
    assert " ?BCHRUY/ADNRSYZ 277/420 " in text
    report = json.loads((slug / "game.json").read_text())
    assert [e["cgp"].split()[1] for e in report["events"][15:17]] == ["ADEFLNO/?BCHRUY",
                                                                       "?BCHRUY/ADNRSYZ"]
    # After the 7-tile phoney he holds 7 tiles nobody has seen: unknown, not empty.
    assert "Peter 392 (+11) unknown" in _score_table((slug / "15.html").read_text())


def test_a_game_stopped_by_an_error_is_not_in_progress(corpus_site) -> None:
    """player_does_not_exist holds the whole game, but its replay stops at line 30."""
    index = text_of((corpus_site / "index.html").read_text())
    assert ("stopped by an error at line 30: Tim Weiss 389 – Josh Castellano 400 1 error"
            in index)
    assert "in progress" not in index
    live = json.loads((corpus_site / "live.json").read_text())
    assert not any(game["live"] for game in live["games"])
    slug = corpus_site / "magpie-data-player-does-not-exist"
    for page in ("index.html", "1.html", "19.html"):
        assert "data-live" not in (slug / page).read_text()
    assert "stopped by an error at line 30" in text_of((slug / "index.html").read_text())


def test_replay_stops_at_a_malformed_line_and_the_last_page_names_it(corpus_site) -> None:
    """no_matching_token line 10 lacks its coordinate: nothing after it is replayed."""
    game = load(CORPUS / "gcg-invalid/MAGPIE-DATA__no_matching_token.gcg")
    assert game.stopped_at == 10 and len(game.turns) == 3
    assert [(d.line, d.severity.value) for d in game.diagnostics] == [(10, "error")]
    slug = corpus_site / "magpie-data-no-matching-token"
    last = (slug / "3.html").read_text()
    assert "Line 10: error: a play needs a rack, a coordinate" in text_of(last)
    assert "Line 11" not in text_of(last) and not (slug / "4.html").exists()


def test_a_spoiler_free_index_and_its_live_json_say_a_game_stopped(tmp_path) -> None:
    broken = (CORPUS / "gcg-invalid/MAGPIE-DATA__player_does_not_exist.gcg").read_bytes()
    event = make_event(tmp_path / "ev", {"g.gcg": broken, "event.yaml": "spoiler_free: true\n"})
    run_build(str(event), "-o", str(tmp_path / "o"))
    [game] = json.loads((tmp_path / "o/live.json").read_text())["games"]
    assert game["status"] == "stopped by an error" and game["live"] is False
    assert "stopped by an error 1 error" in text_of((tmp_path / "o/index.html").read_text())

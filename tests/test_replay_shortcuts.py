"""The replay's shortcuts give what the long way gives: a rack read against the game's
plain characters (``TileCodec.plain_symbols``) is the rack the codec splits, and a play's
rack labels taken while it is laid (``ScoredPlay.played``) are its tiles' labels."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pgm.board import LAYOUTS, parse_coordinate
from pgm.crossword import _Replay
from pgm.crossword_rules import Rules
from pgm.diagnostics import DiagnosticSink
from pgm.gcg import Event, EventKind, GcgRecord, Player
from pgm.scoring import place_play
from pgm.tiles import RACK_LABELS, TileCodec, TileError, get_distribution

_SETS = [("english", ()), ("spanish", ()), ("catalan", ("L·L",)), ("english", ("QU",))]
_RACK_TEXT = st.text(alphabet="AEQUNñÑ·LlchCH?_.[]|Ü ", max_size=9)


def _replay(distribution: str, declared: tuple[str, ...]) -> _Replay:
    dist = get_distribution(distribution)
    record = GcgRecord("x.gcg", (Player("a", "A", 1), Player("b", "B", 2)), (), {})
    rules = Rules(dist, LAYOUTS["CrosswordGame"], "", TileCodec(dist, declared))
    return _Replay(record, rules, DiagnosticSink("x.gcg"))


def _rack_the_long_way(codec: TileCodec, written: str) -> tuple[str, ...] | None:
    """``_Replay._rack`` before the shortcut: always through the codec."""
    if not written or written.upper() == "UNKNOWN":
        return None
    text = written.replace(".", "?")
    try:
        labels = codec.split(text, allow="?_")
    except TileError:
        return None
    if len(labels) == len(text) and text.isascii():
        return tuple(text.upper())
    return tuple(map(str.upper, labels))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_SETS), _RACK_TEXT)
def test_rack_shortcut_reads_as_the_codec(tile_set: tuple[str, tuple[str, ...]],
                                          written: str) -> None:
    run = _replay(*tile_set)
    event = Event(1, EventKind.PASS, "a", written, 0, 0)
    assert run._rack(event) == _rack_the_long_way(run.rules.codec, written)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["8D", "H4", "1A", "O1", "15A"]),
       st.text(alphabet="AEIRSTaeQU.", min_size=1, max_size=7))
def test_played_labels_are_the_placed_tiles_labels(coordinate: str, word: str) -> None:
    dist = get_distribution("english")
    placement = parse_coordinate(coordinate)
    assert placement is not None
    cells = ("",) * 225
    try:
        scored = place_play(cells, LAYOUTS["CrosswordGame"], dist, placement, list(word))
    except ValueError:
        return
    assert scored.played == [RACK_LABELS[t.label] for t in scored.placed]

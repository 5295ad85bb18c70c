"""Which board and tile set a crossword record is played with.

Order of precedence: the record (``#tile-distribution``, ``#lexicon``, ``#board-layout``),
then the event configuration, then English on the 15x15 board. A record that names no
tile set but uses letters English lacks (a German game without ``#lexicon``), or puts
down more of a letter than the English set holds (a French game's thirteen E's), gets
the first distribution whose alphabet and counts fit, with a warning saying so.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass

from pgm.board import LAYOUTS, Layout, get_layout, parse_coordinate
from pgm.diagnostics import DiagnosticSink
from pgm.gcg import EventKind, GcgRecord
from pgm.tiles import (
    BLANK,
    DEFAULT_DISTRIBUTION,
    UNKNOWN,
    Distribution,
    TileCodec,
    TileError,
    distribution_for_lexicon,
    distribution_names,
    get_distribution,
)

_RACK = BLANK + UNKNOWN + "."
"""What a rack field may hold besides tiles."""
KNOWN_GAME_TYPES = {"classic", "crosswordgame", "scrabble", "wordsmog"}
_INFERENCE_ORDER = ("english", "german", "french", "spanish", "catalan", "polish", "dutch",
                    "norwegian", "swedish", "slovene")


@dataclass(frozen=True)
class Rules:
    distribution: Distribution
    layout: Layout
    lexicon: str
    codec: TileCodec
    orientation: str = "numbered-rows"


def choose_rules(record: GcgRecord, sink: DiagnosticSink, *, distribution: str | None = None,
                 board: str | None = None, lexicon: str | None = None) -> Rules:
    line = _pragma_line(record)
    layout = _layout(record, sink, line, board)
    lexicon_name = record.lexicon or lexicon or ""
    # a record's lexicon pgm does not know (FISF) leaves the tile set to the event's
    event_default = distribution or (distribution_for_lexicon(lexicon) if lexicon else None)
    dist = _for_board(_distribution(record, sink, line, lexicon_name, event_default, layout),
                      layout)
    declared = _declared_tiles(record, sink, dist)
    game_type = record.pragmas.get("game-type", "")
    if game_type and game_type.lower() not in KNOWN_GAME_TYPES:
        sink.warning(_line_of(record, "game-type", line),
                     f"#game-type {game_type} is not supported; the game is replayed as a "
                     f"classic crossword game{_meant_game_type(game_type)}")
    return Rules(dist, layout, lexicon_name, TileCodec(dist, declared),
                 record.pragmas.get("orientation", "numbered-rows"))


def _for_board(dist: Distribution, layout: Layout) -> Distribution:
    """The set's super variant on a board larger than 15x15 (twice the tiles), if it
    has one."""
    if layout.size > 15 and not dist.name.endswith("_super"):
        super_name = dist.name + "_super"
        if super_name in distribution_names():
            return get_distribution(super_name)
    return dist


def _meant_game_type(game_type: str) -> str:
    """``: did you mean upwords?`` for a near miss of a game type pgm plays (an Upwords
    record replayed as Scrabble shows a 15x15 board with premiums), else the list."""
    known = sorted(KNOWN_GAME_TYPES | {"upwords"})
    close = difflib.get_close_matches(game_type.lower(), known, n=1, cutoff=0.7)
    return f": did you mean {close[0]}?" if close else f" (known: {', '.join(known)})"


def _declared_tiles(record: GcgRecord, sink: DiagnosticSink, dist: Distribution) -> tuple[str, ...]:
    """``#tile`` declarations that name tiles of the set; others are reported and ignored."""
    declared = []
    for upper, _lower in record.tile_declarations:
        if upper.strip("[]").upper() in dist.tiles:
            declared.append(upper.strip("[]").upper())
        else:
            sink.warning(_tile_pragma_line(record, upper),
                         f"#tile {upper}: the {dist.name} set has no such tile")
    return tuple(declared)


def _tile_pragma_line(record: GcgRecord, upper: str) -> int:
    return dict(record.tile_lines).get(upper, 1)


def _pragma_line(record: GcgRecord) -> int:
    """Where a problem with the record as a whole is reported: its first event."""
    return record.events[0].line if record.events else 1


def _line_of(record: GcgRecord, keyword: str, default: int) -> int:
    """The line of the ``#keyword`` pragma, for a problem with its value."""
    return record.pragma_lines.get(keyword, default)


def _layout(record: GcgRecord, sink: DiagnosticSink, line: int, default: str | None) -> Layout:
    for name, source in ((record.pragmas.get("board-layout"), "#board-layout"),
                         (default, "the event configuration")):
        if not name:
            continue
        layout = get_layout(name)
        if layout is not None:
            return layout
        where = _line_of(record, "board-layout", line) if source == "#board-layout" else line
        sink.warning(where, f"board {name!r} from {source} is unknown "
                           f"(known: {', '.join(LAYOUTS)})")
    return LAYOUTS["CrosswordGame"]


def _distribution(record: GcgRecord, sink: DiagnosticSink, line: int, lexicon: str,
                  default: str | None, layout: Layout) -> Distribution:
    keyword, named = _named_distribution(record)
    if named:
        try:
            return get_distribution(named)
        except KeyError:
            sink.warning(_line_of(record, keyword, line),
                         f"#{keyword} {named!r} is unknown "
                               f"(known: {', '.join(distribution_names())})")
    from_lexicon = distribution_for_lexicon(lexicon) if lexicon else None
    if from_lexicon:
        return get_distribution(from_lexicon)
    if default:
        try:
            return get_distribution(default)
        except KeyError:
            sink.warning(line, f"distribution {default!r} from the event configuration is "
                               "unknown")
    return _infer(record, sink, line, lexicon, layout)


def _named_distribution(record: GcgRecord) -> tuple[str, str | None]:
    """The pragma naming the tile set, and the name: ``#tile-distribution french``, else
    Macondo's ``#tile-set english set`` (its first word)."""
    named = record.pragmas.get("tile-distribution")
    if named or not record.pragmas.get("tile-set"):
        return "tile-distribution", named
    return "tile-set", record.pragmas["tile-set"].split()[0]


def _infer(record: GcgRecord, sink: DiagnosticSink, line: int, lexicon: str,
           layout: Layout) -> Distribution:
    """The first set, in its size for the board, that has every letter played and as
    many of each as the plays put down."""
    english = _for_board(get_distribution(DEFAULT_DISTRIBUTION), layout)
    has_letters = _alphabet_fits(record, english)
    # too many of a tile for English (``13 E``); None when English lacks a letter played
    too_many = _too_many(record, english) if has_letters else None
    if has_letters and too_many is None:
        return english
    named = f"lexicon {lexicon!r} does not name a tile set" if lexicon else \
        "no #lexicon or #tile-distribution"
    why = f"the plays put down {too_many}, more than the english set holds" if too_many \
        else ""
    where = _line_of(record, "lexicon", line)
    for name in _INFERENCE_ORDER[1:]:
        dist = _for_board(get_distribution(name), layout)
        if _alphabet_fits(record, dist) and _too_many(record, dist) is None:
            fits = f"{why}; the letters fit" if why else "the letters played fit"
            sink.warning(where, f"{named}; {fits} the {name} set, which is used (set "
                                "'distribution' in event.yaml to choose)")
            return dist
    if why:
        sink.warning(where, f"{named}; {why}, and no other set fits them: the english set is "
                            "used (set 'distribution' in event.yaml to choose)")
    return english


def _too_many(record: GcgRecord, dist: Distribution) -> str | None:
    """The first tile the plays put down more often than ``dist`` holds (``14 E``), or
    None. Only the squares a play fills count, as records write the letters a play goes
    through as letters as often as ``.``; a play taken back (a withdrawal right after
    it) takes its tiles off again."""
    placed = Counter(_placed_tiles(record, _codec(record, dist)).values())
    for label, count in placed.items():
        info = dist.tiles.get(label)
        if info is not None and count > info.count:
            return f"{count} {label}"
    return None


def _placed_tiles(record: GcgRecord, codec: TileCodec) -> dict[tuple[int, int], str]:
    """The tile on each square the record's plays fill, without replaying them."""
    board: dict[tuple[int, int], str] = {}
    last: list[tuple[int, int]] = []
    for event in record.events:
        if event.kind is EventKind.WITHDRAWAL:
            for square in last:
                del board[square]
        where = parse_coordinate(event.position) if event.kind is EventKind.PLAY else None
        last = []
        if where is None:
            continue
        for offset, label in enumerate(codec.split(event.word, allow=".")):
            square = where.square(offset)
            if label != "." and square not in board:
                board[square] = label
                last.append(square)
    return board


def _codec(record: GcgRecord, dist: Distribution) -> TileCodec:
    return TileCodec(dist, tuple(upper for upper, _ in record.tile_declarations))


def _alphabet_fits(record: GcgRecord, dist: Distribution) -> bool:
    codec = _codec(record, dist)
    words = [event.word for event in record.events]
    racks = [event.rack for event in record.events if event.rack.upper() != "UNKNOWN"]
    if codec.plain("".join(words), allow=".") and codec.plain("".join(racks), allow=_RACK):
        return True  # each one is plain too: the usual case, told at once
    try:
        for word in words:
            codec.split(word, allow=".")
        for rack in racks:
            codec.split(rack, allow=_RACK)
    except TileError:
        return False
    return True

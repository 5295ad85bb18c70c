"""What the position pages show about a CGP position, in words.

A CGP line is terse (``tmr 824793/-2500; cr double;``); the page spells every field out
("Clocks: 13:44, -00:03", "Challenge rule: double — a wrong challenge loses a turn") so a
reader needs no copy of the format's description. Templates receive these frozen values
and only lay them out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pgm.board import Layout, plain_size
from pgm.cgp import CgpPosition, write_rack
from pgm.cgp_file import CgpEntry
from pgm.tiles import TILE_TEXTS, distribution_for_lexicon, rack_label

CHALLENGE_WORDS = {
    "single": "single — a phoney comes off, a wrong challenge costs nothing",
    "double": "double — a phoney comes off, a wrong challenge loses a turn",
    "triple": "triple — a wrong challenge loses the game",
    "void": "void — only valid words may be played",
    "5pt": "5 points — a wrongly challenged play earns 5 points",
    "10pt": "10 points — a wrongly challenged play earns 10 points",
}


@dataclass(frozen=True)
class RackLine:
    """One player of the position, in the order they move next."""

    order: int
    """1 for the player to move."""
    rack: str
    """As CGP writes it (``?`` for a blank), possibly partial; empty when unknown."""
    score: int
    spread: int
    clock: str | None
    """``mm:ss`` left, negative in overtime; None without ``tmr``."""
    to_move: bool
    moved_last: bool


@dataclass(frozen=True)
class Detail:
    """One field of the position in words: "Lexicon" — "CSW21"."""

    name: str
    value: str


@dataclass(frozen=True)
class Unseen:
    """Tiles neither on the board nor on the (known part of the) racks."""

    tiles: tuple[tuple[str, int], ...]
    total: int


def clock(milliseconds: int) -> str:
    """``mm:ss`` of a clock; overtime is negative and counts every started second, as
    overtime penalties count started minutes: -2500 ms is ``-00:03``."""
    if milliseconds >= 0:
        seconds = milliseconds // 1000
        return f"{seconds // 60:02d}:{seconds % 60:02d}"
    seconds = -(milliseconds // 1000)
    return f"-{seconds // 60:02d}:{seconds % 60:02d}"


def clocks(position: CgpPosition) -> tuple[str, ...] | None:
    """The ``tmr`` clocks in turn order; None when absent (or unreadable, which the
    reader has reported)."""
    value = position.operation("tmr")
    if value is None:
        return None
    try:
        times = [int(t) for t in value.split("/")]
    except ValueError:
        return None
    return tuple(clock(t) for t in times) if len(times) == len(position.racks) else None


def rack_lines(position: CgpPosition) -> tuple[RackLine, ...]:
    shown = clocks(position)
    count = len(position.racks)
    lines = []
    for order, (rack, score) in enumerate(zip(position.racks, position.scores, strict=False)):
        others = [s for i, s in enumerate(position.scores) if i != order]
        lines.append(RackLine(order + 1, write_rack(rack), score,
                              score - max(others) if others else 0,
                              shown[order] if shown else None, order == 0,
                              count > 1 and order == count - 1))
    return tuple(lines)


def _integer(value: str, unit: str) -> str:
    return f"{value} {unit}{'' if value in ('1', '-1') else 's'}"


def details(position: CgpPosition) -> tuple[Detail, ...]:
    """Every field besides board, racks and scores, in words; opcodes pgm does not know
    are listed as written."""
    op = position.operation
    found: list[Detail] = []
    lexicon = op("lex")
    found.append(Detail("Lexicon", lexicon or "none: the position does not name one"))
    for seat in ("1", "2"):
        if op(f"l{seat}"):
            found.append(Detail(f"Lexicon of player {seat}", op(f"l{seat}") or ""))
    distribution = position.distribution.name.replace("_", " ")
    if op("ld"):
        found.append(Detail("Letter distribution", distribution))
    elif lexicon and distribution_for_lexicon(lexicon):
        found.append(Detail("Letter distribution", f"{distribution} (from the lexicon)"))
    else:
        found.append(Detail("Letter distribution",
                            f"{distribution} ({_default_distribution(lexicon)})"))
    found.append(Detail("Board", board_words(position.layout, op("bdn"))))
    if op("cr"):
        rule = op("cr") or ""
        found.append(Detail("Challenge rule", CHALLENGE_WORDS.get(rule.lower(), rule)))
    if op("bb"):
        found.append(Detail("Bingo bonus", _integer(op("bb") or "", "point")))
    if op("etl"):
        found.append(Detail("Exchanges", f"allowed with at least {op('etl')} tiles in the bag"))
    if op("mcnz"):
        found.append(Detail("Game ends after",
                            _integer(op("mcnz") or "", "scoreless turn") + " in a row"))
    found.append(Detail("Scoreless turns just before", str(position.zeros)))
    shown = clocks(position)
    if shown:
        found.append(Detail("Clocks", ", ".join(
            f"{t} ({'to move' if i == 0 else f'player {i + 1}'})"
            for i, t in enumerate(shown))))
    elif op("tmr"):
        found.append(Detail("Clocks", op("tmr") or ""))
    if op("ti"):
        found.append(Detail("Time increment", _seconds(op("ti") or "") + " per move"))
    if op("to"):
        found.append(Detail("Overtime allowed", _clock_text(op("to") or "")))
    if op("var"):
        found.append(Detail("Variant", op("var") or ""))
    if op("gid"):
        found.append(Detail("Game id", op("gid") or ""))
    known = {"lex", "l1", "l2", "ld", "bdn", "cr", "bb", "etl", "mcnz", "tmr", "ti", "to",
             "var", "gid", "lm"}
    found += [Detail(f"Opcode {o.name}", o.value) for o in position.operations
              if o.name not in known]
    return tuple(found)


def _default_distribution(lexicon: str | None) -> str:
    """Why the distribution is pgm's default: a bare "(not given)" after it read as if
    the page contradicted itself."""
    if lexicon:
        return f"the default: the position names no distribution, and pgm knows none for {lexicon}"
    return "the default: the position names neither a distribution nor a lexicon"


def board_words(layout: Layout, named: str | None) -> str:
    """The board in words, with what ``bdn`` said: "CrosswordGame, 15×15 (chosen by its
    size: the position does not name one)", "plain 11x11: no premium squares, as no
    known board is 11×11 (chosen by its size: ...)"."""
    size = layout.size
    board = f"{layout.name}, {size}×{size}"
    if layout.plain:
        board = (f"{layout.name}: no premium squares"
                 + ("" if named and plain_size(named) else
                    f", as no known board is {size}×{size}"))
    if named is None:
        # the rows chose it (pgm.cgp): a bare "(not given)" read as a contradiction
        return f"{board} (chosen by its size: the position does not name one)"
    if named.lower() != layout.name.lower() and plain_size(named) != size:
        return f"{named} (drawn as {board})"
    return board


def _seconds(value: str) -> str:
    try:
        return f"{int(value) / 1000:g} s"
    except ValueError:
        return value


def _clock_text(value: str) -> str:
    try:
        return clock(int(value))
    except ValueError:
        return value


def unseen(position: CgpPosition) -> Unseen:
    """The bag minus the board (a blank as ``?``) minus the racks, each tile as the
    crossword pages show it (``[L·L]``: a tile, not three)."""
    left = position.distribution.full_bag()
    left.subtract(Counter(rack_label(c) for c in position.cells if c))
    left.subtract(Counter(t for rack in position.racks for t in rack))
    tiles = tuple((TILE_TEXTS[label], left[label]) for label in position.distribution.tiles
                  if left[label] > 0)
    return Unseen(tiles, sum(count for _, count in tiles))


def summary(entry: CgpEntry) -> str:
    """One line about a position for the list of the set."""
    position = entry.position
    if position is None:
        return "could not be read"
    tiles = sum(1 for c in position.cells if c)
    scores = "–".join(str(s) for s in position.scores)
    parts = [f"{tiles} tile{'s' if tiles != 1 else ''} on the board", f"scores {scores}"]
    rack = write_rack(position.racks[0]) if position.racks else ""
    if rack:
        parts.append(f"rack to move {rack}")
    if entry.last_move:
        parts.append(f"last move {entry.last_move.words}")
    return " · ".join(parts)

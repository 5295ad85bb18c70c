"""The readings of a play line that pgm tries when the line disagrees with itself.

Each undoes one kind of slip in typing multi-letter tiles and blanks (see
``pgm.crossword_typos``, which chooses among them): a tile in the other case, the
letters of a tile typed for it (Spanish ``CH``, Catalan ``LL``), Catalan ``L·L`` typed
with a full stop. A reading is the play's tiles and rack, what was wrong with the line
as written and how the record should write it, for the warning.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from pgm.board import Placement
from pgm.crossword_racks import rack_tiles
from pgm.crossword_rules import Rules
from pgm.crossword_state import Rack
from pgm.gcg import Event
from pgm.scoring import RACK_SIZE, Cells, PlacementError, ScoredPlay, square_name
from pgm.tiles import BLANK, MIDDLE_DOT, UNKNOWN, is_blank, take, tile_text

CASE = "case"
"""A blank typed in capitals, a tile in lower case, a multi-letter tile in both."""
RUN_IN = "run-in"
"""A multi-letter tile typed as its letters where they are never two tiles (Spanish)."""
LOOK_ALIKE = "look-alike"
"""A multi-letter tile typed as letters that may also be tiles of their own (Catalan LL)."""
DOT = "dot"
"""Catalan ``L·L`` typed with a full stop, on a square that is empty."""
CASE_ADVICE = "blanks are written in lower case, other tiles in capitals"


class Trial(NamedTuple):
    """One reading of a play line: its tiles, its rack, and how it fares on the board."""

    labels: list[str]
    """The play's tiles, ``.`` for a played-through square."""
    rack: Rack
    scored: ScoredPlay | None
    """The play on the board; None when it cannot be placed (``error``)."""
    error: PlacementError | None
    kind: str = ""
    """The slip this reading undoes; empty for the line as written."""
    problem: str = ""
    """What is wrong with the line as written, for the warning."""
    advice: str = ""
    """How the record should write it."""

    @property
    def rack_fits(self) -> bool | None:
        """Whether the rack holds the tiles played and no more than a rack holds; None
        when the rack is not known whole."""
        rack = self.rack
        if rack is None or UNKNOWN in rack or self.scored is None:
            return None
        return len(rack) <= RACK_SIZE and not take(rack, self.scored.played)[1]

    def agrees(self, score: int) -> bool:
        """Placed, scoring ``score``, from a rack that holds it, in tiles of one case."""
        return (self.scored is not None and self.scored.score == score
                and self.rack_fits is not False and not mixes_cases(self.labels))

    def key(self) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
        """Readings that put the same tiles down from the same rack are one."""
        return tuple(self.labels), None if self.rack is None else tuple(sorted(self.rack))


def mixes_cases(labels: Sequence[str]) -> bool:
    """Whether a tile is written in capitals and lower case both (``[Ch]``)."""
    return any(len(label) > 1 and label != label.upper() and label != label.lower()
               for label in labels)


def new_tiles(rules: Rules, cells: Cells, placement: Placement, labels: Sequence[str]
              ) -> list[bool]:
    """For each tile written, whether the play puts it down (its square is empty)."""
    size = rules.layout.size
    new = []
    for offset, label in enumerate(labels):
        row, col = placement.square(offset)
        on_board = 0 <= row < size and 0 <= col < size
        new.append(label != "." and on_board and not cells[row * size + col])
    return new


_Alternative = tuple[list[str], Rack, str, str, str]
"""A reading before it is placed: labels, rack, kind, problem, advice (the fields of
:class:`Trial` but the board's)."""


def alternatives(rules: Rules, cells: Cells, placement: Placement, event: Event,
                 written: Trial, new: Sequence[bool], pairs: RunIns
                 ) -> Iterator[_Alternative]:
    """The readings of a play line other than ``written``, which the line disagrees
    with; ``new`` tells which of its tiles the play puts down (:func:`new_tiles`), and
    ``pairs`` where its letters spell a tile (:func:`run_in_pairs`)."""
    yield from _case_readings(event, written, new)
    yield from _run_in_readings(rules, event, written, pairs.certain, certain=True)
    yield from _run_in_readings(rules, event, written, pairs.look_alike, certain=False)
    yield from _dot_readings(rules, cells, placement, event, written)


def _case_readings(event: Event, written: Trial, new: Sequence[bool]
                   ) -> Iterator[_Alternative]:
    """Tiles in the other case: blanks the rack lacks written in lower case, tiles it
    lacks in capitals (as many as it lacks), a tile in both cases in either."""
    labels, rack = written.labels, written.rack
    if written.scored is None:
        return
    mixed = [i for i, label in enumerate(labels) if new[i] and mixes_cases([label])]
    flips: list[int] = []
    most = 0
    if rack is not None and UNKNOWN not in rack:
        played = Counter(written.scored.played)
        held = Counter(rack)
        lacking, spare = played - held, held - played
        flips = [i for i, label in enumerate(labels) if new[i] and i not in mixed and (
            (label == label.upper() and lacking[label] and spare[BLANK])
            or (is_blank(label) and lacking[BLANK] and spare[label.upper()]))]
        most = min(len(flips), sum(lacking.values()))
    if not flips and not mixed:
        return
    for size in range(0 if mixed else 1, most + 1):
        for flipped in itertools.combinations(flips, size):
            for cases in itertools.product((str.upper, str.lower), repeat=len(mixed)):
                tried = list(labels)
                for i in flipped:
                    tried[i] = labels[i].upper() if is_blank(labels[i]) else labels[i].lower()
                for i, case in zip(mixed, cases, strict=True):
                    tried[i] = case(labels[i])
                yield (tried, rack, CASE,
                       _case_problem(labels, tried, flipped, mixed, event.rack),
                       CASE_ADVICE)


def _case_problem(labels: Sequence[str], tried: Sequence[str], flipped: Sequence[int],
                  mixed: Sequence[int], rack: str) -> str:
    if mixed:
        return f"{tile_text([labels[mixed[0]]])} mixes capitals and lower case"
    first = flipped[0]
    if is_blank(labels[first]):
        return (f"a tile typed in lower case? {tile_text([labels[first]])} is a blank, but "
                f"the rack {rack} has {tile_text([tried[first]])} and no blank to spare")
    return (f"a blank typed as a capital? {tile_text([labels[first]])} is not on the rack "
            f"{rack}, but a blank is")


class RunIns(NamedTuple):
    """Where two tiles of a play written side by side as bare letters spell a
    multi-letter tile: the index of the first of each pair."""

    certain: list[int]
    """Of a tile whose letters are never two tiles (Spanish CH)."""
    look_alike: list[int]
    """Of a tile whose letters may be (Catalan LL, also two L tiles)."""


def run_in_pairs(rules: Rules, event: Event, written: Trial, new: Sequence[bool]) -> RunIns:
    """The pairs of tiles of ``written`` that spell a multi-letter tile: of a sure slip
    left to right, as the spec splits tiles (``CHH`` is CH and H); of one that may not
    be, every pair, as each is a reading of its own (``ALLL``: A L·L L or A L L·L).
    When the play can be placed, only pairs of tiles it puts down (``new``) count: a C
    already on the board is no slip of this line."""
    found = RunIns([], [])
    run_ins = rules.codec.run_ins
    upper = event.word.upper()
    if not run_ins or not any(letters in upper for letters in run_ins):
        return found
    bare = rules.codec.bare(event.word)
    labels = written.labels
    if bare is None or len(bare) != len(labels):
        return found  # tiles separated by | are separate as written
    placed = written.scored is not None
    i = 0
    while i < len(labels) - 1:
        letters = (labels[i] + labels[i + 1]).upper()
        tile = run_ins.get(letters)
        if (tile is not None and bare[i] and bare[i + 1]
                and (not placed or (new[i] and new[i + 1]))):
            if tile == letters:
                found.certain.append(i)
                i += 2
                continue
            found.look_alike.append(i)
        i += 1
    return found


def _run_in_readings(rules: Rules, event: Event, written: Trial, pairs: list[int], *,
                     certain: bool) -> Iterator[_Alternative]:
    """The ``pairs`` of :func:`run_in_pairs` read as their tile, with the rack's letters
    read so too or not: all pairs at once for a sure slip (``certain``), each alone for
    one that may not be; and a rack too big with such letters, read so (alone)."""
    kind = RUN_IN if certain else LOOK_ALIKE
    run_ins = rules.codec.run_ins
    for group in ([pairs] if certain else [[i] for i in pairs]) if pairs else []:
        letters = [(written.labels[i] + written.labels[i + 1]).upper() for i in group]
        problem = pairs_text(written.labels, group, certain)
        advice = how_written(rules, {run_ins[pair] for pair in letters})
        rack = _rack_merged(rules, event.rack, letters, every=certain)
        spans = [(i, i + 2, run_ins[pair]) for i, pair in zip(group, letters, strict=True)]
        for tried in _folded(written.labels, spans):
            yield tried, rack, kind, problem, advice
            if rack != written.rack:
                yield tried, written.rack, kind, problem, advice
    rack = written.rack
    if rack is not None and len(rack) > RACK_SIZE:
        letters = [pair for pair, tile in run_ins.items() if (pair == tile) == certain]
        merged = _rack_merged(rules, event.rack, letters, every=True) if letters else rack
        if merged is not None and merged != rack and len(merged) <= RACK_SIZE:
            yield (written.labels, merged, kind,
                   f"the rack {event.rack} holds {len(rack)} tiles as written",
                   how_written(rules, _merged_tiles(rules, rack, merged)))


def _folded(labels: Sequence[str], spans: Sequence[tuple[int, int, str]]
            ) -> Iterator[list[str]]:
    """``labels`` with each span ``(start, end, tile)`` of them read as that one tile:
    in capitals or lower case as the letters it is read from are written, and both
    ways when they differ."""
    options = [_cases(tile, labels[start], labels[end - 1]) for start, end, tile in spans]
    for tiles in itertools.product(*options):
        folded = list(labels)
        for (start, end, _tile), tile in sorted(zip(spans, tiles, strict=True), reverse=True):
            folded[start:end] = [tile]
        yield folded


def _cases(tile: str, first: str, last: str) -> list[str]:
    """``tile`` as the letters it is read from are written: a blank when both are, a
    tile when neither is, and either when they differ."""
    if is_blank(first) and is_blank(last):
        return [tile.lower()]
    if not is_blank(first) and not is_blank(last):
        return [tile]
    return [tile, tile.lower()]


def _rack_merged(rules: Rules, text: str, letters: Sequence[str], *, every: bool) -> Rack:
    """The rack written ``text`` with ``letters`` (``CH``) read as their tile where
    written bare: all such pairs (``every``), or one for each of ``letters``."""
    rack = rack_tiles(rules, text) if text else None
    if rack is None:
        return rack
    wanted = Counter(letters)

    def join(pair: str) -> bool:
        if wanted[pair] > 0 or (every and pair in wanted):
            wanted[pair] -= 1
            return True
        return False

    return tuple(rules.codec.joined(text, rack, join))


def _merged_tiles(rules: Rules, before: Sequence[str], after: Rack) -> set[str]:
    """The multi-letter tiles ``after`` has that ``before`` has not."""
    return (set(after or ()) - set(before)) & set(rules.codec.run_ins.values())


def pairs_text(labels: Sequence[str], group: Sequence[int], certain: bool) -> str:
    """``C and H played side by side as two tiles`` for the pairs at ``group``."""
    pairs = ", and ".join(f"{labels[i]} and {labels[i + 1]}" for i in group)
    each = " each" if len(group) > 1 else ""
    return f"{pairs}{',' if len(group) > 1 else ''} played{each} side by side as two tiles" \
        if certain else f"{pairs} played as two tiles"


def how_written(rules: Rules, tiles: set[str]) -> str:
    """What the set has and how it is written: ``the spanish set has a CH tile,
    written [CH] (or #tile CH ch)``."""
    ordered = sorted(tiles)
    name = rules.distribution.name
    if len(ordered) == 1:
        has = f"{'an' if ordered[0][:1] in _VOWEL_SOUNDS else 'a'} {ordered[0]} tile"
    else:
        has = " and ".join(ordered) + " tiles"
    if all(t in rules.distribution.bracket_only for t in ordered):
        written = " and ".join(f"[{t}]" for t in ordered)
        declared = " and ".join(f"#tile {t} {t.lower()}" for t in ordered)
        return f"the {name} set has {has}, written {written} (or {declared})"
    return f"the {name} set has {has}, written " + " and ".join(f"{t} or [{t}]"
                                                               for t in ordered)


_VOWEL_SOUNDS = "AEFHILMNORSX"
"""Letters whose name begins with a vowel sound: an LL tile, a CH tile."""


def _dot_readings(rules: Rules, cells: Cells, placement: Placement, event: Event,
                  written: Trial) -> Iterator[_Alternative]:
    """``L.L`` read as the ``L·L`` tile where its ``.`` marks an empty square (no
    played-through tile), which the play cannot be placed with as written."""
    dotted = {label.replace(MIDDLE_DOT, "."): label
              for label in rules.distribution.multi_letter_labels if MIDDLE_DOT in label}
    if written.scored is not None or not dotted:
        return
    labels = written.labels
    size = rules.layout.size
    spans = []
    for i in range(1, len(labels) - 1):
        row, col = placement.square(i)
        tile = dotted.get(f"{labels[i - 1]}.{labels[i + 1]}".upper())
        if (labels[i] == "." and tile is not None
                and 0 <= row < size and 0 <= col < size and not cells[row * size + col]):
            spans.append((i - 1, i + 2, tile))
    if not spans:
        return
    text = event.rack
    for spelling, tile in dotted.items():
        text = text.replace(spelling, tile)
    rack = rack_tiles(rules, text) if text else None
    problem = (f"'.' marks a played-through tile at "
               f"{square_name(*placement.square(spans[0][0] + 1))}, but that square is empty")
    advice = how_written(rules, set(dotted.values()))
    for tried in _folded(labels, spans):
        yield tried, rack, DOT, problem, advice


def reread_rack(rules: Rules, text: str, rack: Rack) -> tuple[Rack, str]:
    """A rack (written ``text``) of more tiles than a rack holds, with the letters of a
    tile that they always stand for written bare (Spanish ``CH``): read as that tile
    when the rack then fits (``TileCodec.rack_reading``), with a warning; else the rack
    as written, and no warning."""
    if rack is None or len(rack) <= RACK_SIZE:
        return rack, ""
    merged = tuple(rules.codec.rack_reading(text, rack, RACK_SIZE))
    if merged == rack:
        return rack, ""
    return merged, _rack_note(rules, text, rack, merged)


def reread_exchange(rules: Rules, event: Event, rack: Rack, tiles: list[str]
                    ) -> tuple[Rack, list[str], str]:
    """An exchange's rack and its tiles (``tiles``, as split) as read: the rack as
    :func:`reread_rack` reads it, and when it is read otherwise, the tiles exchanged
    read the same way (``RR`` as the RR tile of the rack ``SE[RR]ANOS``), with one
    warning. Else both as written, and no warning."""
    codec = rules.codec
    if rack is None or len(rack) <= RACK_SIZE:
        return rack, tiles, ""
    merged = tuple(codec.rack_reading(event.rack, rack, RACK_SIZE))
    if merged == rack:
        return rack, tiles, ""
    joined = codec.joined(event.tiles, [t.upper() for t in tiles],
                          codec.certain_run_ins.__contains__)
    if len(joined) == len(tiles):
        return merged, tiles, _rack_note(rules, event.rack, rack, merged)
    also = f", and the tiles exchanged, {event.tiles}, as {codec.write(joined)}"
    return merged, joined, _rack_note(rules, event.rack, rack, merged, also)


def _rack_note(rules: Rules, text: str, rack: tuple[str, ...], merged: tuple[str, ...],
               also: str = "") -> str:
    """The warning for a rack read as :func:`reread_rack` reads it; ``also`` says what
    else was read so."""
    return (f"the rack {text} holds {len(rack)} tiles as written; read as the rack "
            f"{rules.codec.write(merged)} ({len(merged)} tiles){also}; "
            f"{how_written(rules, _merged_tiles(rules, rack, merged))}")

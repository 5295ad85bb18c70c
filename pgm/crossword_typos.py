"""Plays whose tiles are typed otherwise than the record means, and how to read them.

Multi-letter tiles and blanks are where annotators slip: a blank typed in capitals
(``OER[CH]N`` for ``OER[ch]N``), a tile typed in lower case or in both (``[Ch]``), a
Spanish ``[CH]`` typed as the letters ``CH`` (two tiles to pgm, as the spec says), a
Catalan ``L·L`` typed ``L.L`` or ``LL``. Read as written, such a play disagrees with its
own line: the rack lacks the tiles played or holds too many, the board scores another
figure, or the play cannot be placed at all; and the tiles it puts down are then wrong
for the rest of the game, which warns of them again and again.

So a play that disagrees with its line is read again with each such slip undone. When
exactly one reading agrees with the line (the rack holds its tiles, the board scores the
recorded figure, and the play can be placed) it is used, with one warning that says what
was read and why; when the play cannot be placed as written, a reading that can is used
if it is the only one. Otherwise the play is kept as written, and its warnings say which
reading would agree. A slip that is always one (a Spanish C beside an H) is warned of even
when the line agrees; one that need not be (Catalan LL is also two L tiles) is read
otherwise only when the rack, not the score alone, says so.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from pgm.board import Placement
from pgm.crossword_readings import (
    CASE_ADVICE,
    DOT,
    LOOK_ALIKE,
    RUN_IN,
    Trial,
    alternatives,
    how_written,
    mixes_cases,
    new_tiles,
    pairs_text,
    run_in_pairs,
)
from pgm.crossword_rules import Rules
from pgm.crossword_state import Rack
from pgm.diagnostics import DiagnosticSink, Folded, Severity
from pgm.gcg import Event
from pgm.scoring import RACK_SIZE, Cells, PlacementError, ScoredPlay, place_play
from pgm.tiles import UNKNOWN, TileCodec, is_blank, take, tile_text

_MOST_READINGS = 256
"""Enough for any real slip; a word of many tiles that could be blanks tries no more."""


class Reading(NamedTuple):
    """How a play line is read: the trial used, and what its line is told."""

    trial: Trial
    notes: list[str]
    """Warnings for the line, before those of the play's checks."""
    score_hint: str = ""
    """Added to the warning of a score the board disagrees with: the reading that
    agrees with it."""
    rack_hint: str = ""
    """Added to the warning of tiles played that the rack lacks: the reading that
    has them."""


def as_written(rules: Rules, event: Event, labels: Sequence[str], rack: Rack,
               scored: ScoredPlay) -> bool:
    """Whether a play placed as written (``scored``) agrees with its line and has no
    letters that may be a multi-letter tile typed as letters: to be taken as written,
    as nearly every play is (every play of every game is asked: the usual case is quick)."""
    run_ins = rules.codec.run_ins
    return (scored.score == event.score
            and (rack is None or UNKNOWN in rack
                 or (len(rack) <= RACK_SIZE and not take(rack, scored.played)[1]))
            and (len(labels) == len(event.word) or not mixes_cases(labels))
            and not (run_ins and any(letters in event.word.upper() for letters in run_ins)))


def read_play(rules: Rules, cells: Cells, placement: Placement, event: Event,
              written: Trial) -> Reading:
    """How to read a play line that may not be meant as ``written`` (see
    :func:`as_written`)."""
    labels, rack = written.labels, written.rack
    new = new_tiles(rules, cells, placement, labels)
    pairs = run_in_pairs(rules, event, written, new)
    certain_pairs = pairs.certain
    if written.agrees(event.score) and not certain_pairs:
        return Reading(written, [])
    trials = [_try(rules, cells, placement, *alternative)
              for alternative in itertools.islice(
                  alternatives(rules, cells, placement, event, written, new, pairs),
                  _MOST_READINGS)]
    chosen = _choose(written, trials, event.score)
    if chosen is not None:
        return Reading(chosen, [_read_as(rules, event, written, chosen)])
    notes = [_side_by_side(rules, event, written, certain_pairs)] if certain_pairs else []
    if mixes_cases(labels):
        notes.append(_one_case(event, written))
        labels = [label.lower() if mixes_cases([label]) else label for label in labels]
        written = _try(rules, cells, placement, labels, rack)
    return Reading(written, notes, *_hints(rules, written, trials, event.score))


def _choose(written: Trial, trials: Sequence[Trial], score: int) -> Trial | None:
    """The one reading that agrees with the line, if it may be used; else, when the
    line cannot be placed as written, the one reading of a sure slip that can."""
    if written.agrees(score):
        return None
    agreeing = _distinct(t for t in trials if t.agrees(score))
    if len(agreeing) == 1:
        chosen = agreeing[0]
        # LL is two L tiles as often as it is L·L: read so only when the rack, not the
        # score alone, disagrees with the line as written (it names the L·L tile, or
        # one blank for two)
        if chosen.kind != LOOK_ALIKE or written.rack_fits is False:
            return chosen
        return None
    if written.scored is None and not agreeing:
        placed = _distinct(t for t in trials if t.scored is not None
                           and t.kind in (RUN_IN, DOT))
        if len(placed) == 1:
            return placed[0]
    return None


def _distinct(trials: Iterator[Trial] | Sequence[Trial]) -> list[Trial]:
    seen: dict[tuple[tuple[str, ...], tuple[str, ...] | None], Trial] = {}
    for trial in trials:
        seen.setdefault(trial.key(), trial)
    return list(seen.values())


def _try(rules: Rules, cells: Cells, placement: Placement, labels: list[str], rack: Rack,
         kind: str = "", problem: str = "", advice: str = "") -> Trial:
    try:
        scored = place_play(cells, rules.layout, rules.distribution, placement, labels)
    except PlacementError as exc:
        return Trial(labels, rack, None, exc, kind, problem, advice)
    return Trial(labels, rack, scored, None, kind, problem, advice)


def _read_as(rules: Rules, event: Event, written: Trial, chosen: Trial) -> str:
    """The warning for a play read otherwise than written: ``8D OER[CH]N: a blank typed
    as a capital? [CH] is not on the rack NPN?ORE, but a blank is; read as OER[ch]N,
    which fits the rack and scores +10, as recorded; blanks are written ...``."""
    reasons = []
    if written.scored is None and chosen.kind != DOT:
        reasons.append(f"can be placed (as written, {written.error})")
    scored, rack = written.scored, written.rack
    if (written.rack_fits is False and chosen.rack_fits and scored is not None
            and rack is not None):
        lacked = take(rack, scored.played)[1]
        if chosen.labels == written.labels:  # the rack alone is read otherwise
            if lacked:
                reasons.append(f"holds the {tile_text(sorted(lacked))} played")
        elif lacked or chosen.rack == rack:
            reasons.append("fits the rack")
    if chosen.scored is not None and chosen.scored.score == event.score and (
            written.scored is None or written.scored.score != event.score):
        reasons.append(f"scores {event.score:+d}, as recorded")
    which = f", which {' and '.join(reasons)}" if reasons else ""
    return (f"{event.position} {event.word}: {chosen.problem}; read as "
            f"{_reading(rules.codec, written, chosen)}{which}; {chosen.advice}")


def _reading(codec: TileCodec, written: Trial, chosen: Trial) -> str:
    """What a play line is read as: ``OER[ch]N`` (its tiles), ``the rack [CH]AOSEN?
    (7 tiles)`` (its rack) or ``[CH]ICOS from the rack [CH]AEIOSC`` (both). The count
    is given when the rack as written holds more than a rack can."""
    rack = chosen.rack
    if rack is None or rack == written.rack:
        return codec.write(chosen.labels)
    count = f" ({len(rack)} tiles)" if written.rack is not None and len(
        written.rack) > RACK_SIZE else ""
    rack_text = f"the rack {codec.write(rack)}{count}"
    if chosen.labels == written.labels:
        return rack_text
    return f"{codec.write(chosen.labels)} from {rack_text}"


def _side_by_side(rules: Rules, event: Event, written: Trial, pairs: list[int]) -> str:
    """The warning for a play kept as written that puts down the letters of a tile
    that they always stand for as two tiles (Spanish C and H)."""
    labels = written.labels
    tiles = {rules.codec.run_ins[(labels[i] + labels[i + 1]).upper()] for i in pairs}
    return (f"{event.position} {event.word}: {pairs_text(labels, pairs, certain=True)}; "
            f"{how_written(rules, tiles)}")


def _one_case(event: Event, written: Trial) -> str:
    """The warning for a play kept as written whose tiles mix cases, read as blanks
    (a tile not all in capitals is a blank)."""
    mixed = next(label for label in written.labels if mixes_cases([label]))
    return (f"{event.position} {event.word}: {tile_text([mixed])} mixes capitals and lower "
            f"case; read as the blank {tile_text([mixed.lower()])}; {CASE_ADVICE}")


def _hints(rules: Rules, written: Trial, trials: Sequence[Trial], score: int
           ) -> tuple[str, str]:
    """What the score and the rack warnings of a play kept as written add: the one
    reading that scores as recorded from a rack that may hold it, else the one whose
    rack holds the tiles played."""
    if written.scored is not None and written.scored.score != score:
        scoring = _distinct(t for t in trials if t.scored is not None
                            and t.scored.score == score and t.rack_fits is not False)
        if len(scoring) == 1:
            return (f"; read as {rules.codec.write(scoring[0].labels)}, it scores "
                    f"{score:+d} ({scoring[0].advice})"), ""
    if written.rack_fits is False:
        fitting = _distinct(t for t in trials if t.rack_fits)
        if len(fitting) == 1:
            reading = _reading(rules.codec, written, fitting[0])
            holds = "it holds them" if fitting[0].labels == written.labels else "they are"
            return "", f"; read as {reading}, {holds} ({fitting[0].advice})"
    return "", ""


class SpellingNotes:
    """Warnings for tiles a record writes another way than the spec (Catalan ``ĿL`` for
    ``L·L``), which the codec reads as the tile (``TileCodec.aliases``): one for each
    spelling, at the first line that writes it, saying how many more do (a record typed
    with ``Ŀ`` would otherwise give one at nearly every line). :meth:`close` once the
    replay is done."""

    def __init__(self, codec: TileCodec, sink: DiagnosticSink) -> None:
        self.codec = codec
        self.sink = sink
        self._found: dict[str, Folded] = {}

    def add(self, event: Event) -> None:
        codec = self.codec
        written = [*codec.aliases_in(event.rack), *codec.aliases_in(event.word),
                   *codec.aliases_in(event.tiles)]
        for spelling in dict.fromkeys(written):
            folded = self._found.get(spelling)
            if folded is None:
                folded = self._found[spelling] = Folded(self.sink, Severity.WARNING)
                tile = codec.aliases[spelling]
                what = f"a blank {tile.upper()}" if is_blank(tile) else f"the {tile} tile"
                folded.add(event.line, f"{spelling} is read as {what}, written {tile} or "
                                       f"[{tile}]")
            else:
                folded.add(event.line, "")

    def close(self) -> None:
        for folded in self._found.values():
            folded.close(_and_the_lines_after)


def _and_the_lines_after(message: str, more: int, last_line: int) -> str:
    if more == 1:
        return f"{message} (here and at line {last_line})"
    return f"{message} (here and at {more:,} more lines, to line {last_line})"

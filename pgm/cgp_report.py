"""The ``pgm check --json`` object for a ``.cgp`` file (a set of positions).

Shape::

    {"path": ..., "game": "cgp", "players": [], "diagnostics": [...],
     "events": [{"line": 3, "number": 1, "caption": "White to play" | null,
                 "cgp": "15/... AEINRST/ 0/0 0 lex CSW21;" | null, "lexicon": ..,
                 "distribution": "english", "board": "CrosswordGame",
                 "racks": ["AEINRST", ""], "scores": [0, 0], "consecutive_zeros": 0,
                 "last_move": "8D AB" | null}]}

A position file has no players and no moves, so ``players`` is empty; each position is an
event, in the order of the file, unreadable ones included (with null values: ``number``
is then still the number of its page). ``cgp`` is the position written back by
:func:`pgm.cgp.write_cgp`, which reads back to the same position.
"""

from __future__ import annotations

from typing import Any

from pgm.cgp import write_cgp, write_rack
from pgm.cgp_file import CgpEntry, CgpFile, read_cgp_file
from pgm.config import GameSettings
from pgm.diagnostics import Diagnostic


def cgp_report(data: bytes, path: str, _settings: GameSettings | None = None
               ) -> tuple[dict[str, Any], list[Diagnostic]]:
    found = read_cgp_file(data, path)
    return file_report(found), list(found.diagnostics)


def file_report(found: CgpFile) -> dict[str, Any]:
    return {
        "path": found.path,
        "game": "cgp",
        "players": [],
        "diagnostics": [d.to_json() for d in found.diagnostics],
        "events": [_event(entry) for entry in found.entries],
    }


def _event(entry: CgpEntry) -> dict[str, Any]:
    position = entry.position
    event: dict[str, Any] = {"line": entry.line, "number": entry.number,
                             "caption": entry.caption or None,
                             "cgp": write_cgp(position) if position else None}
    if position is None:
        event.update(lexicon=None, distribution=None, board=None, racks=None, scores=None,
                     consecutive_zeros=None, last_move=None)
        return event
    event.update(lexicon=position.operation("lex"), distribution=position.distribution.name,
                 board=position.layout.name,
                 racks=[write_rack(rack) for rack in position.racks],
                 scores=list(position.scores), consecutive_zeros=position.zeros,
                 last_move=position.operation("lm"))
    return event

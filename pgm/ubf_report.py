"""The ``pgm check --json`` object for a ``.ubf`` board file.

Shape::

    {"path": ..., "game": KIND, "players": [], "diagnostics": [...],
     "events": [], "board": [[{"letter": "A", "height": 2} | null, ...] x 10]}

A board is a position, not a game, so there are no players or events. ``board`` is
always ten rows of ten: when the file has problems it is the reader's best reading
(squares that could not be read, and missing ones, are null).
"""

from __future__ import annotations

from typing import Any

from pgm.config import GameSettings
from pgm.diagnostics import Diagnostic
from pgm.ubf import UbfResult, read_ubf

KIND = "upwords-board"
"""The ``game`` of the object, and the kind of a board's entry in the site."""


def ubf_report(data: bytes, path: str, _settings: GameSettings | None = None
               ) -> tuple[dict[str, Any], list[Diagnostic]]:
    result = read_ubf(data, path)
    return board_report(result, path), list(result.diagnostics)


def board_report(result: UbfResult, path: str) -> dict[str, Any]:
    """The object of a board already read: the site's ``game.json`` starts from it, so
    the file is read once and the two cannot differ."""
    return {
        "path": path,
        "game": KIND,
        "players": [],
        "diagnostics": [d.to_json() for d in result.diagnostics],
        "events": [],
        "board": result.board.to_json(),
    }

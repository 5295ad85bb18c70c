"""``pgm check`` for Gungi: one .gn file to the JSON object ``pgm check --json`` prints.

Shape::

    {"path": ..., "game": "gungi", "players": [black_name, white_name],
     "diagnostics": [...], "events": [...], "final_position": position | null,
     "result": "1 - 0" | "0 - 1" | "1/2 - 1/2" | "*" | null, "stopped_at": line | null,
     "end": {"ply": n, "line": line, "kind": kind, "winner": "black" | "white" | null}
            | null}

Players are listed Black first because Black moves first; names come from the Black and
White tags, else "Black" / "White". ``result`` is the Result tag as written (null when the
tag is absent, empty or not one of the four values). ``final_position`` is the position
after the last replayed ply, null when no ply was replayed. ``end`` is the ply after
which the game was over (numbered from 1, with its line), ``kind`` how it ended
(``commander_captured``, ``checkmate`` or ``repetition``; see :mod:`pgm.gungi_ending`) and
the ``winner`` (null for a draw by repetition); null while the game has not ended. A
Commander captured in plies played after a checkmate or repetition is the ``end``: it
decides the game (the checkmate or repetition is then named by the warning about the
plies after it).

Each event is one replayed ply (a ply refused by an error and everything after it has no
event): ``line``, ``player`` ("black"/"white", the side that played it), ``kind``,
``notation`` (the token as written) and ``position`` after it. The kinds are the
:class:`~pgm.gn_moves.MoveKind` values:

=====================  ====================================================
``drop``               ``U*c-r-t``: a unit from the hand onto the board
``move``               ``U<c-r-t>c-r-t``: a top unit moves (and captures if it lands on an enemy)
``mobile_strike``      ``U<c-r-txc-r-t``: a top unit moves and captures
``immobile_strike``    ``U<c-r-txt``: captures the enemy just above/below in its own tower
``recover_self``       ``U+c-r-t``: forced recovery into the mover's hand
``recover_opponent``   ``U^c-r-t``: forced recovery into the opponent's hand
``no_recovery``        ``U=c-r-t``: the mover declines a forced recovery
``substitution``       ``U<c-r-t&c-r-t``: Samurai and Commander swap squares
``tier_exchange``      ``U<c-r-t&t``: Captain swaps tiers 0 and 2 of its tower
=====================  ====================================================

A position is ``{"towers": {"c-r": [unit, ...]}, "hands": {"black": {code: n}, "white":
{...}}, "to_move": "black" | "white"}``. Towers list occupied squares only, named
``col-row`` as in the notation, units bottom to top; a unit is ``b:`` or ``w:`` plus its
code, face-up letter first (``b:PZ``). The corpus ``*.expected.md`` files write the same
towers top first as ``B:PZ, ...``: reverse the list and lower-case the colour to compare.
Hands list only codes with a count above zero.
"""

from __future__ import annotations

from typing import Any

from pgm import gungi
from pgm.config import GameSettings
from pgm.diagnostics import Diagnostic
from pgm.gungi_ending import GameEnd
from pgm.gungi_position import Position, square_name
from pgm.gungi_units import Colour


def gungi_report(data: bytes, path: str, _settings: GameSettings | None = None
                 ) -> tuple[dict[str, Any], list[Diagnostic]]:
    game = gungi.load(data, path)
    record = game.record
    diagnostics = list(game.diagnostics)
    events = [
        {
            "line": ply.line,
            "player": game.before(index).to_move.value,
            "kind": ply.move.kind.value,
            "notation": ply.notation,
            "position": position_json(after),
        }
        for index, (ply, after) in enumerate(zip(record.plies, game.positions, strict=False))
    ]
    report: dict[str, Any] = {
        "path": path,
        "game": "gungi",
        "players": [record.value("Black") or "Black", record.value("White") or "White"],
        "diagnostics": [d.to_json() for d in diagnostics],
        "events": events,
        "final_position": events[-1]["position"] if events else None,
        "result": record.result.value if record.result else None,
        "stopped_at": game.stopped_line,
        "end": end_json(game.end),
    }
    return report, diagnostics


def end_json(end: GameEnd | None) -> dict[str, Any] | None:
    if end is None:
        return None
    return {"ply": end.ply, "line": end.line, "kind": end.kind.value,
            "winner": end.winner.value if end.winner else None}


def position_json(position: Position) -> dict[str, Any]:
    return {
        "towers": {
            square_name(square): [unit.label for unit in tower]
            for square, tower in position.occupied()
        },
        "hands": {colour.value: position.hand(colour).as_dict() for colour in Colour},
        "to_move": position.to_move.value,
    }

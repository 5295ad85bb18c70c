"""What the Gungi templates show, computed from a replayed game.

Templates receive these frozen values and only lay them out. Every word a spectator or a
screen reader gets about a square ("5-2: tower of 2 — top: Black Spy (face up, back:
Clandestinite), below: White Pawn (face up, back: Bronze)") is made here, so the board,
its accessible names and the text list of towers always agree.

The board is drawn as the notation numbers it (RULES.md §1): column 0-8 left to right,
row 8 at the top and row 0 at the bottom, so Black's territory (rows 6-8) is at the top.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from markupsafe import Markup

from pgm.gn import GnRecord, Ply, Result
from pgm.gn_moves import MoveKind
from pgm.gungi_ending import GameEnd
from pgm.gungi_position import SIZE, Position, Tower, row_of, square_name, square_of
from pgm.gungi_units import START_HAND, Colour, Face, Unit

RESULT_WORDS = {
    Result.WHITE_WON: "White wins",
    Result.BLACK_WON: "Black wins",
    Result.DRAW: "draw",
}
"""A decided Result tag in words; note that "1 - 0" is a White win (the notation lists
White first). What ``*`` means depends on the game's entry: see :func:`header_fields`."""

HEADER_TAGS = ("Event", "Date", "Location", "White", "Black", "Result")
ARMY = sum(count for _, count in START_HAND)
"""Units per side; the initial arrangement ends when both armies are on the board."""


@dataclass(frozen=True)
class UnitView:
    colour: str
    """``black`` / ``white``: the CSS class that draws the owner."""
    letter: str
    """The face-up side's notation letter, shown large."""
    back_letter: str
    """The hidden side's letter, shown small; empty for the Commander."""
    name: str
    """The face-up side's name, e.g. "Bow"."""
    text: str
    """E.g. "White Bow (face up, back: Arrow)"."""
    back: str = ""
    """The hidden side's name, e.g. "Arrow"; empty for the Commander."""


@dataclass(frozen=True)
class SquareView:
    name: str
    """``c-r``, as the notation writes squares."""
    top: UnitView | None
    below: tuple[UnitView, ...]
    """The units under the top one, from just below it down to tier 0."""
    css: str
    label: Markup
    """The accessible name: square, height, every unit from top to bottom, highlights.
    It is HTML, pgm's own words with nothing to escape, so that a tower's dash can be
    written as an entity: a page of plain ASCII is held at one byte a character and
    written without encoding."""


@dataclass(frozen=True)
class BoardView:
    column_headers: tuple[str, ...]
    rows: tuple[tuple[str, tuple[SquareView, ...]], ...]
    """(row header, squares) from row 8 down to row 0."""
    towers: tuple[SquareView, ...]
    """Squares holding two or three units, listed as text under the board."""
    legend: tuple[tuple[str, str], ...]
    """(letter, name) of every side shown on the board or in a hand, face up or back
    (the small letters), for the key under the board."""


@dataclass(frozen=True)
class HandUnit:
    unit: UnitView
    count: int


@dataclass(frozen=True)
class SideView:
    """One player's side of a position: hand, units lost, and whether it is to move."""

    colour: str
    side: str
    """``Black`` / ``White``."""
    player: str
    """The name from the header tag, empty when the record has none."""
    to_move: bool
    in_check: bool
    on_board: int
    hand: tuple[HandUnit, ...]
    hand_total: int
    lost: tuple[UnitView, ...]
    """This side's units captured so far, oldest first, as they stood on the board."""


@dataclass(frozen=True)
class PlyRow:
    """One line of the ply list on every page of a game."""

    number: int
    group: str
    """``24.`` or ``29...`` on a group's first ply, else empty."""
    side: str
    notation: str
    summary: str
    commented: bool
    flagged: bool


@dataclass(frozen=True)
class HeaderField:
    name: str
    value: str




# ---------------------------------------------------------------------------------------
# The board


def board_view(position: Position, moved_from: frozenset[int] = frozenset(),
               moved_to: frozenset[int] = frozenset(), played: str = "just played"
               ) -> BoardView:
    """The 9x9 board of ``position``, row 8 first, with the ply's squares highlighted;
    ``played`` is what a screen reader hears of the squares in ``moved_to``
    (:func:`played_words`)."""
    checked = _checked_commanders(position)
    rows = []
    for row in reversed(range(SIZE)):
        squares = tuple(
            _square(position.towers[square_of(col, row)], square_of(col, row),
                    square_of(col, row) in moved_from,
                    played if square_of(col, row) in moved_to else "",
                    square_of(col, row) in checked)
            for col in range(SIZE))
        rows.append((str(row), squares))
    towers = tuple(s for _, squares in rows for s in squares if s.below)
    return BoardView(tuple(str(c) for c in range(SIZE)), tuple(rows), towers,
                     _legend(position))


def _square(tower: Tower, square: int, moved_from: bool, played: str,
            checked: bool) -> SquareView:
    name = square_name(square)
    units = tuple(unit_view(u) for u in reversed(tower))
    css = ["sq", _territory(row_of(square)), f"h{len(tower)}" if tower else "empty"]
    notes = []
    if played:
        css.append("to")
        notes.append(played)
    elif moved_from:
        css.append("from")
        notes.append("moved from here")
    if checked:
        css.append("check")
        notes.append("Commander in check")
    label = Markup(f"{name}: {_contents(units)}" + "".join(f", {n}" for n in notes))
    return SquareView(name, units[0] if units else None, units[1:],
                      " ".join(c for c in css if c), label)


def _contents(units: tuple[UnitView, ...]) -> str:
    """What a square holds, in words, as HTML: see :attr:`SquareView.label`."""
    if not units:
        return "empty"
    if len(units) == 1:
        return units[0].text
    below = ", ".join(u.text for u in units[1:])
    return f"tower of {len(units)} &mdash; top: {units[0].text}, below: {below}"


def _territory(row: int) -> str:
    if Colour.WHITE.owns_row(row):
        return "terr-white"
    return "terr-black" if Colour.BLACK.owns_row(row) else ""


def _checked_commanders(position: Position) -> frozenset[int]:
    return frozenset(square for colour in position.in_check
                     for square, _ in position.find(Face.COMMANDER, colour))


def _legend(position: Position) -> tuple[tuple[str, str], ...]:
    units = [u for _, tower in position.occupied() for u in tower]
    units += [Unit.of(code, colour) for colour in Colour
              for code, _ in position.hand(colour).counts]
    faces = {u.face for u in units} | {u.back for u in units if u.back}
    return tuple((f.value, f.title) for f in sorted(faces, key=lambda f: f.title))


def unit_view(unit: Unit) -> UnitView:
    """A unit as drawn and as read aloud: owner, face up, and the back it turns over to."""
    back = unit.back.title if unit.back else ""
    detail = f" (face up, back: {back})" if back else ""
    return UnitView(unit.colour.value, unit.face.value, unit.back.value if unit.back else "",
                    unit.face.title, f"{unit.colour.title} {unit.face.title}{detail}", back)


def played_words(ply: Ply) -> str:
    """How a ply's square is named to a screen reader: a recovery lifts a unit off it, and
    "just played" of the square it emptied would say a unit went there."""
    if ply.move.kind in (MoveKind.RECOVER_SELF, MoveKind.RECOVER_OPPONENT):
        return "unit just recovered from here"
    return "just played"


def ply_squares(ply: Ply) -> tuple[frozenset[int], frozenset[int]]:
    """The squares a ply moved a unit from and to, for the highlight.

    A substitution moves both units, so both squares count as "from" and "to"; moves that
    stay inside one square (immobile strike, tier exchange, recovery) mark only that square.
    """
    move = ply.move
    target = frozenset({move.target.square})
    if move.kind is MoveKind.SUBSTITUTION and move.source is not None:
        both = target | {move.source.square}
        return both, both
    if move.source is not None and move.source.square != move.target.square:
        return frozenset({move.source.square}), target
    return frozenset(), target


# ---------------------------------------------------------------------------------------
# Hands, captures, status


def side_views(position: Position, record: GnRecord, over: bool = False
               ) -> tuple[SideView, SideView]:
    """Black's and White's side of ``position``, Black first as it moves first; ``over``
    when the game ended in this position (nobody is then to move)."""
    black, white = (_side(position, record, c, over) for c in (Colour.BLACK, Colour.WHITE))
    return black, white


def _side(position: Position, record: GnRecord, colour: Colour, over: bool) -> SideView:
    hand = position.hand(colour)
    units = tuple(HandUnit(unit_view(Unit.of(code, colour)), count) for code, count in hand.counts)
    on_board = sum(u.colour is colour for _, tower in position.occupied() for u in tower)
    lost = tuple(unit_view(u) for u in position.captured if u.colour is colour)
    to_move = position.to_move is colour and not position.game_over and not over
    return SideView(colour.value, colour.title, record.value(colour.title) or "", to_move,
                    colour in position.in_check, on_board, units, hand.total, lost)


def status_lines(position: Position, end: GameEnd | None = None, ply: int = 0
                 ) -> tuple[str, ...]:
    """Who is to move and what they owe, check, and whether the game is over.

    ``position`` stands after ply ``ply``; ``end`` is how the game ended, given when it
    had by then. A record may go on after a checkmate or repetition (with a warning):
    its later positions say when the game ended, then what they hold.
    """
    if position.winner is not None:
        return (f"{position.winner.title} captured the Commander and wins.",)
    if end is not None and end.ply == ply:
        return (end.status,)
    mover = position.to_move.title
    lines = [f"The game ended with ply {end.ply} ({end.words}); the record goes on."] \
        if end is not None else []
    if position.rearrangement is not None:
        lines.append(f"{mover} to move: must place the captured Lance as "
                     f"{position.rearrangement}.")
    elif position.recovery is not None:
        where = square_name(position.recovery.square)
        lines.append(f"{mover} to move: must decide the forced recovery on {where}.")
    else:
        lines.append(f"{mover} to move.")
    lines += [f"{c.title} is in check." for c in sorted(position.in_check, key=lambda c: c.value)]
    if not position.arrangement_over:
        placed = sum(len(tower) for _, tower in position.occupied())
        lines.append(f"Initial arrangement: {placed} of {ARMY * 2} units placed.")
    return tuple(lines)


# ---------------------------------------------------------------------------------------
# Header and ply list


def header_fields(record: GnRecord, pending: str) -> tuple[HeaderField, ...]:
    """The six header tags that are set, in the notation's order; Result also in words,
    because "1 - 0" (White wins) reads the wrong way round to many. ``pending`` is
    ``Result "*"`` in words, which the site decides as it shows the game: "in progress"
    while it follows the record, "unfinished" when it does not."""
    fields = []
    for name in HEADER_TAGS:
        value = record.value(name)
        if value is None:
            continue
        if name == "Result" and record.result is not None:
            words = pending if record.result is Result.UNFINISHED else \
                RESULT_WORDS[record.result]
            value = f"{value} ({words})"
        fields.append(HeaderField(name, value))
    return tuple(fields)


def ply_rows(record: GnRecord, movers: Iterable[Colour], summaries: Iterable[str],
             flagged: frozenset[int]) -> tuple[PlyRow, ...]:
    """One row per replayed ply; ``flagged`` holds the numbers of plies with problems."""
    commented = {c.after_plies for c in record.comments}
    return tuple(
        PlyRow(number, f"{ply.group}{ply.opens.value}" if ply.opens else "", mover.title,
               ply.notation, summary, number in commented, number in flagged)
        for number, (ply, mover, summary) in enumerate(
            zip(record.plies, movers, summaries, strict=False), start=1))

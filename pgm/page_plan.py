"""Turn pages filled in from a plan made once per game.

Turn pages of one game share everything but a few values: the board rows, the move, the
scores. ``turn.html`` is rendered once per game with a marker in place of each value
that changes from turn to turn; the output, split at the markers, is the plan, and a
turn page is the plan's fixed text with that turn's values printed in between, as Jinja
would print them. The per-turn parts that need logic are macros the caller renders
(``partials/turn_parts.html``), so the page template only prints them.

The same goes for a macro called with many values that it only prints (a board row's
squares, a turn-list item's number, word and score): ``PagePlan.of`` plans any render.

A macro that tests some of its values (is this player to move, is the rack known) has
one plan per *shape*: the tested values are passed as they are, or as a marker known to
be non-empty, and they key the plan (``Shapes``).

A theme's template may do more with a per-turn value than print it (test it, loop over
it, filter it). Markers refuse to be used that way, and a plan whose output does not
hold each marker intact is not used: such a template is rendered for every turn
instead, which is slower and gives the same pages.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, NoReturn

import jinja2
from markupsafe import Markup

from pgm.fragments import kept
from pgm.render import printed


class _Marker(Markup):
    """A per-turn value while the plan is made: it can be printed, nothing else."""

    __slots__ = ()

    def _refuse(self, *_args: object, **_kwargs: object) -> NoReturn:
        raise TypeError("a per-turn value was used in the page template other than by "
                        "printing it")

    __bool__ = __len__ = __iter__ = __getitem__ = __contains__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __add__ = __radd__ = __mul__ = __mod__ = __rmod__ = __int__ = __float__ = _refuse
    __hash__ = Markup.__hash__

    def __getattribute__(self, name: str) -> Any:
        """Printing needs only ``__html__``; a filter or method (``|lower``,
        ``.replace()``) would change the marker's text, or leave it looking untouched
        while the value it stands for would have changed."""
        if name != "__html__":
            _Marker._refuse(self)
        return super().__getattribute__(name)


class _NonEmptyMarker(_Marker):
    """A per-turn value that is not empty, in a plan made for that shape: a macro may
    test it (``{% if rack %}``) and print it."""

    __slots__ = ()

    def __bool__(self) -> bool:
        return True


class Holes:
    """Markers as the attributes of one object, to plan a macro that takes a row
    (``r.number``): an attribute it reads that is not a hole is undefined, so such a
    macro is not planned."""

    def __init__(self, markers: Mapping[str, Any]) -> None:
        self.__dict__.update(markers)


class PagePlan:
    """The fixed text of a page and, between its pieces, the names of the values."""

    def __init__(self, fixed: list[str], names: list[str]) -> None:
        self._fixed = fixed
        self._names = names

    @classmethod
    def make(cls, template: jinja2.Template, context: Mapping[str, Any],
             per_turn: Iterable[str]) -> PagePlan | None:
        """The plan of ``template`` for the values that are the same on every page
        (``context``); None when the template uses a per-turn value other than by
        printing it, or fails to render."""
        return cls.of(lambda markers: template.render(context, **markers), per_turn)

    @classmethod
    def of(cls, render: Callable[..., str], holes: Iterable[str],
           non_empty: Iterable[str] = ()) -> PagePlan | None:
        """The plan of what ``render`` makes of a dict with a marker for each of
        ``holes`` (and a marker that tests true for each of ``non_empty``): a template,
        or a macro with its other arguments bound. None when it does more with a marker
        than print it, or fails."""
        nonce = secrets.token_hex(8)
        markers = {name: _Marker(f"\0{nonce}:{name}\0") for name in holes}
        markers.update((name, _NonEmptyMarker(f"\0{nonce}:{name}\0")) for name in non_empty)
        try:
            text = render(markers)
        except Exception:  # noqa: BLE001 - the caller renders for real, which reports it
            return None
        parts = re.split(f"\0{nonce}:(\\w+)\0", text)
        fixed, names = parts[0::2], parts[1::2]
        if any("\0" in piece for piece in fixed) or not set(names) <= set(markers):
            return None
        return cls(fixed, names)

    def fill(self, values: Mapping[str, Any]) -> str:
        """The page: the fixed pieces with each value printed between them, interleaved
        by slice assignment so that a page costs one pass over its values."""
        pieces: list[str] = [""] * (2 * len(self._names) + 1)
        pieces[0::2] = self._fixed
        pieces[1::2] = [value if isinstance(value, Markup) else printed(value)
                        for value in map(values.__getitem__, self._names)]
        return "".join(pieces)


class Shapes:
    """The plans of one macro, one per shape of its arguments, made when a shape is
    first met by ``make`` (a ``PagePlan.of`` with the tested values of that shape bound)
    and kept in ``plans`` (a dict kept per template environment). ``render`` fills in
    the shape's plan, or calls the macro for real when the shape has none."""

    def __init__(self, plans: dict[Hashable, PagePlan | None],
                 make: Callable[[Any], PagePlan | None]) -> None:
        self._plans = plans
        self._make = make

    def plan(self, shape: Hashable) -> PagePlan | None:
        try:
            return self._plans[shape]
        except KeyError:
            plan = self._plans[shape] = self._make(shape)
            return plan


def tested(value: Any) -> Any:
    """What a macro that tests ``value`` without printing it can tell of it: the value
    itself when it is empty (``None``, ``""``, ``()``), else only that it is not; the
    part of a shape a value gives."""
    return value if not value else True


class PlannedItems:
    """The items of a list made by one macro ``(r, current)`` of
    ``partials/fragments.html`` from each row (the turn list of a turn page, the rows of
    a score sheet), made once per game; a page marks one of them current. An item is
    the macro's plan for its shape (``current`` and the row's ``flags``) with the row's
    ``fields`` printed in it, or the macro called for real when the shape has no plan."""

    def __init__(self, env: jinja2.Environment, macro: str, rows: Sequence[Any],
                 fields: tuple[str, ...], flags: tuple[str, ...] = ()) -> None:
        self._macro = getattr(env.get_template("partials/fragments.html").module, macro)
        self._fields = fields
        self._flags = flags
        plans: dict[Hashable, PagePlan | None] = kept(env, f"pgm_{macro}_plans", dict)
        self._shapes = Shapes(plans, self._plan)
        self._rows = rows
        self._items = [self._item(row, False) for row in rows]

    def page(self, number: int | None) -> Markup:
        """Every item, the one of row ``number`` (1 for the first row) as current."""
        if number is None:
            return Markup("".join(self._items))
        current = self._item(self._rows[number - 1], True)
        return Markup("".join(self._items[:number - 1] + [current] + self._items[number:]))

    def _item(self, row: Any, current: bool) -> str:
        flags = tuple(getattr(row, flag) for flag in self._flags)
        plan = self._shapes.plan((current, flags))
        if plan is None:
            return str(self._macro(row, current))
        return plan.fill({field: getattr(row, field) for field in self._fields})

    def _plan(self, shape: tuple[bool, tuple[Any, ...]]) -> PagePlan | None:
        current, flags = shape
        bound = dict(zip(self._flags, flags, strict=True))
        return PagePlan.of(lambda markers: self._macro(Holes({**markers, **bound}), current),
                           self._fields)

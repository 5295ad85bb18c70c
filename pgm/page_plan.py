"""Turn pages filled in from a plan made once per game.

Turn pages of one game share everything but a few values: the board rows, the move, the
scores. ``turn.html`` is rendered once per game with a marker in place of each value
that changes from turn to turn; the output, split at the markers, is the plan, and a
turn page is the plan's fixed text with that turn's values printed in between, as Jinja
would print them. The per-turn parts that need logic are macros the caller renders
(``partials/turn_parts.html``), so the page template only prints them.

The same goes for a macro called with many values that it only prints (a board row's
squares, a turn-list item's number, word and score): ``PagePlan.of`` plans any render.

A theme's template may do more with a per-turn value than print it (test it, loop over
it, filter it). Markers refuse to be used that way, and a plan whose output does not
hold each marker intact is not used: such a template is rendered for every turn
instead, which is slower and gives the same pages.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, NoReturn

import jinja2
from markupsafe import Markup

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


class Holes:
    """Markers as the attributes of one object, to plan a macro that takes a row
    (``r.number``): an attribute it reads that is not a hole is undefined, so such a
    macro is not planned."""

    def __init__(self, markers: Mapping[str, Any]) -> None:
        self.__dict__.update(markers)


class GameHoles(Holes):
    """Markers for one game's values as the attributes of ``game``, to plan a page once
    for every game of an event: an attribute that is not a hole is undefined, and the
    object itself cannot be printed, compared or looped over, so a template that does
    more than read those attributes gets each game's own plan."""

    def _refuse(self, *_args: object, **_kwargs: object) -> NoReturn:
        raise TypeError("a game's values were used in the page template other than by "
                        "reading their attributes")

    __str__ = __repr__ = __iter__ = __len__ = __eq__ = __ne__ = _refuse  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]


def shared_key(context: Mapping[str, Any], own: Iterable[str]) -> Hashable | None:
    """What a plan made for many games depends on: every value of ``context`` but the
    ``own`` ones each game fills in (lists as tuples); None when a value cannot be part
    of a key."""
    skip = set(own)
    key = tuple(sorted((name, tuple(value) if type(value) is list else value)
                       for name, value in context.items() if name not in skip))
    try:
        hash(key)
    except TypeError:
        return None
    return key


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
    def of(cls, render: Callable[..., str], holes: Iterable[str]) -> PagePlan | None:
        """The plan of what ``render`` makes of a dict with a marker for each of
        ``holes``: a template, or a macro with its other arguments bound. None when it
        does more with a marker than print it, or fails."""
        nonce = secrets.token_hex(8)
        markers = {name: _Marker(f"\0{nonce}:{name}\0") for name in holes}
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

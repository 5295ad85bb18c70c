"""Turn pages filled in from a plan made once per game.

Turn pages of one game share everything but a few values: the board rows, the move, the
scores. ``turn.html`` is rendered once per game with a marker in place of each value
that changes from turn to turn; the output, split at the markers, is the plan, and a
turn page is the plan's fixed text with that turn's values printed in between, as Jinja
would print them. The per-turn parts that need logic are macros the caller renders
(``partials/turn_parts.html``), so the page template only prints them.

The same goes for a macro called with many values that it only prints (a board row's
squares, a turn-list item's number, word and score): ``PagePlan.of`` plans any render.

A theme's template may do more with a value than print it (test it, loop over it, filter
it). A plan is only used when nothing of the kind can have happened, checked two ways:

* **Markers** (strings) refuse every use but printing, with ``PlanRefused``, which the
  templates' own ``except Exception`` cannot swallow.
* **Probes** take the markers' place in two more renders, which must each give the plan
  filled in with them: numbers, then text with a bit of everything (both cases, spaces,
  markup, a link, a bidi control). What Jinja or Python do to a string's characters
  without asking it (``|int``, ``|title``, ``|tojson``, ``|wordcount``, ``|urlize``) or
  a test of a value's type (``is string``, ``is number``) comes out differently for a
  marker and for a probe, and the plan is not used.

Such a template is rendered for every page instead: slower, and the same pages.
"""

from __future__ import annotations

import operator
import re
import secrets
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, NoReturn

import jinja2
from markupsafe import Markup

from pgm.render import printed


class PlanRefused(BaseException):
    """A template used a hole other than by printing it. A ``BaseException``, because
    Jinja's tests and filters catch ``Exception`` (``is sequence``) or ``TypeError``
    (``is iterable``, ``|int``) and would turn a refusal into an answer."""


def _refuse(*_args: object, **_kwargs: object) -> NoReturn:
    raise PlanRefused


class _Marker(Markup):
    """A value while the plan is made: it can be printed, nothing else."""

    __slots__ = ()

    __bool__ = __len__ = __iter__ = __getitem__ = __contains__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __add__ = __radd__ = __mul__ = __mod__ = __rmod__ = __int__ = __float__ = _refuse
    # str() and format() would hand the text to an escape that was turned off, or to
    # Markup(), which |safe and |e use
    __str__ = __repr__ = __format__ = _refuse
    __hash__ = Markup.__hash__

    def __getattribute__(self, name: str) -> Any:
        """Printing needs only ``__html__``; a filter or method (``|lower``,
        ``.replace()``) would change the marker's text, or leave it looking untouched
        while the value it stands for would have changed."""
        if name != "__html__":
            raise PlanRefused
        return super().__getattribute__(name)


class _TruthyMarker(_Marker):
    """A marker for a value known to be true (a non-empty text): a template may test
    it (``{% if rack %}``), and the probes, all true, must then come out the same."""

    __slots__ = ()

    def __bool__(self) -> bool:  # type: ignore[override] # _Marker's refuses
        return True


class _NumberProbe(int):
    """A value in the second render: a number that prints as its digits."""

    __slots__ = ()


def count_class(count: int) -> int:
    """What a template can tell of ``count`` by comparing it with 0 and 1 (a plural's
    "s", "none left"): -1 (below 0), 0, 1, or 2 (more than 1). A plan made with a count
    hole (``PagePlan.of``'s ``counts``) holds for every count of its class."""
    return -1 if count < 0 else min(count, 2)


def _compared(other: object) -> bool:
    """Whether a count hole may be compared with ``other``: 0 or 1 only, which every
    count of one class compares with alike."""
    return type(other) is int and other in (0, 1)


class _Counted:
    """Comparisons with 0 and 1 and truth, answered as for the count ``stands_for`` (a
    ``count_class``), for count holes: their markers and their probes. Any other
    comparison refuses the plan."""

    __slots__ = ()
    stands_for = 0

    def __eq__(self, other: object) -> bool:  # type: ignore[override]
        return _answer(self, other, operator.eq)

    def __ne__(self, other: object) -> bool:  # type: ignore[override]
        return _answer(self, other, operator.ne)

    def __lt__(self, other: object) -> bool:
        return _answer(self, other, operator.lt)

    def __le__(self, other: object) -> bool:
        return _answer(self, other, operator.le)

    def __gt__(self, other: object) -> bool:
        return _answer(self, other, operator.gt)

    def __ge__(self, other: object) -> bool:
        return _answer(self, other, operator.ge)

    def __bool__(self) -> bool:
        return type(self).stands_for != 0


def _answer(value: _Counted, other: object, compare: Callable[[int, int], bool]) -> bool:
    """A function, not a method: a marker refuses to have its attributes read."""
    if not _compared(other):
        raise PlanRefused
    return compare(type(value).stands_for, other)  # type: ignore[arg-type]


class _CountMarker(_Counted, _Marker):  # type: ignore[misc]
    """A marker for a count hole (see ``_Counted``)."""

    __slots__ = ()
    __hash__ = Markup.__hash__


class _CountProbe(_Counted, _NumberProbe):
    """A probe for a count hole (see ``_Counted``): its digits printed, and compared as
    the count it stands for, in both probe renders."""

    __slots__ = ()
    __hash__ = int.__hash__


def _counted(kind: type, stands_for: int) -> type:
    """``kind`` (``_CountMarker`` or ``_CountProbe``) for counts of class ``stands_for``."""
    return _COUNTED[kind][stands_for]


_COUNTED: dict[type, dict[int, type]] = {
    kind: {stands_for: type(kind.__name__, (kind,), {"__slots__": (),
                                                         "stands_for": stands_for})
           for stands_for in (-1, 0, 1, 2)}
    for kind in (_CountMarker, _CountProbe)}


def _probes(holes: list[str], counts: Mapping[str, int]) -> list[dict[str, Any]]:
    """The values of the renders that check a plan: numbers pages do not otherwise hold,
    and text that most filters would change; a count hole's are numbers both times."""
    numbers = {name: (_counted(_CountProbe, count_class(counts[name])) if name in counts
                      else _NumberProbe)(7_316_042_000 + number)
               for number, name in enumerate(holes)}
    return [numbers, {name: numbers[name] if name in counts else
                      f"{name} Ab cD <i>&amp;</i> https://e.example/ 1.5 \u202e!"
                      for name in holes}]


class Holes:
    """Markers as the attributes of one object, to plan a macro that takes a row
    (``r.number``) or a page that shows a game (``game.label``). Reading any other
    attribute, printing the object, comparing it or looping over it refuses the plan."""

    def __init__(self, markers: Mapping[str, Any]) -> None:
        self.__dict__.update(markers)

    def __getattr__(self, name: str) -> NoReturn:
        raise PlanRefused

    __str__ = __repr__ = __format__ = __iter__ = __len__ = __eq__ = __ne__ = _refuse
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
    def of(cls, render: Callable[..., str], holes: Iterable[str],
           truthy: Iterable[str] = (), counts: Mapping[str, int] | None = None
           ) -> PagePlan | None:
        """The plan of what ``render`` makes of a dict with a marker for each of
        ``holes``: a template, or a macro with its other arguments bound. None when it
        does more with a value than print it, or fails. The ``truthy`` holes are values
        known to be true, which the template may also test for truth; the ``counts``
        holes (name: a count) are counts, which it may also test or compare with 0 and 1:
        the plan holds for every count of the same ``count_class``."""
        holes = list(holes)
        truthy = set(truthy)
        counts = counts or {}
        nonce = secrets.token_hex(8)
        # both cases and a space in each marker: a filter that changes case or splits
        # words leaves it broken
        text = _rendered(render, {name: _marker_kind(name, truthy, counts)(
            f"\0{nonce}Xy {name}\0") for name in holes})
        if text is None:
            return None
        parts = re.split(f"\0{nonce}Xy (\\w+)\0", text)
        fixed, names = parts[0::2], parts[1::2]
        if any("\0" in piece or nonce in piece for piece in fixed) or not set(names) <= set(holes):
            return None
        plan = cls(fixed, names)
        for probes in _probes(holes, counts):
            if _rendered(render, probes) != plan.fill(probes):
                return None
        return plan

    def around(self) -> tuple[str, str] | None:
        """The fixed text before and after the plan's one hole, printed once (filling it
        is then a concatenation); None for any other plan."""
        return (self._fixed[0], self._fixed[1]) if len(self._names) == 1 else None

    def specialized(self, values: Mapping[str, Any]) -> PagePlan:
        """This plan with ``values`` printed into its fixed text: for values that stay
        the same over many fills (a game's own, on each of its turn pages)."""
        fixed, names = [self._fixed[0]], []
        for name, piece in zip(self._names, self._fixed[1:], strict=True):
            if name in values:  # joined: Markup + str would escape the piece
                fixed[-1] = "".join((fixed[-1], _printed(values[name]), piece))
            else:
                names.append(name)
                fixed.append(piece)
        return PagePlan(fixed, names)

    def fill(self, values: Mapping[str, Any]) -> str:
        """The page: the fixed pieces with each value printed between them, interleaved
        by slice assignment so that a page costs one pass over its values."""
        pieces: list[str] = [""] * (2 * len(self._names) + 1)
        pieces[0::2] = self._fixed
        # most values are markup already: spare them the call
        pieces[1::2] = [value if isinstance(value, Markup) else printed(value)
                        for value in map(values.__getitem__, self._names)]
        return "".join(pieces)


def _marker_kind(name: str, truthy: set[str], counts: Mapping[str, int]) -> type:
    """The marker class of the hole ``name`` (see ``PagePlan.of``)."""
    if name in counts:
        return _counted(_CountMarker, count_class(counts[name]))
    return _TruthyMarker if name in truthy else _Marker


def _printed(value: Any) -> str:
    return value if isinstance(value, Markup) else printed(value)


def _rendered(render: Callable[..., str], values: dict[str, Any]) -> str | None:
    """What ``render`` makes of ``values``; None when it refuses them or fails (the
    caller then renders for real, which reports any error)."""
    try:
        return render(values)
    except (Exception, PlanRefused):  # noqa: BLE001
        return None

"""Template pieces whose output is kept per distinct input.

Turn pages of one game differ by a few tiles, and many pieces repeat across every game
(an empty square, the navigation of turn 12 of 27, an unseen tile). Rendering such a
piece once through its template and reusing the markup keeps the templates the one
place that decides how a page looks, while a page costs little more than joining strings.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import jinja2
from markupsafe import Markup

_T = TypeVar("_T")


class Memo:
    """A macro, or a partial template rendered with keyword values; a call with inputs
    seen before is a dict lookup. The cache is cleared when it holds ``limit``
    characters of markup, so a worker rendering a whole season, or a watch session
    running for days, keeps a bounded amount."""

    def __init__(self, render: Callable[..., str], limit: int = 8_000_000) -> None:
        self._render = render
        self._cache: dict[Hashable, Markup] = {}
        self._limit = limit
        self._size = 0

    def __call__(self, *args: Hashable, **values: Hashable) -> Markup:
        key = (args, tuple(values.items())) if values else args
        return self.keyed(key, *args, **values)

    def keyed(self, key: Hashable, *args: Any, **values: Any) -> Markup:
        """Cached under ``key``: for inputs that are costly to build and fully decided
        by a cheaper key."""
        html = self._cache.get(key)
        if html is None:
            html = self._cache[key] = Markup(self._render(*args, **values))
            self._size += len(html)
            if self._size > self._limit:
                self._cache = {key: html}
                self._size = len(html)
        return html


def fragment_global(env: jinja2.Environment) -> Callable[..., Markup]:
    """``fragment(name, *args)`` for templates: the macro ``name`` of
    ``partials/fragments.html``, memoized; the index pages call it per round and per
    player, so a rebuild after one game changed re-renders only that game's rows."""

    def fragment(name: str, *args: Hashable) -> Markup:
        return memo(env, _FRAGMENTS, name)(*args)

    return fragment


def fragment_once(env: jinja2.Environment) -> Callable[..., Markup]:
    """``fragment`` without the memo, for index pages made once (a first build): an
    event of thousands of games would keep every round's markup for nothing."""
    module = env.get_template(_FRAGMENTS).module

    def fragment(name: str, *args: Any) -> Markup:
        return Markup(getattr(module, name)(*args))

    return fragment


_FRAGMENTS = "partials/fragments.html"


def kept(env: jinja2.Environment, name: str, make: Callable[[], _T]) -> _T:
    """The object kept under ``name`` for ``env``, made by ``make`` the first time: an
    environment lives as long as its worker process (or watch session) and theme, so
    what pages of every game share is kept with it."""
    found: _T | None = env.__dict__.get(name)
    if found is None:
        found = env.__dict__[name] = make()
    return found


def memo(env: jinja2.Environment, template: str, macro: str | None = None) -> Memo:
    """The memo of a macro of ``template``, or of ``template`` itself, for this
    environment (one per worker process and theme)."""
    memos: dict[tuple[str, str | None], Memo] = kept(env, "pgm_memos", dict)
    found = memos.get((template, macro))
    if found is None:
        loaded = env.get_template(template)
        render = getattr(loaded.module, macro) if macro else loaded.render
        found = memos[(template, macro)] = Memo(render)
    return found

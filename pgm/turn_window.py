"""Which turns a turn page lists: all of them for a real game, a window around the page's
own for a record of thousands.

Every turn page of a game (crossword turn, Upwords turn, Gungi ply) lists the game's
turns. Listing them all makes a game's pages grow with its length and the game's folder
with its square: a broken or hostile record of a few thousand lines would be thousands
of pages listing thousands of rows each, gigabytes written in minutes. So a page lists
at most :data:`LISTED` turns around its own, and a gap in the list links to the first
and last turns left out. The rule lives here, once, so that every game family draws the
same window and a reader of one finds the same list in another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

LISTED = 500
"""Turns a turn page lists at most, around its own. Every real game fits (a few hundred
turns or plies at most) and is listed whole; only a record far longer than any game is
cut, and then each page stays a few hundred kilobytes however long the record."""

_Row = TypeVar("_Row")


def listed_turns(number: int, total: int, spoiler_free: bool) -> tuple[int, int]:
    """The first and last turn (numbered from 1) that the page of turn ``number`` of
    ``total`` lists.

    All of them up to :data:`LISTED`, else :data:`LISTED` with the page's own about the
    middle (or at the edge, near the game's start or end). In a spoiler-free event only
    the turns up to the page's own, the last :data:`LISTED` of them: a later turn would
    give the game away. A gap is never a single turn: a link to the one turn left out
    takes the same room as the turn itself, so it is listed instead.

    >>> listed_turns(5, 300, False), listed_turns(5, 300, True)
    ((1, 300), (1, 5))
    >>> listed_turns(600, 1200, False), listed_turns(252, 1200, False)
    ((350, 849), (1, 501))
    """
    if spoiler_free:
        first, last = max(1, number - LISTED + 1), number
    elif total <= LISTED:
        first, last = 1, total
    else:
        first = min(max(1, number - LISTED // 2), total - LISTED + 1)
        last = first + LISTED - 1
        last = total if last == total - 1 else last
    return (1 if first == 2 else first), last


@dataclass(frozen=True)
class Gap:
    """Turns ``first`` to ``last`` left out of a page's list, which links to both."""

    first: int
    last: int


@dataclass(frozen=True)
class TurnWindow:
    """The turns one page lists, and the gaps either side of them that it links across."""

    first: int
    last: int
    before: Gap | None
    """The turns before ``first``, when there are any."""
    after: Gap | None
    """The turns after ``last``; never in a spoiler-free event, where a link to a later
    turn would tell how long the game went on."""

    @classmethod
    def of(cls, number: int, total: int, spoiler_free: bool) -> TurnWindow:
        """The window of the page of turn ``number`` of ``total`` (see :func:`listed_turns`)."""
        first, last = listed_turns(number, total, spoiler_free)
        before = Gap(1, first - 1) if first > 1 else None
        after = Gap(last + 1, total) if last < total and not spoiler_free else None
        return cls(first, last, before, after)

    def rows(self, rows: Sequence[_Row]) -> Sequence[_Row]:
        """The listed ones of ``rows``, one per turn from turn 1."""
        return rows[self.first - 1:self.last]

"""The event's ``moves.csv``: every game's rows under one header.

Games come in the order ``pgm export`` finds the records, so the file is what
``pgm export .`` writes in the event folder, without draft games; position sets have
no moves and no rows. The rows are joined from the game folders' own ``moves.csv``
(an incremental build renders only the changed games, so those files are the one place
every game's rows are) and streamed to disk, so memory does not grow with the event.
A rebuild copies the rows of unchanged games out of the previous file, located by the
layout the build state keeps, and reads only the changed games' files.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pgm.export import COLUMNS

NAME = "moves.csv"
HEADER = (",".join(COLUMNS) + "\n").encode("utf-8")

Layout = list[tuple[str, int]]
"""(slug, length in bytes of its rows) in file order."""


def write_event_moves(site: Path, target: Path, slugs: Iterable[str],
                      previous: Layout | None = None,
                      unchanged: frozenset[str] = frozenset()) -> Layout:
    """Write the file to ``target`` from the game folders of ``site``; rows of the
    ``unchanged`` games come from ``site/moves.csv`` when ``previous`` describes it.
    Returns the new layout."""
    layout: Layout = []
    with _previous_rows(site / NAME, previous) as old, open(target, "wb") as handle:
        handle.write(HEADER)
        for slug in slugs:
            rows = old(slug) if slug in unchanged else None
            if rows is None:
                rows = _game_rows(site / slug / NAME)
            if rows:
                handle.write(rows)
                layout.append((slug, len(rows)))
    return layout


def replace_event_moves(site: Path, slugs: Iterable[str], previous: Layout | None,
                        unchanged: frozenset[str]) -> Layout:
    """Rewrite ``site/moves.csv`` in place by one rename: a spectator downloading it
    gets the old file or the new one."""
    temp = site / f".{NAME}.{os.getpid()}.tmp"
    try:
        layout = write_event_moves(site, temp, slugs, previous, unchanged)
        os.replace(temp, site / NAME)
    finally:
        temp.unlink(missing_ok=True)
    return layout


def _game_rows(path: Path) -> bytes | None:
    """A game's rows without the header; None when there is no file or it is not pgm's."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    return data[len(HEADER):] if data.startswith(HEADER) else None


@contextmanager
def _previous_rows(path: Path, layout: Layout | None
                   ) -> Iterator[Callable[[str], bytes | None]]:
    """Look-up of each game's rows in the previous file, mapped rather than read, and
    trusted only when the file is exactly as long as its layout says."""
    mapped = _map(path, len(HEADER) + sum(length for _, length in layout or ()))
    spans: dict[str, tuple[int, int]] = {}
    if mapped is not None and layout and mapped[:len(HEADER)] == HEADER:
        offset = len(HEADER)
        for slug, length in layout:
            spans[slug] = (offset, offset + length)
            offset += length

    def rows(slug: str) -> bytes | None:
        span = spans.get(slug)
        return mapped[span[0]:span[1]] if span and mapped is not None else None

    try:
        yield rows
    finally:
        if mapped is not None:
            mapped.close()


def _map(path: Path, expected_size: int) -> mmap.mmap | None:
    try:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size != expected_size or expected_size == 0:
                return None
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None

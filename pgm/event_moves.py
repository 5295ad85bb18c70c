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
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from pgm.export import COLUMNS

NAME = "moves.csv"
HEADER = (",".join(COLUMNS) + "\n").encode("utf-8")

Layout = list[tuple[str, int]]
"""(slug, length in bytes of its rows) in file order."""


def write_event_moves(site: Path, target: Path, slugs: Sequence[str],
                      previous: Layout | None = None,
                      unchanged: frozenset[str] = frozenset()) -> Layout:
    """Write the file to ``target`` from the game folders of ``site``; rows of the
    ``unchanged`` games come from ``site/moves.csv`` when ``previous`` describes it.
    Returns the new layout."""
    with _previous_file(site / NAME, previous) as old:
        return _write(target, old, _pieces(site, slugs, old, unchanged))


def replace_event_moves(site: Path, slugs: Sequence[str], previous: Layout | None,
                        unchanged: frozenset[str]) -> tuple[Layout, bool]:
    """Rewrite ``site/moves.csv`` in place by one rename, so that a spectator
    downloading it gets the old file or the new one; left alone when its bytes would
    not change (a record's note edited, no move). Returns the layout and whether the
    file was written."""
    temp = site / f".{NAME}.{os.getpid()}.tmp"
    with _previous_file(site / NAME, previous) as old:
        layout = old.same(_pieces(site, slugs, old, unchanged))
        if layout is not None:
            return layout, False
        try:
            layout = _write(temp, old, _pieces(site, slugs, old, unchanged))
            os.replace(temp, site / NAME)
        finally:
            temp.unlink(missing_ok=True)
    return layout, True


Piece = tuple[int, int] | bytes
"""Rows copied from the previous file (a span of it), or a game's rows read anew."""


def _pieces(site: Path, slugs: Sequence[str], old: _Previous, unchanged: frozenset[str]
            ) -> Iterator[tuple[str, Piece]]:
    """Each game's rows in file order, read one game at a time: the file is never held."""
    for slug in slugs:
        span = old.spans.get(slug) if slug in unchanged else None
        rows = span or _game_rows(site / slug / NAME)
        if rows:
            yield slug, rows


def _length(piece: Piece) -> int:
    return piece[1] - piece[0] if isinstance(piece, tuple) else len(piece)


def _write(target: Path, old: _Previous, pieces: Iterable[tuple[str, Piece]]) -> Layout:
    """The header and every piece; neighbouring spans of the previous file, which is
    most of it after a rebuild, are copied in one write. Returns the layout."""
    layout: Layout = []
    with open(target, "wb") as handle:
        handle.write(HEADER)
        run: tuple[int, int] | None = None
        for slug, piece in pieces:
            layout.append((slug, _length(piece)))
            if isinstance(piece, tuple) and run and run[1] == piece[0]:
                run = (run[0], piece[1])
                continue
            if run:
                handle.write(old.view[run[0]:run[1]])
            run = piece if isinstance(piece, tuple) else None
            if isinstance(piece, bytes):
                handle.write(piece)
        if run:
            handle.write(old.view[run[0]:run[1]])
    return layout


def _game_rows(path: Path) -> bytes | None:
    """A game's rows without the header; None when there is no file or it is not pgm's."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    return data[len(HEADER):] if data.startswith(HEADER) else None


class _Previous:
    """The previous file, mapped rather than read, and where each game's rows are in
    it; trusted only when the file is exactly as long as its layout says."""

    def __init__(self, mapped: mmap.mmap | None, layout: Layout | None) -> None:
        self.mapped = mapped
        self.view = memoryview(mapped) if mapped is not None else memoryview(b"")
        self.spans: dict[str, tuple[int, int]] = {}
        if mapped is not None and layout and mapped[:len(HEADER)] == HEADER:
            offset = len(HEADER)
            for slug, length in layout:
                self.spans[slug] = (offset, offset + length)
                offset += length

    def same(self, pieces: Iterable[tuple[str, Piece]]) -> Layout | None:
        """The layout of ``pieces`` if they make up this very file, else None; stops
        reading at the first difference."""
        if self.mapped is None:
            return None
        layout: Layout = []
        offset = len(HEADER)
        for slug, piece in pieces:
            length = _length(piece)
            if piece != (offset, offset + length) and \
                    self.view[offset:offset + length] != piece:
                return None
            layout.append((slug, length))
            offset += length
        return layout if offset == len(self.mapped) else None

    def close(self) -> None:
        self.view.release()
        if self.mapped is not None:
            self.mapped.close()


@contextmanager
def _previous_file(path: Path, layout: Layout | None) -> Iterator[_Previous]:
    previous = _Previous(_map(path, len(HEADER) + sum(length for _, length in layout or ())),
                         layout)
    try:
        yield previous
    finally:
        previous.close()


def _map(path: Path, expected_size: int) -> mmap.mmap | None:
    try:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size != expected_size or expected_size == 0:
                return None
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None

"""The values parse and replay build without ``__init__`` (``frozen_instance``) are the
ones ``__init__`` would build: every field, in order, equal, hashable and frozen."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import CORPUS

from pgm.crossword import replay
from pgm.gcg import parse_gcg


def _games():
    for path in sorted((CORPUS / "gcg").glob("*.gcg"))[:40]:
        yield replay(parse_gcg(path.read_bytes(), str(path)))


def _same_as_init(value: object) -> None:
    cls = type(value)
    names = [f.name for f in dataclasses.fields(cls)]
    assert list(vars(value)) == names
    rebuilt = cls(**vars(value))
    assert value == rebuilt and hash(value) == hash(rebuilt) and repr(value) == repr(rebuilt)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, names[0], None)


def test_events_turns_and_positions_are_as_built_by_init() -> None:
    checked = 0
    for game in _games():
        _same_as_init(game.start)
        for turn in game.turns:
            for value in (turn, turn.event, turn.position):
                _same_as_init(value)
            checked += 1
    assert checked > 100

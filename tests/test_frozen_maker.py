"""``gcg_pragmas.frozen_maker``: the fast constructor of the values a replay makes per
event builds exactly what the class's own constructor builds."""

from __future__ import annotations

import pickle
from dataclasses import MISSING, FrozenInstanceError, dataclass, fields

import pytest

from pgm.crossword_model import Position, Turn
from pgm.gcg_model import Event, EventKind
from pgm.gcg_pragmas import frozen_maker

EVENT = (3, EventKind.PLAY, "Ann", "AEINRST", 66, 66, "8D", "RETAINS", "", None, "", (), (),
         ">Ann: AEINRST 8D RETAINS +66 66")


def test_made_value_is_the_constructed_one() -> None:
    made = frozen_maker(Event)(*EVENT)
    built = Event(*EVENT)
    assert made == built
    assert type(made) is Event
    assert list(vars(made).items()) == list(vars(built).items())
    assert pickle.dumps(made) == pickle.dumps(built)
    assert hash(made) == hash(built)


def test_made_value_stays_frozen() -> None:
    made = frozen_maker(Event)(*EVENT)
    with pytest.raises(FrozenInstanceError):
        made.score = 0  # type: ignore[misc]


@pytest.mark.parametrize("cls", [Event, Position, Turn])
def test_a_call_without_every_field_gets_the_defaults(cls: type) -> None:
    required = [f for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING]
    values = [object() for _ in required]
    assert frozen_maker(cls)(*values) == cls(*values)


def test_too_many_fields_fail_as_the_class_does() -> None:
    with pytest.raises(TypeError):
        frozen_maker(Event)(*EVENT, "extra")


def test_a_class_with_post_init_keeps_its_constructor() -> None:
    @dataclass(frozen=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError("negative")

    assert frozen_maker(Checked) is Checked

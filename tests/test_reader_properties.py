"""Property tests: the crossword readers never raise, whatever the input."""

from __future__ import annotations

import random

from conftest import CORPUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pgm.cgp import parse_cgp
from pgm.crossword import replay
from pgm.gcg import parse_gcg

RECORDS = [p.read_bytes() for p in sorted((CORPUS / "gcg").glob("*.gcg"))]
GCG_ALPHABET = st.sampled_from(list("#>:+-.?_()[]|/ \t\r\n0123456789ABCDEZaez·éÄ") +
                               ["#player1 ", "#player2 ", "#note ", "#tile ", "#rack1 ",
                                ">a: ", ">b: ", "8D ", "H8 ", "(challenge) ", "(time) ", "--"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.binary(max_size=400))
def test_gcg_any_bytes(data: bytes) -> None:
    replay(parse_gcg(data, "fuzz.gcg"))


@settings(max_examples=300, deadline=None)
@given(st.lists(GCG_ALPHABET, max_size=120).map("".join))
def test_gcg_text_made_of_gcg_pieces(text: str) -> None:
    game = replay(parse_gcg(text.encode("utf-8"), "fuzz.gcg"))
    for diagnostic in game.diagnostics:
        assert diagnostic.line >= 0 and diagnostic.message


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(RECORDS) - 1), st.integers(0, 2**32 - 1))
def test_gcg_mutations_of_real_records(index: int, seed: int) -> None:
    rng = random.Random(seed)
    data = bytearray(RECORDS[index])
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(data))
        action = rng.random()
        if action < 0.4:
            data[at] = rng.randrange(256)
        elif action < 0.7:
            del data[at:at + rng.randint(1, 20)]
        else:
            data[at:at] = bytes(rng.choice(RECORDS)[at:at + rng.randint(1, 40)])
    game = replay(parse_gcg(bytes(data), "mutant.gcg"))
    assert len(game.turns) <= len(game.record.events)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_cgp_any_text(text: str) -> None:
    result = parse_cgp(text)
    assert result.position is not None or result.diagnostics


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("15/ABZ?[]·.;-0123 ") + ["lex CSW21;", "ld catalan;",
                                                              "bdn x;", "QU", "L·L"]),
                max_size=80).map("".join))
def test_cgp_text_made_of_cgp_pieces(text: str) -> None:
    parse_cgp(text)

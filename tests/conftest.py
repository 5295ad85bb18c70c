"""Shared fixtures: where the reference corpus lives, and small record builders."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
SAMPLE_GAMES = ROOT / "sample_games"


def corpus_file(relative: str) -> Path:
    return CORPUS / relative


def gcg_bytes(text: str) -> bytes:
    """A record written inline in a test, dedented, as Latin-1 bytes."""
    return textwrap.dedent(text).lstrip("\n").encode("latin-1")


@pytest.fixture
def corpus() -> Path:
    return CORPUS


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, one per test module. Imported here, not at the top: the tests
    that need no browser do not load Playwright."""
    from browserhelpers import chromium

    with chromium() as launched:
        yield launched

"""CGP boards of other sizes in Chromium: the squares stay square and the whole board,
headers to the last column (AA and past), fits a desktop window and a phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from browserhelpers import board_squares, open_page
from playwright.sync_api import Browser
from sitehelpers import make_event, run_build

from pgm.board import MAX_SIZE, column_name

SIZES = (2, 11, 19, 27, MAX_SIZE)
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 812}}


def _line(size: int) -> str:
    """An empty board of ``size`` with one tile in its last square."""
    rows = [str(size)] * size
    rows[-1] = f"{size - 1}Q"
    return "/".join(rows) + " AB/CD 0/0 0"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sizes-browser")
    body = "".join(f"{_line(size)}\n" for size in SIZES)
    event = make_event(root / "ev", {"sizes.cgp": body.encode()})
    result = run_build(str(event), "-o", str(root / "site"), "--strict")
    assert result.exit_code == 0, result.output
    return root / "site/sizes"


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("number,size", list(enumerate(SIZES, start=1)))
def test_a_board_of_any_size_is_whole_square_and_fits(browser: Browser, site: Path,
                                                      number: int, size: int,
                                                      viewport: str) -> None:
    with open_page(browser, viewport=VIEWPORTS[viewport]) as page:
        page.goto((site / f"{number}.html").as_uri())
        squares = board_squares(page)
        assert len(squares) == size * size
        assert squares[size - 1].column == column_name(size - 1)
        assert squares[-1].row == str(size)
        last = f"{column_name(size - 1)}{size}"
        assert squares[-1].name == f"{last}, Q, 10 points", squares[-1]
        inner = page.evaluate("innerWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= inner
        board = page.locator("table.board").bounding_box()
        assert board and board["x"] >= 0 and board["x"] + board["width"] <= inner, board
        cells = page.locator("table.board tbody td")
        for index in (0, size * size - 1):
            box = cells.nth(index).bounding_box()
            assert box and abs(box["width"] - box["height"]) <= 1.5, (index, box)

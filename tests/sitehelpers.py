"""Helpers to build events in tmp_path and read the pages back structurally."""

from __future__ import annotations

import re
import textwrap
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from click.testing import CliRunner

from pgm.cli import main


def make_event(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return root


def run_build(*args: str):
    return CliRunner().invoke(main, ["build", *args])


class _Squares(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.squares: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        label = values.get("aria-label") or ""
        if tag == "td" and "sq" in (values.get("class") or "").split():
            self.squares[label.split(",")[0]] = label


def board_squares(html: str) -> dict[str, str]:
    """Square name -> accessible name, from the first board table of a page."""
    first_board = html.split('<table class="board', 1)[1].split("</table>", 1)[0]
    parser = _Squares()
    parser.feed('<table class="board' + first_board)
    return parser.squares


def tiles_on(html: str) -> dict[str, str]:
    """Square name -> letter for occupied squares (blank as lower case)."""
    result = {}
    for name, label in board_squares(html).items():
        parts = [p.strip() for p in label.split(",")]
        if parts[1] == "empty":
            continue
        letter = parts[1]
        result[name] = letter[-1].lower() if letter.startswith("blank as") else letter
    return result


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))

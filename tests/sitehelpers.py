"""Helpers to build events in tmp_path and read the pages back structurally."""

from __future__ import annotations

import contextlib
import re
import textwrap
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from click.testing import CliRunner

from pgm.build import BuildOptions
from pgm.cli import main
from pgm.live import watch
from pgm.state import STATE_NAME


def make_event(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return root


def record_prefix(record: bytes, events: int) -> bytes:
    """A record cut after its first ``events`` event lines, as an annotator saves it
    while the game goes on."""
    out, seen = [], 0
    for line in record.rstrip(b"\n").split(b"\n"):
        if line.startswith(b">"):
            if seen == events:
                break
            seen += 1
        out.append(line)
    return b"\n".join(out) + b"\n"


def wait_for(condition: Callable[[], object], seconds: float = 15.0) -> bool:
    """Whether ``condition`` came true within ``seconds``, asked every 50 ms."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@contextlib.contextmanager
def watching(options: BuildOptions, report: Callable[[object], object] = lambda _: None
             ) -> Iterator[None]:
    """``pgm watch`` running in a thread for the ``with`` block, stopped after it (and
    found stopped: a watcher that outlives its test would go on writing)."""
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(options, report, stop), daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


def copy_warning(copy: Path, original: Path) -> str:
    """The warning line of a record that is a copy of another (pgm.event_checks)."""
    return (f"{copy}:1: warning: the same game as {original} (players and moves): listed "
            "twice, and counted twice on the player index once it has a result; remove the "
            "copy, or make one of them a draft in event.yaml")


def site_files(out: Path) -> dict[str, bytes]:
    """Every file a spectator can load, by path. The build's own bookkeeping is left
    out: it records a record's file time only once the save has settled (1 s), so two
    builds of the same site can differ there."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != STATE_NAME}


def run_build(*args: str):
    return CliRunner().invoke(main, ["build", *args])


def build_sample(out: Path) -> Path:
    """The bundled sample event built into ``out`` with ``--strict``: it must build clean."""
    from conftest import SAMPLE_GAMES

    result = run_build(str(SAMPLE_GAMES), "-o", str(out), "--strict")
    assert result.exit_code == 0, result.output
    return out


class _Squares(HTMLParser):
    """Collects each square's accessible name: the text of its cell, which is all the cell
    holds (the letter, points and premium shown come from CSS with empty alt text)."""

    def __init__(self) -> None:
        super().__init__()
        self.squares: dict[str, str] = {}
        self._in_body = False
        self._name: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tbody":
            self._in_body = True
        elif tag == "td" and self._in_body:
            self._name = []

    def handle_data(self, data: str) -> None:
        if self._name is not None:
            self._name.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._name is not None:
            label = "".join(self._name)
            self.squares[label.split(",")[0]] = label
            self._name = None


def board_squares(html: str) -> dict[str, str]:
    """Square name -> accessible name, from the first board table of a page."""
    first_board = html.split('<table class="board', 1)[1].split("</table>", 1)[0]
    parser = _Squares()
    parser.feed('<table class="board' + first_board)
    return parser.squares


def tiles_on(html: str) -> dict[str, str]:
    """Square name -> letter for occupied squares (blank as lower case)."""
    return tiles_named(board_squares(html).values())


def tiles_named(labels: Iterable[str]) -> dict[str, str]:
    """Square name -> letter for the occupied squares among accessible names such as
    "L6, blank as I, 0 points, just played" (blank as lower case); shared by the tests that
    read names from the HTML and those that read them from a browser."""
    result = {}
    for label in labels:
        parts = [p.strip() for p in label.split(",")]
        if parts[1] == "empty":
            continue
        letter = parts[1]
        result[parts[0]] = letter[-1].lower() if letter.startswith("blank as") else letter
    return result


def text_of(html: str) -> str:
    """The text of ``html`` with a space for each tag but ``<bdi>``, which isolates a
    name inside a sentence ("Unseen by <bdi>Ann</bdi>: 86") and breaks no word."""
    html = re.sub(r"</?bdi>", "", html)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))

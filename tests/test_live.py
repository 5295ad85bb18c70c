"""Live annotation without a browser: watch, serve, and readers during rewrites."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from conftest import CORPUS
from sitehelpers import make_event, record_prefix

from pgm.build import BuildOptions, build
from pgm.live import serve, watch

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def prefix(events: int) -> bytes:
    return record_prefix(RECORD, events)


def wait_for(condition, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        return


def game_json(folder: Path) -> dict:
    return json.loads((folder / "game.json").read_text())


def static_server(folder: Path) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def test_watch_rebuilds_when_a_record_is_saved(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"live/board-1.gcg": prefix(4)})
    out = tmp_path / "site"
    stop = threading.Event()
    reports: list[object] = []
    thread = threading.Thread(target=watch, args=(BuildOptions(event, out), reports.append,
                                                  stop), daemon=True)
    thread.start()
    try:
        assert wait_for(lambda: (out / "live/board-1/4.html").is_file())
        time.sleep(0.3)  # let the watcher settle before the annotator saves
        (event / "live/board-1.gcg").write_bytes(prefix(6))
        assert wait_for(lambda: (out / "live/board-1/6.html").is_file())
        # game.json is written after the pages (a poll never points at a missing page)
        assert wait_for(lambda: game_json(out / "live/board-1")["turns"] == 6)
        assert game_json(out / "live/board-1")["live"] is True
        (event / "event.yaml").write_text("title: Live club night\n")
        assert wait_for(lambda: "Live club night" in (out / "index.html").read_text())
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


def test_readers_never_get_a_torn_page_or_a_404_during_rewrites(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(10), "board-2.gcg": RECORD})
    out = tmp_path / "site"
    build(BuildOptions(event, out, keep_last_good=True))
    server, url = static_server(out)
    pages = [f"board-1/{n}.html" for n in range(1, 9)] + ["board-1/index.html", "index.html",
                                                         "board-2/3.html", "players.html"]
    stop = threading.Event()
    rebuilds = [0]

    def annotate() -> None:
        sizes = [10, 12, 9, 14, 11]
        while not stop.is_set() and rebuilds[0] < 40:
            (event / "board-1.gcg").write_bytes(prefix(sizes[rebuilds[0] % len(sizes)]))
            build(BuildOptions(event, out, keep_last_good=True))
            rebuilds[0] += 1

    writer = threading.Thread(target=annotate, daemon=True)
    writer.start()
    fetched = 0
    try:
        deadline = time.monotonic() + 20
        while writer.is_alive() and time.monotonic() < deadline:
            for page in pages:
                status, body = fetch(url + page)
                assert status == 200, page
                assert body.rstrip().endswith(b"</html>"), page
                fetched += 1
            status, body = fetch(url + "board-1/game.json")
            assert status == 200 and json.loads(body)["turns"] >= 9
    finally:
        stop.set()
        writer.join(timeout=30)
        server.shutdown()
        server.server_close()
    assert rebuilds[0] >= 10 and fetched >= 100


def test_serve_builds_into_a_temporary_folder_and_reloads(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5),
                                         "event.yaml": "games:\n  board-1.gcg: {live: false}\n"})
    stop = threading.Event()
    where: dict[str, object] = {}

    def ready(url: str, out: Path) -> None:
        where["url"], where["out"] = url, out

    thread = threading.Thread(target=serve, args=(BuildOptions(event), 0, lambda r: None,
                                                  ready, stop), daemon=True)
    thread.start()
    try:
        assert wait_for(lambda: "url" in where)
        url = str(where["url"])
        assert url.startswith("http://127.0.0.1:")
        assert not (event / "_site").exists()
        assert not Path(str(where["out"])).is_relative_to(event)
        status, page = fetch(url + "board-1/3.html")
        assert status == 200 and b"/__pgm__/version" in page
        first = fetch(url + "__pgm__/version")[1]
        time.sleep(0.3)
        (event / "board-1.gcg").write_bytes(prefix(7))
        assert wait_for(lambda: fetch(url + "__pgm__/version")[1] != first)
        assert fetch(url + "board-1/7.html")[0] == 200
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not Path(str(where["out"])).exists()

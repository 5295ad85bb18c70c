"""Live annotation without a browser: watch, serve, and readers during rewrites."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import watchfiles
from conftest import CORPUS
from sitehelpers import make_event, record_prefix, wait_for, watching

from pgm.build import BuildOptions, build
from pgm.live import SiteHandler, _relevant, serve

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def prefix(events: int) -> bytes:
    return record_prefix(RECORD, events)


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
    with watching(BuildOptions(event, out)):
        assert wait_for(lambda: (out / "live/board-1/4.html").is_file())
        time.sleep(0.3)  # let the watcher settle before the annotator saves
        (event / "live/board-1.gcg").write_bytes(prefix(6))
        assert wait_for(lambda: (out / "live/board-1/6.html").is_file())
        # game.json is written after the pages (a poll never points at a missing page)
        assert wait_for(lambda: game_json(out / "live/board-1")["turns"] == 6)
        assert game_json(out / "live/board-1")["live"] is True
        (event / "event.yaml").write_text("title: Live club night\n")
        assert wait_for(lambda: "Live club night" in (out / "index.html").read_text())


def test_watch_rebuilds_when_a_folder_is_renamed_moved_in_or_moved_out(tmp_path) -> None:
    # The watcher reports such a folder alone, not the records inside it.
    event = make_event(tmp_path / "ev", {"r2/board-1.gcg": RECORD, "board-0.gcg": prefix(4)})
    elsewhere = make_event(tmp_path / "elsewhere", {"r5/board-5.gcg": prefix(6)})
    out = tmp_path / "site"
    with watching(BuildOptions(event, out)):
        assert wait_for(lambda: (out / "r2/board-1/index.html").is_file())
        time.sleep(0.3)  # let the watcher settle before the folders move
        (event / "r2").rename(event / "r9")
        assert wait_for(lambda: (out / "r9/board-1/index.html").is_file())
        assert wait_for(lambda: not (out / "r2/board-1").exists())
        (elsewhere / "r5").rename(event / "r5")
        assert wait_for(lambda: (out / "r5/board-5/6.html").is_file())
        (event / "r9").rename(tmp_path / "moved-out")
        assert wait_for(lambda: not (out / "r9/board-1").exists())
        assert (out / "r5/board-5/6.html").is_file()
        assert (out / "board-0/4.html").is_file()


def test_folders_the_build_writes_or_editors_keep_never_start_a_rebuild(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"r1/board-1.gcg": RECORD, ".git/HEAD": "ref\n",
                                         "_drafts/board-2.gcg": RECORD})
    out = event / "public" / "site"
    for folder in (out, out / "r1" / "board-1", event / ".git" / "objects" / "ab"):
        folder.mkdir(parents=True)
    added, deleted = watchfiles.Change.added, watchfiles.Change.deleted

    def relevant(change: watchfiles.Change, path: Path) -> bool:
        return _relevant(event, out, change, str(path))

    # the output folder, the folder the build makes on the way to it, and what is inside
    assert not relevant(added, out)
    assert not relevant(added, event / "public")
    assert not relevant(deleted, out / "r1" / "board-1")
    assert not relevant(added, out / "r1" / "board-1" / "3.html")
    # hidden folders, folders pgm does not search, editors' files, also what is in them
    assert not relevant(added, event / ".git" / "objects" / "ab")
    assert not relevant(deleted, event / "_drafts")
    assert not relevant(watchfiles.Change.modified, event / "_drafts" / "board-2.gcg")
    staging = event / "public" / ".site.pgm-new-77"
    assert not relevant(added, staging / "r1" / "board-1" / "3.html")
    assert not relevant(added, staging / "static" / "pgm.css")
    assert not relevant(watchfiles.Change.modified, event / ".venv" / "lib" / "x.js")
    # a theme folder pgm does not search for records is still watched
    assert relevant(watchfiles.Change.modified, event / "_theme" / "turn.html")
    assert not relevant(deleted, event / "r1" / ".board-1.gcg.swp")
    assert not relevant(added, event / "r1" / "board-1.gcg~")
    # a folder changing its metadata, or a file without a suffix appearing
    assert not relevant(watchfiles.Change.modified, event / "r1")
    (event / "NOTES").write_text("remember the tiles\n")
    assert not relevant(added, event / "NOTES")
    # folders coming and going where records are searched
    assert relevant(added, event / "r1")
    assert relevant(deleted, event / "r7")
    assert relevant(deleted, event / "r1" / "board-1.gcg")
    # a record an editor saved as text, for the build to say what to rename it to
    assert relevant(added, event / "r1" / "board-6.gcg.txt")
    assert not relevant(added, event / "r1" / "pairings.txt")  # a pairing program's


def test_every_file_of_the_theme_counts_but_an_editors(tmp_path) -> None:
    """A logo or a font saved into the theme's static/ is published by a rebuild; what an
    editor keeps beside the file it shows is not, and starts none."""
    event = make_event(tmp_path / "ev", {"r1/board-1.gcg": RECORD,
                                         "event.yaml": "theme_dir: club-theme\n"})
    out = tmp_path / "site"
    modified, added = watchfiles.Change.modified, watchfiles.Change.added

    def relevant(change: watchfiles.Change, path: Path) -> bool:
        return _relevant(event, out, change, str(path))

    theme = event / "club-theme"
    assert relevant(modified, theme / "static" / "logo.png")
    assert relevant(added, theme / "static" / "fonts" / "club.woff2")
    assert relevant(added, theme / "static" / ".htaccess")  # published as any other file
    assert relevant(added, theme / "README")
    for junk in (".logo.png.swp", "logo.png~", ".DS_Store", "#logo.png#", "logo.png.bak",
                 "logo.png.orig", ".#logo.png"):
        assert not relevant(modified, theme / "static" / junk), junk
    assert not relevant(modified, theme / ".git" / "index")
    assert not relevant(modified, event / "photos" / "logo.png")  # not the theme's
    # the theme folder named anew in event.yaml is the one watched
    (event / "event.yaml").write_text("theme_dir: ./themes/club/\n")
    assert relevant(modified, event / "themes" / "club" / "static" / "logo.png")
    assert not relevant(modified, theme / "static" / "logo.png")


def test_watch_publishes_a_logo_saved_into_the_themes_static_folder(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"r1/board-1.gcg": prefix(4),
                                         "event.yaml": "theme_dir: club-theme\n",
                                         "club-theme/static/logo.png": b"\x89PNG first"})
    out = tmp_path / "site"
    with watching(BuildOptions(event, out)):
        assert wait_for(lambda: (out / "static/logo.png").is_file())
        time.sleep(0.3)  # let the watcher settle before the designer saves
        (event / "club-theme/static/logo.png").write_bytes(b"\x89PNG second")
        (event / "club-theme/static/font.woff2").write_bytes(b"wOF2")
        assert wait_for(lambda: (out / "static/logo.png").read_bytes() == b"\x89PNG second")
        assert wait_for(lambda: (out / "static/font.woff2").is_file())


def test_readers_never_get_a_torn_page_or_a_404_during_rewrites(tmp_path,
                                                              monkeypatch) -> None:
    # every rewrite published at once, turns taken back too (see test_watch_settling)
    monkeypatch.setattr("pgm.workers.SAVE_SETTLE_NS", 0)
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


def test_live_json_index_changes_with_what_the_index_shows_not_with_moves(tmp_path) -> None:
    """live.json's "index" tells an open event index when it has to look at itself: not
    after a move (status and turns are refreshed in place), but when a player is
    renamed, the title changes, a game stops at an error or is added, and when the last
    game in progress ends (the index then says no more games are in progress)."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5), "board-2.gcg": prefix(3),
                                         "event.yaml": "title: Club night\n"})
    out = tmp_path / "site"

    def index_after(name: str, content: bytes) -> str:
        (event / name).write_bytes(content)
        build(BuildOptions(event, out, jobs=1))
        return json.loads((out / "live.json").read_text())["index"]

    build(BuildOptions(event, out, jobs=1))
    live = json.loads((out / "live.json").read_text())
    assert [sorted(game) for game in live["games"]] == [
        ["in_progress", "live", "slug", "status", "turns", "updated"]] * 2
    seen = [live["index"]]
    assert index_after("board-1.gcg", prefix(6)) == seen[0]
    assert index_after("board-1.gcg", prefix(7) + b"#note a note\n") == seen[0]
    for name, content in [
            ("board-2.gcg", prefix(3).replace(b"#player2 cesar cesar", b"#player2 cesar Cesar")),
            ("event.yaml", b"title: Club night, final round\n"),
            ("board-1.gcg", prefix(7) + b">nobody: ABC 8H ABC +10 10\n"),
            ("board-3.gcg", prefix(2))]:
        seen.append(index_after(name, content))
        assert seen[-1] not in seen[:-1], name
    # A game ends while another goes on: its row's status and class say so in place.
    assert index_after("board-3.gcg", RECORD) == seen[-1]
    # board-1's wrong line stops its replay, and it stays in progress until put right
    assert json.loads((out / "board-1/game.json").read_text())["live"] is True
    seen.append(index_after("board-1.gcg", RECORD))
    assert index_after("board-2.gcg", RECORD) not in seen
    assert not any(game["live"] for game in json.loads((out / "live.json").read_text())["games"])
    # the index no longer follows games in progress: it only looks for new ones, slowly
    index = (out / "index.html").read_text()
    assert "data-waiting" in index and 'id="live-status"' not in index


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


def test_serve_sends_a_record_as_text_in_the_charset_of_its_bytes(tmp_path) -> None:
    """A browser shows ``input.gcg`` instead of downloading it (the system's MIME table
    may call .gcg a chemistry format), its accents right."""
    latin = RECORD.replace(b"#player1 andy", "#player1 andy Andrés".encode("latin-1"), 1)
    out = tmp_path / "site"
    build(BuildOptions(make_event(tmp_path / "ev", {"a.gcg": RECORD, "b.gcg": latin}), out))
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SiteHandler, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        types = {}
        for name in ("a", "b"):
            with urllib.request.urlopen(f"{url}{name}/input.gcg", timeout=5) as response:
                types[name] = response.headers["Content-Type"]
        assert types == {"a": "text/plain; charset=utf-8", "b": "text/plain; charset=iso-8859-1"}
    finally:
        server.shutdown()
        server.server_close()


def test_the_preview_of_an_event_with_a_public_address_stays_in_the_preview(tmp_path) -> None:
    """The 404 page and canonical links name the site's address: the preview has none,
    so its styles and links work wherever it is opened (through a forwarded port too)."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5), "event.yaml":
                                         "base_url: https://example.org/open/\n"})
    stop = threading.Event()
    where: dict[str, str] = {}
    thread = threading.Thread(target=serve, args=(
        BuildOptions(event), 0, lambda r: None,
        lambda url, out: where.setdefault("url", url), stop), daemon=True)
    thread.start()
    try:
        assert wait_for(lambda: "url" in where)
        url = where["url"]
        missing = fetch(url + "404.html")[1].decode()
        assert 'href="/static/pgm.css"' in missing and "example.org" not in missing
        assert "example.org" not in fetch(url + "board-1/3.html")[1].decode()
        assert fetch(url + "sitemap.xml")[0] == 404
    finally:
        stop.set()
        thread.join(timeout=10)


def test_serve_tells_every_page_of_each_rebuild_that_changed_the_site(tmp_path) -> None:
    """Pages of a game in progress get the script too (it tells them to look at once);
    a save that changes nothing in the site changes no version, so no page reloads."""
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5)})
    stop = threading.Event()
    where: dict[str, object] = {}
    builds: list[object] = []

    def ready(url: str, out: Path) -> None:
        where["url"] = url

    thread = threading.Thread(target=serve, args=(BuildOptions(event), 0, builds.append,
                                                  ready, stop), daemon=True)
    thread.start()
    try:
        assert wait_for(lambda: "url" in where)
        url = str(where["url"])
        status, page = fetch(url + "board-1/5.html")
        assert status == 200 and b'data-live="game.json"' in page
        assert b"/__pgm__/version" in page and b"pgm:rebuilt" in page
        first = fetch(url + "__pgm__/version")[1]
        time.sleep(0.3)
        (event / "board-1.gcg").write_bytes(prefix(5))  # saved again, unchanged
        assert wait_for(lambda: len(builds) == 2)
        (event / "board-1.gcg").write_bytes(prefix(6))
        assert wait_for(lambda: fetch(url + "__pgm__/version")[1] != first)
        assert int(fetch(url + "__pgm__/version")[1]) == int(first) + 1
        assert len(builds) == 3
    finally:
        stop.set()
        thread.join(timeout=10)


@contextlib.contextmanager
def serve_process(event: Path, temp: Path) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """``pgm serve`` as a user runs it, with its temporary folders in ``temp``; the lines
    it prints are collected as they come. Killed on the way out if still running."""
    lines: list[str] = []
    with subprocess.Popen([sys.executable, "-m", "pgm", "serve", str(event), "--port", "0"],
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "TMPDIR": str(temp)}) as process:
        reader = threading.Thread(target=lambda: lines.extend(process.stderr or ()),
                                  daemon=True)
        reader.start()
        try:
            yield process, lines
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
            reader.join(timeout=10)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX")
def test_serve_removes_its_temporary_folder_when_killed(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5)})
    temp = tmp_path / "tmp"
    temp.mkdir()
    with serve_process(event, temp) as (process, lines):
        assert wait_for(lambda: any("Serving" in line for line in lines), 60)
        url = next(line for line in lines if "Serving" in line).split(" at ")[1].split()[0]
        assert fetch(url + "board-1/5.html")[0] == 200
        assert list(temp.glob("pgm-serve-*/site/board-1"))
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0  # a clean stop, as after Ctrl-C
    assert not list(temp.glob("pgm-serve-*"))


def test_serve_killed_during_its_first_build_cleans_up_too(tmp_path) -> None:
    """The signal lands while the watcher is still writing the first site: serve waits
    for that build to end, then removes the folder."""
    event = make_event(tmp_path / "ev", {f"r{n % 8}/board-{n}.gcg": RECORD for n in range(160)})
    temp = tmp_path / "tmp"
    temp.mkdir()
    with serve_process(event, temp) as (process, lines):
        # the first build is writing its staging folder
        assert wait_for(lambda: list(temp.glob("pgm-serve-*/.site.pgm-new-*/r*")), 60)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
        assert not any("Serving" in line for line in lines)  # stopped before serving
    assert not list(temp.glob("pgm-serve-*"))


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is POSIX")
def test_serve_stops_on_sigterm_like_ctrl_c_and_puts_the_handler_back(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"board-1.gcg": prefix(5)})
    caught: list[int] = []

    def handler(signum: int, frame: object) -> None:
        caught.append(signum)

    previous = signal.signal(signal.SIGTERM, handler)
    where: dict[str, Path] = {}
    stop, ended = threading.Event(), threading.Event()

    def kill(url: str) -> None:
        fetch(url)
        os.kill(os.getpid(), signal.SIGTERM)
        if not ended.wait(30):
            stop.set()  # the signal did not stop it: end the test instead of hanging

    def ready(url: str, out: Path) -> None:
        where["out"] = out
        threading.Thread(target=kill, args=(url,), daemon=True).start()

    try:
        with pytest.raises(KeyboardInterrupt):
            try:
                serve(BuildOptions(event), 0, lambda r: None, ready, stop)
            finally:
                ended.set()
        after = signal.getsignal(signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert not caught  # serve's handler took the signal, not the one it replaced
    assert after is handler
    assert not where["out"].exists()


@pytest.mark.parametrize("out", ["mysite", "ev"])
def test_watch_stops_at_once_on_an_output_folder_it_must_not_write(tmp_path, out) -> None:
    """A folder pgm did not make, or the event itself: no edit of a record mends that,
    so pgm watch says why and exits, as pgm build does, instead of waiting."""
    make_event(tmp_path / "ev", {"g.gcg": RECORD})
    (tmp_path / "mysite").mkdir()
    (tmp_path / "mysite/notes.txt").write_text("mine")
    done = subprocess.run([sys.executable, "-m", "pgm", "watch", "ev", "-o", out],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Error: the output folder " in done.stderr
    assert (tmp_path / "mysite/notes.txt").read_text() == "mine"
    assert sorted(p.name for p in (tmp_path / "ev").iterdir()) == ["g.gcg"]


def test_the_index_gives_the_update_time_of_the_games_in_progress(tmp_path) -> None:
    """"Games in progress · updated" gave the time of whatever file changed last: a set
    of positions saved after the last move made the games look updated when they were
    not."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Live\n",
        "live.gcg": record_prefix((CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes(), 5),
        "puzzles.cgp": "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ABC/DEF 0/0 0\n"})
    os.utime(event / "live.gcg", (1_780_000_000, 1_780_000_000))  # 2026-05-28 20:26:40 UTC
    os.utime(event / "puzzles.cgp", (1_790_000_000, 1_790_000_000))
    build(BuildOptions(event, tmp_path / "site"))
    index = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert ('Games in progress · updated <time datetime="2026-05-28T20:26:40+00:00">'
            '2026-05-28 20:26:40 UTC</time>') in index


def test_a_finished_game_followed_for_corrections_is_not_a_game_in_progress(tmp_path) -> None:
    """With ``live: true`` a finished game's pages follow its record for corrections:
    live.json says it is live (the index polls at the pace of a live event) and not in
    progress, and a correction to it is not the "Games in progress · updated" time of
    the game that is."""
    event = make_event(tmp_path / "ev", {"event.yaml": "live: true\n", "board-1.gcg": RECORD,
                                         "board-2.gcg": prefix(5)})
    os.utime(event / "board-2.gcg", (1_780_000_000, 1_780_000_000))  # 2026-05-28 20:26:40 UTC
    os.utime(event / "board-1.gcg", (1_790_000_000, 1_790_000_000))  # corrected later
    build(BuildOptions(event, tmp_path / "site"))
    live = json.loads((tmp_path / "site/live.json").read_text())
    assert [(g["slug"], g["live"], g["in_progress"]) for g in live["games"]] == [
        ("board-1", True, False), ("board-2", True, True)]
    index = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert ('Games in progress · updated <time datetime="2026-05-28T20:26:40+00:00">'
            '2026-05-28 20:26:40 UTC</time>') in index

    (event / "board-2.gcg").write_bytes(RECORD)
    build(BuildOptions(event, tmp_path / "site"))
    live = json.loads((tmp_path / "site/live.json").read_text())
    assert [(g["live"], g["in_progress"]) for g in live["games"]] == [(True, False)] * 2
    index = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert 'id="live-status"' not in index and "data-waiting" not in index


def test_pages_of_a_game_in_progress_give_the_date_of_the_last_change(tmp_path) -> None:
    """Without JavaScript the time of the last change is all a reader has: with no date, a
    game last changed yesterday reads as changed today."""
    event = make_event(tmp_path / "ev", {
        "live.gcg": record_prefix((CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes(), 5)})
    os.utime(event / "live.gcg", (1_780_000_000, 1_780_000_000))  # 2026-05-28 20:26:40 UTC
    build(BuildOptions(event, tmp_path / "site"))
    for page in ("index.html", "1.html", "5.html"):
        html = (tmp_path / "site/live" / page).read_text(encoding="utf-8")
        assert ('updated <time datetime="2026-05-28T20:26:40+00:00">'
                '2026-05-28 20:26:40 UTC</time>') in html, page

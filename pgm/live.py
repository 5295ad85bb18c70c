"""Live annotation: rebuild as records are saved (``pgm watch``) and preview (``pgm serve``).

Watching applies incremental builds, which write each file by an atomic rename, so a web
server publishing the output folder never hands out a torn page or a 404 for a page that
existed. While a record does not replay cleanly (an editor's half-written save) its game
keeps the last good pages.

``pgm serve`` builds into a temporary folder (never the publish folder) and serves it on
127.0.0.1. Each page it hands out asks every second whether a rebuild changed the site:
then a page of a game in progress (or the event index while games are) looks at once
whether its game moved on or its own content changed, as it does at every poll
(static/pgm-live.js), and any other page reloads.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import watchfiles

from pgm.build import BuildOptions, BuildResult, build
from pgm.build_errors import BuildError, OutputFolderError
from pgm.config import event_values
from pgm.discover import CONFIG_NAME, RECORD_EXTENSIONS, editor_file
from pgm.state import SAVE_SETTLE_NS

Report = Callable[[BuildResult | BuildError], None]


_SEARCHED_SUFFIXES = RECORD_EXTENSIONS + (".yaml", ".yml")  # .yml: to warn of it
_PAGE_SUFFIXES = (".html", ".css", ".js")
"""Templates and stylesheets (a ``css`` sheet may be anywhere in the event folder)."""


def _relevant(event: Path, out: Path, change: watchfiles.Change, path: str) -> bool:
    """Records, event.yaml files, stylesheets and every file of the theme folder (its
    templates, and the images and fonts of its ``static/``) count, and so do folders
    coming or going where records are searched. The output (and the folders on the way
    to it, which the build makes), anything in a hidden folder (the build's staging
    folder beside the output, .git) and editors' temporary files and backups
    (``pgm.discover.editor_file``) do not, or every build would start another. Records
    and folders in a folder starting with '_' do not either (pgm does not search it), but
    theme files there do: a theme folder is often named so."""
    candidate = Path(path)
    if candidate.is_relative_to(out) or out.is_relative_to(candidate) \
            or candidate.name.startswith("~") or editor_file(candidate.name):
        return False
    theme = _theme_folder(event)
    if theme is not None and candidate.is_relative_to(theme):
        # a hidden file is copied as any other (static/.htaccess), not a hidden folder
        inside = candidate.relative_to(theme).parts
        return not any(part.startswith(".") for part in inside[:-1]) and \
            not (inside and inside[-1].startswith(".") and candidate.is_dir())
    below = candidate.relative_to(event).parts if candidate.is_relative_to(event) \
        else (candidate.name,)
    if any(part.startswith(".") for part in below):
        return False
    suffix = candidate.suffix.lower()
    if suffix in _PAGE_SUFFIXES:
        return True
    if any(part.startswith("_") for part in below):
        return False
    return suffix in _SEARCHED_SUFFIXES or _saved_as_text(candidate) or \
        _folder_came_or_went(change, candidate)


def _theme_folder(event: Path) -> Path | None:
    """The folder the root ``event.yaml`` of ``event`` names as ``theme_dir``, None
    without one; read again only when that file changed (the watch asks at every
    change it hears of)."""
    config = event / CONFIG_NAME
    try:
        info = os.stat(config)
        stamp = (info.st_mtime_ns, info.st_size, info.st_ino)
    except OSError:
        stamp = None
    known = _THEME_FOLDERS.get(config)
    if known is None or known[0] != stamp:
        folder = None
        if stamp is not None:
            name = event_values(config).get("theme_dir")
            if isinstance(name, str) and name.strip():
                folder = Path(os.path.normpath(event / name))
        known = _THEME_FOLDERS[config] = (stamp, folder)
    return known[1]


_THEME_FOLDERS: dict[Path, tuple[tuple[int, int, int] | None, Path | None]] = {}
"""By event.yaml: the stamp of the file :func:`_theme_folder` read, and its answer."""


def _saved_as_text(path: Path) -> bool:
    """A record an editor saved as text (``table-6.gcg.txt``), for the build to say at
    once what to rename it to; not every ``.txt`` (a pairing program writes many)."""
    return path.suffix.lower() == ".txt" and Path(path.stem).suffix.lower() in RECORD_EXTENSIONS


def _folder_came_or_went(change: watchfiles.Change, path: Path) -> bool:
    """A folder renamed or moved in is reported alone, not the records it brings, and one
    moved out takes its records along unreported. A path gone can no longer be looked at,
    so a name without a suffix counts when deleted (a folder's name seldom has one)."""
    if change == watchfiles.Change.added:
        return path.is_dir()
    return change == watchfiles.Change.deleted and not path.suffix


def rebuild(options: BuildOptions, report: Report,
            waiting: Callable[[str], None] | None = None) -> BuildResult | None:
    """Build and report the result, or the error that stopped it (None then); an output
    folder pgm must not write is raised: waiting for changes would not mend it.
    ``waiting`` hears when another build is writing the site first."""
    try:
        result = build(options, waiting=waiting)
    except OutputFolderError:
        raise
    except BuildError as exc:
        report(exc)
        return None
    report(result)
    return result


def _settle_seconds() -> float:
    return SAVE_SETTLE_NS / 1e9


def watch(options: BuildOptions, report: Report, stop: threading.Event | None = None,
          on_build: Callable[[BuildResult | None], None] | None = None,
          waiting: Callable[[str], None] | None = None) -> None:
    """Build, then rebuild after every relevant change until ``stop`` is set;
    ``on_build`` is called after each build with its result (None: it failed), and
    ``waiting`` when a build waits for another writing the site."""
    out = (options.out or options.event_dir / "_site").resolve()
    options = replace(options, out=out, keep_last_good=True, good_configs={})
    stop = stop or threading.Event()

    def settled_rebuild() -> None:
        """Build; again while a record just saved looks caught half-way, once it has
        been left alone (pgm.state.SAVE_SETTLE_NS)."""
        while True:
            result = rebuild(options, report, waiting)
            if on_build:
                on_build(result)
            if result is None or not result.settling or stop.wait(_settle_seconds()):
                return

    settled_rebuild()
    for changes in _changes(options.event_dir, partial(_relevant, options.event_dir.resolve(),
                                                       out), stop):
        if changes and not (_record_gone(changes) and stop.wait(_settle_seconds())):
            settled_rebuild()


def _record_gone(changes: set[tuple[watchfiles.Change, str]]) -> bool:
    """Whether a record was deleted or renamed away and nothing is in its place yet: an
    editor that keeps a backup renames the record aside before it writes the new one,
    and a build between the two would take the game off the site. The watch waits a
    moment first (a record really removed goes a moment later)."""
    return any(change == watchfiles.Change.deleted and
               Path(path).suffix.lower() in RECORD_EXTENSIONS and not os.path.lexists(path)
               for change, path in changes)


def _changes(event_dir: Path, relevant: Callable[[watchfiles.Change, str], bool],
             stop: threading.Event | None) -> Iterator[set[tuple[watchfiles.Change, str]]]:
    """The batches of relevant changes below ``event_dir`` until ``stop`` is set.

    watchfiles gives up on a batch holding a file name that is not UTF-8 (a record
    named ``caf\\xe9.gcg`` in ISO-8859-1, which pgm builds): it raises instead of
    reporting it, and again at every later look, so the watch would end. Such a batch
    is reported as a change to the event folder, which rebuilds it, and watching starts
    again. A change made before the new watcher is on would be missed: its first look,
    at the latest after ``rust_timeout``, is reported as a change too, so that the event
    is looked at once more with the watcher on."""
    restarted = False
    while True:
        try:
            for changes in watchfiles.watch(event_dir, stop_event=stop, debounce=50, step=20,
                                            rust_timeout=500, yield_on_timeout=restarted,
                                            watch_filter=relevant):
                if restarted:
                    restarted = False
                    changes = changes or {(watchfiles.Change.modified, str(event_dir))}
                yield changes
            return
        except RuntimeError as exc:  # watchfiles' WatchfilesRustInternalError
            if not str(exc).startswith(_UNDECODABLE):
                raise
            if stop is not None and stop.is_set():
                return
            yield {(watchfiles.Change.modified, str(event_dir))}
            restarted = True


_UNDECODABLE = "Unable to decode path"
"""How watchfiles (1.x) says that it met a file name that is not UTF-8."""


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves a built site as a static host does: files as they are, the site's own
    404.html (status 404) at an unknown address, nothing logged."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        return

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        """A record (``input.gcg``) as text to read in the browser, in the charset its
        bytes are; the system's table may call .gcg a chemistry format to download."""
        if str(path).endswith(_RECORD_SUFFIXES):
            return f"text/plain; charset={_charset(Path(path))}"
        return super().guess_type(path)

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


_RECORD_SUFFIXES = (".gcg", ".gn", ".cgp", ".ubf")


def _charset(path: Path) -> str:
    """UTF-8 when the bytes are, else ISO-8859-1 (which browsers read as Windows-1252,
    as pgm reads a record's bytes 0x80-0x9F); a byte order mark wins over either."""
    try:
        path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return "iso-8859-1"
    return "utf-8"


class _PreviewHandler(SiteHandler):
    """Serves the preview folder; adds a reload script to pages and a version endpoint,
    whose number goes up with every rebuild that changed the site."""

    version: list[int] = [0]

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        if self.path.startswith("/__pgm__/version"):
            body = str(self.version[0]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
        data = source.read()
        if self.path.split("?")[0].endswith((".html", "/")):
            data = data.replace(b"</body>", _RELOAD_SCRIPT + b"</body>")
        outputfile.write(data)

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-length" and self.path.split("?")[0].endswith(
                (".html", "/")):
            return  # the page grows by the reload script; close the connection instead
        super().send_header(keyword, value)


_RELOAD_SCRIPT = (
    b"<script>(function(){var seen=null;setInterval(function(){fetch('/__pgm__/version',"
    b"{cache:'no-store'}).then(function(r){return r.text();}).then(function(v){"
    b"if(seen!==null&&v!==seen){if(document.body.hasAttribute('data-live')){"
    b"document.dispatchEvent(new Event('pgm:rebuilt'));}else{location.reload();}}seen=v;})"
    b".catch(function(){});},1000);}());</script>")
"""Asks every second whether the site changed; a page that follows a game in progress
(``data-live``) is told so and checks for itself (static/pgm-live.js), others reload."""


def serve(options: BuildOptions, port: int, report: Report,
          ready: Callable[[str, Path], None] | None = None,
          stop: threading.Event | None = None) -> None:
    """Build into a temporary folder, serve it on 127.0.0.1:``port`` and keep it current,
    as a preview (``BuildOptions.preview``)."""
    stop = stop or threading.Event()
    with _terminate_as_interrupt(), tempfile.TemporaryDirectory(prefix="pgm-serve-") as temp:
        out = Path(temp) / "site"
        version = [0]
        handler = type("Handler", (_PreviewHandler,), {"version": version})
        server = ThreadingHTTPServer(("127.0.0.1", port), partial(handler, directory=str(out)))
        server.daemon_threads = True
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        preview = BuildOptions(options.event_dir, out, options.strict, preview=True)
        first = threading.Event()

        def built(result: BuildResult | None) -> None:
            if result is not None and result.files_written:
                version[0] += 1
            first.set()

        watcher = threading.Thread(target=watch, args=(preview, report, stop, built),
                                   daemon=True)
        watcher.start()
        try:
            _serve_once_built(server, url, out, first, stop, ready)
        finally:
            # after Ctrl-C too, even during the first build: the watcher must finish the
            # build under way before its folder is removed
            stop.set()
            watcher.join()
            server.server_close()


def _serve_once_built(server: ThreadingHTTPServer, url: str, out: Path,
                      first: threading.Event, stop: threading.Event,
                      ready: Callable[[str, Path], None] | None) -> None:
    """Serve ``out`` from when its first build is done until ``stop`` is set."""
    while not first.wait(0.1):
        if stop.is_set():
            return
    if ready:
        ready(url, out)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        stop.wait()
    finally:
        server.shutdown()


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """``kill`` (SIGTERM) stops the preview the way Ctrl-C does, so its temporary folder
    is removed either way; the previous handler is put back afterwards. Only the main
    thread may set handlers; elsewhere the caller's ``stop`` event is the way out."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt

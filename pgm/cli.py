"""The ``pgm`` command line: thin wrappers that parse options and call the library."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import click

from pgm import __version__
from pgm.build import BuildOptions, BuildResult
from pgm.build import build as build_site
from pgm.build_errors import BuildError, OutputFolderError
from pgm.config import base_url_problem
from pgm.diagnostics import Severity, first_few
from pgm.discover import shown_name


@click.group()
@click.version_option(__version__, prog_name="pgm")
def main() -> None:
    """Turn game records into a static web site: crossword games and Upwords (.gcg),
    Gungi (.gn), crossword positions (.cgp) and Upwords boards (.ubf)."""


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array, one object per file.")
def check(files: tuple[Path, ...], as_json: bool) -> None:
    """Replay each record (or every record below a folder) and report problems as
    PATH:LINE: SEVERITY: MESSAGE.

    Each record gets the settings of its event's event.yaml files, as in `pgm build`.
    Exit status 1 if any file (or event.yaml) has an error.
    """
    from pgm.check import (
        check_empty_folder,
        check_file,
        event_warnings,
        is_record,
        other_files,
        supported_extensions,
    )
    from pgm.record_inputs import gather

    inputs = gather(files, supported_extensions())
    # files passed by and event.yaml files: with --json, an object each as well, so that
    # the array holds every problem the exit status counts
    reports = other_files(inputs.diagnostics) if as_json else []
    for problem in inputs.diagnostics:
        click.echo(str(problem), err=as_json)
    found = list(inputs.diagnostics)
    for record in inputs.records:
        report, diagnostics = check_empty_folder(record.path) if record.empty_folder \
            else check_file(record.path, record.settings)
        reports.append(report)
        found += diagnostics
        if not as_json:
            for diagnostic in diagnostics:
                click.echo(str(diagnostic))
    across = event_warnings(inputs.records)
    found += across
    by_path = {report["path"]: report for report in reports}
    for diagnostic in across:
        if as_json:
            by_path[diagnostic.path]["diagnostics"].append(diagnostic.to_json())
        else:
            click.echo(str(diagnostic))
    errors = sum(d.severity is Severity.ERROR for d in found)
    if as_json:
        # JSON is UTF-8 (RFC 8259) in any locale: a C locale's ASCII output would fail at
        # the first accented name, halfway through the array
        text = json.dumps(reports, ensure_ascii=False, indent=1) + "\n"
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8", errors="replace"))
        sys.stdout.buffer.flush()
    else:  # on stderr: the problems stay the only lines an editor reads from stdout
        records = sum(map(is_record, inputs.records))
        click.echo(f"Checked {records} record{'s' if records != 1 else ''}: {errors} error(s), "
                   f"{len(found) - errors} warning(s).", err=True)
    sys.exit(1 if errors else 0)


def _checked_base_url(_context: click.Context, _option: click.Parameter, url: str | None
                      ) -> str | None:
    """``--base-url`` is held to what ``base_url`` in event.yaml is."""
    problem = base_url_problem(url) if url is not None else None
    if problem:
        raise click.BadParameter(problem)
    return url


@main.command()
@click.argument("event_dir", type=click.Path(path_type=Path, file_okay=False))
@click.option("-o", "--out", type=click.Path(path_type=Path),
              help="Output folder (default EVENT_DIR/_site). pgm replaces it only if pgm "
                   "made it, and never the event folder, a folder holding records or .git.")
@click.option("--strict", is_flag=True,
              help="Fail (exit 1) on warnings too; the site is written all the same.")
@click.option("--base-url", callback=_checked_base_url,
              help="Public address of the site: adds canonical links and "
                   "sitemap.xml (overrides base_url in event.yaml).")
@click.option("--quiet", is_flag=True, help="Print only problems and failures.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes for rendering (default: the number of cores).")
def build(event_dir: Path, out: Path | None, strict: bool, base_url: str | None,
          quiet: bool, jobs: int | None) -> None:
    """Build the static site of the event in EVENT_DIR.

    Only changed games are rendered again; an unchanged event writes nothing.
    """
    show_bar = not quiet and sys.stderr.isatty()
    options = BuildOptions(event_dir, out, strict, base_url, jobs=jobs)
    came: list[int] = []
    try:
        with _stopped_by_signals(came):
            result = build_site(options, progress=_progress_bar if show_bar else None,
                                waiting=partial(click.echo, err=True))
    except BuildError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        _close_bar()
        _end_as_stopped(came[0] if came else signal.SIGINT, out or event_dir / "_site")
    finally:
        _close_bar()
    for diagnostic in result.diagnostics:
        click.echo(str(diagnostic), err=True)
    if not quiet or result.failed(strict):
        click.echo(_summary(result, strict, event_dir), err=True)
    sys.exit(1 if result.failed(strict) else 0)


_SIGNAL_NAMES: dict[int, str] = {signal.SIGINT: "Ctrl-C (SIGINT)", signal.SIGTERM: "SIGTERM"}


@contextlib.contextmanager
def _stopped_by_signals(came: list[int]) -> Iterator[None]:
    """SIGTERM, the signal ``timeout``, CI runners, systemd and ``docker stop`` send,
    stops the block as Ctrl-C does, by KeyboardInterrupt: the build removes what it
    wrote, and its workers (``pgm.workers``). Each signal is noted in ``came``. One that
    pgm was started ignoring (Ctrl-C, for a job a script started in the background)
    stays ignored; only the main thread sets handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        came.append(signum)
        raise KeyboardInterrupt

    previous = {}
    try:
        for signum in _SIGNAL_NAMES:
            if signal.getsignal(signum) != signal.SIG_IGN:
                previous[signum] = signal.signal(signum, stop)
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)


def _end_as_stopped(signum: int, out: Path) -> None:
    """End a build stopped by ``signum`` once it has cleaned up, by that signal, as it
    would have ended unhandled: a shell reports status 128 + the signal's number (130
    for Ctrl-C, 143 for SIGTERM), and a shell loop running pgm stops at Ctrl-C instead
    of going on to the next command (an exit status alone would not tell it)."""
    click.echo(f"Stopped by {_SIGNAL_NAMES.get(signum, f'signal {signum}')}: "
               f"{shown_name(str(out))} holds the last site a build finished; nothing "
               "half-made is left.", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    if sys.platform != "win32":  # there, os.kill would end pgm with the number as status
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    sys.exit(128 + signum)


def _summary(result: BuildResult, strict: bool, event_dir: Path) -> str:
    """The build's last lines; records are named from where pgm runs, as its problems
    are, so that a terminal or an editor opens them."""
    def names(records: list[str]) -> list[str]:
        return [shown_name(str(event_dir / record)) for record in records]

    def named(records: list[str]) -> str:
        return ", ".join(names(records))

    lines = [f"{_what_was_built(result)}: {result.errors} error(s), {result.warnings} "
             f"warning(s). Open {shown_name(str(result.out / 'index.html'))}"]
    if result.missing:
        lines.append(_made_again(result))
    elif result.remade:
        lines.append(f"Made the whole site again: {result.remade}")
    shown = [record for record in result.broken_games if record not in result.not_shown]
    if shown:
        lines.append("Records with errors (rendered up to the problem): " + named(shown))
    if result.not_shown:
        lines.append("Records not shown (a page says why): " + named(result.not_shown))
    if result.in_progress:  # after the event, a record that lost its end lines shows here
        count = len(result.in_progress)
        lines.append(f"{count} game{'s' if count != 1 else ''} in progress (no end of game "
                     f"recorded yet): {_first_few(names(result.in_progress))}")
        if result.idle:
            lines.append(f"{len(result.idle)} of them unchanged for over a day: if play on "
                         "them is over, 'live: false' in event.yaml lists them as unfinished")
    if result.followed:
        count = len(result.followed)
        lines.append(f"{count} finished game{'s' if count != 1 else ''} still followed for "
                     f"corrections (live: true in event.yaml): "
                     f"{_first_few(names(result.followed))}")
    if result.removed:
        count = len(result.removed)
        lines.append(f"{count} game{'s' if count != 1 else ''} taken off the site (record "
                     f"removed, renamed or made a draft): {_first_few(result.removed)}")
    if result.records and not result.games:  # with no records, a warning says what pgm reads
        lines.append("No games to show: every record is marked draft in event.yaml.")
    if result.failed(strict):
        lines.append(_failure(result, strict))
    return "\n".join(lines)


def _what_was_built(result: BuildResult) -> str:
    """The head of the summary. A build that rendered no game and wrote no file says
    so: "Built 80 records, 2400 pages" after a rebuild that did nothing made a director
    think the site was made again, and wonder why a correction did not show."""
    records = f"{result.games} record{'s' if result.games != 1 else ''}"
    if not result.rebuilt and not result.files_written:
        return f"Nothing changed: {records} up to date ({result.seconds:.2f} s)"
    if result.incremental and not result.rebuilt:
        return (f"Updated the site: {records} unchanged ({result.pages} pages) "
                f"in {result.seconds:.2f} s")
    if result.incremental:
        return (f"Built {len(result.rebuilt)} of {records} (the others unchanged; "
                f"{result.pages} pages in all) in {result.seconds:.2f} s")
    return f"Built {records}, {result.pages} pages in {result.seconds:.2f} s"


def _first_few(names: list[str]) -> str:
    """The first few ``names``, and how many more: a line of the log stays one line."""
    return first_few(names, _NAMED_AT_MOST)


_NAMED_AT_MOST = 5
"""Records a line names (games in progress, records rebuilt): a live round has dozens,
and the count says it."""


def _failure(result: BuildResult, strict: bool) -> str:
    """The last line of a failed build: what failed it. The site is written all the
    same (each game up to its problem), so that a CI job can still look at it."""
    errors = f"{result.errors} error(s)" if result.errors else ""
    warnings = f"{result.warnings} warning(s)" if strict and result.warnings else ""
    if errors and warnings:
        cause = f"{errors} and, with --strict, {warnings}"
    else:
        cause = errors or f"--strict: {warnings}"
    return f"{cause} fail the build (exit status 1); the site is written all the same."


_bar: list[object] = []


def _progress_bar(total: int):  # type: ignore[no-untyped-def]
    bar = click.progressbar(length=total, label="Replaying records", file=sys.stderr)
    bar.__enter__()
    _bar.append(bar)
    return bar.update


def _close_bar() -> None:
    while _bar:
        _bar.pop().__exit__(None, None, None)  # type: ignore[attr-defined]


class _RebuildLog:
    """What ``pgm watch`` and ``pgm serve`` print after each build: the records rebuilt,
    each warning once, when it first appears (a wrong score typed in, a mistyped
    event.yaml key), and an error when it appears and whenever its record is saved again
    while it is there (it still needs fixing). Errors of other records, printed before,
    are counted on one line: at another table's save, the annotator's terminal is not
    filled with them. A saved record whose problems are all gone says so, and a build
    that did nothing (a backup file saved beside a record) prints nothing, but for the
    first: it says the watch is ready."""

    def __init__(self) -> None:
        self._shown: set[str] = set()
        self._troubled: set[str] = set()
        """The records with problems after the last build."""
        self._started = False

    def __call__(self, outcome: BuildResult | BuildError) -> None:
        stamp = time.strftime("%H:%M:%S")
        if isinstance(outcome, BuildError):
            click.echo(f"{stamp} build failed: {outcome}", err=True)
            return
        shown, unchanged = set(), []
        saved = {*outcome.rebuilt, *outcome.kept_saved}  # kept its last pages: saved all the same
        for diagnostic in outcome.diagnostics:
            text = str(diagnostic)
            shown.add(text)
            if text in self._shown and (diagnostic.severity is Severity.WARNING or
                                        diagnostic.path not in saved):
                if diagnostic.severity is Severity.ERROR and \
                        diagnostic.path not in outcome.kept_configs:  # the summary says so
                    unchanged.append(diagnostic.path)
                continue
            click.echo(f"{stamp} {text}", err=True)
        self._shown = shown
        troubled = {diagnostic.path for diagnostic in outcome.diagnostics}
        for path in sorted((self._troubled - troubled) & saved):
            click.echo(f"{stamp} {path}: fixed: no errors or warnings left", err=True)
        self._troubled = troubled
        if unchanged:
            click.echo(f"{stamp} still {len(unchanged)} error(s) in records not changed "
                       f"since: {_first_few(sorted(set(unchanged)))}", err=True)
        if _did_something(outcome) or not self._started:
            click.echo(f"{stamp} {_rebuilt(outcome)}", err=True)
        self._started = True


def _did_something(outcome: BuildResult) -> bool:
    return bool(outcome.rebuilt or outcome.files_written or outcome.kept or
                outcome.settling or outcome.removed or outcome.missing or outcome.remade
                or outcome.kept_configs)


def _rebuilt(outcome: BuildResult) -> str:
    """The rebuild's line: which records, what was written, how fast, what was kept."""
    kept = (f" (kept the last good pages of {outcome.kept_games} game(s) whose record "
            "does not replay)") if outcome.kept_games else ""
    games = f": {_first_few(outcome.rebuilt)}" if outcome.rebuilt else ""
    settling = (f"; {_first_few(outcome.settling)} just saved, with turns taken back or a "
                "new warning: its last pages are kept until it is left alone a "
                "moment") if outcome.settling else ""
    removed = (f"; taken off the site: {_first_few(outcome.removed)}"
               if outcome.removed else "")
    missing = f"; {_made_again(outcome)}" if outcome.missing else \
        f"; made the whole site again: {outcome.remade}" if outcome.remade else ""
    configs = (f"; {_first_few(outcome.kept_configs)} has errors: built with its last good "
               "version until they are fixed") if outcome.kept_configs else ""
    return (f"{outcome.rendered_games} game(s) rebuilt{games}; {outcome.files_written} "
            f"file(s) written in {outcome.seconds * 1000:.0f} ms{kept}{settling}{removed}"
            f"{missing}{configs}")


def _made_again(result: BuildResult) -> str:
    """Why a build made the whole site again: a file of it was found missing."""
    return (f"{shown_name(str(result.out / str(result.missing)))} was missing from the site: "
            "it was made again in full")


@main.command()
@click.argument("event_dir", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("-o", "--out", type=click.Path(path_type=Path),
              help="Output folder (default EVENT_DIR/_site), updated file by file.")
@click.option("--base-url", callback=_checked_base_url,
              help="Public address of the site.")
def watch(event_dir: Path, out: Path | None, base_url: str | None) -> None:
    """Build, then rebuild as records and event.yaml files change (Ctrl-C to stop).

    Every file is replaced atomically, so a web server publishing the output never
    serves a torn or missing page; a record saved half-way keeps its last good pages.
    """
    from pgm.live import watch as watch_site  # the file watcher only for this command

    _refuse_built_site(event_dir)
    click.echo(f"Watching {event_dir} (Ctrl-C to stop)", err=True)
    try:
        # Ctrl-C, or SIGTERM (a service stopped), ends the watch as it is meant to end
        with contextlib.suppress(KeyboardInterrupt), _stopped_by_signals([]):
            watch_site(BuildOptions(event_dir, out, False, base_url), _RebuildLog(),
                       waiting=_stamped)
    except OutputFolderError as exc:
        raise click.ClickException(str(exc)) from None


def _stamped(text: str) -> None:
    """A line of the watch log that is not a build's outcome."""
    click.echo(f"{time.strftime('%H:%M:%S')} {text}", err=True)


def _refuse_built_site(event_dir: Path) -> None:
    """Stop ``watch`` or ``serve`` at once when given a site pgm built: no rebuild would
    ever make it an event (``pgm build`` refuses it as well)."""
    from pgm.record_inputs import in_built_site

    problem = in_built_site(event_dir)
    if problem is not None:
        raise click.ClickException(f"{shown_name(str(event_dir))}: {problem}")


@main.command()
@click.argument("event_dir", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--port", default=8000, show_default=True, help="Port on 127.0.0.1.")
def serve(event_dir: Path, port: int) -> None:
    """Preview the site on http://127.0.0.1:PORT/ with live reload.

    Builds into a temporary folder (never the publish folder) and rebuilds on changes.
    """
    from pgm.live import serve as serve_site  # the web server only for this command

    _refuse_built_site(event_dir)

    def ready(url: str, out: Path) -> None:
        click.echo(f"Serving {event_dir} at {url} (Ctrl-C to stop)", err=True)

    try:
        serve_site(BuildOptions(event_dir), port, _RebuildLog(), ready)
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        raise click.ClickException(f"cannot serve on port {port}: {exc.strerror}") from None


@main.command()
@click.argument("inputs", nargs=-1, required=True,
                type=click.Path(path_type=Path, exists=True))
@click.option("--format", "fmt", type=click.Choice(["csv", "json", "excel"]),
              help="CSV with a header row, a JSON array of objects, or CSV for Excel (with "
              "a byte order mark, so that Excel reads accented names right, and CRLF line "
              "ends)  [default: json for an -o file named .json, else csv]")
@click.option("--separator", type=click.Choice([",", ";", "tab"]),
              help="Between the cells of CSV: ';' where the comma is the decimal mark and "
              "Excel expects it (France, Poland, Germany)  [default: tab for an -o file "
              "named .tsv or .tab, else ',']")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the table to this file (default: standard output).")
def export(inputs: tuple[Path, ...], fmt: str | None, separator: str | None,
           output: Path | None) -> None:
    """Export the move table of records, one row per event, with the columns
    game, turn, player, rack, position, word, score, cumulative, kind, notation.

    INPUTS are record files or event folders (searched like `pgm build` does). Errors in
    records are printed as PATH:LINE: SEVERITY: MESSAGE (their rows stop at the error);
    exit status 1 if any record has an error.
    """
    from pgm.check import is_record
    from pgm.export import (
        SEPARATORS,
        ExportTargetError,
        check_target,
        export_rows,
        format_for,
        save,
        separator_for,
        write_rows,
    )
    from pgm.record_inputs import gather, no_records

    fmt = fmt or format_for(output)
    if fmt == "json" and separator is not None:
        raise click.UsageError("--separator is for CSV; JSON has no separator to choose")
    separator = separator or separator_for(output)
    found = gather(inputs)
    read = [record.path for record in found.records]
    if output is not None:
        try:
            check_target(output, read)  # refused before a record is replayed
        except ExportTargetError as exc:
            raise click.ClickException(str(exc)) from None
    for problem in found.diagnostics:  # files passed by, event.yaml
        click.echo(str(problem), err=True)
    empties = [no_records(record.path) for record in found.records if record.empty_folder]
    for empty in empties:  # each said as pgm check and pgm build say it
        found.diagnostics.append(empty)
        click.echo(str(empty), err=True)
    # An event before round 1 (a warning) exports its table's header, as it builds an
    # empty index; anything else with no record is a mistake, which writes nothing.
    awaited = any(empty.severity is Severity.WARNING for empty in empties)
    nothing = not awaited and not any(map(is_record, found.records))
    rows, diagnostics = export_rows(record for record in found.records
                                    if not record.empty_folder)
    if nothing:
        for diagnostic in diagnostics:  # files named that are no records, or missing
            click.echo(str(diagnostic), err=True)
        raise click.ClickException("no records to export; nothing was written" +
                                   (f" to {output}" if output is not None else ""))
    text = write_rows(rows, fmt, SEPARATORS[separator])
    if output is None:
        click.echo(text, nl=False)
    else:
        try:
            save(output, text, read)
        except ExportTargetError as exc:
            raise click.ClickException(str(exc)) from None
    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    for diagnostic in errors:
        click.echo(str(diagnostic), err=True)
    sys.exit(1 if errors or any(d.severity is Severity.ERROR for d in found.diagnostics)
             else 0)

"""The ``pgm`` command line: thin wrappers that parse options and call the library."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pgm import __version__
from pgm.check import check_file
from pgm.diagnostics import Severity


@click.group()
@click.version_option(__version__, prog_name="pgm")
def main() -> None:
    """Turn game records (.gcg crossword games, .gn Gungi) into a static web site."""


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array, one object per file.")
def check(files: tuple[Path, ...], as_json: bool) -> None:
    """Replay each record and report problems as PATH:LINE: SEVERITY: MESSAGE.

    Exit status 1 if any file has an error.
    """
    reports = []
    failed = False
    for path in files:
        report, diagnostics = check_file(path)
        reports.append(report)
        failed |= any(d.severity is Severity.ERROR for d in diagnostics)
        if not as_json:
            for diagnostic in diagnostics:
                click.echo(str(diagnostic))
    if as_json:
        json.dump(reports, sys.stdout, ensure_ascii=False, indent=1)
        click.echo()
    sys.exit(1 if failed else 0)

"""Problems found in input files, reported with the file and line they come from.

Parsers and replayers never raise on bad input: they collect ``Diagnostic`` values so
that one broken record is reported precisely while everything else keeps working.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace


def first_few(names: Sequence[str], most: int) -> str:
    """The first ``most`` of ``names``, and how many more: a message that names files
    or games stays one line however many there are."""
    more = len(names) - most
    return ", ".join(names[:most]) + (f" and {more} more" if more > 0 else "")


class Severity(str, enum.Enum):
    """How bad a problem is: errors stop a replay or a build, warnings do not."""

    ERROR = "error"
    WARNING = "warning"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Diagnostic:
    """One problem at one place in one input file."""

    path: str
    """The file, as the user named it."""
    line: int
    """1-based line number; 0 when the problem concerns the whole file."""
    severity: Severity
    message: str
    column: int | None = None
    """1-based column when the reader knows it."""
    on_pages: bool = True
    """Shown to spectators on the game's pages; False for a problem of how the file is
    written that leaves the game as it was meant (its encoding, an obsolete pragma): the
    director, who can fix it, reads it in the build's output and ``pgm check``, and the
    spectator, who cannot, is spared it."""

    def __str__(self) -> str:
        """``path:line[:column]: severity: message``; a problem of the whole file (line
        0) is ``path: severity: message``."""
        where = f"{self.path}:{self.line}" if self.line else self.path
        if self.column is not None:
            where += f":{self.column}"
        return f"{where}: {self.severity}: {self.message}"

    def to_json(self) -> dict[str, object]:
        """The form ``pgm check --json`` prints."""
        data: dict[str, object] = {
            "line": self.line,
            "severity": self.severity.value,
            "message": self.message,
        }
        if self.column is not None:
            data["column"] = self.column
        if not self.on_pages:
            data["on_pages"] = False  # about the file, not the game: pages leave it out
        return data


def shown_by_line(diagnostics: Iterable[Diagnostic]) -> dict[int, list[Diagnostic]]:
    """The problems a game's pages show, by line: those of the game, not of how its
    file is written (``Diagnostic.on_pages``), so that no turn is flagged for a problem
    its page does not list."""
    by_line: dict[int, list[Diagnostic]] = defaultdict(list)
    for diagnostic in diagnostics:
        if diagnostic.on_pages:
            by_line[diagnostic.line].append(diagnostic)
    return by_line


class DiagnosticSink:
    """Collects diagnostics for one file; readers hold one and add to it as they go."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.items: list[Diagnostic] = []

    def error(self, line: int, message: str, column: int | None = None) -> None:
        self.items.append(Diagnostic(self.path, line, Severity.ERROR, message, column))

    def warning(self, line: int, message: str, column: int | None = None) -> None:
        self.items.append(Diagnostic(self.path, line, Severity.WARNING, message, column))

    def file_warning(self, line: int, message: str) -> None:
        """A warning about how the file is written, not about the game: for the
        director only (see ``Diagnostic.on_pages``)."""
        self.items.append(Diagnostic(self.path, line, Severity.WARNING, message,
                                     on_pages=False))

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)


class Folded:
    """A problem that may repeat many times in a file (moves after the end of the game,
    lines that cannot be read), reported once, at its first place: the later ones are
    counted, and :meth:`close` words the first's message to say how many there were, so
    that a record of thousands gives one line, not thousands."""

    def __init__(self, sink: DiagnosticSink, severity: Severity) -> None:
        self.sink = sink
        self.severity = severity
        self.index: int | None = None
        """Where the first is among the sink's items."""
        self.more = 0
        self.last_line = 0

    def add(self, line: int, message: str, column: int | None = None) -> None:
        if self.index is None:
            self.index = len(self.sink.items)
            self.sink.items.append(
                Diagnostic(self.sink.path, line, self.severity, message, column))
        else:
            self.more += 1
            self.last_line = line

    def close(self, worded: Callable[[str, int, int], str]) -> None:
        """Word the first's message, when later ones came, as ``worded(its message, how
        many came after it, the line of the last)``."""
        if self.index is None or not self.more:
            return
        first = self.sink.items[self.index]
        self.sink.items[self.index] = replace(
            first, message=worded(first.message, self.more, self.last_line))
        self.more = 0


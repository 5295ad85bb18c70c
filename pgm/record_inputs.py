"""The records ``pgm check`` and ``pgm export`` read from the paths they are given, each
with the settings ``pgm build`` would give it, so that the three never disagree about a
record: an event whose ``event.yaml`` says ``lexicon: FRA24`` checks its French records
against the French tile set, as its site shows them.

A path belongs to the event of the nearest folder at or above it whose ``event.yaml``
sets a key only an event's root may (``base_url``, ``theme``...), else of the outermost
one whose ``event.yaml`` sets ``title`` (also a game key: a division's folder may set
it for its games), else of the outermost folder at or above it that holds an
``event.yaml``: a director checks ``round-3/table-1.gcg`` of an event configured at
its top. A folder with none is an event of its own, searched as ``pgm build``
searches it; a file with none gets the defaults, and nothing else is read.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pgm.config import CONFIG_NAME, ConfigSet, GameSettings, event_claim, load_configs
from pgm.diagnostics import Diagnostic, Severity, first_few
from pgm.discover import RECORD_EXTENSIONS, shown_name, skipped_warnings, walk_records
from pgm.output import built_site_holding


@dataclass(frozen=True)
class RecordInput:
    path: Path
    """As the user named it, or found below a folder the user named."""
    settings: GameSettings
    empty_folder: bool = False
    """A folder the user named that holds no record (``path`` is the folder)."""
    event: Path | None = None
    """The folder of its event (for a folder in no event, the folder named); None for
    a file in none. Checks across the games of an event compare its records."""
    relative: str = ""
    """Its path below ``event``, as the build names it (its division is read from it)."""


@dataclass
class RecordInputs:
    records: list[RecordInput] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Files passed by on the way, and the problems of the ``event.yaml`` files read."""


class _Events:
    """The configuration of each event met, read once however many paths lie in it."""

    def __init__(self, inputs: RecordInputs) -> None:
        self._inputs = inputs
        self._configs: dict[Path, ConfigSet] = {}

    def configs(self, root: Path, extensions: Collection[str],
                records: list[str] | None = None) -> ConfigSet:
        """The event's configuration, its ``games:`` patterns checked against all of its
        ``records`` (listed here when the caller has not), as the build checks them."""
        key = root.resolve()
        if key not in self._configs:
            if records is None:
                records = walk_records(root, extensions)[0]
            self._configs[key] = load_configs(root, records)
            self._inputs.diagnostics += self._configs[key].diagnostics
        return self._configs[key]


def gather(paths: Iterable[Path], extensions: Collection[str] = RECORD_EXTENSIONS
           ) -> RecordInputs:
    """Every record of ``paths`` in the order given (a folder's in sorted order), with
    its settings; once, however many of the paths name it (``export ev ev/round-1``
    would write its moves twice)."""
    inputs = RecordInputs()
    events = _Events(inputs)
    for path in paths:
        if path.is_dir():
            _add_folder(inputs, events, path, extensions)
            continue
        root = event_root(path.parent)
        settings = GameSettings()
        relative = path.name
        if root is not None:
            relative = "/".join(filter(None, (_below(path.parent, root), path.name)))
            settings = events.configs(root, extensions).settings_for(Path(root, relative))
        inputs.records.append(RecordInput(path, settings, event=root, relative=relative))
    inputs.records = _once(inputs.records)
    return inputs


def _once(records: list[RecordInput]) -> list[RecordInput]:
    """``records`` without those named before by another path (``ev/r1/t1.gcg`` and
    ``ev/r1/../r1/t1.gcg``), and an empty folder named twice once. A link is a record of
    its own, as the build lists it."""
    seen: set[str] = set()
    kept = []
    for record in records:
        key = os.path.abspath(record.path)
        if key not in seen:
            seen.add(key)
            kept.append(record)
    return kept


def _add_folder(inputs: RecordInputs, events: _Events, folder: Path,
                extensions: Collection[str]) -> None:
    problem = in_built_site(folder)
    if problem is not None:  # its records are the site's copies of the event's
        inputs.diagnostics.append(Diagnostic(shown_name(str(folder)), 0, Severity.ERROR,
                                             problem))
        return
    found, problems = walk_records(folder, extensions)
    if not found:
        inputs.records.append(RecordInput(folder, GameSettings(), empty_folder=True))
        if event_root(folder) is not None:  # else the error of no_records names them
            inputs.diagnostics += skipped_warnings(problems)
        return
    inputs.diagnostics += skipped_warnings(problems)
    root = event_root(folder) or folder
    configs = events.configs(root, extensions, found if root == folder else None)
    below = _below(folder, root)
    inputs.records += [RecordInput(Path(folder, relative),
                                   configs.settings_for(Path(root, below, relative)),
                                   event=root, relative="/".join(filter(None, (below, relative))))
                       for relative in found]


def no_records(folder: Path) -> Diagnostic:
    """What ``pgm build``, ``pgm check`` and ``pgm export`` all say of a folder in which
    they find no record, naming it and what pgm looks for. In no event (no
    ``event.yaml`` at or above it) it is an error: most likely the wrong folder, and the
    build writes nothing into it. An event's folder may have no records yet (before
    round 1, a live event being prepared): a warning, and the build makes the event's
    pages with no games."""
    *first, last = RECORD_EXTENSIONS
    message = ("no records in this folder or below it (pgm reads " + ", ".join(first) +
               f" and {last} files, but not in folders whose name starts with . or _, nor "
               "in sites pgm built)")
    if event_root(folder) is None:
        return Diagnostic(shown_name(str(folder)), 0, Severity.ERROR,
                          f"{message}; an event with no records yet needs an {CONFIG_NAME}"
                          f"{_passed_by(folder)}")
    return Diagnostic(shown_name(str(folder)), 0, Severity.WARNING, message)


def _passed_by(folder: Path) -> str:
    """The files of ``folder`` pgm passed by, and why, for the error of a folder with no
    records: they are most likely its records (``game.gcg.txt``, Notepad's), and the
    build, which stops at that error, prints no warning of them. Empty when there are
    none."""
    skipped = [f"{d.path} ({d.message.removeprefix('skipped: ').removesuffix('; skipped')})"
               for d in skipped_warnings(walk_records(folder)[1])]
    return f". Skipped: {first_few(skipped, _NAMED_AT_MOST)}" if skipped else ""


_NAMED_AT_MOST = 3
"""Files the error names: it is one line, and the first few show what is wrong."""


def event_root(folder: Path) -> Path | None:
    """The folder of the event ``folder`` lies in (see above), named from where pgm runs
    as the build names its files; None when no folder at or above it has an
    ``event.yaml``. Paths are taken as written, links not followed, so the event
    reached through a link is named through it."""
    claims = event_claims(folder)
    found = next((above for above, claim in claims if claim == 2), None) or \
        next((above for above, claim in reversed(claims) if claim == 1), None) or \
        (claims[-1][0] if claims else None)
    return named_like(found, folder) if found is not None else None


def event_claims(folder: Path) -> list[tuple[Path, int]]:
    """The folders at and above ``folder`` (absolute, nearest first) that have an
    ``event.yaml``, each with what it claims (``pgm.config.event_claim``)."""
    absolute = Path(os.path.abspath(folder))
    return [(above, event_claim(above / CONFIG_NAME)) for above in (absolute, *absolute.parents)
            if (above / CONFIG_NAME).is_file()]


def in_built_site(folder: Path) -> str | None:
    """Why ``folder`` is no event's folder when it is a site pgm built or lies in one
    (the folder at or above it holding pgm's marker); None for any other folder. A
    site's game folders hold copies of the records (``input.gcg``): read as an event,
    they would be games again, built into a site inside the published one."""
    absolute = Path(os.path.abspath(folder))
    site = built_site_holding(absolute)
    if site is None:
        return None
    named = shown_name(str(named_like(site, folder)))
    what = "a site pgm built" if site == absolute else f"a folder inside {named}, a site pgm built"
    event = f" (most likely {shown_name(str(named_like(site.parent, folder)))})" \
        if (site.parent / CONFIG_NAME).is_file() else ""
    return (f"{what}, not an event: its games hold copies of the records; name the "
            f"event's own folder{event}")


def named_like(above: Path, folder: Path) -> Path:
    """``above`` as the user would write it: ``folder`` itself when it is the event."""
    if above == Path(os.path.abspath(folder)):
        return folder
    return above if folder.is_absolute() else Path(os.path.relpath(above))


def _below(folder: Path, root: Path) -> str:
    """The path of ``folder`` below ``root`` ('' for the root itself)."""
    relative = os.path.relpath(os.path.abspath(folder), os.path.abspath(root))
    return "" if relative == "." else Path(relative).as_posix()

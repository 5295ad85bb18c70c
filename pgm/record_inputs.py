"""The records ``pgm check`` and ``pgm export`` read from the paths they are given, each
with the settings ``pgm build`` would give it, so that the three never disagree about a
record: an event whose ``event.yaml`` says ``lexicon: FRA24`` checks its French records
against the French tile set, as its site shows them.

A folder is an event (or a part of one) and is searched as ``pgm build`` searches it. A
file belongs to the event of the outermost folder above it that holds an ``event.yaml``
(a director checks ``round-3/table-1.gcg`` of an event configured at its top); a file
with none above it gets the defaults.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pgm.config import CONFIG_NAME, ConfigSet, GameSettings, load_configs
from pgm.diagnostics import Diagnostic
from pgm.discover import RECORD_EXTENSIONS, skipped_warnings, walk_records


@dataclass(frozen=True)
class RecordInput:
    path: Path
    """As the user named it, or found below a folder the user named."""
    settings: GameSettings
    empty_folder: bool = False
    """A folder the user named that holds no record (``path`` is the folder)."""


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

    def configs(self, root: Path, extensions: Collection[str]) -> ConfigSet:
        """The event's configuration, its ``games:`` patterns checked against all of its
        records, as the build checks them."""
        key = root.resolve()
        if key not in self._configs:
            self._configs[key] = load_configs(root, walk_records(root, extensions)[0])
            self._inputs.diagnostics += self._configs[key].diagnostics
        return self._configs[key]


def gather(paths: Iterable[Path], extensions: Collection[str] = RECORD_EXTENSIONS
           ) -> RecordInputs:
    """Every record of ``paths`` in the order given (a folder's in sorted order), with
    its settings."""
    inputs = RecordInputs()
    events = _Events(inputs)
    for path in paths:
        if path.is_dir():
            _add_folder(inputs, events, path, extensions)
        else:
            root, below = event_root(path.parent)
            configs = events.configs(root, extensions)
            inputs.records.append(RecordInput(path, configs.settings_for(
                Path(root, below, path.name))))
    return inputs


def _add_folder(inputs: RecordInputs, events: _Events, folder: Path,
                extensions: Collection[str]) -> None:
    found, problems = walk_records(folder, extensions)
    inputs.diagnostics += skipped_warnings(problems)
    if not found:
        inputs.records.append(RecordInput(folder, GameSettings(), empty_folder=True))
        return
    root, below = event_root(folder)
    configs = events.configs(root, extensions)
    inputs.records += [RecordInput(Path(folder, relative),
                                   configs.settings_for(Path(root, below, relative)))
                       for relative in found]


def event_root(folder: Path) -> tuple[Path, str]:
    """The outermost folder at or above ``folder`` that holds an ``event.yaml`` (``folder``
    when none does), named from where pgm runs as the build names its files, and the
    path of ``folder`` below it."""
    resolved = folder.resolve()
    root = resolved
    for above in (resolved, *resolved.parents):
        if (above / CONFIG_NAME).is_file():
            root = above
    if root == resolved:
        return folder, ""
    return Path(os.path.relpath(root)), resolved.relative_to(root).as_posix()

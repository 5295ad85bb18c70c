"""While watching, an ``event.yaml`` saved with a mistake is read at its last good version.

A director who edits the configuration in the middle of a round (a division's title, a
game made a draft) and saves a typo would otherwise stop every table's pages from
following their records until the typo is found: a build refuses a configuration with
errors. A watch session instead remembers each file's last text without errors and reads
that in place of the broken one; the errors are still reported, at every rebuild, and the
changes of the broken save are not published until it is fixed. ``pgm build`` has no
memory and refuses, as it always has.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pgm.config import ConfigSet, load_configs
from pgm.diagnostics import Severity
from pgm.discover import shown_name


def load_kept_configs(root: Path, records: list[str], overrides: dict[str, Any],
                      good: dict[Path, bytes]) -> ConfigSet:
    """The configuration, each file with errors read as ``good`` last held it; ``good``
    learns each file read without errors."""
    configs = load_configs(root, records, overrides)
    broken = _broken(configs)
    for path, text in configs.texts.items():
        if path not in broken:
            good[path] = text
    kept = {path: good[path] for path in broken if path in good}
    if not kept:
        return configs
    retried = load_configs(root, records, overrides, kept)
    if retried.has_errors:  # the last good versions do not fit the records found now
        return configs
    names = {shown_name(str(path)) for path in kept}
    retried.set_aside = [d for d in configs.diagnostics
                         if d.path in names and d.severity is Severity.ERROR]
    return retried


def _broken(configs: ConfigSet) -> set[Path]:
    """The files read with errors."""
    names = {d.path for d in configs.diagnostics if d.severity is Severity.ERROR}
    return {path for path in configs.texts if shown_name(str(path)) in names}

"""A rebuild in place: each changed file written beside the one it replaces, and all of
them renamed into place once every changed game and index page is made, so that a
rebuild that fails changes nothing. While its files wait, the output folder carries a
mark with the build's process id; a later build removes the files of one that was killed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pgm.file_io import holds, remove_staged
from pgm.output import OutputError, build_alive
from pgm.state import BuildState


@dataclass
class InPlaceWrites:
    """What a rebuild in place has written beside the files it replaces, and the files
    it removes: done only once every changed game and index page is made, so that a
    rebuild that fails (a theme's template meeting a record it cannot show) changes
    nothing."""

    staged: list[tuple[str, str]] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    """Paths, below the output folder, of the files this rebuild makes where the last
    build made none (a game added, an index page of a new round)."""

    def refuse_users_files(self, out: Path, last: BuildState, pages: dict[str, str]) -> None:
        """Fail, before anything is written, when a file a user put in the site (not in
        the ``last`` build's files) is where this rebuild puts one of its own: pgm never
        overwrites what it did not create. A full build refuses the same. A file that
        holds what this rebuild would write is no loss: a rebuild killed after putting
        its files in place, before it saved the site's state, left it (``pages``: the
        event's pages to be written, by path; a game's file is staged only if it
        differs).

        The event's files of the ``last`` build that this one no longer makes (a larger
        site's ``sitemap-3.xml``) are noted to be removed with the games' stale files:
        only those, which pgm made, and never a user's."""
        from pgm.event_moves import NAME as MOVES_NAME  # written apart from ``pages``

        self.stale += (path for path in last.site_files
                       if path not in pages and path != MOVES_NAME)
        staged = {target for _temp, target in self.staged}
        made: set[str] | None = None
        for path in self.new:
            target = out / path
            if os.path.lexists(target) and (str(target) in staged or (
                    path in pages and not holds(target, pages[path].encode("utf-8")))):
                made = last.made_paths() if made is None else made
                if path not in made:
                    raise OutputError(f"{out / path} is not a file pgm made, and the site "
                                      f"now has a file of its own there; move yours "
                                      f"elsewhere and build again")

    def commit(self, out: Path) -> None:
        # imported here: a rebuild with nothing changed never loads the rendering machinery
        from pgm.workers import remove_stale

        for temp, path in self.staged:
            os.replace(temp, path)
        if self.stale:
            remove_stale(out, self.stale, set())

    def discard(self, out: Path, slugs: Iterable[str]) -> None:
        """Every temporary file of this build, also of games whose outcome never came
        back (a worker process ahead of the game that failed)."""
        for slug in slugs:
            remove_staged(out / slug, os.getpid())


STAGING_MARK = ".pgm-staging-"
"""A rebuild in place that writes files beside the ones they replace marks the output
folder with this prefix and its process id until it has renamed or removed them."""


def remove_killed_rebuilds(out: Path, slugs: Iterable[str]) -> None:
    """The temporary files of rebuilds in place that were killed (their mark stays and
    their process is gone): in every game folder, and in ``out`` itself."""
    for mark in out.glob(f"{STAGING_MARK}*"):
        pid = mark.name[len(STAGING_MARK):]
        if pid.isdigit() and not build_alive(pid):
            for folder in [out, *(out / slug for slug in slugs)]:
                remove_staged(folder, int(pid))
            mark.unlink(missing_ok=True)

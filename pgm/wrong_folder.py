"""Whether the folder given to ``pgm build`` is most likely not an event's own.

A build reads the ``event.yaml`` files at and below the folder it is given, and no
other. A round's folder given by mistake builds without the event's title, lexicon and
``games:`` entries; the folder above an event builds it as a division of a nameless
one, whose title then titles each of its games (a subfolder's ``title`` is its games').
Neither is an error (a folder may be built on its own on purpose), so a warning says
which folder to build instead. What makes an ``event.yaml`` an event's is told by the
keys it sets (``pgm.config.event_claim``): a key only an event's root may set (2), a
``title`` (1: an event's, or the games' of a division), or neither (0).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from pgm.config import CONFIG_NAME, event_claim
from pgm.diagnostics import Diagnostic, Severity
from pgm.discover import shown_name
from pgm.record_inputs import event_claims, named_like

_SHOWN = 3
"""Events below a folder named in its warning; more are counted."""


def wrong_folder(folder: Path, config_folders: Iterable[Path]) -> Diagnostic | None:
    """The warning for building ``folder`` (whose ``event.yaml`` files at and below it
    are in ``config_folders``) when it lies inside an event, or above events; None when
    it looks like an event's own folder."""
    return _inside_event(folder) or _above_events(folder, config_folders)


def _inside_event(folder: Path) -> Diagnostic | None:
    """The event a folder lies in: the nearest folder above whose ``event.yaml`` sets a
    root-only key, else the nearest whose sets a title, else the outermost with one. A
    folder whose own ``event.yaml`` sets a title is an event of its own (kept in a club's
    folder, say) unless a root lies above it."""
    claims = event_claims(folder)
    here = bool(claims) and claims[0][0] == Path(os.path.abspath(folder))
    own = claims[0][1] if here else None
    above = claims[here:]
    root = next((path for path, claim in above if claim == 2), None)
    if not above or own == 2 or (own == 1 and root is None):
        return None
    if root is None:
        root = next((path for path, claim in above if claim == 1), above[-1][0])
    root = named_like(root, folder)
    return Diagnostic(shown_name(str(folder)), 0, Severity.WARNING,
                      f"this folder is inside the event of {shown_name(str(root / CONFIG_NAME))}"
                      f", whose settings this build leaves out: build {shown_name(str(root))} "
                      "for the event's site")


def _above_events(folder: Path, config_folders: Iterable[Path]) -> Diagnostic | None:
    """Events below a folder with no ``event.yaml`` of its own: their ``title`` would
    title each of their games, under a site titled "Games"."""
    if _claim(folder) is not None:
        return None
    titled = [below for below in config_folders if (_claim(below) or 0) >= 1]
    events = [below for below in titled  # the outermost: a division of one is no event
              if not any(other != below and below.is_relative_to(other) for other in titled)]
    if not events:
        return None
    named = [shown_name(str(named_like(Path(os.path.abspath(e)), folder))) for e in events]
    listed = ", ".join(named[:_SHOWN]) + (f" and {len(named) - _SHOWN} more"
                                          if len(named) > _SHOWN else "")
    return Diagnostic(shown_name(str(folder)), 0, Severity.WARNING,
                      f"this folder has no {CONFIG_NAME}, but folders below it have one that "
                      f"sets a title ({listed}): if they are events, build each of them for "
                      "its site; built from here, each one's title titles its games")


def _claim(folder: Path) -> int | None:
    """What the ``event.yaml`` of ``folder`` claims (see above); None without one."""
    config = folder / CONFIG_NAME
    return event_claim(config) if config.is_file() else None

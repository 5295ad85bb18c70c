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

from pgm.config import CONFIG_NAME, event_claim, event_keys
from pgm.diagnostics import Diagnostic, Severity
from pgm.discover import shown_name
from pgm.record_inputs import event_claims, event_root, named_like

_SHOWN = 3
"""Events below a folder named in its warning; more are counted."""


def wrong_folder(folder: Path, config_folders: Iterable[Path]) -> Diagnostic | None:
    """The warning for building ``folder`` (whose ``event.yaml`` files at and below it
    are in ``config_folders``) when it lies inside an event, or above events; None when
    it looks like an event's own folder."""
    return _inside_event(folder) or _above_events(folder, config_folders)


def _inside_event(folder: Path) -> Diagnostic | None:
    """The event a folder lies in, when it is another folder: found as ``pgm check``
    finds the event of a record (``pgm.record_inputs.event_root``: the nearest folder
    above whose ``event.yaml`` sets a root-only key, else the outermost whose sets a
    title, else the outermost with one), so that the two agree on it. A titled folder
    nearer to ``folder``, below ``event.yaml`` files that set nothing but a title (a
    club's folder holding its events, each titled), is as good: built, it leaves out
    nothing but those titles. No warning when that folder is ``folder`` itself."""
    root = event_root(folder)
    if root is None:
        return None
    absolute = Path(os.path.abspath(folder))
    chain = event_claims(folder)
    chain = chain[:[path for path, _ in chain].index(Path(os.path.abspath(root))) + 1]
    event = next((path for depth, (path, claim) in enumerate(chain) if claim and
                  all(event_keys(above / CONFIG_NAME) <= {"title"}
                      for above, _ in chain[depth + 1:])),
                 chain[-1][0])
    if event == absolute:
        return None
    event = named_like(event, folder)
    return Diagnostic(shown_name(str(folder)), 0, Severity.WARNING,
                      f"this folder is inside the event of {shown_name(str(event / CONFIG_NAME))}"
                      f", whose settings this build leaves out: build {shown_name(str(event))} "
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

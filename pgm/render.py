"""The Jinja environment: event ``theme_dir`` first, then the built-in templates.

Built-ins stay reachable under the ``!default/`` prefix, so an override can extend the
very template it replaces (``{% extends "!default/turn.html" %}``). Autoescape is on
and undefined names fail loudly: every value from a record is escaped unless it went
through ``pgm.markdown``.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from pgm import __version__
from pgm.resources import builtin_dir


def make_environment(theme_dir: Path | None = None) -> jinja2.Environment:
    builtin = jinja2.FileSystemLoader(builtin_dir("templates"))
    loaders: list[jinja2.BaseLoader] = []
    if theme_dir is not None:
        loaders.append(jinja2.FileSystemLoader(theme_dir))
    loaders += [builtin, jinja2.PrefixLoader({"!default": builtin}, delimiter="/")]
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["version"] = __version__
    return env

"""A theme folder's templates that no page would use: put where pgm does not look for
them, or named a letter away from the template of pgm's they were meant to replace.

pgm takes a theme's template by its path below the theme folder, the path of the
template of pgm's it replaces (``base.html``, ``partials/sheet.html``); any other file
is used only when a template of the theme includes, imports or extends it. A file that
is neither is passed over without a word, and the designer wonders why the page did not
change: these are told, each with the file that was likely meant. A theme's own
partials and macro files, whatever their names, are named by its templates, and are
not told of.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import posixpath
from collections.abc import Iterable
from pathlib import Path

from pgm.discover import tree_files, without_editor_files
from pgm.file_io import read_regular
from pgm.resources import builtin_dir

_CLOSE = 0.88
"""How alike a name must be to one of pgm's templates (difflib's ratio) to be taken for
a misspelling of it: ``bsae.html`` for ``base.html`` (0.89), ``partial/sheet.html`` for
``partials/sheet.html``, but not ``game_list.html`` for ``game.html`` (0.78)."""
_LARGEST = 1 << 20
"""How much of each file of the theme is searched for the names of others (no template
is larger)."""


@functools.cache
def _pgm_templates() -> tuple[str, ...]:
    return tuple(name for name, _ in tree_files(builtin_dir("templates"), None)[0])


def unused_templates(theme: Path, shown: str, real_root: Path) -> list[str]:
    """What is wrong with each file of ``theme`` (a theme folder inside the event, whose
    resolved folder is ``real_root``) that looks meant to replace a template of pgm's but
    will not: one warning each, naming it as ``shown/PATH``. Files of ``static/`` are the
    theme's static files, not templates."""
    files = [(name, path) for name, path in without_editor_files(tree_files(theme, real_root)[0])
             if not name.startswith("static/")]
    pgms = _pgm_templates()
    meant = {name: _meant(name, pgms) for name, _ in files if name not in pgms}
    # a file whose template the theme replaces already is a copy kept aside (old/base.html)
    replaced = {name for name, _ in files}
    likely = {name: pgm for name, pgm in meant.items()
              if pgm is not None and pgm not in replaced}
    if likely:  # the theme's own partials are named by its templates
        for name in _names_used(files, likely):
            del likely[name]
    warnings = []
    for name, pgm in likely.items():
        if name.startswith("templates/"):
            warnings.append(f"{shown}/{name} is not used: pgm takes a theme's templates from "
                            f"the theme folder itself, not from a templates/ folder in it; "
                            f"move it to {shown}/{pgm}")
        else:
            warnings.append(f"{shown}/{name} is not used: a theme's file replaces the "
                            "template of pgm's at its path below the theme folder, and no "
                            f"template of the theme names this one; to replace pgm's {pgm}, "
                            f"name it {shown}/{pgm}")
    return warnings


def _meant(name: str, pgms: tuple[str, ...]) -> str | None:
    """The template of pgm's that ``name`` is likely meant to replace, None when it looks
    like a file of the theme's own: the same name in a ``templates/`` folder (as pgm's
    repository has them) or in another folder (``sheet.html`` for
    ``partials/sheet.html``); else, in the same folder, a name that differs in case or
    in its template suffix only (``base.htm``, ``base.jinja``), or one close by difflib
    (``bsae.html``). Names are compared within a folder, or ``partials/`` would make
    every partial of a theme close to one of pgm's."""
    plain = name.removeprefix("templates/").lower()
    if plain in pgms:
        return plain
    folder, _, base = plain.rpartition("/")
    same = [pgm for pgm in pgms if pgm.rpartition("/")[2] == base]
    if len(same) == 1:
        return same[0]
    here = {pgm.rpartition("/")[2]: pgm for pgm in pgms if pgm.rpartition("/")[0] == folder}
    stem, suffix = posixpath.splitext(base)
    if suffix in _TEMPLATE_SUFFIXES and f"{stem}.html" in here:
        return here[f"{stem}.html"]
    close = difflib.get_close_matches(base, here, n=1, cutoff=_CLOSE)
    return here[close[0]] if close else None


_TEMPLATE_SUFFIXES = frozenset({".htm", ".jinja", ".jinja2", ".j2", ".tmpl", ".tpl", ".txt"})
"""What else a template of pgm's may have been saved as."""


def _names_used(files: list[tuple[str, str]], names: Iterable[str]) -> set[str]:
    """Which of ``names`` (paths below the theme) another file of the theme names: a
    partial it includes, a macro file it imports, a layout it extends."""
    texts = {}
    for name, path in files:
        with contextlib.suppress(OSError):  # gone, or a named pipe since it was listed
            texts[name] = read_regular(Path(path))[0][:_LARGEST]
    return {name for name in names
            if any(name.encode() in text for other, text in texts.items() if other != name)}

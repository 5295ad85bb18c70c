"""What shapes every page of a site, beyond the records: pgm's own templates and static
files, the event's theme folder and stylesheets. Their fingerprint decides whether a
build can render only the changed games, and the static files are copied as it took them.
"""

from __future__ import annotations

from pathlib import Path

from pgm import __version__
from pgm.build_errors import BuildError
from pgm.config import ConfigSet
from pgm.discover import special_kind, tree_files, without_editor_files
from pgm.file_io import read_regular
from pgm.resources import builtin_dir
from pgm.state import fingerprint, tree_fingerprint

_SITE_PARTS = {"pgm": "pgm was upgraded", "event.yaml": "event.yaml changed",
               "templates": "the theme or pgm's templates changed",
               "css": "a stylesheet named by css changed"}
"""The parts of a site's fingerprint, and how a build that made everything again because
one of them changed says why."""


def site_fingerprint(configs: ConfigSet, theme_files: list[tuple[str, str]]) -> str:
    """What every page depends on beyond its record, as ``part=digest`` words, so that a
    build that makes the whole site again can say which part changed
    (:func:`why_remade`)."""
    css = [_inside_event(configs.root, name, "css") for name in configs.event.css]
    parts = {
        "pgm": fingerprint(__version__),
        "event.yaml": fingerprint(repr(configs.event)),
        "templates": tree_fingerprint(_builtin_files("templates"), _builtin_files("static"),
                                      without_editor_files(theme_files)),
        "css": fingerprint(*(p.read_bytes() if p.is_file() else b"" for p in css)),
    }
    return " ".join(f"{name}={digest[:16]}" for name, digest in parts.items())


def why_remade(before: str, now: str) -> str:
    """Why the site with fingerprint ``before`` is made again as ``now``."""
    old = dict(word.partition("=")[::2] for word in before.split())
    new = dict(word.partition("=")[::2] for word in now.split())
    if old.keys() != new.keys():
        return "the site was made by another version of pgm"
    return ", and ".join(why for name, why in _SITE_PARTS.items() if old[name] != new[name])


def _builtin_files(name: str) -> list[tuple[str, str]]:
    return tree_files(builtin_dir(name), None)[0]


def theme_dir(configs: ConfigSet) -> Path | None:
    name = configs.event.theme_dir
    if not name:
        return None
    path = _inside_event(configs.root, name, "theme_dir")
    if not path.is_dir():
        raise BuildError(f"{configs.root / 'event.yaml'}: key 'theme_dir': folder {name} "
                         "does not exist")
    return path


def _inside_event(root: Path, name: str, key: str) -> Path:
    path = (root / name).resolve()
    if not path.is_relative_to(root.resolve()):
        raise BuildError(f"{root / 'event.yaml'}: key '{key}': {name} is outside the event "
                         "folder")
    return path


EVENT_CSS = "static/event"
"""Where the event's own stylesheets go, each at its path below the event folder
(``css: styles/club.css`` -> ``static/event/styles/club.css``): no built-in static
file lives there, and two stylesheets of one name in different folders stay apart."""


def copy_static(configs: ConfigSet, stage: Path, theme_files: list[tuple[str, str]]
                 ) -> list[str]:
    """Built-in static files first, then those of the theme's ``static/`` folder
    (same-named files win), then the event's stylesheets, each in a place of its own
    below ``static/event/``. The files copied are the ones the site's fingerprint took:
    of a theme, no editor's backup (``pgm.discover.without_editor_files``), and no
    named pipe, device, socket, broken link or link leading out of the event
    (``pgm.discover.tree_files``, which warns of them). Returns their paths below the
    site (``static/pgm.css``): the build's state lists them as pgm's, so that a file a
    user put in ``static/`` is kept as any other of theirs."""
    target = stage / "static"
    copied = _copy_files(_builtin_files("static"), target)
    copied |= _copy_files([(relative.removeprefix("static/"), path)
                           for relative, path in without_editor_files(theme_files)
                           if relative.startswith("static/")],
                          target)
    for css in configs.event.css:
        source = _inside_event(configs.root, css, "css")
        if not source.is_file():
            kind = special_kind(source.stat().st_mode) if source.exists() else ""
            raise BuildError(f"{configs.root / 'event.yaml'}: key 'css': {css} " +
                             (f"is {kind}, not a regular file" if kind else "does not exist"))
        copy = stage / EVENT_CSS / css
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(_read_static(source))
        copied.add(copy.relative_to(stage).as_posix())
    return sorted(copied)


def _copy_files(files: list[tuple[str, str]], target: Path) -> set[str]:
    """Copy ``files`` (relative path, source) below ``target``, ``static/``; returns
    their paths below the site."""
    for relative, path in files:
        copy = target / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(_read_static(Path(path)))
    return {f"static/{relative}" for relative, _ in files}


def _read_static(path: Path) -> bytes:
    """A static file's bytes, read without waiting (a file made a named pipe since it
    was listed is refused, not waited for)."""
    try:
        return read_regular(path)[0]
    except OSError as exc:
        raise BuildError(f"{path}: cannot read: {exc.strerror}") from None

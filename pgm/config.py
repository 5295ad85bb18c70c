"""Per-event configuration: ``event.yaml`` at the event root and overlays in subfolders.

It replaces the obsolete GCG pragmas ``#htarget`` (``base_url``), ``#ltarget`` (the
output layout) and ``#style`` (``theme``, ``css``, ``theme_dir``). A subfolder's
``event.yaml`` overrides the game keys for the records below it, as pgm.pl's
``config.txt`` files did; command-line options override both.

Problems are collected, not raised: an unknown key is a warning naming the key and the
file; a value of the wrong type is an error naming key, file and line. The line is the
key's own, also for keys nested under ``games:`` (whose patterns pgm.config_games
matches and checks).
"""

from __future__ import annotations

import contextlib
import difflib
import os
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pgm.config_games import Glob, check_games, make_glob, matches, titled_alike
from pgm.diagnostics import Diagnostic, DiagnosticSink
from pgm.discover import CONFIG_NAME, shown_name, special_kind
from pgm.event_yaml import Entry, Written, config_bytes, read_entries
from pgm.theme_check import unused_templates
from pgm.yaml_hints import with_yaml_hints


@dataclass(frozen=True)
class GameSettings:
    """Keys that may differ per game: set at the root, in a subfolder, or per glob."""

    division: str | None = None
    round: str | None = None
    table: str | None = None
    title: str | None = None
    draft: bool = False
    """Leave the game out of the site."""
    live: bool | None = None
    """Mark a game in progress (None: decided by the record)."""
    lexicon: str | None = None
    distribution: str | None = None
    board: str | None = None
    orientation: str | None = None
    division_folders: int = 1
    """How many folders, from the event's down and rounds' left out, name a game's
    division when no ``division`` is set: 1 (``Open/round-1``: "Open"), or more for an
    archive (3: ``2016/Spring Open/Division A/Round 3``: "2016 / Spring Open / Division
    A")."""


@dataclass(frozen=True)
class EventConfig:
    """Keys that belong to the event as a whole (root ``event.yaml`` only)."""

    title: str = "Games"
    description: str = ""
    base_url: str | None = None
    theme: str = "default"
    css: tuple[str, ...] = ()
    """Extra stylesheets, relative to the event folder, linked after the built-in one."""
    theme_dir: str | None = None
    spoiler_free: bool = False
    allow_html: bool = False
    live_poll_seconds: int = 5
    lang: str = "en"
    """The language of the pages (a BCP 47 tag: ``fr``, ``pt-BR``), for ``<html lang>``:
    what screen readers speak them in, and what a browser offers to translate."""
    defaults: GameSettings = field(default_factory=GameSettings)


_GAME_KEYS: dict[str, type] = {
    "division": str, "round": str, "table": str, "title": str, "draft": bool, "live": bool,
    "lexicon": str, "distribution": str, "board": str, "orientation": str,
    "division_folders": int,
}
_EVENT_KEYS: dict[str, type] = {
    "title": str, "description": str, "base_url": str, "theme": str, "css": list,
    "theme_dir": str, "spoiler_free": bool, "allow_html": bool, "live_poll_seconds": int,
    "lang": str,
}
_ORIENTATIONS = ("numbered-rows", "lettered-rows")
THEMES = ("default", "classic")


@dataclass(frozen=True)
class Overlay:
    """One ``event.yaml``: its folder, its game keys and its per-glob overrides."""

    folder: Path
    settings: dict[str, Any]
    games: tuple[Glob, ...] = ()


@dataclass(frozen=True)
class _FolderSettings:
    overlays: tuple[Overlay, ...]
    """The overlays that apply below the folder, outermost first."""
    settings: GameSettings | None
    """What every record of the folder gets; None when a glob may single one out."""


@dataclass
class ConfigSet:
    """Every ``event.yaml`` of an event, ready to answer "what applies to this record"."""

    root: Path
    event: EventConfig
    overlays: list[Overlay]
    diagnostics: list[Diagnostic]
    _shared: dict[GameSettings, GameSettings] = field(default_factory=dict, repr=False,
                                                      compare=False)
    _folders: dict[str, _FolderSettings] = field(default_factory=dict, repr=False,
                                                 compare=False)
    """By record folder: a large event has thousands of records in a few folders."""
    texts: dict[Path, bytes] = field(default_factory=dict, repr=False, compare=False)
    """What each ``event.yaml`` held as read, for a watch to keep the last good one."""
    set_aside: list[Diagnostic] = field(default_factory=list, repr=False, compare=False)
    """The errors of the files read at their last good version instead (see
    pgm.config_kept); ``diagnostics`` are those of what was read."""

    def settings_for(self, record: Path) -> GameSettings:
        """Root defaults, then each enclosing folder's keys and the ``games:`` patterns
        of its file that match, outermost first (a division's keys win over a root
        pattern such as ``**/*.gcg``), then the entries that name the record itself,
        outermost first: those win over the keys of any folder."""
        folder = os.path.dirname(record)
        found = self._folders.get(folder)
        if found is None:
            found = self._folders[folder] = self._folder_settings(Path(folder))
        if found.settings is not None:
            return found.settings
        values: dict[str, Any] = {}
        named: list[Glob] = []
        for overlay in found.overlays:
            values.update(overlay.settings)
            relative = record.relative_to(overlay.folder).as_posix()
            for glob in overlay.games:
                if matches(glob, relative, record.name):
                    if glob.names_one:
                        named.append(glob)
                    else:
                        values.update(glob.settings)
        for glob in named:
            values.update(glob.settings)
        return self._settings(values)

    def _folder_settings(self, folder: Path) -> _FolderSettings:
        overlays = tuple(o for o in sorted(self.overlays, key=lambda o: len(o.folder.parts))
                         if o.folder == folder or o.folder in folder.parents)
        if any(o.games for o in overlays):
            return _FolderSettings(overlays, None)
        values: dict[str, Any] = {}
        for overlay in overlays:
            values.update(overlay.settings)
        return _FolderSettings(overlays, self._settings(values))

    def _settings(self, values: dict[str, Any]) -> GameSettings:
        settings = replace(GameSettings(), **values)
        # Most games of an event share their settings: one object for each distinct set.
        return self._shared.setdefault(settings, settings)

    @property
    def has_errors(self) -> bool:
        return any(d.severity.value == "error" for d in self.diagnostics)


def event_values(path: Path) -> dict[str, Any]:
    """The top-level keys the ``event.yaml`` at ``path`` sets, and their values as
    written (its problems are for the build or the check to report)."""
    return {entry.key: entry.value for entry in read_entries(path, DiagnosticSink(str(path)))}


def event_keys(path: Path) -> set[str]:
    return set(event_values(path))


def event_claim(path: Path) -> int:
    """How surely the ``event.yaml`` at ``path`` is an event's root, for ``pgm check``
    to tell the folder of a record's event from the folders inside it: 2 when it sets a
    key only a root may (``base_url``, ``theme``, ``description``...), 1 when it sets
    ``title`` (an event's, or the games' of a division below one), else 0."""
    keys = event_keys(path)
    if any(key in _EVENT_KEYS and key not in _GAME_KEYS for key in keys):
        return 2
    return 1 if "title" in keys else 0


def load_configs(root: Path, records: list[str], overrides: dict[str, Any] | None = None,
                 texts: dict[Path, bytes] | None = None) -> ConfigSet:
    """Read ``event.yaml`` in ``root`` and in every folder from it down to each record.

    ``records`` are the event's records as found below ``root`` ('/' separators):
    ``games:`` entries are checked against them. A caller that gives none has not looked
    for records, so nothing is checked then (rather than every entry reported).
    ``texts`` are files read as given there instead of from the disk.
    """
    diagnostics: list[Diagnostic] = []
    overlays: list[Overlay] = []
    event_values: dict[str, Any] = {}
    names: dict[str, list[str]] = {}
    for relative in records:
        below, _, name = relative.rpartition("/")
        names.setdefault(below, []).append(name)
    by_folder = {Path(root, below): found for below, found in names.items()}
    sinks = []
    titles: list[tuple[str, int] | None] = []
    held: dict[Path, bytes] = {}
    for folder in _config_folders(root, names):
        path = folder / CONFIG_NAME
        if not path.is_file():
            continue
        sink = DiagnosticSink(shown_name(str(path)))
        data = held[path] = texts[path] if texts and path in texts else config_bytes(path, sink)
        entries = read_entries(path, sink, data)
        sink.items = with_yaml_hints(sink.items, path)
        overlay, event_part = _split_entries(entries, folder == root, sink, folder)
        games = check_games(overlay[1], folder, by_folder, sink)
        overlays.append(Overlay(folder, overlay[0], games))
        if folder == root:
            event_values = event_part
        sinks.append(sink)
        titles.append(next(((overlay[0]["title"], entry.line) for entry in entries
                            if entry.key == "title" and "title" in overlay[0]), None))
    event_values.update({k: v for k, v in (overrides or {}).items() if v is not None})
    configs = ConfigSet(root, _event_config(event_values), overlays, diagnostics, texts=held)
    for read, title, sink in zip(overlays, titles, sinks, strict=True):
        if by_folder:  # the records looked for: a title given many games is told
            titled_alike(read.folder, title, read.games, by_folder, configs.settings_for, sink)
        diagnostics.extend(sorted(sink.items, key=lambda d: d.line))  # in the file's order
    return configs


def _config_folders(root: Path, folders: Iterable[str]) -> list[Path]:
    """The root, then every folder from it down to each record folder (``folders``, below
    ``root`` with '/' separators), outermost first: ``div/event.yaml`` applies to
    ``div/round-1/*.gcg`` although ``div`` holds no record. Worked out on the names, as
    a watch session does it at every rebuild of an event of thousands of records."""
    below = {""}
    for folder in folders:
        parts = folder.split("/") if folder else []
        below.update("/".join(parts[:depth]) for depth in range(1, len(parts) + 1))
    ordered = sorted(below, key=lambda f: (f.count("/") + bool(f), f.split("/")))
    return [Path(root, folder) if folder else root for folder in ordered]


def _event_config(values: dict[str, Any]) -> EventConfig:
    if "css" in values:
        values["css"] = tuple(str(v) for v in values["css"])
    known = {f.name for f in fields(EventConfig)}
    return EventConfig(**{k: v for k, v in values.items() if k in known})


def _check_event_value(event: dict[str, Any], entry: Entry, sink: DiagnosticSink,
                       folder: Path) -> None:
    """Values that must name something real: checked here, where the line is known."""
    key, line = entry.key, entry.line
    value = event.get(key)
    if value is None:
        return
    if key == "base_url" and (problem := base_url_problem(value)):
        sink.error(line, f"key 'base_url' {problem}")
        del event[key]
    elif key == "css":
        _check_css(event, entry, sink, folder)
    elif key == "lang" and (problem := lang_problem(value)):
        sink.error(line, f"key 'lang' {problem}")
        del event[key]
    elif key == "theme_dir":
        value = event[key] = _written_plainly(folder, value)
        path = (folder / value).resolve()
        if not path.is_relative_to(folder.resolve()):
            sink.error(line, f"key 'theme_dir': {value} is outside the event folder")
            del event[key]
        elif not path.is_dir():
            sink.error(line, f"key 'theme_dir': {_not_a_theme_folder(path, value, folder)}")
            del event[key]
        else:
            shown = posixpath.normpath(value.replace("\\", "/"))
            for problem in unused_templates(folder / value, shown, folder.resolve()):
                sink.warning(line, f"key 'theme_dir': {problem}")


_LANG_TAG = re.compile(
    r"[a-z]{2,3}(?:-[a-z]{3}){0,3}"  # language, extended languages (zh-yue)
    r"(?:-[a-z]{4})?"  # script (sr-Latn)
    r"(?:-(?:[a-z]{2}|[0-9]{3}))?"  # region (pt-BR, es-419)
    r"(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*"  # variants (de-CH-1996)
    r"(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*"  # extensions
    r"(?:-x(?:-[a-z0-9]{1,8})+)?", re.IGNORECASE)  # private use
"""The shape of a BCP 47 language tag (RFC 5646) as pages use one; the subtags are not
looked up in the registry."""


def lang_problem(value: str) -> str | None:
    """What makes ``value`` no language tag, worded to follow the key's name; None for
    one. Names of languages (``French``) and locales (``pt_BR``) are the usual mistakes."""
    if _LANG_TAG.fullmatch(value):
        return None
    hint = ""
    if _LANG_TAG.fullmatch(value.replace("_", "-")):
        hint = f" (with a hyphen: {value.replace('_', '-')})"
    return f"must be a language tag such as en, fr or pt-BR, not {value!r}{hint}"


def _not_a_theme_folder(path: Path, value: str, folder: Path) -> str:
    """Why ``theme_dir`` (``value``, at ``path``) names no folder. A stylesheet named
    there is the likely mistake: ``css`` is the key that links one."""
    if not path.exists():
        return f"folder {value} does not exist{_in_other_case(path, folder)}"
    if path.suffix.lower() == ".css":
        return (f"{value} is a file, not a folder of templates; to link a stylesheet, "
                f"write css: {value}")
    return f"{value} is a file, not a folder"


_EXAMPLE_URL = "https://example.org/event/"


def base_url_problem(value: str) -> str | None:
    """What makes ``value`` unfit as the public address of the site (``base_url``,
    ``--base-url``), worded to follow the key's or option's name; None when it is fit.

    Pages are addressed below it (``BASE/round-1/g/index.html``, in canonical links and
    the sitemap), so it must be an absolute http(s) address with a host, without spaces,
    and without a query or fragment, which would end up in the middle of every address.
    """
    try:
        parts = urlsplit(value)
        host = parts.hostname
        _ = parts.port  # a port that is not a number raises
    except ValueError:
        host = None
    if not host or not value.lower().startswith(("http://", "https://")) or \
            any(c.isspace() or not c.isprintable() for c in value):
        return f"must be an absolute address such as {_EXAMPLE_URL}, not {value!r}"
    end = min((value.index(c) for c in "?#" if c in value), default=None)
    if end is None:
        return None
    rest = value[end:]
    what = f"a query ({rest.split('#')[0]!r})" if rest[0] == "?" else f"a fragment ({rest!r})"
    return (f"must be the address of the site's folder, without {what}: pages are addressed "
            f"below it, as {_EXAMPLE_URL}index.html; not {value!r}")


def _check_css(event: dict[str, Any], entry: Entry, sink: DiagnosticSink, folder: Path
               ) -> None:
    """Each stylesheet must be a regular file inside the event folder. It is kept by its
    path below the event folder written plainly (``./styles//club.css`` ->
    ``styles/club.css``), which is where the site has it below ``static/event/``, so two
    sheets of one name in different folders stay apart; one listed twice is linked once."""
    root = folder.resolve()
    kept: list[str] = []
    for index, name in enumerate(event["css"]):
        # A file of a css list is reported on its own line.
        line = entry.line_of(index) if isinstance(entry.value, list) else entry.line
        plain = posixpath.normpath(_written_plainly(folder, name))
        path = (folder / plain).resolve()
        if not name.strip():
            sink.error(line, "key 'css' must not name an empty file")
        elif _WEB_ADDRESS.match(name):
            sink.error(line, _web_stylesheet(name))
        elif plain.startswith(("/", "../")) or plain == ".." or not path.is_relative_to(root):
            sink.error(line, f"key 'css': {name} is outside the event folder")
        elif not path.is_file():
            kind = special_kind(path.stat().st_mode) if path.exists() else ""
            sink.error(line, f"key 'css': {name} is {kind}, not a regular file" if kind
                       else f"key 'css': file {name} does not exist{_in_other_case(path, folder)}")
        elif plain in kept:
            sink.warning(line, f"key 'css': {name} is listed twice; it is linked once")
            continue
        else:
            kept.append(plain)
            continue
        del event["css"]
        return
    event["css"] = kept


def _written_plainly(folder: Path, value: str) -> str:
    """A path in ``event.yaml`` with Windows' backslashes read as '/' (``styles\\club.css``),
    as in ``games:``; as written when a file of that very name is there (outside Windows
    a name may hold a backslash)."""
    if "\\" not in value or os.path.lexists(folder / value):
        return value
    return value.replace("\\", "/")


def _in_other_case(path: Path, folder: Path) -> str:
    """", did you mean X?" when ``path``, which does not exist, names a file or folder
    that does in other case (``Styles/Club.css``: on Windows the same file; on the Linux
    server that builds the site, none)."""
    found = Path(path.anchor)
    for part in path.relative_to(path.anchor).parts:
        try:
            names = os.listdir(found)
        except OSError:
            return ""
        same = [name for name in names if name.lower() == part.lower()]
        if len(same) != 1:
            return ""
        found = found / same[0]
    with contextlib.suppress(ValueError):
        found = found.relative_to(folder.resolve())
    return f", did you mean {found.as_posix()}? (names are told apart by case)"


_WEB_ADDRESS = re.compile(r"[a-z][a-z0-9+.-]*://|//", re.IGNORECASE)
"""A stylesheet named by its address (``https://fonts.example/x.css``, ``//cdn...``)."""


def _web_stylesheet(name: str) -> str:
    """The error for a web address in ``css``: pgm copies each sheet into the site, and
    says the two ways to load one from the web."""
    return (f"key 'css': {name} is a web address; css takes only stylesheets in the event "
            "folder (pgm copies them into the site). To load a sheet from the web, put "
            f'@import url("{name}"); at the top of a sheet listed in css, or link it in the '
            "head block of a theme's base.html (theme_dir)")


def _split_entries(entries: list[Entry], is_root: bool, sink: DiagnosticSink,
                   folder: Path) -> tuple[tuple[dict[str, Any], tuple[Glob, ...]], dict[str, Any]]:
    game: dict[str, Any] = {}
    event: dict[str, Any] = {}
    globs: tuple[Glob, ...] = ()
    for entry in entries:
        key, value, line = entry.key, entry.value, entry.line
        if key == "games":
            globs = _games(entry, sink)
        elif key in _GAME_KEYS and (key != "title" or not is_root):
            _game_key(game, key, value, line, sink)
        elif key in _EVENT_KEYS and is_root:
            _typed(event, key, value, _EVENT_KEYS[key], line, sink)
            _check_event_value(event, entry, sink, folder)
            if key == "theme" and event.get(key) not in (None, *THEMES):
                sink.error(line, _unknown_theme(str(event.pop(key))))
        elif key in _EVENT_KEYS:
            sink.warning(line, f"key '{key}' only applies in the event's root event.yaml; "
                               f"ignored here (if {shown_name(str(folder))} is an event of its "
                               "own, build that folder for its site)")
        else:
            sink.warning(line, _unknown_key(str(key), {*_GAME_KEYS, *_EVENT_KEYS, "games"}))
    if is_root:
        event["defaults"] = replace(GameSettings(), **game)
    return (game, globs), event


def _unknown_theme(name: str) -> str:
    close = difflib.get_close_matches(name.casefold(), THEMES, n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    return (f"key 'theme' is '{name}', which is none of pgm's themes ({', '.join(THEMES)})."
            f"{hint} A theme of your own is a folder of templates, named by theme_dir")


def _game_key(target: dict[str, Any], key: str, value: Any, line: int,
              sink: DiagnosticSink) -> None:
    """A game key, checked alike wherever it is set: in a file or under ``games:``."""
    _typed(target, key, value, _GAME_KEYS[key], line, sink)
    if key == "orientation" and target.get(key) not in (None, *_ORIENTATIONS):
        sink.error(line, f"key 'orientation' must be one of {', '.join(_ORIENTATIONS)}")
        del target[key]
    elif key in ("distribution", "board") and (problem := _unknown_name(key, target.get(key))):
        sink.error(line, problem)
        del target[key]


def _unknown_name(key: str, value: Any) -> str | None:
    """What is wrong with the tile set or board ``value`` names; None when pgm knows it.
    Said here, at the key's line with the names pgm knows, not once for every record
    of the folder (each of which then guesses its set, as without the key)."""
    if not isinstance(value, str):
        return None
    if key == "distribution":
        from pgm.tiles import distribution_names, get_distribution
        try:
            get_distribution(value)
            return None
        except KeyError:
            known = distribution_names()
    else:
        from pgm.board import LAYOUTS, get_layout
        if get_layout(value) is not None:
            return None
        known = list(LAYOUTS)
    by_folded = {name.lower(): name for name in known}
    close = difflib.get_close_matches(value.lower(), by_folded, n=1)
    hint = f" Did you mean '{by_folded[close[0]]}'?" if close else ""
    return f"key '{key}' is '{value}', which pgm does not know ({', '.join(known)}).{hint}"


def _typed(target: dict[str, Any], key: str, value: Any, kind: type, line: int,
           sink: DiagnosticSink) -> None:
    if isinstance(value, Written):
        value = str(value) if kind is str else value.loaded
    elif kind is list and isinstance(value, list):
        value = [str(v) if isinstance(v, Written) else v for v in value]
    if kind is int and isinstance(value, int) and not isinstance(value, bool) and value > 0:
        target[key] = value
        return
    if kind is list and isinstance(value, str):
        value = [value]
    if kind is list and isinstance(value, list) and all(isinstance(v, str) for v in value):
        target[key] = value
        return
    if kind is str and isinstance(value, str) and not value.strip():
        # An empty title would leave every page, and the link home, without a name.
        sink.error(line, f"key '{key}' must not be empty")
        return
    if kind in (str, bool) and isinstance(value, kind):
        target[key] = value
        return
    wanted = {str: "text", bool: "true or false", int: "a positive whole number",
              list: "a file name or a list of file names"}[kind]
    sink.error(line, f"key '{key}' must be {wanted}, not {_describe(value)}")


def _games(entry: Entry, sink: DiagnosticSink) -> tuple[Glob, ...]:
    """The ``games:`` entries; each problem is reported on the line of its own key."""
    if not isinstance(entry.value, dict):
        sink.error(entry.line, "key 'games' must map file names or globs to settings, "
                               "e.g. 'round-1/*.gcg: {round: 1}'")
        return ()
    result = []
    for pattern, settings in entry.value.items():
        line = entry.line_of(pattern)
        if not isinstance(settings, dict):
            sink.error(line, f"key 'games' -> '{pattern}' must be a mapping of settings")
            continue
        override: dict[str, Any] = {}
        for key, item in settings.items():
            if key in _GAME_KEYS:
                _game_key(override, str(key), item, entry.line_of(pattern, key), sink)
            else:
                sink.warning(entry.line_of(pattern, key), _unknown_game_key(str(key), pattern))
        result.append(make_glob(str(pattern), override, line))
    return tuple(result)


def _describe(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "a mapping"
    return repr(value)


def _unknown_key(key: str, known: set[str], where: str = "") -> str:
    """The warning for a key pgm does not know: the key it most likely meant, a typo
    being the usual cause (``spoiler_fre``), else every key it knows."""
    close = difflib.get_close_matches(key.casefold(), known, n=1)
    hint = f"did you mean '{close[0]}'?" if close else f"known keys: {', '.join(sorted(known))}"
    return f"unknown key '{key}'{where} ignored ({hint})"


def _unknown_game_key(key: str, pattern: object) -> str:
    """The warning for a key of a ``games:`` entry that is not a game's: one of the
    whole event's (or a typo of one) is said to go at the top of event.yaml."""
    where = f" under games -> '{pattern}'"
    meant = key if key in _EVENT_KEYS else next(
        iter(difflib.get_close_matches(key.casefold(), {*_GAME_KEYS, *_EVENT_KEYS}, n=1)), "")
    if meant not in _EVENT_KEYS or meant in _GAME_KEYS:
        return _unknown_key(key, set(_GAME_KEYS), where)
    setting = f"'{meant}' is a setting of the whole event, given at the top of event.yaml"
    if meant == key:
        return f"key '{key}'{where} ignored: {setting}"
    return f"unknown key '{key}'{where} ignored: did you mean '{meant}'? {setting}"

"""``event.yaml`` read with the line of every key: pgm's problems with a configuration
name the line, and PyYAML's loaded values forget it. Bytes that are not UTF-8, syntax
errors, keys given twice and values that cannot be loaded become diagnostics, never
exceptions; numbers and times keep the text they are written as (``table: 010``). What
the keys mean is pgm.config's.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pgm.diagnostics import DiagnosticSink
from pgm.utf16 import utf16_text

if TYPE_CHECKING:
    import yaml


@dataclass(frozen=True)
class Entry:
    """A top-level key of an ``event.yaml``: its value and where it and its parts are."""

    key: str
    value: Any
    line: int
    lines: dict[tuple[str, ...], int]
    """The line of each key (or list item, by its index) nested in the value, by path."""

    def line_of(self, *path: object) -> int:
        """Where the nested key ``path`` is written; where its nearest enclosing key is
        when the YAML does not tell (a key that came in through a ``<<`` merge)."""
        names = tuple(str(p) for p in path)
        while names and names not in self.lines:
            names = names[:-1]
        return self.lines[names] if names else self.line


def config_bytes(path: Path, sink: DiagnosticSink) -> bytes:
    """The file's bytes; none, with an error, when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as exc:
        sink.error(0, f"cannot read the configuration: {exc}")
        return b""


def read_entries(path: Path, sink: DiagnosticSink, data: bytes | None = None
                 ) -> list[Entry]:
    """The top-level entries of the file, or of ``data`` read from it; syntax errors
    become diagnostics."""
    import yaml  # only an event with an event.yaml pays for the YAML parser

    if data is None:
        data = config_bytes(path, sink)
    text = _utf8_text(data, sink)
    if text is None:
        return []
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        sink.error(*_yaml_error(exc))
        return []
    if node is None:
        return []
    _warn_of_repeated_keys(node, sink, set())
    if not isinstance(node, yaml.MappingNode):
        sink.error(node.start_mark.line + 1, "the configuration must be a mapping of keys "
                                             "to values (key: value)")
        return []
    return [Entry(_name(key), _value(value, sink), key.start_mark.line + 1,
                   _nested_lines(value, (), set()))
            for key, value in node.value]


def _utf8_text(data: bytes, sink: DiagnosticSink) -> str | None:
    """``data`` as text with LF line ends, or None with an error at the first byte that
    is not UTF-8.

    Why an error, and not Windows-1252 with a warning as pgm reads a record: YAML is
    UTF-8, and bytes that are not could be in any 8-bit code page (Windows-1252,
    Windows-1250, Mac Roman...). A wrong guess would put garbled text into the event
    title on every page, with only a warning that a director busy with a round may not
    read; the error names the line and column, costs one "save as UTF-8", and stops the
    build before anything is written (``pgm watch`` reads the file's last good version).
    A record's own text is only its game's, and GCG says ISO-8859-1 is its default.
    UTF-16 (Notepad's "Unicode") is no guess, and YAML allows it: read with a warning."""
    text = utf16_text(data, sink, "UTF-8")
    if text is None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line, column = not_utf8_at(data, exc)
            sink.error(line, f"not UTF-8 (byte 0x{data[exc.start]:02X} at column {column}); "
                             "save the file as UTF-8")
            return None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as a text-mode read has it


def not_utf8_at(data: bytes, exc: UnicodeDecodeError) -> tuple[int, int]:
    """The line and column (from 1) of the first byte of ``data`` that is not UTF-8, which
    ``exc`` met, as an editor shows them (a theme's template says so too)."""
    before = data[:exc.start].decode("utf-8").removeprefix("\ufeff")
    lines = _LINE_BREAK.split(before)
    return len(lines), len(lines[-1]) + 1


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""Line ends as editors count them (LF, CR LF, or a lone CR), for the line and column of
a byte that is not UTF-8: the bytes before it are UTF-8, counted in characters."""


def _nested_lines(node: yaml.Node, path: tuple[str, ...], seen: set[int]
                  ) -> dict[tuple[str, ...], int]:
    """The line of every key and list item below ``node``, by its path. A node reached
    again through an alias is not walked again: an alias may hold itself."""
    import yaml

    if id(node) in seen:
        return {}
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        parts = [(_loaded_name(key), key, value) for key, value in node.value]
    elif isinstance(node, yaml.SequenceNode):
        parts = [(str(index), item, item) for index, item in enumerate(node.value)]
    else:
        return {}
    lines: dict[tuple[str, ...], int] = {}
    for name, key, value in parts:
        lines[(*path, name)] = key.start_mark.line + 1
        lines.update(_nested_lines(value, (*path, name), seen))
    return lines


def _warn_of_repeated_keys(node: yaml.Node, sink: DiagnosticSink, seen: set[int]) -> None:
    """A key given twice in one mapping: YAML keeps the last one, which silently drops
    the first (a second ``games:`` would drop every setting of the first)."""
    import yaml

    if id(node) in seen or not isinstance(node, yaml.MappingNode | yaml.SequenceNode):
        return
    seen.add(id(node))
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _warn_of_repeated_keys(item, sink, seen)
        return
    first: dict[str, int] = {}
    for key, value in node.value:
        name, line = _name(key), key.start_mark.line + 1
        if name in first and isinstance(key, yaml.ScalarNode) and name != "<<":
            sink.warning(line, f"key {name!r} is given twice (first on line {first[name]}); "
                               "the last one is used")
        first.setdefault(name, line)
        _warn_of_repeated_keys(value, sink, seen)


def _name(key: yaml.Node) -> str:
    """A key as text; a list or mapping used as a key (which may hold itself through an
    alias) is named by its kind only, and is reported as an unknown key."""
    import yaml

    return str(key.value) if isinstance(key, yaml.ScalarNode) else f"<{key.id}>"


def _loaded_name(key: yaml.Node) -> str:
    """A nested key as the loaded value names it (``true:`` is ``True``), so that a
    diagnostic about that key finds its line."""
    import yaml

    if not isinstance(key, yaml.ScalarNode):
        return _name(key)
    try:
        return str(yaml.load(yaml.serialize(key), Loader=_loader()))  # noqa: S506 - safe
    except (yaml.YAMLError, ValueError):
        return str(key.value)


def _yaml_error(exc: yaml.YAMLError) -> tuple[int, str]:
    """The line and words of a YAML syntax error. A quoted value or a ``[...]`` or
    ``{...}`` left open is reported on the line where it starts: the problem the parser
    finds, often only at the end of the file, is named with its own line. Any other error
    is on the line of the problem."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context, start = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    left_open = isinstance(context, str) and context.startswith(_LEFT_OPEN)
    if left_open and start is not None and (mark is None or start.line != mark.line):
        where = f" on line {mark.line + 1}" if mark else ""
        return start.line + 1, f"YAML syntax error: {context} that starts here: {problem}{where}"
    if problem.startswith("found unknown escape character"):
        problem += (" (in double quotes a backslash starts an escape: write / between "
                    "folders, or use single quotes)")
    return (mark.line + 1 if mark else 0), f"YAML syntax error: {problem}"


_LEFT_OPEN = ("while scanning a quoted scalar", "while parsing a flow",
              "while scanning a simple key")
"""How PyYAML says what it was reading when a quote, ``[`` or ``{`` was never closed,
or a key never got its ``:`` (found missing only on the next line)."""


def _value(node: yaml.Node, sink: DiagnosticSink) -> Any:
    import yaml

    try:
        return yaml.load(yaml.serialize(node), Loader=_loader())  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as exc:
        sink.error(node.start_mark.line + 1, f"YAML value error: {exc}")
        return None


class Written(str):
    """A scalar YAML reads as a number, a time or a truth value, with the text it is
    written as: a key that wants text takes the text (``table: 010``, ``title: 12:30``,
    ``round: 2026-03-01``, ``lang: no`` for Norwegian), one that wants a number or true
    or false takes what YAML made of it (``loaded``)."""

    loaded: Any


@functools.cache
def _loader() -> type[yaml.SafeLoader]:
    """YAML's safe loader, keeping the written text of numbers, times and truth values."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    for tag in ("bool", "int", "float", "timestamp"):
        construct = yaml.SafeLoader.yaml_constructors[f"tag:yaml.org,2002:{tag}"]

        def written(loader: yaml.SafeLoader, node: yaml.ScalarNode,
                    construct: Any = construct) -> Written:
            value = Written(node.value)
            try:
                value.loaded = construct(loader, node)
            except (ValueError, OverflowError, KeyError):  # round: 2026-13-01, a typo
                value.loaded = str(value)  # text, which a key wanting a number refuses
            return value

        Loader.add_constructor(f"tag:yaml.org,2002:{tag}", written)
    return Loader

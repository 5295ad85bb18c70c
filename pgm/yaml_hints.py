"""Hints for YAML syntax errors in event.yaml: what a director should change.

PyYAML's messages name the grammar ("mapping values are not allowed here"), not the fix;
the mistakes directors make are few (a tab, a value holding ``: ``, a quote left open, a
value starting with a character YAML reserves), and each gets a hint after PyYAML's
words, on the line to fix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from pgm.diagnostics import Diagnostic

_YAML_PROBLEMS = ("YAML syntax error: ", "YAML value error: ")


def with_yaml_hints(items: list[Diagnostic], path: Path) -> list[Diagnostic]:
    """``items`` with a hint after each of PyYAML's errors for the mistakes directors
    make (a tab, a value holding ``: ``, a quote left open, a value starting with a
    character YAML reserves): PyYAML's words name the grammar, not the fix. The file is
    read again for the text of the line, only when there is such an error."""
    if not any(d.message.startswith(_YAML_PROBLEMS) for d in items):
        return items
    try:
        text = path.read_bytes().decode("utf-8", "replace").removeprefix("\ufeff")
    except OSError:
        return items
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # as pgm.event_yaml reads it
    return [_yaml_hinted(d, text) if d.message.startswith(_YAML_PROBLEMS) else d
            for d in items]


def _yaml_hinted(diagnostic: Diagnostic, text: str) -> Diagnostic:
    """One error with its hint, on the line to fix: a quoted value that runs on to the
    line where PyYAML stops (its closing quote left out) is reported where it starts."""
    # A value error is PyYAML's text with a mark into a copy of the value: one line here.
    message = diagnostic.message.split('\n  in "<unicode string>"')[0].replace("\n", ": ")
    line, opened = diagnostic.line, None
    if "expected <block end>, but found '<scalar>'" in message:
        opened = _quote_run_on(text, line)
    if opened is not None:
        message, line = f"{message} on line {line}", opened[0]
    lines = _YAML_BREAK.split(text)
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    hint = _yaml_hint(message, source, opened[1] if opened else "")
    return replace(diagnostic, line=line, message=f"{message}; {hint}" if hint else message)


@dataclass(frozen=True)
class _YamlLine:
    """The line of a YAML error, split as a director wrote it."""

    source: str
    key: str
    """Its list dashes and key with the colon (``title:``), or ""."""
    value: str
    """The rest, trailing blanks left out."""
    run_on: str = ""
    """The quote of a value that runs on from this line to the next quote."""

    @classmethod
    def of(cls, source: str, run_on: str = "") -> _YamlLine:
        lead, value = _YAML_LINE.fullmatch(source).groups()  # type: ignore[union-attr]
        return cls(source, lead.strip(), value.rstrip(), run_on)

    def quoted(self, value: str | None = None) -> str:
        """The line with ``value`` (by default its own) quoted: the fix to show."""
        return f"{self.key} {_yaml_quoted(self.value if value is None else value)}".strip()


def _yaml_hint(message: str, source: str, run_on: str) -> str:
    """What to do about ``message``, an error on the line ``source``; "" when no common
    cause fits. ``run_on``: the quote of a value that runs on from this line."""
    line = _YamlLine.of(source, run_on)
    return next((hint for rule in _YAML_HINTS if (hint := rule(message, line))), "")


def _tab_hint(message: str, line: _YamlLine) -> str:
    if "'\\t'" not in message or "\t" not in line.source:
        return ""
    if line.source.lstrip(" ").startswith("\t"):
        return "indent with spaces, not tabs"
    return "YAML allows no tab here: use spaces"


def _open_quote_hint(message: str, line: _YamlLine) -> str:
    """A quote never closed, or closed only on a later line (the value ran on to it)."""
    if not line.run_on and "while scanning a quoted scalar" not in message:
        return ""
    quote = line.run_on or next((c for c in line.source if c in "\"'"), '"')
    never = "not closed on this line" if line.run_on else "never closed"
    return (f"the {quote} opening the value here is {never}: end the value with {quote} "
            f"({line.key} {line.value}{quote})")


def _open_bracket_hint(message: str, line: _YamlLine) -> str:
    if "that starts here" not in message or "while parsing a flow" not in message:
        return ""
    if "flow mapping" in message:
        return "the { on this line is never closed: end it with }"
    text = f", or put text in quotes: {line.quoted()}" if line.value.startswith("[") else ""
    return f"the [ on this line is never closed: end it with ]{text}"


def _colon_hint(message: str, line: _YamlLine) -> str:
    """A key without its colon, a value holding one, a line indented under a value."""
    if "could not find expected ':'" in message:
        return "write each setting as key: value, with a space after the colon"
    if "but got ':'" in message:  # in {...}: the value is not the line's
        return 'put a value holding ": " in quotes: {title: "Round 1: finals"}'
    if not message.endswith("mapping values are not allowed here"):
        return ""
    if ": " in line.value or line.value.endswith(":"):
        return f"put the value in quotes: {line.quoted()}"
    if line.source[:1].isspace():
        return ("this line is indented under the one above, so YAML reads it as more of "
                "that value: line its key up with the keys above")
    return ""


def _reserved_hint(message: str, line: _YamlLine) -> str:
    """A value starting with a character YAML reads as something else than text."""
    fix = "to write it as text, put the value in quotes"
    if line.value and line.value[0] in _YAML_RESERVED:
        return f"YAML reserves {line.value[0]} at the start of a value: {fix}: {line.quoted()}"
    refused = _REFUSED.search(message)
    return f"YAML reserves {refused[1]} at the start of a value: {fix}" if refused else ""


def _left_over_hint(message: str, line: _YamlLine) -> str:
    """A value starting with a quote or bracket, and words after its closing one."""
    first = line.value[:1]
    if "but found '<scalar>'" not in message or not first or first not in "\"'[{":
        return ""
    closing = {"[": "]", "{": "}"}.get(first, first)
    whole = line.value[1:-1] if len(line.value) > 1 and line.value[-1] == first else line.value
    return (f"a value starting with {first} ends at its {closing}, leaving the rest of the "
            f"line over: put the whole value in quotes: {line.quoted(whole)}")


_YAML_HINTS = (_tab_hint, _open_quote_hint, _open_bracket_hint, _colon_hint, _reserved_hint,
               _left_over_hint)
"""Tried in order; the first that fits gives the hint."""


_YAML_LINE = re.compile(r"(\s*(?:-\s+)*(?:(?:\"[^\"]*\"|'[^']*'|[^\s\"'#\[{][^:#]*?):[ \t]+)?)"
                        r"(.*)")
"""A line of YAML: its indentation, list dashes and key with its colon, then its value
(its trailing blanks taken off after: a pattern for them would backtrack over a long
line)."""
_YAML_BREAK = re.compile("[\n\x85\u2028\u2029]")
"""What ends a line for PyYAML, whose line numbers the errors give (CR is LF by now)."""
_REFUSED = re.compile(r"found character '([@`%])' that cannot start any token")
_YAML_RESERVED = "@`%*&!|>"
"""Characters that make a plain value something else in YAML (an alias, an anchor, a
tag, a block of text) or that it refuses there."""


def _yaml_quoted(value: str) -> str:
    """``value`` as a YAML string: in double quotes, or single ones when it holds a
    double quote or a backslash (an escape in double quotes)."""
    if '"' in value or "\\" in value:
        return "'" + value.replace("'", "''") + "'"
    return f'"{value}"'


def _quote_run_on(text: str, line: int) -> tuple[int, str] | None:
    """Where a quoted value that ends on ``line`` starts when that is an earlier line,
    and its quote: a closing quote left out makes the value run on to the next quote,
    and PyYAML stops only at what follows it."""
    import yaml

    found = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.line + 1 > line:
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"') and \
                    token.start_mark.line + 1 < line == token.end_mark.line + 1:
                found = (token.start_mark.line + 1, token.style)
    except yaml.YAMLError:
        pass
    return found

"""The Jinja environment: event ``theme_dir`` first, then the built-in templates.

Built-ins stay reachable under the ``!default/`` prefix, so an override can extend the
very template it replaces (``{% extends "!default/turn.html" %}``). Autoescape is on
and undefined names fail loudly: every value from a record is escaped unless it went
through ``pgm.markdown``.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import tempfile
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from markupsafe import Markup, escape

from pgm import __version__
from pgm.discover import without_editor_files
from pgm.event_yaml import not_utf8_at
from pgm.file_io import read_regular
from pgm.fragments import fragment_global
from pgm.resources import builtin_dir
from pgm.site_model import round_title


def _without_bidi_controls(value: object) -> object:
    """Untrusted names and titles could carry bidi overrides that reorder what a spectator
    reads around them; every value a template prints loses them (see :func:`bidi_safe`)."""
    if type(value) is str and not value.isascii() and _BIDI.search(value):
        return bidi_safe(value)
    return value


_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_OPENERS = frozenset("\u2066\u2067\u2068")
_PDI = "\u2069"
_DEEPEST = 8
"""Isolates nested deeper than this are taken out too: pgm nests two (a name in a label
in a title), and the Unicode bidi algorithm gives up on isolates beyond 125 levels."""


def bidi_safe(text: str) -> str:
    """``text`` without embeddings and overrides, and without isolates except those that
    open and close in it as a pair (LRI, RLI or FSI, then its PDI), which nothing outside
    them can be reordered by: the isolates pgm puts around names in text it composes
    (``pgm.site_model.isolated``). A record's name never brings its own into those (pgm
    takes them out of the name first), and a stray PDI or an unclosed isolate is taken
    out wherever it comes from, so a pair of pgm's always stays whole."""
    dropped: list[int] = []
    opened: list[tuple[int, bool]] = []  # (where, kept)
    for found in _BIDI.finditer(text):
        where, control = found.start(), found.group()
        if control in _OPENERS:
            opened.append((where, len(opened) < _DEEPEST))
        elif control == _PDI and opened:
            start, kept = opened.pop()
            if not kept:
                dropped += (start, where)
        else:
            dropped.append(where)
    dropped += [where for where, _ in opened]
    if not dropped:
        return text
    dropped.sort()
    pieces, begin = [], 0
    for where in dropped:
        pieces.append(text[begin:where])
        begin = where + 1
    pieces.append(text[begin:])
    return "".join(pieces)


def printed(value: object) -> str:
    """``value`` as a template prints it: without bidi controls but the isolates pgm puts
    around names (:func:`bidi_safe`), escaped unless it is markup already. Plans print
    through here, and so do templates under autoescape (see ``_CodeGenerator``). Most
    values are plain text with nothing to escape, or numbers: those are returned as they
    are, without making a ``Markup`` to throw away."""
    kind = type(value)
    if kind is str:
        text: str = value  # type: ignore[assignment]
        if not text.isascii():
            text = _without_bidi_controls(text)  # type: ignore[assignment]
        # five substring tests, each a fast scan in C, beat one pass over the characters
        if "&" in text or "<" in text or ">" in text or "'" in text or '"' in text:
            return str(escape(text))
        return text
    if kind is int:
        return str(value)
    if isinstance(value, Markup):
        return value
    return str(escape(value))


def template_frame(exc: BaseException) -> tuple[str, int] | None:
    """The template file and line ``exc`` was raised from, the innermost; None when no
    template's code raised it. Jinja compiles a template under its file's name; when it
    renders a template it replaces the frames of that code with frames at the template's
    lines, but a macro pgm calls from Python (``module.square``) runs outside any render,
    so its frames hold lines of the code Jinja generated. Those are mapped back to the
    template's as Jinja's ``debug.rewrite_traceback_stack`` does: a frame of template
    code has the template in its globals as ``__jinja_template__``."""
    found = None
    trace = exc.__traceback__
    while trace is not None:
        frame = trace.tb_frame
        template = frame.f_globals.get("__jinja_template__")
        if template is not None:
            found = (template.filename or frame.f_code.co_filename,
                     template.get_corresponding_lineno(trace.tb_lineno))
        elif frame.f_code.co_filename.endswith((".html", ".xml", ".json")):
            found = (frame.f_code.co_filename, trace.tb_lineno)  # a frame Jinja rewrote
        trace = trace.tb_next
    return found


def template_failure(exc: Exception, where: tuple[str, int]) -> jinja2.TemplateError:
    """``exc``, raised in a template's code at ``where``, as a template error that says
    so: it fails the build as any template error does, and takes its place with it from
    a worker process to the build's, which a traceback does not."""
    error = jinja2.TemplateRuntimeError(f"{type(exc).__name__}: {exc}")
    return placed(error, where)


def placed(error: jinja2.TemplateError, where: tuple[str, int] | None
           ) -> jinja2.TemplateError:
    """``error`` carrying ``where`` (template file, line) as its ``filename`` and
    ``lineno``, which a worker process passes on to the build's with the error (its
    traceback stays behind). A syntax error has its place already and keeps it."""
    if where is not None and getattr(error, "lineno", None) is None:
        vars(error).update(filename=where[0], lineno=where[1])
    return error


def markup(html: str) -> Markup:
    """``html`` that pgm made from printed values and fragments, as ``Markup``. It is
    what ``Markup(html)`` gives for a plain string, without that constructor's checks
    in Python: a turn page makes about ten of these."""
    return _new_str(Markup, html)


_new_str = str.__new__


class _CodeGenerator(CodeGenerator):
    """Compiles ``{{ value }}`` under autoescape to one call of :func:`printed` instead
    of Jinja's ``escape(environment.finalize(value))``: the same text, in one Python
    call where Jinja makes three (and a ``Markup`` each time). Templates that switch
    autoescape themselves keep Jinja's code. The two methods are the hooks Jinja's code
    generator calls around each printed expression (Jinja 3.x); tests hold the output
    to stock Jinja's."""

    def _output_child_pre(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape:
            super()._output_child_pre(node, frame, finalize)
        else:
            self.write("environment.printed(")

    def _output_child_post(self, node: nodes.Expr, frame: Frame, finalize: Any) -> None:
        if frame.eval_ctx.volatile or not frame.eval_ctx.autoescape:
            super()._output_child_post(node, frame, finalize)
        else:
            self.write(")")


Theme = tuple[tuple[str, str], ...]
"""A theme's files as ``pgm.discover.tree_files`` lists them: (name, full path)."""


def make_environment(theme: Sequence[tuple[str, str]] | None = None) -> jinja2.Environment:
    """The environment for a theme's files; kept, so that watch mode and workers compile
    each template once. Only the listed files are read: the same the site's fingerprint
    takes, so a link out of the event folder or a named pipe is never a template."""
    files = tuple(without_editor_files(theme or ()))
    return _environment(files, _mtimes(builtin_dir("templates")) + _file_times(files))


def _mtimes(folder: Path) -> tuple[tuple[str, float], ...]:
    """A template folder being edited gets a fresh environment: the environment does
    not look at file times itself, since a game's pages load templates many times over
    and each look would cost a ``stat``."""
    return tuple((str(p), p.stat().st_mtime) for p in sorted(folder.rglob("*")) if p.is_file())


def _file_times(files: Theme) -> tuple[tuple[str, float], ...]:
    times = []
    for _, path in files:
        with contextlib.suppress(OSError):  # gone: the build that lists it again says so
            times.append((path, os.stat(path).st_mtime))
    return tuple(times)


class _ThemeLoader(jinja2.BaseLoader):
    """A theme's templates, read from the listed files only (without waiting on a named
    pipe put in a file's place since it was listed)."""

    def __init__(self, files: Theme) -> None:
        self._files = dict(files)

    def get_source(self, environment: jinja2.Environment, template: str
                   ) -> tuple[str, str, Callable[[], bool]]:
        path = self._files.get(template)
        if path is None:
            raise jinja2.TemplateNotFound(template)
        try:
            data, _ = read_regular(Path(path))
        except OSError:
            raise jinja2.TemplateNotFound(template) from None
        try:
            return data.decode("utf-8"), path, lambda: True
        except UnicodeDecodeError as exc:
            line, column = not_utf8_at(data, exc)
            _raise_in_theme(environment, jinja2.TemplateSyntaxError(
                f"not UTF-8 (byte 0x{data[exc.start]:02X} at line {line}, column {column}); "
                "save the file as UTF-8", line, template, path))

    def load(self, environment: jinja2.Environment, name: str,
             globals: MutableMapping[str, Any] | None = None) -> jinja2.Template:
        """The template ``name`` (compiled by :func:`_theme_code`, which refuses one
        that extends itself); a macro file (``MACRO_FILES``) of the theme is laid
        over pgm's: its macros replace pgm's of the same names, and pgm's file gives the
        others. Its module is made by running pgm's file's code, then the theme's, in
        one context, so a macro defined in both is the theme's (each keeps its own file
        and lines in errors). An ``{% extends "!default/NAME" %}`` of pgm's own file
        is left out: it would run pgm's file after the theme's, and pgm's macros would
        win."""
        source, filename, uptodate = self.get_source(environment, name)
        code = _theme_code(environment, name, source, filename)
        template = environment.template_class.from_code(environment, code, globals or {},
                                                        uptodate)
        if name in MACRO_FILES:
            _lay_over(template, environment.get_template(f"!default/{name}"))
        return template


MACRO_FILES = ("partials/fragments.html", "partials/turn_parts.html")
"""The templates pgm takes macros from, rather than renders."""


def _theme_code(environment: jinja2.Environment, name: str, source: str,
                filename: str) -> Any:
    """A theme's template compiled, through the bytecode cache as ``BaseLoader.load``
    compiles a template (only this loader ever compiles a theme's file). A macro file
    is compiled without its extends of pgm's file. A template that extends itself
    (``{% extends "turn.html" %}`` in the theme's ``turn.html``, which Jinja finds in
    the theme again, without end) is refused with the name that reaches pgm's."""
    cache = environment.bytecode_cache
    bucket = cache.get_bucket(environment, name, filename, source) if cache else None
    if bucket is not None and bucket.code is not None:
        return bucket.code
    tree = environment.parse(source, name, filename)
    for node in tree.find_all(nodes.Extends):
        if isinstance(node.template, nodes.Const) and node.template.value == name:
            _raise_in_theme(environment, jinja2.TemplateSyntaxError(
                f'{{% extends "{name}" %}} makes the theme\'s {name} extend itself; to '
                f'extend pgm\'s {name}, write {{% extends "!default/{name}" %}}',
                node.lineno, name, filename), source)
    if name in MACRO_FILES:
        tree.body = [node for node in tree.body if not (
            isinstance(node, nodes.Extends) and isinstance(node.template, nodes.Const)
            and node.template.value == f"!default/{name}")]
    code = environment.compile(tree, name, filename)
    if cache is not None and bucket is not None:
        bucket.code = code
        cache.set_bucket(bucket)
    return code


def _raise_in_theme(environment: jinja2.Environment, error: jinja2.TemplateSyntaxError,
                    source: str | None = None) -> NoReturn:
    """Raise ``error``, found in a theme's file, as Jinja raises a syntax error: with a
    traceback at the file's line, so that the build names the theme's file rather than
    the template of pgm's that loaded it (which would make it one record's failure)."""
    try:
        raise error
    except jinja2.TemplateSyntaxError:
        environment.handle_exception(source)


def _lay_over(template: jinja2.Template, pgms: jinja2.Template) -> None:
    own = template.root_render_func

    def root(context: jinja2.runtime.Context) -> Iterator[str]:
        yield from pgms.root_render_func(context)
        yield from own(context)

    template.root_render_func = root  # type: ignore[method-assign]


class _TemplateCodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept from one run of pgm to the next, in Jinja's cache folder
    for the user (in the temp folder, private to the user). Compiling pgm's templates
    takes some 50 ms, which every worker of a build and every new process paid again:
    a good part of rebuilding after one record changed.

    Jinja checks each entry against its template's source; the key adds what else the
    code depends on (pgm's code generator and environment, Jinja), so a different pgm
    never runs another's code. A cache that cannot be read or written is passed by."""

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return super().get_cache_key(f"{_CODE_STAMP}/{name}", filename)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 - a damaged entry (Jinja lets unpickling errors out)
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):  # a full disk: compiled again next time
            super().dump_bytecode(bucket)


_CODE_STAMP = hashlib.sha256(b"\0".join((__version__.encode(), jinja2.__version__.encode(),
                                         Path(__file__).read_bytes()))).hexdigest()[:16]
"""This module's source holds the code generator and the environment's settings."""


def _code_cache() -> jinja2.BytecodeCache | None:
    if not _in_a_temp_folder():
        return None
    try:
        return _TemplateCodeCache(pattern="pgm-%s.cache")
    except (OSError, RuntimeError):  # no private temp folder for this user
        return None


def _in_a_temp_folder() -> bool:
    """Whether the temp folder is one: with none writable, Python falls back to the
    current folder, usually the event's, where a cache folder must not appear."""
    temp = tempfile.gettempdir()
    named = [os.environ.get(name) for name in ("TMPDIR", "TEMP", "TMP")]
    return temp in {os.path.abspath(path) for path in named + _SYSTEM_TEMP if path}


_SYSTEM_TEMP = ["/tmp", "/var/tmp", "/usr/tmp"]
"""Where Python looks for a temp folder after the environment's, before the current folder."""


class _Environment(jinja2.Environment):
    """Template globals as one plain dict instead of Jinja's ChainMap: every render
    copies them into a new context, and copying a ChainMap goes key by key in Python,
    which a turn page pays several times. pgm sets its globals before loading any
    template, so nothing is lost by flattening them."""

    code_generator_class = _CodeGenerator
    printed = staticmethod(printed)

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


@functools.lru_cache(maxsize=8)
def _environment(theme: Theme, _stamp: tuple[tuple[str, float], ...]) -> jinja2.Environment:
    builtin = jinja2.FileSystemLoader(builtin_dir("templates"))
    loaders: list[jinja2.BaseLoader] = []
    if theme:
        loaders.append(_ThemeLoader(theme))
    loaders += [builtin, jinja2.PrefixLoader({"!default": builtin}, delimiter="/")]
    env = _Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=True,
        finalize=_without_bidi_controls,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        bytecode_cache=_code_cache(),
    )
    env.globals["version"] = __version__
    env.globals["fragment"] = fragment_global(env)
    env.filters["round_title"] = round_title
    return env

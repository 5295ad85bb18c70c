"""Markdown for descriptions, notes and comments, which come from untrusted files.

Raw HTML is off (markdown-it's ``js-default`` preset, which also refuses
``javascript:``/``data:`` links) unless the event config sets ``allow_html``; this is the
one place that marks rendered text as safe for the templates.

Line breaks in a record's text are kept (markdown-it's ``breaks``): annotators write a
``#note`` line by line (its continuation lines), and joined into one line such text
reads as one run-on sentence. The event's description in ``event.yaml`` is markdown as
everywhere else, its lines wrapped in the file and joined on the page (a hard break
is two spaces or a backslash at the end of a line).
"""

from __future__ import annotations

import re
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


@cache
def _renderer(allow_html: bool, breaks: bool, depth: int) -> MarkdownIt:
    """Made when the first text is rendered: most games have no notes, and loading the
    parser is a good part of starting pgm."""
    from markdown_it import MarkdownIt

    # HTML5's <br>, not XHTML's <br />, either way: a plain line gives the same paragraph
    # with raw HTML on or off (_plain_paragraph)
    md = MarkdownIt("commonmark" if allow_html else "js-default",
                    {"html": allow_html, "linkify": False, "typographer": False,
                     "breaks": breaks, "xhtmlOut": False})
    if not allow_html:
        md.disable("html_inline", ignoreInvalid=True)
        md.disable("html_block", ignoreInvalid=True)
    md.core.ruler.push("pgm_page_parts", partial(_fitted, depth=depth))
    return md


def _fitted(state: Any, depth: int) -> None:
    """The text fitted to the page it is on. A heading sits ``depth`` levels below the
    page's own (under a turn page's ``<h2>`` Notes, ``# Plan`` is an ``<h3>``; under
    the game page's ``<h3>`` for each turn, an ``<h4>``), down to ``<h6>``, so that a
    screen reader's list of headings keeps the page's outline. A link written as its
    address (``<https://...>``) is marked ``auto``: printed, it needs no address after
    it (pgm.css)."""
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + depth, 6)}"
        elif token.type == "inline":
            for child in token.children or ():
                if child.type == "link_open" and child.markup == "autolink":
                    child.attrSet("class", "auto")


def render_markdown(text: str, allow_html: bool = False, breaks: bool = True,
                    depth: int = 2) -> Markup:
    """``text`` as HTML; ``breaks``: its line breaks kept (see above); ``depth``: how
    many levels below the page's top its headings go (see :func:`_fitted`)."""
    cleaned = strip_bidi_controls(text)
    if _PLAIN_LINE.fullmatch(cleaned):
        return Markup(_plain_paragraph(cleaned, breaks))  # noqa: S704 - escaped there
    return Markup(_renderer(allow_html, breaks, depth).render(cleaned))  # noqa: S704 - rendered safely


_LINE = r"(?![0-9]{1,9}[.)])(?:[^\W_]|#(?=[^\W_]))(?:[^\W_]|[ ,.;:?!#'\"()/%+=@$-])*(?<! )"
_PLAIN_LINE = re.compile(f"{_LINE}(?:\n{_LINE})*")
"""Lines of words and plain punctuation, each starting with a letter, a digit that does
not open a list, or a ``#`` tag (``#knowledge``, not a heading): markdown has nothing to
do in them but make them one paragraph, a line break between two. Most notes of
annotators are such lines, and markdown-it takes some hundred microseconds to say so, a
note on every few turns of a whole season."""


def _plain_paragraph(lines: str, breaks: bool) -> str:
    """What markdown-it makes of lines matching ``_PLAIN_LINE``: a paragraph, with the
    one character among those allowed that it escapes, and its lines' breaks kept when
    ``breaks``."""
    text = lines.replace('"', "&quot;")
    return "<p>" + (text.replace("\n", "<br>\n") if breaks else text) + "</p>\n"


def strip_bidi_controls(text: str) -> str:
    """Bidi overrides in untrusted text could reorder what a spectator reads; ``text``
    without any embedding, override or isolate (ASCII text has none to look for)."""
    return text if text.isascii() else text.translate(_BIDI_CONTROLS)


_BIDI_CONTROLS = {c: None for c in (0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                    0x2066, 0x2067, 0x2068, 0x2069)}

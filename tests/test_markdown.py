"""Notes and descriptions: a plain line skips markdown-it, and gets exactly the markup
markdown-it would have made of it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pgm.markdown import _PLAIN_LINE, _renderer, render_markdown, strip_bidi_controls

# Letters of several scripts, digits, every character the plain-line rule allows, and the
# characters that make markdown do something (lists, emphasis, links, code, entities...).
ALPHABET = ("abcXYZ019éßжλ中٣ ,.;:?!#'\"()/%+=@$-" "*_[]<>&~|`\\\n\t\r\u202e\u00a0")


def markdown_it(text: str, allow_html: bool, breaks: bool = True) -> str:
    return _renderer(allow_html, breaks, 2).render(strip_bidi_controls(text))


@settings(max_examples=3000, deadline=None)
@given(text=st.text(alphabet=ALPHABET, max_size=30), allow_html=st.booleans(),
       breaks=st.booleans())
def test_every_text_renders_as_markdown_it_renders_it(text: str, allow_html: bool,
                                                      breaks: bool) -> None:
    assert render_markdown(text, allow_html, breaks) == markdown_it(text, allow_html, breaks)


@pytest.mark.parametrize("text", [
    "Best was 8H QUIXOTIC (365), not 8G", 'He said "no" - it\'s 50% luck',
    "copy 12", "x = y / 2 + 1 @ $3", "Ж и λ", "a  b", "7M QAT #knowledgemedium", "Wow!",
    "#KNOWLEDGESADDEST", "#tag", "this\nis\na\nmultiline\nnote", "a\n#b", "Ab\n٣. x",
])
def test_plain_lines_take_the_short_way_to_the_same_paragraph(text: str) -> None:
    assert _PLAIN_LINE.fullmatch(text)
    assert render_markdown(text) == markdown_it(text, False)
    assert render_markdown(text, breaks=False) == markdown_it(text, False, breaks=False)


@pytest.mark.parametrize("text", [
    "2. second", "1) first", "- item", "+ item", "= x", "# head", "> quote", "ends ",
    " starts", "*em*", "a\n1. x", "a\n2. x", "a\n\nb", "a \nb", "a\n b", "a\n-", "a\n=", "#",
    "# \nb", "a\n#", "a\r\nb", "a_b_", "[x](javascript:alert(1))", "a < b", "a & b",
    "x | y", "~~old~~", "`code`", "a\\b", "!wow", "#_x", "",
])
def test_lines_markdown_may_act_on_go_through_markdown_it(text: str) -> None:
    assert not _PLAIN_LINE.fullmatch(text)
    assert render_markdown(text) == markdown_it(text, False)


def test_raw_html_stays_escaped_in_plain_and_marked_up_notes() -> None:
    assert "<script>" not in render_markdown("<script>alert(1)</script> it's 5%")
    assert render_markdown('say "hi"') == '<p>say &quot;hi&quot;</p>\n'


@pytest.mark.parametrize("allow_html", [False, True])
def test_a_note_written_line_by_line_keeps_its_lines(allow_html: bool) -> None:
    """Annotators write a #note line by line (its continuation lines): each line stays a
    line, plain or marked up, with raw HTML on or off; a blank line still starts a new
    paragraph."""
    assert render_markdown("this\nis\na note", allow_html) == "<p>this<br>\nis<br>\na note</p>\n"
    assert render_markdown("*best* was\n8H QI", allow_html) == \
        "<p><em>best</em> was<br>\n8H QI</p>\n"
    assert render_markdown("one\n\ntwo", allow_html) == "<p>one</p>\n<p>two</p>\n"


def test_kept_line_breaks_let_no_raw_html_through() -> None:
    html = render_markdown("first line\n<script>alert(1)</script>\n<b>bold</b>")
    assert html == ("<p>first line<br>\n&lt;script&gt;alert(1)&lt;/script&gt;<br>\n"
                    "&lt;b&gt;bold&lt;/b&gt;</p>\n")


def test_a_heading_in_a_note_sits_below_the_pages_headings() -> None:
    """A note is under the turn page's ``<h2>Notes</h2>``: its ``#`` heading is an
    ``<h3>``, and the deepest stay ``<h6>``, so the page's outline holds."""
    html = render_markdown("Plan:\n# Opening\n## Why RETAINS?\n##### Deep")
    assert "<h3>Opening</h3>" in html and "<h4>Why RETAINS?</h4>" in html
    assert "<h6>Deep</h6>" in html and "<h1>" not in html and "<h2>" not in html


def test_headings_go_as_deep_as_the_page_asks_and_autolinks_are_marked() -> None:
    """Under the game page's ``<h3>`` of each turn a note's ``#`` heading is an
    ``<h4>``, its child, not a sibling; a link written as its address is marked, so
    that print does not give the address twice."""
    html = render_markdown("# Plan\nsee <https://x.org/a> or [the rules](https://y.org)",
                           depth=3)
    assert "<h4>Plan</h4>" in html
    assert '<a href="https://x.org/a" class="auto">https://x.org/a</a>' in html
    assert '<a href="https://y.org">the rules</a>' in html

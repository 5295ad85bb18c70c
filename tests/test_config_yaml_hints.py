"""A YAML syntax error in event.yaml says what to do about it, on the line to fix.

PyYAML names the grammar ("mapping values are not allowed here"); a director needs the
fix ("put the value in quotes"). Each case is a mistake directors make, built and
checked with the real CLI; the message is asserted whole, as the director reads it.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st
from sitehelpers import make_event

from pgm.cli import main
from pgm.config import load_configs

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()

HINTED = {
    "value holding a colon": (
        b"title: Round 1: finals\n",
        '1: error: YAML syntax error: mapping values are not allowed here; put the value '
        'in quotes: title: "Round 1: finals"'),
    "tab indenting a key": (
        b"title: Open\n\tround: 1\n",
        "2: error: YAML syntax error: found character '\\t' that cannot start any token; "
        "indent with spaces, not tabs"),
    "tab after a colon": (
        b"title:\tOpen\n",
        "1: error: YAML syntax error: found character '\\t' that cannot start any token; "
        "YAML allows no tab here: use spaces"),
    "double quote never closed": (
        b'title: "Spring Open\nround: 2\ndescription: club\n',
        '1: error: YAML syntax error: while scanning a quoted scalar that starts here: '
        'found unexpected end of stream on line 4; the " opening the value here is never '
        'closed: end the value with " (title: "Spring Open")'),
    "single quote never closed": (
        b"title: x\ndescription: 'Club night\n",
        "2: error: YAML syntax error: while scanning a quoted scalar that starts here: "
        "found unexpected end of stream on line 3; the ' opening the value here is never "
        "closed: end the value with ' (description: 'Club night')"),
    "value starting with @": (
        b"title: @club\n",
        "1: error: YAML syntax error: found character '@' that cannot start any token; "
        'YAML reserves @ at the start of a value: to write it as text, put the value in '
        'quotes: title: "@club"'),
    "value starting with a backquote": (
        b"title: `Open`\n",
        "1: error: YAML syntax error: found character '`' that cannot start any token; "
        "YAML reserves ` at the start of a value: to write it as text, put the value in "
        'quotes: title: "`Open`"'),
    "value starting with %": (
        b"title: x\ndescription: %50 off\n",
        "2: error: YAML syntax error: found character '%' that cannot start any token; "
        "YAML reserves % at the start of a value: to write it as text, put the value in "
        'quotes: description: "%50 off"'),
    "value starting with *": (
        b"title: *Stars* night\n",
        "1: error: YAML syntax error: expected alphabetic or numeric character, but found "
        "'*'; YAML reserves * at the start of a value: to write it as text, put the value "
        'in quotes: title: "*Stars* night"'),
    "a lone * word": (
        b"title: *Stars\n",
        "1: error: YAML syntax error: found undefined alias 'Stars'; YAML reserves * at "
        'the start of a value: to write it as text, put the value in quotes: '
        'title: "*Stars"'),
    "value starting with & (one line, not PyYAML's mark)": (
        b"title: &Co\n",
        "1: error: YAML value error: while parsing a block node: expected the node "
        "content, but found '<document end>'; YAML reserves & at the start of a value: to "
        'write it as text, put the value in quotes: title: "&Co"\n'),
    "quoted start with more after it": (
        b'title: x\ndescription: "Round 1" finals\n',
        "2: error: YAML syntax error: expected <block end>, but found '<scalar>'; a value "
        'starting with " ends at its ", leaving the rest of the line over: put the whole '
        "value in quotes: description: '\"Round 1\" finals'"),
    "indented line under a value": (
        b"title: x\n  round: 2\n",
        "2: error: YAML syntax error: mapping values are not allowed here; this line is "
        "indented under the one above, so YAML reads it as more of that value: line its "
        "key up with the keys above"),
    "colon in a value in braces": (
        b"games:\n  r1.gcg: {title: Round 1: final}\n",
        "2: error: YAML syntax error: expected ',' or '}', but got ':'; put a value "
        'holding ": " in quotes: {title: "Round 1: finals"}'),
    "line without a colon": (
        b"title: x\nround 2\n",
        "2: error: YAML syntax error: while scanning a simple key that starts here: could "
        "not find expected ':' on line 3; write each setting as key: value, with a space "
        "after the colon"),
    "list never closed": (
        b"title: [Open\n",
        "1: error: YAML syntax error: while parsing a flow sequence that starts here: "
        "expected ',' or ']', but got '<stream end>' on line 2; the [ on this line is "
        'never closed: end it with ], or put text in quotes: title: "[Open"'),
}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("yaml_text,expected", HINTED.values(), ids=list(HINTED))
def test_a_yaml_mistake_gets_its_fix_on_the_line_to_fix(tmp_path, monkeypatch, yaml_text,
                                                        expected) -> None:
    make_event(tmp_path / "ev", {"event.yaml": yaml_text, "g.gcg": RECORD})
    monkeypatch.chdir(tmp_path)
    built = run("build", "ev", "-o", "site")
    assert built.exit_code == 1 and "Traceback" not in built.output
    assert f"\nev/event.yaml:{expected}" in built.output
    assert not (tmp_path / "site").exists()
    checked = run("check", "ev")
    assert checked.exit_code == 1
    assert f"ev/event.yaml:{expected}" in checked.stdout


def test_a_quote_closed_only_on_a_later_line_is_reported_where_it_opens(tmp_path,
                                                                          monkeypatch) -> None:
    """PyYAML stops on line 3, after the value that ran on from line 2 to the next quote;
    the quote to add is on line 2."""
    make_event(tmp_path / "ev", {"event.yaml": b'title: Open\ndescription: "Club\nround: "2"\n',
                                 "g.gcg": RECORD})
    monkeypatch.chdir(tmp_path)
    checked = run("check", "ev")
    assert checked.stdout.splitlines()[0] == (
        "ev/event.yaml:2: error: YAML syntax error: expected <block end>, but found "
        "'<scalar>' on line 3; the \" opening the value here is not closed on this line: "
        'end the value with " (description: "Club")')


def test_the_hinted_line_is_the_line_of_a_file_saved_with_crlf_and_a_bom(tmp_path) -> None:
    make_event(tmp_path / "ev", {"event.yaml": b"\xef\xbb\xbftitle: x\r\ndescription: "
                                               b"Round 1: finals\r\n", "g.gcg": RECORD})
    checked = run("check", str(tmp_path / "ev"))
    assert (f"{tmp_path / 'ev/event.yaml'}:2: error: YAML syntax error: mapping values are "
            'not allowed here; put the value in quotes: description: "Round 1: finals"\n'
            ) in checked.stdout


def test_a_yaml_error_with_no_common_cause_keeps_pyyamls_words_alone(tmp_path) -> None:
    make_event(tmp_path / "ev", {"event.yaml": b"title: x\ndescription: a\n- item\n",
                                 "g.gcg": RECORD})
    checked = run("check", str(tmp_path / "ev"))
    assert (f"{tmp_path / 'ev/event.yaml'}:3: error: YAML syntax error: expected <block "
            "end>, but found '-'\n") in checked.stdout


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab1 :\t\"'[]{}@`%*&!|>#-,\\\n\r\x85\u2028")),
               max_size=40))
def test_hints_never_raise_and_keep_one_line(tmp_path_factory, text: str) -> None:
    """Text made of what YAML reads specially reaches every hint; each error stays one
    line (an editor reads one problem per line)."""
    folder = tmp_path_factory.mktemp("cfg")
    (folder / "event.yaml").write_text(text, encoding="utf-8", newline="")
    for diagnostic in load_configs(folder, []).diagnostics:
        assert "\n" not in diagnostic.message and diagnostic.line >= 0

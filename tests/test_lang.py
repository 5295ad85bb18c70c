"""The ``lang`` event key: the language every page declares (``<html lang>``), which
screen readers speak the pages in and browsers offer to translate from."""

from __future__ import annotations

import re
import shutil

import pytest
from conftest import CORPUS, SAMPLE_GAMES
from sitehelpers import make_event, run_build

import pgm.crossword_turns
import pgm.render
from pgm.build import BuildOptions, build

RECORD = (CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes()
OTHER = (CORPUS / "gcg/MAGPIE-DATA__success.gcg").read_bytes()
HTML_LANG = re.compile(r"<html lang=\"([^\"]*)\">")


def page_langs(out) -> dict[str, str]:
    """Each page of the site (path in it) and the language it declares."""
    langs = {}
    for page in sorted(out.rglob("*.html")):
        found = HTML_LANG.search(page.read_text(encoding="utf-8"))
        langs[page.relative_to(out).as_posix()] = found.group(1) if found else ""
    return langs


def test_every_page_of_every_kind_declares_the_events_language(tmp_path) -> None:
    """The sample event holds each kind of record (crossword, Gungi, Upwords, a board,
    a set of positions): every page of each, and the index, players and 404 pages."""
    event = tmp_path / "ev"
    shutil.copytree(SAMPLE_GAMES, event)
    with open(event / "event.yaml", "a", encoding="utf-8") as handle:
        handle.write("lang: pt-BR\n")
    result = run_build(str(event), "-o", str(tmp_path / "site"), "--strict")
    assert result.exit_code == 0, result.output
    langs = page_langs(tmp_path / "site")
    for page in ("index.html", "players.html", "404.html", "round-1/table-1/index.html",
                 "round-1/table-1/1.html", "exhibition/gungi-sample/index.html",
                 "exhibition/gungi-sample/1.html", "upwords/upwords-sample/1.html",
                 "upwords/example/index.html", "positions/puzzles/index.html"):
        assert langs[page] == "pt-BR", page
    assert set(langs.values()) == {"pt-BR"}


def test_pages_are_in_english_unless_said(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"round-1/table-1.gcg": RECORD})
    assert run_build(str(event), "-o", str(tmp_path / "site")).exit_code == 0
    assert set(page_langs(tmp_path / "site").values()) == {"en"}


def test_turn_pages_made_from_a_plan_declare_the_language(tmp_path, monkeypatch) -> None:
    """Turn pages are filled in from a plan made once, which two games share: ``lang``
    is part of what they share, not a value filled in for each page."""
    plans = []
    make_plan = pgm.crossword_turns.TurnPages._plan
    monkeypatch.setattr(pgm.crossword_turns.TurnPages, "_plan",
                        lambda *args: plans.append(make_plan(*args)) or plans[-1])
    event = make_event(tmp_path / "ev", {"event.yaml": "lang: fr\n", "a.gcg": RECORD,
                                         "b.gcg": OTHER})
    pgm.render._environment.cache_clear()  # plans made so far are kept with it
    assert not build(BuildOptions(event, tmp_path / "o", jobs=1)).errors
    assert plans and None not in plans
    assert '<html lang="fr">' in plans[0]._fixed[0]  # the fixed text, not a value filled in
    assert HTML_LANG.search((tmp_path / "o/b/3.html").read_text()).group(1) == "fr"


def test_a_new_language_rebuilds_every_page(tmp_path) -> None:
    """The pages of games that did not change are written again in the new language:
    ``lang`` is part of the site's fingerprint, as every event key is."""
    event = make_event(tmp_path / "ev", {"event.yaml": "lang: fr\n", "r1/t1.gcg": RECORD,
                                         "r1/t2.gcg": OTHER})
    site = tmp_path / "site"
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    assert set(page_langs(site).values()) == {"fr"}
    (event / "event.yaml").write_text("lang: de\n", encoding="utf-8")
    result = run_build(str(event), "-o", str(site))
    assert result.exit_code == 0
    assert result.output.startswith("Built 2 records")
    assert set(page_langs(site).values()) == {"de"}
    again = run_build(str(event), "-o", str(site))
    assert again.output.startswith("Nothing changed")


@pytest.mark.parametrize(("value", "message"), [
    ("French", "key 'lang' must be a language tag such as en, fr or pt-BR, not 'French'"),
    ("pt_BR", "key 'lang' must be a language tag such as en, fr or pt-BR, not 'pt_BR' "
              "(with a hyphen: pt-BR)"),
    ("en-", "key 'lang' must be a language tag such as en, fr or pt-BR, not 'en-'"),
    ("fr FR", "key 'lang' must be a language tag such as en, fr or pt-BR, not 'fr FR'"),
    ("''", "key 'lang' must not be empty"),
    ("12", "key 'lang' must be a language tag such as en, fr or pt-BR, not '12'"),
])
def test_a_value_that_is_no_language_tag_is_an_error(tmp_path, value, message) -> None:
    event = make_event(tmp_path / "ev", {"event.yaml": f"title: Open\nlang: {value}\n",
                                         "t1.gcg": RECORD})
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 1
    assert f"{event / 'event.yaml'}:2: error: {message}\n" in result.output
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("tag", ["en", "fr", "pt-BR", "zh-Hant-TW", "es-419", "de-CH-1996",
                                 "sr-Latn", "EN-gb", "en-x-club"])
def test_language_tags_are_taken(tmp_path, tag) -> None:
    event = make_event(tmp_path / "ev", {"event.yaml": f"lang: {tag}\n", "t1.gcg": RECORD})
    assert run_build(str(event), "-o", str(tmp_path / "site")).exit_code == 0
    assert set(page_langs(tmp_path / "site").values()) == {tag}


def test_lang_in_a_subfolder_is_the_events_only(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"french/event.yaml": "lang: fr\n",
                                         "french/t1.gcg": RECORD})
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert (f"{event / 'french/event.yaml'}:1: warning: key 'lang' only applies in the "
            "event's root event.yaml; ignored here (if "
            f"{event / 'french'} is an event of its own, build that folder for its site)"
            ) in result.output
    assert set(page_langs(tmp_path / "site").values()) == {"en"}

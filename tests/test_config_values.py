"""Values of event.yaml that have the right type but cannot be used: an empty text, a
``base_url`` that pages cannot be addressed below. Each is an error at the key's line
naming the file, and the key falls back to its default."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from sitehelpers import make_event, run_build

from pgm.config import base_url_problem, load_configs

GOOD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def _problems(tmp_path, text: str) -> list[str]:
    make_event(tmp_path, {"event.yaml": text, "g.gcg": GOOD, "club.css": "b{}",
                          "theme/turn.html": ""})
    configs = load_configs(tmp_path, ["g.gcg"])
    return [str(d).removeprefix(f"{tmp_path / 'event.yaml'}:") for d in configs.diagnostics]


@pytest.mark.parametrize(("text", "problem"), [
    ('spoiler_free: false\ntitle: ""\n', "2: error: key 'title' must not be empty"),
    ("base_url: https://ex.org/a?b=c\n", "1: error: key 'base_url' must be the address")])
def test_an_unusable_value_is_an_error_at_its_line_and_builds_nothing(tmp_path, text: str,
                                                                       problem: str) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": text})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{event / 'event.yaml'}:{problem}" in result.output
    assert not (tmp_path / "o").exists()


TEXT_KEYS = ["title", "description", "base_url", "theme", "theme_dir", "division", "round",
             "table", "lexicon", "distribution", "board", "orientation"]


@pytest.mark.parametrize("blank", ['""', "'   '", '"\\t"'])
@pytest.mark.parametrize("key", TEXT_KEYS)
def test_every_text_key_refuses_an_empty_or_blank_value(tmp_path, key: str, blank: str) -> None:
    assert _problems(tmp_path, f"allow_html: false\n{key}: {blank}\n") == [
        f"2: error: key '{key}' must not be empty"]


@pytest.mark.parametrize("key", ["division", "round", "table", "title", "lexicon"])
def test_a_blank_game_key_under_games_is_reported_on_its_own_line(tmp_path, key: str) -> None:
    text = f"games:\n  g.gcg:\n    draft: false\n    {key}: ' '\n"
    assert _problems(tmp_path, text) == [f"4: error: key '{key}' must not be empty"]


def test_a_blank_game_key_in_a_subfolder_is_an_error(tmp_path) -> None:
    make_event(tmp_path, {"div/event.yaml": "division: ''\n", "div/g.gcg": GOOD})
    configs = load_configs(tmp_path, ["div/g.gcg"])
    assert [str(d) for d in configs.diagnostics] == [
        f"{tmp_path / 'div/event.yaml'}:1: error: key 'division' must not be empty"]


def test_an_empty_stylesheet_name_is_an_error(tmp_path) -> None:
    assert _problems(tmp_path, "css:\n  - club.css\n  - ''\n") == [
        "3: error: key 'css' must not name an empty file"]
    assert _problems(tmp_path, "css: ''\n") == ["1: error: key 'css' must not name an empty file"]


def test_a_blank_value_falls_back_to_the_default(tmp_path) -> None:
    make_event(tmp_path, {"event.yaml": "title: ' '\ntheme: ''\n"})
    event = load_configs(tmp_path, []).event
    assert (event.title, event.theme) == ("Games", "default")


def test_text_with_content_is_kept_as_written(tmp_path) -> None:
    assert _problems(tmp_path, "title: ' Club night '\nround: '0'\ntheme_dir: theme\n") == []
    assert load_configs(tmp_path, []).event.title == " Club night "


@pytest.mark.parametrize("url,problem", [
    ("https://ex.org/a?b=c", "a query ('?b=c')"),
    ("https://ex.org/a?", "a query ('?')"),
    ("https://ex.org/a/#top", "a fragment ('#top')"),
    ("https://ex.org/a?b=c#d", "a query ('?b=c')"),
])
def test_a_base_url_with_a_query_or_fragment_is_an_error_at_its_line(tmp_path, url: str,
                                                                      problem: str) -> None:
    assert _problems(tmp_path, f"title: Club\nbase_url: '{url}'\n") == [
        f"2: error: key 'base_url' must be the address of the site's folder, without {problem}: "
        f"pages are addressed below it, as https://example.org/event/index.html; not {url!r}"]


@pytest.mark.parametrize("url", ["https://", "https:///event/", "http://exa mple.org/",
                                 "https://example.org/my event/", "https://ex.org:port/",
                                 "ftp://example.org/", "example.org/club"])
def test_a_base_url_without_a_host_or_with_spaces_is_not_an_address(tmp_path, url: str) -> None:
    assert _problems(tmp_path, f"base_url: '{url}'\n") == [
        f"1: error: key 'base_url' must be an absolute address such as "
        f"https://example.org/event/, not {url!r}"]


@pytest.mark.parametrize("url", ["https://example.org", "https://example.org/club/",
                                 "http://localhost:8000/a/b", "https://ex.org/%7Eann/",
                                 "HTTPS://Example.org/"])
def test_a_plain_base_url_is_accepted(url: str) -> None:
    assert base_url_problem(url) is None


def test_the_base_url_option_is_checked_alike(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--base-url",
                       "https://ex.org/a#top")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "Invalid value for '--base-url': must be the address of the site's folder, " \
        "without a fragment ('#top')" in result.output
    assert not (tmp_path / "o").exists()


def test_an_unknown_tile_set_or_board_is_an_error_at_its_line_with_the_known_names(
        tmp_path) -> None:
    """Said once, where the director wrote it, with the names to choose from: it was a
    warning on every record of the folder, which then told them to set the key."""
    problems = _problems(tmp_path, "distribution: catalun\nboard: Supper\n")
    assert problems[0].startswith("1: error: key 'distribution' is 'catalun', which pgm "
                                  "does not know (catalan, catalan_super, dutch, english,")
    assert problems[0].endswith("Did you mean 'catalan'?")
    assert problems[1] == ("2: error: key 'board' is 'Supper', which pgm does not know "
                           "(CrosswordGame, SuperCrosswordGame).")
    assert len(problems) == 2


def test_a_tile_set_may_be_named_by_its_language(tmp_path) -> None:
    """``distribution: català`` (or ``ca``, as ``lang: ca``) is the catalan set; the
    game page names the set as pgm does."""
    assert _problems(tmp_path / "checked", "distribution: català\n") == []
    record = "#player1 a a\n#player2 b b\n>a: ?AEIOU[NY] 8G A[NY] +22 22\n"
    for name in ("català", "CA", "Catalan"):
        event = make_event(tmp_path / "events" / name, {"g.gcg": record,
                                             "event.yaml": f"distribution: {name}\n"})
        result = run_build(str(event), "-o", str(tmp_path / f"{name}-site"), "--strict")
        assert result.exit_code == 0, result.output
        page = (tmp_path / f"{name}-site/g/index.html").read_text(encoding="utf-8")
        assert "catalan tiles" in page

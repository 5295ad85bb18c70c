"""Each row of the player index has an id made from the player's name (and division):
a member's bookmark (``players.html#player-Ann_Lee``) keeps opening their row when
players are added or removed, whatever script the name is written in."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlsplit

from conftest import CORPUS
from sitehelpers import make_event, run_build

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_text(encoding="utf-8")
"""andy beats cesar: the names are replaced for each test."""


def record(first: str, second: str) -> bytes:
    text = (RECORD.replace("#player1 andy andy", f"#player1 andy {first}")
            .replace("#player2 cesar cesar", f"#player2 cesar {second}"))
    return ("#character-encoding UTF-8\n" + text).encode("utf-8")


def build(event: Path, out: Path) -> str:
    result = run_build(str(event), "-o", str(out))
    assert result.exit_code == 0, result.output
    return (out / "players.html").read_text(encoding="utf-8")


def row_ids(html: str) -> dict[str, str]:
    """Each row's id by the name in its header cell, as the page has them."""
    rows = re.findall(r'<tr id="([^"]*)"><th scope="row">([^<]*)</th>', html)
    return {unescape(name): unescape(anchor) for anchor, name in rows}


def division_row_ids(html: str) -> dict[tuple[str, str], str]:
    """Each row's id by its division's heading and the player's name."""
    sections = re.findall(r"<h2 [^>]*>([^<]*)</h2>(.*?)</table>", html, re.S)
    return {(unescape(heading), name): anchor for heading, table in sections
            for name, anchor in row_ids(table).items()}


def test_a_rows_id_is_the_players_name_and_stays_when_players_are_added(tmp_path) -> None:
    """A new player who sorts first (a new leader, a name starting with A) moves no
    other row's id, and so does one removed."""
    event = make_event(tmp_path / "ev", {"r1/t1.gcg": record("Noah Walton", "Becky Lee"),
                                         "r1/t2.gcg": record("Peter Armstrong", "jvc")})
    before = row_ids(build(event, tmp_path / "o"))
    assert before == {"Noah Walton": "player-Noah_Walton", "Becky Lee": "player-Becky_Lee",
                      "Peter Armstrong": "player-Peter_Armstrong", "jvc": "player-jvc"}
    make_event(event, {"r2/t1.gcg": record("Aaron Abbott", "Adam Aames")})
    after = row_ids(build(event, tmp_path / "o"))
    assert after == before | {"Aaron Abbott": "player-Aaron_Abbott",
                              "Adam Aames": "player-Adam_Aames"}
    (event / "r1/t1.gcg").unlink()
    assert row_ids(build(event, tmp_path / "o")) == {
        name: anchor for name, anchor in after.items()
        if name not in ("Noah Walton", "Becky Lee")}


def test_ids_keep_the_letters_of_any_script_and_are_unique(tmp_path) -> None:
    """Names that fold to one slug (case, accents, a hyphen for a space, an underscore)
    keep ids of their own; Cyrillic, CJK and Arabic names keep their letters. Every id
    is a valid HTML id (no whitespace, not empty) and each is on the page once."""
    names = ["Doug Smith", "doug smith", "Élodie Roux", "Elodie Roux", "Ann-Lee Kim",
             "Ann Lee Kim", "Ann_Lee Kim", "Алёна Иванова", "李娜", "محمد علي",
             "Zoë ~ Zed", "A/B Team"]
    event = make_event(tmp_path / "ev", {
        f"r1/t{n}.gcg": record(names[2 * n], names[2 * n + 1]) for n in range(len(names) // 2)})
    html = build(event, tmp_path / "o")
    ids = row_ids(html)
    assert set(ids) == set(names)
    assert len(set(ids.values())) == len(names)
    assert all(re.fullmatch(r"player-[^\t\n\f\r ]+", anchor) for anchor in ids.values())
    all_ids = [unescape(i) for i in re.findall(r'\sid="([^"]*)"', html)]
    assert len(all_ids) == len(set(all_ids))
    assert ids["Алёна Иванова"] == "player-Алёна_Иванова"
    assert ids["李娜"] == "player-李娜"
    assert ids["محمد علي"] == "player-محمد_علي"
    assert ids["Élodie Roux"] == "player-Élodie_Roux"
    assert ids["doug smith"] == "player-doug_smith"
    # a name that would not read back from its id is told apart by a digest of it
    assert re.fullmatch(r"player-Ann_Lee_Kim~[0-9a-f]{8}", ids["Ann_Lee Kim"])
    assert ids["Ann Lee Kim"] == "player-Ann_Lee_Kim"


def test_ids_are_deterministic_and_tell_apart_what_only_spacing_does() -> None:
    from pgm.site_model import player_anchor

    assert player_anchor(None, "Ann Lee") == "player-Ann_Lee"
    spellings = ["Ann Lee", "Ann  Lee", "Ann\tLee", "Ann_Lee", "Ann\u200fLee", "Ann Lee ",
                 "Ann~Lee", "Ann/Lee", "Ann-Lee", "ann lee"]
    anchors = [player_anchor(None, name) for name in spellings]
    assert len(set(anchors)) == len(spellings)
    assert anchors == [player_anchor(None, name) for name in spellings]
    # a division and a name never meet another pair's id
    pairs = [("X/Y", "Z"), ("X", "Y/Z"), (None, "X/Y/Z"), ("X", "Y Z"), ("X / Y", "Z"),
             ("X_/_Y", "Z"), ("X /Y", "Z"), ("X", "Y_Z")]
    assert len({player_anchor(division, name) for division, name in pairs}) == len(pairs)
    assert player_anchor("2016 / Spring Open", "Ann Lee") == "player-2016/Spring_Open/Ann_Lee"
    assert all(not re.search(r"[\t\n\f\r ]", a) for a in anchors)


def test_a_player_in_two_divisions_has_a_row_with_an_id_in_each(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"Division A/r1.gcg": record("Ann Lee", "Bob"),
                                         "Division B/r1.gcg": record("Ann Lee", "Bob")})
    rows = division_row_ids(build(event, tmp_path / "o"))
    assert rows == {("Division A", "Ann Lee"): "player-Division_A/Ann_Lee",
                    ("Division A", "Bob"): "player-Division_A/Bob",
                    ("Division B", "Ann Lee"): "player-Division_B/Ann_Lee",
                    ("Division B", "Bob"): "player-Division_B/Bob"}


def test_an_archives_divisions_read_as_folders_in_the_id(tmp_path) -> None:
    """An archive's division named by its first folders (``division_folders: 2``:
    ``2016 / Spring Open``): its id reads as their path, the ids stay unique."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "division_folders: 2\n",
        "2016/Spring Open/round-1/t1.gcg": record("Ann Lee", "Bob"),
        "2016/Autumn Cup/round-1/t1.gcg": record("Ann Lee", "Bob")})
    rows = division_row_ids(build(event, tmp_path / "o"))
    assert rows == {("2016 / Autumn Cup", "Ann Lee"): "player-2016/Autumn_Cup/Ann_Lee",
                    ("2016 / Autumn Cup", "Bob"): "player-2016/Autumn_Cup/Bob",
                    ("2016 / Spring Open", "Ann Lee"): "player-2016/Spring_Open/Ann_Lee",
                    ("2016 / Spring Open", "Bob"): "player-2016/Spring_Open/Bob"}


def test_an_id_stays_when_a_second_division_is_added(tmp_path) -> None:
    """The division is in the id whether or not the page heads the rows with it."""
    event = make_event(tmp_path / "ev", {"Open/r1.gcg": record("Ann Lee", "Bob")})
    assert row_ids(build(event, tmp_path / "o")) == {"Ann Lee": "player-Open/Ann_Lee",
                                                     "Bob": "player-Open/Bob"}
    make_event(event, {"Juniors/r1.gcg": record("Cy", "Dee")})
    rows = division_row_ids(build(event, tmp_path / "o"))
    assert rows[("Open", "Ann Lee")] == "player-Open/Ann_Lee"


PLAYER_LINKS = """\
{% extends "!default/game.html" %}
{% block main %}{{ super() }}
<p class="players-links">{% for name, anchor in game.player_rows -%}
<a href="{{ root }}players.html#{{ anchor|urlencode }}">{{ name }}</a> {% endfor %}</p>
{% endblock %}
"""
"""A game page linking each player's name to their row, from the game alone: what a
theme (or pgm's own game.html) writes with ``game.player_rows``."""


def test_a_game_page_can_link_each_player_to_their_row(tmp_path) -> None:
    names = [("Алёна Иванова", "李娜"), ("محمد علي", "Ann_Lee Kim"), ("Zoë O'Neil", "A#1 %20")]
    files: dict[str, str | bytes] = {
        f"Division {n}/r1.gcg": record(*pair) for n, pair in enumerate(names)}
    files["event.yaml"] = "theme_dir: theme\n"
    files["theme/game.html"] = PLAYER_LINKS
    event = make_event(tmp_path / "ev", files)
    players = build(event, tmp_path / "o")
    ids = {unescape(i): name for i, name in
           re.findall(r'<tr id="([^"]*)"><th scope="row">([^<]*)</th>', players)}
    for n, pair in enumerate(names):
        page = (tmp_path / f"o/division-{n}/r1/index.html").read_text(encoding="utf-8")
        links = re.findall(r'<a href="([^"]*)">([^<]*)</a> ', page.split("players-links")[1])
        assert [unescape(name) for _, name in links] == list(pair)
        for href, name in links:
            url = urlsplit(unescape(href))
            assert url.path == "../../players.html"
            assert " " not in url.fragment and url.fragment.isascii()
            assert unescape(ids[unquote(url.fragment)]) == unescape(name)

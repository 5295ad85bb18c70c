"""A theme's files as a designer leaves them: saved in another encoding, extending
themselves, put where pgm does not look, with an editor's backups beside them; and a
stylesheet named by its web address."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CORPUS, ROOT
from sitehelpers import make_event, run_build

from pgm.state import STATE_NAME

RECORD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
RECORDS = {f"g{n}.gcg": RECORD.replace(b"#player1 andy andy", f"#player1 andy Andy {n}".encode())
           for n in range(4)}
"""Enough games for worker processes; each its own game."""


def _theme_event(tmp_path, theme: dict[str, str | bytes], config: str = "theme_dir: mytheme\n"):
    files: dict[str, str | bytes] = {**RECORDS, "event.yaml": config}
    files.update({f"mytheme/{name}": text for name, text in theme.items()})
    return make_event(tmp_path / "ev", files)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_theme_template_not_in_utf8_is_named_with_the_byte_and_what_to_do(
        tmp_path, jobs) -> None:
    """pgm's templates that extend the theme's base.html are not to blame, nor is the
    record whose page met it first."""
    base = '{% extends "!default/base.html" %}\n{% block footer %}<p>\xa9 Club</p>{% endblock %}\n'
    event = _theme_event(tmp_path, {"base.html": base.encode("latin-1")})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--jobs", jobs)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (f"template error in {event}/mytheme/base.html, line 2: not UTF-8 (byte 0xA9 at "
            "line 2, column 22); save the file as UTF-8\n") in result.output, result.output
    assert "UnicodeDecodeError" not in result.output


@pytest.mark.parametrize("name", ["turn.html", "base.html"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_theme_template_extending_itself_says_to_extend_pgms(tmp_path, name, jobs) -> None:
    event = _theme_event(tmp_path, {name: f'{{# mine #}}\n{{% extends "{name}" %}}\n'})
    result = run_build(str(event), "-o", str(tmp_path / "o"), "--jobs", jobs)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (f'template error in {event}/mytheme/{name}, line 2: {{% extends "{name}" %}} makes '
            f"the theme's {name} extend itself; to extend pgm's {name}, write "
            f'{{% extends "!default/{name}" %}}\n') in result.output, result.output
    assert "RecursionError" not in result.output


JUNK = ("static/.logo.svg.swp", "static/logo.svg~", "static/.DS_Store", "static/#logo.svg#",
        "static/logo.svg.bak", "static/fonts/club.woff2.orig", "base.html~")


def test_editor_backups_in_a_theme_are_not_published_nor_make_the_site_over(tmp_path) -> None:
    event = _theme_event(tmp_path, {"static/logo.svg": "<svg/>", "static/fonts/club.woff2": "x",
                                    "static/.htaccess": "ExpiresActive On\n"})
    out = tmp_path / "o"
    assert run_build(str(event), "-o", str(out), "--strict").exit_code == 0
    state = json.loads((out / STATE_NAME).read_text())
    for name in JUNK:
        (event / "mytheme" / name).write_text("an editor's copy\n", encoding="utf-8")
    result = run_build(str(event), "-o", str(out), "--strict")
    assert result.exit_code == 0, result.output
    assert "Nothing changed" in result.output
    assert json.loads((out / STATE_NAME).read_text())["site"] == state["site"]
    assert _static(out) == {".htaccess", "fonts/club.woff2", "logo.svg", *PGMS_STATIC}
    # a full build (the theme's templates changed) leaves them out too
    (event / "mytheme/base.html").write_text('{% extends "!default/base.html" %}\n')
    assert run_build(str(event), "-o", str(out), "--strict").exit_code == 0
    assert _static(out) == {".htaccess", "fonts/club.woff2", "logo.svg", *PGMS_STATIC}


PGMS_STATIC = {path.relative_to(ROOT / "static").as_posix()
               for path in (ROOT / "static").rglob("*") if path.is_file()}


def _static(out: Path) -> set[str]:
    return {path.relative_to(out / "static").as_posix()
            for path in (out / "static").rglob("*") if path.is_file()}


def _warnings(result) -> list[str]:
    return [line for line in result.output.splitlines() if ": warning: " in line]


def _builds_without_warnings(event: Path, tmp_path: Path) -> Path:
    """Build ``event`` with ``--strict``: no warning, so a clean exit; the site."""
    out = tmp_path / "o"
    result = run_build(str(event), "-o", str(out), "--strict")
    assert result.exit_code == 0, result.output
    assert _warnings(result) == []
    return out


def test_templates_a_theme_has_where_pgm_does_not_look_are_warned_of(tmp_path) -> None:
    """A theme laid out as pgm's repository (``templates/``), or with a name a letter away
    from pgm's, has files no page uses: each is named, with the file that was meant."""
    event = _theme_event(tmp_path, {
        "templates/base.html": '{% extends "!default/base.html" %}\n',
        "templates/partials/sheet.html": "<table></table>\n",
        "bsae.html": '{% extends "!default/base.html" %}\n',
        "turn.htm": '{% extends "!default/turn.html" %}\n',
        "sheet.html": "<table></table>\n",
    })
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output
    where = f"{event}/event.yaml:1: warning: key 'theme_dir': mytheme/"
    elsewhere = ("is not used: a theme's file replaces the template of pgm's at its path "
                 "below the theme folder, and no template of the theme names this one; ")
    in_templates = ("is not used: pgm takes a theme's templates from the theme folder itself, "
                    "not from a templates/ folder in it; ")
    assert _warnings(result) == [
        f"{where}bsae.html {elsewhere}to replace pgm's base.html, name it mytheme/base.html",
        f"{where}sheet.html {elsewhere}to replace pgm's partials/sheet.html, name it "
        "mytheme/partials/sheet.html",
        f"{where}templates/base.html {in_templates}move it to mytheme/base.html",
        f"{where}templates/partials/sheet.html {in_templates}move it to "
        "mytheme/partials/sheet.html",
        f"{where}turn.htm {elsewhere}to replace pgm's turn.html, name it mytheme/turn.html",
    ], result.output


def test_a_themes_own_partials_and_macros_are_not_warned_of(tmp_path) -> None:
    """Whatever their names, close to pgm's or not: a template of the theme names them."""
    event = _theme_event(tmp_path, {
        "base.html": '{% extends "!default/base.html" %}\n{% import "macros.html" as m %}\n'
                     '{% block footer %}{% include "partials/boards.html" %}'
                     '{{ m.club() }}{% include "games.html" %}{% endblock %}\n',
        "macros.html": "{% macro club() %}Club{% endmacro %}\n",
        "partials/boards.html": "<p>Boards</p>\n",
        "games.html": "<p>Games</p>\n",
        "static/base.css": "body {}\n",
        "README.txt": "Our club's theme.\n",
    })
    out = _builds_without_warnings(event, tmp_path)
    assert "</p><p>Boards</p>Club<p>Games</p></footer>" in (out / "index.html").read_text()


@pytest.mark.parametrize("address", ["https://fonts.example/css2?family=Inter",
                                     "//cdn.example/club.css"])
def test_a_stylesheet_given_by_its_web_address_says_how_to_load_one(tmp_path, address) -> None:
    event = make_event(tmp_path / "ev", {**RECORDS, "event.yaml": f"css:\n  - '{address}'\n"})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert (f"event.yaml:2: error: key 'css': {address} is a web address; css takes only "
            "stylesheets in the event folder (pgm copies them into the site). To load a sheet "
            f'from the web, put @import url("{address}"); at the top of a sheet listed in css, '
            "or link it in the head block of a theme's base.html (theme_dir)\n"
            ) in result.output, result.output
    assert "does not exist" not in result.output


def test_a_copy_kept_beside_a_template_the_theme_replaces_is_not_warned_of(tmp_path) -> None:
    """``old/game.html`` or ``bsae.html`` beside the theme's own ``game.html`` and
    ``base.html``: the theme replaces those already, so no rename is advised."""
    event = _theme_event(tmp_path, {
        "base.html": '{% extends "!default/base.html" %}\n',
        "bsae.html": '{% extends "!default/base.html" %}\n',
        "game.html": '{% extends "!default/game.html" %}\n',
        "old/game.html": '{% extends "!default/game.html" %}\n',
    })
    _builds_without_warnings(event, tmp_path)

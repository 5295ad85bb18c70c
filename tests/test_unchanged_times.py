"""A full build (after a change to ``event.yaml``, the theme or pgm) makes every file
anew, but a file that comes out as it was keeps its times: rsync, ``s3 sync`` and FTP
mirror tools send a file whose time changed, so they send only what did change."""

from __future__ import annotations

import os
import shutil

from conftest import SAMPLE_GAMES
from sitehelpers import run_build

LONG_AGO = 1_000_000_000 * 10**9  # 2001-09-09, in nanoseconds


def files_of(site) -> dict[str, tuple[bytes, int]]:
    return {path.relative_to(site).as_posix(): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in site.rglob("*") if path.is_file()}


def test_a_full_rebuild_keeps_the_times_of_files_it_leaves_as_they_were(tmp_path) -> None:
    event, site = tmp_path / "ev", tmp_path / "site"
    shutil.copytree(SAMPLE_GAMES, event)
    assert run_build(str(event), "-o", str(site), "--quiet").exit_code == 0
    for path in site.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(LONG_AGO, LONG_AGO))
    before = files_of(site)
    with open(event / "event.yaml", "a", encoding="utf-8") as config:
        config.write("description: Played at the Town Hall.\n")
    result = run_build(str(event), "-o", str(site))
    assert result.exit_code == 0, result.output
    assert "Made the whole site again: event.yaml changed" in result.output
    after = files_of(site)
    changed = {name for name in after if before.get(name, (None,))[0] != after[name][0]}
    assert "index.html" in changed and "Town Hall" in (site / "index.html").read_text("utf-8")
    assert len(changed) < 10, sorted(changed)
    for name, (_, mtime) in after.items():
        if name in changed:
            assert mtime != LONG_AGO, name
        else:
            assert mtime == LONG_AGO, name
    assert len(after) - len(changed) > 300
    assert any(name.endswith("/1.html") for name in after if name not in changed)


def test_a_full_rebuild_says_which_part_of_the_site_changed(tmp_path) -> None:
    event, site = tmp_path / "ev", tmp_path / "site"
    shutil.copytree(SAMPLE_GAMES, event)
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    (event / "theme/static").mkdir(parents=True)
    (event / "theme/static/club.css").write_text("h1 { color: teal }\n")
    with open(event / "event.yaml", "a", encoding="utf-8") as config:
        config.write("theme_dir: theme\n")
    changed = run_build(str(event), "-o", str(site))
    assert "Made the whole site again: event.yaml changed, and the theme or pgm's " \
        "templates changed" in changed.output
    (event / "theme/static/club.css").write_text("h1 { color: navy }\n")
    restyled = run_build(str(event), "-o", str(site))
    assert "Made the whole site again: the theme or pgm's templates changed\n" \
        in restyled.output
    again = run_build(str(event), "-o", str(site))
    assert "Made the whole site again" not in again.output

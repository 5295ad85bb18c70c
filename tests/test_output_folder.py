"""The output folder as the user set it up: a link to a web server's folder, a docroot
with its own group, mode and setgid bit. pgm builds into it and leaves those alone."""

from __future__ import annotations

import grp
import os
import stat
from pathlib import Path

import pytest
from conftest import CORPUS
from sitehelpers import make_event, run_build

from pgm.output import MARKER

GOOD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def _event(tmp_path: Path) -> Path:
    return make_event(tmp_path / "ev", {"event.yaml": "title: Club night\n", "g.gcg": GOOD})


def _hidden(*folders: Path) -> list[str]:
    """Staging or old folders (or moved links) left beside the output."""
    return [p.name for folder in folders for p in folder.iterdir() if p.name.startswith(".")]


def test_a_linked_output_folder_stays_a_link_and_its_target_gets_the_site(tmp_path) -> None:
    """``public -> /srv/www/club``: the site lands in the club folder, staged beside it (not
    beside the link, which may be on another filesystem), through every later build."""
    event = _event(tmp_path)
    club = tmp_path / "srv" / "www" / "club"
    club.mkdir(parents=True)
    (tmp_path / "pub").mkdir()
    link = tmp_path / "pub" / "public"
    link.symlink_to("../srv/www/club", target_is_directory=True)
    for title in ("Club night", "Club night, round 2"):  # the second is a full rebuild
        (event / "event.yaml").write_text(f"title: {title}\n")
        result = run_build(str(event), "-o", str(link))
        assert result.exit_code == 0, result.output
        assert link.is_symlink() and os.readlink(link) == "../srv/www/club"
        assert (club / MARKER).is_file()
        assert f"<h1>{title}</h1>" in (club / "index.html").read_text()
        assert _hidden(tmp_path / "pub", club.parent) == []
    (event / "g.gcg").write_bytes(GOOD.rstrip(b"\n") + b"\n#note changed\n")  # in place
    assert run_build(str(event), "-o", str(link)).exit_code == 0
    assert link.is_symlink() and (club / MARKER).is_file()
    assert _hidden(tmp_path / "pub", club.parent) == []


def test_a_link_to_a_folder_pgm_did_not_make_is_refused_as_that_folder_would_be(
        tmp_path) -> None:
    event = _event(tmp_path)
    www = tmp_path / "www"
    www.mkdir()
    (www / "about.html").write_text("the club's own page")
    link = tmp_path / "public"
    link.symlink_to(www, target_is_directory=True)
    result = run_build(str(event), "-o", str(link))
    assert result.exit_code == 1 and "Traceback" not in result.output
    # what to do says how to keep the club's files, not to delete them
    assert "is not empty and was not made by pgm build, which replaces only folders it " \
        "made; build into a new or empty folder, then add your own files to it: later " \
        "builds keep them" in " ".join(result.output.split())
    assert link.is_symlink() and os.listdir(www) == ["about.html"]
    assert _hidden(tmp_path) == []


def test_a_link_to_a_folder_not_made_yet_gets_the_site_in_that_folder(tmp_path) -> None:
    event = _event(tmp_path)
    link = tmp_path / "public"
    link.symlink_to("club")
    assert run_build(str(event), "-o", str(link)).exit_code == 0
    assert link.is_symlink() and (tmp_path / "club" / "index.html").is_file()


@pytest.mark.parametrize(("target", "message"), [
    ("loop", "the output folder {link} is a loop of links; point it at a folder"),
    ("gone/club", "the output folder {link} is a link to {tmp}/gone/club, and {tmp}/gone "
                  "does not exist; create it or change the link")])
def test_a_link_pgm_cannot_follow_to_a_folder_is_refused_before_anything_is_written(
        tmp_path, target: str, message: str) -> None:
    event = _event(tmp_path)
    link = tmp_path / "loop" if target == "loop" else tmp_path / "public"
    link.symlink_to(target)
    result = run_build(str(event), "-o", str(link))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert message.format(link=link, tmp=tmp_path.resolve()) in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ev", link.name]
    assert os.readlink(link) == target


def _other_group() -> int | None:
    """A group the test may give a folder: another of the user's groups, or any for root."""
    mine = os.getegid()
    if os.geteuid() == 0:
        return next((g.gr_gid for g in grp.getgrall() if g.gr_gid != mine), mine + 1)
    return next((g for g in os.getgroups() if g != mine), None)


@pytest.mark.parametrize("mode", [0o2775, 0o750], ids=oct)
def test_a_full_build_keeps_the_output_folders_mode_group_and_owner(tmp_path,
                                                                    mode: int) -> None:
    """A docroot prepared for the web server (group www-data, setgid) stays so after every
    full build, and the folders pgm makes in it inherit its group."""
    event = _event(tmp_path)
    out = tmp_path / "pub"
    out.mkdir()
    group = _other_group()
    if group is not None:  # else only the mode is checked: the user has one group
        os.chown(out, -1, group)
    os.chmod(out, mode)
    before = os.stat(out)
    for title in ("Club night", "Club night, round 2"):  # both are full builds
        (event / "event.yaml").write_text(f"title: {title}\n")
        result = run_build(str(event), "-o", str(out))
        assert result.exit_code == 0, result.output
        assert f"<h1>{title}</h1>" in (out / "index.html").read_text()
        after = os.stat(out)
        assert stat.S_IMODE(after.st_mode) == mode
        assert (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid)
        if mode & stat.S_ISGID:
            for made in (out / "static", out / MARKER, out / "g" / "index.html"):
                assert made.stat().st_gid == before.st_gid, made
            assert (out / "static").stat().st_mode & stat.S_ISGID
    assert _hidden(tmp_path) == []


def test_the_mode_of_a_linked_folder_is_kept_too(tmp_path) -> None:
    event = _event(tmp_path)
    club = tmp_path / "club"
    club.mkdir()
    os.chmod(club, 0o2750)
    (tmp_path / "public").symlink_to(club, target_is_directory=True)
    assert run_build(str(event), "-o", str(tmp_path / "public")).exit_code == 0
    assert stat.S_IMODE(club.stat().st_mode) == 0o2750 and (club / "index.html").is_file()
    assert (tmp_path / "public").is_symlink()


def test_an_owner_the_user_may_not_give_is_left_and_the_mode_still_kept(tmp_path,
                                                                        monkeypatch) -> None:
    """Not root: the new folder is the user's own, with the old one's mode and group."""
    event = _event(tmp_path)
    out = tmp_path / "pub"
    out.mkdir()
    if os.geteuid() == 0:  # another user's folder, writable for the group
        os.chown(out, 65534, -1)
    os.chmod(out, 0o2770)
    real_chown = os.chown

    def chown(path, uid: int, gid: int) -> None:
        if uid != -1:
            raise PermissionError(1, "Operation not permitted", str(path))
        real_chown(path, uid, gid)

    monkeypatch.setattr(os, "chown", chown)
    (out / MARKER).touch()
    (out / "index.html").write_text("old")  # a site pgm made before: a full build replaces it
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o2770
    assert "Club night" in (out / "index.html").read_text(encoding="utf-8")
    assert out.stat().st_uid == os.geteuid()
    assert _hidden(tmp_path) == []


def _with_files_of_the_users(site: Path) -> dict[str, bytes]:
    """What a director adds to a published site by hand: a custom domain for GitHub
    Pages, a server rule, photos, a file in a game's folder."""
    added = {"CNAME": b"chess.example.org\n", ".htaccess": b"Options -Indexes\n",
             "photos/prize-giving.jpg": b"\xff\xd8\xff", "g/scoresheet-scan.pdf": b"%PDF",
             "static/club-logo.png": b"\x89PNG",
             ".backup.2024.tmp": b"named like pgm's temporary files, but of no file of pgm's"}
    for relative, data in added.items():
        (site / relative).parent.mkdir(parents=True, exist_ok=True)
        (site / relative).write_bytes(data)
    (site / "photos" / "to-sort").mkdir()
    (site / "club").symlink_to("/srv/club", target_is_directory=True)
    return added


def _site_of_two_games_with_files_of_the_users(tmp_path: Path
                                               ) -> tuple[Path, Path, dict[str, bytes]]:
    """An event of games g and h built, then files added to its site by hand."""
    event = _event(tmp_path)
    (event / "h.gcg").write_bytes(GOOD.replace(b"andy", b"beth"))
    site = tmp_path / "site"
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    return event, site, _with_files_of_the_users(site)


def test_a_full_rebuild_keeps_the_files_a_user_put_in_the_site(tmp_path) -> None:
    """A changed event.yaml renders everything and replaces the folder; what pgm did not
    make is there after it as before, while a removed game's pages (pgm's) go."""
    event, site, added = _site_of_two_games_with_files_of_the_users(tmp_path)
    (event / "h.gcg").unlink()
    (event / "event.yaml").write_text("title: Club night, round 2\n")
    (site / "g" / ".1.html.4194304.tmp").write_text("a killed build's half-written page")
    result = run_build(str(event), "-o", str(site))
    assert result.exit_code == 0, result.output
    assert "round 2" in (site / "index.html").read_text(encoding="utf-8")
    assert {relative: (site / relative).read_bytes() for relative in added} == added
    assert (site / "photos" / "to-sort").is_dir()
    assert os.readlink(site / "club") == "/srv/club"
    assert not (site / "h").exists() and (site / "g" / "1.html").is_file()
    assert not (site / "g" / ".1.html.4194304.tmp").exists()
    assert _hidden(tmp_path) == []


def test_static_files_a_theme_no_longer_has_go_and_the_users_stay(tmp_path) -> None:
    """``static/`` holds pgm's files, the theme's and the event's stylesheets: one the
    theme dropped goes at the next build, a logo the user put there stays, also beside a
    site whose state (of an older pgm) lists no static files."""
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": "theme_dir: theme\n",
                                         "theme/static/old-banner.png": b"old"})
    site = tmp_path / "site"
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    assert (site / "static/old-banner.png").read_bytes() == b"old"
    (site / "static/club-logo.png").write_bytes(b"\x89PNG")
    (event / "theme/static/old-banner.png").unlink()
    (event / "theme/static/new-banner.png").write_bytes(b"new")
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    assert sorted(p.name for p in (site / "static").glob("*.png")) == ["club-logo.png",
                                                                       "new-banner.png"]
    state = site / ".pgm-state.json"
    state.write_text(state.read_text().replace('"static_files":', '"static_files_":'))
    (event / "event.yaml").write_text("theme_dir: theme\ntitle: Club night\n")
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    assert (site / "static/club-logo.png").read_bytes() == b"\x89PNG"
    assert "static/club-logo.png" not in state.read_text()


def test_a_site_with_no_state_to_read_keeps_all_but_pgms_pages(tmp_path) -> None:
    """Without the state of the last build (removed, or of an older pgm), pgm takes for
    its own what the new site has again and every game's folder (it holds a game.json):
    a game made a draft since loses its pages, spoilers and all; the rest is kept."""
    event, site, added = _site_of_two_games_with_files_of_the_users(tmp_path)
    (site / ".pgm-state.json").unlink()
    (event / "event.yaml").write_text("title: Club night\ngames:\n  h.gcg:\n    draft: true\n")
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    del added["g/scoresheet-scan.pdf"]  # in a game's folder: taken for pgm's
    assert {relative: (site / relative).read_bytes() for relative in added} == added
    assert not (site / "h").exists() and not (site / "g/scoresheet-scan.pdf").exists()
    assert (site / ".pgm-state.json").is_file() and (site / "g/1.html").is_file()


def test_a_users_file_where_the_new_site_puts_one_fails_the_build_and_changes_nothing(
        tmp_path) -> None:
    """A sitemap.xml written by hand, then base_url set (pgm now writes one): pgm
    overwrites neither its old site nor the user's file, and says what to do."""
    event = _event(tmp_path)
    site = tmp_path / "site"
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    (site / "sitemap.xml").write_text("<urlset/>", encoding="utf-8")
    index = (site / "index.html").read_bytes()
    (event / "event.yaml").write_text("title: Club night\nbase_url: https://chess.example.org/\n")
    result = run_build(str(event), "-o", str(site))
    assert result.exit_code == 1
    assert (f"Error: {site / 'sitemap.xml'} is not a file pgm made, and the new site has a "
            "file of its own at sitemap.xml; move yours elsewhere and build again"
            in result.output)
    assert (site / "sitemap.xml").read_text(encoding="utf-8") == "<urlset/>"
    assert (site / "index.html").read_bytes() == index
    assert _hidden(tmp_path) == []


def test_a_game_added_where_a_user_put_a_file_fails_the_rebuild_and_changes_nothing(
        tmp_path) -> None:
    """The rebuild that adds a game writes in place; a page the user put at one of the
    new game's addresses is neither overwritten nor taken for pgm's, and the live site
    gets none of the new game's pages."""
    event = _event(tmp_path)
    site = tmp_path / "site"
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    (site / "h").mkdir()
    (site / "h" / "index.html").write_text("<p>Coming soon</p>", encoding="utf-8")
    index = (site / "index.html").read_bytes()
    (event / "h.gcg").write_bytes(GOOD.replace(b"andy", b"beth"))
    result = run_build(str(event), "-o", str(site))
    assert result.exit_code == 1
    assert (f"Error: {site / 'h' / 'index.html'} is not a file pgm made, and the site now "
            "has a file of its own there; move yours elsewhere and build again"
            in result.output)
    assert (site / "h" / "index.html").read_text(encoding="utf-8") == "<p>Coming soon</p>"
    assert sorted(p.name for p in (site / "h").iterdir()) == ["index.html"]
    assert (site / "index.html").read_bytes() == index
    (site / "h" / "index.html").unlink()
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    assert "beth" in (site / "h" / "index.html").read_text(encoding="utf-8")


def test_a_rebuild_killed_after_its_files_went_live_is_healed_by_the_next(
        tmp_path, monkeypatch) -> None:
    """A rebuild that put a new game's pages in place, then failed before it saved the
    site's state (a full disk writing the index), left pgm's files that the state does
    not list: they hold what the next build makes, so it takes them for its own
    instead of refusing them as a user's."""
    import errno

    import pgm.build

    event = _event(tmp_path)
    site = tmp_path / "site"
    assert run_build(str(event), "-o", str(site)).exit_code == 0
    (event / "h.gcg").write_bytes(GOOD.replace(b"andy", b"beth"))
    real = pgm.build._update_event_files

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(site / "index.html"))

    monkeypatch.setattr(pgm.build, "_update_event_files", full_disk)
    assert run_build(str(event), "-o", str(site)).exit_code == 1
    assert (site / "h" / "1.html").is_file()  # in place, not in the state
    monkeypatch.setattr(pgm.build, "_update_event_files", real)
    healed = run_build(str(event), "-o", str(site))
    assert healed.exit_code == 0, healed.output
    assert "beth" in (site / "index.html").read_text(encoding="utf-8")
    assert _hidden(tmp_path) == []

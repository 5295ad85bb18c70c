"""Hostile and broken inputs: paths, crashes, permissions, configuration, huge records."""

from __future__ import annotations

import errno
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time

import pytest
from conftest import CORPUS, ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from sitehelpers import make_event, record_prefix, run_build

from pgm.config import load_configs
from pgm.crossword import replay
from pgm.discover import assign_slugs, guess_round, guess_table, walk_records
from pgm.gcg import parse_gcg
from pgm.output import MARKER

GOOD = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def test_symlinks_out_of_the_event_are_not_read(tmp_path) -> None:
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "secret.gcg").write_bytes(GOOD)
    event = make_event(tmp_path / "ev", {"real.gcg": GOOD})
    (event / "link.gcg").symlink_to(outside / "secret.gcg")
    (event / "linked-folder").symlink_to(outside, target_is_directory=True)
    (event / "inner").mkdir()
    (event / "round-2").symlink_to(event / "inner", target_is_directory=True)
    records, problems = walk_records(event)
    assert records == ["real.gcg"]
    # a folder linked in from outside (a club's shared drive) is said, or a round goes
    # missing with --strict passing; a link within the event leads to what is read anyway
    assert problems == [f"{event / 'link.gcg'}: links outside the event folder; skipped",
                        f"{event / 'linked-folder'}: links outside the event folder; skipped"]
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0 and not (tmp_path / "o/link").exists()
    assert f"{event / 'link.gcg'}: warning: links outside the event folder; skipped\n" \
        in result.output
    assert not (tmp_path / "o/linked-folder").exists()


def test_odd_names_get_distinct_stable_slugs_inside_the_output(tmp_path) -> None:
    names = ["Round 1/Table 1.gcg", "round-1/table-1.gcg", "ROUND_1/table 1.gcg",
             "a..dots...gcg", "CON.gcg", "static.gcg", "ünïcödé/名前.gcg",
             "x" * 200 + ".gcg", "-/-.gcg", "a b.gcg", "a_b/x.gcg"]
    event = make_event(tmp_path / "ev", {name: GOOD for name in names})
    records = [event / relative for relative in walk_records(event)[0]]
    first = [s.slug for s in assign_slugs(event, records)]
    assert len(set(first)) == len(names)
    assert first == [s.slug for s in assign_slugs(event, list(reversed(records)))]
    assert all(".." not in slug and not slug.startswith("/") and len(slug) < 140
               for slug in first)
    assert "static" not in first and "con" not in first
    assert not [(a, b) for a in first for b in first if b.startswith(a + "/")]  # no nesting
    out = tmp_path / "o"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    written = [p.resolve() for p in out.rglob("*")]
    assert all(p.is_relative_to(out.resolve()) for p in written)
    assert len(list(out.rglob("game.json"))) == len(names)


def test_a_killed_build_leaves_the_previous_site_and_the_next_build_succeeds(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {f"r{i}/g{j}.gcg": GOOD + f"\n#note {i}{j}\n".encode()
                                         for i in range(3) for j in range(6)})
    out = tmp_path / "site"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (event / "event.yaml").write_text("title: Changed\n")  # forces a full rebuild
    rng = random.Random(3)
    for _ in range(4):
        process = subprocess.Popen([sys.executable, "-m", "pgm", "build", str(event), "-o",
                                    str(out), "--quiet", "--jobs", "2"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 1.2))
        process.send_signal(signal.SIGKILL)
        process.wait()
        current = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
        assert current == before or (out / MARKER).is_file() and "Changed" in (
            out / "index.html").read_text()
        if current != before:
            break
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    assert "<h1>Changed</h1>" in (out / "index.html").read_text()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EACCES])
def test_disk_full_or_permission_error_names_the_path_and_keeps_the_site(
        tmp_path, monkeypatch, error: int) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "h.gcg": GOOD + b"\n#note h\n"})
    out = tmp_path / "site"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    written = []

    def failing_writes(folder, files, last_site=None) -> None:
        for name, content in files:
            written.append(folder / name)
            if len(written) > 5:
                raise OSError(error, os.strerror(error), str(folder / name))
            real_writes(folder, [(name, content)], last_site)

    import pgm.workers

    real_writes = pgm.workers.write_files
    monkeypatch.setattr(pgm.workers, "write_files", failing_writes)
    (event / "event.yaml").write_text("title: x\n")  # a full rebuild
    result = run_build(str(event), "-o", str(out))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"cannot write the site: {os.strerror(error)}: {written[-1]}" in result.output
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_unwritable_output_is_reported_without_a_traceback(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD})
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run_build(str(event), "-o", str(blocker / "site"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "cannot write the site" in result.output or "not a folder" in result.output


BAD_CONFIGS = {
    "title: [unclosed\n": "1: error: YAML syntax error: while parsing a flow sequence that "
                           "starts here: expected ',' or ']'",
    'title: "Open quote\nround: 2\n': "1: error: YAML syntax error: while scanning a quoted "
                                       "scalar that starts here: found unexpected end of "
                                       "stream on line 3",
    "title: x\nround: 2: 3\n": "2: error: YAML syntax error: mapping values are not allowed",
    "title: x\ndescription: a\n- item\n": "3: error: YAML syntax error: expected <block end>",
    "title: x\nbroken\n": "2: error: YAML syntax error: while scanning a simple key that "
                          "starts here: could not find expected ':' on line 3",
    'games:\n  "r1\\game.gcg": {title: X}\n': "2: error: YAML syntax error: found unknown "
                                            "escape character 'g' (in double quotes a "
                                            "backslash starts an escape: write / between "
                                            "folders, or use single quotes)",
    "- a list\n- not a mapping\n": "1: error: the configuration must be a mapping",
    "title: x\nspoiler_free: 3\n": "2: error: key 'spoiler_free' must be true or false, not 3",
    "games: 7\n": "1: error: key 'games' must map file names or globs to settings",
    "css: {a: 1}\n": "1: error: key 'css' must be a file name or a list of file names",
    "theme: neon\n": "1: error: key 'theme' is 'neon', which is none of pgm's themes "
                     "(default, classic). A theme of your own is a folder of templates, "
                     "named by theme_dir",
    "theme: clasic\n": "1: error: key 'theme' is 'clasic', which is none of pgm's themes "
                       "(default, classic). Did you mean 'classic'? A theme of your own",
    "live_poll_seconds: -2\n": "1: error: key 'live_poll_seconds' must be a positive whole",
    "orientation: sideways\n": "1: error: key 'orientation' must be one of",
    "base_url: example.org/club\n": "1: error: key 'base_url' must be an absolute address",
    "title: x\ncss: [club.css, missing.css]\n": "2: error: key 'css': file missing.css does "
                                                 "not exist",
    "css: ../outside.css\n": "1: error: key 'css': ../outside.css is outside the event folder",
}


@pytest.mark.parametrize("text,expected", BAD_CONFIGS.items(), ids=list(BAD_CONFIGS))
def test_bad_configuration_gives_one_clear_message(tmp_path, text: str, expected: str) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": text, "club.css": "b{}"})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{event / 'event.yaml'}:{expected}" in result.output
    assert not (tmp_path / "o").exists()


def test_missing_theme_dir_names_the_key(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": "theme_dir: nowhere\n"})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert "key 'theme_dir': folder nowhere does not exist" in result.output


def test_a_theme_dir_naming_a_stylesheet_points_to_css(tmp_path) -> None:
    """A webmaster's first try at a club look: the stylesheet named as the theme."""
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "styles/club.css": "body {}",
                                         "event.yaml": "theme_dir: styles/club.css\n"})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert ("key 'theme_dir': styles/club.css is a file, not a folder of templates; to "
            "link a stylesheet, write css: styles/club.css") in result.output


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_config_loader_never_raises(tmp_path_factory, text: str) -> None:
    folder = tmp_path_factory.mktemp("cfg")
    (folder / "event.yaml").write_text(text, encoding="utf-8")
    configs = load_configs(folder, [])
    assert all(d.path.endswith("event.yaml") for d in configs.diagnostics)


def test_huge_records_finish(tmp_path) -> None:
    """A 1 MB record with 100,000-character lines is read, replayed and checked; the
    subprocess timeout only catches a hang, it measures nothing."""
    long_line = b"#note " + b"x" * 100_000 + b"\n"
    garbage = b"\n".join([b"continuation of the note"] * 50_000)
    big = GOOD + b"\n" + long_line * 10 + garbage + b"\n>ghost: AB 8A AB +5 5\n"
    assert len(big) > 1_000_000
    path = tmp_path / "big.gcg"
    path.write_bytes(big)
    done = subprocess.run([sys.executable, "-m", "pgm", "check", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    last_line = big.count(b"\n")
    assert done.stdout.endswith(f"big.gcg:{last_line}: error: no player has the "
                                "nickname 'ghost' (players: andy, cesar)\n")
    assert replay(parse_gcg(big, "big.gcg")).turns


def test_fuzz_harness_runs_one_input(tmp_path) -> None:
    sample = tmp_path / "one.gcg"
    sample.write_bytes(GOOD)
    done = subprocess.run([sys.executable, str(ROOT / "fuzz/fuzz_readers.py"), str(sample)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("relative", "round_no"), [
    ("round-1/table-1.gcg", "1"),
    ("liwords/r2/liwords__r7_jesse.gcg", "2"),  # the event's folder, not the source's name
    ("r9/round-2/x.gcg", "2"),                  # the innermost folder
    ("open/r3-table-2.gcg", "3"),               # the file name when no folder names one
    ("playoff/3rd-4th.gcg", None),              # an ordinal is no round
    ("nsc2024r3/g.gcg", "3"),                   # a word right after a number
    ("r3t5.gcg", "3"),
])
def test_the_folder_that_names_a_round_decides_it(relative, round_no) -> None:
    assert guess_round(relative) == round_no


@pytest.mark.parametrize(("relative", "table"), [
    ("round-1/table-12.gcg", "12"), ("r3t5.gcg", "5"), ("R1T2.gcg", "2"),
    ("round3table5.gcg", "5"), ("playoff/3rd-4th.gcg", None),
    # a table split in two keeps its letter; a word after the number is no letter
    ("round-1/table-1b.gcg", "1b"), ("r2/Table-3B.gcg", "3b"), ("t1bob.gcg", "1"),
    ("t7x2.gcg", "7"), ("board-2x.gcg", "2"), ("r2-t3s.gcg", "3"),
    # pgm.pl's board numbers, and its folder of one game when the name names no table
    ("r01b05.gcg", "5"), ("2004/r01b05/input.gcg", "5"), ("open/round-2/bob.gcg", None),
    ("club2/web3.gcg", None)])
def test_the_file_name_names_the_table(relative, table) -> None:
    assert guess_table(relative) == table


def _pgm(*args: str) -> subprocess.CompletedProcess[str]:
    """pgm in a process of its own: a build that waits forever fails the test at the
    timeout instead of hanging the suite (the timeout measures nothing)."""
    return subprocess.run([sys.executable, "-m", "pgm", *args], capture_output=True,
                          text=True, timeout=120)


def test_a_named_pipe_among_the_records_is_skipped_with_a_warning(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "theme/static/logo.txt": "logo",
                                         "event.yaml": "theme_dir: theme\n"})
    os.mkfifo(event / "pipe.gcg")
    os.mkfifo(event / "theme" / "static" / "pipe.css")
    (event / "gone.gcg").symlink_to(event / "nowhere.gcg")
    (event / "linked.gcg").symlink_to(event / "g.gcg")  # a link inside the event is read
    out = tmp_path / "o"
    done = _pgm("build", str(event), "-o", str(out))
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert f"{event / 'pipe.gcg'}: warning: a named pipe (FIFO), not a regular file; " \
           "skipped\n" in output
    assert f"{event / 'gone.gcg'}: warning: a broken link, not a regular file; skipped\n" \
        in output
    assert sorted(p.parent.name for p in out.rglob("game.json")) == ["g", "linked"]
    assert (out / "static/logo.txt").read_text() == "logo"
    assert not (out / "static/pipe.css").exists() and not (out / "pipe").exists()
    # check and export find the same records and pass the same files by, alike
    pipe = f"{event / 'pipe.gcg'}: warning: a named pipe (FIFO), not a regular file; skipped"
    exported = _pgm("export", str(event))
    assert exported.returncode == 0 and pipe in exported.stderr.splitlines()
    checked = _pgm("check", str(event))
    assert checked.returncode == 0 and pipe in checked.stdout.splitlines()
    assert walk_records(event)[0] == ["g.gcg", "linked.gcg"]


def test_odd_files_in_a_themes_static_folder_are_skipped_with_a_warning(tmp_path,
                                                                       monkeypatch) -> None:
    """A socket, broken links, a link to a named pipe or folder outside the event: none is
    copied or read, none fails or hangs the build, each is named in a warning."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.css").write_text("secret")
    os.mkfifo(outside / "fifo.css")
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": "theme_dir: theme\n",
                                         "theme/static/ok.css": "ok",
                                         "theme/static/sub/in.css": "in",
                                         "shared/font.txt": "font"})
    static = event / "theme" / "static"
    monkeypatch.chdir(static)  # a socket's path must be short
    sock = socket.socket(socket.AF_UNIX)
    sock.bind("sock.css")
    sock.close()
    (static / "broken.css").symlink_to("/nonexistent")
    (static / "gone.css").symlink_to(static / "nowhere.css")
    (static / "loop.css").symlink_to("loop.css")
    (static / "secret.css").symlink_to(outside / "secret.css")
    (static / "fifo.css").symlink_to(outside / "fifo.css")
    (static / "outdir").symlink_to(outside, target_is_directory=True)
    (static / "sub" / "up").symlink_to("..", target_is_directory=True)
    (static / "shared").symlink_to(event / "shared", target_is_directory=True)  # inside
    out = tmp_path / "o"

    def built(*options: str) -> tuple[int, str]:
        done = _pgm("build", str(event), "-o", str(out), *options)
        return done.returncode, done.stdout + done.stderr

    code, output = built()
    assert code == 0, output
    for name, why in [("broken.css", "links outside the event folder"),
                      ("fifo.css", "links outside the event folder"),
                      ("gone.css", "a broken link, not a regular file"),
                      ("loop.css", "a broken link, not a regular file"),
                      ("outdir", "links outside the event folder"),
                      ("secret.css", "links outside the event folder"),
                      ("sock.css", "a socket, not a regular file"),
                      ("sub/up", "links to a folder it is in")]:
        assert f"{static / name}: warning: {why}; skipped\n" in output
    assert "Traceback" not in output and "8 warning(s)" in output
    copied = sorted(p.relative_to(out / "static").as_posix()
                    for p in (out / "static").rglob("*") if p.is_file())
    assert {"ok.css", "sub/in.css", "shared/font.txt"} <= set(copied)
    assert not [name for name in copied if name.startswith(
        ("broken", "gone", "loop", "secret", "fifo", "outdir", "sock", "sub/up"))]
    # What lies outside is not read either: changing it rebuilds nothing.
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    (outside / "secret.css").write_text("changed")
    assert built()[0] == 0
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before
    assert built("--strict")[0] == 1


def test_a_stylesheet_that_is_a_named_pipe_is_refused_on_its_line(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": "css:\n  - club.css\n"})
    os.mkfifo(event / "club.css")
    done = _pgm("build", str(event), "-o", str(tmp_path / "o"))
    assert done.returncode == 1
    assert f"{event / 'event.yaml'}:2: error: key 'css': club.css is a named pipe (FIFO), " \
           "not a regular file" in done.stdout + done.stderr


def test_pgm_check_of_a_named_pipe_says_so_instead_of_waiting(tmp_path) -> None:
    os.mkfifo(tmp_path / "pipe.gcg")
    done = _pgm("check", str(tmp_path / "pipe.gcg"))
    assert done.returncode == 1
    assert f"{tmp_path / 'pipe.gcg'}: error: cannot read file: not a regular file" \
        in done.stdout + done.stderr


def test_a_theme_template_linking_out_of_the_event_is_never_read(tmp_path) -> None:
    """The build warns that it skips the link: pgm's own template is used, and what the
    link points at stays unread."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "404.html").write_text("SECRET OUTSIDE THE EVENT")
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml": "theme_dir: theme\n",
                                         "theme/players.html": '{% extends "!default/players'
                                                               '.html" %}{% block footer %}'
                                                               ' Themed.{% endblock %}'})
    (event / "theme/404.html").symlink_to(outside / "404.html")
    out = tmp_path / "o"
    done = _pgm("build", str(event), "-o", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{event / 'theme/404.html'}: warning: links outside the event folder; skipped" \
        in done.stdout + done.stderr
    assert "SECRET" not in (out / "404.html").read_text()
    assert "Page not found" in (out / "404.html").read_text()
    assert "Themed." in (out / "players.html").read_text()


def test_a_record_with_no_players_is_listed_without_a_dangling_score_line(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"empty.gcg": b"", "named.gcg": b"#player1 A Ann\n"
                                         b"#player2 B Bob\n"})
    run_build(str(event), "-o", str(tmp_path / "o"))
    index = (tmp_path / "o/index.html").read_text()
    statuses = re.findall(r'<span class="status-text">([^<]*)</span>', index)
    assert sorted(statuses) == ["in progress", "in progress: Ann 0 – Bob 0"]


def _fail_on_doomed_records(monkeypatch) -> None:
    """Make the replay raise on every record titled "Doomed": a bug of pgm's."""
    import pgm.games

    real_replay = pgm.games.replay

    def replay_failing_on_marked(record, **settings):
        if record.title == "Doomed":
            raise ValueError("no such square")
        return real_replay(record, **settings)

    monkeypatch.setattr(pgm.games, "replay", replay_failing_on_marked)


def test_a_record_pgm_fails_on_is_reported_and_the_others_are_built(tmp_path,
                                                                    monkeypatch) -> None:
    """A bug met on one record (here: a replay that raises) costs that game its pages,
    not the event its site: the game's folder says why and holds the record."""
    from pgm.build import BuildOptions, build

    _fail_on_doomed_records(monkeypatch)
    doomed = b"#title Doomed\n" + GOOD
    event = make_event(tmp_path / "ev", {"a.gcg": GOOD, "b.gcg": doomed})
    result = build(BuildOptions(event, tmp_path / "o", jobs=1))
    assert result.broken_games == ["b.gcg"] and result.games == 2
    assert [str(d) for d in result.diagnostics] == [
        f"{event}/b.gcg: error: pgm failed on this record (ValueError: no such square); "
        "please report it, with the record"]
    assert (tmp_path / "o/a/1.html").is_file()
    page = (tmp_path / "o/b/index.html").read_text()
    assert "This game cannot be shown: pgm failed on this record" in page
    assert (tmp_path / "o/b/input.gcg").read_bytes() == doomed
    index = (tmp_path / "o/index.html").read_text()
    assert 'href="b/index.html"' in index and "not shown: see the error" in index


def test_while_watching_a_game_pgm_fails_on_keeps_its_last_good_pages(tmp_path,
                                                                       monkeypatch) -> None:
    """A save pgm meets a bug on (here: a replay that raises) is, to pgm watch, like a
    save half-way: spectators keep the pages they had, the problem is printed, and the
    next save is looked at again."""
    from pgm.build import BuildOptions, build

    _fail_on_doomed_records(monkeypatch)
    event = make_event(tmp_path / "ev", {"a.gcg": GOOD})
    options = BuildOptions(event, tmp_path / "o", keep_last_good=True, jobs=1)
    build(options)
    pages = {p.name: p.read_bytes() for p in (tmp_path / "o/a").iterdir()}
    (event / "a.gcg").write_bytes(b"#title Doomed\n" + GOOD)
    result = build(options)
    assert result.kept_games == 1 and result.errors == 1
    assert "pgm failed on this record (ValueError: no such square)" in str(
        result.diagnostics[0])
    assert {p.name: p.read_bytes() for p in (tmp_path / "o/a").iterdir()} == pages
    (event / "a.gcg").write_bytes(b"#title Saved\n" + GOOD)
    assert not build(options).errors
    assert "Saved" in (tmp_path / "o/a/index.html").read_text()


def test_while_watching_a_full_build_whose_last_copy_pgm_fails_on_shows_why(
        tmp_path, monkeypatch) -> None:
    """An event.yaml edited while watching renders every game again, a game whose record
    pgm fails on from the site's copy of its last good record: when pgm fails on that
    copy too, the game gets the page that says why, and the build goes on."""
    from pgm.build import BuildOptions, build

    event = make_event(tmp_path / "ev", {"a.gcg": b"#title Doomed\n" + GOOD, "b.gcg": GOOD})
    options = BuildOptions(event, tmp_path / "o", keep_last_good=True, jobs=1)
    build(options)
    _fail_on_doomed_records(monkeypatch)
    (event / "event.yaml").write_text("title: Club night\n")
    result = build(options)
    assert result.not_shown == ["a.gcg"] and result.errors == 1
    assert "pgm failed on this record" in (tmp_path / "o/a/index.html").read_text()
    assert (tmp_path / "o/b/1.html").is_file()


def test_a_game_that_fails_half_way_through_its_pages_leaves_none_of_them(
        tmp_path, monkeypatch) -> None:
    """Pages are written as they are made: those of a game that fails later are taken
    away again, so that the site holds no page its state does not list."""
    import pgm.crossword_turns
    from pgm.build import BuildOptions, build
    from pgm.state import load_state

    real_values = pgm.crossword_turns.TurnPages.values

    def values_failing_late(self, index):
        if index == 5:
            raise KeyError("late")
        return real_values(self, index)

    monkeypatch.setattr(pgm.crossword_turns.TurnPages, "values", values_failing_late)
    event = make_event(tmp_path / "ev", {"a.gcg": GOOD})
    result = build(BuildOptions(event, tmp_path / "o", jobs=1))
    assert result.broken_games == ["a.gcg"]
    assert sorted(p.name for p in (tmp_path / "o/a").iterdir()) == ["index.html", "input.gcg"]
    assert list(load_state(tmp_path / "o").games["a"].files) == ["index.html", "input.gcg"]


def test_a_record_that_cannot_be_read_is_reported_and_the_others_are_built(
        tmp_path, monkeypatch) -> None:
    """(As root, permissions cannot make a file unreadable: the system call is made to
    refuse it.)"""
    from pgm.build import BuildOptions, build

    real_open = os.open

    def refusing_b(path, *args, **kwargs):
        if os.fspath(path).endswith("b.gcg"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kwargs)

    event = make_event(tmp_path / "ev", {"a.gcg": GOOD, "b.gcg": GOOD})
    monkeypatch.setattr(os, "open", refusing_b)
    result = build(BuildOptions(event, tmp_path / "o", jobs=1))
    assert result.broken_games == ["b.gcg"]
    assert [str(d) for d in result.diagnostics] == [
        f"{event}/b.gcg: error: cannot read the record: Permission denied"]
    assert "This game cannot be shown: cannot read the record" in \
        (tmp_path / "o/b/index.html").read_text()
    assert sorted(p.name for p in (tmp_path / "o/b").iterdir()) == ["index.html"]
    assert (tmp_path / "o/a/1.html").is_file()
    monkeypatch.setattr(os, "open", real_open)
    again = build(BuildOptions(event, tmp_path / "o", jobs=1))
    assert again.broken_games == [] and (tmp_path / "o/b/1.html").is_file()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_theme_template_that_fails_fails_the_build_naming_it(tmp_path, jobs) -> None:
    """Not every record: a theme's template that cannot do what it asks (a number plus
    text) fails every game, so the build fails, says where, and the site stays."""
    records = {f"g{n}.gcg": GOOD for n in range(8)}  # enough for worker processes
    event = make_event(tmp_path / "ev", records)
    out = tmp_path / "o"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    before = (out / "g0/3.html").read_bytes()
    (event / "event.yaml").write_text("theme_dir: theme\n")
    (event / "theme").mkdir()
    (event / "theme/turn.html").write_text(
        '{% extends "!default/turn.html" %}\n'
        '{% block crumbs %}{{ super() }} {{ number + "x" }}{% endblock %}\n')
    result = run_build(str(event), "-o", str(out), "--jobs", str(jobs))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert re.search(r"template error in \S*theme/turn\.html, line \d+: TypeError: "
                     r"unsupported operand", result.output), result.output
    assert "pgm failed on this record" not in result.output
    assert (out / "g0/3.html").read_bytes() == before


def test_pgms_own_template_failing_on_one_records_values_fails_that_record(
        tmp_path, monkeypatch) -> None:
    """A value pgm's own templates cannot print (a bug met by one record) is that
    record's failure, not a template error that stops the event."""
    import pgm.render
    from pgm.build import BuildOptions, build

    real_printed = pgm.render.printed

    def failing_on_doomed(value):
        if value == "Doomed":
            raise ValueError("cannot print it")
        return real_printed(value)

    monkeypatch.setattr(pgm.render._Environment, "printed", staticmethod(failing_on_doomed))
    event = make_event(tmp_path / "ev", {"a.gcg": GOOD, "b.gcg": b"#title Doomed\n" + GOOD})
    result = build(BuildOptions(event, tmp_path / "o", jobs=1))
    assert result.broken_games == ["b.gcg"]
    assert "pgm failed on this record (ValueError: cannot print it)" in str(result.diagnostics[0])
    assert (tmp_path / "o/a/1.html").is_file()


def test_a_failure_page_is_never_kept_as_last_good_pages(tmp_path, monkeypatch) -> None:
    """While watching, a record that could not be read gets a page saying so; once it
    reads again, half-written or not, its game is rendered from it."""
    from pgm.build import BuildOptions, build

    real_open = os.open

    def refusing(path, *args, **kwargs):
        if os.fspath(path).endswith("g.gcg"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kwargs)

    event = make_event(tmp_path / "ev", {"g.gcg": GOOD})
    out = tmp_path / "o"
    build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    monkeypatch.setattr(os, "open", refusing)
    build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    assert "cannot be shown" in (out / "g/index.html").read_text()
    monkeypatch.setattr(os, "open", real_open)
    (event / "g.gcg").write_bytes(record_prefix(GOOD, 4) + b">Andy: ABC")  # half-written
    result = build(BuildOptions(event, out, keep_last_good=True, jobs=1))
    assert result.broken_games == ["g.gcg"]
    assert "cannot be shown" not in (out / "g/index.html").read_text()
    assert (out / "g/4.html").is_file() and not (out / "g/5.html").exists()


def test_a_record_not_shown_is_neither_live_nor_finished(tmp_path, monkeypatch) -> None:
    from pgm.build import BuildOptions, build

    real_open = os.open

    def refusing(path, *args, **kwargs):
        if os.fspath(path).endswith("g.gcg"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kwargs)

    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "event.yaml":
                                         "spoiler_free: true\ngames:\n  g.gcg: {live: true}\n"})
    monkeypatch.setattr(os, "open", refusing)
    build(BuildOptions(event, tmp_path / "o", jobs=1))
    monkeypatch.setattr(os, "open", real_open)
    listed = json.loads((tmp_path / "o/live.json").read_text())["games"][0]
    assert listed["live"] is False
    index = (tmp_path / "o/index.html").read_text()
    assert '<span class="status-text">not shown</span>' in index


@pytest.mark.parametrize("spoiler_free", [False, True])
def test_a_record_of_hundreds_of_turns_lists_those_around_each_page(tmp_path,
                                                                    spoiler_free) -> None:
    """A broken record of 700 passes: each turn page lists 500 turns around its own and
    links across the gaps, instead of every turn on every page (pages growing with the
    record, the site with its square); a record of 500 turns or fewer is listed whole."""
    def passes(count: int) -> bytes:
        lines = [b"#player1 a Ann", b"#player2 b Bob"] + [
            b">a: ABCDEFG - +0 0" if n % 2 == 0 else b">b: HIJKLMN - +0 0" for n in range(count)]
        return b"\n".join(lines) + b"\n"

    event = make_event(tmp_path / "ev", {"long.gcg": passes(700), "short.gcg": passes(500),
                                         "event.yaml": f"spoiler_free: {spoiler_free}\n"})
    run_build(str(event), "-o", str(tmp_path / "o"))

    def listed(game: str, number: int) -> list[str]:
        page = (tmp_path / f"o/{game}/{number}.html").read_text()
        turn_list = page.split('<nav class="turn-list"', 1)[1]
        return re.findall(r'<li[^>]*>(?:Turns )?<a href="(\d+)\.html"', turn_list)

    def turns(first: int, last: int) -> list[str]:
        return [str(n) for n in range(first, last + 1)]

    if spoiler_free:  # the turns so far, at most 500: no gap after, which would tell more
        assert listed("long", 350) == turns(1, 350)
        assert listed("long", 700) == ["1"] + turns(201, 700)  # a gap's first link: turn 1
        assert listed("short", 500) == turns(1, 500)
    else:
        assert listed("long", 350) == ["1"] + turns(100, 599) + ["600"]
        assert listed("long", 5) == turns(1, 500) + ["501"]
        assert listed("long", 700) == ["1"] + turns(201, 700)
        assert listed("long", 252) == turns(1, 501) + ["502"]  # no gap of turn 1 alone
        assert listed("short", 1) == listed("short", 500) == turns(1, 500)


def test_a_theme_fragments_file_older_than_the_turn_list_gap_still_works(tmp_path) -> None:
    fragments = (ROOT / "templates/partials/fragments.html").read_text()
    older = re.sub(r"\{#- Turns a long record.*?\{% endmacro %\}\n", "", fragments, flags=re.S)
    assert "turn_list_gap" not in older
    lines = [b"#player1 a Ann", b"#player2 b Bob"] + [
        b">a: ABCDEFG - +0 0" if n % 2 == 0 else b">b: HIJKLMN - +0 0" for n in range(520)]
    event = make_event(tmp_path / "ev", {"g.gcg": GOOD, "long.gcg": b"\n".join(lines) + b"\n",
                                         "event.yaml": "theme_dir: theme\n",
                                         "theme/partials/fragments.html": older})
    result = run_build(str(event), "-o", str(tmp_path / "o"))
    assert "pgm failed" not in result.output and (tmp_path / "o/g/3.html").is_file()
    assert '<li class="gap">Turns <a href="501.html">' in (tmp_path / "o/long/1.html").read_text()

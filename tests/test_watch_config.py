"""An ``event.yaml`` saved with a mistake while watching: the games go on following their
records, with the file's last good version, and the mistake is reported until fixed."""

from __future__ import annotations

import time

import pytest
from conftest import CORPUS
from sitehelpers import make_event, record_prefix, run_build, wait_for, watching

from pgm.build import BuildError, BuildOptions, BuildResult
from pgm.cli import _rebuilt

GAME = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
OTHER = (CORPUS / "gcg/liwords__r2_tim.gcg").read_bytes()


def _title(page) -> str:
    text = page.read_text()
    return text[text.index("<title>") + 7:text.index("</title>")]


@pytest.mark.parametrize("mistake", [
    "title: Club night, changed\ngames:\n  r1/a.gcg: {round: [1\n",  # a YAML syntax error
    "title: Club night, changed\nlive_poll_seconds: fast\n",  # a value of the wrong type
    "title: Club night, changed\n\tspoiler_free: true\n",  # a tab
])
def test_a_mistake_in_event_yaml_keeps_its_last_good_version_while_watching(
        tmp_path, mistake: str) -> None:
    event = make_event(tmp_path / "ev", {"r1/a.gcg": record_prefix(GAME, 6),
                                         "event.yaml": "title: Club night\n"})
    out = tmp_path / "site"
    outcomes: list[BuildResult | BuildError] = []
    with watching(BuildOptions(event, out), outcomes.append):
        assert wait_for(lambda: (out / "r1/a/6.html").is_file())
        time.sleep(0.3)
        (event / "event.yaml").write_text(mistake)
        assert wait_for(lambda: len(outcomes) >= 2)
        (event / "r1/a.gcg").write_bytes(record_prefix(GAME, 9))  # the game goes on
        (event / "r1/b.gcg").write_bytes(OTHER)  # and a new table starts
        assert wait_for(lambda: (out / "r1/a/9.html").is_file() and
                        (out / "r1/b/index.html").is_file())
        assert _title(out / "index.html") == "Club night"
        kept = [o for o in outcomes[1:] if isinstance(o, BuildResult)]
        assert kept == outcomes[1:] and all(o.kept_configs == [str(event / "event.yaml")]
                                            for o in kept)
        errors = [str(d) for d in kept[0].diagnostics if d.severity.value == "error"]
        assert len(errors) == 1 and errors[0].startswith(f"{event / 'event.yaml'}:")
        assert _rebuilt(kept[-1]).endswith(
            f"; {event / 'event.yaml'} has errors: built with its last good version until "
            "they are fixed")
        (event / "event.yaml").write_text("title: Club night, fixed\n")
        assert wait_for(lambda: isinstance(outcomes[-1], BuildResult) and
                        outcomes[-1].kept_configs == [])
        assert _title(out / "index.html") == "Club night, fixed"
    result = run_build(str(event), "-o", str(out))  # the last good version was the watch's
    assert result.exit_code == 0


def test_a_mistake_there_when_the_watch_starts_stops_the_build_as_pgm_build_does(
        tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"a.gcg": GAME, "event.yaml": "title: [Club\n"})
    out = tmp_path / "site"
    outcomes: list[BuildResult | BuildError] = []
    with watching(BuildOptions(event, out), outcomes.append):
        assert wait_for(lambda: outcomes)
        assert isinstance(outcomes[0], BuildError)
        assert "the event configuration has errors" in str(outcomes[0])
        assert not out.exists()
        (event / "event.yaml").write_text("title: Club\n")
        assert wait_for(lambda: (out / "a/index.html").is_file())
    broken = run_build(str(event), "-o", str(out))
    assert broken.exit_code == 0
    (event / "event.yaml").write_text("title: [Club\n")
    broken = run_build(str(event), "-o", str(out))
    assert broken.exit_code == 1 and "the event configuration has errors" in broken.output

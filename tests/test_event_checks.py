"""Checks across an event's games: copies of a record a TD's folder gathers."""

from __future__ import annotations

from conftest import CORPUS
from sitehelpers import make_event, run_build

DOUG_V_EMELY = (CORPUS / "gcg/macondo__doug_v_emely.gcg").read_bytes()
"""doug beats emely 460–345."""
OTHER = (CORPUS / "gcg/MAGPIE-DATA__success.gcg").read_bytes()


def test_a_copy_of_a_record_is_warned_of_at_the_copy(tmp_path) -> None:
    """A file manager's copy replays cleanly and would count doug's win twice: the build
    names the copy and the record it repeats, and --strict fails on it."""
    event = make_event(tmp_path / "ev", {
        "event.yaml": "title: Spring Open\n",
        "round-1/table-1.gcg": DOUG_V_EMELY,
        "round-1/table-1 (1).gcg": DOUG_V_EMELY,
        "round-2/table-1.gcg": OTHER,
    })
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    copy, original = event / "round-1/table-1 (1).gcg", event / "round-1/table-1.gcg"
    assert (f"{copy}: warning: the same game as {original} (players, turns and scores): "
            "listed twice, and counted twice on the player index once it has a result; "
            "remove the copy, or make one of them a draft in event.yaml") in result.output
    assert "1 warning(s)" in result.output
    strict = run_build(str(event), "-o", str(tmp_path / "site"), "--strict")
    assert strict.exit_code == 1


def builds_clean(tmp_path, files: dict[str, str | bytes]) -> None:
    """The event of ``files`` builds with --strict: no repeat is warned of."""
    event = make_event(tmp_path / "ev", {"event.yaml": "title: Spring Open\n", **files})
    result = run_build(str(event), "-o", str(tmp_path / "site"), "--strict")
    assert result.exit_code == 0, result.output


def test_a_copy_made_a_draft_is_no_longer_warned_of(tmp_path) -> None:
    builds_clean(tmp_path, {
        "event.yaml": 'title: Spring Open\ngames:\n  "round-1/old/*.gcg": {draft: true}\n',
        "round-1/table-1.gcg": DOUG_V_EMELY,
        "round-1/old/table-1.gcg": DOUG_V_EMELY,
    })


def test_games_not_started_are_not_copies(tmp_path) -> None:
    """Before round 1 every record holds the players only: alike, and not copies."""
    header = b"#player1 doug doug\n#player2 emely emely\n"
    builds_clean(tmp_path, {"round-1/table-1.gcg": header, "round-2/table-1.gcg": header})


def test_two_gungi_games_of_one_pair_are_not_copies(tmp_path) -> None:
    """Gungi games have no scores: two games of the same players, as long and both in
    progress, are two games (a match of several), not a copy."""
    tags = '[Black "Ann"]\n[White "Bob"]\n[Result "*"]\n'
    builds_clean(tmp_path, {"round-1/game-1.gn": tags + "1. PZ*0-6-0 PZ*0-1-0\n",
                            "round-1/game-2.gn": tags + "1. PZ*4-6-0 PZ*4-1-0\n"})

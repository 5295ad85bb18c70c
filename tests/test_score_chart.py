"""The game page's "Score by turn" chart has axes a spectator can read values off: round
score gridlines with their values on the left, turn numbers along the bottom. The labels
are HTML over the stretched SVG, hidden from screen readers (the chart's name gives the
finals)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import CORPUS, gcg_bytes
from sitehelpers import make_event, run_build, text_of

from pgm.crossword import replay
from pgm.crossword_view import Chart, score_chart
from pgm.gcg import parse_gcg


def _game_page(tmp_path: Path, record: bytes) -> str:
    event = make_event(tmp_path / "ev", {"g.gcg": record})
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    return (tmp_path / "site/g/index.html").read_text()


def _chart_section(html: str) -> str:
    return html.split('<section class="chart"', 1)[1].split("</section>", 1)[0]


def _labels(html: str, axis: str) -> list[tuple[float, str]]:
    """(percent along the axis, text) of each label on the ``y`` (score) or ``x`` (turn)
    axis."""
    return [(float(at), text) for at, text in re.findall(
        rf'<span class="{axis}" style="(?:top|left):([\d.]+)%">([^<]*)</span>', html)]


def _chart(record: bytes) -> Chart:
    return score_chart(replay(parse_gcg(record, "g.gcg")))


def _passes(count: int) -> bytes:
    """A record of ``count`` passes, the players taking turns."""
    return gcg_bytes("#player1 ann Ann\n#player2 bob Bob\n" + "".join(
        f">{'ann' if n % 2 == 0 else 'bob'}: ABCDEFG - +0 0\n" for n in range(count)))


def test_a_real_games_chart_has_score_and_turn_labels(tmp_path) -> None:
    record = (CORPUS / "gcg/liwords__josh_nationals_round_4.gcg").read_bytes()
    html = _game_page(tmp_path, record)
    chart = _chart_section(html)
    assert "Becky 456" in text_of(chart) and "jvc 467" in text_of(chart)
    scores = _labels(chart, "y")
    assert [text for _, text in scores] == ["500", "400", "300", "200", "100", "0"]
    assert [at for at, _ in scores] == [0, 20, 40, 60, 80, 100]
    turns = len(parse_gcg(record, "g").events)
    assert (tmp_path / f"site/g/{turns}.html").exists()
    numbers = [int(text) for _, text in _labels(chart, "x")]
    assert numbers[0] == 1 and numbers[-1] == turns and numbers == sorted(numbers)
    assert _labels(chart, "x")[-1][0] == 100
    # the visual labels are not read out; the chart's name says who finished on what
    assert re.search(r'<div class="ticks" aria-hidden="true">', chart)
    assert 'aria-label="Scores after each turn, Becky 456, jvc 467"' in chart


def test_the_lines_stay_below_the_top_gridline(tmp_path) -> None:
    """The top is the round value above the best score, not the score itself, so the
    leader's line does not run along the frame."""
    html = _chart_section(_game_page(
        tmp_path, (CORPUS / "gcg/liwords__josh_nationals_round_4.gcg").read_bytes()))
    ys = [float(y) for y in re.findall(r",([\d.]+)", html.split("<polyline", 1)[1])]
    assert min(ys) > 0


def test_a_negative_score_gets_a_label_below_zero(tmp_path) -> None:
    record = (CORPUS / "gcg/liwords__combined_low_scoring.gcg").read_bytes()
    chart = _chart_section(_game_page(tmp_path, record))
    assert "Marlon Hill -6" in text_of(chart) and "Ben Schoenbrun -16" in text_of(chart)
    scores = dict((text, at) for at, text in _labels(chart, "y"))
    assert "-20" in scores and scores["-20"] == 100
    # the 0 label sits where the lines start (every score is 0 before the first turn)
    start_y = float(re.search(r'points="0\.0,([\d.]+)', chart).group(1))
    assert start_y == pytest.approx(scores["0"] * 2, abs=0.1)  # the viewBox is 200 high


def test_a_game_without_turns_has_no_chart(tmp_path) -> None:
    html = _game_page(tmp_path, gcg_bytes("#player1 ann Ann\n#player2 bob Bob\n"))
    assert 'class="chart"' not in html and "Score by turn" not in text_of(html)


def test_a_game_of_no_points_still_gets_a_scale() -> None:
    chart = _chart(_passes(4))
    assert [t.value for t in chart.score_ticks] == [10, 0]
    assert [t.value for t in chart.turn_ticks] == [1, 2, 3, 4]


def test_a_round_turn_next_to_the_last_is_left_out() -> None:
    """Turn 25's label would overlap turn 26's on a phone."""
    assert [t.value for t in _chart(_passes(26)).turn_ticks] == [1, 5, 10, 15, 20, 26]
    assert [t.value for t in _chart(_passes(28)).turn_ticks] == [1, 5, 10, 15, 20, 25, 28]


@pytest.mark.parametrize("path", sorted((CORPUS / "gcg").glob("*.gcg")), ids=lambda p: p.stem)
def test_every_corpus_games_scale_is_round_and_covers_its_scores(path: Path) -> None:
    game = replay(parse_gcg(path.read_bytes(), path.name))
    if not game.turns:
        return
    chart = score_chart(game)
    values = [t.value for t in chart.score_ticks]
    scores = [0] + [s for turn in game.turns for s in turn.position.scores]
    step = values[0] - values[1]
    assert 2 <= len(values) <= 7 and step in (10, 20, 50, 100, 200, 500, 1000)
    assert values == list(range(values[0], values[-1] - 1, -step))
    assert values[0] > max(scores) and values[-1] <= min(scores) < values[-1] + step
    assert len(chart.turn_ticks) <= 8

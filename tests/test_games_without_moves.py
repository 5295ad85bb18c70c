"""A record with its players and no move yet (an annotator's file as the game is about
to start): its game page shows the board before the first move and says there are no
moves, instead of an empty score sheet, a chart of zeros and a "final position"."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from sitehelpers import make_event, run_build, text_of

CROSSWORD = "#player1 ann Ann Smith\n#player2 bob Bob Jones\n"
UPWORDS = "#game-type upwords\n#player1 ann Ann Smith\n#player2 bob Bob Jones\n"
GUNGI = b"".join(line for line in (CORPUS / "gn/authored__2_every_move_form.gn")
                 .read_bytes().splitlines(keepends=True) if line.startswith((b"[", b"#")))


@pytest.mark.parametrize(("name", "record"), [("g.gcg", CROSSWORD), ("u.gcg", UPWORDS),
                                              ("k.gn", GUNGI)])
@pytest.mark.parametrize("live", [True, False])
def test_a_game_page_before_the_first_move(tmp_path, name, record, live) -> None:
    event = make_event(tmp_path / "ev", {
        name: record, "event.yaml": f"games:\n  {name}: {{live: {str(live).lower()}}}\n"})
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "site" / name.split(".")[0]
    page = (folder / "index.html").read_text()
    text = text_of(page)
    assert "Start position" in text and "Final position" not in text
    assert "Score by turn" not in text and "1.html" not in page
    assert not (folder / "1.html").exists()
    if name.endswith(".gcg"):
        assert ("No moves yet." if live else "The record holds no moves.") in text
        assert 'class="sheet"' not in page


@pytest.mark.parametrize("head", ["", "#game-type upwords\n"])
def test_a_game_stopped_before_its_first_move_says_so(tmp_path, head) -> None:
    """Not "no moves": the record holds some, past the error."""
    record = (head + "#player1 ann Ann\n#player2 bob Bob\n>cat: AEINRST 8D RETAINS +66 66\n"
              ">bob: DOG 9C D.G +10 10\n")
    event = make_event(tmp_path / "ev", {"g.gcg": record})
    run_build(str(event), "-o", str(tmp_path / "site"))
    text = text_of((tmp_path / "site/g/index.html").read_text())
    line = 3 + head.count("\n")
    assert f"An error stopped the replay before the first move (line {line})." in text
    assert "no moves" not in text.lower()

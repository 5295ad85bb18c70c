"""An archive laid out as pgm.pl kept it, a folder per game holding ``input.gcg``,
builds with the game at its folder's address, so that links kept for years still lead
to it, and with the round and board of the folder's name."""

from __future__ import annotations

import json

from conftest import CORPUS
from sitehelpers import make_event, run_build

ANDY = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()
AUSTIN = (CORPUS / "gcg/liwords__josh_nationals_round_17.gcg").read_bytes()


def test_a_folder_per_game_keeps_its_address_round_and_board(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"2004/r01b01/input.gcg": ANDY,
                                         "2004/r02b05/input.gcg": AUSTIN})
    out = tmp_path / "site"
    result = run_build(str(event), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "2004/r01b01/input.gcg").read_bytes() == ANDY
    assert "andy vs cesar" in (out / "2004/r01b01/index.html").read_text()
    assert (out / "2004/r01b01/27.html").is_file()
    game = json.loads((out / "2004/r02b05/game.json").read_text())
    assert (game["slug"], game["round"], game["table"]) == ("2004/r02b05", "2", "5")


def test_a_folder_with_more_than_one_game_keeps_the_names_of_its_records(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"r01b01/input.gcg": ANDY,
                                         "r01b01/game-2.gcg": AUSTIN,
                                         "r01b02/input.gcg": ANDY,
                                         "r01b02/later/x.gcg": AUSTIN})
    out = tmp_path / "site"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    slugs = sorted(p.parent.relative_to(out).as_posix() for p in out.rglob("game.json"))
    assert slugs == ["r01b01/game-2", "r01b01/input", "r01b02/input", "r01b02/later/x"]


def test_a_game_built_at_its_old_address_keeps_it(tmp_path) -> None:
    """A site built before pgm gave such a game its folder's address keeps the address
    its readers have, as any game keeps its slug from one build to the next."""
    event = make_event(tmp_path / "ev", {"r01b01/input.gcg": ANDY,
                                         "r01b01/game-2.gcg": AUSTIN})
    out = tmp_path / "site"
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    (event / "r01b01/game-2.gcg").unlink()
    assert run_build(str(event), "-o", str(out)).exit_code == 0
    assert (out / "r01b01/input/index.html").is_file()
    assert not (out / "r01b01/index.html").exists()


def test_pgm_pl_s_config_txt_is_warned_of_as_not_read(tmp_path) -> None:
    event = make_event(tmp_path / "ev", {"r01b01/input.gcg": ANDY,
                                         "config.txt": "$htarget = '/nsc2004';\n"})
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0
    assert f"{event / 'config.txt'}: warning: not read: pgm takes what pgm.pl's config.txt " \
           "said from event.yaml (title, division, round, games:); see README, Coming " \
           "from pgm.pl\n" in result.output

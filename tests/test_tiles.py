"""Tile sets: which one a record's lexicon names (``pgm.tiles``)."""

from __future__ import annotations

from conftest import CORPUS

from pgm.crossword import replay
from pgm.gcg import parse_gcg


def messages(game) -> list[str]:
    return [f"{d.line}: {d.severity}: {d.message}" for d in game.diagnostics]


def test_the_gcg_specs_lexicons_name_their_tile_sets() -> None:
    """The spec's list: ODS to ODS5 are L'Officiel du Scrabble, French as ODS6 and up;
    OSPD and OTCWL are North American English, whatever the event's default."""
    record = (CORPUS / "gcg/web_app_warriors__GetGCG.FRA24.TfnqTZkYPL.gcg").read_bytes()
    original = replay(parse_gcg(record, "t.gcg"))
    assert original.rules.distribution.name == "french" and original.diagnostics == ()
    for lexicon in ("ODS", "ODS2", "ODS3", "ODS4", "ODS5", "ODS8"):
        body = record.replace(b"#tile-distribution french\n", b"").replace(
            b"#lexicon FRA24", b"#lexicon " + lexicon.encode())
        game = replay(parse_gcg(body, "t.gcg"))
        assert game.rules.distribution.name == "french", lexicon
        assert messages(game) == [], lexicon  # every play scores as recorded
        assert game.final.scores == original.final.scores
        assert f" lex {lexicon}; ld french;" in game.cgp(len(game.turns) - 1)
    english = (CORPUS / "gcg/MAGPIE-DATA__success.gcg").read_bytes()
    for lexicon in ("OSPD", "OSPD4", "OTCWL", "OTCWL2", "OTCWL2014", "OTCWL2016", "NWL2018"):
        body = english.replace(b"#player1", f"#lexicon {lexicon}\n#player1".encode(), 1)
        game = replay(parse_gcg(body, "t.gcg"), distribution="french")
        assert game.rules.distribution.name == "english", lexicon
        assert messages(game) == [], lexicon

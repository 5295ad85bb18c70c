"""What the record's #rackN and #incomplete lines say of the racks, as the GCG spec
reads them (``pgm.crossword_racks``)."""

from __future__ import annotations

from conftest import CORPUS, SAMPLE_GAMES, gcg_bytes
from sitehelpers import make_event, run_build, text_of

from pgm.crossword import replay
from pgm.crossword_model import unseen_tiles
from pgm.crossword_view import rack_text
from pgm.gcg import parse_gcg


def messages(game) -> list[str]:
    return [f"{d.line}: {d.severity}: {d.message}" for d in game.diagnostics]


def _shown(game, index: int) -> list[str | None]:
    """Each player's rack after ``turns[index]`` as the turn page words it."""
    position = game.turns[index].position
    return [rack_text(rack, position.rack_sizes[seat])
            for seat, rack in enumerate(position.racks)]


INCOMPLETE_AFTER_PASS = CORPUS / "gcg/MAGPIE-DATA__incomplete_after_pass.gcg"
"""MAGPIE's record of a game in progress: HastyBot to move, '#rack1 CDEEFGO' last."""


def test_a_rack_line_overrides_incomplete_whichever_comes_first() -> None:
    """The spec: #rack1 "Gives the first player's rack after the most recently
    preceding event line. Overrides #incomplete." """
    record = INCOMPLETE_AFTER_PASS.read_bytes()
    assert record.endswith(b"#rack1 CDEEFGO")
    for body in (record + b"\n#incomplete AEIINRT\n",
                 record.replace(b"#rack1", b"#incomplete AEIINRT\n#rack1")):
        game = replay(parse_gcg(body, "t.gcg"))
        last = len(game.turns) - 1
        assert game.cgp(last).split()[1] == "CDEEFGO/HLMOORY"
        assert _shown(game, last)[0] == "CDEEFGO"
        assert messages(game) == []
    # Alone, #incomplete gives the rack of the player on turn.
    alone = replay(parse_gcg(record.replace(b"#rack1 CDEEFGO", b"#incomplete AEIINRT"), "t"))
    assert alone.cgp(len(alone.turns) - 1).split()[1] == "AEIINRT/HLMOORY"
    # A #rack line for the other player leaves #incomplete the rack of the one on turn.
    other = replay(parse_gcg(record.replace(b"#rack1 CDEEFGO", b"#incomplete AEIINRT\n"
                                                                b"#rack2 EHLMOOR"), "t"))
    assert other.cgp(len(other.turns) - 1).split()[1] == "AEIINRT/EHLMOOR"


def test_a_rack_line_between_events_gives_the_rack_then(tmp_path) -> None:
    """The spec: #rackN "may be used to specify racks in a game in progress or to
    explicitly indicate exceptional situations such as the loss following an overdraw
    ruling of a tile known to be on the previous rack": the rack it gives is the
    player's from that event on, though the record goes on."""
    # Ann kept the X of AEINRSX, overdrew and lost it back to the bag by the ruling.
    record = gcg_bytes("""
        #player1 Ann Ann
        #player2 Bob Bob
        >Ann: AEINRSX 8D RAINES +14 14
        #rack1 BCDFGHJ
        >Bob: DGLOPUY D8 .UDGY +20 20
        """)
    game = replay(parse_gcg(record, "t.gcg"))
    assert messages(game) == []
    assert [_shown(game, i)[0] for i in (0, 1)] == ["BCDFGHJ", "BCDFGHJ"]  # not "X + 6"
    assert game.cgp(1).split()[1] == "BCDFGHJ/LOP"
    assert unseen_tiles(game.rules, game.turns[1].position)["X"] == 1
    # A corpus record stating a rack between events builds with --strict.
    body = INCOMPLETE_AFTER_PASS.read_bytes().replace(b"FEEB +32 131\n",
                                                      b"FEEB +32 131\n#rack2 ADGKOSV\n")
    event = make_event(tmp_path / "ev", {"g.gcg": body})
    result = run_build(str(event), "--strict", "-o", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output
    assert " 0 warning(s)" in result.output


def test_a_rack_line_the_players_next_line_contradicts_is_warned_of() -> None:
    """The rack a #rackN line gives is the one the player's next line is made from: a
    different one there would change the rack with no event between."""
    record = gcg_bytes("""
        #player1 Ann Ann
        #player2 Bob Bob
        >Ann: AEINRSX 8D RAINES +14 14
        #rack1 BCDFGHJ
        >Bob: DGLOPUY D8 .UDGY +20 20
        >Ann: BCDFGHK E7 H. +5 19
        """)
    assert messages(replay(parse_gcg(record, "t.gcg"))) == [
        "4: warning: #rack1 BCDFGHJ differs from BCDFGHK, the rack of Ann's next line "
        "(line 6): the rack changes with no event of theirs between"]


def test_a_rack_line_the_next_line_agrees_with_is_silent() -> None:
    """After the overdraw ruling the next line plays from the rack #rack1 gave, whole or
    (liwords) only the tiles played; a #rack line before the first event too."""
    for rack in (b"BCDFGHJ", b"JHGFDCB", b"H"):
        record = gcg_bytes("""
            #player1 Ann Ann
            #player2 Bob Bob
            >Ann: AEINRSX 8D RAINES +14 14
            #rack1 BCDFGHJ
            >Bob: DGLOPUY D8 .UDGY +20 20
            >Ann: RACK E7 H. +5 19
            """).replace(b"RACK", rack)
        assert messages(replay(parse_gcg(record, "t.gcg"))) == [], rack
    first = gcg_bytes("""
        #player1 Ann Ann
        #player2 Bob Bob
        #rack1 AEINRSX
        >Ann: AEINRST 8D RAINES +14 14
        """)
    assert messages(replay(parse_gcg(first, "t.gcg"))) == [
        "3: warning: #rack1 AEINRSX differs from AEINRST, the rack of Ann's next line "
        "(line 4): the rack changes with no event of theirs between"]


def test_a_line_whose_rack_another_players_rack_leaves_no_room_for_is_warned_of() -> None:
    """Macondo's record: Player_1 passes holding AIIIILX (line 20), then Player_2 passes
    'holding' IX (line 21) and Player_1 plays XI: the set's only X in two racks. The
    rack tracker shows Player_2's rack as their other lines tell it (the X is on the
    board before Player_2 moves again), so without a word the page's rack table and the
    move's 'Rack: IX' would disagree."""
    game = replay(parse_gcg((CORPUS / "gcg/macondo__incomplete.gcg").read_bytes(), "t.gcg"))
    assert messages(game) == [
        "21: warning: the rack IX cannot be right: with Player_1's AIIIILX and the board it "
        "makes 2 'X' tiles, but the english set has 1; Player_2's rack is shown as their "
        "other lines tell it"]
    pass_turn = next(i for i, turn in enumerate(game.turns) if turn.event.line == 21)
    assert _shown(game, pass_turn) == ["AIIIILX", "GHIPU + 2 unknown"]


def test_a_withdrawals_rack_is_not_checked_against_the_phoneys_tiles() -> None:
    """A withdrawal's rack is the phoney's, held before the phoney went down: beside the
    board after the phoney (its tiles still on it) it would count them twice. In the
    sample's record Peter's phoney ...E from EEQ (line 48) left no room for the E's of
    EEQ with Noah's EIOR; before it there is."""
    record = (SAMPLE_GAMES / "round-2/table-1.gcg").read_bytes()
    assert b">Peter_Armstrong: EEQ --  -7 400" in record
    game = replay(parse_gcg(record, "t.gcg"))
    assert [m for m in messages(game) if "cannot" in m] == []


def test_the_unseen_tiles_heading_says_what_is_known_of_the_movers_rack(tmp_path) -> None:
    """The tiles the player to move has not seen are the full set less the board and
    that rack: with only part of the rack known (a record giving only the tiles played)
    the heading says it takes away its known tiles; with none of it known, the tiles are
    every tile off the board, and it says that."""
    event = make_event(tmp_path / "ev", {
        "partial.gcg": gcg_bytes("""
            #player1 Ann Ann
            #player2 Bob Bob
            >Ann: AEINRSX 8D RAINES +14 14
            >Bob: DGUY D8 .UDGY +20 20
            """),
        "unknown.gcg": gcg_bytes("""
            #player1 Ann Ann
            #player2 Bob Bob
            >Ann: RAINES 8D RAINES +14 14
            >Bob: ? - +0 0
            """)})
    assert run_build(str(event), "-o", str(tmp_path / "o"), "--strict").exit_code == 0
    headings = {page: _unseen_heading((tmp_path / "o" / page).read_text())
                for page in ("partial/1.html", "partial/2.html", "unknown/2.html")}
    # Bob's DGUY + 3 unknown (the bag's 80, Ann's 7 and Bob's 3 unknown tiles)
    assert headings == {"partial/1.html": "Not on the board or known on Bob's rack: 90",
                        "partial/2.html": "Not on the board or known on Ann's rack: 89",
                        "unknown/2.html": "Tiles off the board: 94"}


def _unseen_heading(html: str) -> str:
    return text_of(html.split('<h2 id="unseen-h">', 1)[1].split("</h2>", 1)[0])

"""A record's ``#character-encoding`` line against its bytes: real records edited the way
annotators edit them, and what pgm says and shows then.

Each case is a warning, not an error: an error fails the build and, under ``pgm watch``,
keeps a live game's last good pages, and in none of these is anything lost.
"""

from __future__ import annotations

import json
import os
import time

import pytest
from conftest import CORPUS
from sitehelpers import make_event, record_prefix, run_build, text_of

from pgm.build import BuildOptions, build
from pgm.crossword import replay
from pgm.diagnostics import Severity
from pgm.gcg import parse_gcg
from pgm.state import SAVE_SETTLE_NS

ISC_GAME = CORPUS / "gcg/macondo__some_isc_game.gcg"
"""``#character-encoding UTF-8`` on line 1, players José Arcadio Buendía and Úrsula
Iguarán Buendía (nickname ``úrsula``), 24 events."""
NAMES = ["José Arcadio Buendía", "Úrsula Iguarán Buendía"]
MISPLACED = ("#character-encoding must be the first line of the file; pgm reads it here "
             "all the same, but other GCG programs reject the file: move it to line 1")


def lines_of(path=ISC_GAME) -> list[bytes]:
    return path.read_bytes().split(b"\n")


def with_note(after_line: int, note: bytes, lines: list[bytes] | None = None) -> bytes:
    """The game with ``#note ...`` typed in as line ``after_line + 1``."""
    lines = lines_of() if lines is None else lines
    return b"\n".join([*lines[:after_line], b"#note " + note, *lines[after_line:]])


def diagnostics(record) -> list[tuple[int, Severity, str]]:
    return [(d.line, d.severity, d.message) for d in record.diagnostics]


def assert_replays_to_the_end(record) -> None:
    """The replay goes past every line the encoding concerns, to the last event."""
    game = replay(record)
    assert game.stopped_at is None and len(game.turns) == 24
    assert not [d for d in game.diagnostics if d.severity is Severity.ERROR]


def test_an_encoding_line_below_player1_is_a_warning_and_the_names_read_right() -> None:
    lines = lines_of()
    moved = b"\n".join([lines[3], lines[0], *lines[1:3], *lines[4:]])  # #player1 first
    record = parse_gcg(moved, "r1.gcg")
    assert diagnostics(record) == [(2, Severity.WARNING, MISPLACED)]
    assert [p.name for p in record.players] == NAMES and record.encoding == "utf-8"
    assert_replays_to_the_end(record)


def test_a_misplaced_utf8_line_still_reads_the_utf8_names_beside_a_latin1_note() -> None:
    """Taken for what it says, the misplaced line keeps one Latin-1 note from turning
    every name of the file into ISO-8859-1 (JosÃ© Arcadio BuendÃ­a)."""
    lines = lines_of()
    moved = [lines[3], lines[0], *lines[1:3], *lines[4:]]
    record = parse_gcg(with_note(7, "très bien".encode("latin-1"), moved), "r1.gcg")
    assert [(line, severity) for line, severity, _ in diagnostics(record)] == [
        (2, Severity.WARNING), (8, Severity.WARNING)]
    assert [p.name for p in record.players] == NAMES
    assert record.events[1].notes[0].text == "très bien"
    assert_replays_to_the_end(record)


def test_a_second_encoding_line_is_ignored_with_a_warning() -> None:
    lines = lines_of()
    record = parse_gcg(b"\n".join([*lines[:4], b"#character-encoding ISO-8859-1",
                                   *lines[4:]]), "r1.gcg")
    assert diagnostics(record) == [(5, Severity.WARNING, (
        "#character-encoding must be the first line of the file; ignored here "
        "(line 1 declares the encoding)"))]
    assert [p.name for p in record.players] == NAMES


def test_an_encoding_line_naming_no_encoding_is_not_passed_over_in_silence() -> None:
    lines = lines_of()
    record = parse_gcg(b"\n".join([b"#character-encoding ", *lines[1:]]), "r1.gcg")
    assert diagnostics(record)[0] == (1, Severity.WARNING, (
        "#character-encoding names no encoding (expected UTF-8 or ISO-8859-1); ignored"))
    assert [p.name for p in record.players] == NAMES  # valid UTF-8, read as such


def test_a_note_typed_in_latin1_in_a_utf8_record_is_read_as_latin1_with_a_warning() -> None:
    """An annotator on Windows types '#note été' in Latin-1 (0xE9) into a record that
    says UTF-8: that line is read as ISO-8859-1, the rest of the file stays UTF-8."""
    data = with_note(8, "été".encode("latin-1"))  # after '>arcadio: EEINOOR E8 .OOIE'
    for breaks in (b"\n", b"\r\n", b"\r"):
        record = parse_gcg(data.replace(b"\n", breaks), "r1.gcg")
        assert diagnostics(record) == [(9, Severity.WARNING, (
            "byte 0xE9 is not UTF-8, which line 1 declares: the line is read as ISO-8859-1 "
            "/ Windows-1252, where it is 'é'; save the file as UTF-8 in the editor to fix it"))]
        assert record.events[2].notes[0].text == "été"
        assert [p.name for p in record.players] == NAMES
        assert record.events[3].nick == "úrsula"
        assert_replays_to_the_end(record)


def test_more_latin1_lines_in_a_utf8_record_are_one_warning() -> None:
    """Windows-1252's curly apostrophe (0x92) is read as such, as in undeclared files."""
    twice = with_note(10, b"Arcadio\x92s best", with_note(8, b"\xe9t\xe9").split(b"\n"))
    record = parse_gcg(twice, "r1.gcg")
    assert diagnostics(record) == [(9, Severity.WARNING, (
        "byte 0xE9 is not UTF-8, which line 1 declares: the line is read as ISO-8859-1 / "
        "Windows-1252, where it is 'é'; so is line 11; save the file as UTF-8 in the "
        "editor to fix it"))]
    assert [n.text for e in record.events for n in e.notes] == ["été", "Arcadio’s best"]
    thrice = parse_gcg(with_note(12, b"na\xefve", twice.split(b"\n")), "r1.gcg")
    assert "; so are 2 more lines, down to line 13;" in thrice.diagnostics[0].message
    assert_replays_to_the_end(thrice)


def test_a_utf8_record_declared_iso_8859_1_is_read_as_utf8_with_a_warning() -> None:
    """A modern editor saved the record as UTF-8 under its old header."""
    lines = lines_of()
    data = b"\n".join([b"#character-encoding ISO-8859-1", *lines[1:3],
                       "#player1 arcadio José Núñez".encode(), *lines[4:]])
    record = parse_gcg(data, "r1.gcg")
    assert diagnostics(record) == [(1, Severity.WARNING, (
        "the file is UTF-8, though this line declares ISO-8859-1: read as UTF-8 "
        "('é', not 'Ã©'); write '#character-encoding UTF-8' here"))]
    assert [p.name for p in record.players] == ["José Núñez", NAMES[1]]
    assert record.encoding == "utf-8"
    assert_replays_to_the_end(record)


def test_latin1_declared_iso_8859_1_stays_latin1_without_a_word() -> None:
    """0xE9 alone is not UTF-8: the declaration is right, and nothing is said."""
    data = (b"#character-encoding ISO-8859-1\n"
            + (CORPUS / "gcg/macondo__name_iso8859-1.gcg").read_bytes())
    record = parse_gcg(data, "r1.gcg")
    assert record.diagnostics == () and record.encoding == "iso-8859-1"
    assert record.players[0].name == "césar"


def test_an_undeclared_latin1_record_with_a_utf8_note_reads_both_with_a_warning() -> None:
    """A Latin-1 record from a Windows machine, with notes appended on another in UTF-8:
    each line is read as what it is, where the whole file used to be read as Latin-1 in
    silence ("cafÃ©"). A French Latin-1 line, whose "é" before a no-break space is a
    valid UTF-8 pair, stays Latin-1: the test is the line."""
    latin1 = (CORPUS / "gcg/macondo__name_iso8859-1.gcg").read_bytes().rstrip(b"\n")
    french = b"#note \xab\xa0\xe9t\xe9\xa0\xbb tr\xe8s bien, L'\xc9T\xc9\xa0!"
    notes = b"\n".join([french, b"#note caf\xc3\xa9 \xe2\x80\x94 cr\xc3\xa8me",
                        b"#note na\xc3\xafve"])
    record = parse_gcg(latin1 + b"\n" + notes + b"\n", "r1.gcg")
    first_utf8 = len(latin1.split(b"\n")) + 2
    assert diagnostics(record) == [(first_utf8, Severity.WARNING, (
        "this line is UTF-8 ('é', not 'Ã©') in a file read as ISO-8859-1, the GCG default, "
        "and so is 1 more line: read as UTF-8; save the file as UTF-8 with "
        "'#character-encoding UTF-8' as its first line"))]
    assert record.players[0].name == "césar"
    assert [note.text for note in record.events[-1].notes] == [
        "«\xa0été\xa0» très bien, L'ÉTÉ\xa0!", "café — crème", "naïve"]
    plain = parse_gcg(latin1 + b"\n" + french + b"\n", "r1.gcg")
    assert plain.diagnostics == () and plain.encoding == "iso-8859-1"


def test_a_utf8_byte_order_mark_reads_a_latin1_line_the_same_way() -> None:
    data = b"\xef\xbb\xbf" + with_note(8, b"\xe9t\xe9")
    record = parse_gcg(data, "r1.gcg")
    assert [(d.line, d.severity) for d in record.diagnostics] == [(9, Severity.WARNING)]
    assert record.diagnostics[0].message.startswith(
        "byte 0xE9 is not UTF-8, which the byte-order mark declares:")
    assert record.events[2].notes[0].text == "été" and record.players[1].name == NAMES[1]


def test_a_build_with_a_latin1_note_succeeds_and_shows_the_names(tmp_path) -> None:
    """The tournament director's case end to end: exit status 0 with the warning told,
    the names on the index, the note on its turn page, and the record offered as saved."""
    record = with_note(8, "été".encode("latin-1"))
    event = make_event(tmp_path / "ev", {"r1.gcg": record})
    result = run_build(str(event), "-o", str(tmp_path / "site"))
    assert result.exit_code == 0, result.output
    assert "r1.gcg:9: warning: byte 0xE9 is not UTF-8" in result.output
    assert "0 error(s), 1 warning(s)" in result.output
    index = text_of((tmp_path / "site/index.html").read_text(encoding="utf-8"))
    assert all(name in index for name in NAMES) and "Ã" not in index
    assert "été" in text_of((tmp_path / "site/r1/3.html").read_text(encoding="utf-8"))
    assert (tmp_path / "site/r1/input.gcg").read_bytes() == record


def test_a_build_with_a_misplaced_or_mistaken_encoding_line_shows_the_names(tmp_path) -> None:
    lines = lines_of()
    records = {"moved.gcg": b"\n".join([lines[3], lines[0], *lines[1:3], *lines[4:]]),
               "old-header.gcg": b"\n".join([b"#character-encoding ISO-8859-1", *lines[1:]])}
    for name, record in records.items():
        event = make_event(tmp_path / name, {name: record})
        result = run_build(str(event), "-o", str(tmp_path / name / "site"))
        assert result.exit_code == 0, result.output
        assert "0 error(s), 1 warning(s)" in result.output
        index = text_of((tmp_path / name / "site/index.html").read_text(encoding="utf-8"))
        assert all(player in index for player in NAMES) and "Ã" not in index, name
        slug = name.removesuffix(".gcg")
        assert (tmp_path / name / "site" / slug / "input.gcg").read_bytes() == record


@pytest.mark.parametrize("edited", [
    with_note(10, "été".encode("latin-1")),  # a note on the 5th turn
    b"\n".join([*lines_of()[3:4], *lines_of()[:3], *lines_of()[4:]]),  # encoding on line 2
], ids=["latin1-note", "encoding-on-line-2"])
def test_a_live_game_goes_on_updating_past_the_edit(tmp_path, edited: bytes) -> None:
    """Under ``pgm watch`` an error keeps a game's last good pages: a warning must not,
    or the game's pages would stop following it at the annotator's edit (a new warning
    only holds a save a second, to tell it from one caught half-way: see
    test_watch_settling; the saves here are as if a second old)."""
    event = make_event(tmp_path / "ev", {"g.gcg": record_prefix(ISC_GAME.read_bytes(), 5)})
    out = tmp_path / "site"

    def saved(data: bytes) -> dict:
        (event / "g.gcg").write_bytes(data)
        before = time.time_ns() - 2 * SAVE_SETTLE_NS
        os.utime(event / "g.gcg", ns=(before, before))
        build(BuildOptions(event, out, keep_last_good=True, jobs=1))
        return json.loads((out / "live.json").read_text())["games"][0]

    assert saved(record_prefix(ISC_GAME.read_bytes(), 5))["turns"] == 5
    now = saved(record_prefix(edited, 6))
    assert (now["live"], now["turns"]) == (True, 6)
    assert "Úrsula Iguarán Buendía" in (out / "g/6.html").read_text(encoding="utf-8")


POLISH = ("#player1 Łukasz Łukasz Wójcik\n#player2 Żaneta Żaneta Świątek\n"
          ">Łukasz: AEINRST 8D RETAINS +66 66\n")


@pytest.mark.parametrize("codec", ["cp1250", "iso-8859-2"])
def test_a_polish_code_page_is_named_and_the_fix_given(codec: str) -> None:
    """pgm reads UTF-8 and ISO-8859-1 only: a Polish Windows program's file reads
    Łukasz as £ukasz, which the director is told, once, with how to save the file."""
    record = parse_gcg(POLISH.encode(codec), "pl.gcg")
    assert [(d.line, d.message) for d in record.diagnostics] == [(1, (
        "'£ukasz' looks like 'Łukasz' written in Windows-1250 or ISO-8859-2 (Central "
        "European), which pgm does not read: the file is read as ISO-8859-1; save it as "
        "UTF-8 with '#character-encoding UTF-8' as its first line"))]


def test_spanish_and_french_latin1_are_not_taken_for_polish() -> None:
    text = ("#player1 Inés Inés Peña\n#player2 Zoé Zoé Château\n#note ¿Qué? ¡Olé! £5 ±2\n"
            ">Inés: AEINRST 8D RETAINS +66 66\n")
    record = parse_gcg(text.encode("latin-1"), "es.gcg")
    assert not [d for d in record.diagnostics if "Central European" in d.message]
    assert record.players[0].name == "Inés Peña"


def test_a_polish_name_is_shown_as_its_code_page_writes_it() -> None:
    """ą is 0xB9 in Windows-1250 and 0xB1 in ISO-8859-2: the warning names the word as
    the file's code page reads it, Windows-1250 only when the file has its 0x80-0x9F."""
    record = parse_gcg("#player1 Wąsik Wąsik Wąsik\n#player2 Bob Bob C\n"
                       ">Wąsik: AEINRST 8D RETAINS +66 66\n".encode("iso-8859-2"), "pl.gcg")
    assert "'W±sik' looks like 'Wąsik' written in Windows-1250" in record.diagnostics[0].message


@pytest.mark.parametrize("text", [
    "#player1 Cœur Cœur Lion\n",  # Windows-1252's œ: Polish ś in Windows-1250
    "#note the room is 40 m³\n",  # a symbol after a letter, before none
])
def test_french_windows_text_and_symbols_are_not_taken_for_polish(text: str) -> None:
    record = parse_gcg((text + "#player2 Bob Bob C\n").encode("cp1252"), "fr.gcg")
    assert not [d for d in record.diagnostics if "Central European" in d.message]


def test_a_utf8_line_in_a_latin1_file_is_not_taken_for_polish() -> None:
    data = "#player1 Zoé Zoé B\n".encode("latin-1") + "#note wait…what\n".encode()
    record = parse_gcg(data + b"#player2 Bob Bob C\n", "mixed.gcg")
    assert not [d for d in record.diagnostics if "Central European" in d.message]


def test_letters_written_with_combining_accents_are_the_set_s_tiles() -> None:
    """Text copied on a Mac may write Ñ as N and a combining tilde: it looks the same,
    and it is the Spanish Ñ tile (it was "'̃' is not a tile", and the game stopped)."""
    import unicodedata

    text = ("#character-encoding UTF-8\n#player1 Begoña Begoña Muñoz\n#player2 Jose Jose\n"
            "#lexicon FISE2\n>Begoña: [CH]AEIOSC 8D [CH]ICOS +32 32\n"
            ">Jose: AÑOERT? H5 AÑO. +11 11\n")
    game = replay(parse_gcg(unicodedata.normalize("NFD", text).encode(), "nfd.gcg"))
    assert not game.diagnostics
    assert game.record.players[0].name == "Begoña Muñoz"
    assert [t.label for t in game.turns[1].placed] == ["A", "Ñ", "O"]
    assert game.final.scores == (32, 11)

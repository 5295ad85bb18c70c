"""The GCG reader: what real files contain, one quirk per test."""

from __future__ import annotations

from conftest import CORPUS, gcg_bytes

from pgm.crossword import replay
from pgm.gcg import EventKind, parse_gcg


def parse(text: str):
    return parse_gcg(gcg_bytes(text), "t.gcg")


def messages(record) -> list[str]:
    return [f"{d.line}: {d.severity}: {d.message}" for d in record.diagnostics]


BASIC = """
#player1 Ann Ann Example
#player2 Bob Bob Example
>Ann: AEINRST 8D RETAINS +66 66
>Bob: EIOU -EIOU +0 0
"""


def test_players_and_events_with_line_numbers() -> None:
    record = parse(BASIC)
    assert [(p.nick, p.name) for p in record.players] == [("Ann", "Ann Example"),
                                                          ("Bob", "Bob Example")]
    assert [(e.line, e.kind, e.nick) for e in record.events] == [
        (3, EventKind.PLAY, "Ann"), (4, EventKind.EXCHANGE, "Bob")]
    play = record.events[0]
    assert (play.rack, play.position, play.word, play.score, play.cumulative) == (
        "AEINRST", "8D", "RETAINS", 66, 66)
    assert record.diagnostics == ()


def test_any_line_terminator_gives_the_same_lines() -> None:
    lf = gcg_bytes(BASIC)
    for variant in (lf.replace(b"\n", b"\r\n"), lf.replace(b"\n", b"\r")):
        record = parse_gcg(variant, "t.gcg")
        assert [e.line for e in record.events] == [3, 4]
        assert record.events[1].tiles == "EIOU"


def test_the_encoding_line_is_read_whatever_ends_it() -> None:
    """A UTF-8 record saved with lone CRs (old Mac editors) or CRLF: line 1 is only
    '#character-encoding UTF-8', and the names are read as UTF-8 without a problem."""
    data = ("#character-encoding UTF-8\n#player1 zoé Zoé Ménard\n#player2 b Bob\n"
            ">zoé: AEINRST 8D RETAINS +66 66\n").encode()
    for breaks in (b"\r", b"\r\n"):
        record = parse_gcg(data.replace(b"\n", breaks), "m.gcg")
        assert record.encoding == "utf-8" and record.diagnostics == ()
        assert record.players[0].name == "Zoé Ménard"
        assert record.events[0].score == 66


def test_every_event_kind() -> None:
    record = parse("""
        #player1 a a
        #player2 b b
        >a: ?ABCDEF 8H BAD +12 12
        >b: GHI - +0 0
        >a: ABCDEF -ABC +0 12
        >b: XYZ -3 +0 0
        >a: ABCD H8 B.ED +20 32
        >a: ABCD -- -20 12
        >b: QRS (challenge) +5 5
        >a: (QRS) +24 36
        >b: QRS (QRS) -12 -7
        >b: QRS (time) -10 -17
    """)
    kinds = [e.kind for e in record.events]
    assert kinds == [EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE, EventKind.EXCHANGE,
                     EventKind.PLAY, EventKind.WITHDRAWAL, EventKind.CHALLENGE_BONUS,
                     EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY,
                     EventKind.TIME_PENALTY]
    assert record.events[3].exchange_count == 3
    assert record.events[7].tiles == "QRS"
    assert record.events[8].score == -12 and record.events[8].cumulative == -7
    assert record.diagnostics == ()


def test_unknown_exchanged_tiles_and_empty_racks() -> None:
    record = parse("""
        #player1 a a
        #player2 b b
        >a: AB__ -A__ +0 0
        >b:  (challenge) +5 5
        >b:  (time) -10 -5
    """)
    assert record.events[0].tiles == "A__"
    assert record.events[1].rack == "" and record.events[1].score == 5
    assert record.events[2].rack == "" and record.events[2].score == -10


def test_quackle_columns_lowercase_coordinates_and_padding() -> None:
    record = parse_gcg((CORPUS / "gcg/quackle__boys1.gcg").read_bytes(), "boys1.gcg")
    third = record.events[2]
    assert (third.rack, third.position, third.word, third.score, third.cumulative) == (
        "BEDGMNP", "7e", "BEDIM", 26, 66)
    assert third.extra == "BE, ET, DO"
    assert record.incomplete_rack == ""
    assert record.title == "2006 Human vs. Computer Showdown Round 1"


def test_multi_line_note_joins_continuation_lines() -> None:
    record = parse_gcg((CORPUS / "gcg/MAGPIE-DATA__success_standard.gcg").read_bytes(), "s")
    noted = [e for e in record.events if e.notes]
    assert noted[0].notes[0].text == "this\nis\na\nmultiline\nnote"
    assert noted[1].notes[0].text == "single line note"


def test_a_note_keeps_its_paragraphs_indents_headings_and_quotes() -> None:
    """An annotator writes a note in markdown: a blank line starts a paragraph, a line
    indented further nests a list or holds code, ``## Why?`` is a heading and ``> ...``
    a quote. None of them ends the note, and the game after it is read: they were
    taken for a pragma and an event, which stopped the replay there."""
    record = parse_gcg(gcg_bytes("""
        #player1 Ann Ann
        #player2 Bob Bob
        >Ann: AEINRST 8D RETAINS +66 66
        #note Plan:
        ## Why RETAINS?
        Because it is a bingo.

        > keep it simple
        >> said twice
        - a list
          - nested
        >Bob: EIOU -EIOU +0 0
        #note Board:
            A B C
           1 . . .
        >Ann: AB 9C BA +9 75
    """), "noted.gcg")
    assert not record.diagnostics
    assert [e.word for e in record.events] == ["RETAINS", "", "BA"]
    assert record.events[0].notes[0].text == (
        "Plan:\n## Why RETAINS?\nBecause it is a bingo.\n\n> keep it simple\n"
        ">> said twice\n- a list\n  - nested")
    # lined up under the #note, the lines lose the indent they share, not the rest
    assert record.events[1].notes[0].text == "Board:\n A B C\n1 . . ."


def test_an_event_typed_with_a_space_after_a_note_is_not_taken_for_a_quote() -> None:
    """``> Ann: ...`` names a player: it is an event typed with a space, reported as
    one, not a quote that would drop the turn from the game without a word."""
    record = parse_gcg(gcg_bytes("""
        #player1 Ann Ann
        #player2 Bob Bob
        >Ann: AEINRST 8D RETAINS +66 66
        #note Plan
        > Bob: EIOU -EIOU +0 0
    """), "spaced.gcg")
    assert record.events[0].notes[0].text == "Plan"
    assert [event.line for event in record.events] == [3, 5]
    errors = [d for d in replay(record).diagnostics if d.severity.value == "error"]
    assert [d.line for d in errors] == [5]
    assert errors[0].message.startswith("no player has the nickname ' Bob'")


def test_a_quote_naming_a_player_is_a_quote_and_a_spaced_event_is_an_event() -> None:
    """What follows ``> Bob:`` decides: words are a quote of Bob, which the note keeps;
    an event's fields are a move typed with a space, which is never swallowed by the
    note, whatever nickname it gives. A blank line before another note's line does not
    split that note."""
    record = parse_gcg(gcg_bytes("""
        #player1 Ann Ann
        #player2 Bob Bob
        >Ann: AEINRST 8D RETAINS +66 66
        #note first

        > Bob: I told you so
        >Bob: EIOU -EIOU +0 0
        #note second
        continued
        > bob: AB 9C BA +9 75
    """), "quotes.gcg")
    assert [n.text for e in record.events for n in e.notes] == [
        "first\n\n> Bob: I told you so", "second\ncontinued"]
    assert [event.line for event in record.events] == [3, 7, 10]
    errors = [d for d in replay(record).diagnostics if d.severity.value == "error"]
    assert [d.line for d in errors] == [10]
    assert errors[0].message.startswith("no player has the nickname ' bob'")


def test_several_notes_on_one_event_and_comment_pragma() -> None:
    record = parse("""
        #player1 a a
        #player2 b b
        >a: ABC 8H CAB +14 14
        #note first
        #note second
        #comment date="2006-06-02"; text="hello"
    """)
    notes = record.events[0].notes
    assert [(n.kind, n.text) for n in notes] == [
        ("note", "first"), ("note", "second"), ("comment", "hello — 2006-06-02")]


def test_latin1_by_default_and_utf8_when_declared() -> None:
    latin = parse_gcg((CORPUS / "gcg/macondo__name_iso8859-1.gcg").read_bytes(), "l")
    assert latin.players[0].name == "césar"
    utf8 = parse_gcg((CORPUS / "gcg/macondo__name_utf8_with_header.gcg").read_bytes(), "u")
    assert utf8.players[0].nick == "césar" and utf8.encoding == "utf-8"


def test_utf8_without_header_is_read_as_utf8_with_a_warning() -> None:
    record = parse_gcg((CORPUS / "gcg/MAGPIE-DATA__name_utf8_noheader.gcg").read_bytes(), "n")
    assert record.players[0].nick == "césar"
    assert messages(record) == [
        "1: warning: no '#character-encoding UTF-8' line, but the file is UTF-8: read as "
        "UTF-8 (the GCG default is ISO-8859-1)"]


def test_unsupported_encoding_is_an_error() -> None:
    record = parse_gcg(
        (CORPUS / "gcg-invalid/macondo__name_weird_encoding_with_header.gcg").read_bytes(), "w")
    assert messages(record)[0] == ("1: error: unsupported character encoding 'ISO8859-6' "
                                   "(expected UTF-8 or ISO-8859-1); reading the file as UTF-8, "
                                   "which its bytes are")
    assert record.players[0].nick == "césar"  # not mojibake: the bytes are UTF-8
    latin = parse_gcg("#character-encoding ISO8859-6\n#player1 c césar\n".encode("latin-1"), "l")
    assert messages(latin)[0].endswith("reading the file as ISO-8859-1")
    assert latin.players[0].name == "césar"
    # a misplaced or mistaken one is only a warning: tests/test_gcg_encodings.py


def test_windows_1252_declared_is_read_so_with_a_warning() -> None:
    """Not GCG's, but what a Windows tool writes: the build need not fail for it."""
    record = parse_gcg("#character-encoding windows-1252\n#player1 c César “Ace”\n"
                       .encode("cp1252"), "w")
    assert messages(record) == [
        "1: warning: GCG allows UTF-8 or ISO-8859-1, not windows-1252: read as windows-1252, "
        "but other GCG programs reject the file; write '#character-encoding UTF-8' here and "
        "save the file as UTF-8"]
    assert record.players[0].name == "César “Ace”"
    utf8 = parse_gcg("#character-encoding CP1252\n#player1 c César\n".encode(), "u")
    assert messages(utf8)[0].startswith("1: warning: the file is UTF-8, though this line "
                                        "declares CP1252: read as UTF-8")
    assert utf8.players[0].name == "César"


def test_nicknames_with_odd_characters_and_digits() -> None:
    record = parse("""
        #player1 Josh#%^()&& Josh
        #player2 1 One
        >Josh#%^()&&: ABC 8H CAB +14 14
        >1: DEF 9H FED +20 20
    """)
    assert [e.nick for e in record.events] == ["Josh#%^()&&", "1"]
    assert record.diagnostics == ()


def test_more_than_two_players() -> None:
    record = parse_gcg((CORPUS / "gcg/quackle__multiplayer-crash.gcg").read_bytes(), "m")
    assert [p.nick for p in record.players] == [
        "Mark_Ogden", "Chappy", "Nicole_Gorham", "Daniel_Southam"]


def test_obsolete_pragmas_point_to_the_event_config() -> None:
    record = parse("#player1 a a\n#player2 b b\n#htarget http://x/\n#style wsc2001\n")
    assert messages(record) == [
        "3: warning: #htarget is obsolete and ignored: set base_url in event.yaml instead",
        "4: warning: #style is obsolete and ignored: set theme or css in event.yaml instead"]


def test_header_pragmas_are_kept() -> None:
    record = parse_gcg((CORPUS / "gcg/MAGPIE-DATA__success_standard.gcg").read_bytes(), "s")
    assert record.pragmas["lexicon"] == "CSW21"
    assert record.pragmas["board-layout"] == "standard15"
    assert record.pragmas["tile-distribution"] == "english"
    assert record.pragmas["id"] == "io.woogles p6QRjJHG"
    assert record.description == "Created with Macondo"


def test_tile_pragma_is_recorded() -> None:
    record = parse("#tile L·L l·l\n#player1 a a\n#player2 b b\n")
    assert record.tile_declarations == (("L·L", "l·l"),)


def test_garbage_lines_are_errors_naming_the_line() -> None:
    cases = {
        "this is not gcg": "expected a pragma ('#...') or an event ('>nick: ...'), found "
                           "'this is not gcg'",
        ">a: ABC 8H": "expected a coordinate and a word (play), '-' (pass), '-TILES' "
                      "(exchange), '--' (withdrawal), '(challenge)', '(time)' or '(TILES)' "
                      "in '>a: ABC 8H'",
        ">a ABC 8H CAB +14 14": "missing ':' after '>a'",
        ">:ABC 8H CAB +14 14": "event line must start with '>nickname:' followed by a space",
    }
    for line, message in cases.items():
        record = parse(f"#player1 a a\n#player2 b b\n{line}\n")
        assert messages(record) == [f"3: error: {message}"]
        assert record.unreadable_line == 3


def test_the_first_unreadable_line_is_where_replay_stops() -> None:
    text = """
        #player1 a a
        #player2 b b
        >a: ABC 8H CAB +14 14
        >b: DEF 9H
        >a: GHI 7H HIG +10 24
        >b ABC
    """
    record = parse(text)
    # a broken event line may have been a move
    assert record.unreadable_line == 4
    assert [e.line for e in record.readable_events()] == [3]
    assert [e.line for e in record.events] == [3, 5]
    assert parse(BASIC).unreadable_line is None
    # and so may a stray line, above the events as among them
    stray = parse(text.replace("#player2 b b", "stray header text\n        #player2 b b"))
    assert stray.unreadable_line == 2
    assert stray.readable_events() == ()
    assert [e.line for e in stray.events] == [4, 6]
    assert messages(stray) == [
        "2: error: expected a pragma ('#...') or an event ('>nick: ...'), found "
        "'stray header text'",
        "5: error: 2 more lines could not be read, from this one to line 7"]


def test_player_pragma_after_events_is_an_error() -> None:
    record = parse("#player1 a a\n>a: ABC 8H CAB +14 14\n#player2 b b\n")
    assert "3: error: #player2 must come before the first event" in messages(record)


def test_note_before_first_event_belongs_to_the_game() -> None:
    record = parse("#player1 a a\n#player2 b b\n#note Round 6\n>a: ABC 8H CAB +14 14\n")
    assert record.game_notes[0].text == "Round 6"
    assert record.events[0].notes == ()
    # shown on the game page; the warning says where other GCG readers take such text
    assert messages(record) == [
        "3: warning: #note before the first event: shown with the game; other GCG readers "
        "refuse it (a note is on the event above it): write the game's introduction as "
        "#description, whose lines follow it as a note's do"]


def test_a_description_takes_paragraphs_as_a_note_does() -> None:
    """The warning of a note above the first event sends its text to #description,
    which must then hold it: a few paragraphs and a heading, not a stray line."""
    record = parse("#player1 a a\n#player2 b b\n#description Round 6, board 1.\n\n"
                   "## The opening\nBoth players know it.\n#lexicon CSW21\n"
                   ">a: ABC 8H CAB +14 14\n")
    assert messages(record) == []
    assert record.description == "Round 6, board 1.\n\n## The opening\nBoth players know it."


def test_an_empty_record_says_so() -> None:
    record = parse_gcg(b"", "board-1.gcg")
    assert messages(record) == [
        "1: warning: no #player1/#player2 lines and no events: the record is empty so far"]


def test_score_tokens_are_what_the_number_pattern_matches() -> None:
    import re

    from pgm.gcg import _is_score

    pattern = re.compile(r"[+-]?\d+")
    for token in ["12", "+12", "-0", "+", "-", "", "+-1", "--1", "1+", "1_0", "١٢",
                  "+٣", "²", "½", "12a", " 1", "1.5"]:
        assert _is_score(token) == bool(pattern.fullmatch(token)), token


def test_a_rack_line_between_events_is_no_problem() -> None:
    """The spec: #rackN "may be used to specify racks in a game in progress or to
    explicitly indicate exceptional situations such as the loss following an overdraw
    ruling": a record may go on after one. Here MAGPIE's record states RightBehindYou's
    rack after FEEB, as their next line has it."""
    path = CORPUS / "gcg/MAGPIE-DATA__incomplete_after_pass.gcg"
    text = path.read_bytes().replace(b"FEEB +32 131\n", b"FEEB +32 131\n#rack2 ADGKOSV\n")
    record = parse_gcg(text, "t.gcg")
    assert record.events[5].racks_after == ((1, "ADGKOSV", 18),)
    assert messages(record) == []


def test_a_tab_separates_the_nickname_from_the_full_name() -> None:
    """"Lines consist of a sequence of tokens separated by white space (\\011 or \\040)":
    MAGPIE's record with tabs in its #player lines is the same game."""
    path = CORPUS / "gcg/MAGPIE-DATA__success.gcg"
    spaced = path.read_bytes()
    tabbed = spaced.replace(b"#player1 Tim Tim Weiss", b"#player1 Tim\tTim\tWeiss").replace(
        b"#player2 Josh Josh", b"#player2\tJosh\t Josh")
    assert tabbed != spaced
    record = parse_gcg(tabbed, "t.gcg")
    assert [(p.nick, p.name) for p in record.players] == [("Tim", "Tim Weiss"),
                                                          ("Josh", "Josh Castellano")]
    game, original = replay(record), replay(parse_gcg(spaced, "t.gcg"))
    assert game.diagnostics == original.diagnostics == ()
    assert game.final.scores == original.final.scores and game.stopped_at is None
    assert game.cgp(len(game.turns) - 1) == original.cgp(len(original.turns) - 1)


def test_a_score_without_its_sign_is_read_with_a_warning() -> None:
    """The spec writes every score signed (+73, +0, -76); a camera scraper wrote an
    exchange as '-OOU 0 0'."""
    path = CORPUS / "gcg-nonexact/scrabscrap__nu19_johannes-stefan.gcg"
    record = parse_gcg(path.read_bytes(), path.name)
    exchange = record.events[0]
    assert (exchange.line, exchange.kind, exchange.score) == (6, EventKind.EXCHANGE, 0)
    assert [m for m in messages(record) if "sign" in m or "+ or -" in m] == [
        "6: warning: score written without + or -: 0 is read as +0"]
    # A writer that leaves the sign out leaves it out of every line: one warning.
    several = parse(BASIC.replace("+66 66", "66 66").replace("+0 0", "0 0")
                    + ">Ann: DEF 9D DEF 21 87\n")
    assert [e.score for e in several.events] == [66, 0, 21]
    assert messages(several) == [
        "3: warning: score written without + or -: 66 is read as +66; so are the scores "
        "of 2 more lines, down to line 5"]
    assert messages(parse(BASIC)) == []


def test_windows_1252_punctuation_is_read_as_written_with_a_warning() -> None:
    """Bytes 0x80-0x9F are control characters in ISO-8859-1; Windows editors write
    curly quotes, dashes and the euro sign there."""
    data = (b"#player1 O\x92Brien Sean O\x92Brien\n#player2 B \x93Bobby\x94\n"
            b">O\x92Brien: AEINRST 8D RETAINS +66 66\n#note It\x92s a \x96 great play \x81\n")
    record = parse_gcg(data, "w.gcg")
    assert record.players[0].name == "Sean O’Brien" and record.players[1].name == "“Bobby”"
    assert record.events[0].notes[0].text == "It’s a – great play \ufffd"
    assert [(d.line, d.severity.value) for d in record.diagnostics] == [(1, "warning")]
    assert "Windows-1252" in record.diagnostics[0].message
    for breaks in (b"\r", b"\r\n"):
        other = parse_gcg(data.replace(b"\n", breaks).replace(b"O\x92B", b"OB"), "w.gcg")
        assert [d.line for d in other.diagnostics] == [2]
    plain = parse_gcg(b"#player1 Z Zo\xe9\n#player2 B Bo\n", "l.gcg")
    assert plain.players[0].name == "Zoé" and not plain.diagnostics


def test_a_structured_comment_shows_its_text_author_and_date() -> None:
    record = parse_gcg(
        b'#player1 a Ann\n#player2 b Bob\n>a: AEINRST 8D RETAINS +66 66\n'
        b'#comment date="2006-06-02 13:05"; author="John Chew"; text="\\"Hello, world!\\""\n'
        b'#comment a plain comment; x = "y"\n'
        b'#comment text="two\\nlines, a \\\\"; author="A"\n#comment text=""; author="B"\n'
        b'#comment date="2006-06-02 13:05"; author="John Chew\n  <jj@example.org>"; text="Hi"\n',
        "c.gcg")
    comments = [(n.kind, n.text) for n in record.events[0].notes]
    assert comments == [("comment", '"Hello, world!" — John Chew, 2006-06-02 13:05'),
                        ("comment", 'a plain comment; x = "y"'),
                        ("comment", "two\nlines, a \\ — A"),
                        ("comment", 'text=""; author="B"'),
                        ("comment", "Hi — John Chew <jj@example.org>, 2006-06-02 13:05")]


def test_a_file_that_is_not_text_is_one_error_not_a_screen_of_its_bytes() -> None:
    """A program or an image saved as .gcg by mistake: said so once, at its first line,
    without its bytes, and no second message that it is empty."""
    data = bytes(range(256)) * 4
    record = parse_gcg(data, "photo.gcg")
    assert [(d.line, d.severity.value, d.message) for d in record.diagnostics] == [
        (1, "error", "this line holds NUL bytes, which text has none of: the file is a "
                     "program, an archive or an image, or text in an encoding pgm does not "
                     "read (UTF-32), and no record can be read from it")]
    assert record.events == () and record.unreadable_line == 1


def test_a_record_whose_end_was_lost_to_nul_bytes_is_read_up_to_them() -> None:
    """An editor or a machine stopped while saving leaves NUL bytes for the end: the
    moves before them are the record's, and the error says what most likely happened."""
    data = b"#player1 a A\n#player2 b B\n>a: ZA 8G ZA +22 22\n\0\0\0\0\n"
    record = parse_gcg(data, "cut.gcg")
    assert [(d.line, d.message) for d in record.diagnostics] == [
        (4, "this line holds NUL bytes: the file was most likely cut short while it was "
            "saved, and is read up to here")]
    assert len(record.events) == 1 and record.unreadable_line == 4


def test_a_note_of_many_lines_is_read_whole() -> None:
    """A note pasted from an engine's analysis can run to thousands of lines: its lines
    are joined once, in order, with their paragraphs."""
    lines = [f"line {i} of the analysis" for i in range(20_000)]
    text = ("#player1 a A\n#player2 b B\n>a: ?AEINST 8D SATINE +70 70\n#note Analysis:\n"
            + "\n".join(lines[:10_000]) + "\n\n" + "\n".join(lines[10_000:]) + "\n")
    record = parse_gcg(text.encode(), "long.gcg")
    [note] = record.events[0].notes
    assert note.text == "Analysis:\n" + "\n".join(lines[:10_000]) + "\n\n" + \
        "\n".join(lines[10_000:])

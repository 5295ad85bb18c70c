"""Shared by the benchmarks: generate a large event from the real corpus records."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "gcg"


def real_records() -> list[bytes]:
    """Corpus records that replay cleanly (the generated event must build --strict)."""
    from pgm.crossword import replay
    from pgm.gcg import parse_gcg

    records = []
    for path in sorted(CORPUS.glob("*.gcg")):
        data = path.read_bytes()
        game = replay(parse_gcg(data, path.name))
        if game.turns and not game.diagnostics:
            records.append(data)
    return records


_SYMMETRIES = list(itertools.product((False, True), repeat=3))
"""(transpose, flip the rows, flip the columns): the 8 ways to turn the board onto
itself. The premium squares of every built-in board are the same under each, so a game
replayed on a turned board scores the same."""


def board_variants(record: bytes) -> list[bytes]:
    """The record as played on each turn of the board that replays with the same scores
    and no diagnostics (at least the record itself). Real events have no two games alike,
    and pgm keeps board rows and squares from game to game: copies of a few dozen
    records would share their rows and make the build look faster than it is."""
    from pgm.crossword import replay
    from pgm.gcg import parse_gcg

    game = replay(parse_gcg(record, "variant.gcg"))
    variants = [record]
    if not record.isascii():
        return variants
    for symmetry in _SYMMETRIES[1:]:
        variant = _turned(record, game, symmetry)
        if variant is None:
            continue
        turned = replay(parse_gcg(variant, "variant.gcg"))
        if not turned.diagnostics and turned.final.scores == game.final.scores and \
                len(turned.turns) == len(game.turns):
            variants.append(variant)
    return variants


def _turned(record: bytes, game, symmetry: tuple[bool, bool, bool]) -> bytes | None:
    lines = record.decode("ascii").split("\n")
    size = game.rules.layout.size
    for turn in game.turns:
        event = turn.event
        if not event.position:
            continue
        moved = _turned_play(event.position, event.word, game.rules.codec, size, symmetry)
        if moved is None:
            return None
        line = lines[event.line - 1]
        pattern = rf"(\s){re.escape(event.position)}(\s+){re.escape(event.word)}(\s)"
        new, count = re.subn(pattern, rf"\g<1>{moved[0]}\g<2>{moved[1]}\g<3>", line, count=1)
        if not count:
            return None
        lines[event.line - 1] = new
    return "\n".join(lines).encode("ascii")


def _turned_play(position: str, word: str, codec, size: int,
                 symmetry: tuple[bool, bool, bool]) -> tuple[str, str] | None:
    """The position and word of a play on the turned board."""
    found = re.fullmatch(r"(\d+)([A-Za-z])|([A-Za-z])(\d+)", position)
    if not found:
        return None
    across = found.group(1) is not None
    row = int(found.group(1) or found.group(4)) - 1
    col = ord((found.group(2) or found.group(3)).upper()) - ord("A")
    tiles = codec.split(word, allow=".")
    transpose, flip_rows, flip_cols = symmetry
    squares = []
    for step in range(len(tiles)):
        r, c = (row, col + step) if across else (row + step, col)
        if transpose:
            r, c = c, r
        squares.append((size - 1 - r if flip_rows else r, size - 1 - c if flip_cols else c))
    across = across != transpose
    if squares[-1] < squares[0]:
        squares, tiles = squares[::-1], tiles[::-1]
    r, c = squares[0]
    column = chr(ord("A") + c)
    return (f"{r + 1}{column}" if across else f"{column}{r + 1}"), codec.write(tiles)


def generate_event(folder: Path, games: int, seed: int = 7) -> list[Path]:
    """``games`` real records in divisions and rounds, each played on one of the turns
    of the board (``board_variants``) and made a game of its own: a record drawn again
    has its first player's name numbered (pgm warns of a copy, a game with the same
    players and moves), the players' names are marked with their table, and every record
    a closing note (so no two share a fingerprint)."""
    rng = random.Random(seed)
    records = [variant for record in real_records() for variant in board_variants(record)]
    paths = []
    chosen: dict[bytes, int] = {}
    """How many games each record's moves have made so far."""
    for number in range(games):
        division = f"division-{'ABCD'[number % 4]}"
        round_no = number // 4 // 16 + 1
        name = f"table-{number % 64 + 1}-g{number}.gcg"
        path = folder / division / f"round-{round_no:02d}" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        record = rng.choice(records)
        # the corpus holds some games twice, with other headers: a game is its moves
        moves = b"\n".join(line for line in record.splitlines() if line.startswith(b">"))
        chosen[moves] = repeat = chosen.get(moves, 0) + 1
        if repeat > 1:
            record = re.sub(rb"^(#player1 .*?)\r?$", rb"\g<1> %d" % repeat, record, count=1,
                            flags=re.MULTILINE)
        # a player sits at one table a round: names seated by table, as a real event's
        # are by the pairings (pgm warns of one player at two tables of a round)
        record = re.sub(rb"^(#player[12] .*?)\r?$", rb"\g<1> t%d" % (number % 64 + 1), record,
                        flags=re.MULTILINE)
        path.write_bytes(record.rstrip(b"\r\n") + f"\n#note copy {number}\n".encode())
        paths.append(path)
    return paths

"""Shared by the benchmarks: generate a large event from the real corpus records."""

from __future__ import annotations

import random
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


def generate_event(folder: Path, games: int, seed: int = 7) -> list[Path]:
    """``games`` copies of real records in divisions and rounds, each made distinct by a
    closing note (so no two games share a fingerprint)."""
    rng = random.Random(seed)
    records = real_records()
    paths = []
    for number in range(games):
        division = f"division-{'ABCD'[number % 4]}"
        round_no = number // 4 // 16 + 1
        name = f"table-{number % 64 + 1}-g{number}.gcg"
        path = folder / division / f"round-{round_no:02d}" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        record = rng.choice(records)
        path.write_bytes(record.rstrip(b"\r\n") + f"\n#note copy {number}\n".encode())
        paths.append(path)
    return paths

"""Measure live annotation: from saving a record to its rebuilt page being on disk.

    python bench/bench_live.py --games 1000 --saves 40

Runs ``pgm watch`` on a large generated event, appends one event line at a time to a
game in progress, and prints the median and worst delay until the new turn page and
game.json are on disk; then the time of a full ``pgm build`` with nothing changed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import CORPUS, generate_event  # noqa: E402

LIVE = (CORPUS / "liwords__josh_nationals_round_4.gcg").read_bytes().rstrip(b"\n").split(b"\n")


def prefix(events: int) -> bytes:
    out, seen = [], 0
    for line in LIVE:
        if line.startswith(b">"):
            if seen == events:
                break
            seen += 1
        out.append(line)
    return b"\n".join(out) + b"\n"


def wait_for_turns(game_json: Path, turns: int, limit: float = 30.0) -> float:
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline:
        try:
            if json.loads(game_json.read_text())["turns"] == turns:
                return time.perf_counter()
        except (OSError, ValueError):
            pass
        time.sleep(0.002)
    raise TimeoutError(f"turn {turns} did not appear")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--saves", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pgm-live-") as temp:
        event, out = Path(temp) / "event", Path(temp) / "site"
        generate_event(event, args.games)
        live = event / "live" / "board-1.gcg"
        live.parent.mkdir()
        live.write_bytes(prefix(2))
        watcher = subprocess.Popen([sys.executable, "-m", "pgm", "watch", str(event), "-o",
                                    str(out)], stderr=subprocess.DEVNULL)
        try:
            game_json = out / "live" / "board-1" / "game.json"
            wait_for_turns(game_json, 2, limit=600)
            delays = []
            for save in range(args.saves):
                turns = 3 + save % 20
                time.sleep(0.3)
                started = time.perf_counter()
                live.write_bytes(prefix(turns))
                done = wait_for_turns(game_json, turns)
                assert (out / "live" / "board-1" / f"{turns}.html").is_file()
                delays.append(done - started)
        finally:
            watcher.terminate()
            watcher.wait(timeout=30)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pgm", "build", str(event), "-o", str(out),
                        "--quiet"], check=True)
        unchanged = time.perf_counter() - started
    delays_ms = sorted(d * 1000 for d in delays)
    print(f"games: {args.games}, saves: {args.saves}")
    print(f"save -> page on disk: median {statistics.median(delays_ms):.0f} ms, "
          f"worst {delays_ms[-1]:.0f} ms (includes the file watcher's debounce of 50 ms)")
    print(f"full build with nothing changed: {unchanged:.2f} s (process start included)")


if __name__ == "__main__":
    main()

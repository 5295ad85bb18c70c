"""Measure a full build of a large generated event against the disk's own floor.

    python bench/bench_build.py --games 1000 [--jobs N] [--dir /dev/shm]

Prints turn pages per second, total seconds, median bytes per turn page, peak resident
memory, the floor (writing the same files with the same bytes, no rendering) and the
ratio build/floor; then a rebuild with nothing changed and one with one record changed.

The disk of a virtual machine can be throttled after a few hundred megabytes, so the
wall-clock figures move from run to run; the build's CPU seconds do not, and ``--dir``
on a RAM disk (``/dev/shm``) takes the disk out of both the build and its floor.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import generate_event  # noqa: E402

from pgm.output import write_files  # noqa: E402


def run_build(event: Path, out: Path, jobs: int | None) -> float:
    command = [sys.executable, "-m", "pgm", "build", str(event), "-o", str(out), "--quiet"]
    if jobs:
        command += ["--jobs", str(jobs)]
    started = time.perf_counter()
    # The generated event repeats the corpus's players, whose spellings pgm warns of at
    # every build: the figures are what is read here, so the warnings show only on failure.
    done = subprocess.run(command, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"pgm build failed (exit status {done.returncode}):\n{done.stderr}")
    return seconds


def floor(site: Path, target: Path) -> float:
    """Time to write the built files again, byte for byte, into a fresh folder: each
    folder made once, each file created and written with the bare system calls the
    build itself uses (pgm.output), so the ratio compares rendering with nothing."""
    files = [(p.relative_to(site).as_posix(), p.read_bytes())
             for p in site.rglob("*") if p.is_file()]
    started = time.perf_counter()
    write_files(target, files)
    seconds = time.perf_counter() - started
    # A copy kept would weigh on what comes next: on a RAM disk, 10,000 games are GBs.
    shutil.rmtree(target)
    return seconds


def edit(record: Path) -> None:
    record.write_bytes(record.read_bytes() + b"#note edited\n")


def in_process(event: Path, out: Path, records: list[Path]) -> tuple[float, float]:
    """Rebuilds in this process after a first one, as ``pgm watch`` makes them."""
    from pgm.build import BuildOptions, build

    options = BuildOptions(event, out)
    build(options)
    unchanged, one_change = [], []
    for step in range(5):
        started = time.perf_counter()
        build(options)
        unchanged.append(time.perf_counter() - started)
        edit(records[(len(records) // 3 + step * 7) % len(records)])
        started = time.perf_counter()
        build(options)
        one_change.append(time.perf_counter() - started)
    return statistics.median(unchanged), statistics.median(one_change)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--dir", type=Path, default=None,
                        help="folder for the event and the site (default: the temp folder)")
    args = parser.parse_args()
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pgm-bench-", dir=args.dir) as temp:
        event, out = Path(temp) / "event", Path(temp) / "site"
        records = generate_event(event, args.games)
        seconds = run_build(event, out, args.jobs)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak_mb, cpu = usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime
        turn_pages = [p for p in out.rglob("[0-9]*.html")]
        sizes = [p.stat().st_size for p in turn_pages]
        # The disk of a shared machine is not steady: the floor is the best of three.
        floor_seconds = min(floor(out, Path(temp) / f"floor-{n}") for n in range(3))
        unchanged = run_build(event, out, args.jobs)
        edit(records[len(records) // 2])
        one_change = run_build(event, out, args.jobs)
        watch_unchanged, watch_one = in_process(event, out, records)
    print(f"games: {args.games}")
    print(f"turn pages: {len(turn_pages)}")
    print(f"full build: {seconds:.2f} s, {len(turn_pages) / seconds:,.0f} turn pages/s; "
          f"{cpu:.1f} CPU seconds, {cpu / len(turn_pages) * 1000:.2f} ms per turn page")
    print(f"turn page size: median {statistics.median(sizes) / 1024:.1f} KB, "
          f"max {max(sizes) / 1024:.1f} KB")
    print(f"peak resident memory: {peak_mb:.0f} MB (largest process)")
    print(f"floor (write the same files, no rendering): {floor_seconds:.2f} s; "
          f"build/floor = {seconds / floor_seconds:.1f}")
    print(f"rebuild, nothing changed: {unchanged:.2f} s (process start included)")
    print(f"rebuild, one record changed: {one_change:.2f} s (process start included)")
    print(f"in one process, as pgm watch rebuilds: nothing changed {watch_unchanged * 1000:.0f} "
          f"ms, one record changed {watch_one * 1000:.0f} ms (median of 5)")


if __name__ == "__main__":
    main()

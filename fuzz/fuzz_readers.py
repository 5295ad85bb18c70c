"""Coverage-guided fuzzing of every reader pgm has (GCG, CGP, GN, UBF, event.yaml).

    pip install atheris && python fuzz/fuzz_readers.py -max_total_time=600 fuzz/corpus

Without atheris, or given files, it runs each file once (how the tests use it). Any
exception other than the readers' own diagnostics is a bug: they must never raise.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path


def _readers():  # type: ignore[no-untyped-def]
    from pgm.cgp import parse_cgp
    from pgm.config import GameSettings, load_configs
    from pgm.crossword import replay
    from pgm.gcg import parse_gcg

    def gcg(data: bytes) -> None:
        replay(parse_gcg(data, "fuzz.gcg"))

    def cgp(data: bytes) -> None:
        parse_cgp(data.decode("utf-8", errors="replace"))

    def config(data: bytes) -> None:
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "event.yaml").write_bytes(data)
            load_configs(Path(folder), [])

    readers = [gcg, cgp, config]
    for module, name in (("pgm.gungi_report", "gungi_report"), ("pgm.ubf_report", "ubf_report")):
        try:
            function = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
        readers.append(lambda data, f=function: f(data, "fuzz", GameSettings()))
    return readers


READERS = _readers()


def test_one_input(data: bytes) -> None:
    if not data:
        return
    # The first byte picks the reader so one corpus exercises all of them.
    READERS[data[0] % len(READERS)](data[1:])
    for reader in READERS:
        reader(data)


def main() -> None:
    files = [Path(a) for a in sys.argv[1:] if not a.startswith("-") and Path(a).is_file()]
    if files:
        for path in files:
            test_one_input(path.read_bytes())
        return
    import atheris  # noqa: PLC0415 - only needed for long fuzzing runs

    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

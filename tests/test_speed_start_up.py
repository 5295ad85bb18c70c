"""What a build in one process loads (issue 7): the worker pool's modules are imported
only when a build starts worker processes, so that a rebuild after one record changed,
or a build with ``--jobs 1``, does not pay for them at start-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_POOL_MODULES = ("multiprocessing", "concurrent.futures", "ctypes")

_BUILD_IN_ONE_PROCESS = """
import sys
from pathlib import Path
from pgm.build import BuildOptions, build

build(BuildOptions(Path(sys.argv[1]), Path(sys.argv[2]), jobs=1))
print(" ".join(name for name in sys.argv[3:] if name in sys.modules))
"""


def test_a_build_in_one_process_loads_no_worker_pool(tmp_path: Path) -> None:
    event = tmp_path / "event"
    event.mkdir()
    (event / "game.gcg").write_text("#player1 ann Ann\n#player2 bob Bob\n"
                                    ">ann: AEINRST 8D RETAINS +66 66\n")
    done = subprocess.run([sys.executable, "-c", _BUILD_IN_ONE_PROCESS, str(event),
                           str(tmp_path / "site"), *_POOL_MODULES],
                          capture_output=True, text=True, check=True)
    assert (tmp_path / "site" / "index.html").is_file()
    assert done.stdout.split() == []

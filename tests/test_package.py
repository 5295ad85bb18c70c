"""The built wheel carries the templates and static files and builds a site from anywhere."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile

from conftest import ROOT, SAMPLE_GAMES


def test_wheel_contains_templates_and_static_and_builds_elsewhere(tmp_path) -> None:
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist),
                    str(ROOT)], check=True, capture_output=True)
    wheel = next(dist.glob("pgm-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("pgm/templates/base.html", "pgm/templates/turn.html",
                   "pgm/templates/partials/board.html", "pgm/static/pgm.css",
                   "pgm/static/pgm.js", "pgm/data/letter_distributions.tsv"):
        assert needed in names
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True,
                   capture_output=True)
    elsewhere = tmp_path / "somewhere"
    elsewhere.mkdir()
    done = subprocess.run([str(env_dir / "bin" / "pgm"), "build", str(SAMPLE_GAMES), "-o",
                           str(tmp_path / "site"), "--strict"], cwd=elsewhere,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site/static/pgm.css").read_bytes() == (ROOT / "static/pgm.css").read_bytes()
    assert (tmp_path / "site/round-1/table-1/1.html").is_file()

"""Where the built-in templates and static files are: inside the installed package, or
at the top of a source checkout (the wheel maps ``templates/`` and ``static/`` into
``pgm/``)."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def builtin_dir(name: str) -> Path:
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pgm is installed without its {name}/ folder")

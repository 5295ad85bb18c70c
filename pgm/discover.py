"""Find the records of an event and give each game a stable folder name (its slug).

Slugs come from the record's path below the event folder (``Round 3/Table 1.gcg`` ->
``round-3/table-1``), so links to turn pages stay valid as long as the file keeps its
name. Names that collide after slugging get ``-2``, ``-3`` in sorted path order.
"""

from __future__ import annotations

import functools
import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

RECORD_EXTENSIONS = (".gcg", ".gn", ".cgp")
_MAX_SLUG_PART = 60
_RESERVED = {"static", "players", "index", "404", "sitemap", "con", "prn", "aux", "nul"}


@dataclass(frozen=True)
class Source:
    """One record file of the event."""

    path: Path
    relative: str
    """Path below the event folder, with '/' separators."""
    slug: str


def find_records(root: Path, exclude: list[Path]) -> tuple[list[Path], list[str]]:
    """Record files below ``root`` in sorted order, and problems met on the way.

    Hidden folders, the output folder and links leading out of the event are skipped:
    nothing outside the event folder is ever read.
    """
    found: list[Path] = []
    problems: list[str] = []
    real_root = root.resolve()
    excluded = {p.resolve() for p in exclude}
    excluded_names = {p.name for p in excluded}
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_"))
                         and not (d in excluded_names and (here / d).resolve() in excluded))
        for name in sorted(files):
            if os.path.splitext(name)[1].lower() not in RECORD_EXTENSIONS \
                    or name.startswith("."):
                continue
            path = here / name
            # Folders are not followed into, so only a file link can lead outside.
            if path.is_symlink() and not path.resolve().is_relative_to(real_root):
                problems.append(f"{path}: links outside the event folder; skipped")
                continue
            found.append(path)
    return found, problems


def relative_posix(root: Path, path: Path) -> str:
    """``path`` below ``root`` with '/' separators; by string, because the records of a
    large event are many and ``Path.relative_to`` is slow."""
    prefix = os.path.join(str(root), "")
    text = str(path)
    if text.startswith(prefix):
        return text[len(prefix):].replace(os.sep, "/")
    return path.relative_to(root).as_posix()


@functools.lru_cache(maxsize=65_536)
def slugify(text: str) -> str:
    """Lower-case ASCII words joined by hyphens; never empty, never a dot name."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:_MAX_SLUG_PART].strip("-")
    if not slug:
        slug = "game"
    if slug in _RESERVED:
        slug += "-game"
    return slug


def assign_slugs(root: Path, paths: list[Path]) -> list[Source]:
    taken: set[str] = set()
    folders: set[str] = set()
    """Every folder a slug lives in: a game may not take a folder's name."""
    sources = []
    for relative, path in sorted((relative_posix(root, p), p) for p in paths):
        folder_names, _, name = relative.rpartition("/")
        parts = [slugify(part) for part in folder_names.split("/") if part]
        base = "/".join(parts + [slugify(os.path.splitext(name)[0])])
        slug, n = base, 2
        while slug in taken or slug in folders:
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
        folders.update("/".join(slug.split("/")[:i]) for i in range(1, slug.count("/") + 1))
        sources.append(Source(path, relative, slug))
    return sources


_ROUND = re.compile(r"(?:^|[^a-z])(?:round|rd|r)[\s_-]*(\d+)", re.IGNORECASE)
_TABLE = re.compile(r"(?:^|[^a-z])(?:table|board|tbl|t)[\s_-]*(\d+)", re.IGNORECASE)


def guess_round(relative: str) -> str | None:
    """The round a path names (``round-03/...``, ``r3-...``), as a plain number."""
    match = None
    for part in relative.split("/"):
        found = _ROUND.search(part)
        if found:
            match = found
    return str(int(match.group(1))) if match else None


def guess_table(relative: str) -> str | None:
    found = _TABLE.search(relative.split("/")[-1])
    return str(int(found.group(1))) if found else None


def guess_division(relative: str) -> str | None:
    """The first folder that is not a round names the division."""
    for part in relative.split("/")[:-1]:
        if not _ROUND.search(part):
            return part
    return None

"""Every character pgm itself writes on an Upwords turn page or a Gungi ply page is ASCII
(references for the marks, the dots, the dashes and the times sign), as on crossword turn
pages (test_build.py): a page of one non-ASCII character is held at two or four bytes a
character and has to be transcoded to be written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import CORPUS, SAMPLE_GAMES
from sitehelpers import make_event, run_build


def _event(root: Path, spoiler_free: bool) -> Path:
    """The sample event (with its Upwords and Gungi games, one Upwords game in progress)
    plus the corpus's Gungi records, some in progress, one with a warning."""
    shutil.copytree(SAMPLE_GAMES, root)
    config = root / "event.yaml"
    config.write_text(config.read_text().replace("spoiler_free: false",
                                                 f"spoiler_free: {str(spoiler_free).lower()}"))
    return make_event(root, {f"gungi-corpus/{path.name}": path.read_bytes()
                             for path in (CORPUS / "gn").glob("*.gn")})


def _is_upwords_or_gungi(record: bytes, name: str) -> bool:
    return name.endswith(".gn") or b"#game-type upwords" in record


@pytest.mark.parametrize("spoiler_free", [False, True])
def test_upwords_and_gungi_turn_pages_of_plain_records_are_plain_ascii(tmp_path,
                                                                       spoiler_free) -> None:
    event = _event(tmp_path / "ev", spoiler_free)
    assert run_build(str(event), "-o", str(tmp_path / "o")).exit_code == 0
    checked, not_ascii = 0, []
    for report in sorted((tmp_path / "o").glob("**/game.json")):
        path = json.loads(report.read_text())["path"]
        record = (event / path).read_bytes()
        if not _is_upwords_or_gungi(record, path) or not record.isascii():
            continue  # a name or note of the record's own may be written as it is
        pages = list(report.parent.glob("[0-9]*.html"))
        checked += len(pages)
        not_ascii += [p.relative_to(tmp_path / "o").as_posix() for p in pages
                      if not p.read_bytes().isascii()]
    assert checked > 300 and not_ascii == []

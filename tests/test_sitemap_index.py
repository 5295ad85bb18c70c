"""A site with more pages than one sitemap file may list (50,000 URLs or 50 MB by the
protocol; less here) gets ``sitemap-1.xml``, ``sitemap-2.xml``... and ``sitemap.xml`` as
their sitemap index; a smaller one keeps its single ``sitemap.xml``. Files of a larger
build are removed when the site shrinks, and never a file pgm did not make."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import CORPUS
from sitehelpers import make_event, run_build

from pgm import site_pages

BASE = "https://example.org/club/"
NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
GAME = (CORPUS / "gcg/macondo__vs_andy.gcg").read_bytes()


def build(event: Path, out: Path, *args: str) -> None:
    result = run_build(str(event), "-o", str(out), "--base-url", BASE, *args)
    assert result.exit_code == 0, result.output


def sitemap_files(out: Path) -> list[str]:
    return sorted(p.name for p in out.glob("sitemap*.xml"))


def urls_of(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{NS}urlset"
    return [url.findtext(f"{NS}loc") for url in root.iter(f"{NS}url")]


def listed_sitemaps(out: Path) -> list[str]:
    root = ET.parse(out / "sitemap.xml").getroot()
    assert root.tag == f"{NS}sitemapindex"
    return [s.findtext(f"{NS}loc") for s in root.iter(f"{NS}sitemap")]


def site_pages_of(out: Path) -> set[str]:
    """Every page of the site a search engine is pointed at: all but the 404 page."""
    return {BASE + p.relative_to(out).as_posix() for p in out.rglob("*.html")
            if p.name != "404.html"}


def pages_in_sitemaps(out: Path) -> list[str]:
    return [url for loc in listed_sitemaps(out)
            for url in urls_of(out / loc.removeprefix(BASE))]


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """Three games of 27 turns: 2 + 3 × 28 = 86 pages."""
    return make_event(tmp_path / "ev", {f"round-1/table-{n}.gcg": GAME for n in (1, 2, 3)})


def test_a_small_site_keeps_one_sitemap(event, tmp_path) -> None:
    build(event, tmp_path / "o")
    assert sitemap_files(tmp_path / "o") == ["sitemap.xml"]
    urls = urls_of(tmp_path / "o/sitemap.xml")
    assert len(urls) == 86 and set(urls) == site_pages_of(tmp_path / "o")


def test_more_urls_than_a_file_may_list_make_a_sitemap_index(event, tmp_path,
                                                             monkeypatch) -> None:
    monkeypatch.setattr(site_pages, "SITEMAP_MAX_URLS", 30)
    out = tmp_path / "o"
    build(event, out)
    assert sitemap_files(out) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml",
                                  "sitemap.xml"]
    assert listed_sitemaps(out) == [f"{BASE}sitemap-{n}.xml" for n in (1, 2, 3)]
    assert [len(urls_of(out / f"sitemap-{n}.xml")) for n in (1, 2, 3)] == [30, 30, 26]
    listed = pages_in_sitemaps(out)
    assert len(listed) == len(set(listed)) and set(listed) == site_pages_of(out)
    index = ET.parse(out / "sitemap.xml").getroot()
    assert all(s.findtext(f"{NS}lastmod") for s in index.iter(f"{NS}sitemap"))


def test_no_sitemap_file_is_larger_than_the_byte_limit(event, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(site_pages, "SITEMAP_MAX_BYTES", 2_000)
    out = tmp_path / "o"
    build(event, out)
    parts = [name for name in sitemap_files(out) if name != "sitemap.xml"]
    assert len(parts) > 2
    assert all((out / name).stat().st_size <= 2_000 for name in parts)
    assert set(pages_in_sitemaps(out)) == site_pages_of(out)


def test_a_shrinking_site_removes_the_sitemaps_it_no_longer_has(event, tmp_path,
                                                                monkeypatch) -> None:
    """A rebuild in place (as ``pgm watch`` makes) after games are removed, then a site
    small enough for one file again; a file of the user's beside them is kept."""
    monkeypatch.setattr(site_pages, "SITEMAP_MAX_URLS", 30)
    out = tmp_path / "o"
    build(event, out)
    (out / "sitemap-9.xml").write_text("mine", encoding="utf-8")
    (event / "round-1/table-3.gcg").unlink()
    build(event, out)
    assert sitemap_files(out) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-9.xml",
                                  "sitemap.xml"]
    assert listed_sitemaps(out) == [f"{BASE}sitemap-{n}.xml" for n in (1, 2)]
    assert set(pages_in_sitemaps(out)) == site_pages_of(out)
    (event / "round-1/table-2.gcg").unlink()
    build(event, out)
    assert sitemap_files(out) == ["sitemap-9.xml", "sitemap.xml"]
    assert set(urls_of(out / "sitemap.xml")) == site_pages_of(out)
    assert (out / "sitemap-9.xml").read_text(encoding="utf-8") == "mine"
    # and it grows again, into files it made before and removed
    make_event(event, {"round-1/table-2.gcg": GAME, "round-1/table-3.gcg": GAME})
    build(event, out)
    assert listed_sitemaps(out) == [f"{BASE}sitemap-{n}.xml" for n in (1, 2, 3)]


def test_a_full_rebuild_of_a_smaller_site_leaves_no_old_sitemap(event, tmp_path,
                                                                 monkeypatch) -> None:
    monkeypatch.setattr(site_pages, "SITEMAP_MAX_URLS", 30)
    out = tmp_path / "o"
    build(event, out)
    (event / "round-1/table-3.gcg").unlink()
    (event / "event.yaml").write_text("title: Smaller\n", encoding="utf-8")  # all again
    build(event, out)
    assert sitemap_files(out) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap.xml"]
    assert set(pages_in_sitemaps(out)) == site_pages_of(out)


def test_a_game_named_like_a_sitemap_keeps_its_address(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(site_pages, "SITEMAP_MAX_URLS", 30)
    event = make_event(tmp_path / "ev", {"sitemap-1.gcg": GAME, "sitemap-2.gcg": GAME,
                                         "sitemap.gcg": GAME})
    out = tmp_path / "o"
    build(event, out)
    assert (out / "sitemap-1/index.html").is_file() and (out / "sitemap-1.xml").is_file()
    assert set(pages_in_sitemaps(out)) == site_pages_of(out)
    assert f"{BASE}sitemap-1/27.html" in pages_in_sitemaps(out)


def test_sitemaps_split_a_long_game_and_keep_every_url_once() -> None:
    from pgm.site_model import GameEntry

    entry = GameEntry("g", "g.gcg", "crossword", "A vs B", ("A", "B"), None, False, "", (),
                      turns=25, division=None, round=None, table=None,
                      updated="2024-01-01T00:00:00+00:00")
    files = list(site_pages.sitemaps(BASE, [entry], keep=False, max_urls=7))
    names = [name for name, _ in files]
    assert names == [f"sitemap-{n}.xml" for n in (1, 2, 3, 4)] + ["sitemap.xml"]
    counts = ["".join(chunks).count("<url>") for _, chunks in files[:-1]]
    assert counts == [7, 7, 7, 7]  # 2 event pages + the game page + 25 turns

"""Hostile records and configuration, opened in Chromium: nothing they carry runs.

Every page of the built site is loaded while the browser listens for dialogs (an
alert() that got through), page errors and console errors; game.json must stay valid
JSON and the payloads must reach the page as text.
"""

from __future__ import annotations

import json

from browserhelpers import chromium, open_page, serve
from sitehelpers import make_event, run_build

ALERT = "alert(document.domain)"
PAYLOADS = [
    f"<script>{ALERT}</script>",
    f"<img src=x onerror={ALERT}>",
    f"\"><svg onload={ALERT}>",
    f"'><iframe src=javascript:{ALERT}>",
    f"</script><script>{ALERT}</script>",
    "\u202eevil\u202c",
]
NAME = "Mal" + PAYLOADS[0]


def hostile_gcg() -> bytes:
    lines = [
        "#character-encoding UTF-8",
        f"#player1 evil {NAME} {PAYLOADS[1]}",
        f"#player2 other {PAYLOADS[2]} {PAYLOADS[5]}",
        f"#title {PAYLOADS[3]}",
        f"#description [click me](javascript:{ALERT}) ![x](data:text/html,<script>x</script>)"
        f" {PAYLOADS[4]}",
        ">evil: AB 8G AB +8 8",
        f"#note {PAYLOADS[0]} [link](javascript:{ALERT}) {PAYLOADS[5]}",
        f"#comment text=\"{PAYLOADS[1]}\"",
        ">other: CD 9G CD +10 10",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def hostile_gn() -> bytes:
    return (f'[Event "{PAYLOADS[0]}"]\n[Black "{PAYLOADS[1]}"]\n[White "{PAYLOADS[2]}"]\n'
            f'[Result "*"]\n# {PAYLOADS[4]}\n( {PAYLOADS[3]} )\n').encode()


def test_hostile_text_runs_nowhere(tmp_path) -> None:
    folder = f"round {PAYLOADS[5]} <b>x</b>"
    description = "[x](javascript:" + ALERT + ") " + PAYLOADS[1]
    event = make_event(tmp_path / "ev", {
        f"{folder}/{PAYLOADS[2].replace('/', '')}.gcg": hostile_gcg(),
        "gungi.gn": hostile_gn(),
        "event.yaml": (f"title: {json.dumps(PAYLOADS[0])}\n"
                       f"description: {json.dumps(description)}\n"
                       "games:\n  '*.gcg': {live: true}\n"),
    })
    out = tmp_path / "site"
    result = run_build(str(event), "-o", str(out))
    assert "Traceback" not in result.output
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 5
    for data in out.rglob("*.json"):
        json.loads(data.read_text(encoding="utf-8"))
    problems: list[str] = []
    with serve(out) as url, chromium() as browser, open_page(browser) as page:
        page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
                if m.type == "error" else None)
        for path in pages:
            relative = path.relative_to(out).as_posix()
            if relative == "404.html":
                continue
            page.goto(url + "/".join(_quote(p) for p in relative.split("/")))
            assert page.locator("svg[onload], iframe, img[onerror]").count() == 0, relative
            assert page.locator("a[href^='javascript:' i]").count() == 0, relative
        page.goto(url + "index.html")
        assert PAYLOADS[0] in page.locator("h1").inner_text()
    assert problems == []
    for page in pages:  # bidi overrides cannot reorder what spectators read
        assert "\u202e" not in page.read_text(encoding="utf-8"), page
    game = next(out.rglob("1.html")).read_text(encoding="utf-8")
    assert "&lt;script&gt;" in game and "<script>alert" not in game


def _quote(part: str) -> str:
    from urllib.parse import quote

    return quote(part)

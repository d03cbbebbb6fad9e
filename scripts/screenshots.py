"""Takes the documentation's screenshots of ``majiang play`` as PNG files.

    python scripts/screenshots.py [FOLDER]       # default docs/img

The terminal game plays seeded hands with a scripted person (``majiang.ui.screenshots``,
Textual's own test harness, no terminal needed) and saves each wanted position as the SVG
Textual exports; a headless Chromium then renders each SVG to a PNG of the same size.

Two things make the exported SVG draw Chinese badly in a browser, and both are fixed here:

- Rich gives each run of text a ``textLength`` of one cell per character, while a Chinese
  character takes two cells of the terminal; the browser then squeezes ``3条`` into two
  cells and the characters overlap. Each ``textLength`` is set again from the cells the
  text takes (``rich.cells.cell_len``), as the run's ``x`` positions already are.
- The tiles need a CJK font (Debian: ``apt-get install chromium fonts-noto-cjk``); without
  one the browser draws boxes.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit(
        "no Chromium found (tried " + ", ".join(BROWSERS) + "); on Debian: "
        "apt-get install chromium fonts-noto-cjk"
    )


def size(svg: Path) -> tuple[int, int]:
    """The SVG's width and height in pixels, from its viewBox."""
    m = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg.read_text(encoding="utf-8"))
    if not m:
        raise SystemExit(f"{svg}: no viewBox")
    return round(float(m.group(1))), round(float(m.group(2)))


TEXT = re.compile(r'(<text\b[^>]*?textLength=")([\d.]+)("[^>]*>)([^<]*)(</text>)')


def fix_widths(svg: Path) -> None:
    """Sets each text run's ``textLength`` to the terminal cells its text takes."""
    from rich.cells import cell_len

    def one(m: re.Match) -> str:
        text = html.unescape(m.group(4))
        if not text or cell_len(text) == len(text):
            return m.group(0)
        cell = float(m.group(2)) / len(text)
        return f"{m.group(1)}{cell * cell_len(text):g}{m.group(3)}{m.group(4)}{m.group(5)}"

    svg.write_text(TEXT.sub(one, svg.read_text(encoding="utf-8")), encoding="utf-8")


def render(svg: Path, png: Path, chrome: str) -> None:
    """Renders `svg` to `png` at its own size with a headless browser."""
    width, height = size(svg)
    # The page shows the SVG at exactly its size: no margin, no scroll bar.
    page = svg.with_suffix(".html")
    page.write_text(
        '<!doctype html><meta charset="utf-8"><style>html,body{margin:0;background:#fff}'
        f"img{{display:block;width:{width}px;height:{height}px}}</style>"
        f'<img src="{svg.name}">',
        encoding="utf-8",
    )
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [
                chrome,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                f"--screenshot={png}",
                page.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    if proc.returncode != 0 or not png.exists():
        raise SystemExit(f"{chrome} could not render {svg}:\n{proc.stderr[-2000:]}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Take the PNG screenshots of majiang play.")
    p.add_argument("folder", nargs="?", default=str(ROOT / "docs" / "img"))
    args = p.parse_args(argv)
    from majiang.ui.screenshots import save_screenshots

    chrome = browser()
    out = Path(args.folder)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for svg in save_screenshots(tmp):
            png = out / (svg.stem + ".png")
            fix_widths(svg)
            render(svg, png, chrome)
            print(png)
    return 0


if __name__ == "__main__":
    sys.exit(main())

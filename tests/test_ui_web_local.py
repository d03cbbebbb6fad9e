"""``majiang play --web`` serves a page that loads nothing from outside the machine: the
served HTML, and the stylesheets and scripts it names, reference no other host (the page
textual-serve ships links a web font from one; the game serves that font from its own
copy instead)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

textual_serve = pytest.importorskip("textual_serve")

from majiang.ui.web import external_references  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, seconds: float = 30) -> bytes:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.read()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_the_template_shipped_by_textual_serve_would_load_an_outside_font() -> None:
    # What the served page is checked against: the template as installed names another
    # host, so the check below fails if the page were served unchanged.
    template = Path(textual_serve.__file__).parent / "templates" / "app_index.html"
    assert external_references(template.read_text(encoding="utf-8"))
    assert external_references('<link href="https://fonts.example/x.css">') == [
        "https://fonts.example/x.css"
    ]
    assert external_references('<img src="http://127.0.0.1:8000/a.png">') == []
    assert external_references("<style>@import 'http://x.org/a.css';</style>") == [
        "http://x.org/a.css"
    ]


def test_the_served_page_references_no_outside_host(tmp_path: Any) -> None:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "majiang", "play", "--web", "--port", str(port), "--delay", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
        env=dict(os.environ, XDG_DATA_HOME=str(tmp_path)),
    )
    try:
        base = f"http://127.0.0.1:{port}"
        html = get(base + "/").decode("utf-8")
        assert external_references(html) == [], html
        assert "Roboto Mono" in html and "@font-face" in html
        # Every stylesheet, script and font the page names is served here, and names no
        # other host either.
        local = r"""(?:href|src|url\()\s*=?\s*["']?(http://127\.0\.0\.1[^"')\s>]+)"""
        names = re.findall(local, html)
        assert any(n.endswith(".css") for n in names) and any(n.endswith(".js") for n in names)
        assert any(n.endswith(".ttf") for n in names)
        for url in names:
            body = get(url)
            if url.endswith((".css", ".js")):
                assert external_references(body.decode("utf-8", "replace")) == [], url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

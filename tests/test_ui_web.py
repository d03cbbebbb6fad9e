"""``majiang play --web`` in a real headless Chromium (Selenium): the page starts the game,
a key typed into the browser discards a tile, and the table the browser receives shows it.

The terminal in the page draws on a canvas, so the test reads the table from what the
page receives: a script installed before the page loads keeps every byte the game's web
socket delivers, and the test removes the escape sequences. Skipped when textual-serve,
Selenium, Chromium or its driver is missing (Debian: ``apt-get install chromium
chromium-driver``).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from typing import Any

import pytest

pytest.importorskip("textual_serve")
webdriver = pytest.importorskip("selenium.webdriver")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER), reason="Chromium and chromedriver are not installed"
)

ANSI = re.compile(
    r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]"
)

# Keeps what the page's web sockets receive, as text, in window.__majiangOut.
RECORDER = """
window.__majiangOut = "";
const Original = window.WebSocket;
const decoder = new TextDecoder();
window.WebSocket = function (...args) {
  const ws = new Original(...args);
  ws.addEventListener("message", (event) => {
    if (typeof event.data === "string") { window.__majiangOut += event.data; return; }
    const add = (buf) => { window.__majiangOut += decoder.decode(buf, {stream: true}); };
    if (event.data instanceof Blob) { event.data.arrayBuffer().then(add); }
    else { add(event.data); }
  });
  return ws;
};
window.WebSocket.prototype = Original.prototype;
Object.assign(window.WebSocket, Original);
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port}")


def received(driver: Any) -> str:
    """The text the page has received so far, escape sequences removed."""
    return ANSI.sub("", driver.execute_script("return window.__majiangOut || ''"))


def wait_for_text(driver: Any, pattern: str, seconds: float = 60) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = received(driver)
        if re.search(pattern, text):
            return text
        time.sleep(0.3)
    raise AssertionError(f"{pattern!r} never reached the browser; got: {received(driver)[-2000:]}")


def test_play_a_discard_in_the_browser(tmp_path: Any) -> None:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "majiang",
            "play",
            "--web",
            "--port",
            str(port),
            "--ascii",
            "--seed",
            "11",
            "--level",
            "easy",
            "--delay",
            "0",
            "--hands",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=tmp_path,
        env=dict(os.environ, PYTHONUNBUFFERED="1", XDG_DATA_HOME=str(tmp_path)),
    )
    driver = None
    try:
        wait_for_port(port)
        # Bound to 127.0.0.1 only: another loopback address (as any other interface)
        # finds nothing listening.
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.2", port)) != 0
        options = Options()
        options.binary_location = CHROMIUM  # type: ignore[assignment]
        for arg in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--window-size=1400,1000",
        ):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service(DRIVER), options=options)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
        driver.get(f"http://127.0.0.1:{port}/")
        text = wait_for_text(driver, r"Your turn")
        assert "vs RandomBot (easy)" in text and "You discard" not in text
        terminal = driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
        terminal.send_keys("d")  # discard the drawn tile
        text = wait_for_text(driver, r"You discard [1-9][mpsz]")
        tile = re.search(r"You discard ([1-9][mpsz])", text).group(1)  # type: ignore[union-attr]
        # The tile is in the person's pool on the table the browser shows.
        assert re.search(rf"You\s+East.*?\n?.*{tile}", text, re.S)
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

"""What the browser tests share: ``rummy serve`` on a free port, Debian's Chromium driven
by Python playwright, the page's script errors and outside requests watched, screenshots.

``tests/test_web.py`` (the Solve and Puzzle tabs) and ``tests/test_web_play.py`` (the Play
tab) each start their own server: the Play tab's tests restart theirs mid-game, with the
same games database.  Chromium missing is a failure, not a skip, unless
``RUMMY_SKIP_BROWSER=1`` asks for the skip.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "ARTIFACTS",
    "CHROMIUM",
    "ROOT",
    "TIMEOUT_MS",
    "Server",
    "Watched",
    "card_words_shown",
    "chromium",
    "get_json",
    "post_json",
    "shot",
]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = Path(os.environ.get("RUMMY_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 20_000

try:
    from playwright.sync_api import BrowserContext, Page, sync_playwright

    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover - the test extra installs playwright
    HAVE_PLAYWRIGHT = False


def _unavailable(reason: str) -> None:
    """Skip only when the developer asked for it; otherwise a missing browser fails loudly."""
    if os.environ.get("RUMMY_SKIP_BROWSER") == "1":
        pytest.skip(f"{reason} (RUMMY_SKIP_BROWSER=1)")
    pytest.fail(f"{reason}: install it (apt-get install chromium), or set RUMMY_SKIP_BROWSER=1 to skip")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.load(answer)


def post_json(url: str, body: dict[str, Any], timeout: float = 30) -> Any:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        return json.load(answer)


def _rummy() -> str:
    beside = Path(sys.executable).with_name("rummy")
    found = str(beside) if beside.exists() else shutil.which("rummy")
    if not found:
        pytest.fail("the rummy command is not installed (pip install -e '.[test]')")
    return found


class Server:
    """``rummy serve`` on a free local port (``start``), stopped with ``stop``; ``env``
    adds to the environment (``RUMMY_DB``: the games' database, kept across a restart)."""

    def __init__(self, log: Path, env: dict[str, str] | None = None) -> None:
        self.log = log
        self.env = {**os.environ, "RUMMY_WORKERS": "2", "RUMMY_EXECUTOR": "thread", **(env or {})}
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    @classmethod
    def given(cls, url: str) -> Server:
        """A server already running at ``url`` (``RUMMY_WEB_URL``): not this test's to start or stop."""
        server = cls(Path(os.devnull))
        server.url = url.rstrip("/")
        server.external = True
        return server

    external = False
    """True for a server the tests did not start (``given``)."""

    def start(self) -> str:
        """Start and wait until ``/healthz`` answers (60 s at most); the base URL."""
        command = [_rummy(), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--no-access-log"]
        with self.log.open("a") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=self.env, cwd=ROOT
            )
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"rummy serve exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:
                if get_json(f"{self.url}/healthz")["status"] == "ok":
                    return self.url
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"rummy serve did not answer /healthz within 60 s:\n{self.log.read_text()}")
            time.sleep(0.1)

    def stop(self) -> None:
        """Terminate (kill after 10 s); nothing when not started."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@contextmanager
def games_server(folder: Path) -> Iterator[Server]:
    """``rummy serve`` with a games database of its own in ``folder`` (``RUMMY_DB``, kept
    across a restart of the server), stopped at the end."""
    running = Server(folder / "serve.log", {"RUMMY_DB": str(folder / "games.sqlite3")})
    running.start()
    try:
        yield running
    finally:
        running.stop()


@contextmanager
def chromium() -> Iterator[BrowserContext]:
    """Debian's Chromium, headless, with a fresh profile and no calls home."""
    if not HAVE_PLAYWRIGHT:
        _unavailable("Python playwright is not installed")
    if not CHROMIUM.exists():
        _unavailable(f"Chromium is missing at {CHROMIUM}")
    profile = tempfile.mkdtemp(prefix="rummy-chromium-")
    try:
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                profile,
                executable_path=str(CHROMIUM),
                headless=True,
                args=CHROMIUM_ARGS,
                viewport={"width": 1280, "height": 900},
            )
            context.set_default_timeout(TIMEOUT_MS)
            yield context
            context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


class Watched:
    """A page with the script errors and the hosts it reached, for the checks after each test."""

    def __init__(self, page: Page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self.errors: list[str] = []
        self.foreign: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("request", self._request)

    def _request(self, request: Any) -> None:
        url = request.url
        if not (url.startswith(self.base_url) or url.startswith("data:")):
            self.foreign.append(url)

    def check(self) -> None:
        """No script error on the page, nothing loaded from elsewhere."""
        assert not self.errors, f"script errors on the page: {self.errors}"
        assert not self.foreign, f"the page loaded something from elsewhere: {self.foreign}"


def shot(page: Page, name: str) -> None:
    """A full-page screenshot under test-artifacts/web/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


_CARD_WORDS = re.compile(r"\b(cards?|hands?|suits?|decks?)\b", re.IGNORECASE)
"""The card games' words, which Rummikub says as tiles, rack(s), colours and sets."""

_SHOWN_TEXTS = """() => {
  // Every text a person can see or hear now: the rendered text nodes, and the labels,
  // placeholders and titles of rendered elements.  The variant menus list every game, each
  // in its own words: only Rummikub's entry is Rummikub's.
  const shown = (node) => node.checkVisibility({ visibilityProperty: true });
  const otherGame = (node) => {
    const option = node.closest("option");
    const menu = option && option.closest("#variant, #puzzle-variant, #game-variant");
    return menu && option.value !== "rummikub";
  };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || parent.closest("script, style, svg") || otherGame(parent)) continue;
    const holder = parent.closest("option") ? parent.closest("select") : parent;
    if (shown(holder)) texts.push(node.textContent.trim());
  }
  for (const node of document.body.querySelectorAll("[aria-label], [placeholder], [title]")) {
    if (!shown(node)) continue;
    for (const name of ["aria-label", "placeholder", "title"]) {
      if (node.hasAttribute(name)) texts.push(node.getAttribute(name));
    }
  }
  return texts;
}"""


def card_words_shown(page: Page) -> list[str]:
    """The texts shown now that say card, hand, suit or deck (none should, in Rummikub)."""
    texts: list[str] = page.evaluate(_SHOWN_TEXTS)
    return [text for text in texts if _CARD_WORDS.search(text)]

"""`memo-tui serve` in a process of its own, and a headless Chromium to open it (the serve tests and
screenshots/browser.py)."""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")  # Debian's, not a downloaded build
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


@contextmanager
def serving(store: Path, *options: str) -> Iterator[str]:
    """Serve the store on 127.0.0.1 at a free port (--port 0); yield the URL the server prints. The server
    is always stopped, and once it has stopped no app process it started may be left."""
    with tempfile.TemporaryFile("w+") as errors:
        command = [sys.executable, "-m", "memo_tui", "--db", str(store), "serve", "--port", "0", *options]
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True, start_new_session=True)
        try:
            ready, _, _ = select.select([server.stdout], [], [], 60)
            line = server.stdout.readline() if ready else ""
            found = re.search(r"http://\S+", line)
            if not found:
                errors.seek(0)
                raise AssertionError(f"memo-tui serve did not start: {line!r} {errors.read()!r}")
            yield found.group(0)
        finally:
            stop(server)


def stop(server: subprocess.Popen) -> None:
    """SIGTERM, as a service manager stops it; the app processes it started must end with it (the last
    may still be closing its store as the server exits: a few seconds are allowed for that)."""
    server.terminate()
    try:
        server.wait(30)
        stopped = True
    except subprocess.TimeoutExpired:
        stopped = False
    left = stopped and group_alive(server.pid, seconds=10)
    if left or not stopped:
        os.killpg(server.pid, signal.SIGKILL)
    server.wait()
    assert stopped, "memo-tui serve did not stop on SIGTERM"
    assert not left, "app processes outlived the server"


def group_alive(group: int, seconds: float) -> bool:
    for _ in range(int(seconds * 10)):
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.1)
    return True


@contextmanager
def chromium() -> Iterator:
    """A headless Chromium driven by Playwright (whose own browser downloads are never used)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            yield browser
        finally:
            browser.close()


class Terminal:
    """What the app in a browser tab has written to its terminal, as text (escape sequences dropped).
    The bytes come from the page's websocket: what the xterm canvas draws is no text to read."""

    def __init__(self, page) -> None:
        self.page = page
        self.written = bytearray()
        page.on("websocket", lambda socket: socket.on("framereceived", self._received))

    def _received(self, payload: bytes | str) -> None:
        if isinstance(payload, bytes):  # the app's output; text frames are textual-serve's own messages
            self.written += payload

    def mark(self) -> int:
        """Where the output is now: wait_for(..., after=mark) looks only at what comes later."""
        return len(self.written)

    def text(self, after: int = 0) -> str:
        return ESCAPES.sub("", self.written[after:].decode(errors="replace"))

    def wait_for(self, text: str, after: int = 0, seconds: float = 30) -> None:
        """Until the app has written this text (Playwright's events arrive while it waits)."""
        for _ in range(int(seconds * 10)):
            if text in self.text(after):
                return
            self.page.wait_for_timeout(100)
        raise AssertionError(f"the tab never showed {text!r}")

    def wait_until_quiet(self, seconds: float = 1) -> None:
        """Until the app has written nothing for this long (its screen is drawn)."""
        quiet, last = 0, len(self.written)
        while quiet < seconds * 10:
            self.page.wait_for_timeout(100)
            quiet, last = (quiet + 1, last) if len(self.written) == last else (0, len(self.written))


def open_tab(browser, url: str, size: tuple[int, int] = (1400, 900)):
    """A new tab on the review app, its terminal focused (keys go to the app) and its queue shown."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    terminal = Terminal(page)
    response = page.goto(url)
    assert response is not None and response.ok, f"the page answered {response and response.status}"
    terminal.wait_for("Queue —")
    page.locator(".xterm-helper-textarea").focus()
    return page, terminal

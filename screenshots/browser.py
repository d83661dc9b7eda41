"""Make the README's picture of the review app in a browser: `memo-tui serve` on the demo store, opened
by headless Chromium (Debian's `chromium`; Playwright from the test extra drives it).

Run:  .venv/bin/python screenshots/browser.py
Builds the demo store in a temporary directory and writes screenshots/browser.png.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from webserve import chromium, open_tab, serving  # noqa: E402

from memo_tui.engine.demo import build_demo  # noqa: E402
from memo_tui.store import db  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["MEMO_TUI_CONFIG"] = str(Path(tmp) / "no-config.toml")  # the default keys and theme
        store = Path(tmp) / "demo.db"
        build_demo(str(store))
        db.close()
        with chromium() as browser, serving(store, "--as", "alice") as url:
            page, terminal = open_tab(browser, url, size=(1280, 720))
            terminal.wait_for("likely up to")  # the first item's detail
            terminal.wait_until_quiet()
            page.screenshot(path=str(HERE / "browser.png"))
    print("screenshots/browser.png")


if __name__ == "__main__":
    main()

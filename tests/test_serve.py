"""`memo-tui serve`: the review app in a real browser (headless Chromium), the token, and its errors.

Every server here is `memo-tui serve` in a process of its own on 127.0.0.1 at a free port
(tests/webserve.py), stopped at the end of its test with no app process left behind.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from importlib.util import find_spec
from urllib.parse import urlsplit

import aiohttp
import pytest
from webserve import CHROMIUM, chromium, open_tab, serving

from memo_tui.engine.demo import build_demo
from memo_tui.engine.review import decisions
from memo_tui.engine.review.clusters import group
from memo_tui.engine.review.queue import pending
from memo_tui.store import db

TOKEN = "t0ken-for-the-tests-only_x"


@pytest.fixture
def browser():
    """Headless Chromium, or a clean skip where none can be had (CI installs one: there it must be)."""
    missing = [name for name, found in (("chromium", CHROMIUM), ("playwright", find_spec("playwright"))) if not found]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI runs the browser tests, but there is no {' and no '.join(missing)} (see .ci/run)")
        pytest.skip(f"no {' and no '.join(missing)} here (apt-get install chromium; the test extra)")
    with chromium() as launched:
        yield launched


@pytest.fixture
def demo_on(store_location, monkeypatch, tmp_path):
    """The demo store built on each backend (a team's shared store is PostgreSQL's), bound here too."""
    monkeypatch.setenv("MEMO_TUI_CONFIG", str(tmp_path / "no-config.toml"))
    build_demo(store_location)
    yield store_location
    db.close()
    db.initialize(None)


def human_decisions() -> list[decisions.DecisionView]:
    return decisions.history("default", who="human")


def wait_until(page, condition, what: str) -> None:
    for _ in range(300):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.slow
def test_m_pressed_in_the_browser_records_the_decision_under_the_reviewers_name(demo_on, browser):
    first = group("default", pending("default"))[0]
    with serving(demo_on, "--as", "alice") as url:
        page, _ = open_tab(browser, url)
        page.keyboard.press("m")
        wait_until(page, human_decisions, "the decision in the store")
    made = human_decisions()
    assert [(d.actor, d.channel) for d in made] == [("alice", "tui")] * len(made)
    assert first.id not in {q.id for q in group("default", pending("default"))}
    assert first.left_name in made[0].summary


@pytest.mark.slow
def test_a_decision_shows_up_in_the_other_tab_and_one_from_a_terminal_in_both(demo_store, browser):
    with serving(demo_store, "--as", "alice", "--token", TOKEN) as url:
        deciding, _ = open_tab(browser, url)
        watching, screen = open_tab(browser, url)
        watching.keyboard.press("3")  # the history: its title counts the decisions
        screen.wait_for(f"History — {len(decisions.history('default'))} shown")
        seen = screen.mark()
        deciding.keyboard.press("m")
        wait_until(deciding, human_decisions, "the first tab's decision")
        screen.wait_for(f"History — {len(decisions.history('default'))} shown", after=seen)

        seen = screen.mark()
        other = group("default", pending("default"))[0]
        reject = ["graph", "reject", str(other.id), "--as", "bob"]  # another reviewer, in a terminal
        subprocess.run([sys.executable, "-m", "memo_tui", "--db", str(demo_store), *reject], check=True)
        screen.wait_for(f"History — {len(decisions.history('default'))} shown", after=seen)
        screen.wait_for("bob", after=seen)
    assert {d.actor for d in human_decisions()} == {"alice", "bob"}


@pytest.mark.slow
def test_without_the_token_the_browser_gets_neither_the_page_nor_the_websocket(demo_store, browser, monkeypatch):
    monkeypatch.setenv("MEMO_TUI_TOKEN", TOKEN)  # the token from the environment, not --token
    with serving(demo_store) as url:
        assert url.endswith(f"/{TOKEN}/")
        origin = url.removesuffix(f"{TOKEN}/")
        page = browser.new_page()
        assert page.goto(origin).status == 403
        assert "needs its token" in page.content()
        assert page.goto(origin + "wrong-token-0123456789/").status == 403
        opening = "url => new Promise(done => { const s = new WebSocket(url); s.onopen = () => done('open'); "
        opening += "s.onerror = () => done('refused'); })"
        ws = "ws" + origin.removeprefix("http")
        assert page.evaluate(opening, ws + "ws") == "refused"
        assert page.goto(url).ok  # the same page and websocket with the token: the app runs
        assert page.evaluate(opening, f"{ws}{TOKEN}/ws") == "open"
    assert human_decisions() == []


@pytest.mark.slow
def test_the_token_and_the_origin_are_checked_on_every_route(demo_store):
    """The same refusals without a browser (aiohttp's client), so they are tested on every machine."""

    async def probe(url: str, origin: str) -> dict[str, int]:
        async with aiohttp.ClientSession() as session:
            found = {}
            for name, path in (("page", ""), ("static", "static/js/textual.js")):
                async with session.get(origin + path) as response:
                    found[name] = response.status
                async with session.get(url + path) as response:
                    found[name + " with token"] = response.status
            for name, target, sent_origin in (
                ("websocket", origin + "ws", origin.rstrip("/")),
                ("websocket with token", url + "ws", origin.rstrip("/")),
                ("websocket from another site", url + "ws", "http://elsewhere.example"),
                ("websocket from the page as localhost", url + "ws", f"http://localhost:{urlsplit(url).port}"),
            ):
                try:
                    async with session.ws_connect(target, origin=sent_origin) as ws:
                        found[name] = 101
                        await ws.close()
                except aiohttp.WSServerHandshakeError as refused:
                    found[name] = refused.status
            return found

    with serving(demo_store, "--token", TOKEN) as url:
        found = asyncio.run(probe(url, url.removesuffix(f"{TOKEN}/")))
    assert found == {
        "page": 403,
        "page with token": 200,
        "static": 403,
        "static with token": 200,
        "websocket": 403,
        "websocket with token": 101,
        "websocket from another site": 403,
        "websocket from the page as localhost": 101,
    }


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--host", "0.0.0.0"], "serving beyond this machine (0.0.0.0) needs a token: --token T or MEMO_TUI_TOKEN"),
        (["--host", "no-such-host.invalid"], "--host 'no-such-host.invalid' is not an address or a name"),
        (["--host", "192.0.2.1", "--token", TOKEN], "cannot listen on 192.0.2.1 port 0: Cannot assign"),
        (["--token", "short"], "the token must be 16 or more letters, digits, '-' or '_'"),
        (["--port", "70000"], "--port must be 0 (any free port) to 65535, not 70000"),
        (["--port", "HELD"], "is in use: give another with --port"),
    ],
)
def test_a_server_that_cannot_start_says_why_in_one_line(tmp_path, options, said):
    held = socket.create_server(("127.0.0.1", 0))
    port = str(held.getsockname()[1])
    options = [port if option == "HELD" else option for option in options]
    if "--port" not in options:
        options += ["--port", "0"]
    env = {k: v for k, v in os.environ.items() if k != "MEMO_TUI_TOKEN"}
    with held:
        done = subprocess.run(
            [sys.executable, "-m", "memo_tui", "--db", str(tmp_path / "s.db"), "serve", *options],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("memo-tui: ") and said in done.stderr


def test_without_the_extra_the_command_says_what_to_install(tmp_path, monkeypatch, capsys):
    from memo_tui.cli import main
    from memo_tui.store import db

    monkeypatch.setitem(sys.modules, "textual_serve.server", None)  # as if textual-serve were not installed
    monkeypatch.delitem(sys.modules, "memo_tui.tui.serve", raising=False)
    code = main(["--db", str(tmp_path / "s.db"), "serve"])
    db.close()
    db.initialize(None)
    assert code == 2
    said = "memo-tui: serving in a browser needs textual-serve: pip install 'memo-tui[serve]'\n"
    assert capsys.readouterr().err == said

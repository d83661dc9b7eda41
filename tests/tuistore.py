"""A demo store built once with a fixed clock, copied for each TUI test; helpers to drive the app."""

from __future__ import annotations

import asyncio
import functools
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from textual.worker import WorkerState

from memo_tui.engine.demo import build_demo
from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.review import decisions
from memo_tui.store import db
from memo_tui.tui.app import MemoApp

REVIEWER = "reviewer"


class FixedClock:
    """Decision times that are the same on every run: one minute apart from a fixed start."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "template.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(decisions, "utcnow", FixedClock(datetime(2026, 5, 4, 9, 0)))
        build_demo(str(path))
    db.close()
    return path


@pytest.fixture
def demo_store(demo_template, tmp_path, monkeypatch):
    """A fresh copy of the demo store named demo.db, bound to the models, with a fixed clock."""
    path = tmp_path / "demo.db"
    shutil.copy(demo_template, path)
    monkeypatch.setattr(decisions, "utcnow", FixedClock(datetime(2026, 5, 5, 10, 0)))
    monkeypatch.setenv("MEMO_TUI_CONFIG", str(tmp_path / "no-config.toml"))
    database = open_store(str(path))
    yield path
    database.close()
    db.initialize(None)


def demo_app() -> MemoApp:
    return MemoApp("demo.db", actor=REVIEWER)


async def settle(pilot) -> None:
    """Wait until no worker is pending or running, and the messages they sent have been handled
    (twice in a row: a handled message may start another worker)."""
    quiet = 0
    for _ in range(400):
        await pilot.pause(0.01)
        busy = any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in pilot.app.workers)
        busy = busy or len(pilot.app.screen_stack) < 2  # the review or welcome screen is not up yet
        busy = busy or any(pane.questions is None for pane in pilot.app.screen.query("QueuePane"))
        quiet = 0 if busy else quiet + 1
        if quiet >= 3:
            return
    raise AssertionError("the app did not settle within 4 seconds")


async def wait_for(pilot, condition, what: str) -> None:
    for _ in range(400):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def select_question(pilot, left: str, right: str) -> None:
    """Move the queue cursor to the question between these two names."""
    await settle(pilot)
    screen = pilot.app.screen
    pane = screen.query_one("QueuePane")
    for index, q in enumerate(pane.questions):
        if {q.left_name, q.right_name} == {left, right}:
            screen.query_one("#queue-table").move_cursor(row=index)
            await settle(pilot)
            return
    raise AssertionError(f"no question {left} / {right} in the queue")


def pilot_test(test):
    """Run an async test function in its own event loop (no asyncio plugin needed)."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        return asyncio.run(test(*args, **kwargs))

    return run

"""Regenerate the README's screenshots from the demo store, driving the app headless.

Run:  .venv/bin/python screenshots/generate.py
Builds the demo store in a temporary directory with the fixed clock the snapshot tests use (so the
history shows the same times on every run) and writes one SVG per scene next to this file.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from tuistore import REVIEWER, FixedClock, select_question, settle  # noqa: E402

from memo_tui.engine.demo import build_demo  # noqa: E402
from memo_tui.engine.graph.opening import open_store  # noqa: E402
from memo_tui.engine.review import decisions  # noqa: E402
from memo_tui.store import db  # noqa: E402
from memo_tui.tui.app import MemoApp  # noqa: E402


async def queue(pilot) -> None:
    await settle(pilot)


async def name_pair(pilot) -> None:
    await select_question(pilot, "GitHub Actions", "github-actions")


async def cluster(pilot) -> None:
    await settle(pilot)
    await pilot.press("tab", "j", "j", "space")
    await settle(pilot)


async def neighbourhood(pilot) -> None:
    await select_question(pilot, "Dmitri Novak", "D. Novak")
    await pilot.press("e")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def history(pilot) -> None:
    await settle(pilot)
    await pilot.press("m")  # the first item: the Claude Code cluster, folded as one decision
    await settle(pilot)
    await pilot.press("3")
    await settle(pilot)


async def help_screen(pilot) -> None:
    await settle(pilot)
    await pilot.press("question_mark")
    await settle(pilot)


SCENES = [
    ("queue", (120, 36), queue),
    ("name-pair", (120, 36), name_pair),
    ("cluster", (120, 36), cluster),
    ("neighbourhood", (120, 36), neighbourhood),
    ("history", (120, 36), history),
    ("help", (120, 36), help_screen),
    ("narrow-80x24", (80, 24), name_pair),
    ("cluster-80x24", (80, 24), queue),
]


async def shoot(template: Path, work: Path, name: str, size: tuple[int, int], scene) -> None:
    (work / name).mkdir()
    store = work / name / "demo.db"  # a directory per scene: no WAL file left from the one before
    store.write_bytes(template.read_bytes())
    decisions.utcnow = FixedClock(datetime(2026, 5, 5, 10, 0))
    database = open_store(str(store))
    app = MemoApp("demo.db", actor=REVIEWER)
    async with app.run_test(size=size, notifications=True) as pilot:
        await scene(pilot)
        await pilot.pause(0.3)
        await settle(pilot)
        app.save_screenshot(filename=f"{name}.svg", path=str(HERE))
    database.close()
    print(f"screenshots/{name}.svg")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        template = work / "template.db"
        decisions.utcnow = FixedClock(datetime(2026, 5, 4, 9, 0))
        build_demo(str(template))
        db.close()
        for name, size, scene in SCENES:
            asyncio.run(shoot(template, work, name, size, scene))


if __name__ == "__main__":
    main()

"""The review app on a store of about 1M mentions, driven headless with Pilot.

Run:  .venv/bin/python benchmarks/bench_graph.py          # builds /tmp/memo-bench-graph.db once
      .venv/bin/python benchmarks/bench_tui.py [--store /tmp/memo-bench-graph.db] [--decisions 20]
Runs a resolution pass first when the store has no pending questions. Prints the time from start
until the queue is on screen, and per decision key (m) the time until the queue has dropped the
answered question and the detail pane holds the next one (the screen is painted on the next frame,
at most 1/60 s later); the item answered is the first name question or cluster (a cluster's `m`
folds its members). Aims: open < 1 s, decision < 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.store import Mention, Question
from memo_tui.tui.app import MemoApp

NS = "default"


async def wait_until(pilot, condition, limit: float = 20.0) -> float:
    started = time.perf_counter()
    while not condition():
        if time.perf_counter() - started > limit:
            screen = pilot.app.screen
            raise TimeoutError(
                f"the app did not get there: selected {screen.question_id}, "
                f"detail shows {screen.query_one('DetailPane').question_id}, busy {screen.busy}"
            )
        await asyncio.sleep(0.001)
    return time.perf_counter() - started


async def drive(decisions: int) -> None:
    started = time.perf_counter()
    app = MemoApp("bench.db", actor="bench")
    async with app.run_test(size=(120, 36)) as pilot:

        def queue_shown() -> bool:
            panes = app.screen.query("QueuePane")
            return bool(panes) and bool(panes.first().questions)

        await wait_until(pilot, queue_shown)
        print(f"open -> queue on screen: {(time.perf_counter() - started) * 1000:.0f} ms")
        screen = app.screen
        queue = screen.query_one("QueuePane")
        detail = screen.query_one("DetailPane")
        timings = []
        for _ in range(decisions):
            pairs = [i for i, q in enumerate(queue.questions) if q.kind in ("entity_pair", "name_cluster")]
            if not pairs:
                break
            screen.query_one("#queue-table").move_cursor(row=pairs[0])
            answered = queue.questions[pairs[0]].id
            await wait_until(pilot, lambda a=answered: screen.question_id == a and not screen.busy)
            await pilot.pause(0.05)
            started = time.perf_counter()
            app.simulate_key("m")  # posted as a terminal would; Pilot.press would add its own waiting

            def updated(a=answered) -> bool:
                gone = all(q.id != a for q in queue.questions)
                return gone and detail.question_id not in (None, a) and detail.question_id == screen.question_id

            await wait_until(pilot, updated)
            timings.append((time.perf_counter() - started) * 1000)
        if timings:
            ordered = sorted(timings)
            p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
            print(
                f"decision (m) -> queue and detail updated: p50 {statistics.median(timings):.0f} ms, p95 {p95:.0f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default="/tmp/memo-bench-graph.db")
    parser.add_argument("--decisions", type=int, default=20)
    args = parser.parse_args()
    open_store(args.store)
    print(f"store: {Mention.select().count()} mentions")
    if not Question.select().where(Question.status == "pending").exists():
        report = resolve(NS)
        print(f"resolution pass first: {report.queued} queued, {report.seconds:.0f} s")
    asyncio.run(drive(args.decisions))


if __name__ == "__main__":
    main()

"""SQLite beside PostgreSQL in one run: ingest, a resolution pass, and a reviewer's answer latency
(alone, and while another process runs a pass on the same store).

Run:  .venv/bin/python benchmarks/bench_backends.py --pg postgresql://postgres@127.0.0.1:PORT/postgres \
          [--passages 50000]
      (`.ci/postgres start /tmp/pgbench` starts a throwaway server and prints its URL)
Passages: the first N real package summaries of tests/data/real/summaries.jsonl.gz. Each backend gets
a new store (a temporary SQLite file; a new PostgreSQL database, dropped at the end).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.engine.review import decisions
from memo_tui.engine.review.queue import pending
from memo_tui.store import db
from memo_tui.text.sources import PassageRecord, parse_time

ROOT = Path(__file__).resolve().parents[1]
NS = "default"


def records(n: int) -> list[PassageRecord]:
    out = []
    with gzip.open(ROOT / "tests/data/real/summaries.jsonl.gz", "rt") as lines:
        for line in lines:
            row = json.loads(line)
            created = parse_time(row["created_at"]) if row.get("created_at") else None
            out.append(PassageRecord(row["id"], row["text"], row.get("source", ""), created))
            if len(out) == n:
                break
    return out


def percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(0.95 * len(samples)))]
    return f"p50 {statistics.median(samples) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms (n={len(samples)})"


def answer_each(questions, while_running=None) -> list[float]:
    """Reject each question in its own transaction; the time of each (only those made while
    `while_running` is still running, when given)."""
    took = []
    for q in questions:
        if while_running is not None and while_running.poll() is not None:
            break
        started = time.perf_counter()
        decisions.answer(NS, q.id, "reject", "bench", "cli")
        took.append(time.perf_counter() - started)
    return took


def run(location: str, passages: list[PassageRecord], label: str) -> None:
    first, second = passages[: len(passages) * 2 // 3], passages[len(passages) * 2 // 3 :]
    open_store(location)
    started = time.perf_counter()
    ingest_records(NS, first)
    ingest_s = time.perf_counter() - started
    report = resolve(NS, cap=100_000)
    print(f"{label}: ingest {len(first):,} passages {ingest_s:.1f} s ({len(first) / ingest_s:,.0f}/s)")
    print(f"{label}: resolution pass {report.seconds:.1f} s ({report.entities:,} entities, {report.folded} folded, "
          f"{report.queued:,} queued)")  # fmt: skip
    questions = [q for q in pending(NS) if q.kind == "entity_pair"]
    print(f"{label}: answer, store idle: {percentiles(answer_each(questions[:100]))}")
    # more passages, then a pass in another process while the reviewer goes on answering
    ingest_records(NS, second)
    db.close()
    passing = subprocess.Popen([sys.executable, "-m", "memo_tui", "--db", location, "resolve", "--cap", "100000"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    time.sleep(1.5)  # the pass has opened the store and is blocking and judging
    db.connect()
    during = answer_each(questions[100:], while_running=passing)
    out, err = passing.communicate()
    print(f"{label}: answer during a pass: {percentiles(during) if during else 'the pass ended first'}"
          f"{'' if passing.returncode == 0 else f' (the pass failed: {err.strip()})'}")  # fmt: skip
    db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", required=True, help="a PostgreSQL server URL the benchmark may create a database on")
    parser.add_argument("--passages", type=int, default=50_000)
    args = parser.parse_args()
    passages = records(args.passages)
    with tempfile.TemporaryDirectory() as tmp:
        run(str(Path(tmp) / "bench.db"), passages, "sqlite")
        db.close()
    import psycopg

    name = f"memo_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.pg, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        run(args.pg.rsplit("/", 1)[0] + "/" + name, passages, "postgres")
        db.close()
    finally:
        with psycopg.connect(args.pg, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()

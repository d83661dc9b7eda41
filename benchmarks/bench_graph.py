"""Graph queries on a store of about 1M mentions: 200k passages naming 5 of 100k entities each.

Run:  .venv/bin/python benchmarks/bench_graph.py [--passages 200000] [--entities 100000] [--store PATH]
Ingests the corpus (kept at --store and reused when it exists), then prints the first cache build,
related() p50/p95 over random entities, explore(hops=2) p50/p95, the links written and peak RSS.
Floors: related p95 50 ms, explore p95 300 ms; aims 10 ms and 100 ms.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time
from pathlib import Path

from corpus import passages

from memo_tui.engine.graph.links import count_links
from memo_tui.engine.graph.neighbourhood import explore, graph_for, related
from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.ingest import ingest_records
from memo_tui.store import Entity, Mention
from memo_tui.text.sources import PassageRecord

NS = "default"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--passages", type=int, default=200_000)
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--store", default="/tmp/memo-bench-graph.db")
    parser.add_argument("--queries", type=int, default=1000)
    args = parser.parse_args()
    fresh = not Path(args.store).exists()
    open_store(args.store)
    if fresh:
        started = time.perf_counter()
        records = [
            PassageRecord(p["id"], p["text"], p["source"])
            for p in passages(args.passages, names_in_pool=args.entities, per_passage=5, words=40)
        ]
        ingest_records(NS, records)
        print(f"ingest {args.passages} passages: {time.perf_counter() - started:.1f} s")
    print(f"store: {Entity.select().count()} entities, {Mention.select().count()} mentions, {count_links(NS)} links")

    started = time.perf_counter()
    graph = graph_for(NS)
    print(f"first cache build: {time.perf_counter() - started:.2f} s")
    rng = random.Random(3)
    names = sorted(name for name, _ in graph.names.values())
    timings = []
    for name in rng.sample(names, min(args.queries, len(names))):
        started = time.perf_counter()
        related(NS, name)
        timings.append((time.perf_counter() - started) * 1000)
    print(f"related: p50 {statistics.median(timings):.2f} ms, p95 {percentile(timings, 0.95):.2f} ms")
    hub = max(graph.passages_of, key=lambda e: len(graph.passages_of[e]))
    timings = []
    for name in [*rng.sample(names, min(args.queries // 5, len(names))), graph.names[hub][0]]:
        started = time.perf_counter()
        explore(NS, name, hops=2)
        timings.append((time.perf_counter() - started) * 1000)
    print(f"explore hops=2: p50 {statistics.median(timings):.2f} ms, p95 {percentile(timings, 0.95):.2f} ms")
    print(f"peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")


if __name__ == "__main__":
    main()

"""Ingest throughput: N short passages (about 60 words, 5 names each) into a fresh SQLite store.

Run:  .venv/bin/python benchmarks/bench_ingest.py [--passages 100000]
Prints passages per second and peak resident memory (this process, and the extraction process
that large ingests start).
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import passages  # noqa: E402

from memo_tui.engine.graph.opening import open_store  # noqa: E402
from memo_tui.engine.ingest import ingest_records  # noqa: E402
from memo_tui.store import Entity, Mention  # noqa: E402
from memo_tui.text.sources import parse_object  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=100_000)
    args = parser.parse_args()
    records = [parse_object(row, "bench") for row in passages(args.passages)]
    with tempfile.TemporaryDirectory() as tmp:
        database = open_store(str(Path(tmp) / "bench.db"))
        started = time.perf_counter()
        report = ingest_records("default", records)
        seconds = time.perf_counter() - started
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        child_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"passages      {report.passages_new}")
        print(f"mentions      {Mention.select().count()}")
        print(f"entities      {Entity.select().count()}")
        print(f"seconds       {seconds:.2f}")
        print(f"passages/s    {report.passages_new / seconds:,.0f}")
        print(f"peak RSS MB   {peak_mb:.0f} (extraction process: {child_mb:.0f})")
        database.close()


if __name__ == "__main__":
    main()

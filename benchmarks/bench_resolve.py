"""The resolution pass on stores of realistic entity names, against a brute-force baseline.

Run:  .venv/bin/python benchmarks/bench_resolve.py [--sizes 10000 100000 1000000] [--brute 10000 30000] [--once]
          [--passages 1000]
For each size: build a store (entities plus one mention each, bulk inserted, spread over --passages
passages: 1,000 by default, as the figures of earlier sessions were measured), run one dry-run pass
(blocking + judging, no writes), one real pass and a second one, and print seconds, pairs and peak
memory as each step ends (the real pass's also summed with the processes it started: `TreePeak`);
--once runs the real pass only (a million names take minutes a pass). The baseline times rapidfuzz's
cdist (Levenshtein on merge keys, all pairs, both cores) and prints the pairs it compared and the
ratio to the blocked pass's candidate pairs.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import entity_names  # noqa: E402
from rapidfuzz import process  # noqa: E402
from rapidfuzz.distance import Levenshtein  # noqa: E402

from memo_tui.engine.graph.opening import open_store  # noqa: E402
from memo_tui.engine.resolve.resolver import resolve  # noqa: E402
from memo_tui.names.blocking import candidate_pairs  # noqa: E402
from memo_tui.names.keys import identity_key, merge_key  # noqa: E402
from memo_tui.names.rules import Name  # noqa: E402
from memo_tui.store import Entity, Mention, Passage, db, utcnow  # noqa: E402
from memo_tui.store.statements import Inserter, refresh_statistics  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class TreePeak:
    """The most memory this process and the processes it starts (a pass runs the edit-distance
    index, or the judging, in a second one) held at once: their RSS summed, sampled every 0.1 s from
    /proc (Linux; elsewhere `mb` stays 0). ru_maxrss is one process's own peak."""

    def __init__(self) -> None:
        self.mb = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> TreePeak:
        if Path("/proc/self/statm").exists():
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _sample(self) -> None:
        page = os.sysconf("SC_PAGE_SIZE") / 2**20
        while not self._stop.wait(0.1):
            self.mb = max(self.mb, sum(_resident(pid) for pid in _tree(os.getpid())) * page)


def _tree(pid: int) -> list[int]:
    """The process and its descendants, from the children each of its threads started."""
    out, todo = [], [pid]
    while todo:
        at = todo.pop()
        out.append(at)
        for task in Path(f"/proc/{at}/task").glob("*/children"):
            try:
                todo += map(int, task.read_text().split())
            except OSError:  # it ended meanwhile
                pass
    return out


def _resident(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except OSError:
        return 0


def build(names: list[str], passages_count: int = 1000) -> None:
    now = utcnow()
    entities = Inserter(Entity, ("namespace", "name", "identity_key", "merge_key", "type", "created_at"))
    passages = Inserter(Passage, ("namespace", "external_id", "text", "source", "created_at", "ingested_at"))
    mentions = Inserter(Mention, ("passage", "entity", "surface", "surface_key", "source", "weight", "active"))
    seen: set[str] = set()
    with db.atomic():
        rows = []
        for name in names:
            key = identity_key(name)
            if key and key not in seen:
                seen.add(key)
                rows.append(("default", name, key, merge_key(key), None, now))
        entities.many(rows)
        passage_ids = passages.ids([("default", f"p{i}", "text", "bench", now, now) for i in range(passages_count)])
        ids = [row[0] for row in Entity.select(Entity.id, Entity.identity_key).order_by(Entity.id).tuples()]
        keys = [row[2] for row in rows]
        mentions.many(
            (passage_ids[(i * 7) % passages_count], entity_id, key, key, "capitalised", 1.0, True)
            for i, (entity_id, key) in enumerate(zip(ids, keys, strict=True))
        )
    refresh_statistics()  # as an ingest leaves a store


def bench_pass(size: int, once: bool = False, passages_count: int = 1000) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        database = open_store(str(Path(tmp) / "bench.db"))
        started = time.perf_counter()
        build(entity_names(size), passages_count)  # the names are let go: the peak is the pass's
        say(f"{size:>9,} entities  build {time.perf_counter() - started:6.1f} s")
        if not once:
            dry = resolve("default", dry_run=True)
            say(f"  dry run {dry.seconds:6.1f} s, {dry.pairs_judged:,} judged | peak RSS {peak_mb():,.0f} MB")
        with TreePeak() as tree:
            real = resolve("default")
        say(f"  pass {real.seconds:6.1f} s: {real.pairs_judged:,} judged, {real.folded:,} folded, {real.queued} queued,"
            f" {real.deferred:,} deferred | peak RSS {peak_mb():,.0f} MB, with the processes it started"
            f" {tree.mb:,.0f} MB")  # fmt: skip
        if not once:
            again = resolve("default")
            say(f"  second pass {again.seconds:5.1f} s, {again.folded} folded | peak RSS {peak_mb():,.0f} MB")
        database.close()


def say(line: str) -> None:
    print(line, flush=True)  # each step as it ends: a long run shows how far it got


def bench_brute(size: int) -> None:
    keys = [merge_key(n) for n in entity_names(size)]
    started = time.perf_counter()
    process.cdist(keys, keys, scorer=Levenshtein.distance, score_cutoff=2, workers=-1, dtype="uint8")
    brute = time.perf_counter() - started
    started = time.perf_counter()
    blocked = candidate_pairs([Name(i, n) for i, n in enumerate(entity_names(size))])
    blocking = time.perf_counter() - started
    compared = size * size
    print(
        f"{size:>9,} names  brute-force cdist {brute:6.1f} s over {compared:,} pairs | blocking {blocking:5.1f} s, "
        f"{len(blocked):,} candidate pairs | {compared / max(1, len(blocked)):,.0f}x fewer pairs, "
        f"{brute / blocking:.1f}x the time"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--brute", type=int, nargs="*", default=[10_000, 30_000])
    parser.add_argument("--once", action="store_true", help="the real pass only, no dry run or second pass")
    parser.add_argument(
        "--passages",
        type=int,
        default=1000,
        help="the passages the names are spread over (1,000: a million names"
        " give each 1,000 company; 200,000 gives five, as real passages have)",
    )
    args = parser.parse_args()
    for size in args.sizes:  # passes first: the brute-force matrices would dominate peak memory
        bench_pass(size, args.once, args.passages)
    for size in args.brute:
        bench_brute(size)


if __name__ == "__main__":
    main()

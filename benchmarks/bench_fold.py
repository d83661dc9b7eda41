"""Fold and revert an entity with 10k mentions and 1k relations (floor 200 ms each, aim 50 ms).

Run:  .venv/bin/python benchmarks/bench_fold.py [--mentions 10000] [--relations 1000] [--rounds 5]
Builds the store with bulk inserts, then times manual fold + revert through the audit-logged API.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.review import decisions
from memo_tui.store import Entity, Mention, Passage, Relation, db, utcnow
from memo_tui.store.statements import Inserter
from memo_tui.text.sources import PassageRecord


def build(mentions: int, relations: int) -> None:
    names = [{"name": n, "type": None} for n in ("Acme Gateway", "Acme gateway", "Other Thing")]
    ingest_records("default", [PassageRecord("seed", "Three names.", "bench", entities=names)])
    canonical = Entity.get(Entity.name == "Acme Gateway")
    absorbed = Entity.get(Entity.name == "Acme gateway")
    other = Entity.get(Entity.name == "Other Thing")
    now = utcnow()
    passages = Inserter(Passage, ("namespace", "external_id", "text", "source", "created_at", "ingested_at"))
    mention = Inserter(Mention, ("passage", "entity", "surface", "surface_key", "source", "weight", "active"))
    relation = Inserter(Relation, ("src", "predicate", "dst", "src_key", "dst_key", "passage", "confidence", "active"))
    with db.atomic():
        ids = [passages.one(("default", f"p{i}", "text", "bench", now, now)) for i in range(mentions)]
        rows = [(pid, absorbed.id, "Acme gateway", "Acme gateway", "capitalised", 1.0, True) for pid in ids]
        # every tenth passage also names the canonical: those mentions become twins
        rows += [(pid, canonical.id, "Acme Gateway", "Acme Gateway", "capitalised", 1.0, True) for pid in ids[::10]]
        mention.many(rows)
        relation.many(
            (absorbed.id, "uses", other.id, "Acme gateway", "Other Thing", ids[i], 1.0, True) for i in range(relations)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mentions", type=int, default=10_000)
    parser.add_argument("--relations", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        database = open_store(str(Path(tmp) / "bench.db"))
        build(args.mentions, args.relations)
        fold_ms, revert_ms = [], []
        for _ in range(args.rounds):
            started = time.perf_counter()
            decision = decisions.manual_fold("default", "Acme gateway", "Acme Gateway", "bench", "cli")
            fold_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            decisions.revert("default", decision.id, "bench", "cli")
            revert_ms.append((time.perf_counter() - started) * 1000)
        print(f"absorbed entity: {args.mentions} mentions, {args.relations} relations; {args.rounds} rounds")
        print(f"fold    median {statistics.median(fold_ms):7.1f} ms   max {max(fold_ms):7.1f} ms")
        print(f"revert  median {statistics.median(revert_ms):7.1f} ms   max {max(revert_ms):7.1f} ms")
        database.close()


if __name__ == "__main__":
    main()

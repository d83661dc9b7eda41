"""Duplicate and contradiction detection over 100k live passages (floor 60 s, aim 10 s).

Run:  .venv/bin/python benchmarks/bench_conflicts.py [--passages 100000] [--vocabulary 20000] [--template]
Passages are about 60 words drawn Zipf-style from the most common English words (wordfreq), with 5
entity names each; 1% are copied from another source and 0.5% restated with a changed number. One
full detection (find_conflicts) is timed. The ingest benchmark's 80-word filler is not used here:
with so few words nearly every word 3-gram recurs thousands of times, which no real text does, and
the detector's cost is driven by exactly those recurring 3-grams.

--template: passages written from one template instead (`Order 17 of part 4017 ships from the Acme
warehouse in 3 days.`, naming the part and the warehouse), as exports and bots write them: once its
numbers are masked every passage looks like every other; 0.5% restate an order with a changed number.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import sys
import tempfile
import time
from itertools import accumulate
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import passages  # noqa: E402
from wordfreq import top_n_list  # noqa: E402

from memo_tui.engine.conflicts import find_conflicts  # noqa: E402
from memo_tui.engine.graph.opening import open_store  # noqa: E402
from memo_tui.engine.ingest import ingest_records  # noqa: E402
from memo_tui.text.sources import PassageRecord  # noqa: E402


def corpus(count: int, vocabulary: int = 20_000) -> list[PassageRecord]:
    rng = random.Random(5)
    words = top_n_list("en", vocabulary)
    cumulative = list(accumulate(1 / rank for rank in range(1, len(words) + 1)))

    def zipf_words(rng: random.Random, k: int) -> list[str]:
        return rng.choices(words, cum_weights=cumulative, k=k)

    rows = [PassageRecord(p["id"], p["text"], p["source"]) for p in passages(count, filler=zipf_words)]
    for n, original in enumerate(rng.sample(rows, count // 100)):
        rows.append(PassageRecord(f"copy{n}", original.text, "elsewhere"))
    for n, original in enumerate(rng.sample(rows[:count], count // 200)):
        words = original.text.split()
        words.insert(rng.randrange(1, len(words)), f"{rng.randrange(10, 99)}")
        changed = " ".join(words)
        rows.append(
            PassageRecord(f"changed{n}", re.sub(r"\d+", lambda m: str(int(m.group()) + 1), changed, count=1), "x")
        )
    return rows


def template_corpus(count: int) -> list[PassageRecord]:
    rng = random.Random(5)
    warehouses = [f"{name} warehouse" for name in ("Acme", "Harbor", "Lumen", "Nimbus", "Orbit")]
    rows = []
    for n in range(count):
        part, warehouse = f"part {4000 + n}", rng.choice(warehouses)
        text = f"Order {n} of {part} ships from the {warehouse} in {rng.randrange(1, 9)} days."
        rows.append(PassageRecord(f"t{n}", text, "export", entities=[{"name": part}, {"name": warehouse}]))
    for n, original in enumerate(rng.sample(rows, count // 200)):
        changed = re.sub(r"in (\d) days", lambda m: f"in {int(m.group(1)) + 1} days", original.text)
        rows.append(PassageRecord(f"changed{n}", changed, "chat", entities=original.entities))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=100_000)
    parser.add_argument("--vocabulary", type=int, default=20_000)
    parser.add_argument("--template", action="store_true", help="passages from one template (exports, bots)")
    args = parser.parse_args()
    records = template_corpus(args.passages) if args.template else corpus(args.passages, args.vocabulary)
    with tempfile.TemporaryDirectory() as tmp:
        database = open_store(str(Path(tmp) / "bench.db"))
        ingest_records("default", records)
        started = time.perf_counter()
        findings = find_conflicts("default")
        seconds = time.perf_counter() - started
        kinds = {kind: sum(f.kind == kind for f in findings) for kind in ("duplicate", "contradiction")}
        print(f"live passages   {len(records)}")
        print(f"duplicates      {kinds['duplicate']} (planted {0 if args.template else args.passages // 100})")
        print(f"contradictions  {kinds['contradiction']} (planted {args.passages // 200})")
        print(f"seconds         {seconds:.2f}")
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"peak RSS MB     {own:.0f} (largest child process: {child:.0f})")
        database.close()


if __name__ == "__main__":
    main()

"""Duplicate and contradiction detection over 100k live passages (floor 60 s, aim 10 s).

Run:  .venv/bin/python benchmarks/bench_conflicts.py [--passages 100000] [--vocabulary 20000]
Passages are about 60 words drawn Zipf-style from the most common English words (wordfreq), with 5
entity names each; 1% are copied from another source and 0.5% restated with a changed number. One
full detection (find_conflicts) is timed. The ingest benchmark's 80-word filler is not used here:
with so few words nearly every word 3-gram recurs thousands of times, which no real text does, and
the detector's cost is driven by exactly those recurring 3-grams.
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

from memo_tui.core.conflicts import find_conflicts  # noqa: E402
from memo_tui.core.ingest import ingest_records  # noqa: E402
from memo_tui.core.opening import open_store  # noqa: E402
from memo_tui.core.sources import PassageRecord  # noqa: E402


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=100_000)
    parser.add_argument("--vocabulary", type=int, default=20_000)
    args = parser.parse_args()
    records = corpus(args.passages, args.vocabulary)
    with tempfile.TemporaryDirectory() as tmp:
        database = open_store(str(Path(tmp) / "bench.db"))
        ingest_records("default", records)
        started = time.perf_counter()
        findings = find_conflicts("default")
        seconds = time.perf_counter() - started
        kinds = {kind: sum(f.kind == kind for f in findings) for kind in ("duplicate", "contradiction")}
        print(f"live passages   {len(records)}")
        print(f"duplicates      {kinds['duplicate']} (planted {args.passages // 100})")
        print(f"contradictions  {kinds['contradiction']} (planted {args.passages // 200})")
        print(f"seconds         {seconds:.2f}")
        own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"peak RSS MB     {own:.0f} (largest child process: {child:.0f})")
        database.close()


if __name__ == "__main__":
    main()

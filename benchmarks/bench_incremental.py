"""Real package summaries through the CLI, as issue 15 checks them: ingest, a full pass at two sizes,
and a pass after a small ingest as a share of a full one.

Run:  .venv/bin/python benchmarks/bench_incremental.py [--sizes 100000 300000] [--new 1000] [--repeats 3] [--dir DIR]
For each size, on a fresh SQLite store: `memo-tui ingest` the first SIZE summaries of the env package
list, `memo-tui resolve` (a full pass: nothing is remembered yet); for the largest size, then ingest
NEW held-out summaries (from row 400,000 on), `resolve` again (incremental) and `resolve --full`,
REPEATS runs of each on copies of the store as the ingest left it, alternating; the medians count.
Each command is its own process; it prints wall seconds and the process's peak memory.
Measure with nothing else running.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from realtext import summaries  # noqa: E402

TSV = Path(__file__).resolve().parents[2] / ".library/env/packages/pypi.tsv"
CLI = Path(sys.executable).with_name("memo-tui")
SUFFIXES = ("", "-wal", "-shm", ".pass-lock")


def run(*args: str) -> tuple[float, float, str]:
    """(wall seconds, peak MB, last line of output) of one CLI process, started once what was written
    before it is on the disk (a store just copied is hundreds of MB the disk would take meanwhile)."""
    os.sync()
    started = time.perf_counter()
    child = subprocess.Popen([str(CLI), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    out, err = child.stdout.read(), child.stderr.read()
    if status != 0:
        raise SystemExit(f"memo-tui {' '.join(args)} failed: {err.strip()}")
    return seconds, usage.ru_maxrss / 1024, out.strip().splitlines()[0] if out.strip() else ""


def drop_store(store: str) -> None:
    for suffix in SUFFIXES:
        Path(store + suffix).unlink(missing_ok=True)


def copy_store(store: str, to: Path) -> str:
    """A copy of a store no process has open (its WAL too, if one was left)."""
    drop_store(str(to))
    for suffix in ("", "-wal"):
        if Path(store + suffix).exists():
            shutil.copyfile(store + suffix, str(to) + suffix)
    return str(to)


def write(records: list[dict], path: Path) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 300_000])
    parser.add_argument("--new", type=int, default=1000)
    parser.add_argument("--tsv", default=str(TSV))
    parser.add_argument("--dir", default=None, help="where the stores go (a temporary folder by default)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each pass after the small ingest (on copies)")
    args = parser.parse_args(argv)
    folder = Path(args.dir or tempfile.mkdtemp(prefix="memo-incremental-"))
    folder.mkdir(parents=True, exist_ok=True)
    everything = summaries(Path(args.tsv), max(args.sizes))
    held_out = write(summaries(Path(args.tsv), args.new, skip=400_000), folder / "new.jsonl")
    passes = {}
    for size in sorted(args.sizes):
        store = str(folder / f"s{size}.db")
        drop_store(store)
        source = write(everything[:size], folder / f"s{size}.jsonl")
        seconds, peak, _ = run("--db", store, "ingest", str(source))
        print(
            f"{size:>8,} passages  ingest {seconds:6.1f} s  {size / seconds:8,.0f} passages/s  peak {peak:6,.0f} MB",
            flush=True,
        )
        seconds, peak, said = run("--db", store, "resolve")
        passes[size] = seconds
        print(f"{'':>8}           full pass {seconds:6.1f} s  peak {peak:6,.0f} MB  ({said.split(':')[0]})", flush=True)
    small, large = min(passes), max(passes)
    if small != large:
        print(f"growth of the pass: x{passes[large] / passes[small]:.2f} for x{large / small:.1f} the passages")
    store = str(folder / f"s{large}.db")
    seconds, _, _ = run("--db", store, "ingest", str(held_out))
    print(f"{args.new:>8,} new      ingest {seconds:6.1f} s", flush=True)
    # the same pass, and the same with --full, on copies of the store as the ingest left it: one run is
    # within ±15% on a busy machine; the two kinds alternate, so that a slow spell weighs on both
    runs: dict[tuple[str, ...], list] = {(): [], ("--full",): []}
    for n in range(2 * args.repeats):
        flags = ("--full",) if n % 2 else ()
        path = copy_store(store, folder / f"s{large}-copy.db")
        runs[flags].append(run("--db", path, "resolve", *flags))
        drop_store(path)
    times, full_times = (sorted(seconds for seconds, _, _ in found) for found in runs.values())
    incremental, peak, said = statistics.median(times), max(p for _, p, _ in runs[()]), runs[()][0][2]
    spread = f" (median of {len(times)}: {times[0]:.1f}-{times[-1]:.1f} s)" if len(times) > 1 else ""
    print(f"{'':>8}           pass {incremental:6.1f} s{spread}  peak {peak:6,.0f} MB  ({said.split(';')[0]})",
          flush=True)  # fmt: skip
    full, peak = statistics.median(full_times), max(p for _, p, _ in runs[("--full",)])
    spread = f" (median of {len(full_times)}: {full_times[0]:.1f}-{full_times[-1]:.1f} s)" if len(times) > 1 else ""
    print(f"{'':>8}           the same pass with --full {full:6.1f} s{spread}  peak {peak:6,.0f} MB")
    print(f"a pass after {args.new:,} new passages: {incremental / passes[large]:.0%} of the first full pass, "
          f"{incremental / full:.0%} of a full pass on the same store (medians)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

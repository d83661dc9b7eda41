"""How fast this machine is right now: a fixed loop of plain Python arithmetic, timed.

Run:  .venv/bin/python benchmarks/spell.py
The machines here are shared and their speed drifts through the day by a third or more; a benchmark's
figures are comparable only within one spell, and the README gives this loop's time beside them.
"""

from __future__ import annotations

import time


def main() -> None:
    started = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i * i
    print(f"spell {time.perf_counter() - started:.2f} s")


if __name__ == "__main__":
    main()

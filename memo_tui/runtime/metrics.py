"""Counters in Prometheus terms, counted in memory and kept in the store across processes.

A command line run or a TUI session counts in memory and adds its counts to the store once, when it
ends (`flush`), so a read never waits for a write lock.
"""

from __future__ import annotations

import threading
from collections import defaultdict

from memo_tui.store import Metric, db
from memo_tui.store.connect import read_only, store_errors
from memo_tui.store.rows import tuples

BUCKETS = (0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0)
HELP = {
    "memo_graph_cache_total": (
        "counter",
        "Graph cache lookups: hit, build (cache miss) and build_asof (never cached).",
    ),
    "memo_graph_build_duration_seconds": ("histogram", "Seconds spent building an in-memory graph."),
}

_pending: dict[tuple[str, str], float] = defaultdict(float)
_lock = threading.Lock()


def _labels(**labels: str) -> str:
    return ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))


def count(name: str, amount: float = 1, **labels: str) -> None:
    with _lock:
        _pending[(name, _labels(**labels))] += amount


def observe(name: str, seconds: float, **labels: str) -> None:
    """One observation of a histogram: cumulative buckets, sum and count."""
    with _lock:
        for bound in (*BUCKETS, "+Inf"):
            if isinstance(bound, str) or seconds <= bound:  # "+Inf"
                _pending[(f"{name}_bucket", _labels(le=str(bound), **labels))] += 1
        _pending[(f"{name}_sum", _labels(**labels))] += seconds
        _pending[(f"{name}_count", _labels(**labels))] += 1


def flush() -> None:
    """Add this process's counts to the store's totals (one short transaction)."""
    with _lock:
        items = list(_pending.items())
        _pending.clear()
    if not items:
        return
    try:
        with db.atomic():
            for (name, labels), amount in items:
                Metric.insert(name=name, labels=labels, value=amount).on_conflict(
                    conflict_target=[Metric.name, Metric.labels], update={Metric.value: Metric.value + amount}
                ).execute()
    except store_errors() as exc:
        # a store that may only be read answers reads all the same; its counters stay as they were
        if not read_only(exc):
            raise


def totals() -> dict[tuple[str, str], float]:
    """Stored totals plus what this process has not flushed yet."""
    values: dict[tuple[str, str], float] = defaultdict(float)
    for name, labels, value in tuples(Metric.select(Metric.name, Metric.labels, Metric.value)):
        values[(name, labels)] += value
    with _lock:
        for key, amount in _pending.items():
            values[key] += amount
    return values


def prometheus_text() -> str:
    """Every metric in the Prometheus text exposition format (version 0.0.4)."""
    values = totals()
    lines: list[str] = []
    for family, (kind, text) in HELP.items():
        lines += [f"# HELP {family} {text}", f"# TYPE {family} {kind}"]
        rows = [(name, labels, v) for (name, labels), v in values.items() if name.startswith(family)]
        if not rows and kind == "counter":
            rows = [(family, 'event="hit"', 0.0)]
        for name, labels, value in sorted(rows, key=_order):
            shown = int(value) if float(value).is_integer() else value
            lines.append(f"{name}{{{labels}}} {shown}" if labels else f"{name} {shown}")
    return "\n".join(lines) + "\n"


def _order(row: tuple[str, str, float]) -> tuple:
    name, labels, _ = row
    bound = labels.split('le="', 1)[1].split('"', 1)[0] if 'le="' in labels else ""
    rest = labels.replace(f'le="{bound}"', "")
    return (name, rest, float("inf") if bound == "+Inf" else float(bound or 0))

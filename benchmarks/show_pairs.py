"""Print mined pairs with up to three passages per name, for a person judging them.

    python benchmarks/show_pairs.py STORE.db PAIRS.jsonl [--from N] [--count 25] [--width 160]

Each pair is numbered in file order; each name shows its mention count and a window of up to three
of its passages (spread over the store: the first, middle and last) around where it is mentioned.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys


def passages(store: sqlite3.Connection, namespace: str, name: str) -> list[tuple[str, str, str]]:
    """(source, surface, text) of up to three passages mentioning the entity called `name`."""
    rows = store.execute(
        "SELECT DISTINCT p.id, p.source, m.surface, p.text FROM passage p JOIN mention m ON m.passage_id = p.id "
        "JOIN entity e ON e.id = m.entity_id WHERE e.namespace = ? AND e.name = ? ORDER BY p.id",
        (namespace, name),
    ).fetchall()
    chosen = sorted({0, len(rows) // 2, len(rows) - 1}) if rows else []
    return [rows[i][1:] for i in chosen]


def window(text: str, surface: str, width: int) -> str:
    at = max(0, text.find(surface))
    start = max(0, at - width // 2)
    return " ".join(text[start : start + width].split())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store")
    parser.add_argument("pairs")
    parser.add_argument("--from", dest="start", type=int, default=1)
    parser.add_argument("--count", type=int, default=25)
    parser.add_argument("--width", type=int, default=160)
    args = parser.parse_args(argv)
    try:
        store = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
        with open(args.pairs, encoding="utf-8") as handle:
            rows = [json.loads(line) for line in handle if line.strip()]
    except (OSError, sqlite3.Error, json.JSONDecodeError) as exc:
        print(f"cannot read the pairs or the store ({exc})", file=sys.stderr)
        return 1
    for number, row in enumerate(rows[args.start - 1 : args.start - 1 + args.count], args.start):
        print(f"#{number} [{row['mined']}] {row['a']!r} / {row['b']!r}  {row.get('mentions', '')}")
        for name in (row["a"], row["b"]):
            for source, surface, text in passages(store, row.get("ns", "default"), name):
                print(f"   {name[:20]!r:>22} <{(source or '')[:18]}> {window(text, surface, args.width)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

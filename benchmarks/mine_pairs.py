"""Candidate same-pairs of a store's entity names, mined without the product's rules.

    python benchmarks/mine_pairs.py STORE.db [--cap 8000] [--sample 130 --seed 44] > PAIRS.jsonl
    python benchmarks/mine_pairs.py STORE.db --miner key --miner plural --skip LABELS.jsonl --sample 60 --seed 45

Reads the SQLite store directly and brute-forces over the names of each namespace (the `--cap`
most mentioned, ties by name), so that recall against these pairs measures what the product's own
blocking and rules miss. `--miner` keeps only that miner's pairs, `--skip` leaves out the pairs of a
labels file (a second sample beside the first). `--sample N` keeps N pairs, stratified by miner: each miner the same
share (all of a miner's pairs when it has fewer), chosen at random with `--seed`. One JSON line a
pair: `a`, `b` (a the more mentioned), their mention counts, `ns`, and `mined`, the first miner
that found it, in this order:

- `key`: the same once case, spaces, hyphens, underscores and dots are dropped (`Claude Code` / `claude-code`)
- `plural`: one is the other plus s / es / ies for y, in any case (`URL` / `URLs`, `library` / `libraries`)
- `transposition`: two neighbouring letters swapped (`Dashbaord` / `Dashboard`)
- `edit`: one letter apart (case-folded) with 3+ letters each (`Mel` / `Mell`), or two with 8+
- `acronym`: an all-caps word, the initials of the other's words (`NYC` / `New York City`, `CS` / `Counter-Strike`)
- `short_name`: a capitalised word that begins the other, a longer capitalised word (`Deb` / `Deborah`)
- `containment`: every word of one inside the other, which has more words (`Opus 4.8` / `Claude Opus 4.8`)
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
import sys
from collections import defaultdict

from rapidfuzz.distance import OSA, Levenshtein
from rapidfuzz.process import cdist

MINERS = ("key", "plural", "transposition", "edit", "acronym", "short_name", "containment")
_WORD = re.compile(r"[^\W_]+")
_DROP = re.compile(r"[\s\-_.]+")
_SPELLED = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[ -][A-Za-z][A-Za-z0-9]*)+")  # words apart by spaces or hyphens
ROWS = 500  # names compared with all others at once: a block of distances in memory
CONTAINED_MAX = 30  # longer names one word is inside, beyond which the word is too common to pair


def names_by_namespace(path: str, cap: int) -> dict[str, dict[str, int]]:
    """{namespace: {name: mentions}}: every mention counts, folded or not, so the store can be
    mined before or after a pass."""
    store = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = store.execute(
        "SELECT e.namespace, e.name, COUNT(m.id) FROM entity e LEFT JOIN mention m ON m.entity_id = e.id GROUP BY e.id"
    ).fetchall()
    store.close()
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for namespace, name, count in rows:
        out[namespace][name] = out[namespace].get(name, 0) + count
    for namespace, names in out.items():
        kept = sorted(names.items(), key=lambda item: (-item[1], item[0]))[:cap]
        out[namespace] = dict(kept)
    return dict(out)


def squash(name: str) -> str:
    return _DROP.sub("", name.casefold())


def is_plural(short: str, long: str) -> bool:
    s, ll = short.casefold(), long.casefold()
    return ll in (s + "s", s + "es") or (s.endswith("y") and ll == s[:-1] + "ies")


def initials(name: str) -> str | None:
    """The initials of a name spelled out in words (`Counter-Strike`: CS); None for a path or identifier."""
    if not _SPELLED.fullmatch(name):
        return None
    return "".join(w[0] for w in re.split(r"[ -]", name)).upper()


def is_acronym(short: str, long: str) -> bool:
    return 2 <= len(short) <= 8 and short.isupper() and short.isalpha() and initials(long) == short


def is_short_name(short: str, long: str) -> bool:
    return (
        short.isalpha()
        and long.isalpha()
        and short[0].isupper()
        and short[1:].islower()
        and long[1:].islower()
        and len(short) >= 2
        and len(long) - len(short) >= 2
        and long.startswith(short)
    )


def edit_pairs(names: list[str]) -> list[tuple[str, str, str]]:
    """(a, b, miner) of names one or two letters apart, as transposition or edit."""
    folded = [n.casefold() for n in names]
    out = []
    for start in range(0, len(names), ROWS):
        distances = cdist(folded[start : start + ROWS], folded, scorer=Levenshtein.distance, score_cutoff=2)
        for row, i in enumerate(range(start, min(start + ROWS, len(names)))):
            for j in (int(j) for j in (distances[row] <= 2).nonzero()[0]):
                if j > i and folded[i] != folded[j]:
                    out.extend(_edit_kind(names[i], names[j], folded[i], folded[j], int(distances[row][j])))
    return out


def _edit_kind(a: str, b: str, fa: str, fb: str, d: int) -> list[tuple[str, str, str]]:
    shorter = min(len(fa), len(fb))
    if d == 2 and OSA.distance(fa, fb) == 1:
        return [(a, b, "transposition")]
    if (d == 1 and shorter >= 3) or shorter >= 8:
        return [(a, b, "edit")]
    return []


def containment_pairs(names: list[str]) -> list[tuple[str, str]]:
    words = {n: frozenset(w.casefold() for w in _WORD.findall(n)) for n in names}
    by_word: dict[str, list[str]] = defaultdict(list)
    for name, ws in words.items():
        for w in ws:
            by_word[w].append(name)
    out = []
    for name, ws in words.items():
        if not ws:
            continue
        rarest = min(ws, key=lambda w: len(by_word[w]))
        holders = [n for n in by_word[rarest] if n != name and len(words[n]) > len(ws) and ws <= words[n]]
        if len(holders) <= CONTAINED_MAX:
            out.extend((name, other) for other in holders)
    return out


def mine(names: dict[str, int]) -> dict[frozenset, str]:
    """{pair: miner} over one namespace's names; a pair keeps the first miner of MINERS that found it."""
    found: dict[frozenset, set[str]] = defaultdict(set)
    listed = list(names)
    by_squash: dict[str, list[str]] = defaultdict(list)
    for n in listed:
        by_squash[squash(n)].append(n)
    for group in by_squash.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                found[frozenset((a, b))].add("key")
    folded: dict[str, list[str]] = defaultdict(list)
    for n in listed:
        folded[n.casefold()].append(n)
    for n in listed:
        stem = n.casefold()
        for longer in {stem + "s", stem + "es"} | ({stem[:-1] + "ies"} if stem.endswith("y") else set()):
            for other in folded.get(longer, ()):
                found[frozenset((n, other))].add("plural")
    for a, b, miner in edit_pairs(listed):
        found[frozenset((a, b))].add(miner)
    by_initials: dict[str, list[str]] = defaultdict(list)
    for n in listed:
        if letters := initials(n):
            by_initials[letters].append(n)
    for n in listed:
        for other in by_initials.get(n, ()):
            if is_acronym(n, other):
                found[frozenset((n, other))].add("acronym")
    capitalised = sorted(n for n in listed if n.isalpha() and n[0].isupper() and n[1:].islower())
    for i, a in enumerate(capitalised):
        for b in capitalised[i + 1 :]:
            if not b.startswith(a):
                break
            if is_short_name(a, b):
                found[frozenset((a, b))].add("short_name")
    for a, b in containment_pairs(listed):
        found[frozenset((a, b))].add("containment")
    found = {pair: miners for pair, miners in found.items() if len(pair) == 2}
    return {pair: next(m for m in MINERS if m in miners) for pair, miners in found.items()}


def sample(rows: list[dict], size: int, seed: int) -> list[dict]:
    """`size` rows, the same number from each miner where it has them, the rest shared by those with more."""
    by_miner: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_miner[row["mined"]].append(row)
    chooser = random.Random(seed)
    for pool in by_miner.values():
        chooser.shuffle(pool)
    take = dict.fromkeys(by_miner, 0)
    while sum(take.values()) < min(size, len(rows)):
        open_ = [m for m in MINERS if m in take and take[m] < len(by_miner[m])]
        for miner in open_[: min(size, len(rows)) - sum(take.values())]:
            take[miner] += 1
    return [row for row in rows if row in by_miner[row["mined"]][: take[row["mined"]]]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store")
    parser.add_argument("--cap", type=int, default=8000, help="most mentioned names mined per namespace")
    parser.add_argument("--sample", type=int, help="keep this many pairs, stratified by miner")
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--miner", action="append", choices=MINERS, help="keep only this miner's pairs")
    parser.add_argument("--skip", help="a labels file whose pairs are left out")
    args = parser.parse_args(argv)
    try:
        spaces = names_by_namespace(args.store, args.cap)
    except sqlite3.Error as exc:
        print(f"{args.store}: cannot read the store ({exc})", file=sys.stderr)
        return 1
    rows = []
    for namespace in sorted(spaces):
        names = spaces[namespace]
        for pair, miner in sorted(mine(names).items(), key=lambda item: sorted(item[0])):
            a, b = sorted(pair, key=lambda n: (-names[n], n))
            rows.append({"a": a, "b": b, "mentions": [names[a], names[b]], "ns": namespace, "mined": miner})
    counts = {m: sum(r["mined"] == m for r in rows) for m in MINERS}
    print("mined " + " ".join(f"{m}={counts[m]}" for m in MINERS), file=sys.stderr)
    if args.miner:
        rows = [r for r in rows if r["mined"] in args.miner]
    if args.skip:
        with open(args.skip, encoding="utf-8") as handle:
            labelled = {(r.get("ns", "default"), frozenset((r["a"], r["b"]))) for r in map(json.loads, handle)}
        rows = [r for r in rows if (r["ns"], frozenset((r["a"], r["b"]))) not in labelled]
    for row in sample(rows, args.sample, args.seed) if args.sample else rows:
        print(json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

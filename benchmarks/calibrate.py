"""Fit the evidence layer's calibration (`memo_tui/core/calibration.json`) on the labelled stores.

    python benchmarks/calibrate.py [--write]

For each labelled real-text store in tests/data/real/ (passages NAME.jsonl.gz, labels
NAME.labels.jsonl) the passages are ingested into a scratch store, and every labelled pair gets the
rules' verdict and the store's evidence. The prior of a rule is its share of same-pairs over all
labelled files (tests/data/labelled_pairs.jsonl too), with one pseudo-count each way; the evidence
weights are a logistic regression of the label on the features, with the rule's prior as offset.
Prints the table; --write saves it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memo_tui.core import evidence, resolver  # noqa: E402
from memo_tui.core.ingest import ingest_paths  # noqa: E402
from memo_tui.core.opening import open_store  # noqa: E402
from memo_tui.core.rules import Name, judge_pair  # noqa: E402
from memo_tui.store import Entity  # noqa: E402

REAL = ROOT / "tests" / "data" / "real"
FEATURES = ("neighbours", "contrasted", "shared_source", "no_neighbours", "rare_variant")


def labelled_store_features(name: str, scratch: Path) -> list[tuple[str, bool, dict]]:
    """(rule, same, features) for every labelled pair of one real store whose two names are entities."""
    corpus = scratch / f"{name}.jsonl"
    with gzip.open(REAL / f"{name}.jsonl.gz", "rb") as src, corpus.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    open_store(str(scratch / f"{name}.db"))
    ingest_paths("default", [str(corpus)])
    ids = {n: i for i, n in Entity.select(Entity.id, Entity.name).tuples()}
    labels = [json.loads(line) for line in (REAL / f"{name}.labels.jsonl").open(encoding="utf-8")]
    pairs = [(r, ids[r["a"]], ids[r["b"]]) for r in labels if r["same"] is not None and r["a"] in ids and r["b"] in ids]
    wanted = {x for _, a, b in pairs for x in (a, b)}
    live, sources = resolver.live_sources("default")
    passages, named = resolver.mention_sets(resolver.live_mentions("default", live))
    counts = {eid: len(pids) for eid, pids in passages.items()}
    facts = resolver.store_facts(wanted, passages, named, sources, counts)
    resolver.joint_texts(facts, [(a, b) for _, a, b in pairs])
    names_of = {i: n for n, i in ids.items()}
    out = []
    for row, a, b in pairs:
        verdict = judge_pair(Name(a, row["a"]), Name(b, row["b"]))
        if verdict.kind == "no":
            continue
        found = evidence.weigh(facts, a, b, facts.surfaces.get(a, {row["a"]}), facts.surfaces.get(b, {row["b"]}),
                               verdict.rule, names_of)  # fmt: skip
        out.append((found.pattern, row["same"], features(found)))
    return out


def features(found: evidence.Evidence) -> dict[str, float]:
    return {
        "neighbours": found.neighbour_score,
        "contrasted": float(bool(found.contrasted_in) and not found.defined_in),
        "shared_source": float(found.shared_sources > 0),
        "no_neighbours": float(found.no_neighbours),
        "rare_variant": float(found.rare_variant),
    }


LISTED_STRENGTH = 4.0  # the hand-made pair list is a starting point worth four pairs judged in a real store


def priors(listed: list[tuple[str, bool]], real: list[tuple[str, bool]]) -> dict[str, float]:
    """Per rule: a Beta prior centred on the hand-made list's rate (strength LISTED_STRENGTH, or the
    list's count when smaller), updated by the pairs judged in real stores; one pseudo-pair each way."""
    same, total = Counter(), Counter()
    for rule, label in listed:
        total[rule] += 1
        same[rule] += label
    weight = {rule: min(1.0, LISTED_STRENGTH / n) for rule, n in total.items()}
    same = Counter({rule: same[rule] * weight[rule] for rule in same})
    total = Counter({rule: n * weight[rule] for rule, n in total.items()})
    for rule, label in real:
        total[rule] += 1
        same[rule] += label
    table = {rule: round((same[rule] + 1) / (total[rule] + 2), 3) for rule in sorted(total)}
    table["default"] = round((sum(same.values()) + 1) / (sum(total.values()) + 2), 3)
    defined = [rule for rule in total if rule.endswith("+defined")]  # for a rule never seen defined
    table["+defined"] = round((sum(same[r] for r in defined) + 1) / (sum(total[r] for r in defined) + 2), 3)
    return table


def fit(rows: list[tuple[float, bool, dict]], steps: int = 4000, rate: float = 4.0, l2: float = 0.001) -> dict:
    """Logistic regression of the label on the features, the prior's log-odds as a fixed offset."""
    w = dict.fromkeys(FEATURES, 0.0)
    for _ in range(steps):
        grad = dict.fromkeys(FEATURES, 0.0)
        for offset, label, x in rows:
            p = evidence.sigmoid(offset + sum(w[f] * x[f] for f in FEATURES))
            for f in FEATURES:
                grad[f] += (p - label) * x[f]
        for f in FEATURES:
            w[f] -= rate * (grad[f] / len(rows) + l2 * w[f])
    return {f: round(v, 3) for f, v in w.items()}


def log_loss(rows, w) -> float:
    total = 0.0
    for offset, label, x in rows:
        p = evidence.sigmoid(offset + sum(w[f] * x[f] for f in FEATURES))
        total -= math.log(p if label else 1 - p)
    return total / len(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="save memo_tui/core/calibration.json")
    args = parser.parse_args()
    rule_rows = []
    for line in (ROOT / "tests" / "data" / "labelled_pairs.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        verdict = judge_pair(Name(1, row["a"], row.get("type_a")), Name(2, row["b"], row.get("type_b")))
        if verdict.kind != "no":
            rule_rows.append((verdict.rule, row["same"]))
    store_rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for path in sorted(REAL.glob("*.labels.jsonl")):
            store_rows += labelled_store_features(path.name.removesuffix(".labels.jsonl"), Path(scratch))
    table = priors(rule_rows, [(rule, same) for rule, same, _ in store_rows])
    rows = [(evidence.logit(table[rule]), same, x) for rule, same, x in store_rows]
    weights = fit(rows)
    zero = dict.fromkeys(FEATURES, 0.0)
    print(f"{len(rule_rows)} labelled pairs (rules only), {len(store_rows)} in labelled stores")
    print(f"log loss: priors only {log_loss(rows, zero):.4f}, with evidence {log_loss(rows, weights):.4f}")
    for rule, p in table.items():
        n = sum(r == rule for r, _, _ in store_rows)
        print(f"  prior {rule:20} {p:.3f}   ({n} pairs in real stores)")
    for f, v in weights.items():
        print(f"  weight {f:20} {v:+.3f}")
    if args.write:
        current = json.loads(evidence.CALIBRATION.read_text(encoding="utf-8"))
        current["priors"], current["weights"] = table, weights
        evidence.CALIBRATION.write_text(json.dumps(current, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Fit the evidence layer's calibration on the labelled kinds of real text, and once without each kind.

    python benchmarks/calibrate.py [--write]

For each kind of text (`memo_tui/core/kinds.py`: its passages and labels in tests/data/real/) the
passages are ingested into a scratch store, and every judged pair of the kind's labels (the product's
folds and questions; its mined pairs measure recall and stay out of every fit) gets the rules' verdict
and the store's evidence. The prior of a rule is its share of
same-pairs over the labelled files (tests/data/labelled_pairs.jsonl too), with one pseudo-count each
way; the evidence weights are a logistic regression of the label on the features, with the rule's
prior as offset. The fit is made on every kind (the packaged memo_tui/core/calibration.json) and on
every kind but one, for each kind (tests/data/real/calibration/without-KIND.json: what the real-text
evaluation runs that kind with: a kind without labels is held out of nothing). Prints the table and
each held-out kind's log loss; --write saves them all, and needs the passages of every labelled kind
(`--write --only anchor_ratios` saves that table alone, the others as they are).

The anchor ratios (`names/likelihood.py`) are, for each loose pattern (LOOSE), its judged same-pairs
per judged same-pair of the anchor patterns (`likelihood.ANCHORS`) over the labelled stores, one
pseudo-pair added to each count: how many same-pairs of the pattern a store holds per name it spells
two ways. Judged pairs are what the stores served, and a loose pattern was served less often than an
anchor: the ratio leans low, and a store's answers lift it where it is wrong.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memo_tui.engine.graph.opening import open_store  # noqa: E402
from memo_tui.engine.resolve import reads  # noqa: E402
from memo_tui.names import evidence, likelihood  # noqa: E402
from memo_tui.names.rules import Name, judge_pair  # noqa: E402
from memo_tui.quality.kinds import KINDS, Kind, build  # noqa: E402
from memo_tui.store import Entity, db  # noqa: E402

REAL = ROOT / "tests" / "data" / "real"
FEATURES = ("neighbours", "contrasted", "shared_source", "no_neighbours", "rare_variant")
Row = tuple[str, bool, dict]  # (pattern, same, features) of one judged pair
# the rules that join two different names by their shape (one inside the other, a few edits apart,
# initials, a prefix): the patterns whose share a store's anchors estimate
LOOSE = ("contained", "edit-distance", "acronym", "prefix")


def kind_features(kind: Kind, scratch: Path) -> list[Row]:
    """A row for every labelled pair of one kind whose two names are entities of its store and that a
    rule does not reject."""
    folder = scratch / kind.name
    folder.mkdir()
    open_store(str(folder / "store.db"))
    try:
        rows = []
        for namespace in build(kind, REAL, folder):
            rows += namespace_features(namespace, [p for p in kind.asked(REAL) if p.get("ns", namespace) == namespace])
        return rows
    finally:
        db.close()
        db.initialize(None)


def namespace_features(namespace: str, labels: list[dict]) -> list[Row]:
    ids = {n: i for i, n in Entity.select(Entity.id, Entity.name).where(Entity.namespace == namespace).tuples()}
    pairs = [(r, ids[r["a"]], ids[r["b"]]) for r in labels if r["same"] is not None and r["a"] in ids and r["b"] in ids]
    wanted = {x for _, a, b in pairs for x in (a, b)}
    live, sources = reads.live_sources(namespace)
    passages, named = reads.mention_sets(reads.live_mentions(namespace, live))
    counts = {eid: len(pids) for eid, pids in passages.items()}
    facts = reads.store_facts(wanted, passages, named, sources, counts)
    reads.joint_texts(facts, [(a, b) for _, a, b in pairs])
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


FITTED = ("priors", "weights", evidence.RATIOS)  # the tables a fit writes, in the order `calibrate` makes them
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
    return total / len(rows) if rows else float("nan")


def listed_rows() -> list[tuple[str, bool]]:
    """(rule, same) of the hand-made pair list, by the rules alone."""
    rows = []
    for line in (ROOT / "tests" / "data" / "labelled_pairs.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        verdict = judge_pair(Name(1, row["a"], row.get("type_a")), Name(2, row["b"], row.get("type_b")))
        if verdict.kind != "no":
            rows.append((verdict.rule, row["same"]))
    return rows


def calibrate(listed: list[tuple[str, bool]], store_rows: list[Row]) -> tuple[dict, dict, dict]:
    """The priors, the evidence weights and the anchor ratios fitted on these judged pairs."""
    table = priors(listed, [(rule, same) for rule, same, _ in store_rows])
    return table, fit(offset_rows(table, store_rows)), anchor_ratios(store_rows)


def anchor_ratios(store_rows: list[Row]) -> dict[str, float]:
    """Per loose pattern: its judged same-pairs per judged same-pair of the anchor patterns, one
    pseudo-pair added to each."""
    same = Counter(pattern for pattern, label, _ in store_rows if label)
    anchors = sum(same[pattern] for pattern in likelihood.ANCHORS)
    return {pattern: round((same[pattern] + 1) / (anchors + 1), 5) for pattern in LOOSE}


def offset_rows(table: dict, store_rows: list[Row]) -> list[tuple[float, bool, dict]]:
    """The rows with their pattern's prior log-odds (a pattern the table lacks: as the pass falls back)."""
    out = []
    for pattern, same, x in store_rows:
        fallback = table["+defined"] if pattern.endswith("+defined") else table["default"]
        out.append((evidence.logit(table.get(pattern, fallback)), same, x))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="save the packaged calibration and the held-out ones")
    parser.add_argument("--only", choices=(*FITTED, "fitted_on"), action="append", help="--write this table alone")
    args = parser.parse_args()
    labelled = [kind for kind in KINDS if kind.asked(REAL)]
    absent = [kind.name for kind in labelled if not kind.present(REAL)]
    if args.write and absent:
        print(f"calibrate: no passages of {', '.join(absent)}: --write fits on every kind", file=sys.stderr)
        return 1
    listed = listed_rows()
    with tempfile.TemporaryDirectory() as scratch:
        by_kind = {kind.name: kind_features(kind, Path(scratch)) for kind in labelled if kind.name not in absent}
    every = [row for rows in by_kind.values() for row in rows]
    table, weights, ratios = calibrate(listed, every)
    print_fit(listed, by_kind, table, weights, ratios)
    fits = {evidence.CALIBRATION: (table, weights, ratios, list(by_kind))}
    fitted = {}  # the kinds without labels are all held out of the same fit
    for name in (kind.name for kind in KINDS):
        held, others = by_kind.get(name, []), tuple(k for k in by_kind if k != name)
        if others not in fitted:
            fitted[others] = calibrate(listed, [row for k in others for row in by_kind[k]])
        out_table, out_weights, out_ratios = fitted[others]
        held_out = log_loss(offset_rows(out_table, held), out_weights)
        print(f"without {name:10}: log loss on its {len(held)} pairs {held_out:.4f} held out, "
              f"{log_loss(offset_rows(table, held), weights):.4f} in sample")  # fmt: skip
        fits[REAL / "calibration" / f"without-{name}.json"] = (out_table, out_weights, out_ratios, others)
    if args.write:
        current = json.loads(evidence.CALIBRATION.read_text(encoding="utf-8"))  # the conflict priors are set by hand
        for path, (out_table, out_weights, out_ratios, kinds) in fits.items():
            path.parent.mkdir(exist_ok=True)
            made = dict(zip(FITTED, (out_table, out_weights, out_ratios), strict=True), fitted_on=list(kinds))
            saved = {**current, **made}
            if args.only:  # the tables not named stay as the file has them
                saved = {**json.loads(path.read_text(encoding="utf-8")), **{t: made[t] for t in args.only}}
            path.write_text(json.dumps(saved, indent=2) + "\n", encoding="utf-8")
    return 0


def print_fit(listed: list, by_kind: dict[str, list[Row]], table: dict, weights: dict, ratios: dict) -> None:
    every = [row for rows in by_kind.values() for row in rows]
    rows, zero = offset_rows(table, every), dict.fromkeys(FEATURES, 0.0)
    counts = ", ".join(f"{len(r)} {name}" for name, r in by_kind.items())
    print(f"{len(listed)} labelled pairs (rules only), {len(every)} in labelled stores ({counts})")
    print(f"log loss: priors only {log_loss(rows, zero):.4f}, with evidence {log_loss(rows, weights):.4f}")
    for rule, p in table.items():
        n = sum(r == rule for r, _, _ in every)
        print(f"  prior {rule:20} {p:.3f}   ({n} pairs in real stores)")
    for f, v in weights.items():
        print(f"  weight {f:20} {v:+.3f}")
    for pattern, v in ratios.items():
        print(f"  anchor ratio {pattern:14} {v:.5f}")


if __name__ == "__main__":
    raise SystemExit(main())

"""`eval PAIRS.jsonl`: how the rules alone do on hand-labelled pairs; `eval --store`: how a store's
automatic folds and queue do against hand labels of its own pairs (the real-text evaluation)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from memo_tui.errors import MemoError
from memo_tui.names.keys import identity_key
from memo_tui.names.rules import ASK, FOLD, NO, Name, judge_pair
from memo_tui.store.kinds import ENTITY_PAIR, NAME_CLUSTER

FIRST = 50  # the first screenful-and-a-bit of the queue a reviewer is served
SAMPLE = 100  # a uniform sample of the queue for the overall precision: the pairs with the smallest hashes


@dataclass
class Evaluation:
    pairs: int = 0
    same: int = 0
    folded: int = 0
    asked: int = 0
    rejected: int = 0
    folded_same: int = 0
    asked_different: int = 0
    same_surfaced: int = 0
    wrong_folds: list[dict] = field(default_factory=list)
    missed: list[dict] = field(default_factory=list)

    @property
    def fold_precision(self) -> float:
        return self.folded_same / self.folded if self.folded else 1.0

    @property
    def surfaced_share(self) -> float:
        """Share of same-pairs that were folded or asked."""
        return self.same_surfaced / self.same if self.same else 1.0

    def as_dict(self) -> dict:
        return {**asdict(self), "fold_precision": self.fold_precision, "surfaced_share": self.surfaced_share}


def read_pairs(path: str, unsure: bool = False) -> list[dict]:
    """Labelled pairs; a bad line is a MemoError naming path:line. With `unsure`, `"same": null`
    (the judge could not tell) is allowed."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise MemoError(f"{path}: cannot read ({exc})") from None
    pairs = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise MemoError(f"{path}:{number}: malformed JSON ({exc.msg})") from None
        if not isinstance(row, dict) or not all(isinstance(row.get(k), str) for k in ("a", "b")):
            raise MemoError(f'{path}:{number}: needs "a" and "b" strings')
        if not isinstance(row.get("same"), bool) and not (unsure and row.get("same", False) is None):
            raise MemoError(f'{path}:{number}: needs "same": true or false' + (" or null" if unsure else ""))
        pairs.append(row)
    return pairs


def evaluate(pairs: list[dict]) -> Evaluation:
    result = Evaluation()
    for row in pairs:
        verdict = judge_pair(Name(None, row["a"], row.get("type_a")), Name(None, row["b"], row.get("type_b")))
        result.pairs += 1
        result.same += row["same"]
        if verdict.kind == FOLD:
            result.folded += 1
            result.folded_same += row["same"]
            if not row["same"]:
                result.wrong_folds.append({"a": row["a"], "b": row["b"], "rule": verdict.rule})
        elif verdict.kind == ASK:
            result.asked += 1
            result.asked_different += not row["same"]
        else:
            result.rejected += 1
            if row["same"]:
                result.missed.append({"a": row["a"], "b": row["b"], "rule": verdict.rule})
        result.same_surfaced += row["same"] and verdict.kind != NO
    return result


@dataclass
class Tally:
    """Labelled items of one kind: how many were judged same, different, unsure, or not labelled."""

    same: int = 0
    different: int = 0
    unsure: int = 0
    unlabelled: int = 0

    def add(self, label: bool | None | str) -> None:
        if label is True:
            self.same += 1
        elif label is False:
            self.different += 1
        elif label is None:
            self.unsure += 1
        else:
            self.unlabelled += 1

    @property
    def precision(self) -> float | None:
        judged = self.same + self.different
        return round(self.same / judged, 3) if judged else None

    def as_dict(self) -> dict:
        return {**asdict(self), "precision": self.precision}


@dataclass
class StoreEvaluation:
    entities: int = 0
    passages: int = 0
    questions: int = 0
    conflicts: int = 0
    folds: Tally = field(default_factory=Tally)
    first: Tally = field(default_factory=Tally)
    sample: Tally = field(default_factory=Tally)
    asks: Tally = field(default_factory=Tally)
    cluster_members: Tally = field(default_factory=Tally)  # each member against its cluster's canonical
    clusters: int = 0
    same_labelled: int = 0
    same_surfaced: int = 0
    unlabelled: list[dict] = field(default_factory=list)

    @classmethod
    def summed(cls, found: list[StoreEvaluation]) -> StoreEvaluation:
        """The figures of several stores of one kind together (each one's first questions and sample)."""
        total = cls()
        for one in found:
            for name, value in vars(one).items():
                mine = getattr(total, name)
                if isinstance(value, Tally):
                    for label in vars(value):
                        setattr(mine, label, getattr(mine, label) + getattr(value, label))
                else:
                    setattr(total, name, mine + value)
        return total

    @property
    def questions_per_1000_entities(self) -> float:
        return round(1000 * self.questions / max(1, self.entities), 1)

    @property
    def conflicts_per_1000_passages(self) -> float:
        return round(1000 * self.conflicts / max(1, self.passages), 1)

    @property
    def surfaced_share(self) -> float | None:
        return round(self.same_surfaced / self.same_labelled, 3) if self.same_labelled else None

    def as_dict(self) -> dict:
        return {
            "entities": self.entities,
            "passages": self.passages,
            "questions": self.questions,
            "conflicts": self.conflicts,
            "questions_per_1000_entities": self.questions_per_1000_entities,
            "conflicts_per_1000_passages": self.conflicts_per_1000_passages,
            "folds": self.folds.as_dict(),
            f"first_{FIRST}": self.first.as_dict(),
            f"random_{SAMPLE}": self.sample.as_dict(),
            "asks": self.asks.as_dict(),
            "clusters": self.clusters,
            "cluster_members": self.cluster_members.as_dict(),
            "same_pairs_labelled": self.same_labelled,
            "same_pairs_surfaced": self.same_surfaced,
            "surfaced_share": self.surfaced_share,
            "unlabelled": self.unlabelled,
        }


def _digest(a: str, b: str) -> str:
    return hashlib.sha1("\x00".join(sorted((identity_key(a), identity_key(b)))).encode()).hexdigest()


def _pair(a: str, b: str) -> frozenset[str]:
    return frozenset((identity_key(a), identity_key(b)))


def evaluate_store(namespace: str, pairs: list[dict], recall_pairs: list[dict]) -> StoreEvaluation:
    """The store's standing automatic folds and pending queue against labelled name pairs; the recall
    over the same-pairs of `recall_pairs` (pairs mined without the product, or the labels themselves)."""
    from memo_tui.engine.graph.entities import id_for_key
    from memo_tui.engine.graph.stats import store_stats
    from memo_tui.engine.resolve.reads import Homes
    from memo_tui.engine.review import queue
    from memo_tui.engine.review.clusters import group

    home = Homes(namespace)

    labels = {_pair(p["a"], p["b"]): p["same"] for p in pairs}
    result = StoreEvaluation()
    stats = store_stats(namespace)
    result.entities, result.passages = stats["entities"], stats["passages_live"]
    for a, b in auto_folds(namespace):
        label = labels.get(_pair(a, b), "unlabelled")
        result.folds.add(label)
        if label == "unlabelled":
            result.unlabelled.append({"a": a, "b": b, "where": "fold"})
    asked = set()
    served = queue.pending(namespace)
    names = [q for q in served if q.kind == ENTITY_PAIR]
    result.conflicts = len(served) - len(names)
    result.questions = len(names)
    # a pair's place in the sample depends on its names only, so the sample stays put as the queue moves
    sample = {q.id for q in sorted(names, key=lambda q: _digest(q.left_name, q.right_name))[:SAMPLE]}
    for position, q in enumerate(names, 1):
        asked.add(frozenset((home(q.left_id), home(q.right_id))))
        label = labels.get(_pair(q.left_name, q.right_name), "unlabelled")
        result.asks.add(label)
        for tally, chosen, where in ((result.first, position <= FIRST, f"queue {position}"),
                                     (result.sample, q.id in sample, "random sample")):  # fmt: skip
            if chosen:
                tally.add(label)
                if label == "unlabelled":
                    result.unlabelled.append({"a": q.left_name, "b": q.right_name, "where": where})
    # a cluster folds every member into its canonical: is each one the same thing as the canonical?
    for cluster in (q for q in group(namespace, served) if q.kind == NAME_CLUSTER):
        result.clusters += 1
        for member in cluster.members[1:]:
            result.cluster_members.add(labels.get(_pair(cluster.left_name, member.name), "unlabelled"))
    for p in recall_pairs:
        if p["same"] is not True:
            continue
        left, right = id_for_key(namespace, identity_key(p["a"])), id_for_key(namespace, identity_key(p["b"]))
        if left is None or right is None:
            continue  # a labelled name this store does not have
        result.same_labelled += 1
        result.same_surfaced += left == right or frozenset((left, right)) in asked
    return result


def auto_folds(namespace: str) -> list[tuple[str, str]]:
    """(absorbed, canonical) names of the standing automatic folds, as the fold named them."""
    from memo_tui.store import Decision
    from memo_tui.store.rows import tuples

    rows = Decision.select(Decision.payload).where(
        (Decision.namespace == namespace)
        & (Decision.action == "fold")
        & (Decision.channel == "auto")
        & Decision.undone_at.is_null()
    )
    out = []
    for (payload,) in tuples(rows):
        data = json.loads(payload) if isinstance(payload, str) else payload
        out.append((data["absorbed"]["name"], data["canonical"]["name"]))
    return out

"""`eval PAIRS.jsonl`: how the rules alone do on hand-labelled pairs (DESIGN §9)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from memo_tui.core.errors import MemoError
from memo_tui.core.rules import Name, judge_pair


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


def read_pairs(path: str) -> list[dict]:
    """Labelled pairs; a bad line is a MemoError naming path:line."""
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
        if not isinstance(row.get("same"), bool):
            raise MemoError(f'{path}:{number}: needs "same": true or false')
        pairs.append(row)
    return pairs


def evaluate(pairs: list[dict]) -> Evaluation:
    result = Evaluation()
    for row in pairs:
        verdict = judge_pair(Name(None, row["a"], row.get("type_a")), Name(None, row["b"], row.get("type_b")))
        result.pairs += 1
        result.same += row["same"]
        if verdict.kind == "fold":
            result.folded += 1
            result.folded_same += row["same"]
            if not row["same"]:
                result.wrong_folds.append({"a": row["a"], "b": row["b"], "rule": verdict.rule})
        elif verdict.kind == "ask":
            result.asked += 1
            result.asked_different += not row["same"]
        else:
            result.rejected += 1
            if row["same"]:
                result.missed.append({"a": row["a"], "b": row["b"], "rule": verdict.rule})
        result.same_surfaced += row["same"] and verdict.kind != "no"
    return result

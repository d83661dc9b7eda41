"""How well the rules and a store's pass do against hand labels (`memo-tui eval`)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from memo_tui.quality.evaluate import FIRST, SAMPLE, Evaluation, StoreEvaluation, evaluate, read_pairs
from memo_tui.quality.evaluate import evaluate_store as evaluate_pass

__all__ = ["FIRST", "SAMPLE", "kinds", "rules", "store"]


def rules(path: str) -> Evaluation:
    """The rules alone, on labelled pairs (JSONL)."""
    return evaluate(read_pairs(path))


def store(namespace: str, path: str) -> StoreEvaluation:
    """This store's automatic folds and queue, against labels of its own pairs (unsure labels kept)."""
    pairs = read_pairs(path, unsure=True)
    return evaluate_pass(namespace, pairs, pairs)


def kinds(data: Path) -> tuple[dict[str, dict], list[str]]:
    """Each kind of real text in `data`, built in a scratch store and scored held out and in sample;
    the figures by kind, and the kinds absent from `data`."""
    from memo_tui.quality.kinds import KINDS, figures

    with tempfile.TemporaryDirectory(prefix="memo-tui-eval-") as scratch:
        found = figures(data, Path(scratch), list(KINDS))
    return found, [kind.name for kind in KINDS if kind.name not in found]

"""Undo and redo: a reviewer's last action reverted, or the reverted decision made again."""

from __future__ import annotations

import json

from memo_tui.engine.graph import folds
from memo_tui.engine.review.clusters import answer_again
from memo_tui.engine.review.decisions import (
    ANSWERS,
    DecisionView,
    answer,
    answer_batch,
    manual_fold,
    not_a_name,
    revert,
    unsure,
)
from memo_tui.errors import MemoError
from memo_tui.store import Decision, Entity, Question
from memo_tui.store.kinds import ENTITY_PAIR


def _last_action(namespace: str, actor: str) -> Decision | None:
    return (
        Decision.select()
        .where((Decision.namespace == namespace) & (Decision.actor == actor) & (Decision.action != "moot"))
        .order_by(Decision.id.desc())
        .first()
    )


def undo_last(namespace: str, actor: str, channel: str) -> DecisionView:
    """Undo the last thing this reviewer did: revert it, or, when it was itself a revert, make the
    reverted decision again. Nothing older is ever touched."""
    row = _last_action(namespace, actor)
    if row is None or row.undone_at is not None:
        raise MemoError(f"{actor} has nothing to undo in namespace {namespace!r}")
    if row.action == "revert":
        return _reapply(namespace, row, actor, channel)
    return revert(namespace, row.id, actor, channel)


def redo_last(namespace: str, actor: str, channel: str) -> DecisionView:
    """Make again the decision this reviewer's last action reverted (an undo, or a revert)."""
    row = _last_action(namespace, actor)
    if row is None or row.action != "revert":
        raise MemoError(f"{actor} has nothing to redo in namespace {namespace!r}: the last action was not an undo")
    return _reapply(namespace, row, actor, channel)


def _reapply(namespace: str, revert_row: Decision, actor: str, channel: str) -> DecisionView:
    """The decision `revert_row` undid, made again as a new decision (the same answer, the same way)."""
    original = Decision.get_by_id(json.loads(revert_row.payload)["decision"])
    payload = json.loads(original.payload)
    if original.question_id is not None and original.action in ANSWERS:
        question = Question.get_by_id(original.question_id)
        if original.action != "merge":
            return answer(namespace, question.id, original.action, actor, channel)
        if question.kind != ENTITY_PAIR:
            keep = "left" if payload["kept"] == question.left_id else "right"
            return answer(namespace, question.id, "merge", actor, channel, keep=keep)
        left, right = (Entity.get_or_none(Entity.id == folds.home_of(i)) for i in (question.left_id, question.right_id))
        if left is not None and right is not None:
            canonical, _ = folds.canonical_order(left, right)
            swap = canonical.id != payload["canonical"]["id"]
            return answer(namespace, question.id, "merge", actor, channel, swap=swap)
    if original.action == "batch":
        return answer_batch(namespace, payload["questions"], payload["answer"], actor, channel)
    if original.action == "cluster":
        return answer_again(namespace, original, payload, actor, channel)
    if original.action == "not_a_name":
        return not_a_name(namespace, payload["rows"]["entity"]["name"], actor, channel)
    if original.action == "unsure":
        return unsure(namespace, payload["question"], payload["note"], actor, channel)
    if original.action == "fold" and original.channel != "auto":
        return manual_fold(namespace, payload["absorbed"]["name"], payload["canonical"]["name"], actor, channel)
    raise MemoError(f"decision {original.id} ({original.action}) cannot be made again from here; make it anew")

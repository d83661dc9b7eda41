"""Answering questions, manual folds, deletes and renames, with an append-only audit log.

Every public function here is one transaction and writes one `Decision` row saying who did what,
through which channel, and what changed; `revert` undoes any of them exactly.
"""

from __future__ import annotations

import getpass
import json
import os
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime

from peewee import fn

from memo_tui.engine.graph import folds, passages
from memo_tui.engine.graph.entities import require
from memo_tui.errors import MemoError
from memo_tui.store import (
    Alias,
    Decision,
    Entity,
    Fold,
    KeepApart,
    NotAName,
    Passage,
    Question,
    bump_version,
    db,
    utcnow,
)
from memo_tui.store.kinds import ENTITY_PAIR, PASSAGE_KINDS, REJECT
from memo_tui.store.locks import for_update, writing
from memo_tui.store.rows import tuples
from memo_tui.store.statements import LazyInserter

CHANNELS = ("tui", "cli", "auto", "agent")
ANSWERS = ("merge", "reject", "keep_both")


class AlreadyDecided(MemoError):
    """Another reviewer (or this one, earlier) settled the question first."""


def current_actor(explicit: str | None = None) -> str:
    """--as NAME, then MEMO_TUI_USER, then the login name."""
    if explicit:
        return explicit
    if os.environ.get("MEMO_TUI_USER"):
        return os.environ["MEMO_TUI_USER"]
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


@dataclass(frozen=True)
class DecisionView:
    """One audit-log entry as plain data."""

    id: int
    question_id: int | None
    action: str
    actor: str
    channel: str
    at: datetime
    payload: dict
    undone_at: datetime | None
    summary: str

    def as_dict(self) -> dict:
        return {**self.__dict__, "at": self.at.isoformat(), "undone_at": self.undone_at and self.undone_at.isoformat()}


def _view(row: Decision) -> DecisionView:
    payload = json.loads(row.payload)
    return DecisionView(
        id=row.id,
        question_id=row.question_id,
        action=row.action,
        actor=row.actor,
        channel=row.channel,
        at=row.at,
        payload=payload,
        undone_at=row.undone_at,
        summary=payload.get("summary", row.action),
    )


def record(
    namespace: str, action: str, actor: str, channel: str, payload: dict, question=None, fold: int | None = None
) -> DecisionView:
    """Write one row of the decision log (inside the caller's transaction)."""
    if channel not in CHANNELS:
        raise MemoError(f"unknown channel {channel!r}; one of {', '.join(CHANNELS)}")
    at = utcnow()
    text = json.dumps(payload, default=str, sort_keys=True)
    decision_id = _DECISION_INSERT.one((namespace, question, fold, action, actor, channel, at, text))
    return DecisionView(
        decision_id, question, action, actor, channel, at, payload, None, payload.get("summary", action)
    )


_DECISION_INSERT = LazyInserter(
    Decision, ("namespace", "question", "fold", "action", "actor", "channel", "at", "payload")
)


def _fold_payload(summary: folds.FoldSummary, how: str) -> dict:
    return {
        "fold_id": summary.fold_id,
        "canonical": {"id": summary.canonical_id, "name": summary.canonical_name},
        "absorbed": {"id": summary.absorbed_id, "name": summary.absorbed_name},
        "moved_mentions": summary.moved_mentions,
        "moved_relations": summary.moved_relations,
        "deactivated": summary.deactivated,
        "moved_aliases": summary.moved_aliases,
        "summary": f"{how} {summary.absorbed_name!r} into {summary.canonical_name!r}",
    }


def fold_entities(
    namespace: str,
    canonical: Entity,
    absorbed: Entity,
    actor: str,
    channel: str,
    rule: str | None = None,
    score: float | None = None,
    why: str | None = None,
) -> DecisionView:
    """Fold two entities and log it (used by manual folds and by the resolver's automatic folds);
    `why` is told after the summary. Inside a caller's transaction (a resolution pass) it joins that
    one instead of a savepoint each."""
    with nullcontext() if db.in_transaction() else db.atomic():
        summary = folds.fold(canonical, absorbed, decided_by=actor, channel=channel, rule=rule, score=score)
        payload = _fold_payload(summary, "folded")
        if why:
            payload["summary"] += f" ({why})"
        return record(namespace, "fold", actor, channel, payload, fold=summary.fold_id)


def _locked_homes(*entity_ids: int) -> tuple[int | None, ...]:
    """Where these entity ids live now, with those entities locked until the transaction ends: on
    PostgreSQL two answers that fold through a shared entity would otherwise both act on what they read
    before the other committed (SQLite's IMMEDIATE transaction already serialises them). Locked in id
    order, and read again after the lock: a fold committed while waiting moves the sides."""
    for _ in range(20):
        homes = tuple(folds.home_of(e) for e in entity_ids)
        live = sorted({h for h in homes if h is not None})
        locked = for_update(Entity.select(Entity.id).where(Entity.id.in_(live)).order_by(Entity.id))
        if {e.id for e in locked} == set(live) and tuple(folds.home_of(e) for e in entity_ids) == homes:
            return homes
    raise MemoError("the entities kept changing under this answer; try again")


def manual_fold(namespace: str, absorbed_name: str, canonical_name: str, actor: str, channel: str) -> DecisionView:
    """`graph fold A --into B`: any two entities, whatever their spelling (Bob into Robert)."""
    with writing(namespace):
        found = require(namespace, absorbed_name).entity, require(namespace, canonical_name).entity
        absorbed_id, canonical_id = _locked_homes(*(e.id for e in found))
        absorbed, canonical = Entity.get_by_id(absorbed_id), Entity.get_by_id(canonical_id)
        if absorbed.id == canonical.id:
            raise MemoError(f"{absorbed_name!r} and {canonical_name!r} are already one entity ({canonical.name!r})")
        summary = folds.fold(canonical, absorbed, decided_by=actor, channel=channel, rule="manual")
        payload = {**_fold_payload(summary, "folded"), "settled": _settle_follow_ups(namespace, canonical.id, actor)}
        return record(namespace, "fold", actor, channel, payload, fold=summary.fold_id)


def _claim(namespace: str, question_id: int) -> Question:
    # locked until the answer commits: a second reviewer waits, then reads the first one's answer
    query = Question.select().where((Question.id == question_id) & (Question.namespace == namespace))
    question = for_update(query).first()
    if question is None:
        raise MemoError(f"no question {question_id} in namespace {namespace!r}")
    if question.status != "pending":
        when = f"{question.decided_at:%Y-%m-%d %H:%M:%S} UTC" if question.decided_at else "an earlier time"
        raise AlreadyDecided(
            f"question {question_id} was already decided by {question.decided_by} at {when} ({question.status})"
        )
    return question


def _settle(question: Question, status: str, actor: str) -> None:
    updated = (
        Question.update(status=status, decided_at=utcnow(), decided_by=actor)
        .where((Question.id == question.id) & (Question.status == "pending"))
        .execute()
    )
    if updated != 1:  # cannot happen with the row locked (or SQLite's IMMEDIATE transaction); the last guard
        raise AlreadyDecided(f"question {question.id} was decided by someone else just now")


def answer(
    namespace: str, question_id: int, action: str, actor: str, channel: str, swap: bool = False, keep: str | None = None
) -> DecisionView:
    """Answer a pending question: merge, reject or keep_both."""
    if action not in ANSWERS:
        raise MemoError(f"unknown answer {action!r}; one of {', '.join(ANSWERS)}")
    with writing(namespace):
        question = _claim(namespace, question_id)
        if question.kind == ENTITY_PAIR:
            return _answer_pair(namespace, question, action, actor, channel, swap)
        return _answer_passages(namespace, question, action, actor, channel, keep, swap)


def answer_batch(namespace: str, question_ids, action: str, actor: str, channel: str) -> DecisionView:
    """Answer several pending questions the same way as one decision, all or none: each answer is a
    decision of its own (revertible alone from the history), and the batch reverts and undoes as one."""
    ids = list(dict.fromkeys(question_ids))
    if not ids:
        raise MemoError("no questions to answer")
    if action not in ANSWERS:
        raise MemoError(f"unknown answer {action!r}; one of {', '.join(ANSWERS)}")
    with writing(namespace):
        children = [answer(namespace, qid, action, actor, channel) for qid in ids]
        said = "; ".join(child.summary for child in children[:3]) + ("; …" if len(children) > 3 else "")
        payload = {
            "decisions": [child.id for child in children],
            "questions": ids,
            "answer": action,
            "summary": f"{action} on {len(children)} questions: {said}",
        }
        return record(namespace, "batch", actor, channel, payload)


def questions_like(namespace: str, question_id: int) -> list[int]:
    """The pending name questions of the same pattern as this one (it first), by rank: "every question
    like this"."""
    question = Question.get_or_none((Question.id == question_id) & (Question.namespace == namespace))
    if question is None:
        raise MemoError(f"no question {question_id} in namespace {namespace!r}")
    if question.kind != ENTITY_PAIR:
        raise MemoError(f"question {question_id} is a passage conflict; only name questions come in patterns")
    pattern = question.pattern or question.rule
    rows = (
        Question.select(Question.id)
        .where(
            (Question.namespace == namespace)
            & (Question.kind == ENTITY_PAIR)
            & (Question.status == "pending")
            & (fn.COALESCE(Question.pattern, Question.rule) == pattern)
        )
        .order_by(Question.priority.desc(), Question.id)
    )
    return [question_id] + [qid for (qid,) in tuples(rows) if qid != question_id]


def _answer_pair(namespace: str, question: Question, action: str, actor: str, channel: str, swap: bool) -> DecisionView:
    left_id, right_id = _locked_homes(question.left_id, question.right_id)
    if left_id is None or right_id is None:
        raise MemoError(f"question {question.id}: one side was deleted; reject it or revert the delete")
    names = f"{question.left_name!r} / {question.right_name!r}"
    if left_id == right_id:
        return _moot(namespace, question, actor, channel)
    left, right = Entity.get_by_id(left_id), Entity.get_by_id(right_id)
    if action == "merge":
        kept = kept_apart(namespace, left_id, right_id)
        if kept is not None:
            raise MemoError(
                f"question {question.id}: {names} fall on a pair kept apart by decision {kept.decision_id} "
                f"(reject); revert that decision to merge them"
            )
        canonical, absorbed = folds.canonical_order(left, right)
        if swap:
            canonical, absorbed = absorbed, canonical
        summary = folds.fold(canonical, absorbed, actor, channel, rule=question.rule, score=question.score)
        _settle(question, "merged", actor)
        payload = {**_fold_payload(summary, "merged"), "settled": _settle_follow_ups(namespace, canonical.id, actor)}
        return record(namespace, "merge", actor, channel, payload, question.id, fold=summary.fold_id)
    status = "rejected" if action == "reject" else "keep_both"
    _settle(question, status, actor)
    meaning = "different things" if action == "reject" else "both kept, not asked again"
    decision = record(namespace, action, actor, channel, {"summary": f"{names}: {meaning}"}, question.id)
    low, high = sorted((left_id, right_id))
    KeepApart.create(namespace=namespace, low_id=low, high_id=high, kind=action, decision=decision.id)
    return decision


def lineage(entity_id: int) -> set[int]:
    """The entity and every entity folded into it (by their original ids)."""
    rows = Alias.select(Alias.original_id).where((Alias.entity == entity_id) & Alias.original_id.is_null(False))
    return {entity_id} | {original for (original,) in tuples(rows)}


def kept_apart(namespace: str, left_id: int, right_id: int, kinds=(REJECT,)) -> KeepApart | None:
    """A reviewer's reject (or, with `kinds`, keep_both) between anything folded into one side and
    anything folded into the other."""
    left, right = lineage(left_id), lineage(right_id)
    both = sorted(left | right)
    rows = KeepApart.select().where(
        (KeepApart.namespace == namespace)
        & KeepApart.kind.in_(kinds)
        & KeepApart.low_id.in_(both)
        & KeepApart.high_id.in_(both)
    )
    for row in rows:
        if (row.low_id in left and row.high_id in right) or (row.low_id in right and row.high_id in left):
            return row
    return None


def _settle_follow_ups(namespace: str, canonical_id: int, actor: str) -> list[int]:
    """After a reviewer's fold: pending name questions about the canonical whose sides are now one
    entity, fall on a pair kept apart, or ask again what an older pending question asks, are settled
    at once (as moot); their ids go in the fold's payload, so that reverting it opens them again."""
    ids = sorted(lineage(canonical_id))
    rows = Question.select().where(
        (Question.namespace == namespace)
        & (Question.kind == ENTITY_PAIR)
        & (Question.status == "pending")
        & (Question.left_id.in_(ids) | Question.right_id.in_(ids))
    )
    settled, asked = [], set()
    for question in rows.order_by(Question.id):
        left, right = folds.home_of(question.left_id), folds.home_of(question.right_id)
        if left is None or right is None:
            continue
        pair = frozenset((left, right))
        if left == right or pair in asked or kept_apart(namespace, left, right) is not None:
            _settle(question, "moot", actor)
            settled.append(question.id)
        asked.add(pair)
    return settled


def _reopen(payload: dict) -> None:
    """Questions a reverted fold had settled as its consequence return to pending."""
    settled = payload.get("settled") or []
    _reopen_questions(
        q.id for q in Question.select(Question.id).where(Question.id.in_(settled) & (Question.status == "moot"))
    )


def _reopen_questions(question_ids) -> None:
    """Back to pending, unless another question asks the same pair now (a pair is pending at most once:
    the schema holds it), or the two names are one entity still (another fold made them one: a member
    reverted alone out of a merged cluster); such a question stays settled as moot."""
    for qid in question_ids:
        q = Question.get_by_id(qid)
        left = folds.home_of(q.left_id) if q.kind == ENTITY_PAIR else None
        if left is not None and left == folds.home_of(q.right_id):
            Question.update(status="moot").where(Question.id == qid).execute()
            continue
        same_pair = ((Question.left_id == q.left_id) & (Question.right_id == q.right_id)) | (
            (Question.left_id == q.right_id) & (Question.right_id == q.left_id)
        )
        asked = (
            Question.select()
            .where(
                (Question.namespace == q.namespace)
                & (Question.kind == q.kind)
                & (Question.status == "pending")
                & same_pair
                & (Question.id != qid)
            )
            .exists()
        )
        values = {"status": "moot"} if asked else {"status": "pending", "decided_at": None, "decided_by": None}
        Question.update(**values).where(Question.id == qid).execute()


def _moot(
    namespace: str, question: Question, actor: str, channel: str, why: str = "already one entity"
) -> DecisionView:
    _settle(question, "moot", actor)
    names = f"{question.left_name!r} / {question.right_name!r}"
    return record(namespace, "moot", actor, channel, {"summary": f"{names}: {why}"}, question.id)


def settle_moot(
    namespace: str, question_id: int, actor: str, channel: str, why: str = "already one entity"
) -> DecisionView:
    """Settle a pending question that no longer needs an answer (sides folded together, a passage gone)."""
    with writing(namespace):
        return _moot(namespace, _claim(namespace, question_id), actor, channel, why)


def _answer_passages(
    namespace: str, question: Question, action: str, actor: str, channel: str, keep: str | None, swap: bool = False
) -> DecisionView:
    names = f"passages {question.left_name!r} / {question.right_name!r}"
    if action != "merge":
        _settle(question, "rejected" if action == "reject" else "keep_both", actor)
        meaning = "not a conflict" if action == "reject" else "both stand"
        return record(namespace, action, actor, channel, {"summary": f"{names}: {meaning}"}, question.id)
    left, right = Passage.get_by_id(question.left_id), Passage.get_by_id(question.right_id)
    if keep is None:
        kept, retired = (left, right) if (left.created_at, left.id) > (right.created_at, right.id) else (right, left)
        if swap:  # merge the other way: keep the older
            kept, retired = retired, kept
    elif keep in ("left", "right"):
        kept, retired = (left, right) if keep == "left" else (right, left)
    else:
        raise MemoError("--keep is left or right")
    for passage in (retired, kept):
        if passage.retired_at is not None:
            raise MemoError(f"passage {passage.external_id!r} is already retired; the question is moot")
    passages.retire(retired.id)
    bump_version(namespace)
    _settle(question, "merged", actor)
    payload = {
        "kept": kept.id,
        "retired": retired.id,
        "settled": settle_questions_of_passage(namespace, retired.id, actor),
        "summary": f"kept {kept.external_id!r}, retired {retired.external_id!r}",
    }
    return record(namespace, "merge", actor, channel, payload, question.id)


def settle_questions_of_passage(namespace: str, passage_id: int, actor: str) -> list[int]:
    """A passage just retired: the pending passage questions about it go moot at once (ids returned,
    for a revert to reopen)."""
    rows = Question.select(Question.id).where(
        (Question.namespace == namespace)
        & Question.kind.in_(PASSAGE_KINDS)
        & (Question.status == "pending")
        & ((Question.left_id == passage_id) | (Question.right_id == passage_id))
    )
    ids = [qid for (qid,) in tuples(rows)]
    if ids:
        Question.update(status="moot", decided_at=utcnow(), decided_by=actor).where(Question.id.in_(ids)).execute()
    return ids


def revert(namespace: str, decision_id: int, actor: str, channel: str) -> DecisionView:
    """Undo any decision exactly; an answered question returns to pending."""
    with writing(namespace):
        row = Decision.get_or_none((Decision.id == decision_id) & (Decision.namespace == namespace))
        if row is None:
            raise MemoError(f"no decision {decision_id} in namespace {namespace!r}")
        if row.undone_at is not None:
            raise MemoError(f"decision {decision_id} was already reverted at {row.undone_at:%Y-%m-%d %H:%M:%S} UTC")
        if row.action == "revert":
            raise MemoError(f"decision {decision_id} is itself a revert; make the original decision again instead")
        claimed = (
            Decision.update(undone_at=utcnow()).where((Decision.id == row.id) & Decision.undone_at.is_null()).execute()
        )
        if claimed != 1:  # another revert of the same decision got there first (PostgreSQL re-reads the row)
            raise MemoError(f"decision {decision_id} was reverted by someone else just now")
        payload = json.loads(row.payload)
        if row.action in ("batch", "cluster"):
            _revert_batch(namespace, payload, actor, channel)
        else:
            _UNDO[row.action](namespace, row, payload)
        if row.question_id is not None:
            _reopen_questions([row.question_id])
        summary = f"reverted #{row.id}: {payload.get('summary', row.action)}"
        # the questions it had answered, pending again (a review app puts its cursor there)
        answered = [row.question_id] if row.question_id is not None else _questions_of(payload)
        said = {"decision": row.id, "questions": answered, "summary": summary}
        return record(namespace, "revert", actor, channel, said, row.question_id)


def _questions_of(payload: dict) -> list[int]:
    """The questions a decision without one question of its own answered (a batch, a cluster), settled
    (not a name) or left for later (unsure)."""
    own = [payload["question"]] if "question" in payload else []
    return payload.get("questions") or payload.get("settled") or own


def revert_fold(namespace: str, fold_id: int, actor: str, channel: str) -> DecisionView:
    """Revert a fold by its fold id (through the decision that made it)."""
    fold = Fold.get_or_none((Fold.id == fold_id) & (Fold.namespace == namespace))
    if fold is None:
        raise MemoError(f"no fold {fold_id} in namespace {namespace!r}")
    if fold.reverted_at is not None:
        raise MemoError(f"fold {fold_id} was already reverted at {fold.reverted_at:%Y-%m-%d %H:%M:%S} UTC")
    row = Decision.get(Decision.fold == fold_id)
    return revert(namespace, row.id, actor, channel)


def delete(namespace: str, name: str, actor: str, channel: str) -> DecisionView:
    """Delete an entity (refused while a fold points at it); revert puts every row back."""
    with writing(namespace):
        entity = require(namespace, name).entity
        rows = folds.delete_entity(entity)
        counts = f"{len(rows['mentions'])} mentions, {len(rows['relations'])} relations"
        return record(
            namespace, "delete", actor, channel, {"rows": rows, "summary": f"deleted {entity.name!r} ({counts})"}
        )


def rename(namespace: str, name: str, new_name: str, actor: str, channel: str) -> DecisionView:
    """Rename an entity; refused onto a live name or alias."""
    with writing(namespace):
        entity = require(namespace, name).entity
        alias_id = folds.rename_entity(entity, new_name)
        payload = {
            "entity": entity.id,
            "old": entity.name,
            "alias": alias_id,
            "summary": f"renamed {entity.name!r} to {new_name!r}",
        }
        return record(namespace, "rename", actor, channel, payload)


def not_a_name(namespace: str, name: str, actor: str, channel: str) -> DecisionView:
    """`Replaces`, `Wow Mel`: no name at all. The entity goes with its mentions and relations (kept in
    the decision for an exact revert), its pending questions go moot, and extraction skips its
    spellings in this namespace from then on. Refused while a fold points at it, as a delete is."""
    with writing(namespace):
        entity = require(namespace, name).entity
        spellings = [entity.identity_key] + [key for (key,) in tuples(Alias.select(Alias.identity_key)
                                             .where(Alias.entity == entity.id))]  # fmt: skip
        settled = _settle_questions_of_entity(namespace, entity.id, actor)
        rows = folds.delete_entity(entity)
        plural = "" if len(rows["mentions"]) == 1 else "s"
        payload = {
            "rows": rows,
            "spellings": spellings,
            "settled": settled,
            "summary": f"{entity.name!r} is not a name ({len(rows['mentions'])} mention{plural} dropped, "
            f"{len(settled)} question{'' if len(settled) == 1 else 's'} settled)",
        }
        decision = record(namespace, "not_a_name", actor, channel, payload)
        NotAName.insert_many(
            [{"namespace": namespace, "identity_key": key, "decision": decision.id} for key in spellings]
        ).execute()
        return decision


def not_names(namespace: str) -> frozenset[str]:
    """The identity keys reviewers said are no names in this namespace (extraction skips them)."""
    rows = tuples(NotAName.select(NotAName.identity_key).where(NotAName.namespace == namespace))
    return frozenset(key for (key,) in rows)


def _settle_questions_of_entity(namespace: str, entity_id: int, actor: str) -> list[int]:
    ids = sorted(lineage(entity_id))
    rows = Question.select(Question.id).where(
        (Question.namespace == namespace)
        & (Question.kind == ENTITY_PAIR)
        & (Question.status == "pending")
        & (Question.left_id.in_(ids) | Question.right_id.in_(ids))
    )
    settled = [qid for (qid,) in tuples(rows)]
    if settled:
        Question.update(status="moot", decided_at=utcnow(), decided_by=actor).where(Question.id.in_(settled)).execute()
    return settled


def unsure(namespace: str, question_id: int, note: str, actor: str, channel: str) -> DecisionView:
    """Leave a pending question for later with a note: it stays pending, behind the others, and
    nothing is settled. Recorded (and revertible) like every decision."""
    with writing(namespace):
        question = _claim(namespace, question_id)
        Question.update(unsure=note).where(Question.id == question.id).execute()
        said = f": {note}" if note else ""
        payload = {"was": question.unsure, "note": note, "summary": f"unsure of #{question.id}{said}"}
        # not the question's decision: it stays pending, and a revert must not reopen anything
        return record(namespace, "unsure", actor, channel, {**payload, "question": question.id})


def _undo_fold(namespace: str, row: Decision, payload: dict) -> None:
    fold = Fold.get_by_id(payload["fold_id"])
    if fold.reverted_at is None:
        folds.revert_fold(fold.id, namespace)
    _reopen(payload)


def _undo_merge(namespace: str, row: Decision, payload: dict) -> None:
    if "fold_id" in payload:
        _undo_fold(namespace, row, payload)
    else:
        passages.restore(payload["retired"])
        bump_version(namespace)
        _reopen(payload)


def _undo_keep(namespace: str, row: Decision, payload: dict) -> None:
    KeepApart.delete().where(KeepApart.decision == row.id).execute()


def _undo_delete(namespace: str, row: Decision, payload: dict) -> None:
    folds.restore_deleted(payload["rows"])


def _undo_rename(namespace: str, row: Decision, payload: dict) -> None:
    folds.undo_rename(payload["entity"], payload["old"], payload["alias"])


def _undo_not_a_name(namespace: str, row: Decision, payload: dict) -> None:
    NotAName.delete().where(NotAName.decision == row.id).execute()
    folds.restore_deleted(payload["rows"])
    _reopen(payload)


def _undo_unsure(namespace: str, row: Decision, payload: dict) -> None:
    Question.update(unsure=payload["was"]).where(Question.id == payload["question"]).execute()


def _undo_nothing(namespace: str, row: Decision, payload: dict) -> None:
    return None


def _revert_batch(namespace: str, payload: dict, actor: str, channel: str) -> None:
    """Each answer of a batch (or fold of a cluster) reverted, newest first, by whoever reverts the
    batch (answers already reverted alone are left as they are)."""
    for child_id in reversed(payload["decisions"]):
        if Decision.get_by_id(child_id).undone_at is None:
            revert(namespace, child_id, actor, channel)


_UNDO = {
    "fold": _undo_fold,
    "merge": _undo_merge,
    "reject": _undo_keep,
    "keep_both": _undo_keep,
    "moot": _undo_nothing,
    "delete": _undo_delete,
    "rename": _undo_rename,
    "not_a_name": _undo_not_a_name,
    "unsure": _undo_unsure,
}


def history(namespace: str, who: str | None = None, limit: int | None = None) -> list[DecisionView]:
    """The audit log, newest first; `who` is 'auto' or 'human' to filter by channel."""
    query = Decision.select().where(Decision.namespace == namespace)
    if who == "auto":
        query = query.where(Decision.channel == "auto")
    elif who == "human":
        query = query.where(Decision.channel != "auto")
    query = query.order_by(Decision.at.desc(), Decision.id.desc())
    if limit:
        query = query.limit(limit)
    return [_view(row) for row in query]

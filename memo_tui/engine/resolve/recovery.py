"""A pass that dies half way is taken back by the next one, so that every pass starts from where an
uninterrupted one would have.

A pass folds group by group, each group in a transaction of its own (a reviewer's answer waits for one
group, never for the pass), and writes its questions at the end. Killed between the two, it would leave
some of its folds and none of its questions, and the next pass, starting from a half-folded graph,
would weigh its pairs otherwise than one pass does from the start. So a pass marks where it began (the
newest decision then) and clears the mark with its questions; the next pass that finds the mark
reverts, newest first, the automatic folds made since it, and starts from the graph the dead pass read.

Only the pass's own folds are taken back, and only while nobody built on them: when a person or an
agent decided anything since the mark, the folds stand (their decisions are never undone behind their
back) and the next pass starts from the graph as they left it. A fold taken back this way is no
reviewer's verdict: `taken_back` names them, and what reads reverted folds as "not the same" skips them.
"""

from __future__ import annotations

import json

from peewee import fn

from memo_tui.engine.review import decisions
from memo_tui.store import Decision, Meta
from memo_tui.store.locks import writing

AUTO = "auto"  # the pass's actor and channel
_MARK = "pass-begun:{}"


def begin(namespace: str) -> int | None:
    """Take back what a dead pass left, then mark this pass's start. None when no pass died since the
    last one ended, else how many of its folds were reverted."""
    with writing(namespace):
        mark = Meta.get_or_none(Meta.key == _MARK.format(namespace))
        taken = _take_back(namespace, int(mark.value)) if mark is not None else None
        newest = Decision.select(fn.MAX(Decision.id)).where(Decision.namespace == namespace).scalar() or 0
        Meta.insert(key=_MARK.format(namespace), value=str(newest)).on_conflict(
            conflict_target=[Meta.key], update={Meta.value: str(newest)}
        ).execute()
    return taken


def finish(namespace: str) -> None:
    """The pass ended, whole or cancelled by its caller: nothing of it is taken back. (Killed between its
    last write and this, it is taken back and made again whole: the same outcome, some more history.)"""
    with writing(namespace):
        Meta.delete().where(Meta.key == _MARK.format(namespace)).execute()


def _take_back(namespace: str, since: int) -> int:
    after = Decision.select().where((Decision.namespace == namespace) & (Decision.id > since))
    if after.where((Decision.actor != AUTO) | (Decision.channel != AUTO)).exists():
        return 0  # somebody built on the dead pass's graph: it stands as they saw it
    folded = after.where((Decision.action == "fold") & Decision.undone_at.is_null()).order_by(Decision.id.desc())
    ids = [row.id for row in folded]
    for decision_id in ids:
        decisions.revert(namespace, decision_id, AUTO, AUTO)
    return len(ids)


def taken_back(namespace: str) -> set[int]:
    """The folds (their ids) that passes took back from a dead pass: no reviewer reverted them."""
    reverts = Decision.select(Decision.payload).where(
        (Decision.namespace == namespace)
        & (Decision.action == "revert")
        & (Decision.actor == AUTO)
        & (Decision.channel == AUTO)
    )
    undone = [json.loads(payload)["decision"] for (payload,) in reverts.tuples()]
    if not undone:
        return set()
    rows = Decision.select(Decision.fold).where(Decision.id.in_(undone) & Decision.fold.is_null(False))
    return {fold for (fold,) in rows.tuples()}

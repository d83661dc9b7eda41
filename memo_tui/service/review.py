"""The reviewer's work: the queue, an item's detail, answers, reverts, undo and redo, hand edits and
the history; and the same for an agent, within what an agent may do (people first).

Whether an answer goes to one question or to the cluster it leads is decided here, not by each
interface: an interface says only what the reviewer saw (a pair, or a cluster's members)."""

from __future__ import annotations

from dataclasses import dataclass

from memo_tui.engine import proposals
from memo_tui.engine.review import clusters, decisions
from memo_tui.engine.review import detail as details
from memo_tui.engine.review import queue as queues
from memo_tui.engine.review import undo as undoing
from memo_tui.engine.review.decisions import DecisionView, current_actor
from memo_tui.engine.review.queue import QuestionView, Signature
from memo_tui.errors import MemoError

__all__ = [
    "QueuePage",
    "answer",
    "answer_as_agent",
    "answer_batch",
    "answer_card",
    "cluster_detail",
    "current_actor",
    "delete",
    "history",
    "manual_fold",
    "members_named",
    "not_a_name",
    "propose",
    "question_detail",
    "questions_like",
    "queue",
    "queue_page",
    "redo",
    "rename",
    "revert",
    "revert_as_agent",
    "signature",
    "undo",
    "unsure",
]

AGENT = "agent"  # the channel of every agent's decision


# -- the queue -------------------------------------------------------------------------------


def queue(namespace: str, proposed: bool = False, kind: str | None = None, matching: str = "") -> list[QuestionView]:
    """Pending items, ranked: a family of 3 or more spellings or passages is one cluster item (an
    agent's proposals, `proposed`, stay pairs: an agent proposed each one); `kind` keeps one kind of
    item, `matching` those whose kind, rule, names or reason contain the text."""
    items = queues.pending(namespace, proposed=proposed)
    if not proposed:
        items = clusters.group(namespace, items)
    if kind is not None:
        items = [q for q in items if q.kind == kind]
    if matching:
        items = [q for q in items if queues.matches(q, matching)]
    return items


@dataclass(frozen=True)
class QueuePage:
    """The best-ranked items of the queue, with what a reviewer's screen says beside them."""

    items: list[QuestionView]
    pending: int  # pending questions in all (a cluster stands for several)
    waiting: int  # name pairs the last pass left for a later one
    signature: Signature  # the namespace when it was read: compare with `signature` to see changes
    kept: dict[int, int]  # `queue.kept_sides`: which side a merge keeps, by question


def queue_page(namespace: str, most: int, proposed: bool = False, matching: str = "") -> QueuePage:
    mark = queues.signature(namespace)
    items = queue(namespace, proposed=proposed, matching=matching)[:most]
    return QueuePage(items, mark.pending, queues.waiting(namespace), mark, queues.kept_sides(items))


def signature(namespace: str) -> Signature:
    """What changes when anyone changes the namespace; cheap enough to poll."""
    return queues.signature(namespace)


def question_detail(namespace: str, question_id: int, passages: int = details.PASSAGES_PER_SIDE) -> details.Detail:
    """A question's two sides (entities with their latest passages, or two passages) and its evidence."""
    return details.question_detail(namespace, question_id, passages)


def cluster_detail(
    namespace: str, lead: int, passages: int = 2, canonical: int | None = None
) -> clusters.ClusterDetail:
    """A cluster's card: every member with what a reviewer checks, shown as a merge into `canonical`."""
    return clusters.cluster_detail(namespace, lead, passages, canonical)


def history(namespace: str, who: str | None = None, limit: int | None = None) -> list[DecisionView]:
    """The log, newest first; `who`: "auto" (the resolver) or "human" (people and agents)."""
    return decisions.history(namespace, who=who, limit=limit)


# -- answers ---------------------------------------------------------------------------------


def answer(
    namespace: str,
    question_id: int,
    action: str,
    actor: str,
    channel: str,
    *,
    pair: bool = False,
    swap: bool = False,
    keep: str | None = None,
    seen: list[int] | None = None,
    canonical: int | None = None,
    leave_out: list[int] | None = None,
    mark_rest: bool = False,
) -> DecisionView:
    """Answer a queue item by its number: the cluster the question leads, as a whole, else the
    question. `pair`: this question alone, whatever it leads. `swap` and `keep` (which way a pair
    merges) are for a question alone. `seen`, `canonical`, `leave_out` and `mark_rest` as in
    `clusters.answer_item`."""
    if pair:
        return decisions.answer(namespace, question_id, action, actor, channel, swap=swap, keep=keep)
    if swap or keep is not None:
        if clusters.led_by(namespace, question_id) is not None:
            raise MemoError(
                f"question {question_id} leads a cluster: choose its kept member with --canonical, not --swap/--keep"
            )
        return decisions.answer(namespace, question_id, action, actor, channel, swap=swap, keep=keep)
    return clusters.answer_item(
        namespace, question_id, action, actor, channel, seen=seen, canonical=canonical, leave_out=leave_out,
        mark_rest=mark_rest,
    )  # fmt: skip


def answer_card(
    namespace: str,
    lead: int,
    action: str,
    actor: str,
    channel: str,
    *,
    seen: list[int],
    canonical: int | None = None,
    members: list[int] | None = None,
    mark_rest: bool = False,
) -> DecisionView:
    """Answer a cluster's card as the reviewer left it: `members` the ones checked to fold (None:
    all but those kept apart), `seen` the members shown (a cluster changed since is refused)."""
    return clusters.answer_cluster(
        namespace, lead, action, actor, channel, canonical=canonical, members=members, mark_rest=mark_rest, seen=seen
    )


def members_named(
    namespace: str, lead: int, canonical: str | None, leave_out: list[str]
) -> tuple[int | None, list[int]]:
    """The ids of a cluster's members given by name (exactly, else in any case when only one matches)
    or #id: the canonical and those left out of a merge."""
    cluster = clusters.led_by(namespace, lead)
    if cluster is None:
        raise MemoError(f"question {lead} does not lead a cluster; --canonical, --except and --mark-rest are for one")
    chosen = _member(cluster, canonical) if canonical else None
    return chosen, [_member(cluster, name) for name in leave_out]


def _member(cluster: QuestionView, name: str) -> int:
    exact = [m.id for m in cluster.members if name in (m.name, f"#{m.id}")]
    folded = [m for m in cluster.members if m.name.casefold() == name.casefold()]
    if exact or len(folded) == 1:
        return exact[0] if exact else folded[0].id
    if folded:
        which = ", ".join(f"#{m.id} {m.name!r}" for m in folded)
        raise MemoError(f"{name!r} matches {len(folded)} members but none exactly ({which}); give one as #id")
    names = ", ".join(repr(m.name) for m in cluster.members)
    raise MemoError(f"{name!r} is not a member of cluster {cluster.id} ({names})")


def answer_batch(
    namespace: str, question_ids: list[int], action: str, actor: str, channel: str, pairs: bool = False
) -> DecisionView:
    """Answer several questions the same way, as one decision. A cluster's lead among them would be
    answered as its lead pair only: refused unless `pairs` says that is meant."""
    if not pairs:
        for number in question_ids:
            cluster = clusters.led_by(namespace, number)
            if cluster is not None:
                size = len(cluster.members)
                raise MemoError(f"{number} leads a cluster of {size}: answer it alone (or the lead pairs with --pair)")
    return decisions.answer_batch(namespace, question_ids, action, actor, channel)


def questions_like(namespace: str, question_id: int) -> list[int]:
    """The pending name questions of this one's pattern (it first), by rank."""
    return decisions.questions_like(namespace, question_id)


# -- reverts and hand edits ------------------------------------------------------------------


def revert(namespace: str, decision_id: int, actor: str, channel: str, fold: bool = False) -> DecisionView:
    """Undo a decision exactly, by its id (`fold`: the id is a fold's, as `graph history` lists folds)."""
    if fold:
        return decisions.revert_fold(namespace, decision_id, actor, channel)
    return decisions.revert(namespace, decision_id, actor, channel)


def undo(namespace: str, actor: str, channel: str) -> DecisionView:
    """Undo this reviewer's last action (an undo too)."""
    return undoing.undo_last(namespace, actor, channel)


def redo(namespace: str, actor: str, channel: str) -> DecisionView:
    """Make again what this reviewer's last undo undid."""
    return undoing.redo_last(namespace, actor, channel)


def manual_fold(namespace: str, absorbed: str, into: str, actor: str, channel: str) -> DecisionView:
    return decisions.manual_fold(namespace, absorbed, into, actor, channel)


def delete(namespace: str, name: str, actor: str, channel: str) -> DecisionView:
    return decisions.delete(namespace, name, actor, channel)


def rename(namespace: str, name: str, new_name: str, actor: str, channel: str) -> DecisionView:
    return decisions.rename(namespace, name, new_name, actor, channel)


def not_a_name(namespace: str, name: str, actor: str, channel: str) -> DecisionView:
    """Drop a junk name: its mentions go, its questions settle, extraction skips it from then on."""
    return decisions.not_a_name(namespace, name, actor, channel)


def unsure(namespace: str, question_id: int, note: str, actor: str, channel: str) -> DecisionView:
    """Leave a question pending with a note, behind the others; it settles nothing."""
    return decisions.unsure(namespace, question_id, note, actor, channel)


# -- agents ----------------------------------------------------------------------------------


def propose(namespace: str, left: str, right: str, kind: str, reason: str, agent: str) -> tuple[QuestionView, bool]:
    """An agent's proposal (merge or keep_apart), queued for a person; False when it was pending already."""
    return proposals.propose(namespace, left, right, kind, reason, agent)


def answer_as_agent(
    namespace: str,
    question_id: int,
    action: str,
    agent: str,
    *,
    pair: bool = False,
    seen: list[int] | None = None,
    canonical: int | None = None,
    leave_out: list[int] | None = None,
    mark_rest: bool = False,
) -> DecisionView:
    """`answer` for an agent, which never merges passages of which one is a person's."""
    if pair and seen is not None:
        raise MemoError("pair_only answers one question and members_seen a cluster: give one or the other")
    if pair and (canonical is not None or leave_out or mark_rest):
        raise MemoError("pair_only answers one question; canonical, leave_out and mark_rest are for a cluster")
    if action == "merge":
        cluster = None if pair else clusters.led_by(namespace, question_id)
        proposals.refuse_retiring_persons(namespace, [question_id, *(cluster.questions if cluster else [])])
    return answer(
        namespace, question_id, action, agent, AGENT, pair=pair, seen=seen, canonical=canonical, leave_out=leave_out,
        mark_rest=mark_rest,
    )  # fmt: skip


def revert_as_agent(namespace: str, decision_id: int, agent: str) -> DecisionView:
    """An agent reverts its own decisions and the resolver's, never a person's."""
    return proposals.revert_as_agent(namespace, decision_id, agent)

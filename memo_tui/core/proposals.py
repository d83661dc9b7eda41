"""Agents' proposals: a merge or a keep-apart an agent suggests, queued for a person to answer.

A proposal never changes the graph. It is a pending name question marked with the agent's name and
reason (`question.proposed_by`), ranked with the others by its pattern's likelihood (`agent-merge`,
`agent-keep-apart`: the default prior, moved by this store's answers to earlier proposals). A person
answers it in the TUI or the CLI: merge folds the pair, reject keeps it apart.
"""

from __future__ import annotations

from memo_tui.core import evidence
from memo_tui.core.decisions import kept_apart
from memo_tui.core.entities import require
from memo_tui.core.folds import active_mention_count, canonical_order
from memo_tui.core.queue import QuestionView, view
from memo_tui.core.resolver import SETTLED_KINDS, answer_counts
from memo_tui.errors import MemoError
from memo_tui.store import Question, utcnow
from memo_tui.store.locks import writing

KINDS = {"merge": "agent-merge", "keep_apart": "agent-keep-apart"}
MAX_REASON = 2000


def propose(namespace: str, left: str, right: str, kind: str, reason: str, agent: str) -> tuple[QuestionView, bool]:
    """Queue an agent's proposal about two names: the pending question, and whether it is new (False:
    a question already asked the pair). A pair already settled, or already one entity, is refused
    with a line saying so."""
    if kind not in KINDS:
        raise MemoError(f"unknown proposal {kind!r}; one of {', '.join(KINDS)}")
    reason = " ".join(reason.split())
    if not reason:
        raise MemoError("a proposal needs a reason: what the agent saw")
    if len(reason) > MAX_REASON:
        raise MemoError(f"a reason is at most {MAX_REASON} characters")
    with writing(namespace):
        a, b = require(namespace, left).entity, require(namespace, right).entity
        if a.id == b.id:
            raise MemoError(f"{left!r} and {right!r} are already one entity ({a.name!r})")
        settled = kept_apart(namespace, a.id, b.id, SETTLED_KINDS)
        if settled is not None:
            verdict = "kept apart" if settled.kind == "reject" else "kept both, as they are"
            raise MemoError(
                f"{a.name!r} / {b.name!r} were already settled by a reviewer: {verdict} "
                f"(decision {settled.decision_id}); revert that decision to ask again"
            )
        same_pair = ((Question.left_id == a.id) & (Question.right_id == b.id)) | (
            (Question.left_id == b.id) & (Question.right_id == a.id)
        )
        asked = Question.get_or_none(
            (Question.namespace == namespace)
            & (Question.kind == "entity_pair")
            & (Question.status == "pending")
            & same_pair
        )
        if asked is not None:
            return view(asked), False
        canonical, absorbed = canonical_order(a, b)
        rule = KINDS[kind]
        # no labels for agents yet: the default pattern's prior, moved by how reviewers here answered
        # this agent pattern before (the same update every pattern gets at each pass)
        likelihood = evidence.prior(rule, answer_counts(namespace))[0]
        impact = min(active_mention_count(canonical.id), active_mention_count(absorbed.id))
        says = "the same" if kind == "merge" else "different"
        question = Question.create(
            namespace=namespace,
            kind="entity_pair",
            left_id=canonical.id,
            right_id=absorbed.id,
            left_name=canonical.name,
            right_name=absorbed.name,
            score=0.0,
            rule=rule,
            reason=f"agent {agent} proposes they are {says}: {reason}",
            impact=impact,
            pattern=rule,
            likelihood=likelihood,
            evidence=0.0,
            priority=evidence.yield_of(likelihood, impact),
            created_at=utcnow(),
            proposed_by=agent,
        )
        return view(question), True

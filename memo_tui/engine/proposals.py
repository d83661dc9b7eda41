"""Agents' proposals: a merge or a keep-apart an agent suggests, queued for a person to answer.

A proposal never changes the graph. It is a pending name question marked with the agent's name and
reason (`question.proposed_by`), ranked with the others by its pattern's likelihood (`agent-merge`,
`agent-keep-apart`: the default prior, moved by this store's answers to earlier proposals). A person
answers it in the TUI or the CLI: merge folds the pair, reject keeps it apart. A proposal on a pair
already asked is written beside that question's reason, for the reviewer to read.

People first: an agent's passages carry the source `agent:NAME`. An agent's ingest never retires a
person's passage (a revision or a `supersedes` of one): its text is written beside it, under the
id `ID~NAME`, and a duplicate question proposed by the agent asks a reviewer which stands. An agent
never reverts a person's decision, nor merges passages of which one is a person's.
"""

from __future__ import annotations

import json
from dataclasses import replace

from memo_tui.engine.graph.entities import require
from memo_tui.engine.graph.folds import active_mention_count, canonical_order
from memo_tui.engine.ingest import IngestReport, ingest_records
from memo_tui.engine.resolve.reads import answer_counts
from memo_tui.engine.review import decisions
from memo_tui.engine.review.decisions import kept_apart
from memo_tui.engine.review.queue import QuestionView, view
from memo_tui.errors import MemoError
from memo_tui.names import evidence
from memo_tui.store import Decision, Passage, Question, utcnow
from memo_tui.store.kinds import DUPLICATE, ENTITY_PAIR, PASSAGE_KINDS, REJECT, SETTLED_KINDS
from memo_tui.store.locks import writing
from memo_tui.store.rows import tuples
from memo_tui.text.sources import PassageRecord

KINDS = {"merge": "agent-merge", "keep_apart": "agent-keep-apart"}
REVISION = "agent-revision"
MAX_REASON = 2000
AGENT_SOURCE = "agent:"
MACHINE_CHANNELS = ("auto", "agent")  # every other channel is a person's (tui, cli, ...)


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
            verdict = "kept apart" if settled.kind == REJECT else "kept both, as they are"
            raise MemoError(
                f"{a.name!r} / {b.name!r} were already settled by a reviewer: {verdict} "
                f"(decision {settled.decision_id}); revert that decision to ask again"
            )
        same_pair = ((Question.left_id == a.id) & (Question.right_id == b.id)) | (
            (Question.left_id == b.id) & (Question.right_id == a.id)
        )
        asked = Question.get_or_none(
            (Question.namespace == namespace)
            & (Question.kind == ENTITY_PAIR)
            & (Question.status == "pending")
            & same_pair
        )
        if asked is not None:
            _note_beside(asked, f"agent {agent} proposes they are {_says(kind)}: {reason}")
            return view(asked), False
        canonical, absorbed = canonical_order(a, b)
        rule = KINDS[kind]
        # no labels for agents yet: the default pattern's prior, moved by how reviewers here answered
        # this agent pattern before (the same update every pattern gets at each pass)
        likelihood = evidence.prior(rule, answer_counts(namespace))[0]
        impact = min(active_mention_count(canonical.id), active_mention_count(absorbed.id))
        says = _says(kind)
        question = Question.create(
            namespace=namespace,
            kind=ENTITY_PAIR,
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


def _says(kind: str) -> str:
    return "the same" if kind == "merge" else "different"


def _note_beside(question: Question, note: str) -> None:
    """An agent's word on a pair already asked joins the question's reason (once), not dropped."""
    if note not in question.reason:
        question.reason = f"{question.reason}; {note}"
        question.save(only=[Question.reason])


def agent_source(agent: str, given: str | None) -> str:
    """The source an agent's passage is stored under: always marked as the agent's."""
    return f"{AGENT_SOURCE}{agent}" + (f":{given}" if given else "")


def is_persons(source: str | None) -> bool:
    return not (source or "").startswith(AGENT_SOURCE)


def ingest_as_agent(namespace: str, records: list[PassageRecord], agent: str) -> tuple[IngestReport, list[int]]:
    """Ingest an agent's passages, people first: a record that would revise or supersede a live
    passage of a person's is written beside it instead, and a question asks a reviewer which stands.
    Returns the report and the ids of the questions queued."""
    people = _persons_live(namespace, [r.external_id for r in records] + [t for r in records for t in r.supersedes])
    revisions: list[tuple[int, str]] = []  # (a person's passage, the external id of the agent's text beside it)
    written = []
    for record in records:
        record = replace(record, source=agent_source(agent, record.source))
        held = people.get(record.external_id)
        if held is not None and held[1:] != (record.text, _declared(record)):
            record = replace(record, external_id=f"{record.external_id}~{agent}")
            revisions.append((held[0], record.external_id))
        kept = [t for t in record.supersedes if t not in people]
        revisions.extend((people[t][0], record.external_id) for t in record.supersedes if t in people)
        written.append(replace(record, supersedes=kept))
    report = ingest_records(namespace, written)
    asked = (_propose_revision(namespace, *pair, agent) for pair in dict.fromkeys(revisions))
    return report, list(dict.fromkeys(q for q in asked if q is not None))


def _declared(record: PassageRecord) -> str | None:
    """As the passage stores it (`ingest`): the same text and declared parts are no revision."""
    return json.dumps(record.declared(), sort_keys=True) if record.declared() else None


def _persons_live(namespace: str, external_ids: list[str]) -> dict[str, tuple[int, str, str | None]]:
    """external id -> (passage id, text, declared) of the live passages among these that a person wrote."""
    found = {}
    unique = list(dict.fromkeys(external_ids))
    for start in range(0, len(unique), 500):
        rows = Passage.select(Passage.id, Passage.external_id, Passage.text, Passage.declared, Passage.source).where(
            (Passage.namespace == namespace)
            & Passage.retired_at.is_null()
            & Passage.external_id.in_(unique[start : start + 500])
        )
        for pid, ext, text, declared, source in tuples(rows):
            if is_persons(source):
                found[ext] = (pid, text, declared)
    return found


def _propose_revision(namespace: str, persons_id: int, agents_external_id: str, agent: str) -> int | None:
    """Queue "which stands?" on a person's passage and the agent's text beside it; the question's id
    (the pending one when the pair is asked already), None when one of them is no longer live."""
    with writing(namespace):
        persons = Passage.get_or_none((Passage.id == persons_id) & Passage.retired_at.is_null())
        agents = Passage.get_or_none(
            (Passage.namespace == namespace)
            & (Passage.external_id == agents_external_id)
            & Passage.retired_at.is_null()
        )
        if persons is None or agents is None or persons.id == agents.id:
            return None
        asked = Question.get_or_none(
            (Question.namespace == namespace)
            & (Question.kind == DUPLICATE)
            & (Question.status == "pending")
            & (
                ((Question.left_id == persons.id) & (Question.right_id == agents.id))
                | ((Question.left_id == agents.id) & (Question.right_id == persons.id))
            )
        )
        if asked is not None:
            return asked.id
        likelihood = evidence.prior(REVISION, answer_counts(namespace))[0]
        question = Question.create(
            namespace=namespace,
            kind=DUPLICATE,
            left_id=persons.id,
            right_id=agents.id,
            left_name=persons.external_id,
            right_name=agents.external_id,
            score=0.0,
            rule=REVISION,
            reason=f"agent {agent} proposes a revision of {persons.external_id!r}, a person's passage; a reviewer "
            f"chooses which stands",
            impact=1,
            pattern=REVISION,
            likelihood=likelihood,
            evidence=0.0,
            priority=evidence.yield_of(likelihood, 1),
            created_at=utcnow(),
            proposed_by=agent,
        )
        return question.id


def revert_as_agent(namespace: str, decision_id: int, agent: str) -> decisions.DecisionView:
    """An agent reverts its own decisions and the resolver's, never a person's."""
    row = Decision.get_or_none((Decision.id == decision_id) & (Decision.namespace == namespace))
    if row is not None and row.channel not in MACHINE_CHANNELS:
        raise MemoError(f"decision {decision_id} is a person's ({row.actor}); only a person reverts it")
    return decisions.revert(namespace, decision_id, agent, "agent")


def refuse_retiring_persons(namespace: str, question_ids: list[int]) -> None:
    """An agent's merge of passages would retire one of them: refused when any is a person's."""
    rows = Question.select(Question.id, Question.left_id, Question.right_id).where(
        (Question.namespace == namespace) & Question.id.in_(question_ids) & Question.kind.in_(PASSAGE_KINDS)
    )
    for qid, left, right in tuples(rows):
        sources = tuples(Passage.select(Passage.source).where(Passage.id.in_((left, right))))
        if any(is_persons(source) for (source,) in sources):
            raise MemoError(f"question {qid} would retire a person's passage; only a person answers it")

"""`memo-tui mcp`: agents read the cleaned graph and propose decisions for a person to review.

Read tools return structured (pydantic) results. Write tools: `ingest_passages` (the README's JSONL
schema, validated per item as `ingest` does), `propose_merge` / `propose_keep_apart` (a pending
question marked as the agent's: the graph does not change), and, only with `--allow-answers`,
`answer_question` (a cluster's id answers the cluster, as the queue shows it or with the canonical
and members the agent chooses) and `revert`, recorded with channel `agent` and the agent's name.
Errors are error results carrying the CLI's one line, never a traceback.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

from memo_tui.core import clusters, decisions, detail, graph, names, proposals, queue
from memo_tui.core.entities import require
from memo_tui.core.evidence import prior
from memo_tui.core.ingest import ingest_records
from memo_tui.core.rules import Name, judge_pair
from memo_tui.core.sources import parse_object, parse_time
from memo_tui.errors import MemoError

CHANNEL = "agent"
GATED = "answering and reverting are off on this server; start it with `memo-tui mcp --allow-answers` to allow them"


class EntityHit(BaseModel):
    name: str = Field(description="the spelling that matched (an entity's name or one of its aliases)")
    entity_id: int
    canonical: str | None = Field(description="the entity's name when the spelling is an alias of it")
    type: str | None
    passages: int = Field(description="live passages naming the entity")
    score: float = Field(description="how well the spelling matches the query, 0-100")


class EntityCard(BaseModel):
    id: int
    name: str
    matched_alias: str | None = Field(description="the absorbed spelling that was asked for, if any")
    type: str | None
    mentions: int = Field(description="active mentions in live passages")
    passages: int = Field(description="live passages naming it")
    aliases: list[str]
    latest_passages: list[detail.Excerpt]


class ClusterMember(BaseModel):
    id: int = Field(description="the entity's id, or the passage's")
    name: str = Field(description="the entity's name, or the passage's external id")
    type: str | None = Field(description="the entity's type (None for a passage)")
    passages: int = Field(description="live passages naming the entity (1 for a passage)")
    likelihood: float = Field(
        description="that it is the same as the canonical, along the likeliest chain of questions"
    )
    reason: str = Field(description="the reason of the question that joins it on that chain")
    question_id: int
    via: str | None = Field(description="the member that chain passes through (None: asked beside the canonical)")
    kept_apart: bool = Field(
        description="a reviewer said it differs from the canonical, or from a member folded before it: left out of a "
        "merge"
    )
    apart_from: str | None = Field(description="which one it was said to differ from")


class QuestionItem(BaseModel):
    id: int = Field(description="the question's id; a cluster's is its lead question's, the smallest of its questions")
    kind: str = Field(
        description="entity_pair, duplicate or contradiction; or a cluster of 3 or more: name_cluster (a family of "
        "spellings) or passage_family (near-identical passages); a cluster's left is its canonical, its right the "
        "other members, comma-separated"
    )
    left: str
    right: str
    rule: str
    likelihood: float = Field(description="calibrated chance that the answer is 'the same' / 'a real conflict'")
    priority: float
    reason: str
    proposed_by: str | None = Field(description="the agent that proposed it; None for the resolver's questions")
    members: list[ClusterMember] = Field(default=[], description="a cluster's members, canonical first; else empty")
    questions: list[int] = Field(default=[], description="the pending questions a cluster stands for; else empty")


class ClusterCard(BaseModel):
    item: QuestionItem = Field(description="the cluster as list_questions lists it")
    entities: list[detail.EntitySide] = Field(description="a name_cluster's members, canonical first; else empty")
    passages: list[detail.Excerpt] = Field(description="a passage_family's passages, the kept one first; else empty")


class PairVerdict(BaseModel):
    kind: Literal["fold", "ask", "no"]
    rule: str
    score: float
    reason: str
    likelihood_before_evidence: float | None


class HistoryEntry(BaseModel):
    id: int
    action: str
    actor: str
    channel: str
    at: datetime
    summary: str
    question_id: int | None
    undone_at: datetime | None


class IngestResult(BaseModel):
    passages_new: int
    passages_unchanged: int
    passages_revised: int
    mentions: int
    entities_new: int
    errors: list[str] = Field(description="one line per passage that was not ingested: `passages[i]: what is wrong`")


class Proposal(BaseModel):
    question: QuestionItem
    queued: bool = Field(description="False when the pair was already pending: the existing question is returned")


class DecisionResult(BaseModel):
    decision_id: int
    action: str
    summary: str


def _item(q: queue.QuestionView) -> QuestionItem:
    return QuestionItem(
        id=q.id, kind=q.kind, left=q.left_name, right=q.right_name, rule=q.rule, likelihood=q.likelihood,
        priority=q.priority, reason=q.reason, proposed_by=q.proposed_by,
        members=[ClusterMember.model_validate(m, from_attributes=True) for m in q.members], questions=list(q.questions),
    )  # fmt: skip


def _one_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _errors_as_results(fn):
    """A MemoError becomes an error result with the CLI's one line; anything else one line too."""

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except MemoError as exc:
            raise ToolError(_one_line(exc)) from None
        except ToolError:
            raise
        except Exception as exc:  # the last line of defence, as in the CLI
            raise ToolError(f"internal error: {type(exc).__name__}: {_one_line(exc)}") from None

    return call


def build_server(namespace: str, allow_answers: bool = False, agent: str | None = None) -> MCPServer:
    """The server over the store already bound (`open_store`), for one namespace."""
    server = MCPServer(
        name="memo-tui",
        log_level="WARNING",
        instructions=(
            "An entity graph of an agent-memory store, kept clean by people. Read it with search_entities, "
            "get_entity, related_entities and explore. Suggest what the lexical rules cannot see (Bob is Robert) "
            "with propose_merge / propose_keep_apart: a person reviews each proposal; the graph does not change "
            "until they answer."
        ),
    )

    def who(ctx: Context | None) -> str:
        if agent:
            return agent
        params = getattr(ctx.session, "client_params", None) if ctx is not None else None
        info = getattr(params, "clientInfo", None) or getattr(params, "client_info", None)
        return getattr(info, "name", None) or "agent"

    def tool(description: str, name: str | None = None):
        def register(fn):
            return server.tool(name=name, description=description)(_errors_as_results(fn))

        return register

    @tool("Entities whose name or alias matches the query (fuzzy), best first.")
    def search_entities(query: str, limit: int = 10) -> list[EntityHit]:
        if not 1 <= limit <= 100:
            raise MemoError("limit is 1 to 100")
        return [
            EntityHit(
                name=s.text,
                entity_id=s.entity_id,
                canonical=s.canonical,
                type=s.type,
                passages=s.passages,
                score=round(score, 1),
            )  # fmt: skip
            for s, score in names.search(namespace, query, limit)
        ]

    @tool("One entity by name, alias or #id: type, counts, aliases and its latest passages.")
    def get_entity(name: str) -> EntityCard:
        found = require(namespace, name)
        side = detail.entity_side(found.entity)
        passages = names.passages_naming(found.entity.id)
        return EntityCard(
            id=side.id, name=side.name, matched_alias=found.matched_alias, type=side.type, mentions=side.mentions,
            passages=passages, aliases=side.aliases, latest_passages=side.passages,
        )  # fmt: skip

    @tool(
        "Stated relations and co-mentions of a name, as two separate groups; `type` keeps only neighbours of "
        "that type; `as_of` (ISO 8601) reads the graph as it was then."
    )
    def related_entities(
        name: str, limit: int = 20, type: str | None = None, as_of: str | None = None
    ) -> graph.Related:
        return graph.related(namespace, name, limit=limit, kind=type, as_of=_time(as_of))

    @tool("A name's own passages, then its neighbours hop by hop (1-3) with the passages that connect them.")
    def explore(name: str, hops: int = 1, as_of: str | None = None) -> graph.Exploration:
        return graph.explore(namespace, name, hops=hops, as_of=_time(as_of))

    @tool(
        "Pending review items, ranked as `memo-tui queue` ranks them: a family of 3 or more spellings or passages "
        "is one cluster item, and its questions are listed only inside it; kind: entity_pair, duplicate, "
        "contradiction, name_cluster, passage_family, or agent (proposals, always pairs)."
    )
    def list_questions(kind: str | None = None, limit: int = 20) -> list[QuestionItem]:
        kinds = (None, "entity_pair", "duplicate", "contradiction", *clusters.CLUSTER_KINDS.values(), "agent")
        if kind not in kinds:
            raise MemoError(f"unknown kind {kind!r}; one of {', '.join(k for k in kinds if k)}")
        pending = queue.pending(namespace, proposed=kind == "agent")
        if kind != "agent":  # a proposal stays a pair: an agent proposed each one
            pending = clusters.group(namespace, pending)
        if kind not in (None, "agent"):
            pending = [q for q in pending if q.kind == kind]
        return [_item(q) for q in pending[:limit]]

    @tool("One question with both sides (entities with passages, or the two passages), evidence and likelihood.")
    def get_question(question_id: int) -> detail.Detail:
        return detail.question_detail(namespace, question_id)

    @tool(
        "A cluster item by its id (list_questions' id for a name_cluster or passage_family): every member with what "
        "a reviewer checks, canonical first: a name's passages, aliases and counts, or the passages of a family. "
        "`canonical` (a member's id) shows it as a merge into that member would make it."
    )
    def get_cluster(question_id: int, passages: int = 2, canonical: int | None = None) -> ClusterCard:
        if not 1 <= passages <= 10:
            raise MemoError("passages is 1 to 10")
        found = clusters.cluster_detail(namespace, question_id, passages, canonical)
        return ClusterCard(item=_item(found.cluster), entities=found.entities or [], passages=found.passages or [])

    @tool(
        "What the name rules say of two spellings (fold / ask / no, the rule, its likelihood on real text).",
        "judge_pair",
    )
    def judge(left: str, right: str) -> PairVerdict:
        verdict = judge_pair(Name(None, left), Name(None, right))
        before = prior(verdict.rule, {})[0] if verdict.kind != "no" else None
        return PairVerdict(kind=verdict.kind, rule=verdict.rule, score=verdict.score, reason=verdict.reason,
                           likelihood_before_evidence=before)  # fmt: skip

    @tool("The audit log, newest first; who: auto (the resolver), human (people and agents), or any.")
    def history(who: Literal["auto", "human"] | None = None, limit: int = 20) -> list[HistoryEntry]:
        return [
            HistoryEntry.model_validate(v, from_attributes=True)
            for v in decisions.history(namespace, who=who, limit=limit)
        ]

    @tool(
        "Ingest passages: objects of the README's JSONL schema (text; optional id, source, created_at, entities, "
        "relations, tags, supersedes, contradicts). Bad items are skipped with one error line each."
    )
    def ingest_passages(passages: list[dict[str, Any]], ctx: Context) -> IngestResult:
        records, errors = [], []
        for number, obj in enumerate(passages):
            try:
                records.append(parse_object(obj, default_source=f"agent:{who(ctx)}"))
            except ValueError as exc:
                errors.append(f"passages[{number}]: {exc}; skipped")
        report = ingest_records(namespace, records)
        return IngestResult.model_validate({**report.as_dict(), "errors": errors})

    def _propose(left: str, right: str, kind: str, reason: str, ctx: Context) -> Proposal:
        q, queued = proposals.propose(namespace, left, right, kind, reason, who(ctx))
        return Proposal(question=_item(q), queued=queued)

    @tool("Propose that two names are one thing. Queues a question for a person; the graph does not change.")
    def propose_merge(left: str, right: str, reason: str, ctx: Context) -> Proposal:
        return _propose(left, right, "merge", reason, ctx)

    @tool("Propose that two names are different things. Queues a question for a person; the graph does not change.")
    def propose_keep_apart(left: str, right: str, reason: str, ctx: Context) -> Proposal:
        return _propose(left, right, "keep_apart", reason, ctx)

    @tool(
        "Answer a pending item: merge, reject or keep_both (only on a server started with --allow-answers). A "
        "cluster's id answers the whole cluster as `memo-tui graph merge|reject|keep-both N` does: merge folds every "
        "name not kept apart into the canonical, or keeps a passage family's canonical and retires the rest; reject "
        "and keep_both answer all its questions. Pass `members_seen`, the member ids list_questions showed ([] for a "
        "pair): a cluster that changed since, a pair that now leads one, or a lead whose cluster is gone is then "
        "refused. A cluster's merge may choose: `canonical`, the member id the others fold into; `leave_out`, "
        "member ids not to fold (a name_cluster only); `mark_rest`, mark the members left out different from the "
        "canonical. `pair_only` answers just that one question (with none of those). get_cluster shows a cluster's "
        "members; get_question its lead pair only."
    )
    def answer_question(
        question_id: int,
        action: Literal["merge", "reject", "keep_both"],
        ctx: Context,
        pair_only: bool = False,
        members_seen: list[int] | None = None,
        canonical: int | None = None,
        leave_out: list[int] | None = None,
        mark_rest: bool = False,
    ) -> DecisionResult:
        if not allow_answers:
            raise MemoError(GATED)
        if pair_only and members_seen is not None:
            raise MemoError("pair_only answers one question and members_seen a cluster: give one or the other")
        if pair_only and (canonical is not None or leave_out or mark_rest):
            raise MemoError("pair_only answers one question; canonical, leave_out and mark_rest are for a cluster")
        if pair_only:
            view = decisions.answer(namespace, question_id, action, who(ctx), CHANNEL)
        else:
            view = clusters.answer_item(namespace, question_id, action, who(ctx), CHANNEL, seen=members_seen,
                                        canonical=canonical, leave_out=leave_out, mark_rest=mark_rest)  # fmt: skip
        return DecisionResult(decision_id=view.id, action=view.action, summary=view.summary)

    @tool("Revert a decision exactly, by its id (only on a server started with --allow-answers).")
    def revert(decision_id: int, ctx: Context) -> DecisionResult:
        if not allow_answers:
            raise MemoError(GATED)
        view = decisions.revert(namespace, decision_id, who(ctx), CHANNEL)
        return DecisionResult(decision_id=view.id, action=view.action, summary=view.summary)

    return server


def _time(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        return parse_time(value)
    except ValueError:
        raise MemoError(f"as_of is not an ISO 8601 time: {value!r}") from None

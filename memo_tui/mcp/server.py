"""`memo-tui mcp`: agents read the cleaned graph and propose decisions for a person to review.

Read tools return structured (pydantic) results, their times in UTC with the offset. Write tools:
`ingest_passages` (the README's JSONL schema, validated per item as `ingest` does, unknown keys
refused), `propose_merge` / `propose_keep_apart` (a pending question marked as the agent's: the graph
does not change), and, listed only with `--allow-answers`, `answer_question`, `revert` and
`resolve`, recorded with channel `agent` and the agent's name. People first (`engine/proposals.py`):
an agent's ingest never retires a person's passage, and an agent never reverts a person's decision.
Errors are error results of one line, at most 300 characters, that never repeat an argument's value.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from memo_tui import __version__
from memo_tui.mcp.models import (
    PASSAGE_ITEM,
    PASSAGE_KEYS,
    AsOf,
    ClusterCard,
    ClusterMember,
    DecisionResult,
    EntityCard,
    EntityHit,
    HistoryEntry,
    IngestResult,
    MemberIds,
    NameArg,
    Namespace,
    PairVerdict,
    Passage,
    PassageLookup,
    PassReport,
    Proposal,
    QuestionId,
    QuestionItem,
    Reason,
    Stats,
    Text,
    flag_arg,
    limit_arg,
)
from memo_tui.service import reads, review, work
from memo_tui.service.reads import time_of
from memo_tui.service.views import Detail, Exploration, MemoError, QuestionView, Related

MAX_ERROR = 300


def _item(q: QuestionView) -> QuestionItem:
    return QuestionItem(
        id=q.id, kind=q.kind, left=q.left_name, right=q.right_name, rule=q.rule, likelihood=q.likelihood,
        priority=q.priority, reason=q.reason, proposed_by=q.proposed_by,
        members=[ClusterMember.model_validate(m, from_attributes=True) for m in q.members], questions=list(q.questions),
    )  # fmt: skip


def _utc(value):
    """The store's times are naive UTC: sent with their offset, as `format: date-time` requires."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value
    if isinstance(value, BaseModel):
        return value.model_copy(update={name: _utc(getattr(value, name)) for name in type(value).model_fields})
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: _utc(getattr(value, f.name)) for f in dataclasses.fields(value)})
    if isinstance(value, (list, tuple)):
        return type(value)(_utc(v) for v in value)
    return value


def _said(message: str, arguments: dict[str, Any]) -> str:
    """One line of at most MAX_ERROR characters that repeats no argument's value and names
    arguments, not the CLI's flags."""
    line = (message.strip().splitlines() or ["error"])[0]
    for name, value in arguments.items():
        if isinstance(value, str) and value:
            line = line.replace(repr(value), f"<{name}>")
    line = re.sub(r"--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_"), line)
    return line if len(line) <= MAX_ERROR else line[: MAX_ERROR - 1] + "…"


def _errors_as_results(fn):
    """A MemoError becomes an error result with its one line; anything else one line too."""

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return _utc(fn(*args, **kwargs))
        except MemoError as exc:
            raise ToolError(_said(str(exc), kwargs)) from None
        except ToolError:
            raise
        except Exception as exc:  # the last line of defence, as in the CLI
            raise ToolError(_said(f"internal error: {type(exc).__name__}", {})) from None

    return call


def _argument_error(exc: ValidationError) -> str:
    """Pydantic's report as one line: where and what, never the value given."""
    first = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "arguments"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


class _Server(MCPServer):
    """MCPServer whose argument errors are one line, like every other error here."""

    async def call_tool(self, name, arguments, context=None):
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise  # a crash: the SDK logs it and sends a line that names no detail
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(_said(f"{name}: {_argument_error(exc.__cause__)}", {})) from None
            if name not in {t.name for t in await self.list_tools()}:
                raise ToolError("unknown tool; list the tools to see their names") from None
            raise ToolError(_said(str(exc), {})) from exc.__cause__


def _passage_errors(number: int, obj: object) -> str | None:
    """What the CLI's reader would refuse before parsing, and keys that are not the schema's."""
    size = len(json.dumps(obj, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    if size > work.MAX_PASSAGE_BYTES:
        return (
            f"passages[{number}]: is {size / 1e6:.1f} MB, over the {work.MAX_PASSAGE_BYTES / 1e6:.0f} MB limit; skipped"
        )
    if isinstance(obj, dict):
        unknown = [key for key in obj if key not in PASSAGE_KEYS]
        if unknown:
            shown = ", ".join(repr(k) if re.fullmatch(r"\w{1,40}", k) else "(a long key)" for k in unknown[:3])
            return f"passages[{number}]: unknown key {shown}; the keys are {', '.join(PASSAGE_KEYS)}; skipped"
    return None


INSTRUCTIONS = (
    "An entity graph of an agent-memory store, kept clean by people. Read it with search_entities, "
    "get_entity, related_entities and explore; passages with search_passages, recent_passages and "
    "get_passages. Suggest what the lexical rules cannot see (Bob is Robert) with propose_merge / "
    "propose_keep_apart: a person reviews each proposal; the graph does not change until they answer. "
    "An agent never replaces a person's passage or decision: a revision of one is queued for review."
)


def build_server(namespace: str, allow_answers: bool = False, agent: str | None = None) -> MCPServer:
    """The server over the store already bound (`open_store`); each call's namespace defaults to this one."""
    server = _Server(name="memo-tui", version=__version__, log_level="WARNING", instructions=INSTRUCTIONS)
    tools = _Tools(server, namespace, allow_answers, agent)
    for register in (_entity_tools, _question_tools, _passage_tools, _agent_tools, _answer_tools):
        register(tools)
    return server


class _Tools:
    """Registers tools on a server (`tools(description)` is a decorator), and tells each call its
    namespace and the agent's name."""

    def __init__(self, server: MCPServer, namespace: str, allow_answers: bool, agent: str | None) -> None:
        self.server = server
        self.default = namespace
        self.allow_answers = allow_answers
        self.agent = agent

    def ns(self, namespace: str | None) -> str:
        return namespace or self.default

    def who(self, ctx: Context | None) -> str:
        if self.agent:
            return self.agent
        params = getattr(ctx.session, "client_params", None) if ctx is not None else None
        info = getattr(params, "clientInfo", None) or getattr(params, "client_info", None)
        return getattr(info, "name", None) or "agent"

    def __call__(self, description: str, name: str | None = None, writes: bool = False, destructive: bool = False,
                 gated: bool = False):  # fmt: skip
        hints = ToolAnnotations(
            readOnlyHint=not writes,
            destructiveHint=destructive if writes else None,
            idempotentHint=not writes or None,
            openWorldHint=False,
        )

        def register(fn):
            if gated and not self.allow_answers:
                return fn  # not listed: answering is off on this server
            return self.server.tool(name=name, description=description, annotations=hints)(_errors_as_results(fn))

        return register


def _entity_tools(tool: _Tools) -> None:
    @tool("Entities whose name or alias matches the query (fuzzy), best first.")
    def search_entities(
        query: Annotated[str, Field(strict=True, min_length=1, max_length=1000, description="a name or part of one")],
        limit: limit_arg(100, "entities") = 10,
        namespace: Namespace = None,
    ) -> list[EntityHit]:
        return [
            EntityHit(
                name=s.text,
                entity_id=s.entity_id,
                canonical=s.canonical,
                type=s.type,
                passages=s.passages,
                score=round(score, 1),
            )  # fmt: skip
            for s, score in reads.search_names(tool.ns(namespace), query, limit)
        ]

    def card(ns: str, name: str) -> EntityCard:
        found = reads.entity(ns, name)
        side = found.side
        return EntityCard(
            id=side.id, name=side.name, matched_alias=found.matched_alias, type=side.type, mentions=side.mentions,
            passages=found.passages, aliases=side.aliases, latest_passages=side.passages,
        )  # fmt: skip

    @tool("One entity by name, alias or #id: type, counts, aliases and its latest passages.")
    def get_entity(name: NameArg, namespace: Namespace = None) -> EntityCard:
        return card(tool.ns(namespace), name)

    @tool("Several entities at once (as get_entity, in the order asked); a name found nowhere is refused.")
    def get_entities(
        names: Annotated[list[NameArg], Field(min_length=1, max_length=50, description="1-50 names, aliases or #ids")],
        namespace: Namespace = None,
    ) -> list[EntityCard]:
        return [card(tool.ns(namespace), name) for name in names]

    @tool(
        "Stated relations and co-mentions of a name, as two separate groups; `type` keeps only neighbours of "
        "that type; `as_of` reads the graph as it was then."
    )
    def related_entities(
        name: NameArg,
        limit: limit_arg(100, "neighbours in each group") = 20,
        type: Annotated[
            str | None, Field(strict=True, max_length=100, description="an entity type, e.g. person")
        ] = None,
        as_of: AsOf = None,
        namespace: Namespace = None,
    ) -> Related:
        return reads.related(tool.ns(namespace), name, limit=limit, kind=type, as_of=_time(as_of))

    @tool("A name's own passages, then its neighbours hop by hop with the passages that connect them.")
    def explore(
        name: NameArg,
        hops: Annotated[int, Field(strict=True, ge=1, le=3, description="how far to walk (1-3)")] = 1,
        as_of: AsOf = None,
        namespace: Namespace = None,
    ) -> Exploration:
        return reads.explore(tool.ns(namespace), name, hops=hops, as_of=_time(as_of))


def _question_tools(tool: _Tools) -> None:
    @tool(
        "Pending review items, ranked as `memo-tui queue` ranks them: a family of 3 or more spellings or passages "
        "is one cluster item, and its questions are listed only inside it."
    )
    def list_questions(
        kind: Annotated[
            Literal["entity_pair", "duplicate", "contradiction", "name_cluster", "passage_family", "agent"] | None,
            Field(description="only items of this kind; agent: the agents' proposals (always pairs)"),
        ] = None,
        limit: limit_arg(100, "items") = 20,
        namespace: Namespace = None,
    ) -> list[QuestionItem]:
        proposed = kind == "agent"  # a proposal stays a pair: an agent proposed each one
        items = review.queue(tool.ns(namespace), proposed=proposed, kind=None if proposed else kind)
        return [_item(q) for q in items[:limit]]

    @tool("One question with both sides (entities with passages, or the two passages), evidence and likelihood.")
    def get_question(question_id: QuestionId, namespace: Namespace = None) -> Detail:
        return review.question_detail(tool.ns(namespace), question_id)

    @tool(
        "A cluster item by its id (list_questions' id for a name_cluster or passage_family): every member with what "
        "a reviewer checks, canonical first: a name's passages, aliases and counts, or the passages of a family."
    )
    def get_cluster(
        question_id: QuestionId,
        passages: Annotated[int, Field(strict=True, ge=1, le=10, description="passages per member (1-10)")] = 2,
        canonical: Annotated[
            int | None, Field(strict=True, ge=1, description="a member's id: show the cluster as a merge into it")
        ] = None,
        namespace: Namespace = None,
    ) -> ClusterCard:
        found = review.cluster_detail(tool.ns(namespace), question_id, passages, canonical)
        return ClusterCard(item=_item(found.cluster), entities=found.entities or [], passages=found.passages or [])

    @tool("What the name rules say of two spellings (fold / ask / no, the rule, its likelihood on real text).",
          "judge_pair")  # fmt: skip
    def judge(
        left: Annotated[str, Field(strict=True, min_length=1, max_length=1000, description="a spelling")],
        right: Annotated[str, Field(strict=True, min_length=1, max_length=1000, description="another spelling")],
    ) -> PairVerdict:
        verdict, before = reads.judge(left, right)
        return PairVerdict(kind=verdict.kind, rule=verdict.rule, score=verdict.score, reason=verdict.reason,
                           likelihood_before_evidence=before)  # fmt: skip

    @tool("The audit log, newest first.")
    def history(
        who: Annotated[
            Literal["auto", "human", "any"], Field(description="auto: the resolver; human: people and agents; any")
        ] = "any",
        limit: limit_arg(100, "entries") = 20,
        namespace: Namespace = None,
    ) -> list[HistoryEntry]:
        rows = review.history(tool.ns(namespace), who=None if who == "any" else who, limit=limit)
        return [HistoryEntry.model_validate(v, from_attributes=True) for v in rows]


def _passage_tools(tool: _Tools) -> None:
    @tool("Passages by id (the ids `also_see` and excerpts give): the live one, else its latest revision.")
    def get_passages(
        ids: Annotated[list[Text], Field(min_length=1, max_length=50, description="1-50 passage ids, as ingested")],
        namespace: Namespace = None,
    ) -> PassageLookup:
        found = reads.passages_by_id(tool.ns(namespace), ids)
        return PassageLookup(
            passages=[Passage.model_validate(found[i], from_attributes=True) for i in ids if i in found],
            missing=[i for i in ids if i not in found],
        )

    @tool("Live passages whose text has every word of the query (full-text, whole words, any case), best first.")
    def search_passages(
        query: Annotated[str, Field(strict=True, min_length=1, max_length=1000, description="words to find")],
        limit: limit_arg(100, "passages") = 10,
        namespace: Namespace = None,
    ) -> list[Passage]:
        return [Passage.model_validate(p, from_attributes=True)
                for p in reads.search_passages(tool.ns(namespace), query, limit)]  # fmt: skip

    @tool("The newest live passages, optionally of one source or since a time.")
    def recent_passages(
        source: Annotated[str | None, Field(strict=True, max_length=1000, description="only this source")] = None,
        since: Annotated[str | None, Field(strict=True, max_length=64, description="an ISO 8601 time")] = None,
        limit: limit_arg(100, "passages") = 10,
        namespace: Namespace = None,
    ) -> list[Passage]:
        found = reads.recent_passages(tool.ns(namespace), source, _time(since, "since"), limit)
        return [Passage.model_validate(p, from_attributes=True) for p in found]

    @tool("Counts of the namespace: passages, entities, aliases, mentions, relations, folds, pending questions.")
    def stats(namespace: Namespace = None) -> Stats:
        ns = tool.ns(namespace)
        return Stats(namespace=ns, **reads.stats(ns))


def _agent_tools(tool: _Tools) -> None:
    @tool(
        "Ingest passages: objects of the README's JSONL schema. Bad items are skipped with one error line each. "
        "A passage of a person's is never replaced: a revision (its id again, or `supersedes`) is written beside "
        "it and queued for a reviewer.",
        writes=True,
    )
    def ingest_passages(
        passages: Annotated[
            list[Any],  # any item: one that is not an object is refused alone, the others ingested
            Field(
                min_length=1, max_length=1000, description="1-1000 passages", json_schema_extra={"items": PASSAGE_ITEM}
            ),
        ],
        ctx: Context,
        namespace: Namespace = None,
    ) -> IngestResult:
        records, errors = [], []
        for number, obj in enumerate(passages):
            refused = _passage_errors(number, obj)
            if refused is None:
                try:
                    records.append(work.passage_record(obj))
                except ValueError as exc:
                    values = {k: v for k, v in obj.items() if isinstance(v, str)} if isinstance(obj, dict) else {}
                    refused = _said(f"passages[{number}]: {exc}; skipped", values)
            if refused is not None:
                errors.append(refused)
        report, asked = work.ingest_as_agent(tool.ns(namespace), records, tool.who(ctx))
        return IngestResult(passages_new=report.passages_new, passages_unchanged=report.passages_unchanged,
                            passages_revised=report.passages_revised, mentions=report.mentions,
                            entities_new=report.entities_new, revisions_proposed=asked, errors=errors)  # fmt: skip

    def propose(namespace: str | None, left: str, right: str, kind: str, reason: str, ctx: Context) -> Proposal:
        q, queued = review.propose(tool.ns(namespace), left, right, kind, reason, tool.who(ctx))
        return Proposal(question=_item(q), queued=queued)

    @tool("Propose that two names are one thing. Queues a question for a person; the graph does not change.",
          writes=True)  # fmt: skip
    def propose_merge(left: NameArg, right: NameArg, reason: Reason, ctx: Context, namespace: Namespace = None
                      ) -> Proposal:  # fmt: skip
        return propose(namespace, left, right, "merge", reason, ctx)

    @tool("Propose that two names are different things. Queues a question for a person; the graph does not change.",
          writes=True)  # fmt: skip
    def propose_keep_apart(left: NameArg, right: NameArg, reason: Reason, ctx: Context, namespace: Namespace = None
                           ) -> Proposal:  # fmt: skip
        return propose(namespace, left, right, "keep_apart", reason, ctx)


def _answer_tools(tool: _Tools) -> None:
    @tool(
        "Answer a pending item: merge, reject or keep_both. A cluster's id answers the whole cluster as "
        "`memo-tui graph merge|reject|keep-both N` does: merge folds every name not kept apart into the canonical, "
        "or keeps a passage family's canonical and retires the rest; reject and keep_both answer all its "
        "questions. Pass `members_seen`, the member ids list_questions showed ([] for a pair): a cluster that "
        "changed since, a pair that now leads one, or a lead whose cluster is gone is then refused. An agent never "
        "merges passages of which one is a person's.",
        writes=True,
        destructive=True,
        gated=True,
    )
    def answer_question(
        question_id: QuestionId,
        action: Annotated[Literal["merge", "reject", "keep_both"], Field(description="the answer")],
        ctx: Context,
        pair_only: flag_arg("answer just this one question (none of the cluster's choices)") = False,
        members_seen: Annotated[MemberIds | None, Field(description="the member ids list_questions showed")] = None,
        canonical: Annotated[
            int | None, Field(strict=True, ge=1, description="a cluster's merge: the member id the others fold into")
        ] = None,
        leave_out: Annotated[
            MemberIds | None, Field(description="a name_cluster's merge: member ids not to fold")
        ] = None,
        mark_rest: flag_arg("a cluster's merge: mark the members left out different from the canonical") = False,
        namespace: Namespace = None,
    ) -> DecisionResult:
        view = review.answer_as_agent(
            tool.ns(namespace), question_id, action, tool.who(ctx), pair=pair_only, seen=members_seen,
            canonical=canonical, leave_out=leave_out, mark_rest=mark_rest,
        )  # fmt: skip
        return DecisionResult(decision_id=view.id, action=view.action, summary=view.summary)

    @tool("Revert a decision exactly, by its id: the agent's own or the resolver's, never a person's.",
          writes=True, destructive=True, gated=True)  # fmt: skip
    def revert(
        decision_id: Annotated[int, Field(strict=True, ge=1, description="a decision's id, as history gives it")],
        ctx: Context,
        namespace: Namespace = None,
    ) -> DecisionResult:
        view = review.revert_as_agent(tool.ns(namespace), decision_id, tool.who(ctx))
        return DecisionResult(decision_id=view.id, action=view.action, summary=view.summary)

    @tool("Run a resolution pass (as `memo-tui resolve`) after an ingest: folds what the rules are certain of, "
          "queues the rest for review.", writes=True, destructive=True, gated=True)  # fmt: skip
    def resolve(namespace: Namespace = None) -> PassReport:
        return PassReport.model_validate(work.resolve(tool.ns(namespace)), from_attributes=True)


def _time(value: str | None, name: str = "as_of") -> datetime | None:
    if value is None:
        return None
    try:
        return time_of(value)
    except ValueError:
        raise MemoError(f"{name} is not an ISO 8601 time") from None

"""What the MCP tools take and give: their arguments as the input schemas describe them, and their
results as pydantic models (the output schemas)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from memo_tui.service.views import MAX_REASON, EntitySide, Excerpt

PASSAGE_KEYS = ("id", "text", "source", "created_at", "entities", "relations", "tags", "supersedes", "contradicts")

# the arguments, as the input schemas describe them (strict: `true` is not 1, "5" is not 5)
Text = Annotated[str, Field(strict=True, min_length=1, max_length=1000)]
NameArg = Annotated[
    str, Field(strict=True, min_length=1, max_length=1000, description="an entity's name, alias or #id")
]
Namespace = Annotated[
    str | None,
    Field(strict=True, min_length=1, max_length=200, description="the namespace to use (default: the server's)"),
]
AsOf = Annotated[
    str | None,
    Field(strict=True, max_length=64, description="read the graph as it was at this ISO 8601 time (default: now)"),
]
QuestionId = Annotated[int, Field(strict=True, ge=1, description="a question's id, as list_questions gives it")]
MemberIds = Annotated[list[Annotated[int, Field(strict=True, ge=1)]], Field(max_length=1000)]


Reason = Annotated[str, Field(strict=True, min_length=1, max_length=MAX_REASON, description="what the agent saw")]


def limit_arg(most: int, what: str):
    return Annotated[int, Field(strict=True, ge=1, le=most, description=f"at most this many {what} (1-{most})")]


def flag_arg(description: str):
    return Annotated[bool, Field(strict=True, description=description)]


PASSAGE_ITEM = {
    "type": "object",
    "required": ["text"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": ["string", "integer"], "description": "the passage's id; the same id again is a revision"},
        "text": {"type": "string", "description": "the passage (at most 1 MB with the rest of the object)"},
        "source": {"type": "string", "description": "where it came from (stored as agent:AGENT:SOURCE)"},
        "created_at": {"type": "string", "format": "date-time", "description": "when it was written"},
        "entities": {"type": "array", "description": "names it mentions: strings or {name, type}"},
        "relations": {"type": "array", "description": "{src, predicate, dst, confidence 0-1} objects"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "supersedes": {"type": "array", "items": {"type": "string"}, "description": "ids this passage replaces"},
        "contradicts": {"type": "array", "items": {"type": "string"}, "description": "ids it disagrees with"},
    },
}


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
    latest_passages: list[Excerpt]


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
    entities: list[EntitySide] = Field(description="a name_cluster's members, canonical first; else empty")
    passages: list[Excerpt] = Field(description="a passage_family's passages, the kept one first; else empty")


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
    passages_revised: int = Field(description="the agent's own passages replaced by a new revision")
    mentions: int
    entities_new: int
    revisions_proposed: list[int] = Field(
        description="questions asking a reviewer whether the agent's text replaces a person's passage: it is "
        "written beside it (id `ID~AGENT`), and the person's stays as it is until a reviewer answers"
    )
    errors: list[str] = Field(description="one line per passage that was not ingested: `passages[i]: what is wrong`")


class Proposal(BaseModel):
    question: QuestionItem
    queued: bool = Field(
        description="False when the pair was already pending: the existing question is returned, the proposal "
        "and its reason written into its reason for the reviewer"
    )


class DecisionResult(BaseModel):
    decision_id: int
    action: str
    summary: str


class Passage(BaseModel):
    external_id: str = Field(description="the passage's id (as ingested; `also_see` lists these)")
    text: str
    source: str | None
    created_at: datetime
    retired: bool = Field(description="replaced by a revision or retired (only the latest is shown for an id)")
    also_see: list[str] = Field(description="ids of linked passages, strongest first")


class PassageLookup(BaseModel):
    passages: list[Passage] = Field(description="in the order asked; an id found nowhere is in `missing`")
    missing: list[str]


class PassReport(BaseModel):
    folded: int = Field(description="pairs the rules were certain of, folded")
    queued: int = Field(description="name questions queued for review")
    duplicates_queued: int
    contradictions_queued: int
    seconds: float


class Stats(BaseModel):
    namespace: str
    passages_live: int
    passages_retired: int
    entities: int
    aliases: int
    mentions_active: int
    relations_active: int
    folds_standing: int
    questions_pending: int
    graph_version: int

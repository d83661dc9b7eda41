"""Messages the panes and workers send to the review screen (panes never reach into siblings)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from memo_tui.service.views import ClusterDetail, DecisionView, Detail, QuestionView, Related, Signature


@dataclass
class QueueLoaded(Message):
    questions: list[QuestionView]  # what the queue shows (all pending, or a filter's share)
    pending: int  # every pending question of the namespace
    waiting: int  # left by the last pass for a later one (the cap was full)
    signature: Signature  # the store's state it was read at
    kept: dict[int, int]  # name pair -> the entity id `m` keeps


@dataclass
class StoreChanged(Message):
    """Someone else changed the namespace (another reviewer, the CLI, an agent)."""


@dataclass
class DetailLoaded(Message):
    detail: Detail | ClusterDetail


@dataclass
class CanonicalChosen(Message):
    """The reviewer made another member of a cluster its canonical (c on the card)."""

    lead: int
    canonical: int


@dataclass
class Decided(Message):
    decision: DecisionView


@dataclass
class HistoryLoaded(Message):
    decisions: list[DecisionView]
    who: str | None


@dataclass
class NeighbourhoodLoaded(Message):
    related: Related


@dataclass
class QuestionHighlighted(Message):
    question_id: int


@dataclass
class FollowEntity(Message):
    """Show the neighbourhood of this entity (by id, name or alias)."""

    target: str


@dataclass
class ResolveProgress(Message):
    done: int
    total: int


@dataclass
class RevertRequested(Message):
    decision_id: int


@dataclass
class HistoryFilter(Message):
    who: str | None  # None (all), "human" or "auto"

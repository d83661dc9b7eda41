"""The review queue as plain data: pending questions, ranked."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from memo_tui.core.models import Question


@dataclass(frozen=True)
class QuestionView:
    id: int
    kind: str
    left_id: int
    right_id: int
    left_name: str
    right_name: str
    score: float
    rule: str
    reason: str
    impact: int
    likelihood: float
    priority: float
    status: str

    def as_dict(self) -> dict:
        return asdict(self)


def view(question: Question) -> QuestionView:
    return QuestionView(**{f.name: getattr(question, f.name) for f in fields(QuestionView)})


def pending(namespace: str) -> list[QuestionView]:
    """Pending questions, highest expected yield first (likelihood x what the answer changes), then id."""
    query = (
        Question.select()
        .where((Question.namespace == namespace) & (Question.status == "pending"))
        .order_by(Question.priority.desc(), Question.likelihood.desc(), Question.id)
    )
    return [view(q) for q in query]

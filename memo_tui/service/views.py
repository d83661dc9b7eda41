"""The values the facade hands the interfaces, to show or to serialise, and the errors they catch."""

from memo_tui.engine.conflicts import TIMELINE
from memo_tui.engine.graph.name_index import Spelling
from memo_tui.engine.graph.neighbourhood import Exploration, Related
from memo_tui.engine.proposals import MAX_REASON
from memo_tui.engine.resolve.resolver import Cancelled
from memo_tui.engine.review.clusters import ClusterDetail
from memo_tui.engine.review.decisions import AlreadyDecided, DecisionView
from memo_tui.engine.review.detail import PASSAGES_PER_SIDE, Detail, EntitySide, Excerpt, PassageSide
from memo_tui.engine.review.queue import KIND_LABELS, MEMORY_KINDS, Member, QuestionView, Signature
from memo_tui.errors import MemoError
from memo_tui.store.locks import Busy

__all__ = [
    "KIND_LABELS",
    "MAX_REASON",
    "MEMORY_KINDS",
    "PASSAGES_PER_SIDE",
    "TIMELINE",
    "AlreadyDecided",
    "Busy",
    "Cancelled",
    "ClusterDetail",
    "DecisionView",
    "Detail",
    "EntitySide",
    "Excerpt",
    "Exploration",
    "Member",
    "MemoError",
    "PassageSide",
    "QuestionView",
    "Related",
    "Signature",
    "Spelling",
]

"""Reading the graph: a name's neighbourhood and its exploration, entities and passages found by
name or text, counts, consistency checks, and what the name rules say of two spellings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from memo_tui.engine.graph import name_index, neighbourhood
from memo_tui.engine.review import detail, passage_reads

if TYPE_CHECKING:
    from memo_tui.engine.graph.lint import Problem
    from memo_tui.names.rules import Verdict

__all__ = [
    "EntityFound",
    "Judged",
    "entity",
    "explore",
    "home_of",
    "judge",
    "lint",
    "passages_by_id",
    "recent_passages",
    "related",
    "search_names",
    "search_passages",
    "spellings",
    "stats",
    "time_of",
]


def time_of(text: str) -> datetime:
    """An ISO 8601 time as the store keeps times (naive UTC); ValueError says what is wrong."""
    from memo_tui.text.sources import parse_time

    return parse_time(text)


def related(
    namespace: str, name: str, limit: int = 20, kind: str | None = None, as_of: datetime | None = None
) -> neighbourhood.Related:
    """Stated relations and co-mentions of a name (`kind`: neighbours of that type only), as of a time."""
    return neighbourhood.related(namespace, name, limit=limit, kind=kind, as_of=as_of)


def explore(namespace: str, name: str, hops: int = 1, as_of: datetime | None = None) -> neighbourhood.Exploration:
    """A name's own passages, then its neighbours hop by hop with the passages that connect them."""
    return neighbourhood.explore(namespace, name, hops=hops, as_of=as_of)


def home_of(entity_id: int) -> int | None:
    """Where an entity shown before lives now (a fold may have moved it); None when it is its own."""
    from memo_tui.engine.graph.folds import home_of as home

    return home(entity_id)


def spellings(namespace: str) -> list[name_index.Spelling]:
    """Every entity name and alias, for a finder to match as the reviewer types."""
    return name_index.spellings(namespace)


def search_names(namespace: str, query: str, limit: int = 10) -> list[tuple[name_index.Spelling, float]]:
    """Names and aliases that match the query (fuzzy), best first, with how well (0-100)."""
    return name_index.search(namespace, query, limit)


@dataclass(frozen=True)
class EntityFound:
    side: detail.EntitySide  # the entity with its aliases, counts and latest passages
    matched_alias: str | None  # the absorbed spelling that was asked for, if any
    passages: int  # live passages naming it


def entity(namespace: str, name: str) -> EntityFound:
    """One entity by name, alias or #id; a name found nowhere is refused, with the closest spelling."""
    from memo_tui.engine.graph.entities import require

    found = require(namespace, name)
    side = detail.entity_side(found.entity)
    return EntityFound(side, found.matched_alias, name_index.passages_naming(found.entity.id))


def passages_by_id(namespace: str, external_ids: list[str]) -> dict[str, detail.Excerpt]:
    """Passages by id: the live one, else its latest revision (ids found nowhere are left out)."""
    return passage_reads.by_external_id(namespace, external_ids)


def search_passages(namespace: str, query: str, limit: int) -> list[detail.Excerpt]:
    """Live passages whose text has every word of the query, best first."""
    return passage_reads.search(namespace, query, limit)


def recent_passages(namespace: str, source: str | None, since: datetime | None, limit: int) -> list[detail.Excerpt]:
    """The newest live passages, optionally of one source or since a time."""
    return passage_reads.recent(namespace, source, since, limit)


def stats(namespace: str) -> dict[str, int]:
    """Counts of the namespace: passages, entities, aliases, mentions, relations, folds, questions."""
    from memo_tui.engine.graph.stats import store_stats

    return store_stats(namespace)


def lint(namespace: str) -> list[Problem]:
    """Consistency problems of the namespace (none on a sound store)."""
    from memo_tui.engine.graph.lint import lint as checks

    return checks(namespace)


class Judged(NamedTuple):
    verdict: Verdict
    prior: float | None  # what labelled real text says of the rule, before a store's evidence (None: no)


def judge(left: str, right: str, left_type: str | None = None, right_type: str | None = None) -> Judged:
    """What the name rules say of two spellings: fold, ask or no, the rule, and its likelihood."""
    from memo_tui.names.evidence import prior
    from memo_tui.names.rules import Name, judge_pair

    verdict = judge_pair(Name(None, left, left_type), Name(None, right, right_type))
    return Judged(verdict, prior(verdict.rule, {})[0] if verdict.kind != "no" else None)

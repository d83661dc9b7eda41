"""Passage-to-passage `relates_to` links ("also see"), written as passages are (issue 5).

Two live passages that name at least two of the same entities are related. Each new passage keeps
its strongest links only (most shared entities, then the weight of how they were named: author
tags and declared entities count above extracted terms). A name found in very many passages (a hub
such as the team's own product) says little about two passages belonging together and would make
every write scan thousands of rows, so it does not count towards a link.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memo_tui.core.bulk import first_column, prepared, quote, run, select_in
from memo_tui.core.models import Mention, Passage, PassageLink, db

FAN_OUT = 8
MIN_SHARED = 2
HUB = 1000  # passages; a name in more of them than this does not link passages
CHUNK = 500


@dataclass(frozen=True)
class Link:
    passage_id: int
    external_id: str
    text: str
    shared: int
    strength: float


def _pairs_sql(size: int, excluded: int) -> str:
    def build(t, c, p) -> str:
        m1, m2 = "m1", "m2"
        mention, passage = t(Mention), t(Passage)
        pid, eid = c(Mention, "passage"), c(Mention, "entity")
        weight, active = c(Mention, "weight"), c(Mention, "active")
        hubs = f" AND {m1}.{eid} NOT IN ({', '.join([p] * excluded)})" if excluded else ""
        pairs = (
            f"SELECT {m1}.{pid} AS a, {m2}.{pid} AS b, COUNT(DISTINCT {m2}.{eid}) AS shared, "
            f"SUM({m1}.{weight} + {m2}.{weight}) / 2 AS strength "
            f"FROM {mention} {m1} JOIN {mention} {m2} ON {m2}.{eid} = {m1}.{eid} AND {m2}.{active} = {p} "
            f"AND {m2}.{pid} <> {m1}.{pid} "
            f"JOIN {passage} p2 ON p2.{c(Passage, 'id')} = {m2}.{pid} AND p2.{c(Passage, 'retired_at')} IS NULL "
            f"WHERE {m1}.{active} = {p} AND {m1}.{pid} IN ({', '.join([p] * size)}){hubs} "
            f"GROUP BY {m1}.{pid}, {m2}.{pid} HAVING COUNT(DISTINCT {m2}.{eid}) >= {p}"
        )
        ranked = (
            "SELECT a, b, shared, strength, ROW_NUMBER() OVER "
            f"(PARTITION BY a ORDER BY shared DESC, strength DESC, b DESC) AS rn FROM ({pairs}) pairs"
        )
        return (
            f"INSERT INTO {t(PassageLink)} ({c(PassageLink, 'passage')}, {c(PassageLink, 'other')}, "
            f"{c(PassageLink, 'shared')}, {c(PassageLink, 'strength')}) "
            f"SELECT a, b, shared, strength FROM ({ranked}) ranked WHERE rn <= {p}"
        )

    return prepared(f"link_pairs_{size}_{excluded}", build)


def _hubs(passage_ids: Sequence[int]) -> list[int]:
    """Entities of these passages that are named in more than HUB passages."""
    head = prepared(
        "link_entities",
        lambda t, c, p: f"SELECT DISTINCT {c(Mention, 'entity')} FROM {t(Mention)} WHERE {c(Mention, 'active')} = {p}",
    )
    entities = [row[0] for row in select_in(head, quote(Mention.passage.column_name), list(passage_ids), fixed=(True,))]
    count = prepared(
        "link_hub",
        lambda t, c, p: (
            f"SELECT COUNT(*) FROM (SELECT 1 FROM {t(Mention)} WHERE {c(Mention, 'entity')} = {p} "
            f"AND {c(Mention, 'active')} = {p} LIMIT {HUB + 1}) capped"
        ),
    )
    return [entity for entity in entities if run(count, (entity, True))[0][0] > HUB]


def link_passages(passage_ids: Sequence[int]) -> None:
    """Write the links of freshly written (or restored) passages; joins the caller's transaction."""
    for start in range(0, len(passage_ids), CHUNK):
        part = list(passage_ids[start : start + CHUNK])
        hubs = _hubs(part)
        run(_pairs_sql(len(part), len(hubs)), (True, True, *part, *hubs, MIN_SHARED, FAN_OUT))


def unlink(passage_ids: Sequence[int]) -> None:
    """Retired passages lose their links, both ways."""
    ids = list(passage_ids)
    for start in range(0, len(ids), CHUNK):
        part = ids[start : start + CHUNK]
        PassageLink.delete().where(PassageLink.passage.in_(part) | PassageLink.other.in_(part)).execute()


def relink_all(namespace: str, progress: Callable[[int, int], None] | None = None) -> int:
    """Rebuild every link of a namespace in one transaction; returns the number of links."""
    with db.atomic():
        passages = Passage.select(Passage.id).where(Passage.namespace == namespace)
        PassageLink.delete().where(PassageLink.passage.in_(passages)).execute()
        live = first_column(passages.where(Passage.retired_at.is_null()).order_by(Passage.id))
        for start in range(0, len(live), CHUNK):
            link_passages(live[start : start + CHUNK])
            if progress is not None:
                progress(min(start + CHUNK, len(live)), len(live))
        return count_links(namespace)


def count_links(namespace: str) -> int:
    passages = Passage.select(Passage.id).where(Passage.namespace == namespace)
    return PassageLink.select().where(PassageLink.passage.in_(passages)).count()


def also_see(passage_id: int, limit: int = FAN_OUT) -> list[Link]:
    """Live passages linked to this one in either direction, strongest first."""
    rows: dict[int, tuple[int, float]] = {}
    query = PassageLink.select(PassageLink.other, PassageLink.shared, PassageLink.strength).where(
        PassageLink.passage == passage_id
    )
    back = PassageLink.select(PassageLink.passage, PassageLink.shared, PassageLink.strength).where(
        PassageLink.other == passage_id
    )
    for other, shared, strength in [*query.tuples(), *back.tuples()]:
        rows[other] = max(rows.get(other, (0, 0.0)), (shared, strength))
    if not rows:
        return []
    live = {
        p.id: p
        for p in Passage.select(Passage.id, Passage.external_id, Passage.text).where(
            Passage.id.in_(list(rows)) & Passage.retired_at.is_null()
        )
    }
    ranked = sorted(live, key=lambda pid: (-rows[pid][0], -rows[pid][1], -pid))[:limit]
    return [Link(pid, live[pid].external_id, live[pid].text, *rows[pid]) for pid in ranked]

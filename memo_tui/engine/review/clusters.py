"""Clusters: a family of spellings, or of near-identical passages, as one queue item.

Pending questions form a graph: name questions join entities, passage conflicts join passages. A
connected part of it with 3 to MAX_MEMBERS members is one item (`Priya Raman` / `PR` / `Priya R.`),
answered once instead of pair by pair: fold the checked spellings into the canonical, or keep one
passage and retire the rest. It is numbered by its lead question, the smallest id among its
questions; its answer is one `cluster` decision over the answers it made, each revertible alone.
A bigger connected part stays as pairs: chains of lookalikes that long are not one name.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace

from peewee import fn

from memo_tui.engine.conflicts import TIMELINE
from memo_tui.engine.graph import folds
from memo_tui.engine.review import decisions
from memo_tui.engine.review.detail import EntitySide, Excerpt, entity_side, excerpt
from memo_tui.engine.review.queue import Member, QuestionView, at_homes, rank, view
from memo_tui.errors import MemoError
from memo_tui.store import Alias, Decision, Entity, KeepApart, Mention, Passage, Question
from memo_tui.store.kinds import NAME_CLUSTER, NAME_KINDS, PASSAGE_FAMILY, PASSAGE_KINDS, SETTLED_KINDS
from memo_tui.store.locks import writing
from memo_tui.store.rows import tuples
from memo_tui.store.statements import slices

MAX_MEMBERS = 12
APART = SETTLED_KINDS  # a reviewer's answers that keep a member out of a cluster's fold
CLUSTER_KINDS = {"names": NAME_CLUSTER, "passages": PASSAGE_FAMILY}


def _family(kind: str) -> str:
    return "names" if kind in NAME_KINDS else "passages"


# a name question joins two members into a family only when they are likely one (at 0.5 sibling code
# identifiers such as `spinlock` / `spin_lock` joined families)
JOINS_AT = 0.6


def _links(q: QuestionView) -> bool:
    """Does the question join two members? An agent's proposal stays a pair of its own (a keep-apart
    proposal says they differ; a merge proposal is the agent's claim, answered as such); so does an
    unlikely name question (`GitHub` / `GitHub Actions` must not chain two families into one)."""
    if q.left_id == q.right_id or q.proposed_by is not None:
        return False
    return q.kind not in NAME_KINDS or q.likelihood >= JOINS_AT


def _nodes(edges: list[QuestionView]) -> set[int]:
    return {side for q in edges for side in (q.left_id, q.right_id)}


# -- the queue ---------------------------------------------------------------------------------


def group(namespace: str, views: list[QuestionView]) -> list[QuestionView]:
    """The queue with each cluster as one item (members and questions listed), ranked with the rest
    by expected yield: a cluster's is the sum of its questions' (one answer settles them all)."""
    joining = [q for q in views if _links(q) and q.unsure is None]  # left for later: asked alone
    found = _parts(joining)
    if not found:
        return views
    members: dict[str, set[int]] = {"names": set(), "passages": set()}
    for edges in found:
        members[_family(edges[0].kind)] |= _nodes(edges)
    facts = _Facts(namespace, members["names"], members["passages"])
    deleted = members["names"] - facts.entities.keys()
    if deleted:  # a side deleted outright joins nothing (its question waits for a reject or a revert)
        joining = [q for q in joining if q.kind not in NAME_KINDS or not {q.left_id, q.right_id} & deleted]
        found = _parts(joining)  # a part too big before may now be small enough: read its members too
        names = {n for edges in found if edges[0].kind in NAME_KINDS for n in _nodes(edges)}
        facts = _Facts(namespace, names, members["passages"])
    standing = {q.id for edges in found for q in edges}
    out = [q for q in views if q.id not in standing]
    out += [_cluster(edges, facts) for edges in found]
    return sorted(out, key=rank)


def _parts(joining: list[QuestionView]) -> list[list[QuestionView]]:
    """The connected parts of 3 to MAX_MEMBERS members (union-find over the questions' sides)."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(node):
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for q in joining:
        family = _family(q.kind)
        parent[find((family, q.left_id))] = find((family, q.right_id))
    parts: dict[tuple[str, int], list[QuestionView]] = defaultdict(list)
    for q in joining:
        parts[find((_family(q.kind), q.left_id))].append(q)
    return [edges for edges in parts.values() if 3 <= len(_nodes(edges)) <= MAX_MEMBERS]


class _Facts:
    """What a cluster card shows of its members, read once for every cluster of a queue."""

    def __init__(self, namespace: str, entity_ids: set[int], passage_ids: set[int]) -> None:
        self.entities: dict[int, tuple[str, str | None]] = {}
        self.mentions: dict[int, int] = defaultdict(int)
        self.passages: dict[int, tuple[str, object]] = {}
        ids = sorted(entity_ids)
        for part in slices(ids):
            for entity_id, name, kind in tuples(
                Entity.select(Entity.id, Entity.name, Entity.type).where(Entity.id.in_(part))
            ):
                self.entities[entity_id] = (name, kind)
            live = (
                Mention.select(Mention.entity, fn.COUNT(fn.DISTINCT(Mention.passage)))
                .join(Passage)
                .where(Mention.entity.in_(part) & Mention.active & Passage.retired_at.is_null())
                .group_by(Mention.entity)
            )
            self.mentions.update(dict(tuples(live)))
        ids = sorted(passage_ids)
        for part in slices(ids):
            query = Passage.select(Passage.id, Passage.external_id, Passage.created_at).where(Passage.id.in_(part))
            for passage_id, external_id, created in tuples(query):
                self.passages[passage_id] = (external_id, created)
        self.apart = _kept_apart_pairs(namespace, entity_ids) if entity_ids else set()


def _kept_apart_pairs(namespace: str, entity_ids: set[int]) -> set[frozenset[int]]:
    """Pairs of these entities a reviewer rejected or kept both of, through everything folded into each."""
    settled = KeepApart.select().where((KeepApart.namespace == namespace) & KeepApart.kind.in_(APART))
    if not settled.exists():
        return set()
    home = {e: e for e in entity_ids}  # original id -> the member it lives in now (its lineage, read in bulk)
    ids = sorted(entity_ids)
    for part in slices(ids):
        rows = Alias.select(Alias.original_id, Alias.entity).where(
            Alias.entity.in_(part) & Alias.original_id.is_null(False)
        )
        home.update(tuples(rows))
    out = set()
    originals = sorted(home)
    for part in slices(originals):
        kept = KeepApart.select(KeepApart.low_id, KeepApart.high_id).where(
            (KeepApart.namespace == namespace) & KeepApart.kind.in_(APART) & KeepApart.low_id.in_(part)
        )
        for low, high in tuples(kept):
            if high in home and home[low] != home[high]:
                out.add(frozenset((home[low], home[high])))
    return out


def _chains(canonical: int, edges: list[QuestionView]) -> dict[int, tuple[float, QuestionView | None, int | None]]:
    """For each member: the likeliest chain of questions from the canonical (the product of their
    likelihoods), its last question and the member before it."""
    near: dict[int, list[tuple[int, QuestionView]]] = defaultdict(list)
    for q in sorted(edges, key=lambda q: q.id):
        near[q.left_id].append((q.right_id, q))
        near[q.right_id].append((q.left_id, q))
    best: dict[int, tuple[float, QuestionView | None, int | None]] = {canonical: (1.0, None, None)}
    heap = [(-1.0, canonical)]
    while heap:
        likelihood, node = heapq.heappop(heap)
        if -likelihood < best[node][0]:
            continue
        for other, q in near[node]:
            chained = -likelihood * q.likelihood
            if other not in best or chained > best[other][0]:
                best[other] = (chained, q, None if node == canonical else node)
                heapq.heappush(heap, (-chained, other))
    return best


def _cluster(edges: list[QuestionView], facts: _Facts, canonical: int | None = None) -> QuestionView:
    """One cluster's queue item; `canonical`: the reviewer's choice (default: the one canonical
    policy for names, the newest passage for a family)."""
    family = _family(edges[0].kind)
    nodes = _nodes(edges)
    if family == "names":

        def name(n: int) -> str:
            return facts.entities.get(n, (f"#{n}", None))[0]

        if canonical is None:
            code = folds.written_as_code({n: name(n) for n in nodes})
            canonical = min(nodes, key=lambda n: folds.canonical_rank(n, name(n), facts.mentions[n], code))
    else:

        def name(n: int) -> str:
            return facts.passages.get(n, (f"#{n}", None))[0]

        if canonical is None:
            canonical = max(nodes, key=lambda n: (facts.passages[n][1], n))
    if canonical not in nodes:
        raise MemoError(f"#{canonical} is not a member of this cluster")
    chains = _chains(canonical, edges)
    lead = min(q.id for q in edges)

    folding = [canonical]  # what a default fold folds, in the order the card lists it

    def member(n: int) -> Member:
        likelihood, q, via = chains[n]
        kind = facts.entities.get(n, (None, None))[1] if family == "names" else None
        count = facts.mentions[n] if family == "names" else 1
        if q is None:
            return Member(n, name(n), kind, count, 1.0, "the proposed canonical", lead)
        # kept apart from the canonical or from a likelier member folded before it: left out by default
        apart = next((o for o in folding if frozenset((n, o)) in facts.apart), None) if family == "names" else None
        if apart is None:
            folding.append(n)
        apart_from = name(apart) if apart is not None else None
        via_name = name(via) if via is not None else None
        return Member(n, name(n), kind, count, likelihood, q.reason, q.id, via_name, apart is not None,
                      apart_from)  # fmt: skip

    others = sorted(nodes - {canonical}, key=lambda n: (-chains[n][0], name(n), n))
    members = (member(canonical), *(member(n) for n in others))
    head = edges[0]
    what = "spellings" if family == "names" else "passages"
    impact = sum(m.passages for m in members[1:]) if family == "names" else max(q.impact for q in edges)
    rule = f"{len(members)} {what}"
    reason = f"{len(members)} {what} of one {'name' if family == 'names' else 'note'}? " + ", ".join(
        repr(m.name) for m in members
    )
    timeline = [q for q in edges if q.rule == TIMELINE]
    if timeline:  # its newest question says every value it has seen, with its date
        rule, reason = f"{TIMELINE}, {len(members)} {what}", max(timeline, key=lambda q: q.id).reason
    return replace(
        head,
        id=lead,
        kind=CLUSTER_KINDS[family],
        left_id=canonical,
        left_name=members[0].name,
        right_id=members[1].id,
        right_name=", ".join(m.name for m in members[1:]),
        score=max(q.score for q in edges),
        rule=rule,
        reason=reason,
        impact=impact,
        likelihood=max(m.likelihood for m in members[1:]),
        priority=sum(q.priority for q in edges),
        proposed_by=None,
        members=members,
        questions=tuple(sorted(q.id for q in edges)),
    )


# -- one cluster, read from the store ----------------------------------------------------------


def _component(namespace: str, question: Question) -> list[QuestionView] | None:
    """The pending questions connected to this one (its sides followed to where they live now),
    or None when more than MAX_MEMBERS members are connected."""
    names = question.kind in NAME_KINDS
    kinds = NAME_KINDS if names else PASSAGE_KINDS
    found: dict[int, QuestionView] = {}
    sides = (question.left_id, question.right_id)
    start: set[int] = set()
    for side in sides:
        home = folds.home_of(side) if names else side
        if home is None:
            return []
        start.add(home)
    seen, frontier = set(start), list(start)
    while frontier:
        ids = sorted({i for n in frontier for i in (decisions.lineage(n) if names else {n})})
        frontier = []
        for part in slices(ids):
            rows = Question.select().where(
                (Question.namespace == namespace)
                & Question.kind.in_(kinds)
                & (Question.status == "pending")
                & (Question.left_id.in_(part) | Question.right_id.in_(part))
            )
            views = [view(q) for q in rows if q.id not in found]
            for q in at_homes(views, folds.home_of) if names else views:
                if not _links(q) or q.id in found or (names and not (_live(q.left_id) and _live(q.right_id))):
                    continue
                found[q.id] = q
                for side in (q.left_id, q.right_id):
                    if side not in seen:
                        seen.add(side)
                        frontier.append(side)
        if len(seen) > MAX_MEMBERS:
            return None
    return sorted(found.values(), key=lambda q: q.id)


def _live(entity_id: int) -> bool:
    return Entity.select().where(Entity.id == entity_id).exists()


def led_by(namespace: str, question_id: int, canonical: int | None = None) -> QuestionView | None:
    """The cluster this pending question leads (None when it stands alone, is not the smallest id
    of its cluster, or its connected part is too big to be one item)."""
    question = Question.get_or_none((Question.id == question_id) & (Question.namespace == namespace))
    if question is None or question.status != "pending" or question.proposed_by is not None:
        return None
    edges = _component(namespace, question)
    if not edges or min(q.id for q in edges) != question_id or len(_nodes(edges)) < 3:
        return None
    nodes = _nodes(edges)
    names = question.kind in NAME_KINDS
    return _cluster(edges, _Facts(namespace, nodes if names else set(), set() if names else nodes), canonical)


def _require(namespace: str, lead: int, canonical: int | None = None) -> QuestionView:
    cluster = led_by(namespace, lead, canonical)
    if cluster is None:
        raise MemoError(f"question {lead} does not lead a cluster (any more); answer it as a pair")
    return cluster


@dataclass(frozen=True)
class ClusterDetail:
    """A cluster card: every member with what a reviewer needs to check it."""

    cluster: QuestionView
    entities: list[EntitySide] | None  # a name cluster: each member, canonical first
    passages: list[Excerpt] | None  # a passage family: each passage, the kept one first
    effect: str  # what the answer keys do, in words

    def as_dict(self) -> dict:
        return asdict(self)

    def family(self) -> list[Excerpt]:
        """A passage family's passages (a name cluster has `entities` instead)."""
        if self.passages is None:
            raise ValueError(f"cluster #{self.cluster.id} is a name cluster: it has no passages")
        return self.passages


def cluster_detail(namespace: str, lead: int, passages: int = 2, canonical: int | None = None) -> ClusterDetail:
    cluster = _require(namespace, lead, canonical)
    if cluster.kind == NAME_CLUSTER:
        sides = [entity_side(Entity.get_by_id(m.id), passages) for m in cluster.members]
        effect = (
            f"m folds the checked spellings into {cluster.left_name!r} as one decision; d does that and marks "
            "the unchecked ones different; r says they are all different things; b keeps them all"
        )
        return ClusterDetail(cluster, sides, None, effect)
    rows = [excerpt(Passage.get_by_id(m.id)) for m in cluster.members]
    effect = (
        f"m keeps {cluster.left_name!r} and retires the other {len(rows) - 1} as one decision; "
        "r: not a conflict, b: all stand"
    )
    if cluster.rule.startswith(TIMELINE):
        effect = f"{cluster.reason} {effect}"
    return ClusterDetail(cluster, None, rows, effect)


# -- answering a cluster -----------------------------------------------------------------------


def answer_item(
    namespace: str,
    question_id: int,
    action: str,
    actor: str,
    channel: str,
    seen: Iterable[int] | None = None,
    canonical: int | None = None,
    leave_out: Iterable[int] | None = None,
    mark_rest: bool = False,
) -> decisions.DecisionView:
    """Answer a queue item: the cluster the question leads, as a whole, or the question.
    `seen`: the cluster's members as they were shown (`answer_cluster`; empty for a pair): a pair
    that has come to lead a cluster since, or a lead whose cluster is gone while it is still pending,
    is then not answered. `canonical`, `leave_out` and `mark_rest` choose how a cluster merges
    (`answer_cluster`). Looked at and answered in one write, so that nothing changes between."""
    chosen = canonical is not None or bool(leave_out) or mark_rest
    if chosen and action != "merge" and action in decisions.ANSWERS:
        raise MemoError("canonical, leave_out and mark_rest choose how a cluster merges; they are for a merge")
    with writing(namespace):
        if led_by(namespace, question_id) is not None:
            return answer_cluster(
                namespace, question_id, action, actor, channel, canonical, mark_rest=mark_rest, seen=seen,
                leave_out=leave_out,
            )  # fmt: skip
        if seen and _pending(namespace, question_id):
            raise MemoError(f"question {question_id} no longer leads a cluster; look at it again")
        if chosen and _pending(namespace, question_id):  # a decided one says so (`decisions.answer`)
            raise MemoError(
                f"question {question_id} does not lead a cluster; canonical, leave_out and mark_rest are for one"
            )
        return decisions.answer(namespace, question_id, action, actor, channel)


def _pending(namespace: str, question_id: int) -> bool:
    return (
        Question.select()
        .where((Question.id == question_id) & (Question.namespace == namespace) & (Question.status == "pending"))
        .exists()
    )


def answer_cluster(
    namespace: str,
    lead: int,
    action: str,
    actor: str,
    channel: str,
    canonical: int | None = None,
    members: Iterable[int | None] | None = None,
    mark_rest: bool = False,
    seen: Iterable[int] | None = None,
    different: Iterable[int] | None = None,
    leave_out: Iterable[int] | None = None,
) -> decisions.DecisionView:
    """merge: fold the chosen members into the canonical (every member but those kept apart, unless
    `members` says which, or `leave_out` which not); with `mark_rest`, the members left out are marked
    different from it. For a passage family: keep the canonical passage and retire the rest. reject /
    keep_both: every question of the cluster, as one batch. `different`: members to mark different,
    named one by one (instead of `mark_rest`). `seen`: the members the reviewer was shown; when the
    cluster has changed since (a member came or went), nothing is done. A member None (one no
    longer in the store, `answer_again`) is no member of the cluster."""
    if action not in decisions.ANSWERS:
        raise MemoError(f"unknown answer {action!r}; one of {', '.join(decisions.ANSWERS)}")
    with writing(namespace):
        cluster = _require(namespace, lead, canonical)
        if seen is not None and set(seen) != {m.id for m in cluster.members}:
            now = ", ".join(repr(m.name) for m in cluster.members)
            raise MemoError(f"cluster {lead} changed since it was shown (now {now}); look at it again")
        if leave_out:
            members = _without(cluster, set(leave_out))
        elif mark_rest and members is None and cluster.kind == NAME_CLUSTER:
            raise MemoError("marking the rest different marks the members left out, and none is: leave some out")
        if action != "merge":
            return decisions.answer_batch(namespace, cluster.questions, action, actor, channel)
        if cluster.kind == PASSAGE_FAMILY:
            return _keep_one(namespace, cluster, actor, channel)
        return _fold(namespace, cluster, actor, channel, members, mark_rest, different)


def _without(cluster: QuestionView, left_out: set[int]) -> list[int]:
    """The members of a cluster of names but those left out (never its canonical)."""
    if cluster.kind != NAME_CLUSTER:
        raise MemoError("only a cluster of names leaves members out; a passage family keeps one passage")
    strangers = sorted(left_out - {m.id for m in cluster.members})
    if strangers:
        raise MemoError(f"#{strangers[0]} is not a member of cluster {cluster.id}")
    if cluster.left_id in left_out:
        raise MemoError(f"a member left out is the canonical {cluster.left_name!r}; choose another canonical instead")
    return [m.id for m in cluster.members if m.id not in left_out]


def _fold(
    namespace: str,
    cluster: QuestionView,
    actor: str,
    channel: str,
    members: Iterable[int | None] | None,
    mark_rest: bool,
    different: Iterable[int] | None,
) -> decisions.DecisionView:
    canonical = cluster.left_id
    by_id = {m.id: m for m in cluster.members}
    if members is None:
        chosen = [m.id for m in cluster.members[1:] if not m.kept_apart]
    else:
        named = list(dict.fromkeys(members))
        strangers = [m for m in named if m not in by_id]
        if strangers:
            raise MemoError(f"#{strangers[0]} is not a member of cluster {cluster.id}")
        chosen = [m for m in named if m is not None and m != canonical]  # None was a stranger
    rest = [m.id for m in cluster.members[1:] if m.id not in chosen and not m.kept_apart]
    if different is not None:
        rest, mark_rest = [m for m in rest if m in set(different)], True
    if not chosen and not (mark_rest and rest):
        raise MemoError(f"cluster {cluster.id}: no member chosen to fold into {cluster.left_name!r}")
    children, folded, made = [], [], []
    apart = [m.name for m in cluster.members[1:] if m.kept_apart and m.id not in chosen]
    for member in _nearest_first(cluster, chosen):
        if decisions.kept_apart(namespace, canonical, member, kinds=APART) is not None:  # through what folded before
            apart.append(by_id[member].name)
            continue
        question = _pending_between(namespace, member, canonical)
        if question is not None:
            left = Entity.get_by_id(folds.home_of(question.left_id))
            right = Entity.get_by_id(folds.home_of(question.right_id))
            swap = folds.canonical_order(left, right)[0].id != canonical
            children.append(decisions.answer(namespace, question.id, "merge", actor, channel, swap=swap))
        else:  # joined only through a member left out: fold it all the same, by hand
            children.append(decisions.manual_fold(namespace, f"#{member}", f"#{canonical}", actor, channel))
        folded.append(member)
        made.append([member, children[-1].id])
    marked = []
    if mark_rest:
        for member in rest:
            question = _pending_between(namespace, member, canonical)
            if question is not None:
                children.append(decisions.answer(namespace, question.id, "reject", actor, channel))
                marked.append(member)
                made.append([member, children[-1].id])
    if not children:
        raise MemoError(f"cluster {cluster.id}: nothing to do (every chosen member is kept apart from the canonical)")
    said = f"folded {', '.join(repr(by_id[m].name) for m in folded) or 'nothing'} into {cluster.left_name!r}"
    if marked:
        said += f"; {', '.join(repr(by_id[m].name) for m in marked)} marked different"
    if apart:
        said += f"; {', '.join(map(repr, apart))} kept apart by an earlier decision"
    said = f"{said} (cluster #{cluster.id})"
    return _record(namespace, cluster, children, folded, marked, said, actor, channel, made)


def _record(
    namespace: str,
    cluster: QuestionView,
    children: list[decisions.DecisionView],
    members: list[int],
    rest: list[int],
    said: str,
    actor: str,
    channel: str,
    made: Iterable[Sequence[int]] = (),
) -> decisions.DecisionView:
    """The cluster's own decision, over the answers it made (reverted, undone and redone as one);
    `made`: (member, decision) of each answer, for a redo to replay only what still stood."""
    payload = {
        "made": [list(pair) for pair in made],
        "decisions": [child.id for child in children],
        "questions": list(cluster.questions),
        "lead": cluster.id,
        "of": "names" if cluster.kind == NAME_CLUSTER else "passages",
        "canonical": {"id": cluster.left_id, "name": cluster.left_name},
        "members": members,
        "rest": rest,
        "summary": said,
    }
    return decisions.record(namespace, "cluster", actor, channel, payload)


def _nearest_first(cluster: QuestionView, chosen: list[int]) -> list[int]:
    """The chosen members, those asked beside the canonical first, then along their chains (so that
    each one's question, followed through the folds before it, joins it to the canonical)."""
    depth = _depths(cluster)
    return sorted(chosen, key=lambda m: (depth[m], chosen.index(m)))


def _depths(cluster: QuestionView) -> dict[int, int]:
    """How many questions long each member's chain from the canonical is (the canonical: 0)."""
    by_name = {m.name: m for m in cluster.members}
    depth = {cluster.left_id: 0}

    def level(member: Member) -> int:
        if member.id not in depth:
            depth[member.id] = 1 if member.via is None else 1 + level(by_name[member.via])
        return depth[member.id]

    for member in cluster.members:
        level(member)
    return depth


def _pending_between(namespace: str, one: int, other: int) -> Question | None:
    """The pending name question whose sides live at these two entities now (the oldest)."""
    ids = sorted(decisions.lineage(one) | decisions.lineage(other))
    rows = Question.select().where(
        (Question.namespace == namespace)
        & Question.kind.in_(NAME_KINDS)
        & (Question.status == "pending")
        & Question.left_id.in_(ids)
        & Question.right_id.in_(ids)
    )
    for question in rows.order_by(Question.id):
        if {folds.home_of(question.left_id), folds.home_of(question.right_id)} == {one, other}:
            return question
    return None


def _keep_one(namespace: str, cluster: QuestionView, actor: str, channel: str):
    """Keep the canonical passage; retire every other one through the question that joins it to
    the kept side, the farthest first (retiring one settles its other questions)."""
    kept = cluster.left_id
    by_name = {m.name: m.id for m in cluster.members}
    depth = _depths(cluster)
    children = []
    order = sorted(cluster.members[1:], key=lambda m: -depth[m.id])
    for member in order:
        parent = by_name[member.via] if member.via else kept
        question = Question.get_by_id(member.question_id)
        keep = "left" if question.left_id == parent else "right"
        children.append(decisions.answer(namespace, question.id, "merge", actor, channel, keep=keep))
    said = f"kept {cluster.left_name!r}, retired {len(order)} near-identical passages (family #{cluster.id})"
    return _record(namespace, cluster, children, [m.id for m in order], [], said, actor, channel)


def answer_again(namespace: str, original, payload: dict, actor: str, channel: str) -> decisions.DecisionView:
    """Redo of a cluster's answer (`original`, reverted): the same canonical, and the members whose
    answers still stood when the cluster was reverted (one a reviewer had reverted alone stays out),
    wherever they live now."""
    names = payload["of"] == "names"
    home = folds.home_of if names else (lambda passage_id: passage_id)
    members = rest = None
    if names:
        standing = {
            member
            for member, child in payload["made"]
            if (undone := Decision.get_by_id(child).undone_at) is None or undone >= original.undone_at
        }
        members = [home(m) for m in payload["members"] if m in standing]
        rest = [m for m in payload["rest"] if m in standing]
    return answer_cluster(
        namespace,
        payload["lead"],
        "merge",
        actor,
        channel,
        canonical=home(payload["canonical"]["id"]),
        members=members,
        different=rest,
    )

"""The folds a pass makes: each connected group of fold verdicts folded into its best-ranked member,
and the asks about folded entities moved to where they live now."""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from itertools import combinations

from memo_tui.engine.graph.folds import canonical_rank, written_as_code
from memo_tui.engine.resolve.asks import Ask, Side, Weigh, Weighed
from memo_tui.engine.resolve.reads import AUTO
from memo_tui.engine.review import decisions
from memo_tui.names import evidence
from memo_tui.names.evidence import Evidence
from memo_tui.names.rules import ASK, FOLD, Name, Verdict, judge_pair
from memo_tui.store import Entity
from memo_tui.store.kinds import SETTLED_KINDS
from memo_tui.store.locks import for_update, writing

Judge = Callable[..., Verdict]  # (a, b, settled=False): the rules' verdict on two sides
Certain = Callable[[Side, Side, str], Evidence | None]  # None when a fold of the rule is certain, else the evidence
Because = Callable[[Side, Side], str | None]  # why a fold found certain is (None: its verdict's reason says)


class Folder:
    """Folds the fold verdicts' groups (`fold`), counting what it folded and what it asked instead.

    Each group folds in a transaction of its own, so that a reviewer's answer waits for one group at
    most, never for the pass; inside it the members are read again, and a member a reviewer folded,
    deleted or kept apart since the pass read the store is left for the next pass."""

    def __init__(
        self,
        namespace: str,
        *,
        counts: MutableMapping[int, int],
        settled: set[frozenset[int]],
        asks: list[Ask[Evidence | None]],
        dry_run: bool,
        certain: Certain,
        because: Because,
        judge: Judge,
        stop_if_cancelled: Callable[[], None],
    ) -> None:
        """`counts`: entity id -> its live passages (a fold adds its member's to its canonical's);
        `asks`: where the asks the folds make go; `because`: why a pair `certain` found certain is, told
        in its fold's summary; `stop_if_cancelled` is called between groups."""
        self.namespace, self.counts, self.settled, self.asks, self.dry_run = namespace, counts, settled, asks, dry_run
        self.certain, self.because, self.judge, self.stop_if_cancelled = certain, because, judge, stop_if_cancelled
        self.absorbed_into: dict[int, Side] = {}  # member id -> the canonical it was folded into
        self.folded = self.not_certain = self.changed_meanwhile = 0

    def fold(self, edges: list[tuple[Side, Side]]) -> dict[int, Side]:
        """Fold each connected group of `edges` into its best-ranked member; members that do not fold
        with that canonical directly (say, declared types differ) become questions instead. Returns
        member id -> the canonical it was folded into."""
        for members in _groups(edges):
            self.stop_if_cancelled()
            if all(self.certain(a, b, self.judge(a, b).rule) is not None for a, b in combinations(members, 2)):
                # either way round: nothing here folds unasked: its questions, without a write (nor a lock to wait for)
                self._fold_group(members, {}, True, {})
                continue
            with writing(self.namespace):
                members_now = Entity.select().where(Entity.id.in_([m.id for m in members])).order_by(Entity.id)
                rows = {e.id: e for e in for_update(members_now)}  # in id order, as answers lock them
                still = [m for m in members if m.id in rows and rows[m.id].name == m.name]
                self.changed_meanwhile += len(members) - len(still)
                if len(still) > 1:
                    self._fold_group(still, rows, self.dry_run, {})
        return self.absorbed_into

    def _verdict(self, a: Side, b: Side, merged: dict[int, set[int]], dry_run: bool) -> Verdict:
        # a reviewer's keep-apart on anything already folded into either side covers the pair
        ids_a, ids_b = merged.get(a.id, {a.id}), merged.get(b.id, {b.id})
        said = self.judge(a, b, settled=any(frozenset((x, y)) in self.settled for x in ids_a for y in ids_b))
        # and one made while the pass ran, read inside this group's transaction (only for a fold: the
        # one verdict a keep-apart changes here)
        if said.kind == FOLD and not dry_run and decisions.kept_apart(self.namespace, a.id, b.id, SETTLED_KINDS):
            return self.judge(a, b, settled=True)
        return said

    def _fold_group(self, members: list[Side], rows: dict, dry_run: bool, merged: dict[int, set[int]]) -> None:
        """Fold members into the best-ranked one where the pair itself folds; those that do not (an
        all-capitals spelling, a type clash) are asked about, and folded among themselves in turn, so
        that a second pass finds nothing left to fold. `rows`: the members' entity rows, locked;
        `merged`: canonical id -> ids folded into it."""
        counts = self.counts
        code = (
            written_as_code({m.id: m.name for m in members})
            if any(m.name[:1].isupper() for m in members)
            else frozenset()
        )
        canonical, *rest = sorted(members, key=lambda n: canonical_rank(n.id, n.name, counts.get(n.id, 0), code))
        leftover = []
        for member in rest:
            said = self._verdict(canonical, member, merged, dry_run)
            doubt = self.certain(canonical, member, said.rule) if said.kind == FOLD else None
            impact = min(counts.get(canonical.id, 0), counts.get(member.id, 0))
            if doubt is not None:  # the names agree, but the store does not say enough to fold unasked
                self.not_certain += 1
                rule = said.rule.removeprefix(evidence.LEARNED)
                said = Verdict(ASK, said.score, rule, f"{said.reason}; not folded unasked")
                self.asks.append(Ask(canonical, member, said, impact, doubt))
                continue
            if said.kind != FOLD:
                if said.kind == ASK:
                    self.asks.append(Ask(canonical, member, said, impact, None))
                leftover.append(member)
                continue
            if not dry_run:
                learned = said.rule.startswith(evidence.LEARNED)
                why = said.reason.rsplit("; ", 1)[-1] if learned else self.because(canonical, member)
                decisions.fold_entities(
                    self.namespace, rows[canonical.id], rows[member.id], AUTO, AUTO, said.rule, said.score, why=why
                )
            counts[canonical.id] = counts.get(canonical.id, 0) + counts.get(member.id, 0)
            self.absorbed_into[member.id] = canonical
            merged.setdefault(canonical.id, {canonical.id}).update(merged.get(member.id, {member.id}))
            self.folded += 1
        while leftover:
            group, leftover = [leftover[0]], leftover[1:]
            grew = True
            while grew:
                joining = [o for o in leftover if any(self._verdict(x, o, merged, dry_run).kind == FOLD for x in group)]
                group += joining
                leftover = [o for o in leftover if o not in joining]
                grew = bool(joining)
            if len(group) > 1:
                self._fold_group(group, rows, dry_run, merged)


def _groups(edges: list[tuple[Side, Side]]) -> list[list[Side]]:
    """The connected groups of `edges`, each in id order, in the order of their roots' first member."""
    parent: dict[int, int] = {}
    names: dict[int, Side] = {}

    def root(entity_id: int) -> int:
        while parent.get(entity_id, entity_id) != entity_id:
            entity_id = parent[entity_id]
        return entity_id

    for a, b in edges:
        names[a.id], names[b.id] = a, b
        ra, rb = root(a.id), root(b.id)
        if ra != rb:
            parent[rb] = ra
    groups: dict[int, list[Side]] = {}
    for entity_id in sorted(names):
        groups.setdefault(root(entity_id), []).append(names[entity_id])
    return list(groups.values())


def follow_folds(
    asks: list[Weighed],
    absorbed_into: dict[int, Side],
    *,
    counts: MutableMapping[int, int],
    settled: set[frozenset[int]],
    pending: set[frozenset[int | None]],
    weigh: Weigh,
    name_of: Callable[[int], Name],
    checked: int = 0,
) -> list[Weighed]:
    """Questions about entities folded in this pass are asked about their canonical instead. The
    first `checked` asks were found neither settled nor pending before the folds: those the folds
    did not touch stand as they are."""
    touched = set(absorbed_into) | {x.id for x in absorbed_into.values()}
    out: dict[tuple[int, int], Weighed] = {}  # by (low id, high id): a third of a frozenset's room, 10^5 of them
    for at, ask in enumerate(asks):
        low, high = ask.left.id, ask.right.id
        if at < checked and low not in touched and high not in touched:
            out.setdefault((low, high) if low < high else (high, low), ask)
            continue
        left, right = absorbed_into.get(low, ask.left), absorbed_into.get(high, ask.right)
        pair = frozenset((left.id, right.id))
        key = (left.id, right.id) if left.id < right.id else (right.id, left.id)
        if left.id == right.id or pair in settled or pair in pending or key in out:
            continue
        impact = min(counts.get(left.id, 0), counts.get(right.id, 0))
        if (left, right) == (ask.left, ask.right):
            out[key] = ask if impact == ask.impact else Ask(left, right, ask.verdict, impact, ask.evidence)
            continue
        verdict = judge_pair(name_of(left.id), name_of(right.id))
        if verdict.kind in (ASK, FOLD):  # a fold verdict here lost its certainty in this pass
            out[key] = Ask(left, right, verdict, impact, weigh(left, right, verdict.rule))
    return list(out.values())

"""What a pass reads of the store: its names, their passages and spellings, and the reviewers' marks."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter
from typing import Literal

from peewee import fn

from memo_tui.engine.graph.folds import follow_aliases
from memo_tui.engine.resolve import pass_memory, recovery
from memo_tui.engine.resolve.asks import NamesOf, Side
from memo_tui.names import evidence
from memo_tui.names.evidence import Evidence, StoreFacts
from memo_tui.names.keys import identity_key
from memo_tui.names.rules import SHORT_KEY_LETTERS
from memo_tui.store import Alias, Entity, Fold, KeepApart, Mention, Passage, Question
from memo_tui.store.kinds import ENTITY_PAIR
from memo_tui.store.rows import tuples
from memo_tui.store.statements import first_column, rows_of, slices

AUTO = "auto"  # who a pass's own decisions are by


def live_mentions(namespace: str, live: set[int]) -> list[tuple[int, int]]:
    """(passage, entity) of every active mention in a live passage (`live`: the namespace's live
    passages, `live_sources`'): read once per pass, for the mention counts and for the evidence layer.
    A namespace that holds at least half of the store's passages reads the mention table through
    and keeps its live passages' rows: joining each row to its passage costs more (SQLite
    reads a passage's whole row, text and all). A smaller namespace is joined, so that a pass never
    reads much more than its own."""
    ((last,),) = rows_of(Passage.select(fn.MAX(Passage.id)))
    if 2 * len(live) >= (last or 0):
        rows = rows_of(Mention.select(Mention.passage, Mention.entity).where(Mention.active))
        return list(compress(rows, map(live.__contains__, map(itemgetter(0), rows))))
    query = (
        Mention.select(Mention.passage, Mention.entity)
        .join(Passage)
        .where((Passage.namespace == namespace) & Passage.retired_at.is_null() & Mention.active)
    )
    return rows_of(query)


def mention_sets(rows: list[tuple[int, int]]) -> tuple[dict[int, frozenset[int]], dict[int, set[int]]]:
    """From `live_mentions` rows: entity id -> the live passages that mention it (equal sets are one
    object: most entities of a large store are named by one passage, and share it with the others
    that passage names), and passage id -> the entities it mentions."""
    passages: dict[int, set[int]] = defaultdict(set)
    named: dict[int, set[int]] = defaultdict(set)
    for pid, eid in rows:
        passages[eid].add(pid)
        named[pid].add(eid)
    shared: dict[frozenset[int], frozenset[int]] = {}
    sets = map(frozenset, passages.values())
    return {eid: shared.setdefault(pids, pids) for eid, pids in zip(passages, sets, strict=True)}, named


def store_facts(
    wanted: set[int],
    passages: dict[int, frozenset[int]],
    named: dict[int, set[int]],
    sources: dict[int, str | None],
    counts: dict[int, int],
) -> StoreFacts:
    """The plain facts the evidence layer weighs, for the entities in `wanted` and their passages
    (`passages`, `named`: `mention_sets` of the live mentions; `sources`: `live_sources`'; `counts`:
    entity id -> how many of those passages name it)."""
    facts = StoreFacts({}, named, sources, frequency=counts, live_passages=len(named), passage_sets=passages)
    facts.want(wanted)
    return facts


def live_sources(namespace: str) -> tuple[set[int], dict[int, str | None]]:
    """The ids of the live passages, and the source of each that has one."""
    query = Passage.select(Passage.id, Passage.source).where(
        (Passage.namespace == namespace) & Passage.retired_at.is_null()
    )
    rows = rows_of(query)
    return set(map(itemgetter(0), rows)), dict(filter(itemgetter(1), rows))


def joint_texts(facts: StoreFacts, pairs: list[tuple[int, int]]) -> None:
    """Fill in the texts of passages that name both sides of a pair (defining or contrasting ones),
    and the spellings the sides of such pairs are written in (all their live mentions')."""
    wanted: set[int] = set()
    sides: set[int] = set()
    for a, b in pairs:
        joint = facts.passage_set(a) & facts.passage_set(b)
        if joint:
            wanted |= joint
            sides.update((a, b))
    read_texts(facts, wanted)
    # the mentions in live passages (the facts' `entities_of`) are kept here: joining each to its
    # passage row read a hub's every passage, text and all. A spelling is read once, with the first
    # and last passage it is written in: a hub's tens of thousands of mentions are a few spellings.
    live, spelled = facts.entities_of, facts.surfaces
    for part in slices(sorted(sides - spelled.keys())):
        spellings = (
            Mention.select(Mention.entity, Mention.surface, fn.MIN(Mention.passage), fn.MAX(Mention.passage))
            .where(Mention.entity.in_(part) & Mention.active)
            .group_by(Mention.entity, Mention.surface)
        )
        unsure = set()  # entities with a spelling whose first and last passages are both retired
        for entity_id, surface, first, last in rows_of(spellings):
            if first in live or last in live:
                spelled.setdefault(entity_id, set()).add(surface)
            else:
                unsure.add(entity_id)
        for few in slices(sorted(unsure)):  # their every mention: a passage between those two may be live
            mentions = Mention.select(Mention.entity, Mention.surface, Mention.passage).where(
                Mention.entity.in_(few) & Mention.active
            )
            for entity_id, surface, pid in rows_of(mentions):
                if pid in live:
                    spelled.setdefault(entity_id, set()).add(surface)


def read_texts(facts: StoreFacts, wanted: Iterable[int]) -> None:
    """Fill in the texts (and external ids) of these passages that the facts do not hold yet."""
    for part in slices(sorted(set(wanted) - facts.text_of.keys())):
        query = Passage.select(Passage.id, Passage.external_id, Passage.text).where(Passage.id.in_(part))
        for pid, external_id, text in rows_of(query):
            facts.text_of[pid] = text
            facts.external_of[pid] = external_id


def backtick_passages(entity_id: int, passages: frozenset[int]) -> int:
    """How many of these passages (an entity's live ones) write the entity in backticks: the
    extractor's `backtick` mentions, its strongest source, so a passage that also writes it in prose
    counts too."""
    query = Mention.select(Mention.passage).where(
        (Mention.entity == entity_id) & Mention.active & (Mention.source == "backtick")
    )
    return len(passages.intersection(first_column(query)))


def entity_rows(namespace: str) -> list[tuple[int, str, str | None]]:
    """(id, name, type) of the namespace's entities in id order; a name no type was declared for that
    is the source of live passages, written as a person's name is, is a person (speakers, authors),
    and so is a short form of such a person's first name (`Mel`, beside the speaker `Melanie`), as
    short as rule 8 leaves to `rules._one_letter_more` (which then asks about `Mell`)."""
    query = Entity.select(Entity.id, Entity.name, Entity.type).where(Entity.namespace == namespace)
    rows = rows_of(query.order_by(Entity.id))
    people = people_among_sources(namespace)
    if not people:
        return rows
    people |= short_forms(people)
    return [(e, name, "person") if kind is None and identity_key(name) in people else (e, name, kind)
            for e, name, kind in rows]  # fmt: skip


def short_forms(people: set[str]) -> set[str]:
    """The starts of these people's first names that rule 7f (`rules._short_name`) asks about as what
    they are called for short, of SHORT_KEY_LETTERS (`Mel`, `Mela` of `Melanie`). Not longer ones:
    typed people, a `Chris` or a `Daniel` would have short names of their own (`Ch`, `Dan`)."""
    out: set[str] = set()
    for key in people:
        first = key.split(" ")[0]
        if first.isalpha():
            out.update(first[:end] for end in SHORT_KEY_LETTERS if end < len(first))
    return out


_PERSON_NAME = re.compile(r"[^\W\d_][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*")  # Caroline, Jean-Luc, O'Brien


def people_among_sources(namespace: str) -> set[str]:
    """The identity keys of the sources of live passages that are written as a person's name is: one
    to four capitalised words of letters (`Caroline`, `Jean-Luc Picard`; not `pypi` or `ci@example.org`)."""
    query = (
        Passage.select(Passage.source)
        .where((Passage.namespace == namespace) & Passage.retired_at.is_null() & Passage.source.is_null(False))
        .distinct()
    )
    people = set()
    for (source,) in rows_of(query):
        key = identity_key(source)
        words = key.split(" ")
        if 1 <= len(words) <= 4 and all(w[:1].isupper() and _PERSON_NAME.fullmatch(w) for w in words):
            people.add(key)
    return people


class Homes:
    """Where each entity id lives now (`folds.follow_aliases`, over the alias table read once)."""

    def __init__(self, namespace: str, live: set[int] | None = None) -> None:
        """`live`: the namespace's entity ids, when the caller has read them."""
        if live is None:
            live = {
                entity_id for (entity_id,) in rows_of(Entity.select(Entity.id).where(Entity.namespace == namespace))
            }
        self.live = live
        self.attached = dict(
            rows_of(
                Alias.select(Alias.original_id, Alias.attached_to).where(
                    (Alias.namespace == namespace) & Alias.original_id.is_null(False)
                )
            )
        )

    def __call__(self, entity_id: int) -> int | None:
        return follow_aliases(entity_id, self.live.__contains__, self.attached.get)


def settled_pairs(namespace: str, home: Homes) -> set[frozenset[int]]:
    """Pairs a reviewer settled (reject / keep_both), followed through aliases."""
    out = set()
    for low, high in tuples(
        KeepApart.select(KeepApart.low_id, KeepApart.high_id).where(KeepApart.namespace == namespace)
    ):
        a, b = home(low), home(high)
        if a is not None and b is not None and a != b:
            out.add(frozenset((a, b)))
    return out


def answer_counts(namespace: str) -> dict[str, tuple[int, int]]:
    """Per rule: (merged, answered) among this store's standing answers by a person or an agent, and
    its learned folds a reviewer reverted (each a "not the same"). A reverted answer puts its question
    back to pending, so it no longer counts."""
    query = (
        Question.select(fn.COALESCE(Question.pattern, Question.rule), Question.status, fn.COUNT(Question.id))
        .where(
            (Question.namespace == namespace)
            & (Question.kind == ENTITY_PAIR)
            & Question.status.in_(("merged", "rejected"))
            & (Question.decided_by != AUTO)
        )
        .group_by(fn.COALESCE(Question.pattern, Question.rule), Question.status)
    )
    out: dict[str, tuple[int, int]] = {}
    for rule, status, count in tuples(query):
        merged, answered = out.get(rule, (0, 0))
        out[rule] = (merged + (count if status == "merged" else 0), answered + count)
    # a learned fold a reviewer reverted answers its pattern "not the same"
    # (not one a pass took back from a pass that died: no reviewer said so)
    reverted = Fold.select(Fold.id, Fold.rule).where(
        (Fold.namespace == namespace) & Fold.rule.startswith(evidence.LEARNED) & Fold.reverted_at.is_null(False)
    )
    taken_back = recovery.taken_back(namespace)
    for fold_id, rule in tuples(reverted):
        if fold_id not in taken_back:
            merged, answered = out.get(rule.removeprefix(evidence.LEARNED), (0, 0))
            out[rule.removeprefix(evidence.LEARNED)] = (merged, answered + 1)
    return out


def reverted_pairs(namespace: str, home: Homes) -> set[frozenset[int]]:
    """Pairs whose fold a reviewer reverted (not a pass taking back a dead pass's fold), followed
    through aliases to where both sides live now."""
    out = set()
    rows = Fold.select(Fold.id, Fold.canonical_id, Fold.absorbed_id).where(
        (Fold.namespace == namespace) & Fold.reverted_at.is_null(False)
    )
    taken_back = recovery.taken_back(namespace)
    for fold_id, canonical, absorbed in tuples(rows):
        if fold_id in taken_back:
            continue
        a, b = home(canonical), home(absorbed)
        if a is not None and b is not None and a != b:
            out.add(frozenset((a, b)))
    return out


def pending_pairs(namespace: str, home: Homes) -> set[frozenset[int | None]]:
    """Pairs a pending question is about, followed through aliases (None for a side no longer there)."""
    rows = Question.select(Question.left_id, Question.right_id).where(
        (Question.namespace == namespace) & (Question.kind == ENTITY_PAIR) & (Question.status == "pending")
    )
    return {frozenset((home(a), home(b))) for a, b in tuples(rows)}


Pair = tuple[int, int]  # (low id, high id)


def _ordered(pairs: Iterable[frozenset[int | None]]) -> set[Pair]:
    """The pairs as (low, high): a pair with a deleted side (None) is no verdict's."""
    out: set[Pair] = set()
    for pair in pairs:
        sides = [x for x in pair if x is not None]
        if len(sides) == len(pair):
            out.add((min(sides), max(sides)))
    return out


Row = tuple[int, str, str | None]  # an entity's (id, name, type)
Mark = Literal["pending", "unfolded", "settled"]  # what a reviewer did about a pair (`Reading.marked`)


@dataclass
class Reading:
    """What a pass read of the store before it judged anything: the names, their passages, what the
    last pass left, and the reviewers' marks. The steps after it read these, and change only the
    facts (`facts`: more entities wanted, more texts read) and the rules' priors (`priors`)."""

    namespace: str
    rows: list[Row]  # the entities, in id order
    live: dict[int, Row]  # id -> its row (the rows themselves, not a copy of each)
    live_ids: set[int]  # the live passages
    passages: dict[int, frozenset[int]]  # entity id -> the live passages naming it
    named: dict[int, set[int]]  # passage id -> the entities it names
    counts: dict[int, int]  # entity id -> how many live passages name it
    signatures: pass_memory.Signatures
    passage_signatures: dict[int, int]
    known: pass_memory.Known  # what the last pass left (nothing for a full pass)
    standing: set[int]  # entities whose passages are what they were
    unmoved: set[int]  # and whose neighbours' are too (the judging's fresh names are taken out)
    answers: dict[str, tuple[int, int]]  # `answer_counts`
    learned: dict[str, int]  # rules this store's reviewers taught: their asks fold unasked
    settled: set[frozenset[int]]  # `settled_pairs`
    pending: set[frozenset[int | None]]  # pairs a pending question is about
    unfolded: set[frozenset[int]]  # pairs a reviewer unfolded: ask, never fold again unasked
    pending_ordered: set[Pair]  # `pending` as (low, high), without a pair with a deleted side
    unfolded_ordered: set[Pair]  # as `pending_ordered`
    marked: dict[Pair, Mark]  # one look-up a pair: most are none of these
    priors: dict[str, Evidence | None]  # rule -> its prior, when no fact can help (`asks.hopeless`)
    facts: StoreFacts  # the entities are added as they are wanted
    names_of: NamesOf

    @classmethod
    def of(cls, namespace: str, rows: list[Row], home: Homes, incremental: bool) -> Reading:
        """Read the store for a pass over `rows` (`entity_rows`); `incremental`: start from what the
        last pass left."""
        live_ids, sources = live_sources(namespace)
        passages, named = mention_sets(live_mentions(namespace, live_ids))
        counts = dict(zip(passages, map(len, passages.values()), strict=True))
        signatures = pass_memory.Signatures.of(passages)
        passage_signatures = pass_memory.passage_signatures(named)
        known = pass_memory.load_known(namespace) if incremental else pass_memory.Known.nothing()
        standing = known.standing(signatures)  # their passages are what they were
        unmoved = known.settled(standing, passage_signatures, named)  # and so are their neighbours
        answers = answer_counts(namespace)
        settled = settled_pairs(namespace, home)
        pending = pending_pairs(namespace, home)
        unfolded = reverted_pairs(namespace, home)
        settled_, pending_, unfolded_ = _ordered(settled), _ordered(pending), _ordered(unfolded)
        marked: dict[Pair, Mark] = dict.fromkeys(pending_, "pending")
        marked.update(dict.fromkeys(unfolded_, "unfolded"))  # a later mark wins
        marked.update(dict.fromkeys(settled_, "settled"))
        facts = store_facts(set(), passages, named, sources, counts)
        facts.answers = answers
        live = {row[0]: row for row in rows}
        return cls(
            namespace, rows, live, live_ids, passages, named, counts, signatures, passage_signatures, known,
            standing, unmoved, answers, evidence.learned(answers), settled, pending, unfolded, pending_, unfolded_,
            marked, {}, facts, NamesOf(live),
        )  # fmt: skip

    def let_go(self) -> None:
        """Forget the passages and what the weighing read of them, once nothing more is weighed."""
        self.facts.let_go()
        self.passages, self.named = {}, {}

    def side(self, entity_id: int) -> Side:
        return Side(*self.live[entity_id])

    def impact(self, low: int, high: int) -> int:
        """The impact of a question about the two: how many live passages name the one named less."""
        counts = self.counts
        return min(counts.get(low, 0), counts.get(high, 0))

    def weigh_now(self, a: Side, b: Side, rule: str) -> Evidence:
        """The evidence on a pair whose joint texts are read."""
        facts = self.facts
        return evidence.weigh(facts, a.id, b.id, facts.surfaces.get(a.id, {a.name}),
                              facts.surfaces.get(b.id, {b.name}), rule, self.names_of)  # fmt: skip

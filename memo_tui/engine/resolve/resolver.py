"""The resolution pass: block, judge, fold the certain, queue the uncertain.

Idempotent: folded pairs are one entity afterwards, queued pairs are skipped while their question is
pending, and settled pairs (reject / keep_both) are never asked again. At most `cap` entity questions
are pending at once; what does not fit is counted as deferred and admitted by a later pass.
"""

from __future__ import annotations

import re
import time
from collections import ChainMap, Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, astuple, dataclass
from heapq import merge
from itertools import chain, combinations, compress, islice
from operator import itemgetter
from typing import NamedTuple

from peewee import fn

from memo_tui.engine.graph.folds import canonical_rank, follow_aliases, written_as_code
from memo_tui.engine.resolve import conflict_search, pass_memory, recovery
from memo_tui.engine.resolve.pass_memory import PairList, Sweep, add_pair
from memo_tui.engine.review import decisions, queue
from memo_tui.errors import MemoError
from memo_tui.names import evidence, likelihood
from memo_tui.names.evidence import Evidence, StoreFacts
from memo_tui.names.keys import identity_key
from memo_tui.names.rules import Name, Verdict, judge_pair, prose_variants, told
from memo_tui.store import Alias, Entity, Fold, KeepApart, Mention, Passage, Question, utcnow
from memo_tui.store.locks import for_update, pass_lock, writing
from memo_tui.store.statements import paused_gc, rows_of, slices

DEFAULT_CAP = 50
FOLD_RULE = "same-merge-key"  # what the evidence on a fold verdict is weighed as
SETTLED_KINDS = ("reject", "keep_both")
AUTO = "auto"


@dataclass
class PassReport:
    entities: int = 0
    pairs_judged: int = 0
    folded: int = 0
    queued: int = 0
    deferred: int = 0
    rejected_by_rule: int = 0
    skipped_settled: int = 0
    already_queued: int = 0
    moot: int = 0
    unlikely: int = 0  # asked by a rule, but too unlikely (or too small a change) to spend a reviewer's time on
    not_reweighed: int = 0  # asks whose evidence nothing changed since the last pass: kept, not weighed again
    not_certain: int = 0  # identical merge keys that were asked instead of folded: too little evidence
    taken_back: int = 0  # folds of a pass that died half way, reverted before this one (`recovery`)
    changed_meanwhile: int = 0  # fold candidates a reviewer folded, renamed or deleted while the pass ran
    duplicates_queued: int = 0  # memory questions, admitted beside the capped entity questions
    contradictions_queued: int = 0
    memory_skipped_settled: int = 0
    memory_moot: int = 0
    names_changed: int = 0  # names the last pass did not see as they are now: only their pairs were judged
    incremental: bool = False  # the pass judged only those (False: every name was blocked and judged)
    memory_unchanged: bool = False  # the passage search was skipped: nothing it reads changed since the last
    seconds: float = 0.0
    dry_run: bool = False

    def as_dict(self) -> dict:
        return asdict(self)


class Side(NamedTuple):
    """One side of a question: what the queue and the evidence need of an entity (the rules need a `Name`)."""

    id: int
    name: str
    type: str | None


class Ask(NamedTuple):
    """A question a pass may ask (a tuple, as `Side` is: a pass makes tens of thousands)."""

    left: Side
    right: Side
    verdict: Verdict
    impact: int
    evidence: Evidence | None = None

    @property
    def priority(self) -> float:  # asks are weighed before admission (`_weighed`)
        return evidence.yield_of(self.evidence.likelihood, self.impact)


class NamesOf(Mapping):
    """Entity id -> name, read from the entity rows by id (`live`): not a second dict of every name."""

    def __init__(self, live: dict[int, tuple[int, str, str | None]]) -> None:
        self._live = live

    def __getitem__(self, entity_id: int) -> str:
        return self._live[entity_id][1]

    def __iter__(self) -> Iterator[int]:
        return iter(self._live)

    def __len__(self) -> int:
        return len(self._live)


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
    sources: dict[int, str],
    counts: dict[int, int],
) -> StoreFacts:
    """The plain facts the evidence layer weighs, for the entities in `wanted` and their passages
    (`passages`, `named`: `mention_sets` of the live mentions; `sources`: `live_sources`'; `counts`:
    entity id -> how many of those passages name it)."""
    facts = StoreFacts({}, named, sources, frequency=counts, live_passages=len(named), passage_sets=passages)
    facts.want(wanted)
    return facts


def live_sources(namespace: str) -> tuple[set[int], dict[int, str]]:
    """The ids of the live passages, and the source of each that has one."""
    query = Passage.select(Passage.id, Passage.source).where(
        (Passage.namespace == namespace) & Passage.retired_at.is_null()
    )
    rows = rows_of(query)
    return set(map(itemgetter(0), rows)), dict(filter(itemgetter(1), rows))


def joint_texts(facts: StoreFacts, pairs: list[tuple[int, int]]) -> None:
    """Fill in the texts of passages that name both sides of a pair (defining or contrasting ones),
    and the spellings the sides of such pairs are written in (all their live mentions')."""
    wanted, sides = set(), set()
    for a, b in pairs:
        joint = facts.passage_set(a) & facts.passage_set(b)
        if joint:
            wanted |= joint
            sides.update((a, b))
    for part in slices(sorted(wanted - facts.text_of.keys())):
        query = Passage.select(Passage.id, Passage.external_id, Passage.text).where(Passage.id.in_(part))
        for pid, external_id, text in rows_of(query):
            facts.text_of[pid] = text
            facts.external_of[pid] = external_id
    # the mentions in live passages (the facts' `entities_of`) are kept here: joining each to its
    # passage row read a hub's every passage, text and all. A spelling is read once, with the first
    # and last passage it is written in: a hub's tens of thousands of mentions are a few spellings.
    live, spelled = facts.entities_of, facts.surfaces
    for part in slices(sorted(sides - spelled.keys())):
        query = (
            Mention.select(Mention.entity, Mention.surface, fn.MIN(Mention.passage), fn.MAX(Mention.passage))
            .where(Mention.entity.in_(part) & Mention.active)
            .group_by(Mention.entity, Mention.surface)
        )
        unsure = set()  # entities with a spelling whose first and last passages are both retired
        for entity_id, surface, first, last in rows_of(query):
            if first in live or last in live:
                spelled.setdefault(entity_id, set()).add(surface)
            else:
                unsure.add(entity_id)
        for few in slices(sorted(unsure)):  # their every mention: a passage between those two may be live
            query = Mention.select(Mention.entity, Mention.surface, Mention.passage).where(
                Mention.entity.in_(few) & Mention.active
            )
            for entity_id, surface, pid in rows_of(query):
                if pid in live:
                    spelled.setdefault(entity_id, set()).add(surface)


def _entity_rows(namespace: str) -> list[tuple[int, str, str | None]]:
    """(id, name, type) of the namespace's entities in id order; a name no type was declared for that
    is the source of live passages, written as a person's name is, is a person (speakers, authors)."""
    query = Entity.select(Entity.id, Entity.name, Entity.type).where(Entity.namespace == namespace)
    rows = rows_of(query.order_by(Entity.id))
    people = _people_among_sources(namespace)
    if not people:
        return rows
    return [(e, name, "person") if kind is None and identity_key(name) in people else (e, name, kind)
            for e, name, kind in rows]  # fmt: skip


_PERSON_NAME = re.compile(r"[^\W\d_][^\W\d_'’-]*(?:[-'’][^\W\d_]+)*")  # Caroline, Jean-Luc, O'Brien


def _people_among_sources(namespace: str) -> set[str]:
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
    for low, high in (
        KeepApart.select(KeepApart.low_id, KeepApart.high_id).where(KeepApart.namespace == namespace).tuples()
    ):
        a, b = home(low), home(high)
        if a is not None and b is not None and a != b:
            out.add(frozenset((a, b)))
    return out


class Cancelled(MemoError):
    """The pass was asked to stop; what it folded so far stands (each fold a decision of its own)."""


def resolve(
    namespace: str,
    cap: int = DEFAULT_CAP,
    dry_run: bool = False,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    full: bool = False,
) -> PassReport:
    """One resolution pass over a namespace, holding its pass lock (`store.locks.Busy` when another
    process holds it). `cancelled` is asked between steps; when it says so the pass raises Cancelled.
    `full`: search the passages for conflicts even when nothing they depend on changed."""
    with pass_lock(namespace), paused_gc():
        if dry_run:
            return _resolve(namespace, cap, dry_run, progress, cancelled or (lambda: False), full)
        taken_back = recovery.begin(namespace)  # None, or what a pass that died left was taken back
        try:
            # after a dead pass, every name and passage again: what it kept of itself may be half saved
            report = _resolve(
                namespace, cap, dry_run, progress, cancelled or (lambda: False), full or taken_back is not None
            )
        except Cancelled:
            recovery.finish(namespace)  # stopped by its caller: its folds stand, as Cancelled says
            raise
        recovery.finish(namespace)
        report.taken_back = taken_back or 0
        return report


def _stop_if(cancelled: Callable[[], bool]) -> None:
    if cancelled():
        raise Cancelled("the resolution pass was cancelled; folds made before it stopped stand")


def _resolve(namespace, cap, dry_run, progress, cancelled, full=False) -> PassReport:
    started = time.perf_counter()
    with pass_memory.Judging(namespace, full, writes=not dry_run) as judging:  # a large store's second process starts
        return _pass(namespace, cap, dry_run, progress, cancelled, full, judging, started)


def _pass(namespace, cap, dry_run, progress, cancelled, full, judging, started) -> PassReport:
    report = PassReport(dry_run=dry_run)
    rows = _entity_rows(namespace)
    judging.judge(rows)  # beside the reads below (a full pass judges them now)
    home = Homes(namespace, {row[0] for row in rows})
    report.moot = _settle_moot_questions(namespace, home, dry_run)
    live_ids, sources = live_sources(namespace)
    passages, named = mention_sets(live_mentions(namespace, live_ids))
    counts = dict(zip(passages, map(len, passages.values()), strict=True))
    signatures = pass_memory.Signatures.of(passages)
    passage_signatures = pass_memory.passage_signatures(named)
    known = pass_memory.load_known(namespace) if judging.incremental else pass_memory.Known.nothing()
    standing = known.standing(signatures)  # their passages are what they were
    unmoved = known.settled(standing, passage_signatures, named)  # and so are their neighbours
    answers = answer_counts(namespace)
    learned = evidence.learned(answers)  # rules this store's reviewers taught: their asks fold unasked
    settled = settled_pairs(namespace, home)
    pending = _pending_pairs(namespace, home)
    unfolded = reverted_pairs(namespace, home)  # a reviewer undid their fold: ask, never fold again unasked
    # the passages, while the names are judged (nothing below reads or writes what it does)
    search = conflict_search.begin(namespace, live_ids, named, counts, passage_signatures, dry_run, full,
                                   judging.elsewhere)  # fmt: skip
    live = {row[0]: row for row in rows}  # id -> (id, name, type): the rows themselves, not a copy of each
    settled_, pending_, unfolded_ = (
        {(min(p), max(p)) for p in pairs if None not in p} for pairs in (settled, pending, unfolded)
    )  # as (low, high): a pair with a deleted side is no verdict's
    marked = dict.fromkeys(pending_, "pending") | dict.fromkeys(unfolded_, "unfolded")
    marked |= dict.fromkeys(settled_, "settled")  # one look-up a pair: most are none of these
    hopeless: dict[str, Evidence | None] = {}  # rule -> its prior, when no fact can help
    facts = store_facts(set(), passages, named, sources, counts)  # the entities are added as they are wanted
    facts.answers = answers
    names_of = NamesOf(live)

    def weighed_now(a: Side, b: Side, rule: str) -> Evidence:
        """The evidence on a pair whose joint texts are read."""
        return evidence.weigh(facts, a.id, b.id, facts.surfaces.get(a.id, {a.name}),
                              facts.surfaces.get(b.id, {b.name}), rule, names_of)  # fmt: skip

    early = _weigh_early(judging, known, live, marked, unmoved, passages, counts, hopeless, facts, weighed_now)
    found = judging.result()
    unmoved -= found.fresh
    book: dict[int, Name] = {}  # the names blocking built are let go: their trigrams were a third of a pass's peak

    def name_of(entity_id: int) -> Name:
        """The entity's `Name` for the rules, built when first needed (most remembered pairs never are)."""
        built = book.get(entity_id)
        if built is None:
            built = book[entity_id] = Name(*live[entity_id])
        return built

    made_of: dict[tuple, Verdict] = {}  # a remembered verdict's fields -> one Verdict (a few hundred for millions)

    def verdict(said: tuple) -> Verdict:
        made = made_of.get(said)
        if made is None:
            made = made_of[said] = Verdict(*said)
        return made

    def ask_of(pair: tuple[int, int], impact: int, found_: Evidence) -> Ask:
        """The ask about a pair kept from the last pass (never one a reviewer marked)."""
        low, high = pair
        return Ask(Side(*live[low]), Side(*live[high]), verdict(found.verdicts[pair]), impact, found_)

    remade_from: dict[tuple, Evidence] = {}  # what an evidence was made of -> the evidence (many share it)

    def remake(local: tuple) -> Evidence:
        """The evidence made of `local` and this store's answers (once for each distinct one)."""
        again = remade_from.get(local)
        if again is None:
            again = remade_from[local] = evidence.remade(local, answers)
        return again

    remade: set[tuple[int, int]] = set()  # asks whose evidence was remade from the last pass's
    report.entities = len(rows)
    report.pairs_judged, report.rejected_by_rule = found.judged, found.rejected
    report.names_changed, report.incremental = found.changed, found.incremental
    fold_edges: list[tuple[Side, Side]] = []  # a `Name` only where the rules judge the pair anew
    asks: list[Ask] = []
    # the asks the last pass kept whose key still holds are not visited; those whose key no longer
    # holds are, with what was kept of them
    kept, dropped = _still_kept(known, standing - found.fresh, unmoved, found, marked, counts, passages, answers,
                                hopeless, learned)  # fmt: skip
    verdicts = _to_visit(known, found, dropped)
    skipped: dict[tuple[str, int], PairList] = {}  # hopeless asks this pass finds it need not read, by (rule, impact)
    rest = PairList()  # the pairs visited that are not kept by key (those are, below)
    unread_again = 0  # of the unread, those whose sides' passages are what they were
    for done, pair in enumerate(verdicts, 1):
        if done % 5000 == 0:
            _stop_if(cancelled)
            if progress is not None:
                progress(done, len(verdicts))
        low, high = pair
        said = found.verdicts[pair]  # a Verdict's fields, made one only when asked about
        mark = marked.get(pair)
        if mark is not None:
            if mark == "settled":
                report.skipped_settled += 1
                rest.append(pair)
                continue
            if pair in unfolded_:
                said = _unfolded_said(said)
        elif said[0] == "ask" and said[2] in learned:
            said = evidence.learned_verdict(said, learned[said[2]])
        if said[0] == "fold" and pair not in pending_:  # a pending question is the reviewer's to answer
            fold_edges.append((Side(*live[low]), Side(*live[high])))
            rest.append(pair)
        elif mark is not None and pair in pending_:
            report.already_queued += 1
            rest.append(pair)
        else:
            impact = min(counts.get(low, 0), counts.get(high, 0))
            prior = hopeless.get(said[2], _UNKNOWN)
            if prior is _UNKNOWN:
                prior = _hopeless(said[2], answers, hopeless)
            if prior is not None and passages.get(low, _NONE).isdisjoint(passages.get(high, _NONE)):
                # no fact can lift it, and no passage names both: unread (what weighing it would find)
                add_pair(skipped, (said[2], impact), pair)
                unread_again += low in standing and high in standing
                continue
            local = dropped.get(pair, known.weighed.get(pair)) if low in unmoved and high in unmoved else None
            if local is not None and local[0] in (said[2], evidence.pattern_of(said[2], True)):
                # no neighbour shared, none changed: the evidence is what it was but for the prior
                asks.append(Ask(Side(*live[low]), Side(*live[high]), verdict(said), impact, remake(local)))
                remade.add(pair)
            else:  # weighed below, unless it was while the names were judged
                asks.append(Ask(Side(*live[low]), Side(*live[high]), verdict(said), impact, early.take(pair, said[2])))
    folding = {x.id for pair in fold_edges for x in pair}
    wanted = folding | {x.id for q in asks if (q.left.id, q.right.id) not in remade for x in (q.left, q.right)}
    # what this pass folds may ask about the pairs it did not read anew: their sides' facts too
    kept_by = Sweep(kept)
    near_folding = kept_by.touching(folding)
    near = [(pairs, pairs.touching(folding)) for pairs in skipped.values()]
    near += [(kept[key], places) for key, places in near_folding.items()]
    for pairs, places in near:
        for at in places:
            wanted.update((pairs.lows[at], pairs.highs[at]))
    wanted |= {x for pair in _touching(remade, folding) for x in pair}
    facts.want(wanted)
    grown = ChainMap({}, counts)  # a fold adds its member's count to its canonical's; the facts keep them as read

    def kept_fold(pair: tuple[int, int]) -> tuple | None:
        """What the evidence on a fold verdict was made of, when it shared no neighbour and none changed
        (it is then what it was but for the prior, and not certain)."""
        local = known.weighed.get(pair) if pair[0] in unmoved and pair[1] in unmoved else None
        return local if local is not None and local[0] in (FOLD_RULE, evidence.pattern_of(FOLD_RULE, True)) else None

    read = [(a.id, b.id) for a, b in fold_edges if kept_fold((a.id, b.id)) is None]
    read += [(q.left.id, q.right.id) for q in asks if q.evidence is None]
    early.forget_unread(facts, read)
    joint_texts(facts, read)
    read_pairs = {(min(pair), max(pair)) for pair in read} | early.used

    def weigh(a: Side, b: Side, rule: str) -> Evidence:
        pair = (a.id, b.id) if a.id < b.id else (b.id, a.id)
        if pair not in read_pairs:  # a pair a fold made: its joint texts too
            read_pairs.add(pair)
            joint_texts(facts, [pair])
        return weighed_now(a, b, rule)

    doubts: dict[tuple[int, int], Evidence | None] = {}

    def judge(a: Side, b: Side, settled: bool = False) -> Verdict:
        """The rules' verdict on two names; a fold verdict kept for the pair stands either way round."""
        said = None if settled else found.verdicts.get((a.id, b.id) if a.id < b.id else (b.id, a.id))
        if said is not None and said[0] == "fold":
            return verdict(said)
        said = judge_pair(name_of(a.id), name_of(b.id), settled=settled)
        if said.kind == "ask" and said.rule in learned:
            return verdict(evidence.learned_verdict(astuple(said), learned[said.rule]))
        return said

    def certain(a: Side, b: Side, rule: str = FOLD_RULE) -> Evidence | None:
        """None when a fold verdict of `rule` is certain; else the evidence for asking instead. A pair
        a reviewer is being asked about, or whose fold a reviewer reverted, is never folded unasked.
        A learned fold needs no shared neighbours (the reviewers' answers are its evidence), only no
        passage that sets the two spellings side by side."""
        pair = (a.id, b.id) if a.id < b.id else (b.id, a.id)  # the evidence is the same either way
        if pair not in doubts:
            sides = frozenset(pair)
            asked = sides in pending or sides in unfolded
            if rule.startswith(evidence.LEARNED):
                found = weigh(a, b, rule.removeprefix(evidence.LEARNED))
                sure = not (found.contrasted_in and not found.defined_in)
            else:
                local = kept_fold(pair)
                found = weigh(a, b, FOLD_RULE) if local is None else evidence.remade(local, answers)
                sure = evidence.is_certain(found, prose_variants(name_of(a.id), name_of(b.id)))
            doubts[pair] = None if sure and not asked else found
        return doubts[pair]

    _stop_if(cancelled)
    main = len(asks)  # the asks about remembered verdicts; folding adds more
    absorbed_into = _apply_folds(
        namespace, fold_edges, grown, settled, asks, report, dry_run, certain, judge, cancelled
    )
    asks = [_weighed(q, weigh, facts, hopeless) for q in asks]
    # a kept ask that the folds bear on is asked about as if visited
    touched = set(absorbed_into) | {x.id for x in absorbed_into.values()}
    kept, late, revived = _split_touched(kept, kept_by.touching(touched), near_folding, folding, answers, hopeless)
    del kept_by
    for key, pairs in list(skipped.items()):  # and the unread this pass found
        places = _borne_on(pairs, pairs.touching(touched), pairs.touching(folding), folding)
        revived += [((pairs.lows[at], pairs.highs[at]), key) for at in places]
        skipped[key] = pairs.without(places)
    remade.update(pair for pair, _ in late)  # its passages stand
    made = [ask_of(pair, impact, remake(local)) for pair, (_, impact, local, _) in late]
    for pair, (rule, impact, *_) in revived:
        said = _unfolded_said(found.verdicts[pair]) if pair in unfolded_ else found.verdicts[pair]
        made.append(Ask(Side(*live[pair[0]]), Side(*live[pair[1]]), verdict(said), impact,
                        hopeless[rule]))  # fmt: skip
    made.sort(key=lambda q: (q.left.id, q.right.id))
    asks[:main] = merge(asks[:main], made, key=lambda q: (q.left.id, q.right.id))  # in the order of a visit
    main += len(made)
    left_unread = sum(map(len, skipped.values()))
    # what the next pass may leave unvisited, beside what it kept: the unread (their lists, grown
    # below, not copies: hundreds of thousands of pairs), and the asks below
    kept_here = {(rule, impact, None, False): pairs for (rule, impact), pairs in skipped.items()}
    for q in asks[:main]:
        pair = (q.left.id, q.right.id)
        meet = not facts.passage_set(pair[0]).isdisjoint(facts.passage_set(pair[1]))
        rule = q.verdict.rule
        if not meet and _hopeless(rule, answers, hopeless) is not None:  # the next pass need not read it
            add_pair(kept_here, (rule, q.impact, None, False), pair)
        elif q.evidence.local is not None:  # its sides share no neighbour: nor need it weigh it while they stand
            add_pair(kept_here, (rule, q.impact, q.evidence.local, meet), pair)
        else:
            rest.append(pair)
    weighed = {pair: q.local for pair, q in doubts.items() if q is not None and q.local is not None}
    # a keep-apart decision on an entity folded in this pass now covers its canonical
    settled = {frozenset(absorbed_into[x].id if x in absorbed_into else x for x in pair) for pair in settled}
    asks = _follow_folds(asks, absorbed_into, grown, settled, pending, weigh, name_of, checked=main)
    # every ask is ranked by this store's own shares, fitted on all of them (those left unread keep their prior)
    shares = _store_shares(namespace, asks, kept, answers, hopeless)
    unread = {id(found) for found in hopeless.values() if found is not None}
    rescored: dict[int, tuple[Evidence, Evidence]] = {}  # id -> (evidence, rescored): asks share evidences

    def rescore(found: Evidence) -> Evidence:
        if id(found) in unread:
            return found
        done = rescored.get(id(found))
        if done is None:
            done = rescored[id(found)] = (found, evidence.rescored(found, shares))
        return done[1]

    asks = [q._replace(evidence=rescore(q.evidence)) for q in asks]
    kept_likely, kept_teachable, unread_kept, remade_kept = _kept_asks(
        kept, answers, hopeless, lambda local: rescore(remake(local))
    )
    rescored.clear()
    left_unread += unread_kept
    report.unlikely += left_unread + remade_kept - sum(len(pairs) for _, _, pairs in kept_likely)
    report.not_reweighed = unread_again + unread_kept + len(remade) + remade_kept
    likely = [q for q in asks if q.evidence.likelihood >= evidence.MIN_LIKELIHOOD]
    report.unlikely += len(asks) - len(likely)
    # what only a teaching question may serve: weighed, under the floor, not hopeless
    unlikely = [q for q in asks if evidence.MIN_TEACH <= q.evidence.likelihood < evidence.MIN_LIKELIHOOD]
    memory = conflict_search.finish(search)  # queued now: the search may have run beside the folds
    # what only the weighing read, let go before the save, where a large pass peaks: the passages,
    # neighbours and asks too unlikely to admit were a twentieth of it at a million names
    facts.let_go()
    doubts.clear()
    read_pairs.clear()
    del asks, passages, named, sources, wanted, read
    if not dry_run:
        pass_memory.save(
            namespace,
            found,
            pass_memory.Known(signatures, passage_signatures, weighed, pass_memory.joined(kept, kept_here), rest),
        )
        # before admission, so that it counts the pending questions as the answers now weigh them
        _reweigh_pending(namespace, answers, shares)
    _stop_if(cancelled)

    _admit(
        namespace,
        likely,
        cap,
        report,
        dry_run,
        name_of,
        kept_likely,
        ask_of,
        unlikely + [ask_of(min(pairs), impact, found) for found, impact, pairs in kept_teachable],
    )
    if progress is not None:
        progress(len(verdicts), len(verdicts))
    report.memory_unchanged = memory.unchanged
    report.duplicates_queued, report.contradictions_queued = memory.duplicates, memory.contradictions
    report.memory_skipped_settled, report.memory_moot = memory.skipped_settled, memory.moot
    if not dry_run:
        queue.remember_waiting(namespace, report.deferred)
    report.seconds = round(time.perf_counter() - started, 3)
    return report


EARLY_BATCH = 256  # asks weighed early between looks at whether the names are judged yet


class Early:
    """The evidence on remembered asks weighed while the names were judged in the second process
    (`_weigh_early`): pair -> (rule, evidence). The visit takes it for the pairs it weighs with that
    rule (the evidence is the pair's facts and its rule's, read before the pass folds anything, as
    the visit's own weighing reads them)."""

    def __init__(self) -> None:
        self.weighed: dict[tuple[int, int], tuple[str, Evidence]] = {}
        self.used: set[tuple[int, int]] = set()
        self.spelled: set[int] = set()  # the entities whose spellings were read for it

    def take(self, pair: tuple[int, int], rule: str) -> Evidence | None:
        found = self.weighed.get(pair)
        if found is None or found[0] != rule:
            return None
        self.used.add(pair)
        return found[1]

    def forget_unread(self, facts: StoreFacts, read: list[tuple[int, int]]) -> None:
        """Forget the spellings read for the entities that the visit reads none for (`read`: the pairs
        it reads the joint texts of): a pass reads them only when a fold makes a pair of them, after
        the fold."""
        joint = [pair for pair in chain(read, self.used) if not facts.passage_set(pair[0]).isdisjoint(
            facts.passage_set(pair[1]))]  # fmt: skip
        for entity_id in self.spelled - {x for pair in joint for x in pair}:
            facts.surfaces.pop(entity_id, None)


def _weigh_early(judging, known, live, marked, unmoved, passages, counts, hopeless, facts, weighed_now) -> Early:
    """While the names are judged in the second process, weigh the asks the last pass visited and
    did not keep, as their remembered verdicts ask (the visit weighs them with the rule it finds:
    a pair with a renamed side may have another), until the names are judged."""
    early = Early()
    if not judging.busy():
        return early
    said_of, batch = judging.remembered(), []
    for pair in known.rest or ():
        low, high = pair
        said = said_of(pair)
        if said is None or said[0] != "ask" or pair in marked or low not in live or high not in live:
            continue
        impact = min(counts.get(low, 0), counts.get(high, 0))
        if _hopeless(said[2], facts.answers, hopeless) is not None and passages.get(
            low, _NONE).isdisjoint(passages.get(high, _NONE)):  # fmt: skip
            continue  # unread
        local = known.weighed.get(pair) if low in unmoved and high in unmoved else None
        if local is not None and local[0] in (said[2], evidence.pattern_of(said[2], True)):
            continue  # remade
        batch.append((pair, said, impact))
        if len(batch) == EARLY_BATCH:
            _weigh_batch(early, batch, live, facts, hopeless, weighed_now)
            batch = []
            if not judging.busy():
                break
    if batch and judging.busy():
        _weigh_batch(early, batch, live, facts, hopeless, weighed_now)
    early.spelled = set(facts.surfaces)
    return early


def _weigh_batch(early: Early, batch: list, live, facts: StoreFacts, hopeless, weighed_now) -> None:
    facts.want({x for pair, _, _ in batch for x in pair})
    joint_texts(facts, [pair for pair, _, _ in batch])
    for (low, high), said, impact in batch:
        ask = Ask(Side(*live[low]), Side(*live[high]), Verdict(*said), impact)
        early.weighed[low, high] = (said[2], _weighed(ask, weighed_now, facts, hopeless).evidence)


def _unfolded_said(said: tuple) -> tuple:
    """A fold verdict on a pair whose fold a reviewer reverted is an ask."""
    return ("ask", said[1], said[2], "; a fold of these was reverted") if said[0] == "fold" else said


def _still_kept(known, steady, unmoved, found, marked, counts, passages, answers, hopeless, learned):
    """The asks the last pass kept (`Known.kept`) whose key still holds, by key; and the others, each
    with what its evidence was made of (None for a hopeless one left unread):
    this pass visits those.

    A key holds while no reviewer marked the pair and neither side was renamed (the verdict is the
    same ask: the names' memory was kept with this one); for an ask whose evidence was made of
    something, while both sides are `unmoved` (its evidence is what it was but for the prior); for a
    hopeless ask left unread, while its rule is still hopeless, both sides' passages stand (`steady`:
    so do the impact, and that they share none) or, when one side's changed, while its rule is
    hopeless and no passage names both. Asks of a rule the reviewers have taught are visited (they fold)."""
    # one sweep of the pairs of every key alike, not one of each key's: whose side moved (its passages
    # changed), for an unread ask; or stirred (so did its neighbours'), for one whose evidence was made of something
    unread = {key: pairs for key, pairs in known.kept.items() if key[2] is None}
    made = {key: pairs for key, pairs in known.kept.items() if key[2] is not None}
    near_stirred = Sweep(unread).leaving(steady) | Sweep(made).leaving(unmoved)
    near_marked = Sweep(known.kept).among(marked) if marked else {}
    kept: dict = {}
    regrouped: dict = {}  # hopeless asks a side of which has other passages now, still unread
    dropped: dict[tuple[int, int], tuple | None] = {}
    for key, pairs in known.kept.items():
        rule, impact, local, meet = key
        if local is None and _hopeless(rule, answers, hopeless) is None:  # the answers lifted the rule
            dropped.update(dict.fromkeys(pairs))
            continue
        if rule in learned:
            dropped.update(dict.fromkeys(pairs, local))
            continue
        stirred, near = near_stirred.get(key, ()), near_marked.get(key, ())
        if not (stirred or near):
            kept[key] = pairs
            continue
        gone = set(stirred).union(near)
        out = []  # the places of the pairs that leave this key
        for at in sorted(gone):
            pair = (pairs.lows[at], pairs.highs[at])
            if local is None and pair in found.verdicts and pair not in marked and found.fresh.isdisjoint(pair):
                now = min(counts.get(pair[0], 0), counts.get(pair[1], 0))
                if _hopeless(rule, answers, hopeless) is not None and passages.get(pair[0], _NONE).isdisjoint(
                    passages.get(pair[1], _NONE)
                ):  # a side's passages changed, and the ask is still hopeless: unread still, in its list
                    # while its impact is what it was (most often a hub's new passages beside the other side)
                    if now != impact:
                        add_pair(regrouped, (rule, now, None, False), pair)
                        out.append(at)
                    continue
            dropped[pair] = local
            out.append(at)
        left = pairs.without(out)
        if left:
            kept[key] = left
    return pass_memory.joined(kept, regrouped), dropped


def _to_visit(known, found, dropped: dict) -> list[tuple[int, int]]:
    """The pairs with a verdict this pass visits, in order: every one when the last pass kept nothing;
    else those the last pass visited but did not keep, those judged anew, and those whose key no
    longer holds (`_still_kept`)."""
    verdicts = found.verdicts
    if known.rest is None:
        return sorted(verdicts, key=_pair_order)
    visit = {pair for pair in known.rest if pair in verdicts}
    visit.update(found.changes.said)
    visit.update(pair for pair in dropped if pair in verdicts)
    return sorted(visit, key=_pair_order)


def _pair_order(pair: tuple[int, int]) -> int:
    """A pair's place in id order, as one number (ids are below 2**63 on both backends): sorting by
    one number compares more cheaply than a tuple."""
    return pair[0] << 63 | pair[1]


def _borne_on(
    pairs: PairList, near_touched: Iterable[int], near_folding: Iterable[int], folding: set[int]
) -> list[int]:
    """The places of the pairs this pass's folds bear on: about an entity folded in this pass or grown
    by one, or about two members of a fold group (which may ask about the pair too). `near_touched`,
    `near_folding`: the places of the pairs touching the ones folded or grown, and the fold groups'
    members (`PairList.touching`)."""
    lows, highs = pairs.lows, pairs.highs
    places = set(near_touched)
    places.update(at for at in near_folding if lows[at] in folding and highs[at] in folding)
    return sorted(places)


def _split_touched(kept: dict, near_touched: dict, near_folding: dict, folding: set[int], answers, hopeless
                   ) -> tuple[dict, list, list]:  # fmt: skip
    """The kept asks this pass's folds bear on (`_borne_on`; the places near them by key, as
    `pass_memory.Sweep` finds them), taken out of `kept`, as (pair, key): those whose evidence is
    remade, and those left unread (hopeless, and no passage names both). A full pass asks about them
    as it visits them: so does this one."""
    quiet, late, revived = {}, [], []
    for key, pairs in kept.items():
        places = _borne_on(pairs, near_touched.get(key, ()), near_folding.get(key, ()), folding)
        if not places:
            quiet[key] = pairs
            continue
        rule, impact, local, meet = key
        unread = local is None or (_hopeless(rule, answers, hopeless) is not None and not meet)
        (revived if unread else late).extend(((pairs.lows[at], pairs.highs[at]), key) for at in places)
        left = pairs.without(places)
        if left:
            quiet[key] = left
    return quiet, late, revived


def _store_shares(namespace: str, asks: list[Ask], kept: dict, answers, hopeless) -> likelihood.Shares:
    """This store's share of same-pairs per pattern, fitted on every candidate pair it holds: the
    asks visited (`asks`), those kept from the last pass (`kept`) and the pending questions, but
    those left unread (no fact was read for them)."""
    unread = {id(found) for found in hopeless.values() if found is not None}
    observed: Counter = Counter((q.evidence.pattern, q.evidence.logit) for q in asks if id(q.evidence) not in unread)
    for (rule, _, local, meet), pairs in kept.items():
        if pairs and local is not None and (meet or _hopeless(rule, answers, hopeless) is None):
            observed[local[0], round(local[1], 4)] += len(pairs)
    asked = Question.select(fn.COALESCE(Question.pattern, Question.rule), Question.evidence).where(
        (Question.namespace == namespace) & (Question.kind == "entity_pair") & (Question.status == "pending")
    )
    observed.update((pattern, round(x or 0.0, 4)) for pattern, x in asked.tuples())
    return evidence.store_shares(observed, answers)


def _kept_asks(kept: dict, answers, hopeless, remake) -> tuple[list, list, int, int]:
    """Of the asks kept (`_still_kept`): the likely ones as (evidence, impact, pairs), those under the
    floor that a teaching question may serve, how many are left unread (hopeless, and no passage names
    both), and how many had their evidence remade."""
    likely, teachable, unread, remade = [], [], 0, 0
    for (rule, impact, local, meet), pairs in kept.items():
        if not pairs:
            continue
        if local is None or (_hopeless(rule, answers, hopeless) is not None and not meet):
            unread += len(pairs)
            continue
        again = remake(local)
        remade += len(pairs)
        if again.likelihood >= evidence.MIN_LIKELIHOOD:
            likely.append((again, impact, pairs))
        elif again.likelihood >= evidence.MIN_TEACH:
            teachable.append((again, impact, pairs))
    return likely, teachable, unread, remade


def _touching(pairs, ids: set[int]) -> list[tuple[int, int]]:
    return [pair for pair in pairs if pair[0] in ids or pair[1] in ids] if ids else []


def _rank(name: Side, counts: dict[int, int], as_code: frozenset[int] = frozenset()) -> tuple:
    return canonical_rank(name.id, name.name, counts.get(name.id, 0), as_code)


def _hopeless(rule: str, answers, hopeless: dict[str, Evidence | None]) -> Evidence | None:
    """The prior of a rule no fact could lift to the likelihood floor, when no passage names both
    sides (none can then define one by the other); None when some fact could."""
    if rule not in hopeless:
        base = evidence.prior(rule, answers)[0]
        hopeless[rule] = None if evidence.reachable(rule, answers) else Evidence(rule, base, 0.0, prior=base)
    return hopeless[rule]


def _weighed(ask: Ask, weigh, facts: StoreFacts, hopeless: dict[str, Evidence | None]) -> Ask:
    """The ask with its evidence; a rule no fact could lift to the thresholds keeps its prior, unweighed."""
    if ask.evidence is not None:
        return ask
    rule = ask.verdict.rule
    found = _hopeless(rule, facts.answers, hopeless)
    if found is not None:
        if facts.passage_set(ask.left.id).isdisjoint(facts.passage_set(ask.right.id)):  # none can define one
            return Ask(ask.left, ask.right, ask.verdict, ask.impact, found)
    return Ask(ask.left, ask.right, ask.verdict, ask.impact, weigh(ask.left, ask.right, rule))


def answer_counts(namespace: str) -> dict[str, tuple[int, int]]:
    """Per rule: (merged, answered) among this store's standing answers by a person or an agent, and
    its learned folds a reviewer reverted (each a "not the same"). A reverted answer puts its question
    back to pending, so it no longer counts."""
    query = (
        Question.select(fn.COALESCE(Question.pattern, Question.rule), Question.status, fn.COUNT(Question.id))
        .where(
            (Question.namespace == namespace)
            & (Question.kind == "entity_pair")
            & Question.status.in_(("merged", "rejected"))
            & (Question.decided_by != AUTO)
        )
        .group_by(fn.COALESCE(Question.pattern, Question.rule), Question.status)
    )
    out: dict[str, tuple[int, int]] = {}
    for rule, status, count in query.tuples():
        merged, answered = out.get(rule, (0, 0))
        out[rule] = (merged + (count if status == "merged" else 0), answered + count)
    # a learned fold a reviewer reverted answers its pattern "not the same"
    # (not one a pass took back from a pass that died: no reviewer said so)
    reverted = Fold.select(Fold.id, Fold.rule).where(
        (Fold.namespace == namespace) & Fold.rule.startswith(evidence.LEARNED) & Fold.reverted_at.is_null(False)
    )
    taken_back = recovery.taken_back(namespace)
    for fold_id, rule in reverted.tuples():
        if fold_id not in taken_back:
            merged, answered = out.get(rule.removeprefix(evidence.LEARNED), (0, 0))
            out[rule.removeprefix(evidence.LEARNED)] = (merged, answered + 1)
    return out


ANSWERED = "; reviewers here merged "
_UNKNOWN = object()
_NONE: frozenset[int] = frozenset()


def _reweigh_pending(namespace: str, answers: dict[str, tuple[int, int]], shares: likelihood.Shares) -> None:
    """Pending name questions take the store's latest fit and answers into their likelihood, rank and
    reason (what their own pair's evidence added is kept as it was when they were asked)."""
    pattern = fn.COALESCE(Question.pattern, Question.rule)
    rows = Question.select(
        Question.id, pattern, Question.evidence, Question.impact, Question.likelihood, Question.reason
    ).where((Question.namespace == namespace) & (Question.kind == "entity_pair") & (Question.status == "pending"))
    changed = []
    for qid, rule, extra, impact, old, reason in rows.tuples():
        merged, answered = answers.get(rule, (0, 0))
        share = shares.of(rule)
        new = round(evidence.sigmoid(evidence.logit(share) + (extra or 0.0)), 4)
        note = evidence.store_note(share, evidence.pooled_prior(rule), shares.pairs.get(rule, 0))
        said = evidence.STORE_NOTE.sub("", reason.split(ANSWERED)[0]) + (f"; {note}" if note else "")
        said += f"{ANSWERED}{merged} of {answered} questions like this" if answered else ""
        if new != old or said != reason:
            changed.append((qid, new, evidence.yield_of(new, impact), said))
    with writing(namespace):
        for qid, new, priority, said in changed:
            Question.update(likelihood=new, priority=priority, reason=said).where(Question.id == qid).execute()


def _apply_folds(
    namespace, edges, counts, settled, asks, report, dry_run, certain, judge, cancelled
) -> dict[int, Side]:
    """Fold each connected group of fold verdicts into its best-ranked member; members that do not
    fold with that canonical directly (say, declared types differ) become questions instead.

    Each group folds in a transaction of its own, so that a reviewer's answer waits for one group at
    most, never for the pass; inside it the members are read again, and a member a reviewer folded,
    deleted or kept apart since the pass read the store is left for the next pass."""
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
    absorbed_into: dict[int, Side] = {}
    for members in groups.values():
        _stop_if(cancelled)
        if all(certain(a, b, judge(a, b).rule) is not None for a, b in combinations(members, 2)):  # either way round
            # nothing here folds unasked: its questions, without a write (nor a lock to wait for)
            _fold_group(namespace, members, {}, counts, settled, asks, absorbed_into, report, True, certain, judge)
            continue
        with writing(namespace):
            members_now = Entity.select().where(Entity.id.in_([m.id for m in members])).order_by(Entity.id)
            rows = {e.id: e for e in for_update(members_now)}  # in id order, as answers lock them
            still = [m for m in members if m.id in rows and rows[m.id].name == m.name]
            report.changed_meanwhile += len(members) - len(still)
            if len(still) > 1:
                _fold_group(
                    namespace, still, rows, counts, settled, asks, absorbed_into, report, dry_run, certain, judge
                )
    return absorbed_into


def _fold_group(
    namespace, members, rows, counts, settled, asks, absorbed_into, report, dry_run, certain, judge, merged=None
) -> None:
    """Fold members into the best-ranked one where the pair itself folds; those that do not (an
    all-capitals spelling, a type clash) are asked about, and folded among themselves in turn, so
    that a second pass finds nothing left to fold."""
    merged: dict[int, set[int]] = {} if merged is None else merged  # canonical id -> ids folded into it

    def verdict(a: Side, b: Side) -> Verdict:
        # a reviewer's keep-apart on anything already folded into either side covers the pair
        ids_a, ids_b = merged.get(a.id, {a.id}), merged.get(b.id, {b.id})
        said = judge(a, b, settled=any(frozenset((x, y)) in settled for x in ids_a for y in ids_b))
        # and one made while the pass ran, read inside this group's transaction (only for a fold: the
        # one verdict a keep-apart changes here)
        if said.kind == "fold" and not dry_run and decisions.kept_apart(namespace, a.id, b.id, SETTLED_KINDS):
            return judge(a, b, settled=True)
        return said

    code = (
        written_as_code({m.id: m.name for m in members}) if any(m.name[:1].isupper() for m in members) else frozenset()
    )
    canonical, *rest = sorted(members, key=lambda n: _rank(n, counts, code))
    leftover = []
    for member in rest:
        said = verdict(canonical, member)
        doubt = certain(canonical, member, said.rule) if said.kind == "fold" else None
        if doubt is not None:  # the names agree, but the store does not say enough to fold unasked
            report.not_certain += 1
            rule = said.rule.removeprefix(evidence.LEARNED)
            said = Verdict("ask", said.score, rule, f"{said.reason}; not folded unasked")
            asks.append(
                Ask(
                    canonical,
                    member,
                    said,
                    min(counts.get(canonical.id, 0), counts.get(member.id, 0)),
                    doubt,
                )
            )
            continue
        if said.kind != "fold":
            if said.kind == "ask":
                asks.append(Ask(canonical, member, said, min(counts.get(canonical.id, 0), counts.get(member.id, 0))))
            leftover.append(member)
            continue
        if not dry_run:
            why = said.reason.rsplit("; ", 1)[-1] if said.rule.startswith(evidence.LEARNED) else None
            decisions.fold_entities(
                namespace, rows[canonical.id], rows[member.id], AUTO, AUTO, said.rule, said.score, why=why
            )
        counts[canonical.id] = counts.get(canonical.id, 0) + counts.get(member.id, 0)
        absorbed_into[member.id] = canonical
        merged.setdefault(canonical.id, {canonical.id}).update(merged.get(member.id, {member.id}))
        report.folded += 1
    while leftover:
        group, leftover = [leftover[0]], leftover[1:]
        grew = True
        while grew:
            joining = [o for o in leftover if any(verdict(inside, o).kind == "fold" for inside in group)]
            group += joining
            leftover = [o for o in leftover if o not in joining]
            grew = bool(joining)
        if len(group) > 1:
            _fold_group(
                namespace, group, rows, counts, settled, asks, absorbed_into, report, dry_run, certain, judge, merged
            )


def _follow_folds(asks, absorbed_into, counts, settled, pending, weigh, name_of, checked=0) -> list[Ask]:
    """Questions about entities folded in this pass are asked about their canonical instead. The
    first `checked` asks were found neither settled nor pending before the folds: those the folds
    did not touch stand as they are."""
    touched = set(absorbed_into) | {x.id for x in absorbed_into.values()}
    out: dict[frozenset[int], Ask] = {}
    for at, ask in enumerate(asks):
        if at < checked and ask.left.id not in touched and ask.right.id not in touched:
            out.setdefault(frozenset((ask.left.id, ask.right.id)), ask)
            continue
        left, right = absorbed_into.get(ask.left.id, ask.left), absorbed_into.get(ask.right.id, ask.right)
        pair = frozenset((left.id, right.id))
        if left.id == right.id or pair in settled or pair in pending or pair in out:
            continue
        impact = min(counts.get(left.id, 0), counts.get(right.id, 0))
        if (left, right) == (ask.left, ask.right):
            out[pair] = ask if impact == ask.impact else Ask(left, right, ask.verdict, impact, ask.evidence)
            continue
        verdict = judge_pair(name_of(left.id), name_of(right.id))
        if verdict.kind in ("ask", "fold"):  # a fold verdict here lost its certainty in this pass
            out[pair] = Ask(left, right, verdict, impact, weigh(left, right, verdict.rule))
    return list(out.values())


def _admit(namespace: str, asks: list[Ask], cap: int, report: PassReport, dry_run: bool, name_of, kept=(),
           ask_of=None, unlikely=()) -> None:  # fmt: skip
    """Queue the best-ranked questions up to the cap, one place in TEACH_EVERY for the question that
    would teach the store most (`_teaching`); count the rest as deferred. `kept`: more likely asks,
    as (evidence, impact, pairs) (`_kept_asks`), made asks by `ask_of` only when they might be
    admitted; `unlikely`: asks under the floor a teaching question may serve (one of each kept group
    stands for it); `name_of`: an entity's `Name`, for the reasons of those admitted (`told`)."""
    pending = Question.select(Question.likelihood, Question.reason, fn.COALESCE(Question.pattern, Question.rule)).where(
        (Question.namespace == namespace) & (Question.kind == "entity_pair") & (Question.status == "pending")
    )
    # a question this store's answers have sunk below the floor stays (a reviewer may have seen it) but
    # does not hold a place that a likelier question could take; nor does a teaching question
    waiting, taught, every = 0, set(), 0
    for found, reason, pattern in pending.tuples():
        every += 1
        if TEACHES in reason:
            taught.add(pattern)
        elif found >= evidence.MIN_LIKELIHOOD:
            waiting += 1
    slots = max(0, cap - waiting)
    total = len(asks) + sum(len(pairs) for _, _, pairs in kept)
    unexpanded = list(kept)
    if slots:  # the best groups, until they hold more than the slots (and every group as good as the last)
        made, last = 0, None
        for found, impact, pairs in sorted(
            kept, key=lambda k: (-evidence.yield_of(k[0].likelihood, k[1]), -k[0].likelihood)
        ):
            rank = (evidence.yield_of(found.likelihood, impact), found.likelihood)
            if made >= slots and rank != last:
                break
            asks += [ask_of(pair, impact, found) for pair in pairs]
            made, last = made + len(pairs), rank
            unexpanded.remove((found, impact, pairs))
    asks.sort(key=_ask_order)
    ranked = slots - slots // TEACH_EVERY
    others = asks[ranked:] + [ask_of(min(pairs), impact, found) for found, impact, pairs in unexpanded]
    teaching = _teaching(sorted(others + list(unlikely), key=_ask_order), slots - ranked, taught)
    teaches = {id(q) for q in teaching}
    admitted = asks[:ranked] + teaching
    admitted += islice((q for q in islice(asks, ranked, None) if id(q) not in teaches), slots - len(admitted))
    # rank, don't hide: a small store's queue takes the plausible questions too
    budget = SMALL_QUEUE - every - len(admitted)
    if budget > 0 and len(admitted) < slots:
        chosen = {id(q) for q in admitted}
        plausible = sorted((q for q in unlikely if id(q) not in chosen), key=_ask_order)
        admitted += plausible[: min(budget, slots - len(admitted))]
    under = sum(q.evidence.likelihood < evidence.MIN_LIKELIHOOD for q in admitted)
    report.queued, report.deferred = len(admitted), max(0, total - (len(admitted) - under))
    if dry_run or not admitted:
        return
    now = utcnow()
    rows = [
        {
            "namespace": namespace,
            "kind": "entity_pair",
            "left_id": q.left.id,
            "right_id": q.right.id,
            "left_name": q.left.name,
            "right_name": q.right.name,
            "score": q.verdict.score,
            "rule": q.verdict.rule,
            "reason": f"{_told(q, name_of)}{_addressed(q)}; {q.evidence.words()}{TEACHES if id(q) in teaches else ''}",
            "impact": q.impact,
            "pattern": q.evidence.pattern,
            "likelihood": q.evidence.likelihood,
            "evidence": q.evidence.logit,
            "priority": q.priority,
            "created_at": now,
        }
        for q in admitted
    ]
    with writing(namespace):
        for start in range(0, len(rows), 500):
            Question.insert_many(rows[start : start + 500]).execute()


# Under the floor and over MIN_TEACH, a question is plausible: a small store (fewer pending questions
# than this) gets them all, by rank. A large store does not: judged on changelogs and a commit history,
# 1 in 10 of them was the same (in conversations 7 in 9, whose stores are small)
SMALL_QUEUE = 30
TEACH_EVERY = 10  # one admitted question in this many is the one that would teach the store most
TEACHES = "; asked to learn how this store answers questions like it"


def _ask_order(q: Ask) -> tuple:
    return (-q.priority, -q.evidence.likelihood, min(q.left.id, q.right.id), max(q.left.id, q.right.id))


def _teaching(asks: list[Ask], places: int, taught: set[str]) -> list[Ask]:
    """The asks that would teach the store most, one a pattern, for `places` places: patterns with
    fewer answers here than it takes to learn one, likelihood nearest a half first (the reviewer's
    answer is then least foreseeable), then fewer answers, then rank. They may lie under the
    likelihood floor: how else would a store show that its pairs of a pattern are the same? A pattern
    with a teaching question pending (`taught`) waits for its answer."""
    best: dict[str, tuple[tuple, Ask]] = {}
    for at, q in enumerate(asks):
        answered = q.evidence.answered[1]
        if answered >= evidence.LEARN_AFTER or q.evidence.pattern in taught:
            continue
        key = (round(abs(q.evidence.likelihood - 0.5), 4), answered, at)
        if q.evidence.pattern not in best or key < best[q.evidence.pattern][0]:
            best[q.evidence.pattern] = (key, q)
    return [q for _, q in sorted(best.values(), key=itemgetter(0))[:places]]


def _addressed(q: Ask) -> str:
    """For a person's short name, who calls them by it: the evidence a reviewer looks for (`Deb` in
    Jolene's lines, about Deborah). Only the few short-name questions a pass admits read this."""
    if q.verdict.rule != "short-name":
        return ""
    short, person = sorted((q.left, q.right), key=lambda side: len(side.name))  # `Deb` is the start of `Deborah`
    query = (
        Passage.select(Passage.source, fn.COUNT(fn.DISTINCT(Passage.id)))
        .join(Mention, on=(Mention.passage == Passage.id))
        .where((Mention.entity == short.id) & Mention.active & Passage.retired_at.is_null())
        .group_by(Passage.source)
    )
    others = sorted((-n, source) for source, n in rows_of(query) if source and source != person.name)
    if not others:
        return f"; no one else calls {person.name} '{short.name}' here"
    said = ", ".join(f"{source} ({-n})" for n, source in others[:3])
    return f"; '{short.name}' is said by others than {person.name}: {said}"


def _told(q: Ask, name_of) -> str:
    """The reason of an ask's verdict, told again when the pass remembered it (judged low id first)."""
    low, high = sorted((q.left.id, q.right.id))
    return told(name_of(low), name_of(high), q.verdict)


def reverted_pairs(namespace: str, home: Homes) -> set[frozenset[int]]:
    """Pairs whose fold a reviewer reverted (not a pass taking back a dead pass's fold), followed
    through aliases to where both sides live now."""
    out = set()
    rows = Fold.select(Fold.id, Fold.canonical_id, Fold.absorbed_id).where(
        (Fold.namespace == namespace) & Fold.reverted_at.is_null(False)
    )
    taken_back = recovery.taken_back(namespace)
    for fold_id, canonical, absorbed in rows.tuples():
        if fold_id in taken_back:
            continue
        a, b = home(canonical), home(absorbed)
        if a is not None and b is not None and a != b:
            out.add(frozenset((a, b)))
    return out


def _pending_pairs(namespace: str, home: Homes) -> set[frozenset[int]]:
    rows = Question.select(Question.left_id, Question.right_id).where(
        (Question.namespace == namespace) & (Question.kind == "entity_pair") & (Question.status == "pending")
    )
    return {frozenset((home(a), home(b))) for a, b in rows.tuples()}


def _settle_moot_questions(namespace: str, home: Homes, dry_run: bool) -> int:
    """Pending questions whose two sides are already one entity are settled as moot."""
    rows = Question.select(Question.id, Question.left_id, Question.right_id).where(
        (Question.namespace == namespace) & (Question.kind == "entity_pair") & (Question.status == "pending")
    )
    moot = [qid for qid, a, b in rows.tuples() if home(a) is not None and home(a) == home(b)]
    if moot and not dry_run:
        for qid in moot:
            decisions.settle_moot(namespace, qid, AUTO, AUTO)
    return len(moot)

"""The resolution pass: block, judge, fold the certain, queue the uncertain.

Idempotent: folded pairs are one entity afterwards, queued pairs are skipped while their question is
pending, and settled pairs (reject / keep_both) are never asked again. At most `cap` entity questions
are pending at once; what does not fit is counted as deferred and admitted by a later pass.

A pass is a `ResolutionPass` run step by step: read the store, judge the names and visit their
verdicts, read the texts the weighing needs, fold the certain, weigh the asks, follow the folds,
rank the asks by this store's shares, save what the next pass needs, and admit the best to the queue.
"""

from __future__ import annotations

import time
from collections import ChainMap
from collections.abc import Callable
from dataclasses import asdict, dataclass
from heapq import merge

from memo_tui.engine.conflicts import ConflictReport
from memo_tui.engine.resolve import conflict_search, early, pass_memory, recovery
from memo_tui.engine.resolve.admission import admit, settle_moot_questions
from memo_tui.engine.resolve.asks import FOLD_RULE, NO_PASSAGES, Ask, Side, Verdicts, Weighed, hopeless, weighed
from memo_tui.engine.resolve.early import Early
from memo_tui.engine.resolve.folding import Folder, follow_folds
from memo_tui.engine.resolve.kept_asks import (
    KeptGroup,
    borne_on,
    kept_asks,
    split_touched,
    still_kept,
    to_visit,
    touching,
)
from memo_tui.engine.resolve.pass_memory import Kept, PairList, Sweep, add_pair
from memo_tui.engine.resolve.reads import (
    Homes,
    Pair,
    Reading,
    backtick_passages,
    entity_rows,
    joint_texts,
    read_texts,
)
from memo_tui.engine.resolve.shares import reweigh_pending, store_shares
from memo_tui.engine.review import queue
from memo_tui.errors import MemoError
from memo_tui.names import evidence, likelihood
from memo_tui.names.evidence import Evidence
from memo_tui.names.rules import (
    ASK,
    FOLD,
    LOWERCASE,
    Name,
    Verdict,
    inner_capitals,
    judge_pair,
    prose_lowercase,
    prose_variants,
)
from memo_tui.store.locks import pass_lock
from memo_tui.store.statements import paused_gc

DEFAULT_CAP = 50


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
            return _resolve(namespace, cap, dry_run, progress, cancelled, full)
        taken_back = recovery.begin(namespace)  # None, or what a pass that died left was taken back
        try:
            # after a dead pass, every name and passage again: what it kept of itself may be half saved
            report = _resolve(namespace, cap, dry_run, progress, cancelled, full or taken_back is not None)
        except Cancelled:
            recovery.finish(namespace)  # stopped by its caller: its folds stand, as Cancelled says
            raise
        recovery.finish(namespace)
        report.taken_back = taken_back or 0
        return report


def _resolve(
    namespace: str,
    cap: int,
    dry_run: bool,
    progress: Callable[[int, int], None] | None,
    cancelled: Callable[[], bool] | None,
    full: bool,
) -> PassReport:
    started = time.perf_counter()
    # a large store's second process starts here, and judges the names beside the reads
    with pass_memory.Judging(namespace, full, writes=not dry_run) as judging:
        # the pass's state is let go as it ends, before the collector starts again (`paused_gc`)
        report = ResolutionPass(
            namespace, judging, cap=cap, dry_run=dry_run, progress=progress, cancelled=cancelled, full=full
        ).run()
        report.seconds = round(time.perf_counter() - started, 3)
        return report


class ResolutionPass:
    """One pass's state as its steps leave it (`run` takes them in order). The store is read once
    (`reading`); each step after it reads what the steps before it found."""

    # set by `read`
    reading: Reading
    search: conflict_search.Search  # the passage search, begun beside the judging
    # by `judge`
    weighed_early: Early
    found: pass_memory.Judged  # the names' verdicts
    # by `read_texts`
    folding: set[int]  # the ids in fold groups
    kept_by: Sweep  # the kept asks, swept by id
    near_folding: dict  # the places of the kept asks touching the fold groups, by key
    read_pairs: set[Pair]  # the pairs whose joint texts are read
    # by `fold`
    main: int  # the asks about remembered verdicts (the first ones); folding adds more
    grown: ChainMap[int, int]  # entity id -> its live passages, with what each fold added to its canonical
    absorbed_into: dict[int, Side]  # member id -> the canonical it was folded into
    # by `weigh`
    weighed_asks: list[Weighed]  # the visit's asks with their evidence; `follow` adds the folds' and moves them
    # by `follow`
    left_unread: int  # hopeless asks this pass found, left unread
    kept_here: dict[Kept, PairList]  # what the next pass may leave unvisited, beside what was kept
    weighed: dict[Pair, tuple]  # of the pairs in fold groups, what their evidence was made of
    # by `rank`
    shares: likelihood.Shares
    kept_likely: list[KeptGroup]
    likely: list[Weighed]  # the asks admission ranks
    unlikely: list[Weighed]  # under the floor, but a teaching question may serve them
    # by `save`
    memory: ConflictReport  # what the passage search queued

    def __init__(
        self,
        namespace: str,
        judging: pass_memory.Judging,
        *,
        cap: int = DEFAULT_CAP,
        dry_run: bool = False,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        full: bool = False,
    ) -> None:
        self.namespace, self.judging, self.cap, self.dry_run, self.full = namespace, judging, cap, dry_run, full
        self.progress, self.cancelled = progress, cancelled or (lambda: False)
        self.report = PassReport(dry_run=dry_run)
        self.verdicts = Verdicts()
        # the `Name`s the rules need, built here: blocking's are let go (their trigrams were a third of a pass's peak)
        self.book: dict[int, Name] = {}
        self.remade_from: dict[tuple, Evidence] = {}  # what an evidence was made of -> the evidence (many share it)
        self.doubts: dict[Pair, Evidence | None] = {}  # `certain`'s answers
        self.because: dict[Pair, str | None] = {}  # why `certain` found a fold certain (`because_of`)
        # what the visit finds (`judge`)
        self.fold_edges: list[tuple[Side, Side]] = []  # a `Name` only where the rules judge the pair anew
        self.asks: list[Ask[Evidence | None]] = []  # unweighed, some of them, until `weigh`
        self.remade: set[Pair] = set()  # asks whose evidence was remade from the last pass's
        self.skipped: dict[tuple[str, int], PairList] = {}  # hopeless asks this pass finds it need not read
        self.rest = PairList()  # the pairs visited that are not kept by key (those are, `follow`)
        self.unread_again = 0  # of the unread, those whose sides' passages are what they were
        self.kept: dict[Kept, PairList] = {}  # the asks the last pass kept whose key still holds
        self.visited: list[Pair] = []

    def run(self) -> PassReport:
        self.read()
        self.judge()
        self.read_texts()
        self.fold()
        self.weigh()
        self.follow()
        self.rank()
        self.save()
        self.admit()
        return self.report

    def stop_if_cancelled(self) -> None:
        if self.cancelled():
            raise Cancelled("the resolution pass was cancelled; folds made before it stopped stand")

    # the steps

    def read(self) -> None:
        """Read the store; start the passage search beside what follows."""
        rows = entity_rows(self.namespace)
        self.judging.judge(rows)  # beside the reads below (a full pass judges them now)
        home = Homes(self.namespace, {row[0] for row in rows})
        self.report.moot = settle_moot_questions(self.namespace, home, self.dry_run)
        reading = self.reading = Reading.of(self.namespace, rows, home, self.judging.incremental)
        # the passages, while the names are judged (nothing below reads or writes what it does)
        self.search = conflict_search.begin(self.namespace, reading.live_ids, reading.named, reading.counts,
                                            reading.passage_signatures, self.dry_run, self.full,
                                            self.judging.elsewhere)  # fmt: skip
        self.report.entities = len(rows)

    def judge(self) -> None:
        """Take the names' verdicts (weighing remembered asks while they are judged), and visit them."""
        self.weighed_early = early.weigh_early(self.judging, self.reading, self.verdicts)
        found = self.found = self.judging.result()
        self.reading.unmoved -= found.fresh
        report = self.report
        report.pairs_judged, report.rejected_by_rule = found.judged, found.rejected
        report.names_changed, report.incremental = found.changed, found.incremental
        # the asks the last pass kept whose key still holds are not visited; those whose key no longer
        # holds are, with what was kept of them
        self.kept, dropped = still_kept(self.reading, found, self.reading.standing - found.fresh)
        self.visited = to_visit(self.reading.known, found, dropped)
        self._visit(dropped)

    def _visit(self, dropped: dict[Pair, tuple | None]) -> None:
        """Sort each verdict visited: a fold edge, an ask (its evidence remade, weighed early or left
        to weigh), an ask left unread, or a pair a reviewer settled or is being asked about."""
        r, report, said_of, verdict_of = self.reading, self.report, self.found.verdicts, self.verdicts
        live, marked, passages, priors, answers, learned = r.live, r.marked, r.passages, r.priors, r.answers, r.learned
        pending, unfolded, unmoved, standing = r.pending_ordered, r.unfolded_ordered, r.unmoved, r.standing
        weighed_before, asks, rest, skipped, visited = r.known.weighed, self.asks, self.rest, self.skipped, self.visited
        for done, pair in enumerate(visited, 1):
            if done % 5000 == 0:
                self.stop_if_cancelled()
                if self.progress is not None:
                    self.progress(done, len(visited))
            low, high = pair
            said = verdict_of(said_of[pair])
            mark = marked.get(pair)
            if mark is not None:
                if mark == "settled":
                    report.skipped_settled += 1
                    rest.append(pair)
                    continue
                if pair in unfolded:
                    said = verdict_of.unfolded(said)
            elif said.kind == ASK and said.rule in learned:
                said = verdict_of.learned(said, learned[said.rule])
            elif said.kind == ASK and said.rule == LOWERCASE:
                said = self.lowercase_fold(said, Side(*live[low]), Side(*live[high]))
            if said.kind == FOLD and pair not in pending:  # a pending question is the reviewer's to answer
                self.fold_edges.append((Side(*live[low]), Side(*live[high])))
                rest.append(pair)
                continue
            if mark is not None and pair in pending:
                report.already_queued += 1
                rest.append(pair)
                continue
            impact, rule = r.impact(low, high), said.rule
            prior = priors[rule] if rule in priors else hopeless(rule, answers, priors)
            if prior is not None and passages.get(low, NO_PASSAGES).isdisjoint(passages.get(high, NO_PASSAGES)):
                # no fact can lift it, and no passage names both: unread (what weighing it would find)
                add_pair(skipped, (rule, impact), pair)
                self.unread_again += low in standing and high in standing
                continue
            local = dropped.get(pair, weighed_before.get(pair)) if low in unmoved and high in unmoved else None
            if local is not None and local[0] in (rule, evidence.pattern_of(rule, True)):
                # no neighbour shared, none changed: the evidence is what it was but for the prior
                asks.append(Ask(Side(*live[low]), Side(*live[high]), said, impact, self.remake(local)))
                self.remade.add(pair)
            else:  # weighed below, unless it was while the names were judged
                asks.append(Ask(Side(*live[low]), Side(*live[high]), said, impact, self.weighed_early.take(pair, rule)))

    def read_texts(self) -> None:
        """Hold the facts of every entity the weighing may need, and read the joint texts of the pairs it weighs."""
        r, asks = self.reading, self.asks
        self.folding = {x.id for pair in self.fold_edges for x in pair}
        wanted = self.folding | {x.id for q in asks if (q.left.id, q.right.id) not in self.remade
                                 for x in (q.left, q.right)}  # fmt: skip
        # what this pass folds may ask about the pairs it did not read anew: their sides' facts too
        self.kept_by = Sweep(self.kept)
        self.near_folding = self.kept_by.touching(self.folding)
        near = [(pairs, pairs.touching(self.folding)) for pairs in self.skipped.values()]
        near += [(self.kept[key], places) for key, places in self.near_folding.items()]
        for pairs, places in near:
            for at in places:
                wanted.update((pairs.lows[at], pairs.highs[at]))
        wanted |= {x for pair in touching(self.remade, self.folding) for x in pair}
        r.facts.want(wanted)
        read = [(a.id, b.id) for a, b in self.fold_edges if self.kept_fold((a.id, b.id)) is None]
        read += [(q.left.id, q.right.id) for q in asks if q.evidence is None]
        self.weighed_early.forget_unread(r.facts, read)
        joint_texts(r.facts, read)
        self.read_pairs = {(min(pair), max(pair)) for pair in read} | self.weighed_early.used

    def fold(self) -> None:
        """Fold the fold verdicts' groups; the pairs in them not certain enough are asked about."""
        self.stop_if_cancelled()
        self.main = len(self.asks)
        self.grown = ChainMap({}, self.reading.counts)  # the facts keep the counts as read
        folder = Folder(
            self.namespace,
            counts=self.grown,
            settled=self.reading.settled,
            asks=self.asks,
            dry_run=self.dry_run,
            certain=self.certain,
            because=self.because_of,
            judge=self.verdict_on,
            stop_if_cancelled=self.stop_if_cancelled,
        )
        self.absorbed_into = folder.fold(self.fold_edges)
        self.report.folded += folder.folded
        self.report.not_certain += folder.not_certain
        self.report.changed_meanwhile += folder.changed_meanwhile

    def weigh(self) -> None:
        """Weigh every ask still without evidence (a hopeless rule's keep its prior, unweighed)."""
        r = self.reading
        self.weighed_asks = [weighed(q, self.weigh_pair, r.facts, r.priors) for q in self.asks]
        self.asks = []

    def follow(self) -> None:
        """Ask about the kept and unread asks this pass's folds bear on as if visited; keep for the next
        pass what it need not visit; move the asks about folded entities to their canonicals."""
        r = self.reading
        touched = set(self.absorbed_into) | {x.id for x in self.absorbed_into.values()}
        self.kept, late, revived = split_touched(
            self.kept, self.kept_by.touching(touched), self.near_folding, self.folding, r
        )
        del self.kept_by
        for (rule, impact), pairs in list(self.skipped.items()):  # and the unread this pass found
            places = borne_on(pairs, pairs.touching(touched), pairs.touching(self.folding), self.folding)
            revived += [((pairs.lows[at], pairs.highs[at]), (rule, impact, None, False)) for at in places]
            self.skipped[rule, impact] = pairs.without(places)
        self.remade.update(pair for pair, _ in late)  # its passages stand
        made = []
        for pair, (_, impact, local, _) in late:
            assert local is not None  # `split_touched` leaves a kept ask without what it was made of unread
            made.append(self.ask_of(pair, impact, self.remake(local)))
        for pair, (rule, impact, _, _) in revived:
            said = self.verdicts(self.found.verdicts[pair])
            if pair in r.unfolded_ordered:
                said = self.verdicts.unfolded(said)
            prior = r.priors[rule]
            # unread, its rule is hopeless: `still_kept` let go of the kept whose rule the answers lifted
            assert prior is not None
            made.append(Ask(r.side(pair[0]), r.side(pair[1]), said, impact, prior))
        made.sort(key=lambda q: (q.left.id, q.right.id))
        asks, main = self.weighed_asks, self.main
        asks[:main] = merge(asks[:main], made, key=lambda q: (q.left.id, q.right.id))  # in the order of a visit
        self.main = main + len(made)
        self.kept_here = self._keep_for_next()
        self.weighed = {pair: q.local for pair, q in self.doubts.items() if q is not None and q.local is not None}
        # a keep-apart decision on an entity folded in this pass now covers its canonical
        absorbed_into = self.absorbed_into
        settled = {frozenset(absorbed_into[x].id if x in absorbed_into else x for x in pair) for pair in r.settled}
        self.weighed_asks = follow_folds(
            asks, absorbed_into, counts=self.grown, settled=settled, pending=r.pending, weigh=self.weigh_pair,
            name_of=self.name_of, checked=self.main,
        )  # fmt: skip

    def _keep_for_next(self) -> dict[Kept, PairList]:
        """What the next pass may leave unvisited, beside what it kept: the unread (their lists, grown
        here, not copies: hundreds of thousands of pairs), and the asks visited whose evidence it need
        not weigh again; the other pairs visited go to `rest`."""
        r = self.reading
        self.left_unread = sum(map(len, self.skipped.values()))
        kept_here: dict[Kept, PairList] = {
            (rule, impact, None, False): pairs for (rule, impact), pairs in self.skipped.items()
        }
        passage_set, answers, priors, rest = r.facts.passage_set, r.answers, r.priors, self.rest  # 10^5 asks
        for q in self.weighed_asks[: self.main]:
            pair = (q.left.id, q.right.id)
            meet = not passage_set(pair[0]).isdisjoint(passage_set(pair[1]))
            rule = q.verdict.rule
            if not meet and hopeless(rule, answers, priors) is not None:  # the next pass need not read it
                add_pair(kept_here, (rule, q.impact, None, False), pair)
            elif q.evidence.local is not None:  # its sides share no neighbour: nor need it weigh it while they stand
                add_pair(kept_here, (rule, q.impact, q.evidence.local, meet), pair)
            else:
                rest.append(pair)
        return kept_here

    def rank(self) -> None:
        """Rank every ask by this store's own shares, fitted on all of them (those left unread keep
        their prior); sort out the likely, the teachable and the unlikely."""
        r, report = self.reading, self.report
        self.shares = store_shares(self.namespace, self.weighed_asks, self.kept, r)
        self._unread = {id(found) for found in r.priors.values() if found is not None}
        self._rescored: dict[int, tuple[Evidence, Evidence]] = {}  # id -> (evidence, rescored): asks share evidences
        # likely, or what only a teaching question may serve (weighed, under the floor, not hopeless);
        # the rest are counted, not made anew (most asks of a large store)
        self.likely, self.unlikely = [], []
        for q in self.weighed_asks:
            found = self.rescore(q.evidence)
            if found.likelihood >= evidence.MIN_LIKELIHOOD:
                self.likely.append(Ask(q.left, q.right, q.verdict, q.impact, found))
            elif found.likelihood >= evidence.MIN_TEACH:
                self.unlikely.append(Ask(q.left, q.right, q.verdict, q.impact, found))
        self.kept_likely, kept_teachable, unread_kept, remade_kept = kept_asks(
            self.kept, r, lambda local: self.rescore(self.remake(local))
        )
        self._rescored.clear()
        left_unread = self.left_unread + unread_kept
        report.unlikely += left_unread + remade_kept - sum(len(group.pairs) for group in self.kept_likely)
        report.not_reweighed = self.unread_again + unread_kept + len(self.remade) + remade_kept
        report.unlikely += len(self.weighed_asks) - len(self.likely)
        self.unlikely += [self.ask_of(min(group.pairs), group.impact, group.evidence) for group in kept_teachable]
        self.weighed_asks = []

    def save(self) -> None:
        """Queue what the passage search found; keep what the next pass needs; reweigh the pending questions."""
        self.memory = conflict_search.finish(self.search)  # queued now: the search may have run beside the folds
        # what only the weighing read, let go before the save, where a large pass peaks: the passages,
        # neighbours and asks too unlikely to admit were a twentieth of it at a million names
        self.reading.let_go()
        self.doubts.clear()
        self.because.clear()
        self.read_pairs.clear()
        if not self.dry_run:
            r = self.reading
            pass_memory.save(
                self.namespace,
                self.found,
                pass_memory.Known(r.signatures, r.passage_signatures, self.weighed,
                                  pass_memory.joined(self.kept, self.kept_here), self.rest),
            )  # fmt: skip
            # before admission, so that it counts the pending questions as the answers now weigh them
            reweigh_pending(self.namespace, r.answers, self.shares)
        self.stop_if_cancelled()

    def admit(self) -> None:
        """Admit the best asks to the queue, up to the cap; report the pass."""
        report = self.report
        report.queued, report.deferred = admit(
            self.namespace,
            self.likely,
            cap=self.cap,
            dry_run=self.dry_run,
            name_of=self.name_of,
            kept=self.kept_likely,
            ask_of=self.ask_of,
            unlikely=self.unlikely,
        )
        if self.progress is not None:
            self.progress(len(self.visited), len(self.visited))
        memory = self.memory
        report.memory_unchanged = memory.unchanged
        report.duplicates_queued, report.contradictions_queued = memory.duplicates, memory.contradictions
        report.memory_skipped_settled, report.memory_moot = memory.skipped_settled, memory.moot
        if not self.dry_run:
            queue.remember_waiting(self.namespace, report.deferred)

    # what the steps ask of the pair they are at

    def name_of(self, entity_id: int) -> Name:
        """The entity's `Name` for the rules, built when first needed (most remembered pairs never are)."""
        built = self.book.get(entity_id)
        if built is None:
            built = self.book[entity_id] = Name(*self.reading.live[entity_id])
        return built

    def ask_of(self, pair: Pair, impact: int, found: Evidence) -> Weighed:
        """The ask about a pair kept from the last pass (never one a reviewer marked)."""
        low, high = pair
        r = self.reading
        return Ask(r.side(low), r.side(high), self.verdicts(self.found.verdicts[pair]), impact, found)

    def remake(self, local: tuple) -> Evidence:
        """The evidence made of `local` and this store's answers (once for each distinct one)."""
        again = self.remade_from.get(local)
        if again is None:
            again = self.remade_from[local] = evidence.remade(local, self.reading.answers)
        return again

    def rescore(self, found: Evidence) -> Evidence:
        """The evidence ranked by this store's shares (`rank`); a prior left unread stays as it is."""
        if id(found) in self._unread:
            return found
        done = self._rescored.get(id(found))
        if done is None:
            done = self._rescored[id(found)] = (found, evidence.rescored(found, self.shares))
        return done[1]

    def kept_fold(self, pair: Pair) -> tuple | None:
        """What the evidence on a fold verdict was made of, when it shared no neighbour and none changed
        (it is then what it was but for the prior, and not certain)."""
        r = self.reading
        local = r.known.weighed.get(pair) if pair[0] in r.unmoved and pair[1] in r.unmoved else None
        return local if local is not None and local[0] in (FOLD_RULE, evidence.pattern_of(FOLD_RULE, True)) else None

    def weigh_pair(self, a: Side, b: Side, rule: str) -> Evidence:
        """The evidence on a pair, its joint texts read first when a fold made the pair."""
        pair = (a.id, b.id) if a.id < b.id else (b.id, a.id)
        if pair not in self.read_pairs:  # a pair a fold made: its joint texts too
            self.read_pairs.add(pair)
            joint_texts(self.reading.facts, [pair])
        return self.reading.weigh_now(a, b, rule)

    def verdict_on(self, a: Side, b: Side, settled: bool = False) -> Verdict:
        """The rules' verdict on two names; a fold verdict kept for the pair stands either way round."""
        kept = None if settled else self.found.verdicts.get((a.id, b.id) if a.id < b.id else (b.id, a.id))
        if kept is not None and self.verdicts(kept).kind == FOLD:
            return self.verdicts(kept)
        made = judge_pair(self.name_of(a.id), self.name_of(b.id), settled=settled)
        learned = self.reading.learned
        if made.kind == ASK and made.rule in learned:
            return self.verdicts.learned(made, learned[made.rule])
        return self.lowercase_fold(made, a, b) if made.kind == ASK and made.rule == LOWERCASE else made

    def lowercase_fold(self, said: Verdict, a: Side, b: Side) -> Verdict:
        """A `case-lowercase` ask about a prose name and its lowercase spelling, where the store usually
        writes the prose name (`usual`), as a fold verdict: `certain` folds it when the evidence is
        certain, and asks it otherwise. Every other stays the ask it is."""
        counts = self.reading.counts
        if not evidence.usual_spelling((counts.get(a.id, 0), counts.get(b.id, 0))):
            return said  # neither is the store's usual spelling: no `Name` need be made (most such asks)
        names = (self.name_of(a.id), self.name_of(b.id))
        if prose_lowercase(*names) and self.usual(a, b, names) is not None:
            return Verdict(FOLD, said.score, said.rule, said.reason)
        return said

    def certain(self, a: Side, b: Side, rule: str = FOLD_RULE) -> Evidence | None:
        """None when a fold verdict of `rule` is certain; else the evidence for asking instead. A pair
        a reviewer is being asked about, or whose fold a reviewer reverted, is never folded unasked.
        A learned fold needs no shared neighbours (the reviewers' answers are its evidence), only no
        passage that sets the two spellings side by side; a prose name and its lowercase spelling
        (`lowercase_fold`) need more than other spellings do (`evidence.lowercase_because`). No fold
        rests on a usual spelling the store argues against (`argued`)."""
        pair = (a.id, b.id) if a.id < b.id else (b.id, a.id)  # the evidence is the same either way
        if pair not in self.doubts:
            r = self.reading
            sides = frozenset(pair)
            asked = sides in r.pending or sides in r.unfolded
            if rule.startswith(evidence.LEARNED):
                found = self.weigh_pair(a, b, rule.removeprefix(evidence.LEARNED))
                sure = not (found.contrasted_in and not found.defined_in)
            elif rule == LOWERCASE and prose_lowercase(*(names := (self.name_of(a.id), self.name_of(b.id)))):
                found = self.weigh_pair(a, b, rule)
                usual = self.usual(a, b, names)
                because = evidence.lowercase_because(found, usual, self.only_as_code(a, b))
                if usual is not None and because is not None and self.argued(a, b, usual):
                    because = None
                sure = because is not None
                self.because[pair] = because
            else:
                local = self.kept_fold(pair)
                found = self.weigh_pair(a, b, FOLD_RULE) if local is None else evidence.remade(local, r.answers)
                names = (self.name_of(a.id), self.name_of(b.id))
                usual = self.usual(a, b, names)
                unargued = None if usual is None or self.argued(a, b, usual) else usual
                because = evidence.certain_because(found, prose_variants(*names), unargued)
                sure = because is not None
                self.because[pair] = because
            self.doubts[pair] = None if sure and not asked else found
        return self.doubts[pair]

    def usual(self, a: Side, b: Side, names: tuple[Name, Name]) -> evidence.Usual | None:
        """(usual spelling, its passages, the other, its passages) when the two are one name with and
        without inner capitals, or a prose name and its lowercase spelling, and the store writes one of
        them usually (`evidence.usual_spelling`): for a lowercase spelling, the prose name."""
        lowercase = prose_lowercase(*names)
        if not (lowercase or inner_capitals(*names)):
            return None
        counts = self.reading.counts
        (few, fewer), (many, more) = sorted(
            ((a.name, counts.get(a.id, 0)), (b.name, counts.get(b.id, 0))), key=lambda x: x[1]
        )
        if lowercase and many == many.casefold():
            return None
        return (many, more, few, fewer) if evidence.usual_spelling((fewer, more)) else None

    def argued(self, a: Side, b: Side, usual: evidence.Usual) -> bool:
        """Whether the store argues against folding two spellings because one is its usual spelling
        (`usual`): it writes that one as a code identifier and the other as a word
        (`evidence.code_beside_word`), or the other, a lowercase spelling, mostly as an attribute's
        name (`evidence.mostly_attribute`, read from at most NEIGHBOUR_PASSAGES of its passages). The
        two are asked instead."""
        facts = self.reading.facts
        many, more, _, fewer = usual
        first, other = (a, b) if a.name == many else (b, a)
        mine, theirs = facts.passage_set(first.id), facts.passage_set(other.id)
        in_code = (backtick_passages(first.id, mine), backtick_passages(other.id, theirs))
        if evidence.code_beside_word(in_code, (more, fewer)):
            return True
        if other.name != other.name.casefold():
            return False
        read = sorted(theirs)[: evidence.NEIGHBOUR_PASSAGES]
        read_texts(facts, read)
        spellings = {s for s in facts.surfaces.get(other.id, ()) if s == s.casefold()} | {other.name}
        return evidence.mostly_attribute([facts.text_of[p] for p in read if p in facts.text_of], spellings)

    def only_as_code(self, a: Side, b: Side) -> bool:
        """Whether the passages naming both of a prose name and its lowercase spelling write the
        lowercase one only as code (`evidence.only_as_code`); false when none names both."""
        facts = self.reading.facts
        lower = a if a.name == a.name.casefold() else b
        texts = [facts.text_of.get(p) for p in sorted(facts.passage_set(a.id) & facts.passage_set(b.id))]
        spellings = {s for s in facts.surfaces.get(lower.id, {lower.name}) if s == s.casefold()}
        if not texts or None in texts:  # a text the pass did not read says nothing
            return False
        return evidence.only_as_code([t for t in texts if t is not None], spellings | {lower.name})

    def because_of(self, a: Side, b: Side) -> str | None:
        """Why `certain` found a fold of the two certain (None for a learned fold: its reason says)."""
        return self.because.get((a.id, b.id) if a.id < b.id else (b.id, a.id))

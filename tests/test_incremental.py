"""Incremental resolution: a pass that judges only the names new or changed since the last one leaves
the store exactly as a full pass would, over random sequences of ingests, answers, reverts, renames
and deletions, on both backends."""

import random
import sys
import zlib
from pathlib import Path

import pytest
from conftest import drop_pg_database, pg_database

from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.resolve import conflict_search, pass_memory
from memo_tui.engine.resolve import early as early_asks
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.engine.review import decisions
from memo_tui.errors import MemoError
from memo_tui.names import evidence, name_memory
from memo_tui.store import Decision, Entity, Fold, PassMemory, Question, db
from memo_tui.text.sources import PassageRecord

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from corpus import entity_names  # noqa: E402

NS = "default"
TYPES = [None, None, None, "person", "org", "tool"]


def _passages(rng: random.Random, pool: list[str], start: int, count: int) -> list[PassageRecord]:
    """Passages naming 2-4 names of the pool (declared, so that every name is an entity), from a few
    authors; and two spellings of a name beside the same two rare neighbours (which fold unasked)."""
    out = []
    for k in range(start, start + count):
        named = rng.sample(pool, rng.choice([2, 3, 4]))
        entities = [{"name": n, "type": TYPES[zlib.crc32(n.encode()) % len(TYPES)]} for n in named]
        out.append(PassageRecord(f"p{k}", f"Notes on {', '.join(named)}.", f"author{k % 4}", entities=entities))
    for k in range(rng.randrange(2, 5)):  # settings said again, changed, or taken back: passage conflicts
        subject = rng.choice(pool[:12])
        value = rng.choice([30, 60, 90])
        negation = rng.choice(["", "", " not"])
        text = f"The {subject} request timeout is{negation} {value} seconds in production since the last release."
        out.append(PassageRecord(f"s{start}-{k}", text, f"ops{rng.randrange(3)}", entities=[{"name": subject}]))
    if rng.random() < 0.3 and start:
        out.append(PassageRecord(f"r{start}", f'Revert "Notes on {", ".join(named)}."', "ops0"))
    # one that says it contradicts a passage ingested before, in the same ingest, or still to come
    target = f"p{rng.choice([rng.randrange(60), start + rng.randrange(count), start + 1000 + rng.randrange(10)])}"
    out.append(PassageRecord(f"c{start}", f"Those notes on {named[0]} are wrong.", "ops1", contradicts=[target]))
    name = rng.choice([n for n in pool if " " in n])
    rare = [{"name": f"Pair {start} {side}"} for side in "ab"]
    for spelling in (name, name.replace(" ", "-")):
        text = f"{spelling} with Pair {start} a and Pair {start} b."
        out.append(PassageRecord(f"p{start}-{spelling}", text, "pairs", entities=[{"name": spelling}, *rare]))
    return out


def _state() -> tuple:
    entities = list(Entity.select(Entity.id, Entity.name, Entity.type).where(Entity.namespace == NS).tuples())
    questions = list(
        Question.select(
            Question.id,
            Question.kind,
            Question.left_id,
            Question.right_id,
            Question.status,
            Question.rule,
            Question.reason,
            Question.likelihood,
            Question.priority,
            Question.impact,
        )  # fmt: skip
        .order_by(Question.id)
        .tuples()
    )
    folds = list(
        Fold.select(Fold.id, Fold.canonical_id, Fold.absorbed_id, Fold.reverted_at.is_null()).order_by(Fold.id).tuples()
    )
    return sorted(entities), questions, folds


def _step(rng: random.Random, pool: list[str], step: int, busy: bool) -> None:
    """One thing a store lives through between passes: new passages, and sometimes a reviewer (`busy`:
    one who also answers a name question every time, so that the next pass admits what it deferred)."""
    ingest_records(NS, _passages(rng, pool, 1000 * step, rng.randrange(10, 40)))
    pending = [
        q for (q,) in Question.select(Question.id).where(Question.status == "pending").order_by(Question.id).tuples()
    ]
    names = Question.select(Question.id).where((Question.status == "pending") & (Question.kind == "entity_pair"))
    for (q,) in names.order_by(Question.id).limit(2 if busy else 0).tuples():
        decisions.answer(NS, q, rng.choice(["merge", "reject", "keep_both"]), "ana", "cli")
        pending.remove(q)
    action = rng.randrange(5)
    if action == 0 and pending:
        decisions.answer(NS, rng.choice(pending), rng.choice(["merge", "reject", "keep_both"]), "ana", "cli")
    elif action == 1:
        done = [
            d
            for (d,) in Decision.select(Decision.id)
            .where(Decision.undone_at.is_null() & (Decision.action != "revert"))
            .order_by(Decision.id)
            .tuples()
        ]
        if done:
            try:
                decisions.revert(NS, rng.choice(done), "ana", "cli")
            except MemoError:  # its name is in use again, say: refused, as a reviewer would be told
                pass
    elif action == 2:
        names = [n for (n,) in Entity.select(Entity.name).order_by(Entity.id).tuples()]
        old = rng.choice(names)
        if old + "s" not in names:
            decisions.rename(NS, old, old + "s", "ana", "cli")
    elif action == 3:
        names = [n for (n,) in Entity.select(Entity.name).order_by(Entity.id).tuples()]
        try:
            decisions.delete(NS, rng.choice(names), "ana", "cli")
        except MemoError as refused:  # a fold points at it: refused, as a reviewer would be told
            assert "revert them first" in str(refused)


def _run(location: str, seed: int, full: bool, cap: int) -> tuple[list, list]:
    database = open_store(location)
    rng = random.Random(seed)
    pool = entity_names(160, seed=seed)
    states, reports = [], []
    try:
        ingest_records(NS, _passages(rng, pool, 0, 60))
        for step in range(1, 6):
            reports.append(resolve(NS, cap=cap, full=full))
            states.append(_state())
            _step(rng, pool, step, busy=cap < 10)
        reports.append(resolve(NS, cap=cap, full=full))
        states.append(_state())
    finally:
        database.close()
        db.initialize(None)
    return states, reports


COUNTED = ("folded", "queued", "deferred", "unlikely", "not_certain", "already_queued", "skipped_settled")


def _tally(reports) -> list[list[int]]:
    return [[getattr(r, n) for n in COUNTED] for r in reports]


@pytest.fixture
def two_stores(backend, tmp_path):
    if backend == "sqlite":
        yield str(tmp_path / "incremental.db"), str(tmp_path / "full.db")
        return
    urls = pg_database(), pg_database()
    yield urls
    for url in urls:
        drop_pg_database(url)


@pytest.mark.parametrize(
    "seed, apart, cap, chunk", [(3, False, 40, None), (8, False, 40, 1000), (5, True, 40, 1000), (6, False, 3, None)]
)
def test_an_incremental_pass_leaves_the_store_as_a_full_pass_does(two_stores, seed, apart, cap, chunk, monkeypatch):
    """`apart`: the names are judged in a second process, as on a large store. A small `cap` defers
    most questions, and a reviewer answers some every time: each pass admits what an earlier one
    deferred (most of it remembered, not weighed again). `chunk`: each part is written in rows of
    that many bytes, as a large store's are."""
    elsewhere = []  # whether each passage search ran in the second process
    early = []  # the asks weighed while the names were judged
    judged_here = []  # incremental judgings in this process (the second reads the names part itself)
    if apart:
        monkeypatch.setattr(pass_memory, "PARALLEL_MIN", 1)
        judge_changes = pass_memory.judge_changes
        monkeypatch.setattr(pass_memory, "judge_changes", lambda *a: judged_here.append(1) or judge_changes(*a))
        # every remembered ask the visit weighs is weighed early, however quick the judging is
        monkeypatch.setattr(pass_memory.Judging, "busy", lambda self: self._future is not None)
        weigh_early = early_asks.weigh_early

        def noted_early(*args):
            early.append(weigh_early(*args))
            return early[-1]

        monkeypatch.setattr(early_asks, "weigh_early", noted_early)
        finish = conflict_search.finish

        def noted(search):
            if not search.report.unchanged:
                elsewhere.append(search.pending is not None)
            return finish(search)

        monkeypatch.setattr(conflict_search, "finish", noted)
    if chunk:
        monkeypatch.setattr(pass_memory, "CHUNK", chunk)
    incremental, full = two_stores
    states, reports = _run(incremental, seed, full=False, cap=cap)
    expected, full_reports = _run(full, seed, full=True, cap=cap)
    assert [r.incremental for r in reports] == [False] + [True] * (len(reports) - 1)
    assert all(r.not_reweighed for r in reports[1:]) and not any(r.not_reweighed for r in full_reports)
    assert not any(r.incremental for r in full_reports)
    assert sum(r.pairs_judged for r in reports[1:]) < sum(r.pairs_judged for r in full_reports[1:]) / 2
    assert sum(r.folded for r in full_reports) > 0 and sum(r.queued for r in full_reports) > min(10, 3 * cap)
    assert sum(r.duplicates_queued for r in full_reports) >= 2
    assert sum(r.contradictions_queued for r in full_reports) >= 2
    assert sum(question[5] == "declared" for question in expected[-1][1]) >= 2  # (id, kind, left, right, status, rule
    for step, (got, want) in enumerate(zip(states, expected, strict=True)):
        assert got == want, f"after pass {step}"

    assert _tally(reports) == _tally(full_reports)  # every ask counted once, as the full pass counts it
    assert not apart or sum(elsewhere) >= 2, elsewhere  # the incremental ones did
    assert not apart or not judged_here  # and the judging, which read the names part there
    assert not apart or sum(len(e.used) for e in early) >= 10  # and the visit took what was weighed early


def test_the_verdicts_kept_for_the_names_learned_since_the_base_are_all_that_touch_them(store, monkeypatch):
    # the pass keeps them without sweeping every verdict: the ones kept before that stand, and its own
    kept = []
    result = pass_memory.Judging.result

    def checked(self):
        found = result(self)
        learned = found.changes.learned
        touching = {pair: v for pair, v in found.verdicts.items() if pair[0] in learned or pair[1] in learned}
        kept.append((found.recent, touching))
        return found

    monkeypatch.setattr(pass_memory.Judging, "result", checked)
    rng = random.Random(11)
    pool = entity_names(600, seed=11)  # names enough that those learned pass after pass stay a tenth of them
    ingest_records(NS, _passages(rng, pool, 0, 300))
    for step in range(1, 7):
        resolve(NS, cap=40)
        _step(rng, pool, step, busy=False)
    resolve(NS, cap=40)
    assert all(recent == touching for recent, touching in kept)
    assert sum(len(recent) > 0 for recent, _ in kept) >= 4  # most passes had learned names, and kept their verdicts


def test_a_memory_written_by_other_code_is_not_read(store):
    ingest_records(NS, _passages(random.Random(1), entity_names(60, seed=1), 0, 30))
    assert not resolve(NS).incremental
    assert resolve(NS).incremental
    PassMemory.update(tag="0:other").execute()
    report = resolve(NS)
    assert not report.incremental and report.names_changed == Entity.select().count()


def test_a_part_is_read_from_all_its_rows_and_from_no_others(store, monkeypatch):
    value = {(k, k + 1): ("ask", 0.5, "plural", f"reason {k}") for k in range(400)}
    monkeypatch.setattr(pass_memory, "CHUNK", 1000)
    pass_memory.keep(NS, "verdicts", "t", value)
    rows = PassMemory.select().where(PassMemory.key.contains("verdicts")).count()
    assert rows > 5 and pass_memory.kept(NS, "verdicts", "t") == value
    assert pass_memory.kept(NS, "verdicts", "other") is None
    monkeypatch.setattr(pass_memory, "CHUNK", 1 << 24)
    assert pass_memory.is_kept(NS, "verdicts", "t") and not pass_memory.is_kept(NS, "verdicts", "other")
    pass_memory.keep(NS, "verdicts", "t", {(1, 2): value[(1, 2)]})  # one row now: the others go
    assert pass_memory.kept(NS, "verdicts", "t") == {(1, 2): value[(1, 2)]}
    assert pass_memory.is_kept(NS, "verdicts", "t")
    assert PassMemory.select().where(PassMemory.key.contains("verdicts")).count() == 1
    monkeypatch.setattr(pass_memory, "CHUNK", 1000)
    pass_memory.keep(NS, "verdicts", "t", value)
    PassMemory.delete().where(PassMemory.key == f"verdicts#3:{NS}").execute()
    assert pass_memory.kept(NS, "verdicts", "t") is None  # a row is missing: nothing is kept
    assert not pass_memory.is_kept(NS, "verdicts", "t")  # nor is it there for a second process to read
    pass_memory.drop(NS)
    assert not pass_memory.is_kept(NS, "verdicts", "t")
    assert not PassMemory.select().where(PassMemory.key.contains("verdicts")).count()


def test_a_namespace_drops_its_own_memory_and_no_other(store):
    for namespace in ("a", "A", "x:a", "_"):
        pass_memory.keep(namespace, "verdicts", "t", {namespace: 1})
        pass_memory.stage(namespace, "names", "t", b"staged")
    pass_memory._drop_staged("a")
    pass_memory.drop("_")  # a wildcard in a pattern: every namespace
    pass_memory.drop("a")
    keys = sorted(key for (key,) in PassMemory.select(PassMemory.key).tuples())
    assert keys == ["next-names:A", "next-names:x:a", "verdicts:A", "verdicts:x:a"]


def _failing_judge(*args):
    raise RuntimeError("the second process failed")


_JUDGED_HERE: list[int] = []  # judgings in this process (a second one counts in its own copy)


def _counted_judge(*args):
    _JUDGED_HERE.append(1)
    return name_memory.judge_changes(*args)


@pytest.mark.parametrize("how", ["its store in memory", "the second process failing"])
def test_the_names_are_judged_in_the_pass_when_the_second_process_cannot(store, monkeypatch, how):
    """A store only this process sees hands the names part over; a second process that fails leaves
    the judging to the pass. Either way the passes find what they find when it works."""
    monkeypatch.setattr(pass_memory, "PARALLEL_MIN", 1)
    rng = random.Random(4)
    pool = entity_names(200, seed=4)
    ingest_records(NS, _passages(rng, pool, 0, 120))
    resolve(NS, cap=40)
    ingest_records(NS, _passages(rng, pool, 1, 40))
    expected = resolve(NS, cap=40, dry_run=True)
    if how == "its store in memory":
        monkeypatch.setattr(pass_memory, "bound_location", lambda: None)
    else:
        monkeypatch.setattr(pass_memory, "_judge_changes_at", _failing_judge)
    monkeypatch.setattr(pass_memory, "judge_changes", _counted_judge)  # picklable: it may be handed over
    _JUDGED_HERE.clear()
    report = resolve(NS, cap=40, dry_run=True)
    assert report.incremental and report.as_dict() | {"seconds": 0} == expected.as_dict() | {"seconds": 0}
    assert _JUDGED_HERE == ([] if how == "its store in memory" else [1])


def _memory_rows() -> list[tuple[str, str, bytes]]:
    """The resolution memory's rows (not the passage search's, which its own step writes)."""
    rows = PassMemory.select().where(~PassMemory.key.startswith("search")).tuples()
    return sorted((key, tag, bytes(data)) for key, tag, data in rows)


def test_a_pass_that_stops_before_its_save_leaves_the_memory_as_it_was(store, monkeypatch):
    """A full pass writes its names part ahead of the save (staged, never read): stopped before the
    save, the memory is what it was and the next pass works from it; a dry run stages nothing."""
    from memo_tui.engine.resolve.resolver import Cancelled

    monkeypatch.setattr(pass_memory, "CHUNK", 1000)  # parts of many rows
    rng, pool = random.Random(6), entity_names(80, seed=6)
    ingest_records(NS, _passages(rng, pool, 0, 40))
    resolve(NS)
    kept = _memory_rows()
    assert not any(key.startswith(pass_memory.STAGED) for key, _, _ in kept)
    ingest_records(NS, _passages(rng, pool, 1000, 10))
    resolve(NS, dry_run=True, full=True)
    assert _memory_rows() == kept
    with pytest.raises(Cancelled):
        resolve(NS, full=True, cancelled=lambda: True)
    rows = _memory_rows()
    staged = [key for key, _, _ in rows if key.startswith(pass_memory.STAGED)]
    assert len(staged) > 1 and [row for row in rows if row[0] not in staged] == kept
    report = resolve(NS)
    assert report.incremental and 0 < report.names_changed < Entity.select().count()
    assert not any(key.startswith(pass_memory.STAGED) for key, _, _ in _memory_rows())
    full = resolve(NS, full=True)  # staged, then kept: the next pass reads it
    assert not full.incremental and resolve(NS).incremental
    assert not any(key.startswith(pass_memory.STAGED) for key, _, _ in _memory_rows())


def test_what_nothing_changed_is_not_weighed_again_pass_after_pass(store, monkeypatch):
    monkeypatch.setattr(evidence, "MIN_LIKELIHOOD", 0.3)  # a floor some rules cannot reach, to be left unread
    rng = random.Random(4)
    pool = entity_names(160, seed=4)
    ingest_records(NS, _passages(rng, pool, 0, 80))
    first = resolve(NS)
    assert first.not_reweighed == 0 and first.unlikely > 20
    # nothing new (but what the first pass folded): the evidence of asks that share no neighbour stands
    again = [resolve(NS).not_reweighed for _ in range(3)]
    assert again[0] <= again[1] == again[2] and again[2] > 0.8 * first.unlikely
    ingest_records(NS, _passages(rng, pool, 1000, 3))
    after = resolve(NS)
    assert 0 < after.not_reweighed < first.unlikely and after.names_changed > 0


def test_a_rebuild_makes_the_next_pass_a_full_one(store):
    from memo_tui.engine.rebuild import rebuild

    ingest_records(NS, _passages(random.Random(2), entity_names(60, seed=2), 0, 30))
    resolve(NS)
    assert resolve(NS).incremental
    rebuild(NS)  # new mentions, maybe other spellings: nothing kept about them holds
    assert not resolve(NS).incremental and resolve(NS).incremental


def _asked(names: set[str]) -> bool:
    rows = Question.select(Question.left_name, Question.right_name).where(Question.kind == "entity_pair").tuples()
    return any({left, right} == names for left, right in rows)


def test_a_hopeless_ask_left_unread_is_read_again_once_a_passage_names_both(two_stores, monkeypatch):
    """Two spellings a few edits apart, each named once, are too unlikely to ask about (under a floor
    their rule cannot reach unaided), and nothing names both: the pass leaves them unread, and the next
    one does too while that holds, however often either side is named. Once a passage spells one by
    the other, they are worth asking: the incremental pass asks, as the full one does."""
    monkeypatch.setattr(evidence, "MIN_LIKELIHOOD", 0.36)  # above what any fact lifts an edit-distance ask to

    def record(key: str, text: str, *names: str) -> PassageRecord:
        return PassageRecord(key, text, "notes", entities=[{"name": n} for n in names])

    first = [
        record("a1", "Halvorsen signed the Fjordline lease.", "Halvorsen", "Fjordline"),
        record("a2", "Halvorson paid the Fjordline deposit.", "Halvorson", "Fjordline"),
        record("b1", "Marisol Vantongeren wrote the brief.", "Marisol Vantongeren", "Lisbon"),
        record("b2", "Marisol Vantongerin filed it.", "Marisol Vantongerin", "Porto"),
    ]
    grown = [record(f"g{k}{side}", f"{name} met the Fjordline crew.", name, "Fjordline")
             for k in range(2) for side, name in (("s", "Halvorsen"), ("o", "Halvorson"))]  # fmt: skip
    both = [record("d1", "Marisol Vantongeren (Marisol Vantongerin) signed.", "Marisol Vantongeren",
                   "Marisol Vantongerin")]  # fmt: skip
    states, reports = [], []
    for location, full in zip(two_stores, (False, True), strict=True):
        database = open_store(location)
        try:
            ingest_records(NS, first)
            passes = [resolve(NS, full=full)]
            assert not _asked({"Halvorsen", "Halvorson"}) and not _asked({"Marisol Vantongeren", "Marisol Vantongerin"})
            passes.append(resolve(NS, full=full))
            ingest_records(NS, grown + both)
            passes.append(resolve(NS, full=full))
            assert not _asked({"Halvorsen", "Halvorson"}) and _asked({"Marisol Vantongeren", "Marisol Vantongerin"})
            states.append(_state())
            reports.append(passes)
        finally:
            database.close()
            db.initialize(None)
    assert reports[0][1].not_reweighed >= 2 and reports[0][2].incremental  # unread while it held
    assert states[0] == states[1]


def test_a_remembered_ask_about_a_name_that_folds_in_this_pass_is_asked_as_a_full_pass_asks_it(two_stores):
    """A plural pair whose sides share no neighbour is deferred (no room in the queue), and its evidence
    kept. Then a new spelling of one side folds into it unasked (the two keep the same rare company),
    and the queue has room: the pass asks about the remembered pair as the full pass does, with what
    the fold changed (its sides, their mentions)."""

    def record(key: str, *names: str) -> PassageRecord:
        return PassageRecord(key, f"Notes on {', '.join(names)}.", "notes", entities=[{"name": n} for n in names])

    states = []
    for location, full in zip(two_stores, (False, True), strict=True):
        database = open_store(location)
        try:
            ingest_records(NS, [record("x", "Tidewater Relay", "Ostrava Depot", "Quillfeather"),
                                record("z", "Tidewater Relays", "Brno Yard")])  # fmt: skip
            assert resolve(NS, cap=0, full=full).deferred == 1
            ingest_records(NS, [record("y", "Tidewater-Relay", "Ostrava Depot", "Quillfeather")])
            report = resolve(NS, cap=5, full=full)
            assert report.folded == 1 and report.queued == 1
            assert full or report.not_reweighed == 1  # the plural pair: remembered, not weighed again
            states.append(_state())
        finally:
            database.close()
            db.initialize(None)
    assert states[0] == states[1]


def test_a_remembered_ask_inside_a_fold_group_is_asked_once(two_stores):
    """Two spellings that fold with a third but keep no rare company with it are asked about, not
    folded (`TideWater` is styled: no prose name, whose variants fold unasked); the pair of the two
    (an ask of its own, remembered from the last pass) is asked about once, as a full pass asks it,
    when the group asks about it too."""
    names = ["TideWater Relay", "TideWater Relay", "TideWater-Relay", "TideWaterRelay"]
    records = [
        PassageRecord(f"t{k}", f"{name} and {town}.", "notes", entities=[{"name": name}, {"name": town}])
        for k, (name, town) in enumerate(zip(names, ["Ostrava", "Brno", "Porto", "Lisbon"], strict=True))
    ]
    states, reports = [], []
    for location, full in zip(two_stores, (False, True), strict=True):
        database = open_store(location)
        try:
            ingest_records(NS, records)
            assert resolve(NS, cap=0, full=full).deferred == 2  # the group asks about the pair too: once
            reports.append(resolve(NS, cap=10, full=full))
            states.append(_state())
        finally:
            database.close()
            db.initialize(None)
    assert reports[0].incremental and reports[0].not_reweighed >= 1
    assert (reports[0].queued, reports[0].deferred) == (reports[1].queued, reports[1].deferred)
    assert states[0] == states[1]


def _typed(key: str, name: str, kind: str | None, *others: str) -> PassageRecord:
    named = [{"name": name, **({"type": kind} if kind else {})}, *({"name": o} for o in others)]
    return PassageRecord(key, f"{name} and {', '.join(others)}.", "notes", entities=named)


def _both_ways(two_stores, script) -> list:
    """`script(full)` on the incremental store and on the full one: its reports, then the store."""
    out = []
    for location, full in zip(two_stores, (False, True), strict=True):
        database = open_store(location)
        try:
            out.append((_tally(script(full)), _state()))
        finally:
            database.close()
            db.initialize(None)
    return out


def _types_differ_rejected(full: bool) -> None:
    """Two same-spelled pairs declared as a person and an org, rejected: such asks are now hopeless
    about names seen once."""
    people = [("Kestrel Forge", "person"), ("Kestrel-Forge", "org"), ("Amber Loom", "person"), ("Amber-Loom", "org")]
    ingest_records(NS, [_typed(f"k{i}{j}", n, t, f"Town{i}{j}") for i, (n, t) in enumerate(people) for j in range(3)])
    resolve(NS, cap=10, full=full)
    asked = Question.select(Question.id).where((Question.status == "pending") & (Question.kind == "entity_pair"))
    for (q,) in asked.order_by(Question.id).tuples():
        decisions.answer(NS, q, "reject", "ana", "cli")


def test_a_hopeless_ask_inside_a_fold_group_is_counted_once(two_stores):
    """A fold group that folds nothing (its members keep no rare company) asks about its members; a
    hopeless ask between two of them, left unread by the last pass, is that question too: counted
    once, as a full pass counts it."""

    def script(full: bool) -> list:
        _types_differ_rejected(full)
        ingest_records(NS, [_typed("t0", "Tidewater Relay", "person", "Ostrava"),
                            _typed("t1", "Tidewater Relay", "person", "Brno"),
                            _typed("t2", "Tidewater-Relay", None, "Porto"),
                            _typed("t3", "TidewaterRelay", "org", "Lisbon")])  # fmt: skip
        return [resolve(NS, cap=0, full=full) for _ in range(3)]

    (got, got_store), (want, want_store) = _both_ways(two_stores, script)
    assert got == want and got_store == want_store


def test_an_unread_ask_about_a_name_that_folds_is_asked_as_a_full_pass_asks_it(two_stores):
    """A hopeless ask left unread whose side gains passages stays unread; when that side then folds
    unasked, the ask follows the fold in the order a full pass visits it (which of two asks about the
    same pair the queue keeps, and so its reason, depends on that order)."""

    def script(full: bool) -> list:
        _types_differ_rejected(full)
        ingest_records(NS, [_typed("t0", "TideWater Relay", None, "Ostrava"),
                            _typed("t1", "TideWater Relay", None, "Brno"),
                            _typed("t2", "TideWater-Relay", "person", "Porto"),
                            _typed("t3", "TideWater relay", "org", "Lisbon")])  # fmt: skip
        reports = [resolve(NS, cap=0, full=full)]
        ingest_records(NS, [_typed("t4", "TideWater Relay", None, "Quillfeather", "Ostrava Depot"),
                            _typed("t5", "TideWater-Relay", "person", "Quillfeather", "Ostrava Depot")])  # fmt: skip
        reports.append(resolve(NS, cap=10, full=full))
        assert reports[-1].folded == 1 and reports[-1].queued
        return reports

    (got, got_store), (want, want_store) = _both_ways(two_stores, script)
    assert got == want and got_store == want_store


def test_a_pass_looks_up_no_word_frequency_that_an_earlier_one_kept(store, monkeypatch):
    """Loading the word list is slow beside a few look-ups: a pass keeps the frequencies its rules looked
    up, and the next one (another process) is handed them. Here a full pass judges every pair again
    with the word list out of reach, and finds what the first one found."""
    import wordfreq

    from memo_tui.names import rules

    records = [PassageRecord(f"w{k}", f"{name} ships today.", "notes", entities=[{"name": name}])
               for k, name in enumerate(["ReAct", "React", "AgentS", "Agents"] * 2)]  # fmt: skip
    ingest_records(NS, records)
    first = resolve(NS, full=True)
    asked = sorted(Question.select(Question.rule, Question.reason).tuples())
    styled = {reason.split(";")[0] for rule, reason in asked if rule == "case-styled"}
    assert styled == {"'Agents' is an everyday word", "'React' is an everyday word"}  # the word list was read

    def unreachable(word, lang):
        raise AssertionError(f"looked up {word!r} again")

    monkeypatch.setattr(rules, "_ZIPF", {})  # a new process
    monkeypatch.setattr(wordfreq, "zipf_frequency", unreachable)
    again = resolve(NS, full=True)
    assert (again.pairs_judged, again.queued + again.already_queued) == (first.pairs_judged, first.queued)
    assert sorted(Question.select(Question.rule, Question.reason).tuples()) == asked


def test_a_full_pass_keeps_the_names_part_a_rebuilt_memory_keeps():
    """The names part a full pass writes (tokens joined as they are made) holds what the one a memory
    rebuilt from the same names holds, so an incremental pass reads either the same way (not byte
    for byte: marshal marks the objects referenced more than once, which differ between the two)."""
    import marshal

    from memo_tui.names.blocking import gram_order, name_tokens
    from memo_tui.names.name_memory import NameMemory, Names, _base_part, _base_part_of
    from memo_tui.names.rules import Name

    types = [None, "person", "tool", None]
    built = [Name(i * 3, name, types[i % 4]) for i, name in enumerate(entity_names(3000, seed=9))]
    built.append(Name(10_000, "!!!"))  # a name with no token
    order = gram_order(built)
    rows = [(n.id, n.name, n.type, n.merge, sorted(name_tokens(n, order))) for n in built]
    assert any(not row[4] for row in rows)
    (full, keepable), (rebuilt, too) = _base_part_of(built), _base_part(NameMemory(order, Names.of(rows), set(), {}))
    assert keepable and too and marshal.loads(full) == marshal.loads(rebuilt)
    assert _base_part_of([*built, Name(10_001, "a\x00b")]) == (None, False)


def test_one_sweep_finds_in_each_list_the_places_its_own_sweep_finds():
    rng = random.Random(7)
    groups = {}
    for key in range(60):  # lists of many sizes, some empty, keyed as the memory keys its asks
        size = rng.choice([0, 0, 1, 2, 3, 40])
        pairs = pass_memory.PairList()
        for _ in range(size):
            low = rng.randrange(200)
            pairs.append((low, low + 1 + rng.randrange(200)))
        groups[("rule", key, None, False)] = pairs
    for share in (0.0, 0.05, 0.5, 1.0):
        ids = {x for x in range(400) if rng.random() < share}
        expected = {key: pairs.touching(ids) for key, pairs in groups.items() if pairs.touching(ids)}
        assert pass_memory.Sweep(groups).touching(ids) == expected
    assert pass_memory.Sweep({}).touching({1, 2}) == {}

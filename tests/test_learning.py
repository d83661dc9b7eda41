"""Learning by asking: once reviewers have merged enough questions of one pattern and rejected none,
the pass folds the rest of that pattern itself, as `learned` folds that revert like any other."""

import pytest

from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.resolve import admission
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.engine.review import decisions
from memo_tui.engine.review.queue import pending
from memo_tui.names import evidence
from memo_tui.store import Entity, Fold
from memo_tui.text.sources import PassageRecord

NS = "default"
WORDS = [
    "Amber", "Basalt", "Cobalt", "Dune", "Ember", "Fjord", "Garnet", "Harbor", "Indigo", "Juniper",
    "Kestrel", "Lagoon", "Meadow", "Nectar", "Onyx", "Pebble", "Quill", "Rowan", "Saffron", "Tundra",
]  # fmt: skip


def plural_pairs(words: list[str], tag: str) -> None:
    """One passage naming `<word> Widget` and another `<word> Widgets`, by different authors."""
    records = []
    for word in words:
        records.append(PassageRecord(f"{tag}-{word}-1", f"The {word} Widget ships on Monday.", "ana"))
        records.append(PassageRecord(f"{tag}-{word}-2", f"Both {word} Widgets failed the smoke test.", "bo"))
    ingest_records(NS, records)


def plural_questions() -> list:
    return [q for q in pending(NS) if q.kind == "entity_pair" and q.rule == "plural"]


def merge_all(questions) -> None:
    for q in questions:
        decisions.answer(NS, q.id, "merge", "alice", "cli")


def learned_folds() -> list[Fold]:
    return list(Fold.select().where(Fold.rule == evidence.LEARNED + "plural", Fold.reverted_at.is_null()))


def names() -> set[str]:
    return {e.name for e in Entity.select()}


def test_a_pattern_reviewers_merged_fifteen_times_folds_itself(store):
    plural_pairs(WORDS[:15], "a")
    resolve(NS, cap=100)
    asked = plural_questions()
    assert len(asked) == 15 and not learned_folds()  # asked, never folded unasked before anyone answered
    merge_all(asked)
    plural_pairs(WORDS[15:18], "b")
    report = resolve(NS, cap=100)
    folds = learned_folds()
    assert report.folded == 3 and len(folds) == 3
    assert {f.absorbed_name for f in folds} == {f"{w} Widgets" for w in WORDS[15:18]} or {
        f.absorbed_name for f in folds
    } == {f"{w} Widget" for w in WORDS[15:18]}
    assert all(f.decided_by == "auto" for f in folds)
    assert plural_questions() == []
    said = [d for d in decisions.history(NS, who="auto") if d.action == "fold"]
    assert len(said) == 3 and all("merged all 15 questions like this" in d.summary for d in said)


def test_fourteen_merges_teach_nothing(store):
    plural_pairs(WORDS[:14], "a")
    resolve(NS, cap=100)
    merge_all(plural_questions())
    plural_pairs(WORDS[15:17], "b")
    resolve(NS, cap=100)
    assert not learned_folds() and len(plural_questions()) == 2


def test_one_reject_stops_the_learning(store):
    plural_pairs(WORDS[:16], "a")
    resolve(NS, cap=100)
    first, *rest = plural_questions()
    merge_all(rest)  # 15 merges
    decisions.answer(NS, first.id, "reject", "alice", "cli")  # and one "these differ"
    plural_pairs(WORDS[16:18], "b")
    resolve(NS, cap=100)
    assert not learned_folds() and len(plural_questions()) == 2


def test_a_reverted_learned_fold_is_asked_and_stops_the_learning(store):
    plural_pairs(WORDS[:15], "a")
    resolve(NS, cap=100)
    merge_all(plural_questions())
    plural_pairs(WORDS[15:17], "b")
    resolve(NS, cap=100)
    fold = learned_folds()[0]
    [decision] = [d for d in decisions.history(NS, who="auto") if d.payload.get("fold_id") == fold.id]
    decisions.revert(NS, decision.id, "alice", "cli")
    assert {fold.absorbed_name} <= names()
    plural_pairs(WORDS[17:18], "c")
    resolve(NS, cap=100)
    # the reverted pair is asked (a reviewer's revert is a decision), and so is the new one: one
    # "not the same" among the answers ends what the pattern taught
    asked = {frozenset((q.left_name, q.right_name)) for q in plural_questions()}
    assert len(learned_folds()) == 1 and len(asked) == 2
    assert frozenset(("Rowan Widget", "Rowan Widgets")) in asked


def test_the_incremental_pass_folds_what_a_full_pass_folds_once_a_pattern_is_learned(store):
    plural_pairs(WORDS[:17], "a")
    resolve(NS, cap=15)  # 15 asked, 2 deferred (kept by the pass's memory, not visited again)
    merge_all(plural_questions())
    report = resolve(NS, cap=100)
    assert report.folded == 2 and len(learned_folds()) == 2


@pytest.fixture
def no_plausible_budget(monkeypatch):
    """A store as a large one is: under the floor, only teaching serves."""
    monkeypatch.setattr(admission, "SMALL_QUEUE", 0)


def test_a_small_store_gets_every_plausible_question(store):
    """Under the floor but over MIN_TEACH: a small store's queue takes both, one of them as the pattern's
    teaching question."""
    said = [("k1", "Kubernetes runs the ledger.", "Kubernetes"), ("k2", "Kubernets runs the router.", "Kubernets"),
            ("h1", "Halvorsen signed the lease.", "Halvorsen"),
            ("h2", "Halvorson paid the deposit.", "Halvorson")]  # fmt: skip
    ingest_records(NS, [PassageRecord(key, text, "notes", entities=[{"name": name}]) for key, text, name in said])
    report = resolve(NS)
    asked = pending(NS)
    assert {frozenset((q.left_name, q.right_name)) for q in asked} == {
        frozenset(("Kubernetes", "Kubernets")),
        frozenset(("Halvorsen", "Halvorson")),
    }
    assert all(evidence.MIN_TEACH <= q.likelihood < evidence.MIN_LIKELIHOOD for q in asked)
    assert len([q for q in asked if "asked to learn" in q.reason]) == 1
    assert report.queued == 2 and report.deferred == 0


def test_one_admitted_question_in_ten_is_the_one_that_teaches_the_store_most(store, no_plausible_budget):
    for namespace in (NS, "whole"):  # "whole" serves every question, to see what the cap left out
        records = [PassageRecord(f"t-{w}", f"The {w}ville depot and the {w}vile depot.", "cy") for w in WORDS[:6]]
        for w in WORDS[:14]:
            records += [PassageRecord(f"{w}-1", f"The {w} Widget ships.", "ana"),
                        PassageRecord(f"{w}-2", f"Both {w} Widgets failed.", "bo")]  # fmt: skip
        ingest_records(namespace, records)
    report = resolve(NS, cap=10)
    resolve("whole", cap=1000)
    queued = [q for q in pending(NS) if q.kind == "entity_pair"]
    whole = pending("whole")  # every likely question, and the best teaching one of each pattern under the floor
    ranked = sorted((q for q in whole if "asked to learn" not in q.reason),
                    key=lambda q: (-q.priority, -q.likelihood, q.left_id, q.right_id))  # fmt: skip
    teaching = [q for q in queued if "asked to learn" in q.reason]
    assert len(teaching) == 1
    under = teaching[0].likelihood < evidence.MIN_LIKELIHOOD  # a teaching question under the floor defers none
    assert report.queued == 10 and report.deferred == len(ranked) - (10 - under) > 0
    # the other nine are the best ranked; the tenth is, of the rest, the one nearest an even chance
    pair = lambda q: frozenset((q.left_name, q.right_name))  # noqa: E731
    assert {pair(q) for q in queued if q not in teaching} == {pair(q) for q in ranked[:9]}
    rest = ranked[9:] + [q for q in whole if "asked to learn" in q.reason]
    assert abs(teaching[0].likelihood - 0.5) == min(abs(q.likelihood - 0.5) for q in rest)


def test_a_small_queue_is_served_by_rank_alone(store):
    plural_pairs(WORDS[:5], "a")
    resolve(NS, cap=9)
    assert not [q for q in pending(NS) if "asked to learn" in q.reason]


def test_a_pattern_under_the_floor_is_served_once_as_a_teaching_question(store, no_plausible_budget):
    # two edit-distance pairs, each too unlikely to ask on its pooled share
    def said(key: str, text: str, *names: str) -> PassageRecord:
        return PassageRecord(key, text, "notes", entities=[{"name": n} for n in names])

    ingest_records(NS, [said("k1", "Kubernetes runs the ledger.", "Kubernetes"),
                        said("k2", "Kubernets runs the router.", "Kubernets"),
                        said("h1", "Halvorsen signed the lease.", "Halvorsen"),
                        said("h2", "Halvorson paid the deposit.", "Halvorson")])  # fmt: skip
    resolve(NS)
    teaching = [q for q in pending(NS) if "asked to learn" in q.reason]
    assert len(teaching) == 1 and teaching[0].likelihood < evidence.MIN_LIKELIHOOD
    assert teaching[0].rule == "edit-distance"
    resolve(NS)  # while it waits for an answer, the pattern is not taught again
    assert [q.id for q in pending(NS) if "asked to learn" in q.reason] == [teaching[0].id]
    decisions.answer(NS, teaching[0].id, "merge", "alice", "cli")
    resolve(NS)  # answered: the other pair of the pattern may teach now
    assert len([q for q in pending(NS) if "asked to learn" in q.reason]) == 1

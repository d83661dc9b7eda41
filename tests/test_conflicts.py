"""Duplicate and contradicting passages in the review queue."""

import random
from collections import Counter
from datetime import datetime
from itertools import combinations
from pathlib import Path

import pytest
from graphrows import graph_rows

from memo_tui.engine import conflicts
from memo_tui.engine.conflicts import (
    DUPLICATE_JACCARD,
    _word_id,
    differing_words,
    find_conflicts,
    jaccard,
    masked_ids,
    passage_sets,
    words,
)
from memo_tui.engine.graph.neighbourhood import related
from memo_tui.engine.ingest import forget, ingest_paths, ingest_records
from memo_tui.engine.rebuild import rebuild
from memo_tui.engine.resolve import conflict_search, pass_memory
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.engine.review import decisions
from memo_tui.engine.review.queue import pending
from memo_tui.store import Passage, PassMemory, Question
from memo_tui.text import similar_sets
from memo_tui.text.similar_sets import Packed, Plan, grams, similar_pairs
from memo_tui.text.sources import PassageRecord

NS = "default"


def at(day: str) -> datetime:
    return datetime.fromisoformat(day)


def owner(subject: str, who: str) -> list[dict]:
    return [{"src": subject, "predicate": "owned_by", "dst": who, "confidence": 1.0}]


STORY = [
    PassageRecord("t1", "The Acme Gateway request timeout is 30 seconds for every route.", "wiki", at("2026-01-10")),
    PassageRecord("t2", "The Acme Gateway request timeout is 60 seconds for every route.", "chat", at("2026-03-02")),
    PassageRecord(
        "o1", "Billing moved teams this winter.", "wiki", at("2026-01-05"), relations=owner("Billing", "Alice Smith")
    ),
    PassageRecord(
        "o2", "Billing changed hands again.", "chat", at("2026-02-20"), relations=owner("Billing", "Bob Okafor")
    ),
    PassageRecord(
        "d1",
        "Deploys of the Nimbus Console need a green build on main and a second reviewer.",
        "handbook",
        at("2026-01-02"),
    ),
    PassageRecord(
        "d2",
        "Deploys of the Nimbus Console need a green build on main and a second reviewer!",
        "slack",
        at("2026-02-02"),
    ),
    PassageRecord("n1", "We use Redis Cluster for the session store of Helix Router.", "notes", at("2026-01-03")),
    PassageRecord(
        "n2", "We no longer use Redis Cluster for the session store of Helix Router.", "notes", at("2026-04-03")
    ),
    # look alike, but name different things: not a conflict
    PassageRecord("l1", "The Quartz Ledger nightly export runs at 02:00 and takes an hour.", "ops", at("2026-01-04")),
    PassageRecord("l2", "The Summit Vault nightly export runs at 03:00 and takes an hour.", "ops", at("2026-01-04")),
    # same words from the same source: a repeat, not a duplicate between sources
    PassageRecord("r1", "Remember to rotate the Beacon Relay signing keys before the audit in May.", "notes"),
    PassageRecord("r2", "Remember to rotate the Beacon Relay signing keys before the audit in May!", "notes"),
    PassageRecord("x1", "Lumen Index is fast.", "chat", at("2026-01-01")),
    PassageRecord("x2", "Lumen Index is slow since the upgrade.", "chat", at("2026-02-01"), contradicts=["x1"]),
]


@pytest.fixture
def story(store):
    ingest_records(NS, STORY)
    return store


def found() -> dict[tuple[str, str], tuple[str, str]]:
    by_id = {p.id: p.external_id for p in Passage.select()}
    return {(by_id[f.left], by_id[f.right]): (f.kind, f.rule) for f in find_conflicts(NS)}


def test_a_search_memory_written_in_several_rows_is_read_by_the_next_search(story, monkeypatch):
    # a large store's parts are written in rows of `pass_memory.CHUNK` bytes, the first row's tag
    # marked with their count: the next search is still an incremental one
    monkeypatch.setattr(pass_memory, "CHUNK", 64)
    resolve(NS)
    assert PassMemory.select().where(PassMemory.key.startswith("searched#")).count() >= 1
    assert conflict_search.remembered(NS)


def test_each_kind_of_conflict_is_found_and_look_alikes_are_not(story):
    assert found() == {
        ("t1", "t2"): ("contradiction", "differs-number"),
        ("o1", "o2"): ("contradiction", "single-valued:owned_by"),
        ("d1", "d2"): ("duplicate", "duplicate-3gram"),
        ("n1", "n2"): ("contradiction", "differs-negation"),
        ("x1", "x2"): ("contradiction", "declared"),
    }


def test_the_reason_says_what_differs(story):
    by_rule = {f.rule: f.reason for f in find_conflicts(NS)}
    assert by_rule["differs-number"] == "Acme Gateway request timeout: 30 → 60 seconds"
    assert by_rule["differs-negation"] == '"no longer use Redis Cluster for…": the newer passage negates the older one'
    assert by_rule["single-valued:owned_by"] == (
        "Billing owned by: Alice Smith → Bob Okafor ('owned_by' takes one value; o1, then o2)"
    )
    assert differing_words(STORY[0].text, STORY[1].text) == (["30"], ["60"])


def test_the_pass_queues_memory_questions_beside_capped_entity_questions(story):
    names = ["Claude Code runs the suite.", "ClaudeCode runs the linter.", "Grafana Labs ships Grafana."]
    ingest_records(NS, [PassageRecord(f"e{i}", text, "x") for i, text in enumerate(names)])
    report = resolve(NS, cap=0)
    assert report.queued == 0 and report.deferred > 0  # no room for entity questions
    assert (report.contradictions_queued, report.duplicates_queued) == (4, 1)
    kinds = [q.kind for q in pending(NS)]
    assert sorted(kinds) == ["contradiction"] * 4 + ["duplicate"]
    again = resolve(NS, cap=0, full=True)  # searched again: all asked before
    assert again.contradictions_queued == 0 and again.memory_skipped_settled == 5
    assert resolve(NS, cap=0).memory_unchanged  # nothing changed: not searched


def question(left: str) -> int:
    return next(q.id for q in pending(NS) if q.left_name == left)


def test_merge_keeps_the_newer_and_revert_restores_the_older_exactly(story):
    resolve(NS)
    before = graph_rows()
    assert any(c.entity.name == "Acme Gateway" for c in related(NS, "Nimbus Console").co_mentions) is False
    decision = decisions.answer(NS, question("t1"), "merge", "alice", "cli")
    assert Passage.get(Passage.external_id == "t1").retired_at is not None
    assert Passage.get(Passage.external_id == "t2").retired_at is None
    assert related(NS, "Acme Gateway").target.mentions == 1
    decisions.revert(NS, decision.id, "alice", "cli")
    assert Passage.get(Passage.external_id == "t1").retired_at is None
    assert related(NS, "Acme Gateway").target.mentions == 2
    assert graph_rows() == before
    assert Question.get_by_id(question("t1")).status == "pending"


def test_merge_can_keep_the_older(story):
    resolve(NS)
    decisions.answer(NS, question("o1"), "merge", "alice", "cli", keep="left")
    assert Passage.get(Passage.external_id == "o2").retired_at is not None


def test_reject_is_remembered_and_survives_a_rebuild(story):
    resolve(NS)
    decisions.answer(NS, question("d1"), "reject", "alice", "cli")
    decisions.answer(NS, question("n1"), "keep_both", "alice", "cli")
    rebuild(NS)
    report = resolve(NS)
    assert report.duplicates_queued == 0 and report.contradictions_queued == 0
    assert {q.left_name for q in pending(NS) if q.kind != "entity_pair"} == {"t1", "o1", "x1"}


def test_a_question_whose_passage_was_retired_becomes_moot(story):
    resolve(NS)
    ingest_records(NS, [PassageRecord("t2", "The Acme Gateway request timeout is 90 seconds.", "chat")])
    assert "t1" not in {q.left_name for q in pending(NS)}  # settled by the ingest that retired t2's text
    report = resolve(NS)
    assert report.memory_moot == 0


def test_already_decided_passage_question_is_not_applied_twice(story):
    resolve(NS)
    q = question("t1")
    decisions.answer(NS, q, "merge", "alice", "cli")
    with pytest.raises(decisions.AlreadyDecided, match="already decided by alice"):
        decisions.answer(NS, q, "merge", "bob", "cli")


def test_single_valued_predicates_come_from_the_settings_file(story, tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text('[conflicts]\nsingle_valued = ["status"]\n')
    monkeypatch.setenv("MEMO_TUI_CONFIG", str(config))
    assert ("o1", "o2") not in found()


def test_cli_queue_shows_the_kind(story, run_cli):
    run_cli("resolve")
    code, out, _ = run_cli("queue")
    assert code == 0 and "contradiction" in out and "duplicate" in out and "t1 / t2" in out


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("We no longer use Redis 7 for sessions", ["we", "use", "redis", "0", "for", "sessions"]),
        ("It isn't deprecated: v2.1-beta ships in 3 days", ["it", "0", "ships", "in", "0", "days"]),
        ("Set don't-care bits, not/never", ["set", "care", "bits"]),  # a negation inside a word goes, the rest stays
        ("Bump abc-12 to the 1..10 range", ["bump", "abc-0", "to", "the", "0", "0", "range"]),
        ("A piano longer than 2--3 metres", ["a", "piano", "longer", "than", "0", "0", "metres"]),
        ("Naïve nobody never shipped Straße", ["naïve", "shipped", "strasse"]),  # letters only: left as they are
    ],
)
def test_words_are_masked_one_by_one_and_no_longer_as_a_whole(text, masked):
    assert masked_ids(text) == [_word_id(word) for word in masked]
    assert masked_ids(text, words(text)) == masked_ids(text)  # the words handed in, as both searches do


def test_three_numbers_in_a_row_make_one_3_gram_wherever_they_are():
    made = grams([[1, 2, 3, 1, 2, 3], [7, 8], [9, 1, 2, 3]]).sets()
    assert len(made[0]) == 3  # (1 2 3), (2 3 1), (3 1 2): a repeat counts once
    assert made[1] == set()  # fewer than three numbers
    assert len(made[2]) == 2 and made[2] & made[0]  # (1 2 3) is one number in both lists
    top = 2**63  # a multiply keeps a number's top bit to itself: the hash must not lose it
    assert len(set().union(*grams([[5, top, top], [5, 0, 0], [5, top, 0], [5, 0, top]]).sets())) == 4


def test_a_full_search_keeps_each_prefix_in_the_order_a_later_search_makes_it():
    """A later search is exact only if the prefixes kept of the old passages are in the order it
    makes new passages' prefixes in (`conflict_search.prefix`, under the counts kept)."""
    rng = random.Random(3)
    sets = [{rng.randrange(400) for _ in range(rng.randrange(0, 40))} for _ in range(600)]
    for tokens_of in sets[::2]:  # and tokens no other set holds (most of a real passage's)
        tokens_of.update(rng.randrange(10**6, 10**12) for _ in range(rng.randrange(0, 40)))
    held = Counter(token for tokens in sets for token in tokens)
    for threshold in (DUPLICATE_JACCARD, conflicts.NEAR_JACCARD):
        order, tokens, ends = Plan(Packed.of(sets), threshold).kept()
        assert order == {token: count for token, count in held.items() if count > 1}
        starts = [0, *ends[:-1].tolist()]
        for tokens_of, start, end in zip(sets, starts, ends.tolist(), strict=True):
            assert tokens[start:end].tolist() == conflict_search.prefix(tokens_of, order, threshold)


@pytest.mark.parametrize("pairs_step", [None, 7])  # 7: candidate pairs expanded a few at a time, as a template's are
def test_the_index_finds_every_pair_brute_force_finds(pairs_step, monkeypatch):
    if pairs_step:
        monkeypatch.setattr(similar_sets, "_PAIRS_STEP", pairs_step)
    rng = random.Random(11)
    vocabulary = [f"w{i}" for i in range(400)]
    texts = []
    for _ in range(1500):
        texts.append([rng.choice(vocabulary) for _ in range(rng.randrange(8, 30))])
    for _ in range(500):  # near copies with a few words changed, dropped or added
        copy = list(rng.choice(texts))
        for _ in range(rng.randrange(0, 4)):
            at = rng.randrange(len(copy))
            choice = rng.randrange(3)
            if choice == 0:
                copy[at] = rng.choice(vocabulary)
            elif choice == 1 and len(copy) > 8:
                del copy[at]
            else:
                copy.insert(at, rng.choice(vocabulary))
        texts.append(copy)
    sets = [dup for dup, _ in passage_sets([" ".join(t) for t in texts], [False] * len(texts))]
    indexed = similar_pairs(Packed.of(sets), DUPLICATE_JACCARD)
    brute = {(i, j) for i, j in combinations(range(len(sets)), 2) if jaccard(sets[i], sets[j]) >= DUPLICATE_JACCARD}
    assert len(brute) > 100
    assert set(indexed) == brute


def test_the_two_process_search_finds_what_the_single_process_one_finds(story, monkeypatch):
    copies = [
        PassageRecord(f"c{i}", f"{record.text} Copied for the archive.", "archive") for i, record in enumerate(STORY)
    ]
    ingest_records(NS, copies)
    monkeypatch.setattr(conflicts, "PARALLEL_MIN", 10**9)
    single = [(f.kind, f.left, f.right, f.rule) for f in find_conflicts(NS)]
    monkeypatch.setattr(conflicts, "PARALLEL_MIN", 1)
    assert [(f.kind, f.left, f.right, f.rule) for f in find_conflicts(NS)] == single
    assert len(single) > 5


def ids_of(findings) -> set[tuple[str, str]]:
    by_id = {p.id: p.external_id for p in Passage.select()}
    return {(by_id[f.left], by_id[f.right]) for f in findings}


def test_ids_hashes_dates_and_package_versions_inside_names_are_not_values(store):
    ingest_records(
        NS,
        [
            PassageRecord("h1", "antchain-ak-16850fb7b8: Ant Chain SDK for ak_16850fb7b8 keys, Python 3 client.", "a"),
            PassageRecord("h2", "antchain-ak-912f8ba016: Ant Chain SDK for ak_912f8ba016 keys, Python 3 client.", "b"),
            PassageRecord("v1", "libxcursor (1:1.1.11-2) unstable: rebuild against the new Xorg server.", "c"),
            PassageRecord("v2", "libxrandr (2:1.3.1-2) unstable: rebuild against the new Xorg server.", "d"),
            PassageRecord("d1", "Alibaba Cloud ActionTrail (20150928) SDK for Python, the Audit Log client.", "e"),
            PassageRecord("d2", "Alibaba Cloud ActionTrail (20171204) SDK for Python, the Audit Log client.", "f"),
        ],
    )
    assert not [f for f in find_conflicts(NS) if f.kind == "contradiction"]


def test_the_same_words_in_another_order_are_no_contradiction_though_a_value_differs(store):
    """Each text has every word as often as the other, but for the value: the words that moved differ
    too, so the pair is not one statement with another value."""
    tail = (
        "on every route of the shared edge cluster in the east region, as the operations team agreed at the"
        " review of the quarterly capacity plan for the gateway fleet last week"
    )  # long enough that the first two look alike once the values are masked
    ingest_records(
        NS,
        [
            PassageRecord("m1", f"Helix Router sends 30 requests to Quartz Ledger {tail}.", "a", at("2026-02-01")),
            PassageRecord("m2", f"Quartz Ledger sends 60 requests to Helix Router {tail}.", "b", at("2026-02-02")),
            PassageRecord("m3", f"Helix Router sends 90 requests to Quartz Ledger {tail}.", "c", at("2026-02-03")),
        ],
    )
    pairs = {(f.left_name, f.right_name, f.rule) for f in find_conflicts(NS) if f.kind == "contradiction"}
    assert pairs == {("m1", "m3", "differs-number")}


def test_a_series_on_one_template_is_a_timeline_not_n_squared_conflicts(store):
    bumps = [("1.0.0", "2.0.0"), ("2.0.0", "3.0.0"), ("3.0.0", "4.0.0"), ("4.0.0", "5.0.0")]
    ingest_records(
        NS,
        [
            PassageRecord(f"b{i}", f"Bump the Quartz Ledger client from {a} to {b} in the Helix Router.", "bot")
            for i, (a, b) in enumerate(bumps)
        ],
    )
    assert find_conflicts(NS) == []


def test_two_updates_where_the_newer_starts_from_the_older_value_are_a_timeline(store):
    ingest_records(
        NS,
        [
            PassageRecord("u1", "Bump the Quartz Ledger client from 4.2.0 to 5.0.0 in the Helix Router.", "bot"),
            PassageRecord("u2", "Bump the Quartz Ledger client from 5.0.0 to 6.0.0 in the Helix Router.", "bot"),
        ],
    )
    assert find_conflicts(NS) == []


def test_a_family_of_repeats_is_one_finding(store):
    text = "Deploys of the Nimbus Console need a green build on main and a second reviewer"
    ingest_records(NS, [PassageRecord(f"r{i}", f"{text}{'!' * i}", f"source{i}") for i in range(1, 6)])
    (finding,) = find_conflicts(NS)
    assert finding.kind == "duplicate" and "one of 5 near-identical passages" in finding.reason
    assert ids_of([finding]) == {("r4", "r5")}  # the newest two


def test_a_revert_negates_the_passage_it_names(store):
    ingest_records(
        NS,
        [
            PassageRecord("c1", "Use the Quartz Ledger cache for exports\n\nIt halves the export time.", "dev"),
            PassageRecord(
                "c2", 'Revert "Use the Quartz Ledger cache for exports"\n\nThe cache served stale rows.', "dev"
            ),
        ],
    )
    (finding,) = find_conflicts(NS)
    assert (finding.kind, finding.rule) == ("contradiction", "revert") and finding.reason == (
        'c2 undoes "Use the Quartz Ledger cache for exports" (c1): the change it made no longer holds'
    )


def test_boilerplate_names_give_no_impact(store):
    sign_off = "Signed-off-by: Release Bot"
    ingest_records(
        NS,
        [PassageRecord(f"n{i}", f"Routine note {i} about Filler{i}Thing. {sign_off}", "x") for i in range(150)]
        + [
            PassageRecord("t1", f"The Acme Gateway request timeout is 30 seconds. {sign_off}", "wiki"),
            PassageRecord("t2", f"The Acme Gateway request timeout is 60 seconds. {sign_off}", "chat"),
        ],
    )
    (finding,) = [f for f in find_conflicts(NS) if f.kind == "contradiction"]
    assert finding.impact == 2  # Acme Gateway's two passages; the sign-off in 152 passages counts for nothing


def test_conflicts_are_ranked_beside_names_by_expected_yield(story):
    resolve(NS)
    rows = [(q.kind, q.likelihood, q.priority) for q in pending(NS)]
    assert all(0 < likelihood <= 1 and priority > 0 for _, likelihood, priority in rows)
    assert [p for *_, p in rows] == sorted((p for *_, p in rows), reverse=True)


def passage_question(left: str, right: str) -> int:
    a, b = (Passage.get(Passage.external_id == x) for x in (left, right))
    return Question.create(
        namespace=NS, kind="duplicate", left_id=a.id, right_id=b.id, left_name=left, right_name=right,
        score=0.9, rule="duplicate-3gram", reason="made by a test",
    ).id  # fmt: skip


def test_questions_about_a_passage_just_retired_go_moot_at_once_and_a_revert_reopens_them(story):
    first = passage_question("d1", "d2")
    other = passage_question("d1", "r1")
    merged = decisions.answer(NS, first, "merge", "alice", "cli", keep="right")  # retires d1
    assert Question.get_by_id(other).status == "moot"
    with pytest.raises(decisions.AlreadyDecided):
        decisions.answer(NS, other, "merge", "alice", "cli")
    decisions.revert(NS, merged.id, "alice", "cli")
    assert Question.get_by_id(other).status == "pending"


def test_forgetting_a_passage_settles_its_questions(story):
    q = passage_question("d1", "d2")
    forget(NS, "d2")
    assert Question.get_by_id(q).status == "moot"


def test_a_review_that_retires_a_passage_leaves_the_store_lint_clean(store):
    from memo_tui.engine.graph.lint import lint

    text = "Deploys of the Nimbus Console need a green build on main and a second reviewer"
    ingest_records(
        NS,
        [
            PassageRecord("o", f"{text}, says the Summit Vault runbook.", "wiki", at("2026-01-01")),
            PassageRecord("n", f"{text}, says the runbook.", "chat", at("2026-02-01")),
        ],
    )
    resolve(NS)
    (q,) = [q for q in pending(NS) if q.kind == "duplicate"]
    decision = decisions.answer(NS, q.id, "merge", "alice", "cli")  # retires "o", the only one naming Summit Vault
    assert lint(NS) == []
    decisions.revert(NS, decision.id, "alice", "cli")
    assert lint(NS) == []


def test_a_new_revision_of_a_passage_settles_the_questions_about_the_old_one(story):
    q = passage_question("d1", "d2")
    ingest_records(NS, [PassageRecord("d2", "Deploys of the Nimbus Console now need two reviewers.", "slack")])
    assert Question.get_by_id(q).status == "moot"


def test_template_text_is_paired_by_what_else_it_shares_and_exactly():
    """Passages from one template all look alike once numbers are masked; only those naming nearly
    the same entities can contradict each other, and the search finds those without handing out
    every pair of the template (the brute force below is the reference)."""
    import random

    from memo_tui.engine.conflicts import (
        NEAR_JACCARD,
        SAME_ENTITIES,
        jaccard,
        near_pairs,
    )

    rng = random.Random(7)
    texts, entity_sets = [], []
    for i in range(600):
        part = rng.randrange(200)  # a part named by three passages on average
        texts.append(f"Order {i} of part {part} ships from the Acme warehouse in {rng.randrange(9)} days.")
        entity_sets.append({part, 1000} if rng.random() < 0.9 else {1000})  # 1000: a hub most passages name
    found = near_pairs(texts, entity_sets)
    masked = [near for _, near in passage_sets(texts)]
    brute = {
        (i, j)
        for i in range(len(texts))
        for j in range(i + 1, len(texts))
        if jaccard(masked[i], masked[j]) >= NEAR_JACCARD and jaccard(entity_sets[i], entity_sets[j]) >= SAME_ENTITIES
    }
    assert set(found) == brute and brute
    by_text, by_entity = Plan(Packed.of(masked), NEAR_JACCARD).cost, Plan(Packed.of(entity_sets), SAME_ENTITIES).cost
    assert by_text > 100 * len(texts) > by_entity  # the text index would hand out every pair; the entities few


def test_a_passage_that_names_nothing_is_left_out_of_the_contradiction_search():
    """Only passages naming nearly the same entities can contradict each other: one that names none
    is neither paired nor indexed for it (its masked 3-grams are not made), though its text says the
    same with another number."""
    from memo_tui.engine.conflicts import near_pairs

    texts = [f"The Acme Gateway timeout is {n} seconds for the billing service and its workers." for n in (30, 60, 90)]
    kept: list = []
    found = near_pairs(texts, [{1, 2}, {1, 2}, set()], kept)
    _, _, ends = kept[0]
    assert set(found) == {(0, 1)}
    assert ends[0] > 0 and ends[1] > ends[0] and ends[2] == ends[1]  # the third keeps no prefix


def test_a_pass_skips_the_passage_search_when_nothing_it_reads_changed(store):
    def timeout_passage(n: int, seconds: int, when: str) -> PassageRecord:
        text = f"The Acme Gateway timeout is {seconds} seconds for the billing service and its workers."
        return PassageRecord(f"t{n}", text, "wiki", created_at=at(when))

    ingest_records(NS, [timeout_passage(1, 30, "2026-01-01")])
    first = resolve(NS)
    assert not first.memory_unchanged
    again = resolve(NS)
    assert again.memory_unchanged and again.contradictions_queued == 0
    assert resolve(NS, full=True).contradictions_queued == 0  # a full search finds nothing the skip missed
    ingest_records(NS, [timeout_passage(2, 60, "2026-02-01")])  # a write the search reads: it runs again
    after = resolve(NS)
    assert not after.memory_unchanged and after.contradictions_queued == 1


# -- timelines: one value that changed more than once ------------------------------------------------


def job_timeout(n: int, seconds: int, day: str, source: str = "wiki") -> PassageRecord:
    return PassageRecord(f"j{n}", f"The Harbor job timeout is {seconds} s for the nightly export.", source, at(day))


TIMELINE = [
    job_timeout(1, 30, "2026-01-10"),
    job_timeout(2, 45, "2026-02-02", "chat"),
    job_timeout(3, 90, "2026-03-01"),
]
TIMELINE_REASON = (
    "Harbor job timeout took 3 values from 2026-01-10 to 2026-03-01: "
    "30 s (2026-01-10) → 45 s (2026-02-02) → 90 s (2026-03-01); which is current?"
)


def items() -> list:
    from memo_tui.engine.review.clusters import group

    return group(NS, pending(NS))


def live() -> list[str]:
    return sorted(p.external_id for p in Passage.select().where(Passage.retired_at.is_null()))


def test_a_value_that_changed_twice_is_one_item_that_keeps_the_newest_and_reverts_as_one(store):
    from memo_tui.engine.review import clusters

    ingest_records(NS, TIMELINE)
    resolve(NS)
    [item] = [q for q in items() if q.kind != "entity_pair"]
    assert (item.kind, item.rule, item.reason) == ("passage_family", "timeline, 3 passages", TIMELINE_REASON)
    assert [m.name for m in item.members] == ["j3", "j2", "j1"]  # the newest is the one kept by default
    before = graph_rows()
    decision = clusters.answer_item(NS, item.id, "merge", "alice", "cli")
    assert live() == ["j3"] and not [q for q in pending(NS) if q.kind != "entity_pair"]
    decisions.revert(NS, decision.id, "alice", "cli")
    assert live() == ["j1", "j2", "j3"] and graph_rows() == before
    [again] = [q for q in items() if q.kind != "entity_pair"]
    assert again.reason == TIMELINE_REASON


def test_a_timeline_can_keep_an_older_value_and_a_pass_retires_nothing_by_itself(store):
    from memo_tui.engine.review import clusters

    ingest_records(NS, TIMELINE)
    resolve(NS)
    resolve(NS, full=True)
    assert live() == ["j1", "j2", "j3"]  # only a person's answer retires a person's passage
    [item] = [q for q in items() if q.kind != "entity_pair"]
    older = Passage.get(Passage.external_id == "j2").id
    clusters.answer_item(NS, item.id, "merge", "alice", "cli", canonical=older)
    assert live() == ["j2"]


def test_a_timeline_that_grows_is_still_one_item_incrementally_as_in_full(store):
    ingest_records(NS, TIMELINE[:2])
    resolve(NS)
    [pair] = [q for q in pending(NS) if q.kind != "entity_pair"]
    assert (pair.rule, pair.reason) == ("differs-number", "Harbor job timeout: 30 → 45 s")  # changed once: a pair
    ingest_records(NS, TIMELINE[2:])
    resolve(NS)
    [item] = [q for q in items() if q.kind != "entity_pair"]
    assert item.reason == TIMELINE_REASON and len(item.members) == 3


def test_the_queue_shows_each_value_of_a_timeline_with_its_date(store, run_cli):
    from memo_tui.engine.review.clusters import cluster_detail

    ingest_records(NS, TIMELINE)
    run_cli("resolve")
    code, out, _ = run_cli("queue")
    assert code == 0 and "j3 <- j2, j1  timeline, 3 passages" in out and TIMELINE_REASON in out
    [item] = [q for q in items() if q.kind != "entity_pair"]
    detail = cluster_detail(NS, item.id)  # what the review app's card shows above the passages
    assert detail.effect.startswith(TIMELINE_REASON)
    assert [(p.external_id, f"{p.created_at:%Y-%m-%d}") for p in detail.passages] == [
        ("j3", "2026-03-01"), ("j2", "2026-02-02"), ("j1", "2026-01-10")
    ]  # fmt: skip


def test_a_template_written_at_once_or_with_a_counter_or_too_long_is_no_timeline(store):
    when = at("2026-01-01")
    kits = [PassageRecord(f"k{n}", f"{n}: A daily useful kit by WU.", "pypi", when) for n in ("000", "233", "520")]
    builds = [
        PassageRecord(
            f"b{n}", f"Build {500 + n} of the Helix Router passed in {30 + n} minutes.", "ci", at(f"2026-01-0{n}")
        )
        for n in range(1, 5)
    ]  # a counter beside the value: every pair differs in two places
    many = [job_timeout(10 + n, 10 * n, f"2026-{1 + n // 28:02d}-{1 + n % 28:02d}") for n in range(1, 14)]
    ingest_records(NS, kits + builds)
    assert find_conflicts(NS) == []
    ingest_records(NS, many)  # 13 values of one statement: more than one item shows
    assert find_conflicts(NS) == []


# -- reverts -------------------------------------------------------------------------------------------

FLASK = Path(__file__).parent / "data" / "flask-reverts.jsonl"  # real commits of pallets/flask, id: 12 letters
FLASK_REVERTS = {
    ("6347e75deea2", "2aa26fff04a9"),  # Revert "Merge pull request #859 …" names 6347e75d…
    ("2aa26fff04a9", "d4fec1454488"),  # and the revert of that revert names 2aa26fff…
    ("78cd4161f0a2", "1577e1386e73"),
    ("1d4448abe335", "c935eaceafeb"),  # not 12c49c75 "Handle BaseExceptions", a week older, without "(#2222)"
    ("a22d143f96ee", "78b56dbf2cc5"),  # not 732c5b05, another commit with the same subject and date
}


def reverts() -> set[tuple[str, str]]:
    return {(q.left_name, q.right_name) for q in pending(NS) if q.rule == "revert"}


@pytest.mark.parametrize("split", [None, 5])  # 5: the reverts' second half arrives after a first search
def test_a_revert_undoes_the_commit_its_body_names_and_no_other(store, tmp_path, split):
    lines = FLASK.read_text().splitlines(keepends=True)
    for part, chunk in enumerate([lines] if split is None else [lines[:split], lines[split:]]):
        path = tmp_path / f"part{part}.jsonl"
        path.write_text("".join(chunk))
        ingest_paths(NS, [str(path)])
        resolve(NS)
    assert reverts() == FLASK_REVERTS
    assert {(f.left_name, f.right_name) for f in find_conflicts(NS) if f.rule == "revert"} == FLASK_REVERTS


def test_an_issue_or_pull_request_number_is_no_value(store):
    """Six merges of pull requests from one branch over two years, and a commit landed again as
    `… (#5336)`: the numbers that differ are ids, so none of them is a timeline or a contradiction."""
    ingest_paths(NS, [str(FLASK)])
    assert {f.rule for f in find_conflicts(NS)} == {"revert"}


def test_a_revert_that_names_no_commit_undoes_the_newest_earlier_commit_of_its_subject(store):
    commits = [PassageRecord(f"s{n}", "simplify", "dev", at(f"2026-01-0{n}")) for n in (1, 2, 3, 5)]
    undo = PassageRecord("r4", 'Revert "simplify"\n\nBroke the export.', "dev", at("2026-01-04"))
    ingest_records(NS, [*commits, undo])
    resolve(NS)
    assert reverts() == {("s3", "r4")}  # not s1, s2, nor s5, made after it
    later = 'Revert "simplify"\n\nThis reverts commit 5e1d9c0.'  # abbreviated, as people write it
    ingest_records(NS, [PassageRecord("5e1d9c0ffee4", "simplify", "dev", at("2026-02-02")),
                        PassageRecord("r6", later, "dev", at("2026-02-01")),  # the commit it names came later
                        PassageRecord("c0ffee1234ab", "tidy the export", "dev", at("2026-02-03")),
                        PassageRecord("r8", 'Revert "tidy the export"\n\nThis reverts commit c0ffee1.', "dev",
                                      at("2026-02-04"))])  # fmt: skip
    resolve(NS)  # a search of what changed since the last one
    assert reverts() == {("s3", "r4"), ("c0ffee1234ab", "r8")}
    assert ids_of(f for f in find_conflicts(NS) if f.rule == "revert") == reverts()

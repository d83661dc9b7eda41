"""Folds and their exact reverts."""

import json

import pytest
from graphrows import graph_rows

from memo_tui.engine.graph.entities import find
from memo_tui.engine.graph.folds import canonical_order
from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.review import decisions
from memo_tui.errors import MemoError
from memo_tui.store import Alias, Entity, Fold, Mention, Passage, Relation
from memo_tui.text.sources import PassageRecord

NS = "default"


def rec(pid, text, entities=(), relations=()):
    return PassageRecord(
        pid,
        text,
        "story",
        entities=[{"name": n, "type": t} for n, t in entities],
        relations=[{"src": s, "predicate": p, "dst": d, "confidence": 1.0} for s, p, d in relations],
    )


@pytest.fixture
def story(store):
    ingest_records(
        NS,
        [
            rec(
                "s1",
                "Bob fixed the gateway with Robert.",
                [("Bob", "person"), ("Robert", "person")],
                [("Bob", "works_on", "Acme Gateway"), ("Bob", "pairs_with", "Robert")],
            ),
            rec("s2", "Robert reviewed the gateway.", [("Robert", "person")], [("Robert", "works_on", "Acme Gateway")]),
            rec("s3", "Later Bob rewrote the runbook.", [("Bob", "person")]),
        ],
    )
    return store


def entity(name):
    return Entity.get(Entity.name == name)


def mention_in(passage_id, surface):
    return (
        Mention.select().join(Passage).where((Passage.external_id == passage_id) & (Mention.surface == surface)).get()
    )


def fold(absorbed, into, actor="alice"):
    return decisions.manual_fold(NS, absorbed, into, actor, "cli")


def test_fold_moves_every_edge_and_leaves_an_alias(story):
    bob_id = entity("Bob").id
    fold("Bob", "Robert")
    robert = entity("Robert")
    assert not Entity.select().where(Entity.name == "Bob").exists()
    alias = Alias.get(Alias.name == "Bob")
    assert (alias.entity_id, alias.original_id, alias.original_type) == (robert.id, bob_id, "person")
    assert Mention.select().where(Mention.entity == bob_id).count() == 0
    assert Relation.select().where((Relation.src == bob_id) | (Relation.dst == bob_id)).count() == 0


def test_twins_and_self_loops_are_deactivated_and_stamped(story):
    decision = fold("Bob", "Robert")
    fold_id = decision.payload["fold_id"]
    robert = entity("Robert")
    # s1 mentioned both: Bob's mention there is a twin of Robert's.
    s1_mentions = Mention.select().where((Mention.entity == robert.id) & (Mention.surface == "Bob"))
    assert sorted((m.passage.external_id, m.active, m.fold_id) for m in s1_mentions) == [
        ("s1", False, fold_id),
        ("s3", True, None),
    ]
    loop = Relation.get(Relation.predicate == "pairs_with")
    assert (loop.src_id, loop.dst_id, loop.active, loop.fold_id) == (robert.id, robert.id, False, fold_id)
    # Bob works_on (s1) and Robert works_on (s2) come from different passages: both stay active.
    assert Relation.select().where((Relation.predicate == "works_on") & Relation.active).count() == 2


def test_revert_gives_back_the_original_rows(story):
    before = graph_rows()
    decision = fold("Bob", "Robert")
    assert graph_rows() != before
    decisions.revert(NS, decision.id, "alice", "cli")
    assert graph_rows() == before


def test_a_new_mention_of_the_absorbed_spelling_lands_on_the_canonical(story):
    fold("Bob", "Robert")
    ingest_records(NS, [rec("s4", "Bob wrote docs.", [("Bob", None)])])
    assert Entity.select().where(Entity.name == "Bob").count() == 0
    assert mention_in("s4", "Bob").entity.name == "Robert"
    assert find(NS, "Bob").matched_alias == "Bob"


def test_revert_sends_mentions_that_arrived_through_the_alias_back(story):
    decision = fold("Bob", "Robert")
    ingest_records(NS, [rec("s4", "Bob wrote docs.", [("Bob", None)], [("Bob", "owns", "Runbook")])])
    decisions.revert(NS, decision.id, "alice", "cli")
    bob = entity("Bob")
    assert {m.surface for m in Mention.select().where(Mention.entity == entity("Robert").id)} == {"Robert"}
    assert Mention.select().where(Mention.entity == bob.id).count() == 3
    assert Relation.get(Relation.predicate == "owns").src_id == bob.id


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_chained_folds_revert_exactly_in_either_order(story, order):
    ingest_records(NS, [rec("s5", "Rob and Robert and Bob met.", [("Rob", "person")])])
    before = graph_rows()
    first = fold("Bob", "Robert")
    second = fold("Robert", "Rob")  # Bob's alias moves along: chains stay one hop
    assert {a.name: a.entity.name for a in Alias.select()} == {"Bob": "Rob", "Robert": "Rob"}
    made = [first, second]
    for index in order:
        decisions.revert(NS, made[index].id, "alice", "cli")
    assert graph_rows() == before


def test_a_fold_is_not_applied_twice_and_a_revert_not_twice(story):
    decision = fold("Bob", "Robert")
    with pytest.raises(MemoError, match="already one entity"):
        fold("Bob", "Robert")
    decisions.revert(NS, decision.id, "alice", "cli")
    with pytest.raises(MemoError, match="already reverted"):
        decisions.revert(NS, decision.id, "alice", "cli")
    with pytest.raises(MemoError, match="already reverted"):
        decisions.revert_fold(NS, decision.payload["fold_id"], "alice", "cli")


def test_delete_is_refused_while_a_fold_points_at_the_entity(story):
    decision = fold("Bob", "Robert")
    with pytest.raises(MemoError, match="revert them first"):
        decisions.delete(NS, "Robert", "alice", "cli")
    decisions.revert(NS, decision.id, "alice", "cli")
    decisions.delete(NS, "Robert", "alice", "cli")
    assert find(NS, "Robert") is None


def test_delete_reverts_row_for_row(story):
    before = graph_rows()
    decision = decisions.delete(NS, "Acme Gateway", "alice", "cli")
    assert Relation.select().where(Relation.predicate == "works_on").count() == 0
    decisions.revert(NS, decision.id, "alice", "cli")
    assert graph_rows() == before


def test_rename_is_refused_onto_a_live_name_or_an_alias(story):
    with pytest.raises(MemoError, match="already has that name"):
        decisions.rename(NS, "Bob", "Robert", "alice", "cli")
    ingest_records(NS, [rec("s6", "Rob too.", [("Rob", "person")])])
    fold("Rob", "Robert")
    with pytest.raises(MemoError, match="alias of 'Robert'"):
        decisions.rename(NS, "Bob", "Rob", "alice", "cli")


def test_rename_keeps_the_old_spelling_as_an_alias_and_reverts(story):
    decision = decisions.rename(NS, "Acme Gateway", "Acme API Gateway", "alice", "cli")
    ingest_records(NS, [rec("s7", "The gateway again.", [("Acme Gateway", None)])])
    assert mention_in("s7", "Acme Gateway").entity.name == "Acme API Gateway"
    gateway_id = entity("Acme API Gateway").id
    decisions.revert(NS, decision.id, "alice", "cli")
    assert entity("Acme Gateway").id == gateway_id
    assert find(NS, "Acme API Gateway") is None


def test_manual_fold_of_unknown_name_is_one_clear_error(story):
    with pytest.raises(MemoError, match="no entity named 'Bobby'"):
        fold("Bobby", "Robert")


def test_canonical_is_the_side_with_more_mentions_then_longer_name(story):
    canonical, absorbed = canonical_order(entity("Bob"), entity("Robert"))
    assert (canonical.name, absorbed.name) == ("Robert", "Bob")  # 2 passages each; longer name wins
    ingest_records(NS, [rec("s8", "Bob again.", [("Bob", None)])])
    canonical, _ = canonical_order(entity("Robert"), entity("Bob"))
    assert canonical.name == "Bob"


def test_fold_records_exact_ids(story):
    decision = fold("Bob", "Robert")
    record = Fold.get_by_id(decision.payload["fold_id"])
    data = json.loads(record.record)
    moved = set(data["mentions"])
    assert moved == {m.id for m in Mention.select().where(Mention.surface == "Bob")}
    assert len(data["deactivated_mentions"]) == 1 and len(data["deactivated_relations"]) == 1

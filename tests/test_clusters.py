"""Clusters: a family of spellings (or of near-identical passages) is one queue item, answered once."""

import json

import pytest
from graphrows import ask, dashboard_family, graph_rows

from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.review import clusters, decisions, undo
from memo_tui.engine.review.queue import pending
from memo_tui.errors import MemoError
from memo_tui.store import Entity, Passage, Question
from memo_tui.text.sources import PassageRecord, parse_time

NS = "default"


@pytest.fixture
def family(store):
    """Four spellings of one dashboard, the fourth asked beside one of the others only
    (`graphrows.dashboard_family`)."""
    dashboard_family()
    return store


def items():
    return clusters.group(NS, pending(NS))


def names():
    return sorted(e.name for e in Entity.select())


def test_a_family_of_spellings_is_one_item_with_its_members(family):
    questions = [q for q in pending(NS) if q.kind == "entity_pair"]
    assert len(questions) == 4
    [item] = items()
    assert item.kind == "name_cluster" and item.id == min(q.id for q in questions)
    assert sorted(item.questions) == sorted(q.id for q in questions)
    assert item.left_name == "Ops Dashboard" == item.members[0].name  # the most passages
    assert sorted(m.name for m in item.members) == ["Ops Dashboard", "OpsDashboard", "ops-dashboard", "ops_dashboard"]
    far = next(m for m in item.members if m.name == "ops_dashboard")
    assert far.via == "ops-dashboard"  # asked only beside ops-dashboard: its chain goes through it
    near = next(m for m in item.members if m.name == "ops-dashboard")
    assert far.likelihood == pytest.approx(near.likelihood * Question.get_by_id(far.question_id).likelihood)
    assert item.priority == pytest.approx(sum(q.priority for q in questions))


def test_folding_a_cluster_is_one_decision_that_reverts_as_one(family):
    before = graph_rows()
    [item] = items()
    decision = clusters.answer_cluster(NS, item.id, "merge", "alice", "cli")
    assert decision.action == "cluster"
    assert names() == ["Ops Dashboard"]
    assert all(Question.get_by_id(q).status in ("merged", "moot") for q in item.questions)
    assert items() == []
    assert len(decision.payload["decisions"]) == 3  # one fold per spelling
    decisions.revert(NS, decision.id, "alice", "cli")
    assert graph_rows() == before
    assert all(Question.get_by_id(q).status == "pending" for q in item.questions)
    [again] = items()
    assert again.id == item.id and again.members == item.members


def test_undo_and_redo_of_a_cluster_and_each_fold_alone(family):
    [item] = items()
    decision = clusters.answer_cluster(NS, item.id, "merge", "alice", "tui")
    undo.undo_last(NS, "alice", "tui")
    assert len(names()) == 4
    redone = undo.redo_last(NS, "alice", "tui")
    assert redone.action == "cluster" and redone.id != decision.id and names() == ["Ops Dashboard"]
    # one member's fold reverted alone from the history: only that spelling comes back
    children = [d for d in decisions.history(NS) if d.id in redone.payload["decisions"]]
    child = next(d for d in children if d.payload["absorbed"]["name"] == "OpsDashboard")
    decisions.revert(NS, child.id, "alice", "tui")
    assert names() == ["Ops Dashboard", "OpsDashboard"]


def test_unchecked_members_stay_asked_or_are_marked_different(family):
    [item] = items()
    ids = {m.name: m.id for m in item.members}
    clusters.answer_cluster(NS, item.id, "merge", "alice", "cli", members=[ids["ops-dashboard"]])
    assert "ops-dashboard" not in names() and {"OpsDashboard", "ops_dashboard"} <= set(names())
    left = [q for q in pending(NS) if q.kind == "entity_pair"]
    assert left and all("Ops Dashboard" in (q.left_name, q.right_name) for q in left)  # they follow the fold
    [rest] = items()
    assert rest.kind == "name_cluster"
    decision = clusters.answer_cluster(NS, rest.id, "merge", "alice", "cli", members=[], mark_rest=True)
    assert pending(NS) == [] and "marked different" in decision.summary
    assert decisions.kept_apart(NS, ids["Ops Dashboard"], ids["OpsDashboard"]) is not None


def test_a_member_kept_apart_is_not_folded_and_its_questions_settle(store):
    people = [{"name": n, "type": "person"} for n in ("Priya Raman", "PR", "Priya R.")]
    ingest_records(NS, [PassageRecord("p1", "Ask her about the ledger.", "a", entities=people)])
    rejected = ask("Priya Raman", "PR")
    decisions.answer(NS, rejected, "reject", "alice", "cli")
    ask("PR", "Priya R.")
    ask("Priya R.", "Priya Raman")
    [item] = items()
    pr = next(m for m in item.members if m.name == "PR")
    assert item.left_name == "Priya Raman" and pr.kept_apart
    decision = clusters.answer_cluster(NS, item.id, "merge", "alice", "cli")
    assert "Priya R." not in names() and {"PR", "Priya Raman"} <= set(names())
    assert "kept apart" in decision.summary
    assert [q for q in pending(NS) if q.kind == "entity_pair"] == []  # PR / Priya R. fell on a kept-apart pair


def test_a_chosen_canonical_takes_the_others(family):
    [item] = items()
    chosen = next(m.id for m in item.members if m.name == "ops-dashboard")
    clusters.answer_cluster(NS, item.id, "merge", "alice", "cli", canonical=chosen)
    assert names() == ["ops-dashboard"]


def test_reject_on_a_cluster_rejects_every_question_as_one_batch(family):
    [item] = items()
    decision = clusters.answer_item(NS, item.id, "reject", "alice", "cli")
    assert decision.action == "batch" and sorted(decision.payload["questions"]) == sorted(item.questions)
    assert all(Question.get_by_id(q).status == "rejected" for q in item.questions)


def test_a_question_that_does_not_lead_a_cluster_is_answered_alone(family):
    [item] = items()
    other = max(item.questions)
    assert clusters.led_by(NS, other) is None
    clusters.answer_item(NS, other, "reject", "alice", "cli")
    assert Question.get_by_id(other).status == "rejected" and len(names()) == 4
    with pytest.raises(MemoError, match="does not lead a cluster"):
        clusters.answer_cluster(NS, other, "merge", "alice", "cli")


def test_a_connected_part_too_big_to_be_one_name_stays_pairs(store, monkeypatch):
    monkeypatch.setattr(clusters, "MAX_MEMBERS", 3)
    ingest_records(NS, [PassageRecord(f"p{i}", f"We use Tool{'X' * i} daily.", "a") for i in range(1, 5)])
    for i in range(1, 4):
        ask(f"Tool{'X' * i}", f"Tool{'X' * (i + 1)}")
    assert [q.kind for q in items()] == ["entity_pair"] * 3
    assert clusters.led_by(NS, min(q.id for q in items())) is None


def _family_of_passages():
    texts = ["The Acme Gateway timeout is 30 seconds.", "The Acme Gateway timeout is 45 seconds.",
             "The Acme Gateway timeout is 60 seconds."]  # fmt: skip
    ingest_records(NS, [PassageRecord(f"t{i}", text, "wiki", created_at=parse_time(f"2026-0{i + 1}-01"))
                        for i, text in enumerate(texts)])  # fmt: skip
    ids = [Passage.get(Passage.external_id == f"t{i}").id for i in range(3)]
    for left, right in ((ids[0], ids[1]), (ids[1], ids[2])):
        Question.create(namespace=NS, kind="contradiction", left_id=left, right_id=right, left_name=f"#{left}",
                        right_name=f"#{right}", score=0.9, rule="differs-number", reason="timeout changed")  # fmt: skip
    return ids


def live_passages():
    return sorted(p.external_id for p in Passage.select().where(Passage.retired_at.is_null()))


def test_a_family_of_passages_keeps_the_newest_and_reverts_as_one(store):
    ids = _family_of_passages()
    [item] = items()
    assert item.kind == "passage_family" and item.left_id == ids[2]  # the newest
    detail = clusters.cluster_detail(NS, item.id)
    assert detail.passages[0].external_id == "t2"
    decision = clusters.answer_cluster(NS, item.id, "merge", "alice", "cli")
    assert live_passages() == ["t2"] and pending(NS) == []
    decisions.revert(NS, decision.id, "alice", "cli")
    assert live_passages() == ["t0", "t1", "t2"] and len(pending(NS)) == 2
    undo.redo_last(NS, "alice", "cli")
    assert live_passages() == ["t2"]


def test_a_family_can_keep_an_older_passage(store):
    ids = _family_of_passages()
    [item] = items()
    clusters.answer_cluster(NS, item.id, "merge", "alice", "cli", canonical=ids[0])
    assert live_passages() == ["t0"]


def test_cli_queue_json_and_merge_on_a_cluster(family, run_cli):
    code, out, _ = run_cli("queue", "--json")
    [item] = json.loads(out)
    assert code == 0 and item["kind"] == "name_cluster" and len(item["members"]) == 4
    assert {"name", "type", "passages", "likelihood", "reason", "via"} <= set(item["members"][0])
    code, out, err = run_cli("graph", "merge", str(item["id"]), "--except", "ops_dashboard", "--mark-rest")
    assert code == 0, err
    assert names() == ["Ops Dashboard", "ops_dashboard"] and "marked different" in out
    code, out, _ = run_cli("graph", "undo")
    assert code == 0 and len(names()) == 4
    code, _, err = run_cli("graph", "merge", str(item["id"]), "--except", "nope")
    assert code != 0 and "'nope' is not a member" in err and len(err.strip().splitlines()) == 1
    code, _, _ = run_cli("graph", "merge", str(item["id"]), "--pair")
    assert code == 0 and len(names()) == 3  # the lead question's own pair only


def test_an_agents_proposal_never_links_a_cluster(family):
    from memo_tui.engine.proposals import propose

    ingest_records(NS, [PassageRecord("x1", "The Ops Dash board runs on the old cluster.", "a",
                                      entities=[{"name": "Ops Dash board"}])])  # fmt: skip
    [before] = items()
    proposal, _ = propose(NS, "ops-dashboard", "Ops Dash board", "keep_apart", "a different board", "agent-x")
    shown = items()
    cluster = next(q for q in shown if q.members)
    assert cluster.members == before.members and proposal.id not in cluster.questions
    assert any(q.id == proposal.id and not q.members for q in shown)  # the proposal stands as its own pair
    clusters.answer_cluster(NS, cluster.id, "merge", "alice", "cli")
    assert "Ops Dash board" in names() and Question.get_by_id(proposal.id).status == "pending"


def test_redo_after_reverting_a_cluster_keeps_a_member_reverted_alone_out(family):
    [item] = items()
    decision = clusters.answer_cluster(NS, item.id, "merge", "alice", "cli")
    child = next(d for d in decisions.history(NS) if d.id in decision.payload["decisions"]
                 and d.payload["absorbed"]["name"] == "OpsDashboard")  # fmt: skip
    decisions.revert(NS, child.id, "alice", "cli")  # the reviewer takes one spelling back out
    decisions.revert(NS, decision.id, "alice", "cli")
    assert len(names()) == 4
    undo.undo_last(NS, "alice", "cli")  # undo the revert: the cluster's folds, as they stood
    assert names() == ["Ops Dashboard", "OpsDashboard"]


def test_a_member_kept_both_is_not_folded_through_another_question(family):
    kept = ask("Ops Dashboard", "OpsDashboard")
    decisions.answer(NS, kept, "keep_both", "alice", "cli")
    [item] = items()
    member = next(m for m in item.members if m.name == "OpsDashboard")
    assert member.kept_apart
    decision = clusters.answer_cluster(NS, item.id, "merge", "bob", "cli")
    assert "OpsDashboard" in names() and "kept apart" in decision.summary


def test_a_cluster_changed_since_it_was_shown_is_refused(family):
    [item] = items()
    shown = [m.id for m in item.members]
    ingest_records(NS, [PassageRecord("x1", "The Ops-Dashboards page.", "a", entities=[{"name": "Ops-Dashboards"}])])
    ask("Ops-Dashboards", "OpsDashboard")
    with pytest.raises(MemoError, match="changed since it was shown"):
        clusters.answer_cluster(NS, item.id, "merge", "alice", "tui", mark_rest=True, seen=shown)
    assert len(names()) == 5 and decisions.history(NS) == []


def test_a_deleted_member_leaves_the_cluster(family):
    decisions.delete(NS, "OpsDashboard", "alice", "cli")
    [item] = [q for q in items() if q.members]
    assert "OpsDashboard" not in {m.name for m in item.members} and len(item.members) == 3
    clusters.answer_cluster(NS, item.id, "merge", "alice", "cli")
    assert names() == ["Ops Dashboard"]


def test_cli_refuses_what_would_surprise(family, run_cli):
    [item] = items()
    code, _, err = run_cli("graph", "merge", str(item.id), "--except", "Ops Dashboard")
    assert code != 0 and "a member left out is the canonical 'Ops Dashboard'" in err
    code, out, err = run_cli("graph", "merge", str(item.id), "--except", "OPS_DASHBOARD", "--mark-rest")
    assert code == 0 and "'ops_dashboard' marked different" in out  # one member matches in any case
    assert run_cli("graph", "undo")[0] == 0
    other = max(item.questions)
    code, _, err = run_cli("graph", "reject", str(item.id), str(other))
    assert code != 0 and f"{item.id} leads a cluster of 4" in err and len(names()) == 4


def test_two_members_kept_apart_leave_the_less_likely_one_out(family):
    [item] = items()
    first, second = item.members[1], item.members[2]  # likelier first
    question = ask(first.name, second.name)
    decisions.answer(NS, question, "reject", "alice", "cli")  # a reviewer: these two differ
    [again] = items()
    shown = {m.name: m for m in again.members}
    assert not shown[first.name].kept_apart
    assert shown[second.name].kept_apart and shown[second.name].apart_from == first.name
    done = clusters.answer_cluster(NS, again.id, "merge", "bob", "cli")
    assert second.name in names() and first.name not in names() and "kept apart" in done.summary


@pytest.mark.parametrize("member", ["OpsDashboard", "ops-dashboard", "ops_dashboard"])
def test_reverting_one_member_of_a_merged_cluster_reopens_no_question_its_sides_are_still_one(family, member):
    """The member's fold goes back, and with it the questions that fold had settled, except those
    whose two sides the cluster's other folds still make one entity: those stay settled."""
    from memo_tui.engine.graph import folds

    [item] = items()
    decision = clusters.answer_cluster(NS, item.id, "merge", "alice", "cli")
    child = next(d for d in decisions.history(NS) if d.id in decision.payload["decisions"]
                 and d.payload["absorbed"]["name"] == member)  # fmt: skip
    decisions.revert(NS, child.id, "alice", "cli")
    assert member in names()
    reopened = [q for q in pending(NS) if q.kind == "entity_pair"]
    assert reopened  # the member's own question asks again
    assert all(folds.home_of(q.left_id) != folds.home_of(q.right_id) for q in reopened)

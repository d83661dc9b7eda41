"""The resolution pass: folds, queue, cap and deferral, idempotence, dry runs, settled pairs (issue 4)."""

import json

import pytest
from graphrows import graph_rows, question_between

from memo_tui.core import decisions
from memo_tui.core.ingest import ingest_records
from memo_tui.core.models import Decision, Entity, Question
from memo_tui.core.queue import pending
from memo_tui.core.resolver import resolve
from memo_tui.core.sources import PassageRecord

NS = "default"


def ingest(*texts, entities=()):
    start = Entity.select().count() + 1000 * len(texts)
    records = [PassageRecord(f"p{start}-{i}", text, f"src{i}") for i, text in enumerate(texts)]
    if entities:
        records.append(PassageRecord(f"decl{start}", "declared.", "d", entities=list(entities)))
    ingest_records(NS, records)


@pytest.fixture
def messy(store):
    ingest(
        "We use Claude Code daily; `claude-code` is the npm name and ClaudeCode the repo.",
        "Billing runs on Postgres. An upgrade to PostgreSQL 16 is planned, and Postgres replicas too.",
        "We run PostgreSQL for search and Postgres for billing.",
        "Backups of Mongo run nightly; the rest sits in MongoDB.",
        "Both Kubernetes and Kubernets (typo) show up in notes.",
        "We ship the SHIP report; the Ship team reads it.",
    )
    return store


def names():
    return sorted(e.name for e in Entity.select())


def test_a_pass_folds_the_certain_and_queues_the_uncertain(messy):
    report = resolve(NS)
    assert report.folded == 2
    assert "claude-code" not in names() and "ClaudeCode" not in names() and "Claude Code" in names()
    queued = {frozenset((q.left_name, q.right_name)) for q in pending(NS)}
    assert frozenset(("Postgres", "PostgreSQL")) in queued
    assert frozenset(("Mongo", "MongoDB")) in queued
    assert frozenset(("Kubernetes", "Kubernets")) in queued
    assert report.queued == len(queued)
    folds = Decision.select().where(Decision.action == "fold")
    assert {(d.actor, d.channel) for d in folds} == {("auto", "auto")}


def test_a_second_pass_changes_nothing(messy):
    resolve(NS)
    before, questions = graph_rows(), [q.id for q in pending(NS)]
    report = resolve(NS)
    assert (report.folded, report.queued) == (0, 0)
    assert report.already_queued == len(questions)
    assert graph_rows() == before and [q.id for q in pending(NS)] == questions


def test_a_dry_run_changes_nothing_and_reports_the_same_numbers(messy):
    before = graph_rows()
    dry = resolve(NS, dry_run=True)
    assert graph_rows() == before and Question.select().count() == 0
    real = resolve(NS)
    assert (dry.folded, dry.queued, dry.deferred) == (real.folded, real.queued, real.deferred)


def test_the_cap_defers_and_a_later_pass_admits_as_answers_come_in(messy):
    first = resolve(NS, cap=1)
    assert first.queued == 1 and first.deferred >= 2
    (question,) = pending(NS)
    decisions.answer(NS, question.id, "reject", "alice", "cli")
    second = resolve(NS, cap=1)
    assert second.queued == 1 and second.deferred == first.deferred - 1
    assert second.skipped_settled == 1  # the rejected pair is never asked again


def test_admission_is_by_impact_then_score(store):
    ingest("We saw Elasticsearch and Elasticsaerch once.")
    ingest("We run Kubernetes and Kubernets here.", "We run Kubernetes and Kubernets there.")
    ingest("Billing uses Postgres and search uses PostgreSQL.")
    resolve(NS, cap=10)
    order = [({q.left_name, q.right_name}, q.impact, q.score) for q in pending(NS)]
    assert order[0][:2] == ({"Kubernetes", "Kubernets"}, 2)
    # equal impact: the higher score first (one edit apart beats two edits apart)
    assert [o[0] for o in order[1:]] == [{"Elasticsearch", "Elasticsaerch"}, {"Postgres", "PostgreSQL"}]
    assert order[1][2] > order[2][2]
    first = resolve(NS, cap=10)
    assert first.queued == 0


def test_keep_both_and_reject_survive_new_passes(messy):
    resolve(NS)
    for q in pending(NS):
        decisions.answer(NS, q.id, "keep_both", "alice", "cli")
    report = resolve(NS)
    assert report.queued == 0 and report.skipped_settled >= 3


def test_a_question_whose_sides_were_folded_together_becomes_moot(messy):
    resolve(NS)
    q = next(q for q in pending(NS) if {q.left_name, q.right_name} == {"Postgres", "PostgreSQL"})
    decisions.manual_fold(NS, "PostgreSQL", "Postgres", "alice", "cli")
    report = resolve(NS)
    assert report.moot == 1 and Question.get_by_id(q.id).status == "moot"


def test_fold_groups_respect_declared_types(store):
    ingest(
        "Mercury, mercury and MERCURY.",
        entities=[{"name": "Mercury", "type": "org"}, {"name": "mercury", "type": "tool"}],
    )
    report = resolve(NS)
    assert report.folded == 0 or "mercury" in names()  # org and tool never fold together silently
    assert {"Mercury", "mercury"} <= set(names())


def test_cli_resolve_and_queue_json(run_cli, tmp_path):
    src = tmp_path / "in.jsonl"
    rows = [{"id": "a", "text": "Billing uses Postgres and search uses PostgreSQL."}]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    run_cli("ingest", str(src))
    code, out, _ = run_cli("resolve", "--json")
    assert code == 0 and json.loads(out)["queued"] == 1
    code, out, _ = run_cli("queue", "--json")
    (item,) = json.loads(out)
    assert set(item) >= {"id", "kind", "left_name", "right_name", "score", "rule", "reason", "impact"}
    assert item["kind"] == "entity_pair" and {item["left_name"], item["right_name"]} == {"Postgres", "PostgreSQL"}


def test_a_group_split_by_an_all_capitals_spelling_is_folded_in_one_pass(store):
    # AcmeGateway folds with every spelling, but ACME GATEWAY and Acme Gateway only ask: the best-ranked
    # (most capitals) takes AcmeGateway, and the two that are left still fold with each other.
    ingest("We run ACME GATEWAY, AcmeGateway, Acme Gateway and also `acme gateway`.")
    first = resolve(NS)
    assert first.folded == 2
    assert sorted(names()) == ["ACME GATEWAY", "Acme Gateway"]
    second = resolve(NS)
    assert second.folded == 0 and second.queued == 0


def test_a_keep_apart_is_honoured_inside_a_fold_group(store):
    ingest("We use Claude Code, `claude-code` and ClaudeCode.")
    q = question_between(Entity.get(Entity.name == "claude-code"), Entity.get(Entity.name == "ClaudeCode"))
    decisions.answer(NS, q, "reject", "alice", "cli")
    first = resolve(NS)
    # claude-code folds into Claude Code; ClaudeCode would too, but a reviewer kept it apart from
    # claude-code, which is now part of Claude Code
    assert first.folded == 1
    assert sorted(names()) == ["Claude Code", "ClaudeCode"]
    second = resolve(NS)
    assert (second.folded, second.queued) == (0, 0) and second.skipped_settled == 1

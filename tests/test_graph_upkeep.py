"""Rebuild, lint, passage links and the graph commands."""

import json

import peewee as pw
import pytest
from graphrows import graph_rows, question_between

from memo_tui.engine.graph.links import also_see, relink_all
from memo_tui.engine.graph.lint import lint
from memo_tui.engine.ingest import forget, ingest_records
from memo_tui.engine.rebuild import rebuild
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.engine.review import decisions
from memo_tui.store import Alias, Entity, Fold, Mention, Passage, db
from memo_tui.text.sources import PassageRecord

NS = "default"


@pytest.fixture
def settled(store):
    """Folds (one automatic, one by a reviewer), a rejected pair and a keep-both pair, all decided
    before a rebuild."""
    ingest_records(
        NS,
        [
            PassageRecord("a", "We moved billing to PostgreSQL from Postgres last spring.", "notes"),
            PassageRecord("b1", "The Claude-Code tool reads the Quartz Ledger and the Helix Router.", "notes"),
            PassageRecord("b2", "Claude Code reads the Quartz Ledger and the Helix Router too.", "chat"),
            PassageRecord("c", "The runbook for Atlas Sync covers Kubernetes and Kubernets.", "notes"),
            PassageRecord("d", "Atlas Sync and Atlas Synch run nightly.", "notes"),
        ],
    )
    assert resolve(NS).folded == 1  # Claude-Code into Claude Code
    actions = {("Postgres", "PostgreSQL"): "merge", ("Atlas Sync", "Atlas Synch"): "reject",
               ("Kubernetes", "Kubernets"): "keep_both"}  # fmt: skip
    for (left, right), action in actions.items():
        q = question_between(Entity.get(Entity.name == left), Entity.get(Entity.name == right))
        decisions.answer(NS, q, action, "alice", "cli")
    return store


def entity_names():
    return sorted(e.name for e in Entity.select())


def test_rebuild_keeps_folds_and_settled_pairs(settled):
    folds_before = [(f.id, f.absorbed_name) for f in Fold.select().where(Fold.reverted_at.is_null())]
    assert folds_before, "the fixture should have auto folds"
    names_before = entity_names()
    rebuild(NS)
    assert [(f.id, f.absorbed_name) for f in Fold.select().where(Fold.reverted_at.is_null())] == folds_before
    assert entity_names() == names_before
    report = resolve(NS)
    assert report.queued == 0 and report.folded == 0 and report.skipped_settled == 2
    assert lint(NS) == []


def test_a_fold_reverts_after_a_rebuild(settled):
    fold = Fold.get(Fold.absorbed_name == "Postgres")
    rebuild(NS)
    decisions.revert_fold(NS, fold.id, "alice", "cli")
    postgres = Entity.get(Entity.name == "Postgres")
    assert postgres.id == fold.absorbed_id
    assert [m.passage.external_id for m in postgres.mentions] == ["a"]


def test_an_interrupted_rebuild_leaves_the_old_graph(settled):
    before = graph_rows()

    def stop(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        rebuild(NS, progress=stop)
    assert graph_rows() == before


def test_rebuild_picks_up_declared_entities_and_relations(store):
    record = PassageRecord(
        "x",
        "notes about the move",
        "notes",
        entities=[{"name": "Nimbus Vault", "type": "service"}],
        relations=[{"src": "Nimbus Vault", "predicate": "owned_by", "dst": "Platform Team", "confidence": 1.0}],
    )
    ingest_records(NS, [record])
    before = graph_rows()
    rebuild(NS)
    after = graph_rows()
    assert after["entities"] == before["entities"]
    assert [r[1:] for r in after["relations"]] == [r[1:] for r in before["relations"]]
    assert Entity.get(Entity.name == "Nimbus Vault").type == "service"


def test_lint_is_clean_on_a_healthy_store_and_names_each_broken_thing(settled, run_cli):
    assert run_cli("lint")[0] == 0
    orphan = Entity.create(namespace=NS, name="Ghost Service", identity_key="Ghost Service", merge_key="ghostservice")
    fold = Fold.get(Fold.absorbed_name == "Postgres")
    Alias.delete().where(Alias.fold == fold.id).execute()
    sqlite = isinstance(db.obj, pw.SqliteDatabase)
    # break the store on purpose: foreign keys off (PostgreSQL: triggers, which enforce them, off)
    db.execute_sql("PRAGMA foreign_keys = OFF" if sqlite else "SET session_replication_role = replica")
    try:
        Alias.create(namespace=NS, entity=99999, name="Lost Name", identity_key="Lost Name", attached_to=99999)
        passage = Passage.get(Passage.external_id == "a")
        db.execute_sql(
            "INSERT INTO mention (passage_id, entity_id, surface, surface_key, source, weight, active) "
            f"VALUES ({db.param}, 88888, 'x', 'x', 'capitalised', 1, {'1' if sqlite else 'true'})",
            [passage.id],
        )
    finally:
        db.execute_sql("PRAGMA foreign_keys = ON" if sqlite else "SET session_replication_role = DEFAULT")
    code, out, _ = run_cli("lint", "--json")
    problems = {(p["check"], p["subject"]) for p in json.loads(out)}
    assert code == 1
    assert ("orphan_entity", f"Ghost Service (#{orphan.id})") in problems
    assert ("broken_fold", f"fold {fold.id} (Postgres)") in problems
    assert ("dangling_alias", "Lost Name") in problems
    assert any(check == "dangling_edge" for check, _ in problems)


def test_a_name_only_a_forgotten_passage_used_is_dormant_not_broken(store):
    ingest_records(NS, [PassageRecord("only", "A note on Zephyr Relay.", "notes")])
    forget(NS, "only")
    assert lint(NS) == []  # forgetting is reversible history, not an inconsistency
    Mention.delete().execute()
    assert [p.check for p in lint(NS)] == ["orphan_entity"]  # a name nothing names at all is one


def linked(external_id: str) -> list[str]:
    return [link.external_id for link in also_see(Passage.get(Passage.external_id == external_id).id)]


def test_passages_sharing_two_entities_are_linked_as_they_are_written(store):
    ingest_records(
        NS,
        [
            PassageRecord("p1", "Alice Smith reviewed the Acme Gateway release.", "chat"),
            PassageRecord("p2", "The Acme Gateway timeout was raised by Alice Smith.", "wiki"),
            PassageRecord("p3", "The Acme Gateway has a new dashboard.", "wiki"),
        ],
    )
    assert linked("p1") == ["p2"] and linked("p2") == ["p1"]
    assert linked("p3") == []  # one shared entity is not enough
    ingest_records(NS, [PassageRecord("p4", "Alice Smith paged on the Acme Gateway again.", "chat")])
    assert linked("p4") == ["p2", "p1"]  # equal overlap: the newer passage first


def test_the_fan_out_cap_keeps_the_strongest_overlaps(store):
    weak = [PassageRecord(f"w{i}", f"Atlas Sync and Nimbus Vault note {i}.", "x") for i in range(10)]
    strong = PassageRecord("s", "Atlas Sync, Nimbus Vault and Quartz Ledger.", "x", tags=["Atlas Sync"])
    ingest_records(NS, [strong, *weak])
    newest = PassageRecord("n", "Atlas Sync meets Nimbus Vault and Quartz Ledger.", "x")
    ingest_records(NS, [newest])
    links = linked("n")
    assert len(links) == 8 and links[0] == "s"


def test_a_retired_passage_loses_its_links_and_a_rebuild_restores_links(store, run_cli):
    ingest_records(
        NS,
        [
            PassageRecord("p1", "Alice Smith reviewed the Acme Gateway release.", "chat"),
            PassageRecord("p2", "The Acme Gateway timeout was raised by Alice Smith.", "wiki"),
        ],
    )
    forget(NS, "p2")
    assert linked("p1") == []
    assert relink_all(NS) == 0
    code, out, _ = run_cli("graph", "links", "--rebuild", "--json")
    assert code == 0 and json.loads(out) == {"links": 0}


def test_related_and_explore_commands(settled, run_cli):
    code, out, _ = run_cli("related", "Postgres", "--json")
    data = json.loads(out)
    assert code == 0 and data["matched_alias"] == "Postgres" and data["target"]["name"] == "PostgreSQL"
    code, out, _ = run_cli("explore", "Atlas Sync", "--hops", "2")
    assert code == 0 and "hop 1:" in out and "Kubernetes" in out
    code, _, err = run_cli("related", "Atlas Snyc")
    assert code == 2 and err.strip() == (
        "memo-tui: no entity named 'Atlas Snyc' in namespace 'default'; did you mean 'Atlas Sync'?"
    )
    code, _, err = run_cli("explore", "Atlas Sync", "--as-of", "yesterday")
    assert code == 2 and "--as-of" in err and "Traceback" not in err


def test_metrics_are_prometheus_text_kept_across_runs(settled, run_cli):
    run_cli("related", "Atlas Sync")
    run_cli("related", "Atlas Sync", "--as-of", "2030-01-01")
    code, out, _ = run_cli("metrics")
    lines = out.splitlines()
    assert code == 0
    assert "# TYPE memo_graph_cache_total counter" in lines
    assert 'memo_graph_cache_total{event="build_asof",namespace="default"} 1' in lines
    assert any(line.startswith('memo_graph_build_duration_seconds_count{namespace="default"} ') for line in lines)


def test_an_ingest_links_passages_the_same_without_reading_the_mentions_of_the_names_it_made(store, monkeypatch):
    """The linker does not read back the mentions of entities its chunk created (they are all in the
    chunk): the links are those it writes when it reads them, over many chunks and two ingests, the
    first into an empty namespace (whose entities the ingest then knows without looking them up)."""
    import random

    from memo_tui.engine import ingest
    from memo_tui.engine.graph import links
    from memo_tui.store import PassageLink

    monkeypatch.setattr(ingest, "CHUNK", 40)
    rng = random.Random(7)
    names = [f"Name{n}" for n in range(80)]
    rounds = [
        [
            PassageRecord(f"r{r}p{i}", " and ".join(rng.sample(names[: 40 + 40 * r], rng.randint(2, 4))) + ".", "a")
            for i in range(300)
        ]
        for r in range(2)
    ]
    link = links.Linker.link

    def reading_all(self, new, made=()):  # the same, reading every entity's mentions
        return link(self, new)

    for namespace, linker in (("made-skipped", link), ("read-all", reading_all)):
        monkeypatch.setattr(links.Linker, "link", linker)
        for records in rounds:
            ingest_records(namespace, records)
    external = dict(Passage.select(Passage.id, Passage.external_id).tuples())

    def links_of(namespace):
        rows = (
            PassageLink.select(PassageLink.passage, PassageLink.other, PassageLink.shared, PassageLink.strength)
            .join(Passage, on=(PassageLink.passage == Passage.id))
            .where(Passage.namespace == namespace)
            .tuples()
        )
        return sorted((external[a], external[b], shared, strength) for a, b, shared, strength in rows)

    assert len(links_of("made-skipped")) > 500
    assert links_of("made-skipped") == links_of("read-all")


def test_a_revision_made_within_one_ingest_leaves_no_links_on_the_passage_it_retired(store):
    """Two revisions of a passage in one chunk, or a passage and one that supersedes it: the first is
    retired as the second is written, before the chunk's links are; it gets none, either way (a
    retired passage has none: `unlink`)."""
    from memo_tui.store import PassageLink

    ingest_records(
        NS,
        [
            PassageRecord("p1", "Alice Smith reviewed the Acme Gateway release.", "chat"),
            PassageRecord("p2", "The Acme Gateway timeout was raised by Alice Smith.", "wiki"),
            PassageRecord("p2", "The Acme Gateway timeout was raised again by Alice Smith.", "wiki"),
        ],
    )
    ingest_records(
        NS,
        [
            PassageRecord("p3", "Bob Jones moved the Nimbus Vault backups.", "chat"),
            PassageRecord("p4", "Bob Jones now runs the Nimbus Vault backups.", "chat", supersedes=["p3"]),
        ],
    )
    retired = {p.id for p in Passage.select().where(Passage.retired_at.is_null(False))}
    assert len(retired) == 2
    rows = list(PassageLink.select(PassageLink.passage, PassageLink.other).tuples())
    assert rows and not retired.intersection(x for row in rows for x in row)
    assert linked("p1") == ["p2"] and linked("p4") == []

"""SQLite and PostgreSQL give the same store: one story, one queue and one neighbourhood; and a copy
between them keeps every id, so old folds revert exactly on the copy."""

from __future__ import annotations

from importlib.resources import as_file, files

import pytest
from conftest import drop_pg_database, pg_database
from graphrows import graph_rows

from memo_tui.engine.graph.lint import lint
from memo_tui.engine.graph.neighbourhood import explore, related
from memo_tui.engine.graph.opening import open_second_store, open_store
from memo_tui.engine.ingest import ingest_paths
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.engine.review import decisions
from memo_tui.engine.review.queue import pending
from memo_tui.errors import MemoError
from memo_tui.store import Decision, Entity, Fold, Question, db
from memo_tui.store.copy import copy_namespaces

pytestmark = pytest.mark.slow

NS = "default"


@pytest.fixture
def postgres_url():
    url = pg_database()
    yield url
    if db.obj is not None:
        db.close()
    drop_pg_database(url)


def story() -> dict:
    """The demo corpus ingested and resolved, a few answers given; what a reviewer would see after."""
    with as_file(files("memo_tui") / "demo") as corpus:
        ingest_paths(NS, [str(corpus)])
    resolve(NS)
    queue = pending(NS)
    for question, action in zip(queue[:6], ["merge", "reject", "keep_both", "merge", "reject", "merge"], strict=False):
        decisions.answer(NS, question.id, action, "alice", "cli")
    resolve(NS)
    names = sorted(e.name for e in Entity.select().where(Entity.namespace == NS))
    return {
        "queue": [(q.id, q.kind, q.left_name, q.right_name, q.rule, round(q.likelihood, 9)) for q in pending(NS)],
        "related": {n: related(NS, n).as_dict() for n in names},
        "explore": {n: repr(explore(NS, n, hops=2)) for n in names[:25]},
        "graph": {**graph_rows(), "entities": [row[:4] for row in graph_rows()["entities"]]},  # not the clock
        "lint": lint(NS),
    }


def test_one_story_gives_the_same_queue_and_neighbourhoods_on_both(tmp_path, postgres_url):
    seen = {}
    for name, location in (("sqlite", str(tmp_path / "story.db")), ("postgres", postgres_url)):
        database = open_store(location)
        seen[name] = story()
        database.close()
    assert seen["sqlite"]["queue"] and seen["sqlite"]["lint"] == []
    for part in ("queue", "related", "explore", "graph", "lint"):
        assert seen["postgres"][part] == seen["sqlite"][part], part


@pytest.mark.parametrize("direction", ["sqlite-to-postgres", "postgres-to-sqlite"])
def test_a_copy_keeps_ids_history_and_exact_reverts(tmp_path, postgres_url, direction):
    sqlite = str(tmp_path / "source.db")
    source_at, target_at = (sqlite, postgres_url) if direction == "sqlite-to-postgres" else (postgres_url, sqlite)
    source = open_store(source_at)
    with as_file(files("memo_tui") / "demo") as corpus:
        ingest_paths(NS, [str(corpus)])
    resolve(NS)
    oldest = Fold.select().order_by(Fold.id).first()
    decision = Decision.get(Decision.fold == oldest.id)
    history = sorted(Decision.select(Decision.id, Decision.action, Decision.payload).tuples())
    before_copy = graph_rows()
    target = open_second_store(target_at)
    report = copy_namespaces(source, target, [NS])
    assert report.rows["fold"] == Fold.select().count() > 0
    decisions.revert(NS, decision.id, "alice", "cli")
    rows_at_fold = graph_rows()
    source.close()
    db.initialize(target)
    assert graph_rows() == before_copy
    assert sorted(Decision.select(Decision.id, Decision.action, Decision.payload).tuples()) == history
    decisions.revert(NS, decision.id, "alice", "cli")  # the same old fold, reverted on the copy
    assert graph_rows() == rows_at_fold
    assert lint(NS) == []
    # a new entity never takes an id the source handed out (an absorbed entity's, kept for its revert)
    fresh = Entity.create(namespace=NS, name="Brand New", identity_key="Brand New", merge_key="brandnew")
    assert fresh.id > max(oldest.absorbed_id, oldest.canonical_id)
    assert Question.select().count() == report.rows["question"]
    with pytest.raises(MemoError, match="already holds namespace"):
        copy_namespaces(source, target, [NS])
    target.close()


def test_the_copy_command(tmp_path, postgres_url, capsys):
    from memo_tui.cli import main

    source = str(tmp_path / "cli.db")
    with as_file(files("memo_tui") / "demo") as corpus:
        assert main(["--db", source, "ingest", str(corpus)]) == 0
    assert main(["--db", source, "copy", "--to", postgres_url, "--ns", "nowhere"]) == 2
    assert "no namespace 'nowhere' in this store; it has default" in capsys.readouterr().err
    assert main(["--db", source, "copy", "--to", postgres_url, "--all"]) == 0
    assert capsys.readouterr().out.startswith("copied default: 1 namespace_state, 161 passage")
    stats = []
    for location in (source, postgres_url):
        assert main(["--db", location, "stats", "--json"]) == 0
        stats.append(capsys.readouterr().out)
    assert stats[0] == stats[1]
    assert main(["--db", source, "copy", "--to", postgres_url]) == 2
    assert capsys.readouterr().err.strip() == (
        "memo-tui: the target already holds namespace default; copy into a store without it"
    )

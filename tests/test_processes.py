"""Real processes on one store: two reviewers racing, and a fold killed half-way."""

import signal
import subprocess
import sys
import time

import pytest
from graphrows import ask

from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.ingest import ingest_records
from memo_tui.store import Alias, Entity, Fold, Mention, Passage, db, utcnow
from memo_tui.text.sources import PassageRecord

pytestmark = pytest.mark.slow


def memo(store, *argv):
    return subprocess.Popen(
        [sys.executable, "-m", "memo_tui", *argv, "--db", str(store)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_reviewers_racing_on_one_question(store):
    texts = [f"We run Postgres{i} and PostgreSQL{i} and Postgres{i} again." for i in range(5)]
    ingest_records("default", [PassageRecord(f"p{i}", t, "a") for i, t in enumerate(texts)])
    questions = [ask(f"PostgreSQL{i}", f"Postgres{i}") for i in range(5)]
    for q in questions:
        alice = memo(store, "graph", "merge", str(q), "--as", "alice")
        bob = memo(store, "graph", "reject", str(q), "--as", "bob")
        results = {name: (p.wait(60), *p.communicate()) for name, p in (("alice", alice), ("bob", bob))}
        winners = [name for name, (code, _, _) in results.items() if code == 0]
        assert len(winners) == 1, results
        loser = "bob" if winners == ["alice"] else "alice"
        code, _, err = results[loser]
        assert code != 0
        assert f"already decided by {winners[0]} at " in err and len(err.strip().splitlines()) == 1
        db.close()
        db.connect()
        from memo_tui.store import Decision, Question

        assert Decision.select().where(Decision.question == q).count() == 1
        assert Question.get_by_id(q).decided_by == winners[0]


CHILD = """
import sys
from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.review import decisions
open_store(sys.argv[1])
print("ready", flush=True)
decisions.manual_fold("default", "Big Absorbed", "Big Canonical", "crash-test", "cli")
print("done", flush=True)
"""


@pytest.fixture
def big_store(store):
    """A store where 'Big Absorbed' has 150k mentions: a fold that takes a while."""
    ingest_records("default", [PassageRecord("seed", "Big Canonical meets Big Absorbed here.", "a")])
    absorbed = Entity.get(Entity.name == "Big Absorbed")
    now = utcnow()
    with db.atomic():
        passages = [
            Passage.insert(namespace="default", external_id=f"x{i}", text="t", created_at=now).execute()
            for i in range(300)
        ]
        # 500 mentions in each, made by the database (150k rows sent one by one are 150k round trips on PostgreSQL)
        db.execute_sql(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) "
            'INSERT INTO "mention" ("passage_id", "entity_id", "surface", "surface_key", "source", "weight", "active") '
            f"SELECT p.id, {db.param}, 'Big Absorbed', 'Big Absorbed', 'capitalised', 1.0, TRUE "
            f'FROM "passage" p CROSS JOIN n WHERE p.id IN ({", ".join([db.param] * len(passages))})',
            [absorbed.id, *passages],
        )
    db.close()
    return store


@pytest.mark.parametrize("delay", [0.0, 0.15, 0.4, 4.0])
def test_a_fold_killed_half_way_leaves_all_or_nothing(big_store, delay):
    path = big_store
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    child.wait(30)
    open_store(str(path))
    total = Mention.select().count()
    folds = Fold.select().count()
    absorbed = Entity.get_or_none(Entity.name == "Big Absorbed")
    canonical = Entity.get(Entity.name == "Big Canonical")
    print(f"delay {delay}: fold {'committed' if folds else 'rolled back'}")
    if folds:
        assert absorbed is None
        assert Mention.select().where(Mention.entity == canonical.id).count() == total
        assert Alias.get().name == "Big Absorbed"
    else:
        assert absorbed is not None and Alias.select().count() == 0
        assert Mention.select().where(Mention.entity == absorbed.id).count() == total - 1
    db.close()


def test_a_command_closes_its_store_before_its_process_ends(tmp_path):
    # the process ends without the collector's last sweep, which closed the store as it went: the
    # command closes it itself, so that SQLite copies its write-ahead log back and removes it
    source = tmp_path / "notes.jsonl"
    source.write_text('{"id": "n1", "text": "Postgres and PostgreSQL run the billing store."}\n')
    store = tmp_path / "closed.db"
    for argv in (["ingest", str(source)], ["resolve"]):
        done = subprocess.run(
            [sys.executable, "-m", "memo_tui", "--db", str(store), *argv], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert store.exists() and not (tmp_path / "closed.db-wal").exists()

"""Several processes on one store, on both backends: passes at once, reverts at once, a pass killed
half-way, and a reviewer answering while a pass folds."""

from __future__ import annotations

import gzip
import itertools
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from graphrows import ask, graph_rows

from memo_tui.engine.graph.lint import lint
from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.engine.review import decisions
from memo_tui.store import Decision, Entity, Fold, Passage, Question, db
from memo_tui.store.locks import pass_lock
from memo_tui.text.sources import PassageRecord

pytestmark = pytest.mark.slow

NS = "default"
REAL = Path(__file__).parent / "data" / "real"


def memo(store, *argv) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "memo_tui", "--db", str(store), *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(process: subprocess.Popen) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=300)
    return process.returncode, out, err


def gateways(groups: int) -> list[PassageRecord]:
    """Each group: one name spelled two ways (`Bakal Gateway` / `Bakal-Gateway`) in two passages that
    share two rare neighbours, so a pass folds it unasked; `groups` folds in all."""
    words = ("".join(p).capitalize() for p in itertools.product("bdfgklmnprstvz", "aeiou", "bdfgklmnprstvz", "aeiou"))
    records = []
    for i in range(groups):
        a, b, c = next(words), next(words), next(words)
        records.append(PassageRecord(f"a{i}", f"The {a} Gateway talks to {b} Relay and {c} Vault.", "x"))
        records.append(PassageRecord(f"b{i}", f"The {a}-Gateway also talks to {b} Relay and {c} Vault.", "y"))
    return records


@pytest.fixture
def folding_store(store):
    ingest_records(NS, gateways(300))
    db.close()
    return store


def reopen():
    db.close()
    db.connect()


def test_a_pass_while_another_holds_the_lock_says_so_and_changes_nothing(folding_store):
    reopen()
    with pass_lock(NS):
        code, out, err = finished(memo(folding_store, "resolve"))
    assert code == 75 and out == ""
    assert err.startswith("memo-tui: another pass or rebuild is running") and len(err.strip().splitlines()) == 1
    assert Fold.select().count() == 0
    assert resolve(NS).folded == 300  # the lock went with the block


def test_two_passes_at_once_end_with_one_doing_the_work(folding_store):
    first, second = memo(folding_store, "resolve"), memo(folding_store, "resolve")
    results = [finished(first), finished(second)]
    assert all(code in (0, 75) for code, _, _ in results), results
    assert any(code == 0 for code, _, _ in results)
    assert not any("internal error" in err or "Traceback" in err for _, _, err in results)
    reopen()
    assert Fold.select().count() == 300  # each fold once, whoever made it
    assert lint(NS) == []
    again = resolve(NS)
    assert again.folded == 0 and again.queued == 0


def test_two_reverts_of_one_decision_at_once_give_one_revert(store):
    ingest_records(NS, [PassageRecord(f"p{i}", f"We run PostgreSQL{i} beside Postgres{i}.", "a") for i in range(4)])
    for i in range(4):
        before = graph_rows()
        decision = decisions.answer(NS, ask(f"PostgreSQL{i}", f"Postgres{i}"), "merge", "alice", "cli")
        db.close()
        racing = [memo(store, "graph", "revert", str(decision.id), "--as", who) for who in ("alice", "bob")]
        results = [finished(p) for p in racing]
        codes = sorted(code for code, _, _ in results)
        assert codes == [0, 2], results
        loser = next(err for code, _, err in results if code == 2)
        assert "reverted" in loser and len(loser.strip().splitlines()) == 1
        reopen()
        assert graph_rows() == before
        assert Decision.select().where(Decision.action == "revert").count() == i + 1


KILLED_PASS = """
import sys, time
from memo_tui.engine.review import decisions
from memo_tui.engine.resolve import resolver
from memo_tui.engine.graph.opening import open_store

fold, made = decisions.fold_entities, []

def fold_then_maybe_stall(*args, **kwargs):
    view = fold(*args, **kwargs)
    made.append(view)
    print(len(made), flush=True)
    if len(made) == int(sys.argv[2]):
        time.sleep(60)  # inside the transaction of this fold's group: the parent kills us here
    return view

decisions.fold_entities = fold_then_maybe_stall
open_store(sys.argv[1])
resolver.resolve("default")
"""


def kill_a_pass(store, stall_at: int) -> None:
    """Run a pass in a child process and kill it inside the transaction of its `stall_at`th fold."""
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_PASS, str(store), str(stall_at)], stdout=subprocess.PIPE, text=True
    )
    while child.stdout.readline().strip() != str(stall_at):
        assert child.poll() is None, "the pass ended before it stalled"
    child.send_signal(signal.SIGKILL)
    child.wait(30)
    reopen()


@pytest.mark.parametrize("stall_at", [1, 150])
def test_a_pass_killed_half_way_is_taken_back_by_the_next_and_no_lock_stays(folding_store, stall_at):
    kill_a_pass(folding_store, stall_at)
    # each group folds in its own transaction: those before the stalled one stand, whole and recorded
    assert Fold.select().count() == stall_at - 1
    assert Decision.select().where(Decision.action == "fold").count() == stall_at - 1
    assert lint(NS) == []
    report = resolve(NS)  # the killed pass's lock died with it
    # it starts from the graph the dead pass read: that pass's folds reverted, then every one made again
    assert report.taken_back == stall_at - 1
    assert report.folded == 300
    assert Fold.select().where(Fold.reverted_at.is_null()).count() == 300
    assert lint(NS) == []
    assert resolve(NS).taken_back == 0  # the mark went with the pass that ended


def test_a_dead_pass_whose_graph_a_reviewer_built_on_stands(folding_store):
    kill_a_pass(folding_store, 20)
    ingest_records(NS, [PassageRecord("q", "We run PostgreSQL beside Postgres.", "a")])
    decisions.manual_fold(NS, "Postgres", "PostgreSQL", "alice", "cli")  # a person's decision after the kill
    report = resolve(NS)
    assert report.taken_back == 0 and report.folded == 300 - 19
    assert Fold.select().where(Fold.reverted_at.is_null(False)).count() == 0
    assert lint(NS) == []


def test_a_reviewer_answers_while_a_pass_folds(folding_store):
    reopen()
    ingest_records(NS, [PassageRecord("q", "We run PostgreSQL beside Postgres.", "a")])
    question = ask("PostgreSQL", "Postgres")
    db.close()
    passing = memo(folding_store, "resolve")
    time.sleep(0.5)
    started = time.perf_counter()
    code, _, err = finished(memo(folding_store, "graph", "reject", str(question), "--as", "alice"))
    waited = time.perf_counter() - started
    assert code == 0, err
    pass_code, _, pass_err = finished(passing)
    assert pass_code == 0, pass_err
    reopen()
    assert Question.get_by_id(question).status == "rejected"
    assert Fold.select().count() == 300
    print(f"answer during a pass took {waited:.2f} s (a process start included)")


def test_two_merges_through_a_shared_entity_at_once_leave_a_sound_graph(store, monkeypatch):
    """Merging Kestrel into Kestrels while another reviewer merges Kestrels into Kestrel-X: the second
    waits for the first and folds what the first left (PostgreSQL locks the entities; SQLite the store)."""
    import threading

    ingest_records(
        NS,
        [
            PassageRecord("p1", "We run Kestrel beside Kestrels.", "a"),
            PassageRecord("p2", "Kestrel-X is there too.", "a"),
        ],
    )
    q1, q2 = ask("Kestrel", "Kestrels"), ask("Kestrels", "Kestrel-X")
    db.close()
    record, first_wrote = decisions.record, threading.Event()

    def slow_record(*args, **kwargs):  # the first answer holds its transaction open a while
        out = record(*args, **kwargs)
        if threading.current_thread().name == "first":
            first_wrote.set()
            time.sleep(1.0)
        return out

    monkeypatch.setattr(decisions, "record", slow_record)
    results = {}

    def answer(name, question):
        try:
            results[name] = decisions.answer(NS, question, "merge", name, "cli").summary
        except Exception as exc:  # noqa: BLE001 - the test reports what happened
            results[name] = f"{type(exc).__name__}: {exc}"
        finally:
            db.close()

    first = threading.Thread(target=answer, args=("first", q1), name="first")
    first.start()
    assert first_wrote.wait(10)
    second = threading.Thread(target=answer, args=("second", q2), name="second")
    second.start()
    first.join(30)
    second.join(30)
    assert results == {"first": "merged 'Kestrel' into 'Kestrels'", "second": "merged 'Kestrels' into 'Kestrel-X'"}
    reopen()
    assert lint(NS) == []


def test_an_ingest_goes_on_when_a_fold_lands_between_its_chunks(store):
    """The ingest's caches of entity ids are dropped when another writer changed the graph: a mention
    of the absorbed spelling lands on the canonical, not on the id the fold deleted."""
    from memo_tui.engine.ingest import CHUNK, IngestReport, PassageWriter
    from memo_tui.store import Entity, Mention

    records = [PassageRecord(f"p{i}", f"We run Kestrel beside Kestrels, note {i}.", "a") for i in range(2 * CHUNK)]
    folded = []

    def progress(done, total):  # between two chunks, a reviewer folds one of the names
        if not folded:
            folded.append(decisions.manual_fold(NS, "Kestrel", "Kestrels", "alice", "cli"))

    PassageWriter(NS, IngestReport()).write(records, progress)
    assert folded and Passage.select().count() == 2 * CHUNK
    kestrels = Entity.get(Entity.name == "Kestrels")  # the second chunk's mentions of both spellings are on it
    assert Mention.select().where(Mention.entity == kestrels).count() == 2 * len(records)
    live = {e.id for e in Entity.select()}
    assert all(m.entity_id in live for m in Mention.select())
    assert lint(NS) == []


KILLED_BEFORE_QUESTIONS = """
import sys, time
from memo_tui.engine.resolve import pass_memory, resolver
from memo_tui.engine.graph.opening import open_store

save = pass_memory.save

def save_then_stall(*args, **kwargs):
    save(*args, **kwargs)
    print(0, flush=True)
    time.sleep(60)  # its folds and its memory written, its questions not: the parent kills us here

pass_memory.save = save_then_stall
open_store(sys.argv[1])
resolver.resolve("default")
"""


def outcome(store) -> tuple[set, set]:
    """The standing folds and the questions, by name: what a pass leaves for a reviewer."""
    open_store(str(store))
    named = Fold.select(Fold.absorbed_name, Fold.canonical_id).where(Fold.reverted_at.is_null())
    folds = {(name, Entity.get_by_id(canonical).name) for name, canonical in named.tuples()}
    questions = set(
        Question.select(Question.left_name, Question.right_name, Question.status, Question.likelihood).tuples()
    )
    db.close()
    db.initialize(None)
    return folds, questions


@pytest.mark.parametrize("script, at", [(KILLED_PASS, "3"), (KILLED_BEFORE_QUESTIONS, "0")], ids=["folding", "asking"])
def test_a_rerun_after_a_kill_reaches_what_one_pass_reaches_on_real_text(tmp_path, script, at):
    """Debian changelogs (the first 3,000: 11 folds, 257 questions): a pass killed while folding, or after
    its folds and memory but before its questions, then run again, leaves what one uninterrupted pass leaves."""
    corpus = tmp_path / "changelogs.jsonl"
    lines = gzip.decompress((REAL / "changelogs.jsonl.gz").read_bytes()).splitlines(keepends=True)
    corpus.write_bytes(b"".join(lines[:3000]))
    clean, killed = tmp_path / "clean.db", tmp_path / "killed.db"
    assert finished(memo(clean, "ingest", str(corpus)))[0] == 0
    for side in ("", "-wal"):  # the same store twice (a closed store's log is checkpointed, if any is left)
        if Path(f"{clean}{side}").exists():
            shutil.copyfile(f"{clean}{side}", f"{killed}{side}")
    assert finished(memo(clean, "resolve", "--cap", "100000"))[0] == 0
    child = subprocess.Popen([sys.executable, "-c", script, str(killed), at], stdout=subprocess.PIPE, text=True)
    while child.stdout.readline().strip() != at:
        assert child.poll() is None, "the pass ended before it stalled"
    child.send_signal(signal.SIGKILL)
    child.wait(30)
    assert finished(memo(killed, "resolve", "--cap", "100000"))[0] == 0
    folds, questions = outcome(clean)
    assert len(folds) == 11 and len(questions) == 257
    assert outcome(killed) == (folds, questions)

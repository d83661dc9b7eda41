"""The real-text builders and the pair miner the evaluation's labels come from (benchmarks/)."""

import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import mine_pairs  # noqa: E402
import realtext  # noqa: E402

from memo_tui.engine.graph.opening import open_store  # noqa: E402
from memo_tui.engine.ingest import ingest_records  # noqa: E402
from memo_tui.store import db  # noqa: E402
from memo_tui.text.sources import PassageRecord  # noqa: E402


def miner_of(names: list[str]) -> dict[frozenset, str]:
    return mine_pairs.mine(dict.fromkeys(names, 1))


@pytest.mark.parametrize(
    ("a", "b", "miner"),
    [
        ("Claude Code", "claude-code", "key"),
        ("URL", "URLs", "plural"),
        ("library", "libraries", "plural"),
        ("Dashboard", "Dashbaord", "transposition"),
        ("Kubernetes", "Kubernetis", "edit"),
        ("Mel", "Mell", "edit"),
        ("NYC", "New York City", "acronym"),
        ("CS", "Counter-Strike", "acronym"),
        ("Deb", "Deborah", "short_name"),
        ("Opus 4.8", "Claude Opus 4.8", "containment"),
    ],
)
def test_each_miner_finds_its_kind_of_pair(a, b, miner):
    assert miner_of([a, b, "Unrelated"]) == {frozenset((a, b)): miner}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("PDF", "PaulMcMillan/docs_fix"),  # the initials of a path are no acronym
        ("Ant", "antelope"),  # a short name is capitalised and begins a capitalised word
        ("Go", "Gi"),  # one letter apart, but too short to be an edit
    ],
)
def test_look_alikes_the_miners_leave(a, b):
    assert miner_of([a, b]) == {}


def test_a_pair_keeps_the_first_miner_that_found_it():
    # `Blueprint` / `blueprints` is a plural and one letter apart: plural comes first
    assert miner_of(["Blueprint", "blueprints"]) == {frozenset(("Blueprint", "blueprints")): "plural"}


def test_a_sample_takes_each_miner_alike_and_all_of_a_small_one():
    rows = [{"mined": "key", "n": i} for i in range(50)] + [{"mined": "plural", "n": i} for i in range(3)]
    chosen = mine_pairs.sample(rows, 20, seed=1)
    counts = {m: sum(r["mined"] == m for r in chosen) for m in ("key", "plural")}
    assert counts == {"key": 17, "plural": 3}
    assert chosen == mine_pairs.sample(rows, 20, seed=1)


def test_the_miner_reads_a_store_per_namespace(tmp_path, capsys):
    path = tmp_path / "store.db"
    open_store(str(path))
    try:
        for namespace in ("one", "two"):
            ingest_records(
                namespace, [PassageRecord(external_id="p", text="Thanks, Mel! And hello, Melanie.", source="x")]
            )
    finally:
        db.close()
        db.initialize(None)
    assert mine_pairs.main([str(path)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {(r["ns"], r["a"], r["b"], r["mined"]) for r in rows} == {
        (ns, "Mel", "Melanie", "short_name") for ns in ("one", "two")
    }


def test_a_missing_store_is_one_line_of_error(tmp_path, capsys):
    assert mine_pairs.main([str(tmp_path / "nothing.db")]) == 1
    assert capsys.readouterr().err.count("\n") == 1


@pytest.fixture
def history(tmp_path):
    """A git repository with two commits by two people, one of them a markdown note."""
    repo = tmp_path / "til"
    run = ["git", "-C", str(repo), "-c", "user.email=x@example.com"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "README.md").write_text("# index\n")
    (repo / "sql").mkdir()
    (repo / "sql" / "upsert.md").write_text("# Upsert in SQLite\n\nUse ON CONFLICT.\n")
    subprocess.run([*run, "-c", "user.name=Ada", "add", "."], check=True)
    subprocess.run([*run, "-c", "user.name=Ada", "commit", "-qm", "Add upsert note\n\nWith SQLite."], check=True)
    (repo / "sql" / "upsert.md").write_text("# Upsert in SQLite\n\nUse ON CONFLICT DO UPDATE.\n")
    subprocess.run([*run, "-c", "user.name=Grace", "commit", "-qam", "Fix the upsert note"], check=True)
    return repo / ".git"


def test_a_commit_is_a_passage_of_its_message_by_its_author(history):
    records = realtext.commits(history)
    assert [(r["text"], r["source"]) for r in records] == [
        ("Fix the upsert note", "Grace"),
        ("Add upsert note\n\nWith SQLite.", "Ada"),
    ]
    assert all(len(r["id"]) == 12 and r["created_at"] for r in records)


def test_notes_are_the_markdown_of_the_tree_without_its_index(history, tmp_path):
    out = tmp_path / "notes.tar.gz"
    assert realtext.notes([history], str(out)) == 1
    with tarfile.open(out) as packed:
        assert packed.getnames() == ["notes/til/sql/upsert.md"]
        assert b"DO UPDATE" in packed.extractfile("notes/til/sql/upsert.md").read()


def test_chats_are_one_file_of_turns_a_conversation(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    turn = {"id": "c1:D1:1", "text": "Hey Mel!", "source": "Caroline", "created_at": "2023-05-08T13:56:00Z"}
    (corpus / "c1.jsonl").write_text(json.dumps(turn) + "\n")
    out = tmp_path / "chats"
    assert realtext.main(["chats", str(out), "--corpus", str(corpus)]) == 0
    assert [json.loads(line) for line in (out / "c1.jsonl").read_text().splitlines()] == [turn]
    assert realtext.main(["chats", str(out), "--corpus", str(tmp_path / "absent")]) == 1

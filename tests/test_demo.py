"""The bundled demo store shows every feature at once."""

import json
from importlib.resources import files

from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.ingest import ingest_records
from memo_tui.store import Passage, Question, db
from memo_tui.text.sources import PassageRecord


def corpus() -> list[dict]:
    text = (files("memo_tui") / "demo" / "team-harbor.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_the_corpus_is_a_few_months_of_a_teams_memory():
    rows = corpus()
    assert len(rows) >= 150
    assert len({row["source"] for row in rows}) >= 6
    months = {row["created_at"][:7] for row in rows}
    assert len(months) >= 4
    assert sum(bool(row.get("relations")) for row in rows) >= 20


def test_demo_builds_a_store_with_folds_names_and_memory_conflicts(tmp_path, run_cli):
    path = tmp_path / "demo.db"
    code, out, _ = run_cli("demo", "--db", str(path), "--no-open", "--json")
    report = json.loads(out)
    assert code == 0
    # folds only where the store is sure (both spellings keep the same rare company); the other
    # variants are asked, the likeliest first
    assert report["folded"] >= 2 and report["not_certain"] >= 1 and report["queued"] >= 8
    assert report["contradictions_queued"] >= 5 and report["duplicates_queued"] >= 1
    open_store(str(path))
    kinds = {q.kind for q in Question.select()}
    assert kinds == {"entity_pair", "duplicate", "contradiction"}
    db.close()


def test_demo_never_overwrites_a_real_store(tmp_path, run_cli):
    path = tmp_path / "mine.db"
    open_store(str(path))
    ingest_records("default", [PassageRecord("p1", "My own notes about Postgres.", "me")])
    db.close()
    code, _, err = run_cli("demo", "--db", str(path), "--no-open")
    assert code == 2 and "not the demo" in err
    open_store(str(path))
    assert Passage.select().count() == 1


def test_rebuilding_the_demo_keeps_a_reviewers_decisions_unless_asked(tmp_path, run_cli):
    path = tmp_path / "demo.db"
    run_cli("demo", "--db", str(path), "--no-open")
    open_store(str(path))
    from memo_tui.engine.review import decisions

    question = Question.select().where(Question.status == "pending").first()
    decisions.answer("default", question.id, "keep_both", "alice", "cli")
    db.close()
    code, out, _ = run_cli("demo", "--db", str(path), "--no-open", "--json")  # no terminal to ask on
    assert code == 0 and json.loads(out) == {"store": str(path), "rebuilt": False, "decisions_kept": 1}
    code, out, _ = run_cli("demo", "--db", str(path), "--no-open", "--fresh", "--json")
    assert code == 0 and json.loads(out)["rebuilt"] is True
    open_store(str(path))
    assert Question.select().where(Question.status == "keep_both").count() == 0
    db.close()


def test_the_demo_honours_the_store_named_in_the_environment(tmp_path, capsys, monkeypatch):
    from memo_tui.cli import main

    monkeypatch.setenv("MEMO_TUI_DB", str(tmp_path / "from-env.db"))
    code = main(["demo", "--no-open", "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["store"] == str(tmp_path / "from-env.db")
    db.close()

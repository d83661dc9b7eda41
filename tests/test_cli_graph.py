"""The graph commands end to end through the command line."""

import json

import pytest
from graphrows import ask, graph_rows

STORY = [
    {
        "id": "s1",
        "text": "Bob fixed the gateway.",
        "entities": [{"name": "Bob", "type": "person"}],
        "relations": [{"src": "Bob", "predicate": "works_on", "dst": "Acme Gateway"}],
    },
    {"id": "s2", "text": "Robert reviewed it.", "entities": [{"name": "Robert", "type": "person"}]},
]


@pytest.fixture
def story(run_cli, tmp_path):
    src = tmp_path / "story.jsonl"
    src.write_text("".join(json.dumps(row) + "\n" for row in STORY))
    assert run_cli("ingest", str(src))[0] == 0
    return tmp_path


def test_manual_fold_alias_lookup_delete_guard_and_exact_revert(run_cli, story):
    before = graph_rows()
    code, out, _ = run_cli("graph", "fold", "Bob", "--into", "Robert", "--as", "alice", "--json")
    assert code == 0
    decision = json.loads(out)
    assert decision["actor"] == "alice" and decision["channel"] == "cli"
    later = story / "later.jsonl"
    later.write_text(json.dumps({"id": "s3", "text": "Bob wrote docs.", "entities": [{"name": "Bob"}]}) + "\n")
    run_cli("ingest", str(later))
    code, out, _ = run_cli("stats", "--json")
    assert json.loads(out)["entities"] == 2  # Robert and Acme Gateway: Bob landed on Robert
    code, _, err = run_cli("graph", "delete", "Robert")
    assert code == 2 and "revert them first" in err and len(err.strip().splitlines()) == 1
    code, out, _ = run_cli("graph", "revert", str(decision["id"]), "--as", "alice")
    assert code == 0 and "reverted" in out
    after = graph_rows()
    new_rows = {k: [r for r in after[k] if r not in before[k]] for k in after}
    # Only the later passage's mention is new, and it sits on the restored Bob.
    assert new_rows["entities"] == [] and new_rows["aliases"] == [] and new_rows["relations"] == []
    assert [(m[2], m[3]) for m in new_rows["mentions"]] == [(before["entities"][0][0], "Bob")]


def test_answers_history_and_second_reviewer(run_cli, story):
    q = ask("Bob", "Robert")
    assert run_cli("graph", "merge", str(q), "--as", "alice")[0] == 0
    code, _, err = run_cli("graph", "reject", str(q), "--as", "bob")
    assert code == 2 and f"question {q} was already decided by alice at " in err
    code, out, _ = run_cli("graph", "history", "--json")
    log = json.loads(out)
    assert [(d["action"], d["actor"]) for d in log] == [("merge", "alice")]
    code, out, _ = run_cli("graph", "undo", "--as", "alice")
    assert code == 0
    code, out, _ = run_cli("queue", "--json")
    assert [item["id"] for item in json.loads(out)] == [q]


def test_revert_by_fold_id_and_unknown_ids(run_cli, story):
    code, out, _ = run_cli("graph", "fold", "Bob", "--into", "Robert", "--json")
    fold_id = json.loads(out)["payload"]["fold_id"]
    assert run_cli("graph", "revert", str(fold_id), "--fold")[0] == 0
    code, _, err = run_cli("graph", "revert", str(fold_id), "--fold")
    assert code == 2 and "already reverted" in err
    code, _, err = run_cli("graph", "revert", "999")
    assert code == 2 and err.strip() == "memo-tui: no decision 999 in namespace 'default'"


def test_rename_and_its_guard(run_cli, story):
    code, _, err = run_cli("graph", "rename", "Bob", "Robert")
    assert code == 2 and "already has that name" in err
    code, out, _ = run_cli("graph", "rename", "Bob", "Bobby", "--json")
    assert code == 0 and json.loads(out)["action"] == "rename"

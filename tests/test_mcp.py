"""The MCP server through the SDK's own client: every tool, the answer gate, errors; one stdio round trip."""

from __future__ import annotations

import json
import sys
from importlib.resources import as_file, files

import pytest
from graphrows import dashboard_family, graph_rows
from tuistore import pilot_test

from memo_tui.core.ingest import ingest_paths
from memo_tui.core.resolver import resolve
from memo_tui.store import Decision, Entity, KeepApart, Question

mcp = pytest.importorskip("mcp")
from mcp import Client, StdioServerParameters  # noqa: E402

from memo_tui.mcp.server import build_server  # noqa: E402

NS = "default"
TOOLS = {
    "search_entities", "get_entity", "related_entities", "explore", "list_questions", "get_question", "judge_pair",
    "history", "ingest_passages", "propose_merge", "propose_keep_apart", "answer_question", "revert", "get_cluster",
}  # fmt: skip


@pytest.fixture
def team(store):
    """The demo corpus, ingested and resolved, on the test's backend."""
    with as_file(files("memo_tui") / "demo") as corpus:
        ingest_paths(NS, [str(corpus)])
    resolve(NS)
    return store


async def call(client, tool: str, **arguments):
    result = await client.call_tool(tool, arguments)
    return result.is_error, (result.content[0].text if result.is_error else result.structured_content)


@pilot_test
async def test_every_tool_is_listed_with_a_description_and_typed_arguments(team):
    async with Client(build_server(NS)) as client:
        listed = (await client.list_tools()).tools
    assert {t.name for t in listed} == TOOLS
    for t in listed:
        assert t.description and t.input_schema["type"] == "object"
        assert t.output_schema is not None, t.name  # a structured result
    related = next(t for t in listed if t.name == "related_entities")
    assert set(related.input_schema["properties"]) == {"name", "limit", "type", "as_of"}
    assert related.input_schema["required"] == ["name"]


@pilot_test
async def test_read_tools(team):
    async with Client(build_server(NS)) as client:
        error, found = await call(client, "search_entities", query="priya", limit=3)
        assert not error and found["result"][0]["name"].startswith("Priya")
        error, card = await call(client, "get_entity", name="Priya Raman")
        assert not error and card["type"] == "person" and card["passages"] > 0 and card["latest_passages"]
        error, related = await call(client, "related_entities", name="Priya Raman", limit=5)
        assert not error and related["target"]["name"] == "Priya Raman"
        assert related["stated"] and related["co_mentions"] and len(related["co_mentions"]) <= 5
        error, explored = await call(client, "explore", name="Priya Raman", hops=2)
        assert not error and [hop["number"] for hop in explored["hops"]] == [1, 2]
        error, questions = await call(client, "list_questions", limit=5)
        assert not error and 0 < len(questions["result"]) <= 5
        first = questions["result"][0]
        error, question = await call(client, "get_question", question_id=first["id"])
        assert not error and question["question"]["id"] == first["id"] and 0 < question["question"]["likelihood"] <= 1
        error, verdict = await call(client, "judge_pair", left="PostgreSQL", right="Postgres")
        assert not error and verdict["kind"] in ("fold", "ask") and verdict["likelihood_before_evidence"] is not None
        error, log = await call(client, "history", who="auto", limit=3)
        assert not error and all(entry["channel"] == "auto" for entry in log["result"])


@pilot_test
async def test_a_proposal_is_queued_for_a_person_marked_as_the_agents_and_changes_nothing(team, run_cli):
    before = graph_rows()
    async with Client(build_server(NS, agent="scribe")) as client:
        error, made = await call(
            client, "propose_merge", left="Bob Okafor", right="Robert Okafor", reason="a passage says so"
        )
        assert not error and made["queued"] and made["question"]["proposed_by"] == "scribe"
        error, again = await call(client, "propose_merge", left="Robert Okafor", right="Bob Okafor", reason="again")
        assert not error and not again["queued"] and again["question"]["id"] == made["question"]["id"]
        error, mine = await call(client, "list_questions", kind="agent")
        assert [q["id"] for q in mine["result"]] == [made["question"]["id"]]
    assert graph_rows() == before  # a proposal never changes the graph
    code, out, _ = run_cli("queue", "--json", "--agent")
    queued = json.loads(out)
    assert code == 0 and [q["proposed_by"] for q in queued] == ["scribe"]
    assert "agent scribe proposes they are the same: a passage says so" in queued[0]["reason"]
    # a person answers it like any other question; the agent then hears the pair is settled
    assert run_cli("graph", "reject", str(made["question"]["id"]), "--as", "alice")[0] == 0
    async with Client(build_server(NS, agent="scribe")) as client:
        error, text = await call(client, "propose_keep_apart", left="Bob Okafor", right="Robert Okafor", reason="x")
    assert error and "already settled by a reviewer: kept apart" in text


@pilot_test
async def test_ingest_passages_validates_each_item(team):
    async with Client(build_server(NS, agent="scribe")) as client:
        error, report = await call(
            client,
            "ingest_passages",
            passages=[{"id": "agent-1", "text": "Orion Relay now fronts the Atlas Sync service."}, {"id": "bad"}],
        )
    assert not error and report["passages_new"] == 1
    assert report["errors"] == ['passages[1]: missing "text" (a non-empty string is required); skipped']


@pilot_test
async def test_answers_and_reverts_only_when_the_server_allows_them(team):
    question = next(q for q in Question.select().where(Question.status == "pending").order_by(Question.id))
    async with Client(build_server(NS, agent="scribe")) as client:
        error, text = await call(client, "answer_question", question_id=question.id, action="merge")
        assert error and "start it with `memo-tui mcp --allow-answers`" in text
        error, text = await call(client, "revert", decision_id=1)
        assert error and "--allow-answers" in text
    assert Question.get_by_id(question.id).status == "pending"
    async with Client(build_server(NS, allow_answers=True, agent="scribe")) as client:
        error, done = await call(client, "answer_question", question_id=question.id, action="reject")
        assert not error
        decision = Decision.get_by_id(done["decision_id"])
        assert (decision.channel, decision.actor, decision.action) == ("agent", "scribe", "reject")
        error, text = await call(client, "answer_question", question_id=question.id, action="merge")
        assert error and "already decided by scribe at" in text
        error, undone = await call(client, "revert", decision_id=done["decision_id"])
        assert not error and undone["action"] == "revert"
    assert Question.get_by_id(question.id).status == "pending"


@pytest.fixture
def spellings(store):
    """Four spellings of one dashboard, pending as one name cluster."""
    dashboard_family(NS)
    return store


def spelled():
    return sorted(e.name for e in Entity.select() if "dashboard" in e.name.lower())


@pilot_test
async def test_a_family_of_spellings_is_one_item_answered_once_as_the_queue_shows_it(spellings):
    pending = sorted(q.id for q in Question.select().where(Question.status == "pending"))
    async with Client(build_server(NS, allow_answers=True, agent="scribe")) as client:
        error, listed = await call(client, "list_questions")
        [item] = listed["result"]
        assert not error and item["kind"] == "name_cluster" and item["id"] == pending[0]
        assert sorted(item["questions"]) == pending and item["left"] == item["members"][0]["name"]
        assert sorted(m["name"] for m in item["members"]) == spelled() and len(spelled()) == 4
        error, pairs = await call(client, "list_questions", kind="entity_pair")
        assert not error and pairs["result"] == []  # its questions are in the cluster, not beside it
        error, clustered = await call(client, "list_questions", kind="name_cluster")
        assert not error and [q["id"] for q in clustered["result"]] == [item["id"]]
        seen = [m["id"] for m in item["members"]]
        for stale in (seen[:3], []):  # a member gone, or the item seen as a pair: nothing is done
            error, text = await call(client, "answer_question", question_id=item["id"], action="merge",
                                     members_seen=stale)  # fmt: skip
            assert error and "changed since it was shown" in text and len(spelled()) == 4
        before = graph_rows()
        error, done = await call(client, "answer_question", question_id=item["id"], action="merge",
                                 members_seen=seen)  # fmt: skip
        assert not error and spelled() == [item["left"]]
        decision = Decision.get_by_id(done["decision_id"])
        assert (decision.channel, decision.actor, decision.action) == ("agent", "scribe", "cluster")
        error, undone = await call(client, "revert", decision_id=done["decision_id"])
        assert not error and graph_rows() == before
        error, text = await call(client, "answer_question", question_id=item["id"], action="merge", pair_only=True,
                                 members_seen=seen)  # fmt: skip
        assert error and "pair_only answers one question" in text
        # the other questions answered one by one: the lead is a pair again, still pending
        for other in sorted(set(item["questions"]) - {item["id"]}):
            error, _ = await call(client, "answer_question", question_id=other, action="reject", pair_only=True)
            assert not error
        error, text = await call(client, "answer_question", question_id=item["id"], action="merge",
                                 members_seen=seen)  # fmt: skip
        assert error and "no longer leads a cluster" in text and len(spelled()) == 4
        error, one = await call(client, "answer_question", question_id=item["id"], action="merge", members_seen=[])
        assert not error and len(spelled()) == 3  # the lead question's own pair only
        error, text = await call(client, "answer_question", question_id=item["id"], action="merge",
                                 members_seen=seen)  # fmt: skip
        assert error and "already decided by scribe" in text  # a decided question says so, not "no longer leads"


@pilot_test
async def test_an_agent_chooses_how_a_cluster_merges_as_the_cli_does(spellings):
    async with Client(build_server(NS, allow_answers=True, agent="scribe")) as client:
        error, listed = await call(client, "list_questions")
        [item] = listed["result"]
        by_name = {m["name"]: m["id"] for m in item["members"]}
        kept = next(name for name in by_name if name != item["left"])
        error, card = await call(client, "get_cluster", question_id=item["id"], canonical=by_name[kept])
        assert not error and card["item"]["left"] == kept and card["passages"] == []
        assert [e["name"] for e in card["entities"]] == [m["name"] for m in card["item"]["members"]]
        assert all(e["passages"] for e in card["entities"])  # what a reviewer reads of each member
        error, text = await call(client, "get_cluster", question_id=max(item["questions"]))
        assert error and "does not lead a cluster" in text
        out = next(name for name in by_name if name not in (kept, item["left"]))

        def state():
            asked = sorted((q.id, q.status) for q in Question.select())
            return graph_rows(), asked, Decision.select().count(), KeepApart.select().count()

        before = state()
        refused = [
            ({"leave_out": [by_name[kept]], "canonical": by_name[kept]}, "a member left out is the canonical"),
            ({"leave_out": [99999]}, "#99999 is not a member"),
            ({"canonical": 99999}, "#99999 is not a member"),
            ({"canonical": by_name[kept], "pair_only": True}, "pair_only answers one question"),
            ({"mark_rest": True}, "none is: leave some out"),
        ]
        for chosen, said in refused:
            error, text = await call(client, "answer_question", question_id=item["id"], action="merge", **chosen)
            assert error and said in text, chosen
        error, text = await call(client, "answer_question", question_id=item["id"], action="reject", mark_rest=True)
        assert error and "they are for a merge" in text and state() == before  # nothing written by a refusal
        error, done = await call(client, "answer_question", question_id=item["id"], action="merge",
                                 canonical=by_name[kept], leave_out=[by_name[out]], mark_rest=True,
                                 members_seen=list(by_name.values()))  # fmt: skip
        assert not error and spelled() == sorted([kept, out])
        assert f"{out!r} marked different" in done["summary"]
        error, _ = await call(client, "revert", decision_id=done["decision_id"])
        assert not error and graph_rows() == before[0]


@pilot_test
async def test_errors_are_one_line_results(team):
    async with Client(build_server(NS)) as client:
        error, text = await call(client, "related_entities", name="Priya Ramen")
        assert error and text.endswith(
            "no entity named 'Priya Ramen' in namespace 'default'; did you mean 'Priya Raman'?"
        )
        error, text = await call(client, "explore", name="Priya Raman", hops=7)
        assert error and text.endswith("--hops is 1, 2 or 3")
        error, text = await call(client, "related_entities", name="Priya Raman", as_of="yesterday")
        assert error and text.endswith("as_of is not an ISO 8601 time: 'yesterday'")
        error, text = await call(client, "get_question", question_id=99999)
        assert error and text.endswith("no question 99999 in namespace 'default'")
        error, text = await call(client, "propose_merge", left="Bob Okafor", right="Bob Okafor", reason="r")
        assert error and "already one entity" in text
        for error, text in [await call(client, "list_questions", kind="nonsense")]:
            assert error and "unknown kind 'nonsense'" in text and "\n" not in text


@pilot_test
async def test_a_real_stdio_round_trip(team):
    server = StdioServerParameters(command=sys.executable, args=["-m", "memo_tui", "--db", str(team), "mcp"])
    async with Client(server) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        error, related = await call(client, "related_entities", name="Priya Raman", limit=3)
    assert names == TOOLS
    assert not error and related["target"]["name"] == "Priya Raman"


@pilot_test
async def test_the_server_process_closes_its_stores_connections_as_it_ends(tmp_path):
    # its tools run in worker threads, each with a connection of its own, which the collector's last
    # sweep closes as the process ends: SQLite copies the write-ahead log back then, and removes it
    import subprocess

    source, store = tmp_path / "notes.jsonl", tmp_path / "served.db"
    source.write_text('{"id": "n1", "text": "Postgres and PostgreSQL run the billing store."}\n')
    command = [sys.executable, "-m", "memo_tui", "--db", str(store)]
    subprocess.run([*command, "ingest", str(source)], check=True, capture_output=True)
    async with Client(StdioServerParameters(command=sys.executable, args=[*command[1:], "mcp"])) as client:
        error, found = await call(client, "search_entities", query="postgres")
    assert not error and found
    assert store.exists() and not (tmp_path / "served.db-wal").exists()

"""The MCP server through the SDK's own client: every tool, its output schema with format checking, the
answer gate, people first, errors; a stdio round trip, and the official Inspector CLI where npx has it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.resources import as_file, files

import pytest
from graphrows import dashboard_family, graph_rows
from tuistore import pilot_test

from memo_tui import __version__
from memo_tui.engine.ingest import forget, ingest_paths
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.store import Decision, Entity, KeepApart, Passage, Question

mcp = pytest.importorskip("mcp")
from mcp import Client, StdioServerParameters  # noqa: E402

from memo_tui.mcp.server import build_server  # noqa: E402

NS = "default"
READS = {
    "search_entities", "get_entity", "get_entities", "related_entities", "explore", "list_questions", "get_question",
    "get_cluster", "judge_pair", "history", "get_passages", "search_passages", "recent_passages", "stats",
}  # fmt: skip
WRITES = {"ingest_passages", "propose_merge", "propose_keep_apart"}
GATED = {"answer_question", "revert", "resolve"}  # listed only with --allow-answers
TOOLS = READS | WRITES


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
async def test_every_tool_is_listed_with_described_arguments_annotations_and_the_version(team):
    async with Client(build_server(NS)) as client:
        listed = (await client.list_tools()).tools
        version = client.server_info.version
    async with Client(build_server(NS, allow_answers=True)) as client:
        everything = (await client.list_tools()).tools
    assert version == __version__
    assert {t.name for t in listed} == TOOLS and {t.name for t in everything} == TOOLS | GATED
    for t in everything:
        assert t.description and t.input_schema["type"] == "object" and t.output_schema is not None, t.name
        for name, schema in t.input_schema["properties"].items():
            assert schema.get("description"), (t.name, name)
        hints = t.annotations
        assert hints.read_only_hint is (t.name in READS), t.name
        assert hints.destructive_hint is (True if t.name in GATED else False if t.name in WRITES else None), t.name
        assert hints.idempotent_hint is (True if t.name in READS else None), t.name
    related = next(t for t in listed if t.name == "related_entities")
    assert set(related.input_schema["properties"]) == {"name", "limit", "type", "as_of", "namespace"}
    assert related.input_schema["required"] == ["name"]
    limit = related.input_schema["properties"]["limit"]
    assert (limit["minimum"], limit["maximum"]) == (1, 100)
    history = next(t for t in listed if t.name == "history")
    assert history.input_schema["properties"]["who"]["enum"] == ["auto", "human", "any"]


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
    pending = Question.select().where((Question.status == "pending") & (Question.kind == "entity_pair"))
    question = next(q for q in pending.order_by(Question.id))
    async with Client(build_server(NS, agent="scribe")) as client:
        for tool, arguments in (("answer_question", {"question_id": question.id, "action": "merge"}),
                                ("revert", {"decision_id": 1}), ("resolve", {})):  # fmt: skip
            error, text = await call(client, tool, **arguments)
            assert error and text == "unknown tool; list the tools to see their names"
    assert Question.get_by_id(question.id).status == "pending"
    async with Client(build_server(NS, allow_answers=True, agent="scribe")) as client:
        error, done = await call(client, "answer_question", question_id=question.id, action="reject", pair_only=True)
        assert not error
        decision = Decision.get_by_id(done["decision_id"])
        assert (decision.channel, decision.actor, decision.action) == ("agent", "scribe", "reject")
        error, text = await call(client, "answer_question", question_id=question.id, action="merge", pair_only=True)
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
async def test_errors_are_one_short_line_that_never_repeats_an_argument(team):
    huge, bob = "x" * 1_000_000, Entity.get(Entity.name == "Bob Okafor").id
    async with Client(build_server(NS)) as client:
        said = [
            (await call(client, "related_entities", name="Priya Ramen"),
             "no entity named <name> in namespace 'default'; did you mean 'Priya Raman'?"),
            (await call(client, "explore", name="Priya Raman", hops=7),
             "explore: hops: Input should be less than or equal to 3"),
            (await call(client, "related_entities", name="Priya Raman", as_of="yesterday"),
             "as_of is not an ISO 8601 time"),
            (await call(client, "get_question", question_id=99999), "no question 99999 in namespace 'default'"),
            (await call(client, "propose_merge", left="Bob Okafor", right=f"#{bob}", reason="r"),
             "<left> and <right> are already one entity (<left>)"),
            (await call(client, "list_questions", kind="nonsense"), "list_questions: kind: Input should be "),
            (await call(client, "search_entities", query="priya", limit=-1),
             "search_entities: limit: Input should be greater than or equal to 1"),
            (await call(client, "search_entities", query="priya", limit=0),
             "search_entities: limit: Input should be greater than or equal to 1"),
            (await call(client, "search_entities", query="priya", limit=True),
             "search_entities: limit: Input should be a valid integer"),
            (await call(client, "explore", name="Priya Raman", hops="2"),
             "explore: hops: Input should be a valid integer"),
            (await call(client, "get_entity", name=huge), "get_entity: name: String should have at most 1000"),
            (await call(client, "search_passages", query=huge), "search_passages: query: String should have at most"),
            (await call(client, huge), "unknown tool; list the tools to see their names"),
        ]  # fmt: skip
    for (error, text), expected in said:
        assert error and expected in text, (text[:400], expected)
        assert len(text) <= 300 and "\n" not in text and "xxxxxxxxxx" not in text and "--" not in text, text[:400]
        assert "https://" not in text  # pydantic's help links stay out


@pilot_test
async def test_a_real_stdio_round_trip(team):
    server = StdioServerParameters(command=sys.executable, args=["-m", "memo_tui", "--db", str(team), "mcp"])
    async with Client(server) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        error, related = await call(client, "related_entities", name="Priya Raman", limit=3, as_of="2026-04-01")
        errs, found = await call(client, "search_passages", query="billing owner")
    assert names == TOOLS
    assert not error and related["target"]["name"] == "Priya Raman" and related["as_of"] == "2026-04-01T00:00:00Z"
    assert not errs and found["result"]


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


def format_checked(schema: dict):
    """A validator that checks formats too: a date-time needs its offset (rfc3339-validator)."""
    from jsonschema import Draft202012Validator, FormatChecker

    checker = FormatChecker()
    assert not checker.conforms("2026-03-23T09:05:00", "date-time")  # the check is there, and can fail
    return Draft202012Validator(schema, format_checker=checker)


@pilot_test
async def test_every_tools_result_validates_against_its_output_schema_with_formats(team):
    dashboard_family(NS)  # a name cluster beside the demo's questions
    resolve(NS)
    async with Client(build_server(NS, allow_answers=True, agent="scribe")) as client:
        schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
        clustered = (await call(client, "list_questions", kind="name_cluster"))[1]["result"][0]
        pair = (await call(client, "list_questions", kind="entity_pair"))[1]["result"][0]
        calls = [
            ("search_entities", {"query": "priya"}),
            ("get_entity", {"name": "Priya Raman"}),
            ("get_entities", {"names": ["Priya Raman", "Bob Okafor"]}),
            ("related_entities", {"name": "Priya Raman", "as_of": "2026-04-01T00:00:00+02:00"}),
            ("explore", {"name": "Priya Raman", "hops": 2, "as_of": "2026-04-01"}),
            ("list_questions", {}),
            ("get_question", {"question_id": pair["id"]}),
            ("get_cluster", {"question_id": clustered["id"]}),
            ("judge_pair", {"left": "PostgreSQL", "right": "Postgres"}),
            ("get_passages", {"ids": ["m147", "nowhere"]}),
            ("search_passages", {"query": "billing"}),
            ("recent_passages", {"source": "slack", "since": "2026-04-01"}),
            ("stats", {}),
            ("ingest_passages", {"passages": [{"id": "a1", "text": "Orion Relay fronts Atlas Sync."}]}),
            ("propose_merge", {"left": "Bob Okafor", "right": "Robert Okafor", "reason": "a passage says so"}),
            ("propose_keep_apart", {"left": "Priya Raman", "right": "Alice Chen", "reason": "two people"}),
            ("answer_question", {"question_id": pair["id"], "action": "reject", "pair_only": True}),
            ("history", {"who": "any", "limit": 5}),
            ("revert", {"decision_id": Decision.select().order_by(Decision.id.desc()).first().id}),
            ("resolve", {}),
        ]
        assert {tool for tool, _ in calls} == set(schemas)  # every tool, each at least once
        for tool, arguments in calls:
            error, result = await call(client, tool, **arguments)
            assert not error, (tool, result)
            problems = [e.message for e in format_checked(schemas[tool]).iter_errors(result)]
            assert problems == [], (tool, problems[:3])


def inspector() -> list[str]:
    """The official MCP Inspector's CLI (on the TypeScript SDK), fetched by npx; skips without it."""
    if shutil.which("npx") is None:
        pytest.skip("npx is not installed")
    command = ["npx", "-y", "@modelcontextprotocol/inspector@0.15", "--cli"]
    try:
        found = subprocess.run([*command, "--help"], capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.skip("npx could not fetch @modelcontextprotocol/inspector@0.15 in time")
    if found.returncode != 0:
        pytest.skip("npx could not fetch @modelcontextprotocol/inspector@0.15 from the npm registry")
    return command


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_the_official_inspector_cli_accepts_every_dated_result(team):
    command = inspector()
    served = [sys.executable, "-m", "memo_tui", "--db", str(team), "mcp"]
    calls = {
        "get_entity": ["name=Priya Raman"],
        "explore": ["name=Priya Raman", "as_of=2026-04-01"],
        "related_entities": ["name=Priya Raman", "as_of=2026-04-01"],
        "history": [],
    }
    for tool, arguments in calls.items():
        args = [a for argument in arguments for a in ("--tool-arg", argument)]
        done = subprocess.run(
            [*command, *served, "--method", "tools/call", "--tool-name", tool, *args],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "NO_COLOR": "1"},
        )
        assert done.returncode == 0, (tool, done.stderr[-2000:])
        result = json.loads(done.stdout)
        assert not result.get("isError") and result["structuredContent"], (tool, done.stdout[:500])


@pilot_test
async def test_an_agents_ingest_never_replaces_a_persons_passage(team, run_cli):
    person = Passage.get((Passage.external_id == "m147") & Passage.retired_at.is_null())
    async with Client(build_server(NS, agent="scribe")) as client:
        error, report = await call(client, "ingest_passages", passages=[
            {"id": "m147", "text": "Planning: Dmitri keeps the billing service."},
            {"id": "n1", "text": "Harbor notes: the rate limiter ships.", "supersedes": ["m142"]},
        ])  # fmt: skip
        assert not error and report["passages_revised"] == 0 and len(report["revisions_proposed"]) == 2
        # the person's passages stand as they wrote them; the agent's text is beside, marked as the agent's
        assert Passage.get_by_id(person.id).retired_at is None
        assert Passage.get((Passage.external_id == "m142") & Passage.retired_at.is_null())
        beside = Passage.get((Passage.external_id == "m147~scribe") & Passage.retired_at.is_null())
        assert beside.source == "agent:scribe" and "Dmitri keeps" in beside.text
        asked = [Question.get_by_id(q) for q in report["revisions_proposed"]]
        assert {(q.kind, q.status, q.proposed_by, q.rule) for q in asked} == {
            ("duplicate", "pending", "scribe", "agent-revision")
        }
        assert (asked[0].left_id, asked[0].right_id) == (person.id, beside.id)
        # its own passage the agent revises as ever
        error, again = await call(client, "ingest_passages", passages=[{"id": "n1", "text": "The limiter ships."}])
        assert not error and again["passages_revised"] == 1 and again["revisions_proposed"] == []
        # the same text a person wrote changes nothing
        error, same = await call(
            client,
            "ingest_passages",
            passages=[{"id": "m147", "text": person.text, "relations": json.loads(person.declared)["relations"]}],
        )
        assert not error and same["passages_unchanged"] == 1 and same["revisions_proposed"] == []
    # a person decides: merge keeps the newer, the agent's text
    assert run_cli("graph", "merge", str(asked[0].id), "--as", "alice")[0] == 0
    assert Passage.get_by_id(person.id).retired_at is not None


@pilot_test
async def test_an_agent_cannot_revert_or_answer_against_a_person(team, run_cli):
    pair = next(q for q in Question.select().where((Question.status == "pending") & (Question.kind == "entity_pair")))
    assert run_cli("graph", "reject", str(pair.id), "--as", "alice", "--pair")[0] == 0
    rejected = Decision.get((Decision.question == pair.id) & (Decision.action == "reject"))
    async with Client(build_server(NS, allow_answers=True, agent="scribe")) as client:
        error, text = await call(client, "revert", decision_id=rejected.id)
        assert error and f"decision {rejected.id} is a person's (alice); only a person reverts it" in text
        error, text = await call(client, "answer_question", question_id=pair.id, action="merge")
        assert error and "already decided by alice" in text
        # passages a person wrote are merged (one retired) only by a person
        error, made = await call(client, "ingest_passages", passages=[{"id": "m147", "text": "Dmitri keeps it."}])
        [asked] = made["revisions_proposed"]
        error, text = await call(client, "answer_question", question_id=asked, action="merge", pair_only=True)
        assert error and f"question {asked} would retire a person's passage" in text
        error, _ = await call(client, "answer_question", question_id=asked, action="keep_both", pair_only=True)
        assert not error  # saying both stand retires nothing
    assert KeepApart.select().where(KeepApart.decision == rejected.id).exists()
    assert rejected.undone_at is None and Decision.get_by_id(rejected.id).undone_at is None
    assert Passage.get((Passage.external_id == "m147") & (Passage.source == "meeting-notes")).retired_at is None


@pilot_test
async def test_ingest_refuses_unknown_keys_and_oversized_passages_per_item(team):
    async with Client(build_server(NS, agent="scribe")) as client:
        error, report = await call(client, "ingest_passages", passages=[
            {"id": "k1", "text": "Orion Relay fronts Atlas Sync.", "entites": ["Orion Relay"]},
            {"id": "k2", "text": "x" * 1_000_001},
            {"id": "k3", "text": "Atlas Sync runs in Frankfurt.", "created_at": "last week"},
            {"id": "k4", "text": "Atlas Sync runs in Paris.", "source": "chat"},
        ])  # fmt: skip
    assert not error and report["passages_new"] == 1
    assert report["errors"] == [
        "passages[0]: unknown key 'entites'; the keys are id, text, source, created_at, entities, relations, tags, "
        "supersedes, contradicts; skipped",
        "passages[1]: is 1.0 MB, over the 1 MB limit; skipped",
        'passages[2]: "created_at" is not an ISO 8601 time: <created_at>; skipped',
    ]
    assert not Passage.select().where(Passage.external_id.in_(["k1", "k2", "k3"])).exists()
    assert Passage.get(Passage.external_id == "k4").source == "agent:scribe:chat"


@pilot_test
async def test_the_tools_agents_expect(team):
    async with Client(build_server(NS, allow_answers=True, agent="scribe")) as client:
        error, card = await call(client, "get_entity", name="Priya Raman")
        linked = card["latest_passages"][0]["also_see"][0]
        error, got = await call(client, "get_passages", ids=[linked, "m147", "nowhere"])
        assert not error and [p["external_id"] for p in got["passages"]] == [linked, "m147"]
        assert got["missing"] == ["nowhere"] and got["passages"][1]["text"].startswith("Planning: Alice Chen")
        error, found = await call(client, "search_passages", query="BILLING ownership")
        assert not error and [p["external_id"] for p in found["result"]] == ["m147"]
        error, found = await call(client, "search_passages", query="'; DROP TABLE passage; --")
        assert not error and found["result"] == []  # words, never syntax
        error, recent = await call(client, "recent_passages", source="slack", since="2026-04-09T00:00:00Z", limit=3)
        times = [p["created_at"] for p in recent["result"]]
        assert not error and times == sorted(times, reverse=True) and len(times) == 3
        assert all(p["source"] == "slack" and p["created_at"] >= "2026-04-09" for p in recent["result"])
        error, cards = await call(client, "get_entities", names=["Alice Chen", "Priya Raman"])
        assert not error and [c["name"] for c in cards["result"]] == ["Alice Chen", "Priya Raman"]
        error, counts = await call(client, "stats")
        assert not error and counts["passages_live"] == Passage.select().where(Passage.retired_at.is_null()).count()
        # a namespace per call: the agent's notes go to their own
        error, _ = await call(client, "ingest_passages", namespace="scratch",
                              passages=[{"id": "s1", "text": "Zephyr Queue feeds Orion Relay."}])  # fmt: skip
        error, there = await call(client, "search_passages", query="zephyr", namespace="scratch")
        error, here = await call(client, "search_passages", query="zephyr")
        assert [p["external_id"] for p in there["result"]] == ["s1"] and here["result"] == []
        error, ran = await call(client, "resolve", namespace="scratch")
        assert not error and ran["seconds"] >= 0
        error, counted = await call(client, "stats", namespace="scratch")
        assert counted["passages_live"] == 1 and counted["entities"] >= 2
    forget(NS, "m147")  # the text index follows the passages: a retired one is not found
    async with Client(build_server(NS)) as client:
        error, found = await call(client, "search_passages", query="billing ownership")
    assert found["result"] == []


@pilot_test
async def test_a_proposal_on_a_pair_already_asked_is_written_beside_it(team):
    asked = next(
        q
        for q in Question.select().where(
            (Question.status == "pending") & (Question.kind == "entity_pair") & Question.proposed_by.is_null()
        )
    )
    async with Client(build_server(NS, agent="scribe")) as client:
        for _ in range(2):  # said twice, written once
            error, made = await call(client, "propose_keep_apart", left=asked.left_name, right=asked.right_name,
                                     reason="one is the team, one the tool")  # fmt: skip
            assert not error and not made["queued"] and made["question"]["id"] == asked.id
    reason = Question.get_by_id(asked.id).reason
    assert reason.startswith(asked.reason)
    assert reason.count("agent scribe proposes they are different: one is the team, one the tool") == 1


@pilot_test
async def test_search_entities_sees_the_graph_as_it_changes(team):
    async with Client(build_server(NS, agent="scribe")) as client:
        error, before = await call(client, "search_entities", query="Zephyr Queu")
        assert not error and not [hit for hit in before["result"] if hit["name"].startswith("Zephyr")]
        await call(client, "ingest_passages", passages=[{"id": "z1", "text": "Zephyr Queue feeds Orion Relay."}])
        error, after = await call(client, "search_entities", query="Zephyr Queu")
        assert not error and after["result"][0]["name"] == "Zephyr Queue" and after["result"][0]["passages"] == 1
        error, short = await call(client, "search_entities", query="ze")  # a word's opening is enough
        assert not error and "Zephyr Queue" in [hit["name"] for hit in short["result"]]

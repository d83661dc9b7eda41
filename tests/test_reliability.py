"""Nothing lost, nothing leaked: hostile items over MCP, permissions, secrets in URLs, control
characters, section ids and path keys, empty arguments, worker processes, a full disk (issue 49)."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time

import pytest
from tuistore import pilot_test

from memo_tui.cli import main
from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.ingest import ingest_records
from memo_tui.store import Passage, db
from memo_tui.store.connect import shown
from memo_tui.store.locks import pass_lock
from memo_tui.text.sources import PassageRecord

NS = "default"


@pilot_test
async def test_over_mcp_a_hostile_item_is_named_and_skipped_and_the_good_ones_kept(store):
    pytest.importorskip("mcp")
    from mcp import Client

    from memo_tui.mcp.server import build_server

    items = [
        {"id": "a", "text": "Orion Relay fronts the Atlas Sync service."},
        {"id": "b", "text": "x \ud800"},
        {"id": "c", "text": "t", "created_at": "0001-01-01T00:00:00+05:00"},
        {"id": "d", "text": "a\x00b"},
        {"id": "e", "text": "t", "tags": "x"},
        {"id": "f", "text": "Atlas Sync runs on Postgres."},
    ]
    async with Client(build_server(NS, agent="scribe")) as client:
        result = await client.call_tool("ingest_passages", {"passages": items})
    assert not result.is_error, result.content
    report = result.structured_content
    assert report["passages_new"] == 2
    assert [error.split(":", 1)[0] for error in report["errors"]] == [f"passages[{i}]" for i in (1, 2, 3, 4)]
    assert "lone surrogate" in report["errors"][0] and "out of range" in report["errors"][1]
    assert "NUL" in report["errors"][2] and '"tags" must be a list of strings' in report["errors"][3]
    assert sorted(p.external_id for p in Passage.select()) == ["a", "f"]


@pilot_test
async def test_over_mcp_an_item_that_is_not_an_object_is_named_and_skipped_and_the_good_ones_kept(store):
    pytest.importorskip("mcp")
    from mcp import Client

    from memo_tui.mcp.server import build_server

    items = [{"id": "a", "text": "Orion Relay fronts the Atlas Sync service."}, 5, "text", None, [{"text": "t"}]]
    items.append({"id": "f", "text": "Atlas Sync runs on Postgres."})
    async with Client(build_server(NS, agent="scribe")) as client:
        result = await client.call_tool("ingest_passages", {"passages": items})
    assert not result.is_error, result.content
    report = result.structured_content
    assert report["passages_new"] == 2
    assert report["errors"] == [
        f"passages[{n}]: expected a JSON object, got {kind}; skipped"
        for n, kind in ((1, "int"), (2, "str"), (3, "NoneType"), (4, "list"))
    ]
    assert sorted(p.external_id for p in Passage.select()) == ["a", "f"]


def _exchange(store, *messages: str) -> list[dict]:
    """Lines sent to `memo-tui mcp` over real stdio after the handshake; a reply to each, by id
    (stdin is held open until they are all in: the SDK ends at its end, in-flight calls unanswered)."""
    import select

    handshake = [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "1"},
                },
            }
        ),  # fmt: skip
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ]
    command = [sys.executable, "-m", "memo_tui", "--db", str(store), "mcp", "--as", "scribe"]
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    server.stdin.write("".join(line + "\n" for line in (*handshake, *messages)).encode())
    server.stdin.flush()
    replies, deadline = {}, time.monotonic() + 120
    while len(replies) < len(messages) + 1 and select.select([server.stdout], [], [], deadline - time.monotonic())[0]:
        line = server.stdout.readline()
        if not line:
            break
        reply = json.loads(line)
        replies[reply["id"]] = reply
    server.stdin.close()
    assert server.wait(60) == 0, server.stderr.read().decode()[-2000:]
    server.stdout.close()
    server.stderr.close()
    return [replies.get(n) for n in range(1, len(messages) + 1)]


def _call(ident: int, tool: str, arguments: str) -> str:
    """A tools/call line, its arguments given as JSON text (so that it can hold what json.dumps would not write)."""
    params = f'{{"name": "{tool}", "arguments": {arguments}}}'
    return f'{{"jsonrpc": "2.0", "id": {ident}, "method": "tools/call", "params": {params}}}'


def test_over_mcp_stdio_a_lone_surrogate_is_answered_with_an_error_and_the_server_goes_on(store):
    pytest.importorskip("mcp")
    good = '{"id": "a", "text": "Orion Relay fronts the Atlas Sync service."}'
    replies = _exchange(
        store,
        _call(1, "ingest_passages", f'{{"passages": [{good}, {{"id": "b", "text": "x \\ud800"}}]}}'),
        _call(2, "ingest_passages", f'{{"passages": [{good}]}}'),
        _call(3, "search_entities", '{"query": "Orion \\ud83d\\ude00"}'),  # a pair is text: searched
    )
    refused, ingested, searched = replies
    assert refused["error"]["code"] == -32602
    assert refused["error"]["message"].startswith("params.arguments.passages[1].text holds a lone surrogate")
    assert "x " not in refused["error"]["message"]  # the value is not repeated
    assert ingested["result"]["structuredContent"]["passages_new"] == 1  # nothing of call 1 was ingested
    assert not searched["result"]["isError"]
    assert [p.external_id for p in Passage.select()] == ["a"]


def test_a_line_without_a_lone_surrogate_is_handed_on_unread():
    pytest.importorskip("mcp")
    from memo_tui.mcp.stdio import refusal

    assert refusal(b'{"jsonrpc": "2.0", "id": 7, "method": "ping"}\n') is None
    assert refusal(b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"a": "\\ud83d\\ude00"}}\n') is None
    assert refusal(b'{"jsonrpc": "2.0", "method": "notifications/x", "params": {"a": "\\ud800"}}\n') is None
    assert refusal(b'{"jsonrpc": "2.0", "id": "\\ud800", "method": "ping"}\n') is None  # no id to answer with
    assert refusal(b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"a": "\\\\ud800"}}\n') is None
    said = json.loads(refusal(b'{"jsonrpc": "2.0", "id": "q", "method": "x", "params": {"\\udfff": 1}}'))
    assert said["id"] == "q" and said["error"]["message"].startswith("params.(a key) holds a lone surrogate")


def _jsonl(path, *rows) -> str:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


@pytest.fixture
def owner_umask():
    """A umask that lets others read new files (the common default), so that modes are the code's."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_new_store_and_its_side_files_are_its_owners_alone(tmp_path, owner_umask):
    path = tmp_path / "s.db"
    database = open_store(str(path))
    try:
        ingest_records(NS, [PassageRecord("p1", "Acme Gateway runs on Postgres.", "s")])
        with pass_lock(NS):
            found = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
    finally:
        database.close()
        db.initialize(None)
    assert found == {"s.db": 0o600, "s.db-wal": 0o600, "s.db-shm": 0o600, "s.db.pass-lock": 0o600}


def test_the_default_data_folder_is_made_for_its_owner_alone(tmp_path, monkeypatch, owner_umask, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("MEMO_TUI_DB", raising=False)
    try:
        assert main(["stats"]) == 0
    finally:
        db.close()
        db.initialize(None)
    folder = tmp_path / "data" / "memo-tui"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "memo.db").stat().st_mode) == 0o600


@pytest.mark.parametrize("form", ["{path}", "sqlite:///{path}"])
def test_a_store_in_a_folder_that_does_not_exist_is_refused_in_one_line(tmp_path, capsys, form):
    location = form.format(path=tmp_path / "typo" / "s.db")
    assert main(["stats", "--db", location]) == 2
    err = capsys.readouterr().err
    assert err == f"memo-tui: cannot open store {location}: no folder {tmp_path / 'typo'}\n"
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize(
    ("location", "secret_free"),
    [
        ("postgresql://ann:hunter2@db.example/memo", "postgresql://ann:***@db.example/memo"),
        ("postgresql://ann@db.example/memo?password=hunter2", "postgresql://ann@db.example/memo?password=***"),
        (
            "postgresql://db.example/memo?sslmode=require&PassWord=hunter2&sslpassword=hunter2",
            "postgresql://db.example/memo?sslmode=require&PassWord=***&sslpassword=***",
        ),
        ("postgresql://ann:p@ss:hunter2@db.example/memo", "postgresql://ann:***@db.example/memo"),
        ("/home/ann/memo.db", "/home/ann/memo.db"),
    ],
)
def test_secrets_in_a_store_url_are_masked(location, secret_free):
    assert shown(location) == secret_free


@pytest.mark.parametrize(
    "location",
    [
        "postgresql://ann@127.0.0.1:1/memo?password=hunter2",  # nothing listens there
        "postgresql://ann:hunter2@127.0.0.1:99999/memo?password=hunter2",  # a port out of range
        "postgresql://ann:hunter2@127.0.0.1:port/memo",  # not a port
        "mysql://ann:hunter2@127.0.0.1/memo?password=hunter2",  # not a store memo-tui opens
    ],
)
def test_a_store_url_that_cannot_be_opened_says_so_in_one_line_without_its_secrets(location, capsys):
    pytest.importorskip("psycopg")
    assert main(["stats", "--db", location]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memo-tui: cannot open store ") and err.count("\n") == 1
    assert "hunter2" not in err and "internal error" not in err


HOSTILE = "Evil\x1b]0;owned\x07 Corp"


def test_stored_control_characters_never_reach_the_terminal_but_json_stays_exact(run_cli, tmp_path):
    src = _jsonl(
        tmp_path / "in.jsonl",
        {"id": "x\x1b[2J", "text": "Acme Gateway meets Evil Corp.\x1b[2J\u202e", "entities": ["Acme Gateway", HOSTILE]},
        {"id": "y", "text": "Acme Gateway again with Evil Corp.", "entities": ["Acme Gateway", HOSTILE]},
    )
    assert run_cli("ingest", src)[0] == 0
    for argv in (["related", "Acme Gateway"], ["explore", "Acme Gateway", "--hops", "2"], ["related", HOSTILE]):
        code, out, err = run_cli(*argv)
        assert code == 0, err
        assert "Evil" in out and not set(out) & {"\x1b", "\x07", "\u202e"}, out
    code, out, _ = run_cli("explore", "Acme Gateway", "--json")
    texts = {p["external_id"]: p["text"] for p in json.loads(out)["passages"]}
    assert texts["x\x1b[2J"] == "Acme Gateway meets Evil Corp.\x1b[2J\u202e"
    code, out, _ = run_cli("graph", "rename", HOSTILE, "Evil\x1b[31m Inc")
    assert code == 0 and "\x1b" not in out


def test_markdown_section_ids_are_unique_and_stable_across_reingests(run_cli, tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# A\nAcme Gateway one.\n# A\nAcme Gateway two.\n# A-2\nAcme Gateway three.\n# a 2\nfour.\n")
    code, out, _ = run_cli("ingest", str(notes), "--json")
    assert code == 0 and json.loads(out)["passages_new"] == 4
    ids = sorted(p.external_id for p in Passage.select().where(Passage.retired_at.is_null()))
    assert ids == [f"{notes}#{suffix}" for suffix in ("a", "a-2", "a-2-2", "a-2-3")]
    code, out, _ = run_cli("ingest", str(notes), "--json")
    report = json.loads(out)
    assert (report["passages_unchanged"], report["passages_revised"], report["passages_new"]) == (4, 0, 0)
    assert Passage.select().count() == 4


def test_a_folders_passages_are_keyed_the_same_by_a_relative_and_an_absolute_path(run_cli, tmp_path, monkeypatch):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("# Ops\nAcme Gateway runs on Postgres.\n")
    _jsonl(tmp_path / "notes" / "b.jsonl", {"text": "Nimbus Vault backs up Acme Gateway."})
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli("ingest", "notes", "--json")
    assert code == 0 and json.loads(out)["passages_new"] == 2
    for written in (str(tmp_path / "notes"), "./notes/", "notes/../notes"):
        code, out, _ = run_cli("ingest", written, "--json")
        assert json.loads(out)["passages_unchanged"] == 2 and json.loads(out)["passages_new"] == 0, written
    assert Passage.select().count() == 2


def test_an_empty_path_is_refused_not_the_current_directory(run_cli, tmp_path, monkeypatch):
    (tmp_path / "here.md").write_text("# Here\nAcme Gateway.\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("ingest", "")
    assert code == 2 and err.count("\n") == 1 and "empty path" in err
    assert Passage.select().count() == 0


def test_an_empty_db_is_refused_not_the_default_store(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["stats", "--db", ""]) == 2
    assert main(["--db", "", "stats"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "--db is empty" in err
    assert not (tmp_path / "data").exists()


def _exits(argv: list[str], capsys) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own exit
        code = exc.code
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["graph", "merge", str(2**63)],
        ["graph", "revert", str(2**64)],
        ["graph", "history", "--limit", str(-(2**63) - 1)],
        ["graph", "merge", "x"],
        ["related", "Acme", "--as-of", "0001-01-01T00:00:00+05:00"],
        ["explore", "Acme", "--as-of", "0000-01-01"],
        ["ingest", "a" * 100_000],
        ["nosuch"],
        ["ingest"],
        ["graph"],
        ["resolve", "--cap"],
        ["--db"],
    ],
    ids=lambda argv: " ".join(argv)[:40],
)
def test_bad_arguments_get_one_clear_line(run_cli, store, capsys, argv):
    code, err = _exits([*argv, "--db", store] if argv != ["--db"] else argv, capsys)
    assert code in (1, 2)
    assert err.count("\n") == 1, err
    assert "internal error" not in err and "usage:" not in err


@pytest.mark.parametrize(
    "same", ["Acme Gateway", " Acme Gateway ", "Ａｃｍｅ Gateway", "@Acme Gateway", "Acme  Gateway"]
)
def test_renaming_an_entity_to_its_own_name_is_refused_and_lint_stays_clean(run_cli, tmp_path, same):
    run_cli("ingest", _jsonl(tmp_path / "in.jsonl", {"text": "Acme Gateway runs.", "entities": ["Acme Gateway"]}))
    code, _, err = run_cli("graph", "rename", "Acme Gateway", same)
    assert code == 2 and "already has the name" in err
    assert run_cli("lint")[0] == 0


def test_a_full_disk_says_so_with_what_was_committed_and_an_ingest_again_goes_on(tmp_path, monkeypatch, capsys):
    # SQLite's own full-disk error, at a page limit: a real disk filled up fails the same way
    from memo_tui.engine import ingest
    from memo_tui.store.dialects import sqlite

    monkeypatch.setattr(ingest, "CHUNK", 40)
    rows = [{"id": f"p{i}", "text": f"Alpha{i} Service talks to Beta{i % 9} Gateway, number {i}."} for i in range(400)]
    src = _jsonl(tmp_path / "in.jsonl", *rows)
    store = str(tmp_path / "s.db")
    monkeypatch.setitem(sqlite.PRAGMAS, "max_page_count", 60)
    try:
        assert main(["ingest", "--db", store, src]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "the disk is full" in err and "cannot rollback" not in err
        committed = int(err.split("committed before it: ")[1].split(" new")[0])
        assert 0 < committed < 400 and committed % 40 == 0
        assert Passage.select().where(Passage.retired_at.is_null()).count() == committed
        monkeypatch.delitem(sqlite.PRAGMAS, "max_page_count")
        assert main(["ingest", "--db", store, src, "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert (report["passages_unchanged"], report["passages_new"]) == (committed, 400 - committed)
        assert main(["lint", "--db", store]) == 0
    finally:
        db.close()
        db.initialize(None)


KILLED_PARENT = """
import os, sys, time
from memo_tui.runtime.processes import second_process

if __name__ == "__main__":
    pool = second_process()
    print(pool.submit(os.getpid).result(), flush=True)
    pool.submit(time.sleep, 120)
    time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_worker_process_ends_with_its_parent_when_the_parent_is_killed(tmp_path):
    script = tmp_path / "parent.py"
    script.write_text(KILLED_PARENT)
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    worker = int(parent.stdout.readline())
    assert _alive(worker)
    parent.send_signal(signal.SIGKILL)  # no pool shutdown, no atexit: what a kill -9 or the OOM killer does
    parent.wait()
    deadline = time.monotonic() + 30  # a bound for a liveness check, far above the watch's half second
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(worker)


def _read_only(store: str, monkeypatch) -> None:
    """From now on the store may only be read: a server setting on PostgreSQL; on SQLite (whose file
    modes do not stop root) the connection's query_only, which fails writes as a read-only file does."""
    from memo_tui.store.dialects import sqlite

    if "://" not in store:
        monkeypatch.setitem(sqlite.PRAGMAS, "query_only", 1)
        return
    import psycopg

    with psycopg.connect(store.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{store.rsplit("/", 1)[1]}" SET default_transaction_read_only = on')


def test_a_read_only_store_answers_reads_and_refuses_writes_in_one_line(run_cli, store, tmp_path, monkeypatch):
    rows = [{"id": f"r{i}", "text": "Acme Gateway and acme-gateway meet Nimbus Vault.",
             "entities": ["Acme Gateway", "acme-gateway", "Nimbus Vault"]} for i in range(3)]  # fmt: skip
    run_cli("ingest", _jsonl(tmp_path / "in.jsonl", *rows))
    run_cli("resolve")
    _read_only(store, monkeypatch)
    for argv in (["related", "Nimbus Vault"], ["explore", "Nimbus Vault"], ["queue"], ["stats"]):
        code, out, err = run_cli(*argv)
        assert (code, err) == (0, ""), argv
        assert out
    for argv in (
        ["graph", "rename", "Nimbus Vault", "Nimbus Safe"],
        ["ingest", _jsonl(tmp_path / "b.jsonl", {**rows[0], "id": "new"})],  # a copy of a stored one writes nothing
    ):
        code, _, err = run_cli(*argv)
        assert code == 2 and err.count("\n") == 1 and "the store is read-only" in err, (argv, err)

"""Bad input: one clear `path:line: what is wrong` line each, good lines kept, non-zero exit."""

import json
import os
import subprocess
import sys

import pytest

from memo_tui.store import Passage


def lines(*rows) -> bytes:
    return b"".join((row if isinstance(row, bytes) else json.dumps(row).encode()) + b"\n" for row in rows)


GOOD_1 = {"id": "g1", "text": "We run Postgres for Acme Gateway."}
GOOD_2 = {"id": "g2", "text": "We run Redis for Acme Cache."}


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (b"{not json", "malformed JSON"),
        (b'{"id": "x", "text": "no end}', "(Invalid control character at column 29)"),  # "at" said once
        (json.dumps({"id": "x"}).encode(), 'missing "text"'),
        (json.dumps({"id": "x", "text": ""}).encode(), 'missing "text"'),
        (json.dumps([1, 2]).encode(), "expected a JSON object"),
        (b'{"id": "x", "text": "caf\xe9 au lait"}', "invalid UTF-8"),
        (json.dumps({"id": "x", "text": "t", "created_at": "yesterday"}).encode(), "not an ISO 8601 time"),
        (json.dumps({"id": "x", "text": "t", "relations": [{"src": "a"}]}).encode(), "relation needs"),
        (json.dumps({"id": "x", "text": "t", "entities": "Bob"}).encode(), '"entities" must be a list'),
        (b'{"text": "' + b"a" * 10_000_000 + b'"}', "over the 1 MB limit"),
        # what one store keeps and the other refuses, or neither can encode: refused before the store
        (b'{"id": "x", "text": "x \\ud800"}', "lone surrogate"),
        (b'{"id": "x", "text": "a\\u0000b"}', '"text" holds a NUL character'),
        (b'{"id": "x\\u0000", "text": "t"}', '"id" holds a NUL character'),
        (b'{"id": "x", "text": "t", "source": "s\\udfff"}', '"source" holds a lone surrogate'),
        (b'{"id": "x", "text": "t", "entities": [{"name": "B\\ud800b"}]}', "entity name holds"),
        (b'{"id": "x", "text": "t", "entities": [{"name": "Bob", "type": "\\u0000"}]}', "entity type holds"),
        (
            b'{"id": "x", "text": "t", "relations": [{"src": "a", "predicate": "p\\u0000", "dst": "b"}]}',
            "relation holds",
        ),
        (b'{"id": "x", "text": "t", "tags": ["ok", "\\ud83d"]}', '"tags" holds a lone surrogate'),
        (b'{"id": "x", "text": "t", "supersedes": ["a\\u0000"]}', '"supersedes" holds a NUL'),
        (json.dumps({"id": "x", "text": "t", "created_at": "0001-01-01T00:00:00+05:00"}).encode(), "out of range"),
        (json.dumps({"id": "x", "text": "t", "created_at": "9999-12-31T23:00:00-05:00"}).encode(), "out of range"),
        (b"[" * 10_000 + b"]" * 10_000, "nested too deep"),
        (b'{"id": "x", "text": "t", "entities": ' + b"[" * 10_000 + b"]" * 10_000 + b"}", "nested too deep"),
        (
            b'{"id": "x", "text": "t", "relations": [{"src": "a", "predicate": "p", "dst": "b", "confidence": 1'
            + b"0" * 5000
            + b"}]}",
            "malformed JSON",
        ),
        # every field's type is checked
        (json.dumps({"id": "x", "text": "t", "tags": "x"}).encode(), '"tags" must be a list of strings'),
        (json.dumps({"id": "x", "text": "t", "tags": [1]}).encode(), '"tags" must be a list of strings'),
        (json.dumps({"id": "x", "text": "t", "supersedes": "y"}).encode(), '"supersedes" must be a list'),
        (json.dumps({"id": "x", "text": "t", "contradicts": [None]}).encode(), '"contradicts" must be a list'),
        (json.dumps({"id": True, "text": "t"}).encode(), '"id" must be'),
        (json.dumps({"id": "x", "text": "t", "source": 3}).encode(), '"source" must be a string'),
        (json.dumps({"id": "x", "text": "t", "created_at": 1700000000}).encode(), '"created_at" must be'),
        (json.dumps({"id": "x", "text": "t", "entities": [{"name": "B", "type": 1}]}).encode(), '"type" must be'),
        (json.dumps({"id": "x", "text": "t", "relations": {"src": "a"}}).encode(), '"relations" must be a list'),
        (json.dumps({"id": "x", "text": ["t"]}).encode(), 'missing "text"'),
        (
            json.dumps(
                {
                    "id": "x",
                    "text": "t",
                    "relations": [{"src": "a", "predicate": "p", "dst": "b", "confidence": "high"}],
                }
            ).encode(),
            '"confidence"',
        ),
    ],
    ids=lambda value: repr(value)[:50],
)
def test_bad_line_is_reported_and_good_lines_are_kept(run_cli, tmp_path, bad, message):
    src = tmp_path / "in.jsonl"
    src.write_bytes(lines(GOOD_1, bad, GOOD_2))
    code, out, err = run_cli("ingest", str(src))
    assert code == 1
    assert err.splitlines() == [err.splitlines()[0]]
    assert err.startswith(f"{src}:2: ") and message in err
    assert sorted(p.external_id for p in Passage.select()) == ["g1", "g2"]


def test_strict_ingests_nothing_from_a_file_with_a_bad_line(run_cli, tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_bytes(lines(GOOD_1, b"{oops", GOOD_2))
    good = tmp_path / "good.jsonl"
    good.write_bytes(lines({"id": "g3", "text": "Fine passage about Acme Gateway."}))
    code, out, err = run_cli("ingest", "--strict", str(src), str(good))
    assert code == 1
    assert f"{src}:2: malformed JSON" in err
    assert "--strict: none of its 2 good passages ingested" in err
    assert [p.external_id for p in Passage.select()] == ["g3"]


def test_empty_file(run_cli, tmp_path):
    src = tmp_path / "empty.jsonl"
    src.write_bytes(b"")
    code, _, err = run_cli("ingest", str(src))
    assert code == 1 and err.strip() == f"{src}: empty file, nothing to ingest"


def test_binary_file(run_cli, tmp_path):
    src = tmp_path / "blob.dat"
    src.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    code, _, err = run_cli("ingest", str(src))
    assert code == 1 and err.strip() == f"{src}: binary file, not ingested"


def test_missing_path(run_cli, tmp_path):
    code, _, err = run_cli("ingest", str(tmp_path / "nope.md"))
    assert code == 1 and "no such file or directory" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every directory")
def test_unreadable_directory(run_cli, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        code, _, err = run_cli("ingest", str(locked))
    finally:
        locked.chmod(0o755)
    assert code == 1 and "permission denied" in err


def test_unreadable_directory_is_reported_even_as_root(run_cli, tmp_path, monkeypatch):
    def refuse(path):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("memo_tui.text.sources.os.scandir", refuse)
    (tmp_path / "d").mkdir()
    code, _, err = run_cli("ingest", str(tmp_path / "d"))
    assert code == 1 and err.strip() == f"{tmp_path / 'd'}: permission denied"


def test_invalid_utf8_in_markdown_skips_only_its_section(run_cli, tmp_path):
    src = tmp_path / "notes.md"
    src.write_bytes(b"# Good One\nAcme Gateway\n# Bad One\ncaf\xe9\n# Good Two\nPostgres here\n")
    code, _, err = run_cli("ingest", str(src))
    assert code == 1 and f"{src}:4: invalid UTF-8" in err
    assert sorted(p.external_id for p in Passage.select()) == [f"{src}#good-one", f"{src}#good-two"]


def test_stdin_is_read_as_jsonl(store, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "memo_tui", "ingest", "--db", str(store), "-", "--json"],
        input=lines(GOOD_1, GOOD_2),
        capture_output=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["passages_new"] == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["forget", "no-such-id"],
        ["ingest", "/definitely/not/here.jsonl"],
        ["stats", "--db", "/proc/version/store.db"],
    ],
)
def test_no_traceback_reaches_the_user(tmp_path, argv):
    env = {**os.environ, "MEMO_TUI_DB": str(tmp_path / "s.db")}
    env.pop("MEMO_TUI_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "memo_tui", *argv], capture_output=True, text=True, env=env)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_common_options_work_before_and_after_the_subcommand(tmp_path, capsys):
    from memo_tui.cli import main

    src = tmp_path / "a.jsonl"
    src.write_bytes(lines(GOOD_1))
    before, after = tmp_path / "before.db", tmp_path / "after.db"
    assert main(["--db", str(before), "--ns", "x", "ingest", str(src)]) == 0
    assert main(["ingest", str(src), "--db", str(after), "--ns", "x"]) == 0
    capsys.readouterr()
    for path in (before, after):
        assert main(["stats", "--db", str(path), "--ns", "x", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["passages_live"] == 1

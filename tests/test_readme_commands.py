"""Every `memo-tui` command the README shows runs, on the demo store with the demo's own ids."""

import io
import json
import re
from pathlib import Path

import pytest

from memo_tui.cli import main

ROOT = Path(__file__).resolve().parent.parent
SUBCOMMANDS = {"graph"}  # commands whose next word is a command too

# In the README's order; each one runs after the ones before, on one copy of the demo store.
# {tmp} is a temporary folder; question, decision and fold ids are the demo's.
RUNS = [
    ["stats"],
    ["--db", "{tmp}/other.db", "demo", "--no-open"],
    ["copy", "--to", "{tmp}/copy.db", "--all"],
    ["ingest", "{tmp}/notes", "{tmp}/memories.jsonl", "-"],
    ["ingest", "--strict", "{tmp}/memories.jsonl"],
    ["ingest", "--source", "alice", "{tmp}/notes"],
    ["forget", "w023"],
    ["graph", "fold", "Priya R.", "--into", "Priya Raman", "--as", "alice"],
    ["graph", "history"],
    ["graph", "history", "--who", "auto", "--json"],
    ["graph", "history", "--who", "human"],
    ["graph", "undo", "--as", "alice"],  # decision 4 reverts her fold, 3
    ["graph", "redo", "--as", "alice"],  # decision 5 folds again
    ["graph", "revert", "5"],
    ["graph", "revert", "1", "--fold"],  # the demo's first automatic fold
    ["graph", "delete", "TTL"],
    ["graph", "rename", "Team Harbor", "Harbor team"],
    ["graph", "not-a-name", "Replaces"],
    ["graph", "unsure", "11", "--note", "the CI or the product?"],
    ["graph", "merge", "10", "--swap"],
    ["graph", "reject", "12"],
    ["graph", "keep-both", "8"],
    ["graph", "merge", "9", "--canonical", "Claude Code", "--except", "ClaudeCode", "--mark-rest"],
    ["graph", "merge", "13", "14"],
    ["graph", "reject", "16", "17"],
    ["graph", "reject", "18", "--like"],
    ["graph", "reject", "18", "--like", "--yes"],
    ["judge", "Claude Code", "Claude-Code"],
    ["judge", "Claude Code", "Claude-Code", "--json"],
    ["resolve", "--dry-run"],
    ["resolve", "--cap", "50"],
    ["resolve", "--full"],
    ["queue"],
    ["queue", "--json"],
    ["queue", "--agent"],
    ["eval", "tests/data/labelled_pairs.jsonl"],
    ["eval", "tests/data/real/changelogs.labels.jsonl", "--store"],
    ["related", "Dmitri Novak", "--limit", "20", "--type", "person", "--as-of", "2026-03-01", "--json"],
    ["explore", "Dmitri Novak", "--hops", "2", "--as-of", "2026-03-01T00:00:00", "--json"],
    ["graph", "rebuild"],
    ["graph", "links"],
    ["graph", "links", "--rebuild"],
    ["lint"],
    ["lint", "--json"],
    ["metrics"],
    ["mcp", "--ns", "default", "--allow-answers", "--as", "helper"],  # stdin closed: it serves nothing, ends
]
# a server that runs until stopped: its own test drives it from a browser
# and a build of every kind of real text, minutes long: their own tests run them
RUN_ELSEWHERE = {("serve",): "tests/test_serve.py", ("eval", "--kinds"): "tests/test_eval_kinds.py"}
LINT_FINDS = {("lint",), ("lint", "--json")}  # exit 1 means a finding, which the deletes above leave

README_COMMAND = re.compile(r"(?<![\w/.-])memo-tui((?: +(?:[^`#|\s]|\|(?= *-))+)*)")


def readme_commands() -> set[tuple[str, ...]]:
    """(command words..., option) for every option shown with every `memo-tui` command in the README's
    code and inline code (`merge N | reject N` is two commands)."""
    text = (ROOT / "README.md").read_text()
    code = re.findall(r"```sh\n(.*?)```", text, re.S) + re.findall(r"(?<!`)`([^`\n]+)`(?!`)", text)
    shown = set()
    for block in code:
        for line in block.splitlines():
            parent: list[str] = []  # `memo-tui graph merge N | reject N`: the second is `graph reject`
            for part in re.split(r" \| (?=[a-z])", line.split("  #")[0]):
                words = [w.rsplit("/", 1)[-1] if w.endswith("/memo-tui") else w
                         for w in part.replace("[", " ").replace("]", " ").split()]  # fmt: skip
                if "memo-tui" in words:
                    words = words[words.index("memo-tui") + 1 :]
                    parent = words[:1] if words[:1] and words[0] in SUBCOMMANDS else []
                elif parent:
                    words = parent + words
                else:
                    continue
                shown |= _command(words)
    return shown


def _command(words: list[str]) -> set[tuple[str, ...]]:
    words = [w for w in words if not w.startswith("--db") and "://" not in w and w != "memo.db" and w != "s.db"]
    words = [w for w in words if w not in ("try.db",)]
    path = []
    for word in words:
        if word.startswith("-") or (path and path[0] not in SUBCOMMANDS) or len(path) == 2:
            break
        path.append(word)
    if not path or not re.fullmatch(r"[a-z|-]+", path[-1]):
        return set()
    options = {w.split("=")[0] for w in words if re.fullmatch(r"--[a-z-]+(=\S*)?", w)}
    paths = [(*path[:-1], last) for last in path[-1].split("|")]  # `graph merge|reject|keep-both N`
    return {p for path in paths for p in [path, *((*path, option) for option in options)]}


def _ran(argv: list[str]) -> set[tuple[str, ...]]:
    words = argv[2:] if argv[:1] == ["--db"] else argv
    path = words[:2] if words[0] in SUBCOMMANDS else words[:1]
    options = {w for w in words if w.startswith("--")}
    return {tuple(path)} | {(*path, option) for option in options}


def test_every_readme_command_is_in_the_runs():
    ran = set().union(*(_ran(argv) for argv in RUNS))
    shown = readme_commands()
    assert ("judge",) in shown and ("graph", "history", "--who") in shown  # the parser reads the README
    assert all((ROOT / test).exists() for test in RUN_ELSEWHERE.values())
    elsewhere = [c for c in shown if any(c[: len(key)] == key for key in RUN_ELSEWHERE)]
    missing = sorted(shown - ran - {("ingest", "-")} - set(elsewhere))
    assert not missing, f"README commands no test runs: {missing}"


@pytest.fixture
def inputs(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "standup.md").write_text("---\nauthor: Hiro Tanaka\n---\n# Standup\n\nPriya Raman moved Redis.\n")
    (notes / "chat.md").write_text("# Chat\n\nFixes #2361 / Replaces #2362 in the Redis pool.\n")
    (tmp_path / "memories.jsonl").write_text(json.dumps({"id": "r1", "text": "Alice Chen owns Acme Gateway."}) + "\n")
    return tmp_path


def test_the_readme_commands_run_on_the_demo_store(demo_store, inputs, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    for argv in RUNS:
        args = [a.replace("{tmp}", str(inputs)) for a in argv]
        if args[0] != "--db":
            args = [args[0], "--db", str(demo_store), *args[1:]]
        if args[-1:] == ["-"] or argv[0] == "mcp":
            monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(_stdin(argv))))
        code = main(args)
        out, err = capsys.readouterr()
        expected = (0, 1) if tuple(argv) in LINT_FINDS else (0,)
        assert code in expected, f"memo-tui {' '.join(argv)} exited {code}: {err.strip()}"
        assert "internal error" not in err and "Traceback" not in err
        if "--json" in argv:
            json.loads(out)


def _stdin(argv: list[str]) -> bytes:
    """A passage for `ingest -`; nothing for `mcp`, which then ends."""
    return json.dumps({"id": "r2", "text": "Kafka restarted."}).encode() + b"\n" if argv[-1:] == ["-"] else b""

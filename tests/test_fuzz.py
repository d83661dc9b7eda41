"""Hostile input, generated: a few thousand lines and arguments thrown at the CLI and the MCP server.
Nothing may end in `internal error`, no good line may be lost, and lint stays clean (issue 49)."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from memo_tui.engine.graph.lint import lint
from memo_tui.store import Passage

# derandomized and without shrinking: the same examples every run, in a bounded time (a failure
# is reported as found)
FUZZ = settings(
    max_examples=60,
    phases=[Phase.explicit, Phase.generate],
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)

# strings meant to hurt: lone surrogates, NUL and other controls, escapes a terminal obeys, odd spaces
NASTY = st.sampled_from(
    ["\ud800", "\udfff", "\x00", "\x1b[2J", "\x1b]0;owned\x07", "\u202e", "\r", "\t", "\u3000", "@", "Ｘ", "#", " "]
)
TEXT = st.lists(st.one_of(NASTY, st.text(max_size=12)), max_size=6).map("".join)
NUMBER = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=False), st.sampled_from([2**63, -(2**63) - 1])
)
TIME = st.one_of(
    st.sampled_from(["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-01:00", "0000-01-01", "2026-02-30", "now"]),
    st.datetimes().map(lambda d: d.isoformat()),
    TEXT,
)
KEY = st.text(max_size=8)  # the SDK's client cannot send a lone surrogate in a key (values it can)
SCALAR = st.one_of(st.none(), st.booleans(), NUMBER, TEXT)
VALUE = st.recursive(
    SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEY, inner, max_size=3)), max_leaves=8
)
FIELDS = {
    "text": TEXT,
    "source": TEXT,
    "created_at": TIME,
    "entities": st.lists(st.one_of(TEXT, st.fixed_dictionaries({"name": TEXT}, optional={"type": SCALAR})), max_size=3),
    "relations": st.lists(
        st.fixed_dictionaries({"src": TEXT, "predicate": TEXT, "dst": TEXT}, optional={"confidence": NUMBER}),
        max_size=2,
    ),
    "tags": st.one_of(TEXT, st.lists(st.one_of(TEXT, NUMBER), max_size=3)),
    "supersedes": st.lists(TEXT, max_size=2),
    "contradicts": st.lists(TEXT, max_size=2),
}
# an object with each field either of its type or of any other value at all
HOSTILE_OBJECT = st.fixed_dictionaries(
    {}, optional={name: st.one_of(kind, VALUE) for name, kind in FIELDS.items()} | {"id": st.one_of(TEXT, NUMBER)}
)
HOSTILE_LINE = st.one_of(
    HOSTILE_OBJECT.map(lambda obj: json.dumps(obj).encode()),
    VALUE.map(lambda value: json.dumps(value).encode()),
    st.binary(max_size=40).map(lambda raw: raw.replace(b"\n", b" ")),
    st.integers(min_value=1, max_value=5000).map(lambda depth: b"[" * depth + b"]" * depth),
)


def good_line(number: int, run: str) -> tuple[str, bytes]:
    """A line that must be kept, with an id no hostile line can name."""
    external_id = f"good-{run}-{number}"
    line = {"id": external_id, "text": f"Acme Gateway{number} talks to Nimbus Vault about item {number}."}
    return external_id, json.dumps(line).encode()


def test_generated_hostile_lines_never_lose_a_good_line(run_cli, tmp_path):
    lines_thrown = []

    @settings(FUZZ, max_examples=12)  # examples of many lines: each ingest and lint has a fixed cost
    @given(st.lists(HOSTILE_LINE, min_size=70, max_size=100))
    def ingest_among_good_lines(hostile: list[bytes]) -> None:
        run = uuid.uuid4().hex[:8]
        good = [good_line(number, run) for number in range(len(hostile) // 4 + 1)]
        mixed = [line for pair in zip(hostile[::2], hostile[1::2], strict=False) for line in pair]
        body = b"\n".join(g for _, g in good[:1]) + b"\n"
        for at, line in enumerate(mixed):
            body += line + b"\n"
            if at % 4 == 3 and at // 4 + 1 < len(good):
                body += good[at // 4 + 1][1] + b"\n"
        body += b"\n".join(g for _, g in good[len(mixed) // 4 + 1 :]) + b"\n"
        src = tmp_path / f"{run}.jsonl"
        src.write_bytes(body)
        lines_thrown.append(len(hostile))
        code, _, err = run_cli("ingest", str(src), "--ns", run)
        assert code in (0, 1), err
        assert "internal error" not in err and "Traceback" not in err, err
        assert all(line.startswith(f"{src}:") for line in err.splitlines()), err
        live = {p.external_id for p in Passage.select().where(Passage.namespace == run, Passage.retired_at.is_null())}
        assert {external_id for external_id, _ in good} <= live
        assert lint(run) == []

    ingest_among_good_lines()
    assert sum(lines_thrown) >= 800


COMMANDS = st.sampled_from(
    [
        ["related"], ["explore"], ["judge"], ["queue"], ["lint"], ["stats"], ["forget"], ["resolve", "--cap"],
        ["graph", "history", "--limit"], ["graph", "merge"], ["graph", "reject"], ["graph", "keep-both"],
        ["graph", "revert"], ["graph", "rename"], ["graph", "delete"], ["graph", "fold"], ["graph", "fold", "--into"],
        ["related", "Acme Gateway", "--as-of"], ["explore", "Acme Gateway", "--hops"], ["graph", "undo"],
    ]
)  # fmt: skip
ARGUMENT = st.one_of(
    TEXT, NUMBER.map(str), st.sampled_from(["Acme Gateway", "Nimbus Vault", "1", "2", "-1", "--json", "--swap", ""])
)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_generated_arguments_get_an_answer_or_one_clear_line(run_cli, capsys, tmp_path):
    src = tmp_path / "seed.jsonl"
    src.write_text(
        "".join(json.dumps({"id": f"s{i}", "text": f"Acme Gateway and Nimbus Vault, note {i}.",
                            "entities": ["Acme Gateway", "acme-gateway", "Nimbus Vault"]}) + "\n" for i in range(6))
    )  # fmt: skip
    assert run_cli("ingest", str(src))[0] == 0
    assert run_cli("resolve")[0] == 0
    before = {p.external_id for p in Passage.select()}
    thrown = []

    @FUZZ
    @given(COMMANDS, st.lists(ARGUMENT, max_size=3))
    def run(command: list[str], arguments: list[str]) -> None:
        argv = [*command, *arguments]
        thrown.append(argv)
        try:
            code, _, err = run_cli(*argv)
        except SystemExit as exc:  # argparse's own exit, after its one line
            code, err = exc.code, capsys.readouterr().err
        assert "internal error" not in err and "Traceback" not in err, (argv, err)
        assert code == 0 or err.count("\n") == 1, (argv, err)

    run()
    assert len(thrown) >= 60
    assert {p.external_id for p in Passage.select()} >= before  # a forget retires; nothing is deleted
    assert lint("default") == []


def test_generated_items_over_mcp_are_each_kept_or_named(store):
    pytest.importorskip("mcp")
    from mcp import Client

    from memo_tui.mcp.server import build_server

    batches: list[tuple[list[dict], list]] = []  # (the good items, every item in order)

    @settings(FUZZ, max_examples=30)  # items that are no object too: each is refused alone, not the batch
    @given(
        st.lists(st.one_of(HOSTILE_OBJECT, st.dictionaries(KEY, VALUE, max_size=4), VALUE), min_size=12, max_size=25)
    )
    def generate(hostile: list) -> None:
        number = len(batches)
        good = [{"id": f"good-{number}-{n}", "text": f"Orion Relay{n} fronts Atlas Sync."} for n in range(3)]
        batches.append(
            (good, [good[0], *hostile[: len(hostile) // 2], good[1], *hostile[len(hostile) // 2 :], good[2]])
        )

    generate()  # one client session for them all: a session's start is most of a small call's time

    async def throw() -> list[dict]:
        async with Client(build_server("agents", agent="fuzz")) as client:
            return [await client.call_tool("ingest_passages", {"passages": items}) for _, items in batches]

    results = asyncio.run(throw())
    assert sum(len(items) - 3 for _, items in batches) >= 360
    live = {p.external_id for p in Passage.select().where(Passage.namespace == "agents", Passage.retired_at.is_null())}
    for (good, items), result in zip(batches, results, strict=True):
        assert not result.is_error, result.content
        errors = result.structured_content["errors"]
        assert not any("internal error" in error for error in errors), errors
        named = {int(error.split("]", 1)[0].removeprefix("passages[")) for error in errors}
        assert not named & {at for at, item in enumerate(items) if any(item is g for g in good)}, errors
        assert {g["id"] for g in good} <= live
    assert lint("agents") == []

"""Nothing lost, nothing leaked: hostile items over MCP, permissions, secrets in URLs, control
characters, section ids and path keys, empty arguments, worker processes, a full disk (issue 49)."""

from __future__ import annotations

import pytest
from tuistore import pilot_test

from memo_tui.store import Passage

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

"""MCP tool calls on the ~1M-mention store of bench_graph.py, through a real stdio server.

Run:  .venv/bin/python benchmarks/bench_graph.py          # builds /tmp/memo-bench-graph.db once
      .venv/bin/python benchmarks/bench_mcp.py [--store /tmp/memo-bench-graph.db] [--queries 300]
Starts `memo-tui mcp` over stdio with the SDK's client, and prints the server's start-up time (until
the tool list arrives), then p50 / p95 of related_entities, explore(hops=2) and search_entities (each
name with its last letter dropped) over random entities, each a full round trip (JSON over the pipe,
the structured result validated by the client).
Aims: related p95 <= 20 ms, explore p95 <= 120 ms, search_entities p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time

from mcp import Client, StdioServerParameters

from memo_tui.engine.graph.opening import open_store
from memo_tui.store import Entity, db


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(store: str, names: list[str]) -> None:
    server = StdioServerParameters(command=sys.executable, args=["-m", "memo_tui", "--db", store, "mcp"])
    started = time.perf_counter()
    async with Client(server) as client:
        await client.list_tools()
        print(f"start-up (process, store, SDK, tool list): {(time.perf_counter() - started) * 1000:.0f} ms")
        warm = time.perf_counter()
        await client.call_tool("related_entities", {"name": names[0]})
        print(f"first call (builds the graph cache): {time.perf_counter() - warm:.2f} s")
        warm = time.perf_counter()
        await client.call_tool("search_entities", {"query": names[0]})
        print(f"first search (loads the spellings): {time.perf_counter() - warm:.2f} s")
        calls = (
            ("related_entities", "related_entities", lambda name: {"name": name}),
            ("explore(hops=2)", "explore", lambda name: {"name": name, "hops": 2}),
            ("search_entities", "search_entities", lambda name: {"query": name[:-1] or name}),
        )
        for label, tool, arguments in calls:
            took = []
            for name in names:
                begin = time.perf_counter()
                result = await client.call_tool(tool, arguments(name))
                took.append(time.perf_counter() - begin)
                assert not result.is_error, result.content
            print(
                f"{label}: p50 {statistics_ms(took, 0.5)} ms, p95 {statistics_ms(took, 0.95)} ms over {len(took)} calls"
            )


def statistics_ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default="/tmp/memo-bench-graph.db")
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    open_store(args.store)
    names = sorted(name for (name,) in Entity.select(Entity.name).tuples())
    db.close()
    asyncio.run(run(args.store, random.Random(3).sample(names, min(args.queries, len(names)))))


if __name__ == "__main__":
    main()

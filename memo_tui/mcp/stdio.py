"""`memo-tui mcp` over stdio, answering the one request the SDK would leave unanswered.

A JSON string may hold a lone surrogate escape (`"x \\ud800"`): valid JSON, but the SDK's stdio
reader parses strictly, refuses the line before any tool runs and answers nothing, so the client
waits for ever. Two pipes are put between the process's stdin/stdout and the SDK's transport
(`MCPServer.run("stdio")`, which serves fds 0 and 1): each line in is handed on unchanged, but a
request that holds a lone surrogate is answered here with an error naming where it is (the same
rule ingest applies: such text is no text a store can hold); each line out is copied whole, so that
an answer given here never lands inside another message.
"""

from __future__ import annotations

import json
import os
import re
import select
import threading

from mcp.server.mcpserver import MCPServer

INVALID_PARAMS = -32602  # JSON-RPC: the method exists, its parameters are not acceptable
_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # what a line holding a surrogate escape contains
_LONE = re.compile("[\ud800-\udfff]")  # a surrogate left alone once the escapes are read (pairs are joined)
_KEY = re.compile(r"\w{1,40}")


def serve_stdio(server: MCPServer) -> None:
    """Serve MCP on this process's stdin and stdout until stdin ends."""
    relay = _Relay()
    try:
        server.run("stdio")
    finally:
        relay.close()


def refusal(line: bytes) -> bytes | None:
    """The error to answer a request line with that holds a lone surrogate (None: hand it on).
    A notification or a response has no one to answer, and a line that is no JSON at all is the
    SDK's to report."""
    if not _ESCAPE.search(line):
        return None
    try:
        message = json.loads(line.decode("utf-8", "replace"))
    except ValueError:
        return None
    if not isinstance(message, dict) or "method" not in message:
        return None
    ident = message.get("id")
    if not isinstance(ident, (int, str)) or isinstance(ident, bool) or _LONE.search(str(ident)):
        return None
    where = _lone(message, "")
    if where is None:
        return None
    said = (
        f"{where.lstrip('.') or 'the request'} holds a lone surrogate (a \\ud800-\\udfff escape without its "
        "pair), which is no text; nothing was done: send the text as UTF-8"
    )
    reply = {"jsonrpc": "2.0", "id": ident, "error": {"code": INVALID_PARAMS, "message": said}}
    return json.dumps(reply).encode() + b"\n"


def _lone(value: object, path: str) -> str | None:
    """Where in a message the first lone surrogate is (`.params.arguments.passages[1].text`)."""
    if isinstance(value, str):
        return path if _LONE.search(value) else None
    if isinstance(value, list):
        return next((found for n, item in enumerate(value) if (found := _lone(item, f"{path}[{n}]"))), None)
    if isinstance(value, dict):
        for key, item in value.items():
            shown = f".{key}" if _KEY.fullmatch(key) else ".(a key)"
            if _LONE.search(key):
                return path + shown
            found = _lone(item, path + shown)
            if found is not None:
                return found
    return None


class _Relay:
    """The pipes between the process's stdin/stdout (the wire) and fds 0 and 1 (the SDK's), and the
    two threads that copy lines across them."""

    def __init__(self) -> None:
        self.wire_in, self.wire_out = os.dup(0), os.dup(1)
        sdk_in, self.feed = os.pipe()
        self.drain, sdk_out = os.pipe()
        self.woken, self.wake = os.pipe()
        os.dup2(sdk_in, 0)
        os.dup2(sdk_out, 1)
        os.close(sdk_in)
        os.close(sdk_out)
        self.lock = threading.Lock()
        threading.Thread(target=self._copy_in, name="mcp-stdin", daemon=True).start()
        self.out = threading.Thread(target=self._copy_out, name="mcp-stdout")
        self.out.start()

    def _send(self, data: bytes) -> None:
        """Whole lines onto the wire, one writer at a time."""
        with self.lock:
            view = memoryview(data)
            while view:
                view = view[os.write(self.wire_out, view) :]

    def _copy_in(self) -> None:
        with os.fdopen(self.wire_in, "rb", closefd=False) as wire, os.fdopen(self.feed, "wb") as feed:
            for line in wire:
                answer = refusal(line)
                if answer is not None:
                    self._send(answer)
                    continue
                try:
                    feed.write(line)
                    feed.flush()
                except BrokenPipeError:  # the server has stopped reading: it is ending
                    return

    def _copy_out(self) -> None:
        held = b""  # the start of a line not yet whole
        while True:
            ready, _, _ = select.select([self.drain, self.woken], [], [])
            if self.drain not in ready:  # the server has ended: what it wrote is all in the pipe
                break
            chunk = os.read(self.drain, 1 << 16)
            if not chunk:  # every copy of the pipe's writing end closed
                break
            held += chunk
            cut = held.rfind(b"\n") + 1
            if cut:
                self._send(held[:cut])
                held = held[cut:]
        while select.select([self.drain], [], [], 0)[0] and (chunk := os.read(self.drain, 1 << 16)):
            held += chunk
        if held:
            self._send(held)

    def close(self) -> None:
        """Copy out what the server wrote, then give fds 0 and 1 back to the wire."""
        os.write(self.wake, b"\n")
        self.out.join()
        os.dup2(self.wire_in, 0)
        os.dup2(self.wire_out, 1)
        for fd in (self.drain, self.woken, self.wake, self.wire_out):  # wire_in: the stdin thread may read on
            os.close(fd)

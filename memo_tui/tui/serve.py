"""`memo-tui serve`: the review app in a browser (textual-serve, the [serve] extra).

Each browser tab's websocket starts its own app process (`python -m memo_tui`) on the same store and
namespace, so tabs see each other's decisions the way terminals do. The aiohttp app here is this
module's own, routed to textual-serve's public handlers: beyond loopback the token is the first part
of every path (the page's websocket and static URLs are built from the page's route, so they carry it
too), and a middleware refuses any request whose path does not start with it. The websocket is taken
only from the server's own page (its Origin), token or not.
"""

from __future__ import annotations

import asyncio
import errno
import hmac
import ipaddress
import os
import re
import shlex
import socket
import sys

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.server import Server

from memo_tui.errors import MemoError

TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,}")
REFUSED = "memo-tui: this server needs its token in the URL: open the address `memo-tui serve` printed\n"
FOREIGN = "memo-tui: the review app takes its websocket only from its own page, not another site's\n"


def check_token(token: str | None) -> None:
    if token is not None and not TOKEN_SHAPE.fullmatch(token):
        raise MemoError(
            "the token must be 16 or more letters, digits, '-' or '_' "
            "(python3 -c 'import secrets; print(secrets.token_urlsafe())' makes one)"
        )


def resolve(host: str, port: int) -> tuple[socket.AddressFamily, tuple]:
    """The address to listen on, checked before anything is bound."""
    if not 0 <= port <= 65535:
        raise MemoError(f"--port must be 0 (any free port) to 65535, not {port}")
    try:
        family, _, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror:
        raise MemoError(f"--host {host!r} is not an address or a name this machine can resolve") from None
    return family, address[:2]


def listen(host: str, port: int, family: socket.AddressFamily, address: tuple) -> socket.socket:
    """The server's socket, bound before anything is served, so that a busy port is one line."""
    try:
        return socket.create_server(address, family=family)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise MemoError(f"port {port} on {host} is in use: give another with --port") from None
        raise MemoError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None


def ip_of(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    return ipaddress.ip_address(address.split("%")[0])  # an IPv6 link-local address has a %zone


def origin_of(sock: socket.socket, host: str) -> str:
    """Where browsers reach the server: the host as given (this machine's name for a wildcard address)."""
    port = sock.getsockname()[1]
    name = socket.getfqdn() if ip_of(sock.getsockname()[0]).is_unspecified else host
    return f"http://[{name}]:{port}" if ":" in name else f"http://{name}:{port}"


def web_app(command: str, origin: str, prefix: str, aliases: frozenset[str]) -> web.Application:
    """textual-serve's page, websocket and static files under the prefix ("/" or "/TOKEN/"); with a
    token, behind the check. `aliases`: other origins of the server's own page."""
    server = Server(command, title="memo-tui", public_url=origin)  # the page's URLs: origin + route

    tabs: set[asyncio.Task] = set()

    async def websocket(request: web.Request) -> web.StreamResponse:
        # a browser sends the page's origin: another site's page must not drive the app as the reviewer
        if request.headers.get("Origin", origin) not in {origin, *aliases}:
            raise web.HTTPForbidden(text=FOREIGN)
        tab = asyncio.current_task()
        if tab is None:
            raise RuntimeError("aiohttp runs each handler in a task")
        tabs.add(tab)
        try:
            return await server.handle_websocket(request)
        finally:
            tabs.discard(tab)

    async def close_tabs(app: web.Application) -> None:
        """On stopping: a tab's handler, cancelled, tells its app process to quit and waits until it has
        (otherwise the server would be gone first, and the process left to notice on its own)."""
        for tab in tabs:
            tab.cancel()
        if tabs:
            await asyncio.wait(tabs)

    @web.middleware
    async def refuse_without_token(request: web.Request, handler):
        if not hmac.compare_digest(request.path[: len(prefix)].encode(), prefix.encode()):
            raise web.HTTPForbidden(text=REFUSED)
        return await handler(request)

    app = web.Application(middlewares=[refuse_without_token] if prefix != "/" else [])
    app.on_shutdown.append(close_tabs)
    aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(server.templates_path))
    app.add_routes(  # the names are the ones the page's template asks the router for
        [
            web.get(prefix, server.handle_index, name="index"),
            web.get(prefix + "ws", websocket, name="websocket"),
            web.static(prefix + "static", server.statics_path, name="static"),
        ]
    )
    return app


def serve(location: str, namespace: str, host: str, port: int, token: str | None, actor: str | None) -> None:
    """Serve until interrupted. Beyond loopback a token is required; the store and the reviewer's name
    reach each tab's app process through its environment (a URL with a password stays out of `ps`)."""
    check_token(token)
    family, address = resolve(host, port)
    if not token and not ip_of(address[0]).is_loopback:
        raise MemoError(f"serving beyond this machine ({host}) needs a token: --token T or MEMO_TUI_TOKEN")
    sock = listen(host, port, family, address)
    os.environ["MEMO_TUI_DB"] = location
    if actor:
        os.environ["MEMO_TUI_USER"] = actor
    # Ctrl+C reaches the whole process group: the app processes ignore it, and the server quits them itself
    command = f"trap '' INT; exec {shlex.quote(sys.executable)} -m memo_tui --ns {shlex.quote(namespace)}"
    prefix = f"/{token}/" if token else "/"
    origin = origin_of(sock, host)
    # a page opened as localhost is this server's own page too
    aliases = frozenset({f"http://localhost:{sock.getsockname()[1]}"} if ip_of(address[0]).is_loopback else ())
    print(f"memo-tui: the review app at {origin}{prefix} (Ctrl+C stops it)", flush=True)
    web.run_app(web_app(command, origin, prefix, aliases), sock=sock, print=None, shutdown_timeout=1)

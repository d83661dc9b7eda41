"""Shared fixtures: a fresh store for every test, on SQLite and (when a server is given) PostgreSQL.

`MEMO_TUI_TEST_PG` names a PostgreSQL server the tests may create databases on
(`postgresql://postgres@127.0.0.1:55432/postgres`; `.ci/postgres start` starts a throwaway one and
prints it). Without it the PostgreSQL half of the store suite is skipped, except under CI, where a
missing server is an error rather than a silent skip.
"""

from __future__ import annotations

import itertools
import os
import uuid

import pytest

from memo_tui.engine.graph.opening import open_store
from memo_tui.store import db

pytest_plugins = ["tuistore"]  # the demo-store fixtures of the TUI tests

PG_SERVER = os.environ.get("MEMO_TUI_TEST_PG", "")
_names = itertools.count()


def pg_database() -> str:
    """A new, empty database on the test server; its URL."""
    if not PG_SERVER:
        if os.environ.get("CI"):
            pytest.fail("CI runs the store suite on PostgreSQL too: set MEMO_TUI_TEST_PG (.ci/postgres start)")
        pytest.skip("no PostgreSQL server for the tests (set MEMO_TUI_TEST_PG; see CONTRIBUTING in ARCHITECTURE.md)")
    import psycopg

    name = f"memo_test_{os.getpid()}_{next(_names)}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return PG_SERVER.rsplit("/", 1)[0] + "/" + name


def drop_pg_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request) -> str:
    return request.param


@pytest.fixture
def store_location(backend, tmp_path):
    """Where a fresh store for the test lives: a SQLite file in tmp_path, or a new PostgreSQL database."""
    if backend == "sqlite":
        yield str(tmp_path / "store.db")
        return
    url = pg_database()
    yield url
    db.close() if db.obj is not None else None
    drop_pg_database(url)


@pytest.fixture
def store(store_location):
    """An empty store, bound to the models for the test; its location (a path or a URL)."""
    database = open_store(store_location)
    yield store_location
    database.close()
    db.initialize(None)


@pytest.fixture
def run_cli(store, capsys):
    """Run the CLI in-process against the test store; returns (exit code, stdout, stderr)."""
    from memo_tui.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        code = main([*argv[:1], "--db", str(store), *argv[1:]])
        out, err = capsys.readouterr()
        return code, out, err

    return run

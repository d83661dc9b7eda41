"""Shared fixtures: a fresh store in a temporary file for every test."""

from __future__ import annotations

import pytest

from memo_tui.core.models import db, open_store

pytest_plugins = ["tuistore"]  # the demo-store fixtures of the TUI tests


@pytest.fixture
def store(tmp_path):
    """An empty SQLite store in tmp_path, bound to the models for the test."""
    path = tmp_path / "store.db"
    database = open_store(str(path))
    yield path
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

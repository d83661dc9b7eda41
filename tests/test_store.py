"""The store: location, pragmas, schema version and in-place upgrade."""

import math
import sqlite3

import pytest

from memo_tui.core import models
from memo_tui.core.errors import MemoError
from memo_tui.core.models import Meta, db, open_store, resolve_location


def test_sqlite_runs_in_wal_with_foreign_keys(store):
    assert db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute_sql("PRAGMA busy_timeout").fetchone()[0] >= 5000


def test_schema_version_is_recorded(store):
    assert Meta.get(Meta.key == "schema_version").value == str(models.SCHEMA_VERSION)


def test_location_precedence(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMO_TUI_DB", str(tmp_path / "env.db"))
    assert resolve_location(str(tmp_path / "flag.db")) == str(tmp_path / "flag.db")
    assert resolve_location(None) == str(tmp_path / "env.db")
    monkeypatch.delenv("MEMO_TUI_DB")
    assert resolve_location(None).endswith("memo.db")


def test_sqlite_url_form(tmp_path):
    database = open_store(f"sqlite:///{tmp_path}/url.db")
    try:
        assert (tmp_path / "url.db").exists()
        assert db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        database.close()


def test_an_older_store_is_upgraded_in_place(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    open_store(str(path)).close()
    ran = []
    monkeypatch.setattr(models, "SCHEMA_VERSION", models.SCHEMA_VERSION + 1)
    monkeypatch.setitem(models.MIGRATIONS, models.SCHEMA_VERSION - 1, lambda: ran.append("migrated"))
    open_store(str(path)).close()
    assert ran == ["migrated"]
    assert sqlite3.connect(path).execute("select value from meta").fetchone()[0] == str(models.SCHEMA_VERSION)


def test_a_newer_store_is_refused(tmp_path):
    path = tmp_path / "new.db"
    open_store(str(path)).close()
    sqlite3.connect(path).execute("update meta set value='999'").connection.commit()
    with pytest.raises(MemoError, match="schema version 999"):
        open_store(str(path))


def test_a_directory_is_not_a_store(tmp_path):
    with pytest.raises(MemoError, match="is a directory"):
        open_store(str(tmp_path))


def test_a_version_2_store_gets_likelihoods_and_ranks_on_one_scale(tmp_path):
    path = tmp_path / "v2.db"
    open_store(str(path)).close()
    con = sqlite3.connect(path)
    for column in ("pattern", "likelihood", "evidence", "priority"):
        con.execute(f"alter table question drop column {column}")
    common = (
        "namespace, kind, left_id, right_id, left_name, right_name, score, rule, reason, impact, status, created_at"
    )
    con.execute(
        f"insert into question ({common}) values "
        "('default', 'contradiction', 1, 2, 'p1', 'p2', 1.0, 'single-valued:owner', 'r', 14, 'pending', '2026-01-01'),"
        "('default', 'entity_pair', 3, 4, 'Gitlab', 'GitLab', 1.0, 'same-merge-key', 'r', 1, 'pending', '2026-01-01')"
    )
    con.execute("update meta set value = '2' where key = 'schema_version'")
    con.commit()
    con.close()
    open_store(str(path))
    rows = {q.kind: q for q in models.Question.select()}
    conflict, names = rows["contradiction"], rows["entity_pair"]
    assert conflict.pattern == "single-valued" and 0 < conflict.likelihood <= 1
    assert conflict.priority == pytest.approx(conflict.likelihood * math.log2(15), abs=1e-3)
    assert names.pattern == "same-merge-key" and names.priority == pytest.approx(names.likelihood, abs=1e-3)
    assert Meta.get(Meta.key == "schema_version").value == "3"

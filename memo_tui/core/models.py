"""Peewee models and database setup (DESIGN §5).

One `DatabaseProxy` is bound to a SQLite file (or a database URL) by `open_store`. Everything
outside `_connect` is portable Peewee, so a shared PostgreSQL store needs no change to the core.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import peewee as pw
from platformdirs import user_data_dir
from playhouse.db_url import connect as connect_url

from memo_tui.core.errors import MemoError

db = pw.DatabaseProxy()

SCHEMA_VERSION = 3
DEFAULT_NAMESPACE = "default"


def utcnow() -> datetime:
    """Naive UTC now: the store keeps every time in UTC without an offset."""
    return datetime.now(UTC).replace(tzinfo=None)


class StableIdField(pw.AutoField):
    """An id that is never handed out twice, even after the row with the highest id is deleted.

    A fold deletes the absorbed entity and its revert puts it back under the same id, so a new row
    must never take that id in between. PostgreSQL sequences behave so already; SQLite needs
    AUTOINCREMENT (this is the one SQLite-specific piece of DDL, chosen at table creation).
    """

    def ddl(self, ctx):
        node = super().ddl(ctx)
        if isinstance(db.obj, pw.SqliteDatabase):
            return pw.NodeList((node, pw.SQL("AUTOINCREMENT")))
        return node


class BaseModel(pw.Model):
    id = StableIdField()

    class Meta:
        database = db
        legacy_table_names = False


class Meta(BaseModel):
    """Key/value facts about the store itself (schema version)."""

    key = pw.CharField(primary_key=True)
    value = pw.TextField()


class NamespaceState(BaseModel):
    """Per-namespace graph version, bumped by every write that changes the graph."""

    namespace = pw.CharField(primary_key=True)
    version = pw.IntegerField(default=0)


class Passage(BaseModel):
    namespace = pw.CharField()
    external_id = pw.CharField()
    text = pw.TextField()
    source = pw.CharField(null=True)
    created_at = pw.DateTimeField()
    ingested_at = pw.DateTimeField(default=utcnow)
    retired_at = pw.DateTimeField(null=True)
    revision_of = pw.ForeignKeyField("self", null=True, backref="revisions", on_delete="SET NULL", index=False)
    declared = pw.TextField(null=True)  # JSON: entities, relations, tags, supersedes, contradicts

    class Meta:
        indexes = ((("namespace", "external_id"), False),)


class Entity(BaseModel):
    namespace = pw.CharField()
    name = pw.CharField()
    identity_key = pw.CharField()
    merge_key = pw.CharField()
    type = pw.CharField(null=True)
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = (
            (("namespace", "identity_key"), True),
            (("namespace", "merge_key"), False),
        )


class Fold(BaseModel):
    """One entity absorbed into another, with the exact rows it moved (DESIGN §6)."""

    namespace = pw.CharField(index=True)
    canonical_id = pw.IntegerField()
    absorbed_id = pw.IntegerField()
    absorbed_name = pw.CharField()
    absorbed_type = pw.CharField(null=True)
    absorbed_created_at = pw.DateTimeField()
    decided_by = pw.CharField()
    channel = pw.CharField()
    rule = pw.CharField(null=True)
    score = pw.FloatField(null=True)
    record = pw.TextField()  # JSON: moved / deactivated mention and relation ids, moved aliases
    created_at = pw.DateTimeField(default=utcnow)
    reverted_at = pw.DateTimeField(null=True)


class Alias(BaseModel):
    namespace = pw.CharField()
    entity = pw.ForeignKeyField(Entity, backref="aliases", on_delete="CASCADE")
    name = pw.CharField()
    identity_key = pw.CharField()
    # The entity this alias was attached to when made (a fold's canonical, a renamed entity). Where
    # it belongs now is wherever that entity lives now, which is how reverts move aliases exactly.
    attached_to = pw.IntegerField()
    original_id = pw.IntegerField(null=True, index=True)
    original_type = pw.CharField(null=True)
    original_created_at = pw.DateTimeField(null=True)
    fold = pw.ForeignKeyField(Fold, null=True, backref="aliases", on_delete="SET NULL")

    class Meta:
        indexes = ((("namespace", "identity_key"), True),)


class Mention(BaseModel):
    passage = pw.ForeignKeyField(Passage, backref="mentions", on_delete="CASCADE")
    entity = pw.ForeignKeyField(Entity, backref="mentions", on_delete="CASCADE", index=False)  # see Meta
    surface = pw.CharField()
    surface_key = pw.CharField()  # identity key of the surface: where the mention goes on a revert
    source = pw.CharField()  # heading / backtick / identifier / capitalised / tag / declared
    weight = pw.FloatField()
    active = pw.BooleanField(default=True)
    fold = pw.ForeignKeyField(Fold, null=True, on_delete="SET NULL", index=False)  # the fold that deactivated it

    class Meta:
        indexes = ((("entity", "active"), False),)


class Relation(BaseModel):
    src = pw.ForeignKeyField(Entity, backref="relations_out", on_delete="CASCADE")
    predicate = pw.CharField()
    dst = pw.ForeignKeyField(Entity, backref="relations_in", on_delete="CASCADE")
    src_key = pw.CharField()  # identity keys of the declared spellings
    dst_key = pw.CharField()
    passage = pw.ForeignKeyField(Passage, backref="relations", on_delete="CASCADE")
    confidence = pw.FloatField(default=1.0)
    active = pw.BooleanField(default=True)
    fold = pw.ForeignKeyField(Fold, null=True, on_delete="SET NULL", index=False)


class Question(BaseModel):
    namespace = pw.CharField(index=True)
    kind = pw.CharField()  # entity_pair / duplicate / contradiction
    left_id = pw.IntegerField()
    right_id = pw.IntegerField()
    left_name = pw.CharField()
    right_name = pw.CharField()
    score = pw.FloatField()
    rule = pw.CharField()
    reason = pw.TextField()
    impact = pw.IntegerField(default=0)
    pattern = pw.CharField(null=True)  # what answers are counted by: the rule, "+defined" when a passage defines
    likelihood = pw.FloatField(default=0.5)  # calibrated chance that the answer is "same" / "a real conflict"
    evidence = pw.FloatField(default=0.0)  # what the store's facts add to the pattern's prior, in log-odds
    priority = pw.FloatField(default=0.0)  # expected yield: likelihood x log2(1 + impact)
    status = pw.CharField(default="pending", index=True)
    created_at = pw.DateTimeField(default=utcnow)
    decided_at = pw.DateTimeField(null=True)
    decided_by = pw.CharField(null=True)


class Decision(BaseModel):
    """Append-only audit log: every answer, fold, revert and delete."""

    namespace = pw.CharField(index=True)
    question = pw.ForeignKeyField(Question, null=True, backref="decisions", on_delete="SET NULL")
    fold = pw.ForeignKeyField(Fold, null=True, backref="decisions", on_delete="SET NULL")
    action = pw.CharField()
    actor = pw.CharField()
    channel = pw.CharField()  # tui / cli / auto / agent
    at = pw.DateTimeField(default=utcnow)
    payload = pw.TextField(default="{}")
    undone_at = pw.DateTimeField(null=True)


class KeepApart(BaseModel):
    """A settled pair of entity ids (reject = different, keep_both = settled without a verdict)."""

    namespace = pw.CharField()
    low_id = pw.IntegerField()
    high_id = pw.IntegerField()
    kind = pw.CharField()  # reject / keep_both
    decision = pw.ForeignKeyField(Decision, null=True, on_delete="SET NULL")

    class Meta:
        indexes = ((("namespace", "low_id", "high_id"), False),)


class PassageLink(BaseModel):
    """`relates_to`: a passage and one of the strongest older-or-same-chunk passages it shares entities with."""

    passage = pw.ForeignKeyField(Passage, backref="links", on_delete="CASCADE")
    other = pw.ForeignKeyField(Passage, backref="linked_from", on_delete="CASCADE")
    shared = pw.IntegerField()  # entities the two passages name
    strength = pw.FloatField()  # shared entities weighted by how they were named (tags above extracted terms)


class Metric(BaseModel):
    """Counters kept across processes (graph cache hits and builds), in Prometheus terms."""

    name = pw.CharField()
    labels = pw.CharField(default="")
    value = pw.FloatField(default=0)

    class Meta:
        indexes = ((("name", "labels"), True),)


MODELS = [
    Meta,
    NamespaceState,
    Passage,
    Entity,
    Fold,
    Alias,
    Mention,
    Relation,
    Question,
    Decision,
    KeepApart,
    PassageLink,
    Metric,
]


def _add_links_and_metrics() -> None:
    # The tables themselves are created by `create_tables(safe=True)`; links of existing passages are
    # written here so that an upgraded store answers "also see" like a new one.
    from memo_tui.core.links import relink_all

    for (namespace,) in Passage.select(Passage.namespace).distinct().tuples():
        relink_all(namespace)


def _add_likelihood() -> None:
    from playhouse.migrate import SchemaMigrator, migrate

    migrator = SchemaMigrator.from_database(db.obj)
    have = {column.name for column in db.get_columns(Question._meta.table_name)}
    migrate(
        *(
            migrator.add_column(Question._meta.table_name, name, field)
            for name, field in (
                ("pattern", Question.pattern),
                ("likelihood", Question.likelihood),
                ("evidence", Question.evidence),
                ("priority", Question.priority),
            )
            if name not in have
        )
    )
    # older questions get the likelihood of their rule's pattern (name questions are weighed again by
    # the next pass) and their expected yield, so that they rank among new ones on one scale
    from memo_tui.core.evidence import conflict_likelihood, prior, yield_of

    rows = Question.select(Question.id, Question.kind, Question.rule, Question.impact).tuples()
    for qid, kind, rule, impact in rows:
        likelihood = prior(rule, {})[0] if kind == "entity_pair" else conflict_likelihood(rule)
        pattern = rule if kind == "entity_pair" else rule.split(":", 1)[0]
        Question.update(pattern=pattern, likelihood=likelihood, priority=yield_of(likelihood, impact)).where(
            Question.id == qid
        ).execute()


# Numbered migrations: MIGRATIONS[n] upgrades a store from version n to n + 1.
MIGRATIONS: dict[int, object] = {1: _add_links_and_metrics, 2: _add_likelihood}


def default_db_path() -> Path:
    """The store used when neither --db nor MEMO_TUI_DB names one."""
    return Path(user_data_dir("memo-tui", appauthor=False)) / "memo.db"


def resolve_location(location: str | None) -> str:
    """--db, then MEMO_TUI_DB, then the platformdirs default."""
    return location or os.environ.get("MEMO_TUI_DB") or str(default_db_path())


# Transactions begin IMMEDIATE: a writer takes the lock up front and waits its turn (busy timeout)
# instead of failing when its read snapshot turns stale under another writer.
SQLITE_PRAGMAS = {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 10000, "synchronous": "normal"}


def _connect(location: str) -> pw.Database:
    try:
        return _connect_database(location)
    except OSError as exc:
        raise MemoError(f"cannot open store {location}: {exc.strerror or exc}") from None


def _connect_database(location: str) -> pw.Database:
    if "://" in location:
        if location.startswith("sqlite:///") and location != "sqlite:///:memory:":
            Path(location[len("sqlite:///") :]).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            kwargs = {"pragmas": SQLITE_PRAGMAS, "lock_type": "IMMEDIATE"} if location.startswith("sqlite") else {}
            return connect_url(location, **kwargs)
        except (RuntimeError, ValueError, ImportError) as exc:
            raise MemoError(f"cannot open store {location}: {exc}") from None
    path = Path(location).expanduser()
    if str(path) != ":memory:":
        if path.is_dir():
            raise MemoError(f"cannot open store {location}: it is a directory")
        path.parent.mkdir(parents=True, exist_ok=True)
    return pw.SqliteDatabase(str(path), pragmas=SQLITE_PRAGMAS, timeout=10, lock_type="IMMEDIATE")


def open_store(location: str | None = None) -> pw.Database:
    """Bind the models to a store, creating or upgrading its schema in place."""
    location = resolve_location(location)
    database = _connect(location)
    db.initialize(database)
    try:
        database.connect(reuse_if_open=True)
        with database.atomic():
            database.create_tables(MODELS, safe=True)
            _upgrade()
    except pw.DatabaseError as exc:
        database.close()
        raise MemoError(f"cannot open store {location}: {exc}") from None
    return database


def _upgrade() -> None:
    row = Meta.get_or_none(Meta.key == "schema_version")
    if row is None:
        Meta.create(key="schema_version", value=str(SCHEMA_VERSION))
        return
    version = int(row.value)
    if version > SCHEMA_VERSION:
        raise MemoError(f"this store has schema version {version}; this memo-tui knows up to {SCHEMA_VERSION}")
    while version < SCHEMA_VERSION:
        MIGRATIONS[version]()
        version += 1
    Meta.update(value=str(version)).where(Meta.key == "schema_version").execute()


_BUMP: dict[int, str] = {}


def bump_version(namespace: str) -> None:
    """Mark the namespace's graph as changed (invalidates cached graphs). It is on every write
    path, so its statement is built once per database."""
    sql = _BUMP.get(id(db.obj))
    if sql is None:
        query = NamespaceState.update(version=NamespaceState.version + 1).where(NamespaceState.namespace == "")
        sql = _BUMP[id(db.obj)] = query.sql()[0]
    if not db.execute_sql(sql, [1, namespace]).rowcount:
        NamespaceState.insert(namespace=namespace, version=1).on_conflict_ignore().execute()


def graph_version(namespace: str) -> int:
    row = NamespaceState.get_or_none(NamespaceState.namespace == namespace)
    return row.version if row else 0

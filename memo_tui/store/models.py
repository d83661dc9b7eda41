"""The schema: Peewee models bound to one `DatabaseProxy` (`memo_tui.store.connect` binds it), and
the dialect of the database it is bound to.

Every text column is TEXT: SQLite ignores VARCHAR lengths and PostgreSQL enforces them, and ids such
as markdown's `PATH#slug` have no natural bound.
"""

from __future__ import annotations

from datetime import UTC, datetime

import peewee as pw

from memo_tui.store.dialects import Dialect, dialect_of

db = pw.DatabaseProxy()

DEFAULT_NAMESPACE = "default"


def dialect() -> Dialect:
    """What differs in the bound database: ask it, never the database's class."""
    return dialect_of(db.obj)


def utcnow() -> datetime:
    """Naive UTC now: the store keeps every time in UTC without an offset."""
    return datetime.now(UTC).replace(tzinfo=None)


class StableIdField(pw.AutoField):
    """An id that is never handed out twice, even after the row with the highest id is deleted.

    A fold deletes the absorbed entity and its revert puts it back under the same id, so a new row
    must never take that id in between (`Dialect.stable_id`, chosen at table creation).
    """

    def ddl(self, ctx):
        return dialect().stable_id(super().ddl(ctx))


class BaseModel(pw.Model):
    id = StableIdField()

    class Meta:
        database = db
        legacy_table_names = False


class Meta(BaseModel):
    """Key/value facts about the store itself (schema version)."""

    key = pw.TextField(primary_key=True)
    value = pw.TextField()


class NamespaceState(BaseModel):
    """Per-namespace graph version, bumped by every write that changes the graph."""

    namespace = pw.TextField(primary_key=True)
    version = pw.IntegerField(default=0)


class Passage(BaseModel):
    namespace = pw.TextField()
    external_id = pw.TextField()
    text = pw.TextField()
    source = pw.TextField(null=True)
    created_at = pw.DateTimeField()
    ingested_at = pw.DateTimeField(default=utcnow)
    retired_at = pw.DateTimeField(null=True)
    revision_of = pw.ForeignKeyField("self", null=True, backref="revisions", on_delete="SET NULL", index=False)
    declared = pw.TextField(null=True)  # JSON: entities, relations, tags, supersedes, contradicts

    class Meta:
        indexes = ((("namespace", "external_id"), False),)


class Entity(BaseModel):
    namespace = pw.TextField()
    name = pw.TextField()
    identity_key = pw.TextField()
    merge_key = pw.TextField()
    type = pw.TextField(null=True)
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = (
            (("namespace", "identity_key"), True),
            (("namespace", "merge_key"), False),
        )


class Fold(BaseModel):
    """One entity absorbed into another, with the exact rows it moved."""

    namespace = pw.TextField(index=True)
    canonical_id = pw.IntegerField()
    absorbed_id = pw.IntegerField()
    absorbed_name = pw.TextField()
    absorbed_type = pw.TextField(null=True)
    absorbed_created_at = pw.DateTimeField()
    decided_by = pw.TextField()
    channel = pw.TextField()
    rule = pw.TextField(null=True)
    score = pw.FloatField(null=True)
    record = pw.TextField()  # JSON: moved / deactivated mention and relation ids, moved aliases
    created_at = pw.DateTimeField(default=utcnow)
    reverted_at = pw.DateTimeField(null=True)


class Alias(BaseModel):
    namespace = pw.TextField()
    entity = pw.ForeignKeyField(Entity, backref="aliases", on_delete="CASCADE")
    entity_id: int  # the key itself, without a query: peewee adds `<field>_id`, its stubs do not say so
    name = pw.TextField()
    identity_key = pw.TextField()
    # The entity this alias was attached to when made (a fold's canonical, a renamed entity). Where
    # it belongs now is wherever that entity lives now, which is how reverts move aliases exactly.
    attached_to = pw.IntegerField()
    original_id = pw.IntegerField(null=True, index=True)
    original_type = pw.TextField(null=True)
    original_created_at = pw.DateTimeField(null=True)
    fold = pw.ForeignKeyField(Fold, null=True, backref="aliases", on_delete="SET NULL")

    class Meta:
        indexes = ((("namespace", "identity_key"), True),)


class Mention(BaseModel):
    passage = pw.ForeignKeyField(Passage, backref="mentions", on_delete="CASCADE")
    entity = pw.ForeignKeyField(Entity, backref="mentions", on_delete="CASCADE", index=False)  # see Meta
    surface = pw.TextField()
    surface_key = pw.TextField()  # identity key of the surface: where the mention goes on a revert
    source = pw.TextField()  # heading / backtick / identifier / capitalised / tag / declared
    weight = pw.FloatField()
    active = pw.BooleanField(default=True)
    fold = pw.ForeignKeyField(Fold, null=True, on_delete="SET NULL", index=False)  # the fold that deactivated it

    class Meta:
        indexes = ((("entity", "active"), False),)


class Relation(BaseModel):
    src = pw.ForeignKeyField(Entity, backref="relations_out", on_delete="CASCADE")
    predicate = pw.TextField()
    dst = pw.ForeignKeyField(Entity, backref="relations_in", on_delete="CASCADE")
    src_key = pw.TextField()  # identity keys of the declared spellings
    dst_key = pw.TextField()
    passage = pw.ForeignKeyField(Passage, backref="relations", on_delete="CASCADE")
    confidence = pw.FloatField(default=1.0)
    active = pw.BooleanField(default=True)
    fold = pw.ForeignKeyField(Fold, null=True, on_delete="SET NULL", index=False)


class Question(BaseModel):
    namespace = pw.TextField(index=True)
    kind = pw.TextField()  # a `kinds.QuestionKind`
    left_id = pw.IntegerField()
    right_id = pw.IntegerField()
    left_name = pw.TextField()
    right_name = pw.TextField()
    score = pw.FloatField()
    rule = pw.TextField()
    reason = pw.TextField()
    impact = pw.IntegerField(default=0)
    pattern = pw.TextField(null=True)  # what answers are counted by: the rule, "+defined" when a passage defines
    likelihood = pw.FloatField(default=0.5)  # calibrated chance that the answer is "same" / "a real conflict"
    evidence = pw.FloatField(default=0.0)  # what the store's facts add to the pattern's prior, in log-odds
    priority = pw.FloatField(default=0.0)  # expected yield: likelihood x log2(1 + impact)
    status = pw.TextField(default="pending", index=True)
    created_at = pw.DateTimeField(default=utcnow)
    decided_at = pw.DateTimeField(null=True)
    decided_by = pw.TextField(null=True)
    proposed_by = pw.TextField(null=True)  # the agent whose proposal this question is (None: the resolver's)
    unsure = pw.TextField(null=True)  # a reviewer's note when they left it for later, unsure (still pending)


class Decision(BaseModel):
    """Append-only audit log: every answer, fold, revert and delete."""

    namespace = pw.TextField(index=True)
    question = pw.ForeignKeyField(Question, null=True, backref="decisions", on_delete="SET NULL")
    question_id: int | None  # the key itself (as `Alias.entity_id`)
    fold = pw.ForeignKeyField(Fold, null=True, backref="decisions", on_delete="SET NULL")
    action = pw.TextField()
    actor = pw.TextField()
    channel = pw.TextField()  # tui / cli / auto / agent
    at = pw.DateTimeField(default=utcnow)
    payload = pw.TextField(default="{}")
    undone_at = pw.DateTimeField(null=True)


class NotAName(BaseModel):
    """A spelling a reviewer said is no name at all (`Replaces`, `Wow Mel`): extraction skips it."""

    namespace = pw.TextField()
    identity_key = pw.TextField()
    decision = pw.ForeignKeyField(Decision, null=True, on_delete="SET NULL")

    class Meta:
        indexes = ((("namespace", "identity_key"), True),)


class KeepApart(BaseModel):
    """A settled pair of entity ids (reject = different, keep_both = settled without a verdict)."""

    namespace = pw.TextField()
    low_id = pw.IntegerField()
    high_id = pw.IntegerField()
    kind = pw.TextField()  # a `kinds.ApartKind`
    decision = pw.ForeignKeyField(Decision, null=True, on_delete="SET NULL")
    decision_id: int | None  # the key itself (as `Alias.entity_id`)

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

    name = pw.TextField()
    labels = pw.TextField(default="")
    value = pw.FloatField(default=0)

    class Meta:
        indexes = ((("name", "labels"), True),)


class PassMemory(BaseModel):
    """What the last resolution pass saw of a namespace (its names, their blocking tokens, the rules'
    verdicts), so that the next pass judges only what is new: a cache, never copied, rebuilt by a full
    pass. `tag` says which code and format wrote it; another tag is never read."""

    key = pw.TextField(primary_key=True)  # what it holds and the namespace: `names:default`
    tag = pw.TextField()
    data = pw.BlobField()


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
    NotAName,
    PassageLink,
    Metric,
    PassMemory,
]


def primary_key(model: type[pw.Model]) -> pw.Field:
    """The model's primary key: every model here has one (peewee types a model's as possibly none)."""
    key = model._meta.primary_key
    if key is False:
        raise TypeError(f"{model.__name__} has no primary key")
    return key

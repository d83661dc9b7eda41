"""The evidence layer: what each fact does to a question's likelihood, on a fixed calibration."""

import pytest

from memo_tui.engine.ingest import ingest_records
from memo_tui.names import evidence
from memo_tui.names.evidence import StoreFacts, defines, prior, weigh
from memo_tui.names.extract import extract
from memo_tui.names.prose import KnownSpellings
from memo_tui.store import Entity, Mention
from memo_tui.text.sources import PassageRecord

TABLE = {
    "priors": {"default": 0.5, "edit-distance": 0.2, "acronym": 0.3, "acronym+defined": 0.8, "+defined": 0.7},
    "weights": {"neighbours": 1.0, "contrasted": -1.0, "shared_source": 0.0, "no_neighbours": 0.0, "rare_variant": 0.5},
    "conflict_priors": {"declared": 0.9},
}


@pytest.fixture(autouse=True)
def fixed_calibration(monkeypatch):
    monkeypatch.setattr(evidence, "calibration", lambda: TABLE)


def facts(passages: dict[int, set[int]], sources=None, texts=None) -> StoreFacts:
    passages_of: dict[int, list[int]] = {}
    for pid, entities in sorted(passages.items()):
        for e in entities:
            passages_of.setdefault(e, []).append(pid)
    frequency = {e: len(p) for e, p in passages_of.items()}
    return StoreFacts(passages_of, passages, sources or {}, text_of=texts or {}, frequency=frequency)


NAMES = {1: "Postgres", 2: "PostgreSQL", 10: "Quartz Ledger", 11: "Helix Router", 99: "Debian"}


def store_with(shared: set[int], filler: int = 200) -> StoreFacts:
    """Entity 1 and entity 2 each in one passage, with `shared` names in both; entity 99 everywhere."""
    passages = {100 + i: {99, 1000 + i} for i in range(filler)}
    passages[1] = {1, 99} | shared
    passages[2] = {2, 99} | shared
    return facts(passages)


def test_rare_shared_neighbours_raise_the_likelihood_and_a_hub_does_not():
    alone = weigh(store_with(set()), 1, 2, {"Postgres"}, {"PostgreSQL"}, "edit-distance", NAMES)
    rare = weigh(store_with({10, 11}), 1, 2, {"Postgres"}, {"PostgreSQL"}, "edit-distance", NAMES)
    assert alone.likelihood == pytest.approx(0.2, abs=0.01) and not alone.shared_neighbours  # Debian says nothing
    assert rare.likelihood > alone.likelihood + 0.1
    assert rare.shared_neighbours == ("Helix Router", "Quartz Ledger")
    assert "shares 2 rare neighbours: Helix Router, Quartz Ledger" in rare.words()
    assert evidence.is_certain(rare) and not evidence.is_certain(alone)
    assert evidence.certain_because(rare) == (
        "they share 2 rare neighbours: Helix Router, Quartz Ledger; no passage sets the two side by side"
    )
    assert evidence.certain_because(alone) is None
    usual = ("GitHub", 158, "Github", 2)  # a notes folder's
    assert evidence.is_certain(alone, usual=usual)
    assert evidence.certain_because(alone, usual=usual).startswith("'GitHub' is how this store writes the name")


@pytest.mark.parametrize(
    ("passages", "usual"),
    [((2, 158), True), ((1, 3), True), ((1, 1), False), ((2, 2), False), ((3, 3), False), ((1, 2), False)],
)
def test_a_usual_spelling_is_written_in_three_passages_and_more_than_the_other(passages, usual):
    """`ArtEmis` / `Artemis` (1, 1) and `MiniMax` / `Minimax` (2, 2) on the package summaries are two
    things each; `GitHub` / `Github` (158, 2) in a notes folder one."""
    assert evidence.usual_spelling(passages) is usual


def test_a_name_one_passage_names_keeps_that_passages_company_but_itself():
    """Most names are named by one passage: its names are their neighbours, as a Counter is for names
    several passages name; a name alone in its passage has none, and a neighbour that only a passage
    naming both sides names does not count."""
    filler = {100 + i: {99, 1000 + i} for i in range(200)}
    one_and_two = facts(filler | {1: {1, 10, 11}, 2: {2, 10}, 3: {2, 11}})
    found = weigh(one_and_two, 1, 2, {"Postgres"}, {"PostgreSQL"}, "edit-distance", NAMES)
    assert found.shared_neighbours == ("Helix Router", "Quartz Ledger") and not found.no_neighbours
    alone = weigh(facts(filler | {1: {1}, 2: {2, 10}}), 1, 2, {"Postgres"}, {"PostgreSQL"}, "edit-distance", NAMES)
    assert alone.no_neighbours and not alone.shared_neighbours
    joint = facts(filler | {1: {1, 2, 10}, 2: {2, 10}}, texts={1: "Postgres and PostgreSQL"})
    only_there = weigh(joint, 1, 2, {"Postgres"}, {"PostgreSQL"}, "edit-distance", NAMES)
    assert not only_there.shared_neighbours and only_there.contrasted_in == "#1"


def test_a_shared_author_adds_no_more_than_the_chance_of_one_says(monkeypatch):
    """A likelihood ratio m / u is at most 1 / u: where one source wrote every passage (a package
    index) an author who wrote both spellings says nothing; among many authors the pooled weight stands."""
    monkeypatch.setattr(
        evidence, "calibration", lambda: {**TABLE, "weights": {**TABLE["weights"], "shared_source": 0.8}}
    )
    one = store_with(set())
    one.source_of = dict.fromkeys(one.entities_of, "pypi")
    many = store_with(set())
    many.source_of = {pid: f"author {pid % 50}" for pid in many.entities_of} | {1: "ada", 2: "ada"}
    alone = weigh(one, 1, 2, {"Postgres"}, {"PostgreSQL"}, "edit-distance", NAMES)
    among_many = weigh(many, 1, 2, {"Postgres"}, {"PostgreSQL"}, "edit-distance", NAMES)
    assert one.source_lift() == 0 and alone.shared_sources == 1 and alone.logit == 0
    assert among_many.shared_sources == 1 and among_many.logit == pytest.approx(0.8)


def test_two_spellings_side_by_side_count_against_and_a_definition_for():
    passages = {1: {1, 2}, 2: {1}, 3: {2}}
    contrasted = weigh(
        facts(passages, texts={1: "Use Postgres, not PostgreSQL."}),
        1,
        2,
        {"Postgres"},
        {"PostgreSQL"},
        "acronym",
        NAMES,
    )
    defined = weigh(
        facts(passages, texts={1: "Model Context Protocol (MCP) servers."}),
        1,
        2,
        {"Model Context Protocol"},
        {"MCP"},
        "acronym",
        NAMES,
    )
    assert contrasted.contrasted_in == "#1" and contrasted.likelihood < 0.3
    assert defined.pattern == "acronym+defined" and defined.likelihood == pytest.approx(0.8, abs=0.01)
    assert not evidence.is_certain(contrasted)
    assert not evidence.is_certain(contrasted, prose_variants=True, usual=("Postgres", 5, "PostgreSQL", 1))


def test_definitions_are_parentheses_and_aka_not_contrasts():
    assert defines("the Model Context Protocol (MCP) spec", {"Model Context Protocol"}, {"MCP"})
    assert defines("MCP (Model Context Protocol) servers", {"Model Context Protocol"}, {"MCP"})
    assert defines("Kubernetes, also known as K8s, runs it", {"Kubernetes"}, {"K8s"})
    assert not defines("use `JOIN.` instead of `JOIN_`", {"JOIN."}, {"JOIN_"})
    assert not defines("MCP (Model Context Protocolish)", {"Model Context Protocol"}, {"MCP"})


def test_a_rare_spelling_beside_a_common_one_looks_like_a_typo_for_spelling_rules_only():
    passages = {i: {1, 1000 + i} for i in range(30)} | {99: {2}}
    typo = weigh(facts(passages), 1, 2, {"a"}, {"b"}, "edit-distance", NAMES)
    acronym = weigh(facts(passages), 1, 2, {"a"}, {"b"}, "acronym", NAMES)
    assert typo.rare_variant and not acronym.rare_variant


def test_the_stores_answers_move_a_patterns_prior():
    assert prior("edit-distance", {}) == (0.2, (0, 0))
    sunk, counted = prior("edit-distance", {"edit-distance": (1, 10)})  # the pooled share weighs as 20 pairs
    assert counted == (1, 10) and sunk == pytest.approx((0.2 * 20 + 1) / 30)
    risen, _ = prior("edit-distance", {"edit-distance": (10, 10)})
    assert risen == pytest.approx((0.2 * 20 + 10) / 30)


def test_a_known_names_lowercase_and_kebab_spellings_in_prose_are_mentions():
    known = KnownSpellings(["Postgres", "Claude Code", "Release", "Real-Time"])
    text = "we moved to postgres; try claude-code for the release, in real-time"
    assert [m.surface for m in known.mentions(text, extract(text))] == ["postgres", "claude-code"]
    kebab = "then try claude-code"  # a kebab spelling alone: its words are none of the names' keys as written
    assert [m.surface for m in known.mentions(kebab, extract(kebab))] == ["claude-code"]
    beside = "We run Postgres (postgres on the command line)."
    assert known.mentions(beside, extract(beside)) == []  # the passage names Postgres already


def test_ingest_adds_prose_spellings_of_names_known_before(store):
    ingest_records("default", [PassageRecord("a", "We run Postgres for billing.", "x")])
    ingest_records("default", [PassageRecord("b", "then we moved search to postgres too", "y")])
    lower = Entity.get(Entity.name == "postgres")
    assert [(m.surface, m.source) for m in Mention.select().where(Mention.entity == lower)] == [("postgres", "prose")]


@pytest.mark.parametrize("authors", [1, 3, 500])
def test_an_entitys_authors_are_those_of_all_its_passages_however_few_the_store_has(authors):
    """The sources are read a slice at a time until every source of the store is found: the result
    is the set of all its passages' sources, for a hub past the first slices too, with passages of
    no source and with joint passages left out."""
    import random

    rng = random.Random(authors)
    passages = {pid: {1} | ({2} if pid % 7 == 0 else set()) | {3 + pid % 50} for pid in range(1, 2001)}
    sources = {pid: f"author{rng.randrange(authors)}" for pid in passages if pid % 5}  # every fifth: none
    sources[1999] = "the last one's"  # found only in the hub's last slice
    store = facts(passages, sources=sources)
    for entity_id in (1, 2, 3, 17):
        mine = store.passages_of[entity_id]
        assert store.sources(entity_id, frozenset()) == {sources[p] for p in mine if p in sources}
        joint = store.passage_set(1) & store.passage_set(2)
        if entity_id in (1, 2):
            assert store.sources(entity_id, joint) == {sources[p] for p in mine if p in sources and p not in joint}


@pytest.mark.parametrize(
    "text",
    [
        "we moved to postgres; try claude-code, then re-run it",
        "a x-y zz-top-3 9abc abc9 -lead trail- mid--dash end-",
        "see ./docs/readme and @scope/name, #tag, foo.bar and baz.",
        "Postgres postgres' (sqlite) «redis» naïve café-bar 3rd-party",
    ],
)
def test_every_prose_word_is_a_run_the_fast_path_looks_up(text):
    """`KnownSpellings.mentions` passes over a passage none of whose runs is a known key: each word the
    prose pattern finds must be one of those runs, whole."""
    from memo_tui.names import prose

    words = prose._PROSE.findall(text)
    assert words and set(words) <= set(prose._RUNS.findall(text))


def test_a_lowercase_spelling_only_in_code_is_a_command_not_a_contrast():
    """As a notes folder writes Datasette: the name in prose, its lowercase spelling only as code
    (inline, fenced, indented, quoted and indented, a link's target); a lowercase word in running
    text is a second name beside it."""
    as_code = [
        "If you installed `datasette` using `pipx install datasette` you can add Datasette plugins.",
        "Datasette runs this:\n```python\nfrom datasette import hookimpl\n```",
        "Install Datasette:\n\n    brew install datasette\n",
        "> Armin showed me a way:\n>\n>     rye install 'datasette'\n\nDatasette installs.",
        "See [Datasette](https://datasette.io/) and [datasette-table](https://www.npmjs.com/package/datasette-table).",
    ]
    assert evidence.only_as_code(as_code, {"datasette"})
    assert not evidence.only_as_code(["Datasette is the tool; datasette is the word we use."], {"datasette"})
    assert not evidence.only_as_code(["a monorepo referencing a prisma schema, and Prisma"], {"prisma"})
    found = weigh(facts({1: {1, 2}, 2: {1}, 3: {2}}, texts={1: as_code[0]}), 1, 2, {"Datasette"}, {"datasette"},
                  "case-lowercase", NAMES)  # fmt: skip
    assert found.contrasted_in == "#1"
    assert evidence.lowercase_because(found, ("Datasette", 169, "datasette", 41), as_code=True) is None  # no neighbour
    shared = found._replace(shared_neighbours=("Quartz Ledger",))
    because = evidence.lowercase_because(shared, ("Datasette", 169, "datasette", 41), as_code=True)
    assert because.endswith("the passages that name both write 'datasette' only as code")
    assert evidence.lowercase_because(shared, ("Datasette", 169, "datasette", 41)) is None  # a contrast otherwise


@pytest.mark.parametrize(
    ("in_code", "passages", "argues"),
    [
        ((4, 0), (5, 3), True),  # fastapi docs: `Param` the class, "a required body param"
        ((15, 0), (19, 4), True),  # a notes folder: `Dockerfile`, "a dockerfile"
        ((11, 1), (12, 1), False),  # `Content-Type` and `content-type`: one header, both written as code
        ((1, 2), (45, 2), False),  # Homebrew the name and `homebrew` its command
        ((2, 0), (4, 1), False),  # written as code in half of its passages: not mostly
    ],
)
def test_a_usual_spelling_written_as_code_beside_a_word_argues_against_a_fold(in_code, passages, argues):
    assert evidence.code_beside_word(in_code, passages) is argues


def test_a_lowercase_spelling_mostly_an_attribute_is_not_the_name():
    """The fastapi docs write `markdown` as an HTML tag's attribute 4 times of 5; package summaries
    write it as the format's name, and a notes folder `pipx install datasette` as the command."""
    markup = [
        '<blockquote markdown="1">\n\n**FastAPI** would not exist',
        '<div class="only-github" markdown="1">\n\nI am using it a ton',
        '```\n\n<details markdown="1">\n<summary>Or use <code>async def</code>...</summary>',
        '</div>\n\n<details markdown = "1">\n<summary>About the command</summary>',
        "The description of your API, this can include markdown and will be shown in the docs.",
    ]
    assert evidence.mostly_attribute(markup, {"markdown"})
    assert not evidence.mostly_attribute(markup[3:], {"markdown"})  # one of two: not most
    assert not evidence.mostly_attribute(["Render markdown to HTML.", "A markdown parser."], {"markdown"})
    assert not evidence.mostly_attribute(["Use `pipx install datasette`.", "if datasette == 1:"], {"datasette"})

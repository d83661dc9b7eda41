"""Synthetic but realistic passages for benchmarks: engineering notes naming people, tools and code."""

from __future__ import annotations

import random

FIRST = (
    "Alice Bob Carol Dmitri Elena Farid Grace Hiro Ines Jonas Kemal Lena Mateo Nadia Omar Priya Quinn Rosa Sven "
    "Tariq Uma Vera Wen Yara Zoe"
).split()
LAST = (
    "Smith Okafor Tanaka Novak Garcia Kowalski Haddad Lindqvist Moreau Chen Patel Rossi Schmidt Nakamura Silva "
    "Ivanova Murphy Dubois Kim Larsen"
).split()
PRODUCT_A = (
    "Acme Nimbus Quartz Atlas Helix Orbit Falcon Cedar Harbor Summit Vector Beacon Lumen Pioneer Aurora Ember".split()
)
PRODUCT_B = "Gateway Cache Store Queue Router Console Engine Index Ledger Vault Bridge Relay Monitor Scheduler".split()
CODE_A = "get set load save parse build fetch sync merge index resolve render flush".split()
CODE_B = "User Account Order Token Session Report Schema Batch Event Graph Node Config".split()
WORDS = (
    "we the a to of and in for on with that is was it this be as at by from our have not are but will can "
    "deploy review timeout latency release rollback migration incident query config service cluster shard "
    "replica backup metric alert dashboard ticket sprint retro design budget feature flag customer request"
).split()


def names(rng: random.Random, count: int) -> list[str]:
    """A pool of distinct entity names of several real-world shapes."""
    pool: set[str] = set()
    while len(pool) < count:
        shape = rng.randrange(5)
        if shape == 0:
            pool.add(f"{rng.choice(FIRST)} {rng.choice(LAST)}")
        elif shape == 1:
            pool.add(f"{rng.choice(PRODUCT_A)} {rng.choice(PRODUCT_B)}")
        elif shape == 2:
            pool.add(f"{rng.choice(CODE_A)}{rng.choice(CODE_B)}{rng.randrange(100)}")
        elif shape == 3:
            pool.add(f"{rng.choice(CODE_A)}_{rng.choice(CODE_B).lower()}_{rng.randrange(1000)}")
        else:
            pool.add(f"{rng.choice(PRODUCT_A)}{rng.choice(PRODUCT_B)} {rng.randrange(1, 20)}.{rng.randrange(10)}")
    return sorted(pool)


def passages(
    count: int, seed: int = 7, names_in_pool: int = 20_000, per_passage: int = 5, words: int = 60, filler=None
):
    """`count` passage dicts of about `words` words naming `per_passage` entities each;
    `filler(rng, k)` gives the other words (default: k picks from a small engineering vocabulary)."""
    rng = random.Random(seed)
    pool = names(rng, names_in_pool)
    for i in range(count):
        k = words - per_passage * 2
        body = filler(rng, k) if filler else [rng.choice(WORDS) for _ in range(k)]
        for name in rng.sample(pool, per_passage):
            body.insert(rng.randrange(1, len(body)), name)
        yield {"id": f"b{i}", "text": " ".join(body) + ".", "source": f"bench/{i % 50}"}


BASES = (
    "Postgres PostgreSQL MongoDB Redis Kafka Kubernetes Terraform GitHub GitLab Jenkins CircleCI Docker Podman "
    "Claude Code Opus Sonnet Haiku Gemini Llama Mistral OpenAI Anthropic memloom Acme Gateway Nimbus Quartz Helix "
    "Django Flask FastAPI Express React Vue Svelte Angular NextJS Remix Vite Webpack Rollup esbuild Babel Jest "
    "Pytest Hypothesis Textual Rich Peewee SQLAlchemy Alembic Celery RabbitMQ Airflow Dagster Prefect Spark Flink "
    "Snowflake BigQuery Redshift DuckDB ClickHouse Elasticsearch OpenSearch Grafana Prometheus Datadog Sentry "
    "Alice Smith Bob Okafor Carol Tanaka Dmitri Novak Elena Garcia Farid Haddad Grace Lindqvist Hiro Chen "
    "billing ledger invoice payment refund session token cache queue router scheduler index vault bridge relay"
).split()
SUFFIXES = ["DB", "SQL", "JS", "Hub", "Lab", "Cloud", "Server", "CLI", "API", "Core", "Kit", "io"]
WORDS_EXTRA = ["Service", "Platform", "Cluster", "Team", "Project", "Client", "Worker", "Pipeline", "Engine"]


def _typo(rng: random.Random, word: str) -> str:
    if len(word) < 3:
        return word + rng.choice("aeiou")
    at = rng.choice([0, len(word) // 2, len(word) - 1])  # start, middle, end
    op = rng.randrange(4)
    letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
    if op == 0:
        return word[:at] + word[at + 1 :]
    if op == 1:
        return word[:at] + letter + word[at:]
    if op == 2:
        return word[:at] + letter + word[at + 1 :]
    at = min(at, len(word) - 2)
    return word[:at] + word[at + 1] + word[at] + word[at + 2 :]


ONSETS = "b c d f g h j k l m n p r s t v w z br cl dr fl gr kr pl pr sk st tr th sh ch qu".split()
VOWELS = "a e i o u ai ea io ou y".split()
CODAS = ["", "", "n", "r", "s", "x", "l", "m", "nd", "rk", "st", "th"]


def _word(rng: random.Random) -> str:
    """A pronounceable made-up proper name (Zenthor, Kalibrax): the long tail of real vocabularies."""
    syllables = [rng.choice(ONSETS) + rng.choice(VOWELS) for _ in range(rng.choice([1, 2, 2, 3]))]
    return ("".join(syllables) + rng.choice(CODAS)).capitalize()


def entity_names(count: int, seed: int = 11) -> list[str]:
    """Distinct entity names with the variants real stores accumulate: case and punctuation
    changes, typos at the start, middle and end, suffixes, versions, file names, longer forms,
    acronyms, company suffixes, initials. Words come from a list of real tools and people and from
    a long tail of made-up proper names, as in a real store's vocabulary."""
    rng = random.Random(seed)
    vocabulary = BASES + [_word(rng) for _ in range(max(200, count // 3))]
    out: dict[str, None] = {}
    while len(out) < count:
        pool = BASES if rng.random() < 0.25 else vocabulary
        base = " ".join(rng.sample(pool, rng.choice([1, 1, 2, 2, 3])))
        if rng.random() < 0.3:
            base += rng.choice(SUFFIXES)
        if rng.random() < 0.05:
            base += str(rng.randrange(10_000))  # a unique tail keeps big stores from being all variants
        out.setdefault(base)
        for _ in range(rng.randrange(4)):
            kind = rng.randrange(13)
            if kind == 0:
                variant = base.lower()
            elif kind == 1:
                variant = base.replace(" ", "-").lower()
            elif kind == 2:
                variant = base.replace(" ", "")
            elif kind == 3:
                variant = _typo(rng, base)
            elif kind == 4:
                variant = f"{base} {rng.randrange(1, 20)}.{rng.randrange(10)}"
            elif kind == 5:
                variant = f"{base}.{rng.choice(['js', 'ts', 'md', 'py', 'json'])}"
            elif kind == 6:
                variant = (
                    f"{rng.choice(WORDS_EXTRA)} {base}" if rng.random() < 0.5 else f"{base} {rng.choice(WORDS_EXTRA)}"
                )
            elif kind == 7:
                variant = base.upper()
            elif kind == 8:
                variant = base + rng.choice(SUFFIXES)
            elif kind == 9:
                variant = "".join(word[0].upper() for word in base.split()) or base
            elif kind == 10:
                variant = f"{base} {rng.choice(['Inc', 'Corp', 'GmbH', 'Ltd', 'Foundation', 'University'])}"
            elif kind == 11:
                words = base.split()
                variant = " ".join([words[0][0] + "."] + words[1:]) if len(words) > 1 else base
            else:
                variant = " ".join(reversed(base.split()))
            out.setdefault(variant)
    return list(out)[:count]

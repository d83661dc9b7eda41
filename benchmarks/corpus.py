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


def passages(count: int, seed: int = 7, names_in_pool: int = 20_000, per_passage: int = 5, words: int = 60):
    """`count` passage dicts of about `words` words naming `per_passage` entities each."""
    rng = random.Random(seed)
    pool = names(rng, names_in_pool)
    for i in range(count):
        body = [rng.choice(WORDS) for _ in range(words - per_passage * 2)]
        for name in rng.sample(pool, per_passage):
            body.insert(rng.randrange(1, len(body)), name)
        yield {"id": f"b{i}", "text": " ".join(body) + ".", "source": f"bench/{i % 50}"}

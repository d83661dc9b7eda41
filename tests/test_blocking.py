"""Blocking loses nothing: the indexed pass finds exactly what a brute-force pass over all pairs
would fold or ask about."""

import sys
from pathlib import Path

from memo_tui.names.blocking import candidate_pairs
from memo_tui.names.rules import Name, judge_pair

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from corpus import entity_names  # noqa: E402

TYPES = [None, None, None, "person", "org", "tool"]


def names_for(count: int, seed: int) -> list[Name]:
    return [Name(i, name, TYPES[i % len(TYPES)]) for i, name in enumerate(entity_names(count, seed=seed))]


def positive(names, i, j) -> bool:
    return judge_pair(names[i], names[j]).kind != "no"


def test_blocked_pass_equals_brute_force():
    names = names_for(3000, seed=1)
    brute = {(i, j) for i in range(len(names)) for j in range(i + 1, len(names)) if positive(names, i, j)}
    blocked = {(i, j) for i, j in candidate_pairs(names) if positive(names, i, j)}
    assert len(brute) > 300  # the generated names really hold many variants
    assert blocked == brute
    assert len(candidate_pairs(names)) < len(names) * (len(names) - 1) // 20  # far from all pairs


def test_every_rule_family_is_found():
    names = [
        Name(i, n, t)
        for i, (n, t) in enumerate(
            [
                ("Claude Code", None),
                ("claude-code", None),
                ("Café", None),
                ("Cafe", None),
                ("Vue.js", None),
                ("Vue", None),
                ("Claude Opus 4.8", None),
                ("Opus 4.8", None),
                ("Ada", "person"),
                ("Ada Lovelace", "person"),
                ("memlom", None),
                ("memloom", None),
                ("Mongo", None),
                ("MongoDB", None),
                ("Kubernetes", None),
                ("Kubernets", None),
                ("Elasticsearch", None),
                ("Elasticsaerch", None),
            ]
        )
    ]
    found = {(names[i].name, names[j].name) for i, j in candidate_pairs(names) if positive(names, i, j)}
    assert found == {
        ("Claude Code", "claude-code"),
        ("Café", "Cafe"),
        ("Vue.js", "Vue"),
        ("Claude Opus 4.8", "Opus 4.8"),
        ("Ada", "Ada Lovelace"),
        ("memlom", "memloom"),
        ("Mongo", "MongoDB"),
        ("Kubernetes", "Kubernets"),
        ("Elasticsearch", "Elasticsaerch"),
    }


def test_the_families_of_chats_and_notes_are_found_as_brute_force_finds_them():
    """Acronyms and their plurals, people and their short names, among look-alikes of each."""
    spellings = [
        ("URL", None), ("URLs", None), ("URLS", None), ("Urls", None), ("ID", None), ("IDs", None), ("IDS", None),
        ("Deborah", "person"), ("Deb", None), ("Debian", None), ("De", None), ("Debs", None), ("DEB", None),
        ("Joanna Smith", "person"), ("Jo", "person"), ("Joan", None), ("Joanna", None), ("Cal", None),
        ("Calvin", "person"), ("Calvinism", None), ("Evan", "person"), ("Ev", None), ("Eva", "person"),
        ("LGBT", None), ("LGBTQ", None), ("LGBTS", None), ("GBTQ", None), ("Mel", "person"), ("Mell", None),
        ("Meel", None), ("Mle", None), ("Me", None), ("Nate", "person"), ("Nat", None), ("Nates", None),
    ]  # fmt: skip
    names = [Name(i, n, t) for i, (n, t) in enumerate(spellings)]
    brute = {(i, j) for i in range(len(names)) for j in range(i + 1, len(names)) if positive(names, i, j)}
    assert {(names[i].name, names[j].name) for i, j in brute} >= {
        ("URL", "URLs"), ("ID", "IDs"), ("Deborah", "Deb"), ("Joanna Smith", "Jo"), ("Cal", "Calvin"), ("Evan", "Ev"),
        ("LGBT", "LGBTQ"), ("Mel", "Mell"), ("Mel", "Meel"),
    }  # fmt: skip
    assert {(i, j) for i, j in candidate_pairs(names) if positive(names, i, j)} == brute
    from memo_tui.names.blocking import gram_order, name_probes, name_tokens

    tokens = [name_tokens(n, gram_order(names)) for n in names]
    probes = [name_probes(n, t) for n, t in zip(names, tokens, strict=True)]
    assert [(names[i], names[j]) for i, j in brute if not (probes[i] & tokens[j] or probes[j] & tokens[i])] == []


def test_plurals_and_written_out_umlauts_are_found_as_brute_force_finds_them():
    """Plurals past the edits rule 8 allows or of short names, and umlauts written out, among look-alikes."""
    spellings = [
        "IRQ", "irqs", "IRQS", "vCPU", "vCPUs", "vcpus", "Policy", "Policies", "Polices", "build-dependency",
        "build-dependencies", "Class", "Classes", "Fix", "Fixes", "RC", "RCS", "PCI ID", "PCI IDs",
        "Guido Günther", "Guido Guenther", "Guido Gunther", "Jörg", "Joerg", "Müller", "Mueller",
    ]  # fmt: skip
    names = [Name(i, n) for i, n in enumerate(spellings)]
    brute = {(i, j) for i in range(len(names)) for j in range(i + 1, len(names)) if positive(names, i, j)}
    assert {(names[i].name, names[j].name) for i, j in brute} >= {
        ("IRQ", "irqs"), ("vCPU", "vCPUs"), ("Policy", "Policies"), ("build-dependency", "build-dependencies"),
        ("Class", "Classes"), ("PCI ID", "PCI IDs"), ("Guido Günther", "Guido Guenther"), ("Jörg", "Joerg"),
        ("Müller", "Mueller"),
    }  # fmt: skip
    assert {(i, j) for i, j in candidate_pairs(names) if positive(names, i, j)} == brute
    from memo_tui.names.blocking import gram_order, name_probes, name_tokens

    tokens = [name_tokens(n, gram_order(names)) for n in names]
    probes = [name_probes(n, t) for n, t in zip(names, tokens, strict=True)]
    assert [(names[i], names[j]) for i, j in brute if not (probes[i] & tokens[j] or probes[j] & tokens[i])] == []


def test_the_parallel_path_finds_the_same_pairs(monkeypatch):
    from memo_tui.names import blocking

    names = names_for(1500, seed=5)
    serial = candidate_pairs(names)
    monkeypatch.setattr(blocking, "PARALLEL_MIN", 1)
    assert candidate_pairs(names) == serial


def test_every_blocked_pair_shares_a_token_the_incremental_pass_can_find():
    """What incremental blocking rests on: for every pair blocking makes, a probe of one side is a
    token of the other (the gram order taken from half the names, as a kept order meets new names)."""
    from memo_tui.names.blocking import gram_order, name_probes, name_tokens

    for seed in (1, 2):
        names = names_for(3000, seed=seed)
        order = gram_order(names[: len(names) // 2])
        tokens = [name_tokens(n, order) for n in names]
        probes = [name_probes(n, t) for n, t in zip(names, tokens, strict=True)]
        pairs = candidate_pairs(names)
        assert len(pairs) > 3000
        missed = [(names[i], names[j]) for i, j in pairs if not (probes[i] & tokens[j] or probes[j] & tokens[i])]
        assert missed == []


def test_each_spelling_family_finds_pairs_by_its_own_tokens_and_test():
    """What partner probing rests on: a pair the edit-distance family finds shares an edit token
    (E) both ways and is `within_edits`; a pair the trigram family finds shares a trigram token (G)
    both ways and is `grams_close`. So a candidate is tested only by the family that found it."""
    from memo_tui.names.blocking import (
        EditPairs,
        _trigram_prefix_filter,
        gram_order,
        grams_close,
        name_probes,
        name_tokens,
        within_edits,
    )
    from memo_tui.names.rules import spelling_key
    from memo_tui.runtime.codec import pair_of

    names = names_for(2000, seed=4)
    order = gram_order(names[: len(names) // 2])
    tokens = [name_tokens(n, order) for n in names]
    probes = [name_probes(n, t) for n, t in zip(names, tokens, strict=True)]
    keyed = [spelling_key(n.name) for n in names]
    with EditPairs([n.name for n in names]) as found:
        numbers = found.result()
    edits = set(map(pair_of, numbers))
    assert len(edits) == len(numbers)  # each pair once
    coded: set[int] = set()
    _trigram_prefix_filter(coded, {i: n.grams for i, n in enumerate(names) if n.spelling_eligible})
    grams = set(map(pair_of, coded))
    for kind, found, close in (("E", edits, lambda i, j: within_edits(keyed[i], keyed[j])),
                               ("G", grams, lambda i, j: grams_close(names[i].grams, names[j].grams))):  # fmt: skip
        same_digits = {(i, j) for i, j in found if names[i].digits == names[j].digits}
        assert len(same_digits) > 300

        def shares(i: int, j: int, kind: str = kind) -> bool:
            return any(t.partition("|")[2][0] == kind for t in probes[i] & tokens[j])

        assert [(names[i].name, names[j].name) for i, j in same_digits if not (shares(i, j) and shares(j, i))] == []
        assert all(close(i, j) for i, j in same_digits)


def test_the_trigram_family_finds_every_pair_sharing_80_percent_of_its_trigrams():
    """The trigram family alone, against all pairs: names and near copies of them (a letter dropped,
    doubled or two swapped, a short word added) put many pairs on both sides of Jaccard 0.8."""
    import random

    from memo_tui.names.blocking import _trigram_prefix_filter, grams_close
    from memo_tui.runtime.codec import pair_of

    rng = random.Random(7)
    spellings = entity_names(900, seed=5)
    for name in [s for s in spellings if len(s) > 1]:
        at = rng.randrange(1, len(name))
        spellings += [name[:at] + name[at + 1 :], name[:at] + name[at - 1 :], name[::-1][:2] + name, name + "ix"]
    names = [n for n in (Name(i, s) for i, s in enumerate(spellings)) if n.spelling_eligible]
    grams = {i: n.grams for i, n in enumerate(names)}
    sets = [frozenset(n.grams) for n in names]
    brute = {(i, j) for i in grams for j in grams if i < j and grams_close(sets[i], sets[j])}
    found: set[int] = set()
    _trigram_prefix_filter(found, grams)
    assert len(brute) > 1000
    assert set(map(pair_of, found)) == brute

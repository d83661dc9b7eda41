"""Name keys, including the Unicode edges."""

import pytest

from memo_tui.names.keys import digit_runs, identity_key, merge_key, strip_accents, tokens, trigrams


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("  Claude   Code ", "Claude Code"),
        ("@memloom/core", "memloom/core"),
        ("@@handle", "@handle"),  # only one leading @ is dropped
        ("Ｐｏｓｔｇｒｅｓ", "Postgres"),  # full-width forms fold under NFKC
        ("ﬁle", "file"),  # ligature
        ("SHIP", "SHIP"),  # case is kept
        ("Claude\tCode\nCLI", "Claude Code CLI"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_identity_key(name, key):
    assert identity_key(name) == key


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Claude Code", "claudecode"),
        ("claude-code", "claudecode"),
        ("ClaudeCode", "claudecode"),
        ("Straße", "strasse"),
        ("STRASSE", "strasse"),
        ("GPT-4", "gpt4"),
        ("C#", "c"),
        ("Café", "café"),  # accents are letters: they stay in the merge key
        ("東京 タワー", "東京タワー"),
        ("שלום עולם", "שלוםעולם"),  # right-to-left letters are letters
        ("🚀 Rocket", "rocket"),  # emoji is neither letter nor number
        ("---", ""),  # punctuation only
        ("@scope/pkg", "scopepkg"),
    ],
)
def test_merge_key(name, key):
    assert merge_key(name) == key


def test_casefold_and_nfkc_agree_on_full_width_and_sharp_s():
    assert merge_key("ＳＴＲＡＳＳＥ") == merge_key("straße")


def test_strip_accents():
    assert strip_accents("Café Crème") == "Cafe Creme"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Claude Opus 4.8", ["Claude", "Opus", "4.8"]),
        ("memory_entities", ["memory", "entities"]),
        ("os.path.join", ["os.path.join"]),
        ("end. ", ["end"]),
        ("@memloom/cli", ["memloom", "cli"]),
    ],
)
def test_tokens(name, expected):
    assert tokens(name) == expected


@pytest.mark.parametrize(
    ("name", "runs"),
    [("claude-opus-4-8", ("4", "8")), ("GPT4", ("4",)), ("4.8", ("4", "8")), ("48", ("48",)), ("Postgres", ())],
)
def test_digit_runs(name, runs):
    assert digit_runs(name) == runs


def test_trigrams_are_padded():
    grams = trigrams("abc")
    assert "  a" in grams and " ab" in grams and "abc" in grams and "bc " in grams

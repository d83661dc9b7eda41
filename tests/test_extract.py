"""Heuristic extraction: each source kind, the stop list and sentence starts."""

import re

import pytest

from memo_tui.names import extract as extract_module
from memo_tui.names.extract import extract


def names(text: str) -> dict[str, str]:
    return {m.surface: m.source for m in extract(text)}


@pytest.mark.parametrize(
    ("text", "surface", "source"),
    [
        ("# Deploy Runbook\nbody text", "Deploy Runbook", "heading"),
        ("run `memo-tui ingest` now", "memo-tui ingest", "backtick"),
        ("call os.path.join here", "os.path.join", "identifier"),
        ("we use PostgreSQL daily", "PostgreSQL", "identifier"),
        ("a HashMap of ids", "HashMap", "identifier"),
        ("query it with GraphQL please", "GraphQL", "identifier"),
        ("rename getUserId soon", "getUserId", "identifier"),
        ("table memory_entities grows", "memory_entities", "identifier"),
        ("set MEMLOOM_HOME first", "MEMLOOM_HOME", "identifier"),
        ("install @scope/pkg today", "@scope/pkg", "identifier"),
        ("see pkg/module for it", "pkg/module", "identifier"),
        ("edit ./src/main.py now", "./src/main.py", "identifier"),
        ("note [tags: deploy, infra]", "deploy", "tag"),
        ("we moved to Claude Code last week", "Claude Code", "capitalised"),
        ("ask Claude Opus 4.8 about it", "Claude Opus 4.8", "capitalised"),
        ("pinned to Postgres 15.", "Postgres 15", "capitalised"),
        ("the GPT-4 model", "GPT-4", "identifier"),
        ("edit CLAUDE.md first", "CLAUDE.md", "identifier"),
        ("and Vue.js too", "Vue.js", "identifier"),
        ("talk to .next folks", None, None),
    ],
)
def test_each_kind_of_mention(text, surface, source):
    found = names(text)
    if surface is None:
        assert all(not s.startswith(".next") for s in found)
    else:
        assert found.get(surface) == source, found


def test_lone_word_that_only_starts_a_sentence_is_not_a_name():
    found = names("Deploying is hard. Yesterday we shipped it.")
    assert found == {}


def test_lone_word_mid_sentence_is_a_name():
    assert "Postgres" in names("We still run Postgres for billing.")


def test_stop_words_are_trimmed_from_runs():
    found = names("The Acme Gateway timeout is 30 seconds.")
    assert "Acme Gateway" in found
    assert not any(s.startswith("The") for s in found)


def test_weekdays_and_months_are_never_names():
    assert names("we met on Monday in March with Alice") == {"Alice": "capitalised"}


def test_runs_are_split_at_possessives():
    found = names("then Alice's HashMap broke")
    assert found == {"Alice": "capitalised", "HashMap": "identifier"}


def test_a_snake_case_word_ending_in_an_underscore_is_no_identifier():
    """`foo_bar_` is no identifier, while `foo_bar` is (on Python 3.11.0 to 3.11.4 a possessive repeat of
    a group kept the `_` its failed last repeat took: `foo_bar_` was found there)."""
    assert names("keep foo_bar_ here, the foo_bar_. end, use foo_bar now") == {"foo_bar": "identifier"}


def test_urls_and_emails_are_not_mined_for_names():
    found = names("read https://Example.com/Foo/Bar and mail bob@Example.org")
    assert found == {}


def test_fenced_code_is_skipped():
    assert names("before\n```\nimport FooBar\n```\nafter") == {}


def test_and_or_is_not_a_path():
    assert "and/or" not in names("use one and/or the other")


def test_backtick_outranks_capitalised_for_the_same_name():
    found = extract("We use `Claude Code`; Claude Code is fine")
    assert [(m.surface, m.source, m.weight) for m in found] == [("Claude Code", "backtick", 3.0)]


def test_one_mention_per_identity_key():
    found = extract("Postgres here, Postgres there, and Postgres again.")
    assert [m.surface for m in found] == ["Postgres"]


def test_heading_words_feed_other_passes():
    found = names("## Moving to PostgreSQL with Claude Code\ntext")
    assert "PostgreSQL" in found and "Claude Code" in found


def test_long_headings_are_not_names():
    assert "Why we decided to move everything over" not in names("# Why we decided to move everything over\n")


def test_unicode_names_are_extracted():
    found = names("we met Zoë Ångström at Café Central")
    assert "Zoë Ångström" in found and "Café Central" in found


def test_new_york_keeps_its_new_but_updated_postgres_loses_updated():
    found = names("The New York office moved. Updated Postgres to 16. Ask Mary-Jane O'Neil.")
    assert {"New York", "Postgres", "Mary-Jane O'Neil"} <= set(found)
    assert not any(s.startswith(("Updated", "Ask")) for s in found)


def test_lowercase_handles_are_names():
    assert names("hey @dana can you look") == {"@dana": "identifier"}
    assert "@Dana Smith" in names("thanks to @Dana Smith for this")


def test_chat_shorthand_is_not_a_name():
    assert names("TIL: we also use Redis. BTW the ETA is Friday") == {"Redis": "capitalised"}


def test_table_headers_and_emphasised_words_in_cells_are_not_names():
    found = names("| Service | Owner |\n|---|---|\n| Acme Gateway | **Deprecated** |")
    assert found == {"Acme Gateway": "capitalised"}


def test_an_ip_address_is_not_a_version():
    assert names("got ECONNREFUSED 127.0.0.1:5432 again") == {"ECONNREFUSED": "identifier"}


def test_code_spans_name_callables_and_skip_expressions():
    found = names("call `os.path.join()` or `judge_pair(a, b)`, never `x = 1`; set `show=False`")
    assert found == {"os.path.join": "backtick", "judge_pair": "backtick"}


def test_numbered_headings_lose_their_numbers():
    assert names("## 3. Names and Keys\ntext") == {"Names and Keys": "heading"}


def test_single_characters_and_bare_versions_are_not_names():
    assert names("press `m` then `4.8` and `resolve [--dry-run` for X") == {}


def surfaces(text: str) -> list[str]:
    return [m.surface for m in extract(text)]


def test_sentence_opening_verbs_of_commits_are_trimmed_but_the_same_words_stay_names():
    assert surfaces("  * Bump Standards-Version to 4.6.1") == ["Standards-Version"]
    assert surfaces("Fix SQL injection in the exporter.") == ["SQL"]
    assert surfaces("Added JSONField support.") == ["JSONField"]
    assert set(surfaces("We ship the SHIP report; the Ship team reads it.")) == {"SHIP", "Ship"}


@pytest.mark.parametrize(
    ("subject", "name"),
    [  # commit subjects of Textualize/rich and entries of Debian changelogs
        ("Amend CHANGELOG", "CHANGELOG"),
        ("Export TextType into the docs. (#3257)", "TextType"),
        ("📝 Add CONTRIBUTORS", "CONTRIBUTORS"),  # a gitmoji before the subject
        ("💡 Update ProgressBar docstring\n\nUpdate bar.done to bar.finished", "ProgressBar"),
        ('[inspect] Replace ASCII special characters with their "non-special" readable version', "ASCII"),
        ("  * [efeb33c] Set Standards-version to 4.5.1", "Standards-version"),  # a commit id tag
        ("  * Reduce Build-Depends: (Closes: #982184)", "Build-Depends"),
        ("airtable-export: Export Airtable data to files on disk", "Airtable"),
    ],
)
def test_an_imperative_verb_opening_a_subject_is_not_part_of_the_name_it_acts_on(subject, name):
    assert name in surfaces(subject)
    assert not [s for s in surfaces(subject) if s != name and s.endswith(" " + name)]


def test_a_verb_led_name_keeps_its_verb_where_no_subject_opens():
    assert surfaces("Merge pull request #1819 from Textualize/deprecate-render-group\n\nRender Group") == [
        "Textualize/deprecate-render-group",
        "Render Group",  # RenderGroup: "render" is not among the verbs trimmed
    ]
    assert surfaces("[ Mark Hindley ]\n  * Fix system-bus activation") == ["Mark Hindley"]  # a name in a tag
    assert "Python Tools" in surfaces("I ♥ Python Tools")  # a pictograph mid-sentence opens nothing
    assert "Unified CLI" in surfaces("Unified CLI for the cloud.")  # -ied forms name things
    assert "Use Case" in surfaces("See [the docs] Use Case here.")  # a tag mid-sentence opens nothing


def test_half_an_email_address_and_with_shorthand_are_not_names():
    assert surfaces("Update my e-mail address to @debian.org.") == []
    assert surfaces("tested w/postgres and sqlite") == []
    assert surfaces("ping @dana about it") == ["@dana"]


def test_a_given_name_that_is_also_a_modal_keeps_its_place_mid_sentence():
    assert surfaces("We met Will McGugan at the sprint.") == ["Will McGugan"]
    assert surfaces("Will Postgres support it?") == ["Postgres"]


@pytest.mark.parametrize(
    "text",
    [
        "foo@Bar and @@Foo, @dana, mail@Host.org",
        "x.Foo y/Bar #Tag $Var -Dash Name, a-Bee",
        "Alice's HashMap at GPT-4 Turbo 4.8 and Postgres 15.2.1 or 10.0.0.1",
        "Don't ask O'Brien about Vue.js\tNext Thing",
        "@ Lone at-sign, @Dana Smith; Q&A, AT&T",
    ],
)
def test_ascii_text_has_the_same_capitalised_runs_as_the_unicode_pattern_finds(text):
    """ASCII text is searched with a pattern that opens with [@A-Z] (`_CAP_RUN_ASCII`): the same runs."""
    assert text.isascii()
    spans = [m.span() for m in extract_module._CAP_RUN_ASCII.finditer(text)]
    assert spans == [m.span() for m in extract_module._CAP_RUN.finditer(text)]
    assert spans


@pytest.mark.parametrize("text", ["os.path.join", "a.b", "end. Next", "v1.2 and 3.x", ".hidden", "x._y", "é.Ä", "none"])
def test_the_dotted_hint_is_found_from_its_dot_as_from_its_word_character(text):
    assert bool(extract_module._DOTTED_HINT.search(text)) == bool(re.search(r"\w\.[A-Za-z_]", text))


def test_sigil_tokens_and_tokens_without_a_letter_are_not_names():
    text = "Use `-1` or `:-1` for the last, `$1` and `\\1` for the group, `:table` in the shell, `.tables` and `.env`."
    assert keys(text) == {".tables", ".env"}  # a dot-led word is a file or a command: kept, but never paired


def test_an_interjection_opening_a_line_is_not_part_of_the_name_it_addresses():
    assert keys("Wow Mel, that is great! Bye Joanna. Yeah John, sure.") == {"Mel", "Joanna", "John"}
    assert keys("Morning Deb, did it finish?") == {"Deb"}
    assert keys("We met the Wow Signal team.") == {"Wow Signal"}  # mid-sentence it is a name's word


def keys(text: str) -> set[str]:
    return {m.key for m in extract(text)}

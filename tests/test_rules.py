"""judge_pair, rule by rule, on named pairs from real naming."""

import gzip
import json
from pathlib import Path

import pytest

from memo_tui.names.rules import Name, entropy, inner_capitals, judge_pair, prose_lowercase, prose_variants

P = "person"

# (a, b, type_a, type_b, expected kind, expected rule)
TABLE = [
    # rule 1: same entity or no letters/digits
    ("---", "Claude Code", None, None, "no", "same-or-empty"),
    ("🚀", "🚀🚀", None, None, "no", "same-or-empty"),
    # rule 3: numbers differ, or only one side has them
    ("Opus 4.7", "Opus 4.8", None, None, "no", "numbers-differ"),
    ("Postgres 15", "Postgres", None, None, "no", "numbers-differ"),
    ("Python 3.11", "Python 3.12", None, None, "no", "numbers-differ"),
    ("claude-opus-4-8", "claude-opus-4-7", None, None, "no", "numbers-differ"),
    ("GPT-4", "GPT-4o", None, None, "no", "different"),  # same digits, but 4-letter keys are too short to judge
    ("iPhone 15", "iPhone 15 Pro", None, None, "ask", "longer-name"),  # the shorter plus a word: a more specific thing
    ("S3", "S4", None, None, "no", "numbers-differ"),
    ("Windows 10", "Windows 11", None, None, "no", "numbers-differ"),
    ("v1.2.0", "v1.2.1", None, None, "no", "numbers-differ"),
    ("48", "4.8", None, None, "no", "numbers-differ"),
    ("HTTP/2", "HTTP", None, None, "no", "numbers-differ"),
    ("Vue 3", "Vue", None, None, "no", "numbers-differ"),
    # rule 4: file names beside the thing they are named after
    ("memloom.ts", "memloom", None, None, "no", "file-suffix"),
    ("CLAUDE.md", "Claude", None, None, "no", "file-suffix"),
    ("README.md", "README", None, None, "ask", "file-stem"),  # a stem in capitals names the file itself
    ("readme.md", "readme", None, None, "no", "file-suffix"),
    ("NEWS.gz", "NEWS", None, None, "ask", "file-stem"),
    ("sysctl.c", "SYSCTL", None, None, "no", "file-suffix"),  # a symbol and a source file
    ("python.mk", "PYTHON", None, None, "no", "file-suffix"),
    ("httpbin.org", "HTTPBin", None, None, "ask", "site"),
    ("setup.py", "setup", None, None, "no", "file-suffix"),
    ("config.yaml", "config", None, None, "no", "file-suffix"),
    ("Vue.js", "Vue", None, None, "ask", "js-suffix"),
    ("Node.js", "Node", None, None, "ask", "js-suffix"),
    ("Next.js", "next", None, None, "ask", "js-suffix"),
    ("package.json", "package", None, None, "no", "file-suffix"),
    # rule 5: identical merge keys fold ...
    ("Claude Code", "claude-code", None, None, "ask", "case-lowercase"),  # `dcache` / `D-cache` are two things
    ("Claude Code", "Claude-Code", None, None, "fold", "same-merge-key"),
    ("ClaudeCode", "Claude Code", None, None, "ask", "joined-words"),  # AgentMesh / Agent Mesh: often two things
    ("GPT4", "GPT-4", None, None, "fold", "same-merge-key"),
    ("GitHub Actions", "Github actions", None, None, "fold", "same-merge-key"),
    ("PostgreSQL", "Postgre SQL", None, None, "ask", "joined-words"),
    ("Standards Version", "Standards-Version", None, None, "fold", "same-merge-key"),
    ("Cortex-A53", "Cortex A53", None, None, "fold", "same-merge-key"),
    ("FastApi", "FastAPI", None, None, "fold", "same-merge-key"),
    ("memory_entities", "memory-entities", None, None, "ask", "same-letters-code"),
    ("OnConflict", "on_conflict", None, None, "ask", "same-letters-code"),  # in code, punctuation is the name
    ("requests.session", "requests.Session", None, None, "ask", "code-case"),
    ("VIRTIO_PMEM", "virtio_pmem", None, None, "ask", "code-constant"),  # a config symbol and its driver
    ("fs/dax", "FS_DAX", None, None, "ask", "same-letters-code"),
    ("ReAct", "React", None, None, "ask", "case-styled"),
    ("JavaScript", "Java Script", None, None, "ask", "joined-words"),
    ("e-mail", "email", None, None, "ask", "command-spacing"),  # lowercase: spaced like a command
    ("E-mail", "Email", None, None, "ask", "case-styled"),
    ("Multi-Arch", "MultiArch", None, None, "fold", "same-merge-key"),
    ("Type Script", "TypeScript", None, None, "ask", "joined-words"),
    ("OpenAI", "Open AI", None, None, "ask", "joined-words"),
    ("Alice Smith", "alice smith", P, P, "ask", "case-lowercase"),  # lowercase is how commands are written
    ("Kubernetes", "kubernetes", None, None, "ask", "case-lowercase"),
    ("Kubernetes", "KUBERNETES", None, None, "ask", "case-acronym"),
    ("Gitlab", "GitLab", None, None, "fold", "same-merge-key"),  # the store must still agree (evidence)
    ("MongoDB", "mongodb", None, None, "ask", "case-lowercase"),
    ("Straße", "strasse", None, None, "ask", "case-lowercase"),
    ("Straße", "Strasse", None, None, "fold", "same-merge-key"),
    # ... except these, which ask
    ("C#", "C", None, None, "ask", "short-key"),
    ("C++", "C", None, None, "ask", "short-key"),
    ("F#", "F", None, None, "ask", "short-key"),
    (".next", "Next", None, None, "ask", "leading-punctuation"),
    (".env", "env", None, None, "ask", "leading-punctuation"),
    ("_internal", "internal", None, None, "ask", "leading-punctuation"),
    ("Mercury", "mercury", "org", "tool", "ask", "types-differ"),
    ("Jordan", "Jordan", "person", "place", "ask", "types-differ"),
    ("SHIP", "Ship", None, None, "ask", "case-acronym"),
    ("HCM", "hcm", None, None, "ask", "case-acronym"),
    ("AWS", "Aws", None, None, "ask", "case-acronym"),
    ("NOTE", "Note", None, None, "ask", "case-acronym"),
    ("atlas", "Atlas", None, None, "ask", "case-common-word"),
    ("square", "Square", None, None, "ask", "case-common-word"),
    ("cursor", "Cursor", None, None, "ask", "case-common-word"),
    ("Slack", "slack", None, None, "ask", "case-common-word"),
    ("Notion", "notion", None, None, "ask", "case-common-word"),
    ("Rust", "rust", None, None, "ask", "case-common-word"),
    # rule 6: accents
    ("Café", "Cafe", None, None, "ask", "accents"),
    ("Zoë", "Zoe", P, P, "ask", "accents"),
    ("São Paulo", "Sao Paulo", None, None, "ask", "accents"),
    ("Pokémon", "Pokemon", None, None, "ask", "accents"),
    # rule 7: one name inside the other
    ("Claude Opus 4.8", "Opus 4.8", None, None, "ask", "contained"),
    ("Ada", "Ada Lovelace", P, P, "ask", "contained"),
    ("John", "John Smith", P, P, "ask", "contained"),
    ("John", "John Doe", P, P, "ask", "contained"),
    ("Acme Gateway", "Acme Gateway Service", None, None, "ask", "contained"),
    ("Google Cloud", "Google Cloud Platform", None, None, "ask", "contained"),
    ("Visual Studio Code", "Microsoft Visual Studio Code", None, None, "ask", "contained"),
    ("Ada", "Ada Lovelace", None, None, "ask", "word-of-name"),
    ("Ada", "Ada King Countess of Lovelace", P, P, "no", "different"),
    ("memloom", "memloom serve", None, None, "no", "different"),
    ("Amazon", "Amazon Web Services", None, None, "ask", "word-of-name"),
    ("Kafka", "Apache Kafka", None, None, "ask", "word-of-name"),
    ("set_context", "gru_set_context_option", None, None, "no", "different"),
    ("Gemini", "Gemini CLI", None, None, "ask", "word-of-name"),
    ("Textual", "Textual CSS", None, None, "ask", "word-of-name"),
    ("Postgres", "postgres_ext", None, None, "ask", "longer-name"),
    ("CI", "create_index", None, None, "no", "different"),  # initials of an identifier are not an acronym
    ("DB", "Darren Burns", None, None, "ask", "short-acronym"),
    ("MCP", "Model Context Protocol", None, None, "ask", "acronym"),
    ("APs", "AfterLink Protocol SDK", None, None, "no", "different"),  # an acronym's plural, not initials
    # rule 8: spelling variants
    ("Postgres", "PostgreSQL", None, None, "ask", "short-spelling"),  # a long name without its capital ending
    ("memlom", "memloom", None, None, "ask", "edit-distance"),
    ("Mongo", "MongoDB", None, None, "ask", "prefix"),  # a word before a whole capital word: often another thing
    ("Kubernetes", "Kubernets", None, None, "ask", "edit-distance"),
    ("Elasticsearch", "Elasticsaerch", None, None, "ask", "transposed"),
    ("Terraform", "Teraform", None, None, "ask", "edit-distance"),
    ("Anthropic", "Antropic", None, None, "ask", "edit-distance"),
    ("Grafana", "Graphana", None, None, "no", "different"),  # two edits on a 7-letter key: too far
    ("Jenkins", "Jenkin", None, None, "ask", "plural"),
    ("Redis", "Rediss", None, None, "ask", "plural"),
    ("Prometheus", "Promethues", None, None, "ask", "transposed"),
    ("Snowflake", "Snowflakes", None, None, "ask", "plural"),
    ("get_id", "set_id", None, None, "no", "different"),  # sibling identifiers
    ("scroll_x", "scroll_y", None, None, "no", "different"),
    ("requests.post", "requests.put", None, None, "no", "different"),
    ("Alibaba Cloud Ims", "Alibaba Cloud Sts", None, None, "no", "different"),
    ("Python", "Cython", None, None, "no", "different"),
    ("pci_request_region", "pci_request_regions", None, None, "ask", "plural"),
    ("perf/x86/intel", "perf/x86/intel/pt", None, None, "no", "different"),  # a path below a path
    ("config.yml", "config.yaml", None, None, "ask", "edit-distance"),
    ("ClickHouse", "Clickhouses", None, None, "ask", "plural"),  # a plural in other capitals (`DataFrames`)
    ("LLM API", "LLM APIs", None, None, "ask", "plural"),  # capitals split `APIs` into `ap`, `is`: the keys say it
    ("Webpack", "Webpacker", None, None, "ask", "prefix"),
    # rule 8 does not ask about short or repetitive names
    ("Bob", "Rob", P, P, "no", "different"),
    ("Jira", "Jina", None, None, "no", "different"),
    ("aaaaaa", "aaaaab", None, None, "no", "different"),
    ("Go", "Gs", None, None, "no", "different"),
    # names notes and chats really write
    ("URLs", "URL", None, None, "ask", "caps-plural"),  # an acronym's plural, too short for rule 8
    ("ID", "IDs", None, None, "ask", "caps-plural"),
    # a plural, short or in another letter case, or past the edits rule 8 allows
    ("IRQ", "irqs", None, None, "ask", "plural"),
    ("vCPU", "vCPUs", None, None, "ask", "plural"),
    ("Fix", "Fixes", None, None, "no", "different"),  # a common word's short plural is often another thing
    ("users", "User", None, None, "no", "different"),
    ("Class", "Classes", None, None, "ask", "plural"),
    ("Policy", "Policies", None, None, "ask", "plural"),
    ("build-dependency", "build-dependencies", None, None, "ask", "plural"),
    ("PCI ID", "PCI IDs", None, None, "ask", "plural"),
    ("JSON API", "JSON APIs", None, None, "ask", "plural"),
    ("url_prefix", "url_prefixes", None, None, "ask", "plural"),  # not two sibling identifiers
    ("Acknowledge NMUs", "Acknowledges NMU", None, None, "ask", "edit-distance"),  # plurals crossed, no plural
    ("free_irq", "Free IRQs", None, None, "ask", "edit-distance"),  # a function, and freeing IRQs
    ("RC", "RCS", None, None, "no", "different"),  # an acronym of its own, not a plural
    ("Smart AI", "Smart AIS", None, None, "no", "different"),  # another acronym, not a plural
    ("Cmd -", "cmds", None, None, "no", "different"),  # a short plural is its singular and an ending
    ("timeZone", "timezones", None, None, "ask", "edit-distance"),  # an option, and the zones
    ("vcpu", "vCPUs", None, None, "ask", "plural"),
    ("Not", "Notes", None, None, "no", "different"),  # `es` follows s, x, z, ch, sh or o
    ("post", "/posts", None, None, "no", "different"),  # a route, not the plural
    ("Guido Günther", "Guido Guenther", P, P, "ask", "accents"),  # an umlaut written out
    ("Dashbaord", "Dashboard", None, None, "ask", "transposed"),
    ("APICs", "AI PCs", None, None, "ask", "edit-distance"),  # a swap in five letters is another acronym
    ("Light", "LightRAG", None, None, "ask", "prefix"),  # a word and a name made of it: not a short spelling
    ("fasta", "FastACP", None, None, "ask", "prefix"),  # a lowercase word: a command or a format
    ("Deb", "Deborah", None, P, "ask", "short-name"),  # what a person is called for short
    ("Jo", "Joanna Smith", P, P, "ask", "short-name"),
    ("Cal", "Calvin", None, P, "ask", "short-name"),
    ("Deb", "Deborah", None, None, "no", "different"),  # only a person has a short name
    ("Deborah", "Debian", P, None, "no", "different"),
    ("DEB", "Deborah", None, P, "no", "different"),  # a short name is written as a name is
    # a longer name that is a doing or a period is not the name it holds (chats, commits, summaries)
    ("German", "Learning German", None, None, "no", "activity"),
    ("Just", "JUST DOING", None, None, "no", "activity"),  # "Remember Jon, Just do it!" / "JUST DOING IT!"
    ("URL", "URL Building", None, None, "no", "activity"),
    ("Python", "Specifying Python", None, None, "no", "activity"),
    ("Machine Learning", "Advanced Machine Learning Training", None, None, "no", "activity"),
    ("Pride", "Pride Month", None, None, "no", "period"),
    ("Christmas", "Christmas Eve", None, None, "no", "period"),
    ("Spring", "Spring Boot", None, None, "ask", "word-of-name"),  # spring, thing, string: no verb's -ing
    ("Boot", "Spring Boot", None, None, "ask", "word-of-name"),
    ("Stranger", "Stranger Things", None, None, "ask", "word-of-name"),
    ("Ada", "Ada Learning", P, P, "ask", "contained"),  # people are named as they are
    # a place and its adjective or demonym
    ("Midwest", "Midwestern", None, None, "no", "adjective"),
    ("Japan", "Japanese", None, None, "no", "adjective"),
    ("Korea", "Korean", None, None, "no", "adjective"),
    ("Debia", "Debian", None, None, "ask", "edit-distance"),  # a typo is no word of English
    ("Kotli", "Kotlin", None, None, "ask", "edit-distance"),
    # short names rule 8 leaves out: a well-known acronym and one more letter, a person's name mistyped
    ("LGBT", "LGBTQ", None, None, "ask", "edit-distance"),
    ("HTTP", "HTTPS", None, None, "no", "different"),  # one more S: a plural or another acronym
    ("PATH", "PATHS", None, None, "no", "different"),
    ("AAC", "AACP", None, None, "no", "different"),  # rare acronyms: one of many
    ("CAR", "CARD", None, None, "no", "different"),  # words in capitals
    ("GPL", "LGPL", None, None, "no", "different"),  # a letter before it: another licence
    ("Mel", "Mell", P, None, "ask", "edit-distance"),  # "Thanks, Mell!": a typo of Melanie's short name
    ("Jonn", "Jon", None, P, "ask", "edit-distance"),
    ("Mel", "Mell", None, None, "no", "different"),  # not known as a person: `Del` / `Dell`
    ("Tim", "Time", P, None, "no", "different"),  # a name and a common word
    ("Jon", "Joan", P, P, "no", "different"),  # two speakers are two people
    (".tables", "TABLE", None, None, "no", "sigil"),  # a command beside a word
    ("--databases", "Database", None, None, "no", "sigil"),  # an option
    ("/usr/share/info/dir", "usr/share/info/dir.gz", None, None, "ask", "edit-distance"),  # a path either way
    # rule 9: anything else
    ("Robert", "Bob", P, P, "no", "different"),
    ("memory_entities", "memory_edges", None, None, "no", "different"),
    ("React", "Preact", None, None, "no", "different"),  # a first letter that differs: another name
    ("Kafka", "Flink", None, None, "no", "different"),
    ("Acme Gateway", "Acme Router", None, None, "no", "different"),
    ("Alice Smith", "Alice Jones", P, P, "no", "different"),
]


@pytest.mark.parametrize(("a", "b", "type_a", "type_b", "kind", "rule"), TABLE, ids=[f"{r[0]}|{r[1]}" for r in TABLE])
def test_judge_pair(a, b, type_a, type_b, kind, rule):
    verdict = judge_pair(Name(1, a, type_a), Name(2, b, type_b))
    assert (verdict.kind, verdict.rule) == (kind, rule), verdict.reason
    assert judge_pair(Name(2, b, type_b), Name(1, a, type_a)).kind == kind  # order does not matter
    if kind == "fold":
        assert verdict.score == 1.0
    elif kind == "ask":
        assert 0.6 <= verdict.score <= 0.95
    assert verdict.reason


def test_the_table_covers_every_rule():
    assert len(TABLE) >= 80
    rules = {rule for *_, rule in TABLE}
    assert rules >= {
        "same-or-empty",
        "numbers-differ",
        "file-suffix",
        "js-suffix",
        "same-merge-key",
        "short-key",
        "leading-punctuation",
        "types-differ",
        "case-acronym",
        "case-common-word",
        "accents",
        "contained",
        "edit-distance",
        "prefix",
        "different",
        "same-letters-code",
        "code-case",
        "code-constant",
        "command-spacing",
        "joined-words",
        "case-lowercase",
        "case-styled",
        "plural",
        "word-of-name",
        "longer-name",
        "file-stem",
        "site",
        "short-acronym",
        "activity",
        "period",
        "adjective",
    }


def test_same_entity_and_settled_pairs_are_never_asked():
    assert judge_pair(Name(7, "Postgres"), Name(7, "PostgreSQL")).rule == "same-or-empty"
    assert judge_pair(Name(1, "Postgres"), Name(2, "PostgreSQL"), settled=True).rule == "settled"


def test_reason_notes_a_type_difference():
    verdict = judge_pair(Name(1, "Kubernetes", "tool"), Name(2, "Kubernets", "org"))
    assert verdict.kind == "ask" and "types differ (tool / org)" in verdict.reason


def test_trigram_rule_catches_a_transposition_in_a_long_name():
    verdict = judge_pair(Name(1, "observabilityplatform"), Name(2, "observabiltiyplatform"))
    assert verdict.kind == "ask"


def test_entropy():
    assert entropy("aaaa") == 0.0
    assert entropy("abab") == 1.0


def test_a_fold_verdict_is_the_same_either_way_round():
    """The pass reuses a fold verdict kept for (low id, high id) when it asks about (high, low)."""
    rows = gzip.open(Path(__file__).parent / "data/real/summaries.jsonl.gz", "rt", encoding="utf-8")
    words = sorted({w.strip(".,;:()") for line in rows for w in json.loads(line)["text"].split()[:12]})
    words = [w for w in words if len(w) > 2][:3000]
    spellings = [f(w) for w in words for f in (str.lower, str.upper, str.title, lambda w: w[:2] + "-" + w[2:])]
    names = [Name(i, spelling) for i, spelling in enumerate(spellings)]
    folds = 0
    for k in range(0, len(names) - 1):
        for other in names[k + 1 : k + 4]:
            one, two = judge_pair(names[k], other), judge_pair(other, names[k])
            if one.kind == "fold" or two.kind == "fold":
                folds += 1
                assert one == two, (names[k].name, other.name)
    assert folds > 500


@pytest.mark.parametrize(
    ("a", "b", "prose"),
    [
        ("Claude Code", "Claude-Code", True),  # spaces for hyphens
        ("Secure Boot", "Secure boot", True),  # other capitals
        ("Straße", "Strasse", True),
        ("Agent To Agent", "Agent-to-Agent", False),  # both at once: two packages on PyPI
        ("MiniMax", "Minimax", False),  # a styled word is a product's spelling
        ("REST Framework", "Rest Framework", False),
        ("Claude Code", "claude-code", False),  # a lowercase spelling is asked (`case-lowercase`)
        ("Multi-Arch", "MultiArch", False),  # joined is not spaced
    ],
)
def test_prose_variants_are_one_prose_name_in_other_capitals_or_separators(a, b, prose):
    assert prose_variants(Name(1, a), Name(2, b)) is prose


@pytest.mark.parametrize(
    ("a", "b", "inner"),
    [
        ("GitHub", "Github", True),  # notes and package summaries alike
        ("CodeSandbox", "Codesandbox", True),
        ("M2 MacBook Pro", "M2 Macbook Pro", True),  # one word of several
        ("Github API", "GitHub API", True),
        ("SIMTech", "SimTech", False),  # a run of capitals: two companies
        ("AletheIA", "Aletheia", False),
        ("APPy", "Appy", False),
        ("AOPs", "AOps", False),
        ("Agent-to-Agent", "Agent To Agent", False),  # separators and capitals both
        ("AgentStack SDK", "Agent Stack SDK", False),  # joined is not the same words
        ("GitHub", "github", False),  # a lowercase spelling is asked (`case-lowercase`)
        ("Claude Code", "Claude-Code", False),  # separators alone (`prose_variants`)
    ],
)
def test_inner_capitals_are_one_word_with_and_without_its_inner_capitals(a, b, inner):
    assert inner_capitals(Name(1, a), Name(2, b)) is inner


@pytest.mark.parametrize(
    ("a", "b", "lowercase"),
    [
        ("Datasette", "datasette", True),  # a notes folder's tool and its command
        ("Claude Code", "claude-code", True),  # hyphens for its spaces, as a package is named
        ("Docker Compose for Django development", "docker-compose-for-django-development", True),  # a heading's slug
        ("Hyper-V", "hyper-v", True),
        ("GitHub", "github", False),  # a styled name is not prose (`inner_capitals` is its own shape)
        ("OpenSSL", "openssl", False),
        ("Work Queue", "workqueue", False),  # joined is not the same words
        ("Gen2", "gen2", False),  # digits
        ("Claude Code", "Claude-Code", False),  # no lowercase side (`prose_variants`)
    ],
)
def test_prose_lowercase_is_a_prose_name_and_its_lowercase_spelling(a, b, lowercase):
    assert prose_lowercase(Name(1, a), Name(2, b)) is lowercase
    assert judge_pair(Name(1, a), Name(2, b)).rule == "case-lowercase" or not lowercase  # asked by the rules

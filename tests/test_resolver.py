"""The resolution pass: folds, queue, cap and deferral, idempotence, dry runs, settled pairs."""

import json

import pytest
from graphrows import graph_rows, question_between

from memo_tui.engine.graph.passages import retire
from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.resolve.reads import joint_texts, live_mentions, live_sources, mention_sets, store_facts
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.engine.review import decisions
from memo_tui.engine.review.queue import pending
from memo_tui.names import evidence
from memo_tui.store import Decision, Entity, Mention, Passage, Question
from memo_tui.text.sources import PassageRecord

NS = "default"


def ingest(*texts, entities=()):
    start = Entity.select().count() + 1000 * len(texts)
    records = [PassageRecord(f"p{start}-{i}", text, f"src{i}") for i, text in enumerate(texts)]
    if entities:
        records.append(PassageRecord(f"decl{start}", "declared.", "d", entities=list(entities)))
    ingest_records(NS, records)


RARE = ["Quartz Ledger", "Helix Router", "Summit Vault", "Nimbus Console", "Beacon Relay", "Lumen Index"]


def variants(a: str, b: str, times: int, offset: int = 0) -> list[str]:
    """`times` passages for each spelling; passage k of each names the same rare neighbour, so the
    two share `times` rare neighbours, each named by these two passages only."""
    out = []
    for k in range(times):
        rare = f"{RARE[(k + offset) % len(RARE)]} {k + offset}"
        out += [f"Billing runs on {a} beside the {rare}.", f"Search runs on {b} beside the {rare} too."]
    return out


@pytest.fixture
def messy(store):
    ingest(
        # two spellings of one tool, each with the same rare company: certain, folded unasked
        "Claude Code reviews the Ledger Service and the Nimbus Console.",
        "`Claude-Code` reviews the Ledger Service and the Nimbus Console too.",
        # a joined spelling: asked (one word is often a product, the spaced words a phrase)
        "ClaudeCode is the repo of Claude Code.",
        # a plural: asked
        "The Webhook Relay retries.",
        "Both Webhook Relays retry.",
        # spellings a rule finds that real text shows to be mostly different things (an
        # edit-distance pair, a short spelling): asked all the same, ranked below the likely ones;
        # a two-letter acronym of a name is too unlikely to ask
        *variants("Postgres", "PostgreSQL", 3),
        "Both Kubernetes and Kubernets (typo) show up in notes.",
        "Ask Priya Raman; PR knows.",
        "We ship the SHIP report; the Ship team reads it.",
    )
    return store


def names():
    return sorted(e.name for e in Entity.select())


def queued() -> set[frozenset[str]]:
    return {frozenset((q.left_name, q.right_name)) for q in pending(NS)}


def test_a_pass_folds_the_certain_and_queues_the_uncertain(messy):
    report = resolve(NS)
    assert report.folded == 1
    assert "Claude-Code" not in names() and "Claude Code" in names()
    # every plausible question is asked, whatever its impact: an edit-distance pair whose spellings
    # keep the same rare company too; the one whose do not (under the floor on its pooled share) is
    # asked to teach the store how its pairs of that kind go; a two-letter acronym is too unlikely even for that
    likely = {frozenset(("Claude Code", "ClaudeCode")), frozenset(("Webhook Relay", "Webhook Relays"))}
    likely.add(frozenset(("Postgres", "PostgreSQL")))
    assert likely <= queued() and not any("asked to learn" in q.reason for q in pending(NS) if q.likelihood >= 0.25)
    [taught] = [q for q in pending(NS) if {q.left_name, q.right_name} == {"Kubernetes", "Kubernets"}]
    assert "asked to learn" in taught.reason and taught.likelihood < evidence.MIN_LIKELIHOOD
    assert frozenset(("PR", "Priya Raman")) not in queued()
    assert report.unlikely >= 2
    assert report.queued == len(queued())
    folds = Decision.select().where(Decision.action == "fold")
    assert {(d.actor, d.channel) for d in folds} == {("auto", "auto")}


def test_each_question_carries_a_likelihood_and_its_evidence_in_words(messy):
    resolve(NS)
    by_pair = {frozenset((q.left_name, q.right_name)): q for q in pending(NS)}
    plural = by_pair[frozenset(("Webhook Relay", "Webhook Relays"))]
    assert 0.5 <= plural.likelihood < 1 and plural.priority == round(plural.likelihood, 4)  # log2(1 + 1)
    assert plural.reason.startswith("one is the plural of the other; ")
    order = [q.priority for q in pending(NS)]
    assert order == sorted(order, reverse=True)  # the queue is ranked by expected yield


def test_identical_keys_without_shared_context_are_asked_not_folded(store):
    ingest("We run Gitlab for the pipelines.", "The mirror sits on GitLab now.")
    report = resolve(NS)
    assert report.folded == 0 and report.not_certain == 1
    (q,) = pending(NS)
    assert q.rule == "same-merge-key" and q.likelihood > 0.8
    # the rules' reason, told again for the question (a pass remembers its verdicts without one), then the note
    assert q.reason.startswith("the names differ only in case, spaces or hyphens; not folded unasked; ")


def test_one_prose_name_in_other_capitals_or_separators_folds_without_shared_context(store):
    ingest("Claude Code opened the branch.", "We ran claude-code on the flaky tests.", "Ask Claude-Code for a plan.")
    report = resolve(NS)
    assert report.folded == 1 and "Claude-Code" not in names() and "Claude Code" in names()
    assert "claude-code" in names()  # a lowercase spelling is asked about, not folded
    assert frozenset(("Claude Code", "claude-code")) in queued()


def test_one_prose_name_written_both_ways_in_one_passage_is_asked_not_folded(store):
    ingest("Claude Code here is the agent, Claude-Code the old wrapper script.", "Claude Code again.")
    report = resolve(NS)
    assert report.folded == 0 and report.not_certain == 1


def fold_summaries() -> list[str]:
    folds = Decision.select().where((Decision.action == "fold") & (Decision.channel == "auto"))
    return [json.loads(d.payload)["summary"] for d in folds]


def test_a_stray_capitalisation_of_the_stores_usual_spelling_folds_and_says_why(store):
    """As a notes folder writes them: `GitHub` in three passages, `Github` once (no rare neighbour in
    common); the same word with its inner capitals dropped folds unasked, and the fold says why."""
    ingest(
        "Push the branch to GitHub and open a pull request.",
        "The tests run on GitHub for every push.",
        "The release notes live on GitHub too.",
        "I just changed the name of a Github repository.",
    )
    report = resolve(NS)
    assert report.folded == 1 and "Github" not in names() and "GitHub" in names()
    (summary,) = fold_summaries()
    assert summary == (
        "folded 'Github' into 'GitHub' ('GitHub' is how this store writes the name (3 passages); 'Github' (1)"
        " is the same word without its inner capitals; no passage sets the two side by side)"
    )


def test_two_stylings_each_written_twice_are_asked_not_folded(store):
    """On the package summaries `MiniMax` (the company) and `Minimax` (the algorithm) are two
    passages each: neither is the store's usual spelling, so they are asked."""
    ingest(
        "Inference across Kimi, GLM, MiniMax and DeepSeek.",
        "SDK for Chinese AI models (DeepSeek, Qwen, MiniMax).",
        "Beginner-friendly search algorithms: BFS, DFS, A*, Minimax.",
        "Algorithm utilities including Minimax and Water Jug.",
    )
    report = resolve(NS)
    assert report.folded == 0 and frozenset(("MiniMax", "Minimax")) in queued()


def test_a_usual_spelling_beside_its_variant_in_one_passage_is_asked_not_folded(store):
    ingest(
        "JavaScript runs the page.",
        "The JavaScript bundle is small.",
        "JavaScript again.",
        "The Javascript is overly complicated, said the JavaScript reviewer.",
    )
    report = resolve(NS)
    assert report.folded == 0 and frozenset(("JavaScript", "Javascript")) in queued()


def test_a_prose_name_and_its_lowercase_spelling_fold_when_the_store_says_enough(store):
    """As a notes folder writes them: `Homebrew` the name in three passages, `homebrew` once as the
    command, the two beside the same rare neighbour and never in one passage: folded, saying why."""
    ingest(
        "We keep qpdf and the Quartz Ledger tools in Homebrew.",
        "The formula for sqlite lives in Homebrew.",
        "Upgrade everything with Homebrew.",
        "I installed the Quartz Ledger tools with `homebrew`.",
    )
    report = resolve(NS)
    assert report.folded == 1 and "homebrew" not in names()
    (summary,) = fold_summaries()
    assert summary == (
        "folded 'homebrew' into 'Homebrew' ('Homebrew' is how this store writes the name (3 passages),"
        " 'homebrew' (1) its lowercase spelling; they share 1 rare neighbour: Quartz Ledger;"
        " no passage sets the two side by side)"
    )


def test_a_name_and_its_command_in_one_passage_fold_and_in_running_text_are_asked(store):
    """`Datasette` and `datasette serve` in one passage are the tool and its command (issue 44's own
    example); `Prisma` and "a prisma schema" in running text are two spellings side by side."""
    ingest(
        "We publish it with Datasette and the Quartz Ledger plugin.",
        "Plugins for Datasette live on PyPI.",
        "The docs for Datasette are good.",
        "The Quartz Ledger plugin runs in `datasette`.",
        "Run `datasette` to browse it in Datasette.",
        "We model it with Prisma and the Helix Router.",
        "Migrations come from Prisma.",
        "The client is generated by Prisma.",
        "The Helix Router reads `prisma`.",
        "Point `prisma` at a prisma schema, as Prisma expects.",
    )
    report = resolve(NS)
    assert report.folded == 1 and "datasette" not in names() and "prisma" in names()
    (summary,) = fold_summaries()
    assert summary.endswith("the passages that name both write 'datasette' only as code)")
    assert frozenset(("Prisma", "prisma")) in queued()


@pytest.mark.parametrize("as_code", [True, False])
def test_a_code_identifier_beside_a_lowercase_word_is_asked_not_folded(store, as_code):
    """As the fastapi docs write them: `Param` the class, in backticks in most of its passages, and "a
    required body param" in running text beside the same rare neighbour: a class and a parameter,
    asked (a question, not dropped). The same passages with Param in prose fold, as Homebrew does."""
    param = "`Param`" if as_code else "Param"
    ingest(
        f"`Query`, `Path` and the Quartz Ledger are subclasses of a common {param} class.",
        f"`Header` also inherits from the same common {param} class.",
        f"`Cookie` also inherits from the same common {param} class.",
        "Fix handling an empty-body request with a required body param in the Quartz Ledger.",
    )
    report = resolve(NS)
    if as_code:
        assert report.folded == 0 and frozenset(("Param", "param")) in queued()
    else:
        assert report.folded == 1 and "param" not in names()


def test_a_lowercase_spelling_mostly_an_attribute_is_asked_not_folded(store):
    """As the fastapi docs write them: Markdown the format in prose, `markdown` mostly the attribute of
    an HTML tag (`<details markdown="1">`), beside the same rare neighbour: asked, not folded."""
    ingest(
        "You can write Markdown in the description of the Quartz Ledger.",
        "Fix broken Markdown in the Korean docs.",
        "The description can use Markdown.",
        "Tags can have Markdown too.",
        '<details markdown="1">\n<summary>About the Quartz Ledger</summary>\n\nThe command.\n</details>',
        '<div class="only-github" markdown="1">\n\nA quote.\n</div>',
        "The description can include markdown and will be shown in the docs.",
    )
    report = resolve(NS)
    assert report.folded == 0 and frozenset(("Markdown", "markdown")) in queued()


def test_a_lowercase_spelling_is_asked_when_the_store_writes_it_more_or_shares_nothing(store):
    """`mbox` the kernel's mailbox (three passages) and `Mbox` a sound card (one) on the changelogs: the
    lowercase spelling is the more written, so it is asked; so is a pair that shares no rare neighbour."""
    ingest(
        "The Mbox sound cards probe beside the Quartz Ledger.",
        "We build the site with Vite.",
        "The site is served by Vite.",
        "Watch it with Vite.",
        "Fix the `mbox` driver beside the Quartz Ledger.",
        "The `mbox` driver drops a stale lock.",
        "The `mbox` driver fixes a leak.",
        "Run `vite` to watch.",
    )
    report = resolve(NS)
    assert report.folded == 0
    assert {frozenset(("mbox", "Mbox")), frozenset(("Vite", "vite"))} <= queued()


def test_a_fold_on_shared_rare_neighbours_says_so(messy):
    resolve(NS)
    assert fold_summaries() == [
        "folded 'Claude-Code' into 'Claude Code' (they share 2 rare neighbours: Ledger Service, Nimbus Console;"
        " no passage sets the two side by side)"
    ]


def test_a_source_written_as_a_name_is_a_person_and_a_short_name_is_asked_with_who_says_it(store):
    records = [
        PassageRecord("c1", "Morning Deb, did the restore finish?", "Priya"),
        PassageRecord("c2", "It did. Priya, the report is yours now.", "Deborah"),
        PassageRecord("c3", "Thanks Deb, and say hi to Deborah's team.", "Priya"),
    ]
    ingest_records(NS, records)
    resolve(NS)
    (q,) = [q for q in pending(NS) if q.rule == "short-name"]
    assert {q.left_name, q.right_name} == {"Deb", "Deborah"}
    assert "'Deb' is said by others than Deborah: Priya (2)" in q.reason


def test_a_typo_of_what_a_speaker_is_called_is_asked_about_that_short_name(store):
    """`Mell` in one line, `Mel` in many: the short form of the speaker Melanie is a person's name,
    and one letter more is its typo (LoCoMo: "Thanks, Mell!"); `Deli`, beside no one, is not."""
    records = [
        PassageRecord("c1", "Hey Mel, how was the trip?", "Caroline"),
        PassageRecord("c2", "Great, thanks Caroline! The kids loved the Deli by the lake.", "Melanie"),
        PassageRecord("c3", "Thanks, Mell! Glad they did. See you, Mel.", "Caroline"),
        PassageRecord("c4", "The Del was closed, so we ate at the Deli. Bye, Melanie!", "Caroline"),
    ]
    ingest_records(NS, records)
    resolve(NS)
    asked = {frozenset((q.left_name, q.right_name)): q for q in pending(NS)}
    assert frozenset(("Mel", "Melanie")) in asked
    typo = asked[frozenset(("Mel", "Mell"))]
    assert typo.rule == "edit-distance" and "'Mell' may be 'Mel' mistyped" in typo.reason
    assert frozenset(("Del", "Deli")) not in asked


def test_a_second_pass_changes_nothing(messy):
    resolve(NS)
    before, questions = graph_rows(), [q.id for q in pending(NS)]
    report = resolve(NS)
    assert (report.folded, report.queued) == (0, 0)
    assert report.already_queued == len(questions)
    assert graph_rows() == before and [q.id for q in pending(NS)] == questions


def test_a_dry_run_changes_nothing_and_reports_the_same_numbers(messy):
    before = graph_rows()
    dry = resolve(NS, dry_run=True)
    assert graph_rows() == before and Question.select().count() == 0
    real = resolve(NS)
    assert (dry.folded, dry.queued, dry.deferred, dry.unlikely) == (
        real.folded,
        real.queued,
        real.deferred,
        real.unlikely,
    )


def test_the_cap_defers_and_a_later_pass_admits_as_answers_come_in(messy):
    first = resolve(NS, cap=1)
    assert first.queued == 1 and first.deferred >= 2
    (question,) = pending(NS)
    decisions.answer(NS, question.id, "reject", "alice", "cli")
    second = resolve(NS, cap=1)
    assert second.queued == 1 and second.deferred == first.deferred - 1
    assert second.skipped_settled == 1  # the rejected pair is never asked again


def test_admission_is_by_expected_yield(store):
    ingest("We run Gitlab for the pipelines.", "The mirror sits on GitLab now.")  # likely, impact 1
    ingest("We tried Ledger Core.", "The ledger-core crashed.")  # case-lowercase: less likely, impact 1
    ingest(
        "We serve it with FastAPI.", "We read the FastApi notes.", "We kept FastApi.", "We like FastAPI."
    )  # impact 2
    resolve(NS, cap=10)
    order = [({q.left_name, q.right_name}, q.impact, q.likelihood) for q in pending(NS)]
    assert order[0][:2] == ({"FastAPI", "FastApi"}, 2)
    assert order[1][0] == {"Gitlab", "GitLab"}
    assert order[1][2] > order[2][2]


def test_answers_move_the_likelihood_of_their_pattern_and_a_revert_takes_them_back(store):
    for i in range(12):
        ingest(f"We run Gitlab{i}x here.", f"We run GitLab{i}X there.")  # twelve same-merge-key questions
    resolve(NS, cap=100)
    questions = pending(NS)
    start = questions[-1].likelihood
    answers = [decisions.answer(NS, q.id, "reject", "alice", "cli") for q in questions[:9]]
    resolve(NS, cap=100)
    (left, *_) = [q for q in pending(NS)]
    assert left.likelihood < start - 0.2  # rejected 9 times: the pattern sinks
    assert left.reason.endswith("; reviewers here merged 0 of 9 questions like this")
    for decision in answers:
        decisions.revert(NS, decision.id, "alice", "cli")
    resolve(NS, cap=100)
    assert {q.likelihood for q in pending(NS)} == {start}
    assert not any("reviewers here" in q.reason for q in pending(NS))


def test_keep_both_and_reject_survive_new_passes(messy):
    resolve(NS)
    for q in pending(NS):
        decisions.answer(NS, q.id, "keep_both", "alice", "cli")
    report = resolve(NS)
    assert report.queued == 0 and report.skipped_settled >= 3


def test_a_question_whose_sides_were_folded_together_becomes_moot(messy):
    resolve(NS)
    q = next(q for q in pending(NS) if {q.left_name, q.right_name} == {"Webhook Relay", "Webhook Relays"})
    decisions.manual_fold(NS, "Webhook Relays", "Webhook Relay", "alice", "cli")
    assert Question.get_by_id(q.id).status == "moot"  # settled with the fold, not at the next pass
    Question.update(status="pending").where(Question.id == q.id).execute()  # as if made moot some other way
    report = resolve(NS)
    assert report.moot == 1 and Question.get_by_id(q.id).status == "moot"


def test_fold_groups_respect_declared_types(store):
    ingest(
        "Mercury, mercury and MERCURY.",
        entities=[{"name": "Mercury", "type": "org"}, {"name": "mercury", "type": "tool"}],
    )
    report = resolve(NS)
    assert report.folded == 0 or "mercury" in names()  # org and tool never fold together silently
    assert {"Mercury", "mercury"} <= set(names())


def test_cli_resolve_and_queue_json(run_cli, tmp_path):
    src = tmp_path / "in.jsonl"
    rows = [{"id": "a", "text": "Billing uses Gitlab."}, {"id": "b", "text": "Search uses GitLab."}]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    run_cli("ingest", str(src))
    code, out, _ = run_cli("resolve", "--json")
    assert code == 0 and json.loads(out)["queued"] == 1
    code, out, _ = run_cli("queue", "--json")
    (item,) = json.loads(out)
    assert set(item) >= {"id", "kind", "left_name", "right_name", "score", "rule", "reason", "impact", "likelihood"}
    assert item["kind"] == "entity_pair" and {item["left_name"], item["right_name"]} == {"Gitlab", "GitLab"}


CONTEXT = ["Quartz Ledger and Helix Router depend on it.", "It feeds the Quartz Ledger; the Helix Router reads it."]
OPENINGS = ["On Monday we moved", "The config of", "Ops restarted", "Nobody has touched"]


def shared(*names: str) -> list[str]:
    """Passages naming each spelling with the same rare company (two names found in these passages
    only, among 600 unrelated notes), so that spellings that agree fold."""
    ingest(*(f"Filler note {i} mentions Filler{i}Thing." for i in range(600)))
    return [f"{OPENINGS[i % 4]} {name}. {CONTEXT[i % 2]}" for i, name in enumerate(names)]


def test_a_group_split_by_an_all_capitals_spelling_is_folded_in_one_pass(store):
    # ACME GATEWAY only asks (an all-capitals spelling may be an acronym of its own); the other
    # spellings fold into the best-ranked of them in one pass, and a second pass has nothing left
    ingest(*shared("ACME GATEWAY", "`Acme_Gateway`", "Acme-Gateway", "Acme Gateway", "ACME-GATEWAY"))
    first = resolve(NS)
    assert first.folded == 2  # Acme Gateway into Acme-Gateway, ACME-GATEWAY into ACME GATEWAY
    left = {n for n in names() if "Filler" not in n and n not in ("Quartz Ledger", "Helix Router")}
    assert len(left) == 3 and "Acme_Gateway" in left  # an underscore is code: asked
    second = resolve(NS)
    assert second.folded == 0 and second.queued == 0


def test_a_keep_apart_is_honoured_inside_a_fold_group(store):
    ingest(*shared("Claude Code", "Claude-Code", "CLAUDE CODE", "Claude-code"))
    q = question_between(Entity.get(Entity.name == "Claude-Code"), Entity.get(Entity.name == "Claude-code"))
    decisions.answer(NS, q, "reject", "alice", "cli")
    first = resolve(NS)
    # Claude-Code folds into Claude Code; Claude-code would too, but a reviewer kept it apart from
    # Claude-Code, which is now part of Claude Code
    assert first.folded == 1
    assert {"Claude Code", "Claude-code"} <= set(names()) and "Claude-Code" not in names()
    second = resolve(NS)
    assert (second.folded, second.queued) == (0, 0) and second.skipped_settled == 1


def test_a_reverted_automatic_fold_is_asked_never_folded_again(store):
    ingest(*shared("Acme Gateway", "Acme-Gateway"))
    assert resolve(NS).folded == 1
    fold = Decision.get(Decision.action == "fold")
    decisions.revert(NS, fold.id, "alice", "cli")
    again = resolve(NS)
    assert again.folded == 0
    (q,) = [q for q in pending(NS) if {q.left_name, q.right_name} == {"Acme Gateway", "Acme-Gateway"}]
    assert q.reason.startswith("the names differ only in case, spaces or hyphens; a fold of these was reverted; ")


def test_a_pending_question_is_never_folded_behind_the_reviewers_back(store):
    ingest("We run Gitlab for the pipelines.", "The mirror sits on GitLab now.")
    resolve(NS)
    (q,) = pending(NS)
    ingest(*shared("Gitlab", "GitLab"))  # now the store is sure: still, the reviewer was asked
    report = resolve(NS)
    assert report.folded == 0 and Question.get_by_id(q.id).status == "pending"


def test_a_question_sunk_below_the_floor_gives_its_place_in_the_cap_to_a_likelier_one(store, monkeypatch):
    table = {
        "priors": {"default": 0.5, "same-merge-key": 0.26, "plural": 0.9},
        "weights": {"neighbours": 0.0, "contrasted": 0.0, "shared_source": 0.0, "no_neighbours": 0.0},
        "conflict_priors": {"declared": 0.9},
    }
    monkeypatch.setattr(evidence, "calibration", lambda: table)
    for i in range(4):  # four same-merge-key questions, each spelling in three passages (impact 3)
        ingest(
            *[f"Note {k}: we run Gitlab{i}x here." for k in range(3)], *[f"Note {k}: GitLab{i}X too." for k in range(3)]
        )
    resolve(NS, cap=3)
    assert len(pending(NS)) == 3
    first, second, *_ = pending(NS)
    for q in (first, second):  # two rejections: the pattern falls to 5.2 / 22 = 0.236, below the floor
        decisions.answer(NS, q.id, "reject", "alice", "cli")
    ingest("We use Webhook Relay.", "Both Webhook Relays failed.")  # a likely plural
    report = resolve(NS, cap=1)  # one place, held by the sunk question left pending
    sunk = [q for q in pending(NS) if q.rule == "same-merge-key"]
    assert sunk and all(q.likelihood < evidence.MIN_LIKELIHOOD for q in sunk)
    assert any({q.left_name, q.right_name} == {"Webhook Relay", "Webhook Relays"} for q in pending(NS))
    assert report.queued == 1


def test_the_live_mentions_are_those_of_the_namespaces_live_passages_however_they_are_read(store):
    # "big" holds most of the store's passages (its mentions are read from the mention table through),
    # "small" a few (joined to its passages): each gets its own live passages' active mentions only
    for namespace, count in (("big", 12), ("small", 3)):
        records = [PassageRecord(f"{namespace}{k}", f"Ada Lovelace met Grace Hopper {k}.", "s") for k in range(count)]
        ingest_records(namespace, records)
    every = {m.id: (m.passage_id, m.entity_id, Passage.get_by_id(m.passage_id).namespace) for m in Mention.select()}
    for namespace in ("big", "small"):
        ids = sorted({pid for pid, _, ns in every.values() if ns == namespace})
        retire(ids[0])  # a retired passage's mentions are not live
        gone = max(mid for mid, (pid, _, _) in every.items() if pid == ids[-1])
        Mention.update(active=False).where(Mention.id == gone).execute()  # nor is an inactive mention
        live, _ = live_sources(namespace)
        expected = {
            (pid, eid) for mid, (pid, eid, ns) in every.items() if ns == namespace and pid != ids[0] and mid != gone
        }
        rows = live_mentions(namespace, live)
        assert live == set(ids[1:]) and sorted(rows) == sorted(expected) and len(expected) > len(live)


def test_a_sides_spellings_are_those_its_live_passages_write_it_in_whichever_are_retired(store):
    # a spelling written in three passages whose first and last are retired is live through the one
    # between; a spelling written only in retired passages is not
    texts = [f"Ada Lovelace met Grace Hopper on day {k}." for k in range(3)]
    ingest_records(NS, [PassageRecord(f"d{k}", text, "s") for k, text in enumerate(texts)])
    ada = Entity.get(Entity.name == "Ada Lovelace").id
    grace = Entity.get(Entity.name == "Grace Hopper").id
    first, middle, last = sorted(m.passage_id for m in Mention.select().where(Mention.entity == ada))
    for pid in (first, last):
        row = Mention.get((Mention.entity == ada) & (Mention.passage == pid))
        Mention.create(passage=pid, entity=ada, surface="Countess Lovelace", surface_key="countess lovelace",
                       source=row.source, weight=row.weight)  # fmt: skip
        retire(pid)
    live, sources = live_sources(NS)
    passages, named = mention_sets(live_mentions(NS, live))
    facts = store_facts({ada, grace}, passages, named, sources, {e: len(p) for e, p in passages.items()})
    joint_texts(facts, [(ada, grace)])
    assert facts.surfaces == {ada: {"Ada Lovelace"}, grace: {"Grace Hopper"}}
    assert set(facts.text_of) == {middle}

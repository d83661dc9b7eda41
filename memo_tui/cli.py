"""The command line: every action the TUI has, as a subcommand with --json."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from memo_tui.errors import MemoError
from memo_tui.runtime.processes import no_last_sweep
from memo_tui.service.stores import (
    DEFAULT_NAMESPACE,
    Busy,
    failure,
    open_store,
    resolve_location,
    store_errors,
    unstorable,
)

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {}


def command(name: str):
    def register(func: Callable[[argparse.Namespace], int]):
        COMMANDS[name] = func
        return func

    return register


def _common(top: bool) -> argparse.ArgumentParser:
    """The options every command takes. Subcommands use SUPPRESS defaults so that an option given
    before the subcommand (`memo-tui --db X ingest ...`) is not reset by the subcommand's default."""
    common = argparse.ArgumentParser(add_help=False)
    default = (lambda value: value) if top else (lambda value: argparse.SUPPRESS)
    common.add_argument(
        "--db", default=default(None), help="store path or URL (default: MEMO_TUI_DB, then the user data directory)"
    )
    common.add_argument("--ns", default=default(DEFAULT_NAMESPACE), help=f"namespace (default: {DEFAULT_NAMESPACE})")
    common.add_argument("--json", action="store_true", default=default(False), help="print JSON for machines")
    return common


class _Parser(argparse.ArgumentParser):
    """Argument errors in one line, as every other error (subcommands' parsers are of this class too)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _whole(value: str) -> int:
    """A whole number a store can hold (64 bits, signed)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if not -(2**63) <= number < 2**63:
        raise argparse.ArgumentTypeError(f"out of range: {value}")
    return number


def build_parser() -> argparse.ArgumentParser:
    common = _common(top=False)
    parser = _Parser(
        prog="memo-tui",
        parents=[_common(top=True)],
        description="Keep the entity graph of an agent-memory store clean.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    _store_commands(sub, common)
    _graph_commands(sub, common)
    _read_commands(sub, common)
    return parser


def _store_commands(sub, common: argparse.ArgumentParser) -> None:
    """Filling a store, serving it, copying it, the demo."""
    ingest = sub.add_parser("ingest", parents=[common], help="ingest JSONL, markdown and text files ('-' = stdin)")
    ingest.add_argument("paths", nargs="+", metavar="PATH")
    ingest.add_argument("--strict", action="store_true", help="a file with any bad line is not ingested at all")
    ingest.add_argument(
        "--source", metavar="NAME", help="who wrote the markdown and text files whose front matter names no author"
    )

    forget = sub.add_parser("forget", parents=[common], help="retire a passage by its id")
    forget.add_argument("passage_id", metavar="ID")

    sub.add_parser("stats", parents=[common], help="counts of passages, entities, mentions, aliases, folds")

    mcp = sub.add_parser("mcp", parents=[common], help="serve the graph to agents over MCP (stdio; the [mcp] extra)")
    mcp.add_argument("--allow-answers", action="store_true", help="let agents answer questions and revert decisions")
    mcp.add_argument("--as", dest="agent", metavar="NAME", help="the agent's name in the log (default: the client's)")

    serve = sub.add_parser("serve", parents=[common], help="serve the review app to browsers (the [serve] extra)")
    serve.add_argument("--host", default="127.0.0.1", help="beyond 127.0.0.1 a token is needed (default: %(default)s)")
    serve.add_argument("--port", type=int, default=8000, help="0: any free port (default: %(default)s)")
    serve.add_argument("--token", help="the secret in the URL (default: MEMO_TUI_TOKEN)")
    serve.add_argument("--as", dest="actor", metavar="NAME", help="who decides (default: MEMO_TUI_USER, then login)")

    copy = sub.add_parser("copy", parents=[common], help="copy a namespace (or --all) to another store, ids intact")
    copy.add_argument(
        "--to", required=True, metavar="URL", help="the target store: a path, sqlite:/// or postgresql://"
    )
    copy.add_argument("--all", action="store_true", help="every namespace of the store, not only --ns")

    demo = sub.add_parser("demo", parents=[common], help="build the demo store (a team's notes) and open it")
    demo.add_argument("--no-open", action="store_true", help="build it and print what the pass did; no TUI")
    demo.add_argument("--fresh", action="store_true", help="rebuild the demo even if it holds your decisions")


def _graph_commands(sub, common: argparse.ArgumentParser) -> None:
    """`graph ACTION`: folds, answers, history, hand edits."""
    reviewer = argparse.ArgumentParser(add_help=False)
    reviewer.add_argument("--as", dest="actor", metavar="NAME", help="who decides (default: MEMO_TUI_USER, then login)")
    reviewer.add_argument("--agent", action="store_true", help="record the channel as 'agent' instead of 'cli'")
    graph = sub.add_parser("graph", parents=[common], help="folds, answers, history, delete, rename")
    actions = graph.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("merges", parents=[common], help="pending questions (same as `queue`)")
    merge = actions.add_parser("merge", parents=[common, reviewer], help="answer: the two are one thing")
    merge.add_argument("question", type=_whole, nargs="+", metavar="N", help="one question, or several: one decision")
    merge.add_argument("--swap", action="store_true", help="fold the other way round")
    merge.add_argument("--pair", action="store_true", help="N leads a cluster: answer N's own pair only")
    merge.add_argument("--keep", choices=("left", "right"), help="for passage conflicts: which passage stays")
    merge.add_argument("--canonical", metavar="NAME", help="for a cluster: the member the others fold into")
    merge.add_argument(
        "--except", dest="leave_out", action="append", metavar="NAME", help="for a cluster: a member not to fold"
    )
    merge.add_argument("--mark-rest", action="store_true", help="for a cluster: mark the members left out different")
    for name, text in (
        ("reject", "answer: different things, never ask again"),
        ("keep-both", "answer: keep both, do not ask again"),
    ):
        answer = actions.add_parser(name, parents=[common, reviewer], help=text)
        answer.add_argument(
            "question", type=_whole, nargs="+", metavar="N", help="one question, or several: one decision"
        )
        answer.add_argument(
            "--like", action="store_true", help="every pending question of N's pattern (shows how many)"
        )
        answer.add_argument("--yes", action="store_true", help="with --like: do it, not just count")
        answer.add_argument("--pair", action="store_true", help="N leads a cluster: answer N's own pair only")
    revert = actions.add_parser("revert", parents=[common, reviewer], help="undo a decision by its id")
    revert.add_argument("decision", type=_whole, metavar="ID")
    revert.add_argument("--fold", action="store_true", help="ID is a fold id, not a decision id")
    actions.add_parser("undo", parents=[common, reviewer], help="undo your last action (an undo too)")
    actions.add_parser("redo", parents=[common, reviewer], help="make again what your last undo undid")
    history = actions.add_parser("history", parents=[common], help="folds and decisions, newest first")
    history.add_argument("--who", choices=("auto", "human"), help="only automatic or only human decisions")
    history.add_argument("--limit", type=_whole, default=50)
    fold = actions.add_parser("fold", parents=[common, reviewer], help="fold any entity into another (Bob into Robert)")
    fold.add_argument("absorbed", metavar="NAME")
    fold.add_argument("--into", required=True, metavar="NAME")
    delete = actions.add_parser("delete", parents=[common, reviewer], help="delete an entity (revertible)")
    delete.add_argument("name", metavar="NAME")
    junk = actions.add_parser(
        "not-a-name", parents=[common, reviewer], help="drop a junk name; extraction skips it from then on"
    )
    junk.add_argument("name", metavar="NAME")
    unsure = actions.add_parser("unsure", parents=[common, reviewer], help="leave a question for later, with a note")
    unsure.add_argument("question_id", type=int, metavar="N")
    unsure.add_argument("--note", default="", help="what you are unsure of (shown with the question)")
    rename = actions.add_parser("rename", parents=[common, reviewer], help="give an entity a new spelling")
    rename.add_argument("name", metavar="NAME")
    rename.add_argument("new_name", metavar="NEW")
    actions.add_parser("rebuild", parents=[common], help="re-extract every live passage; folds and answers stay")
    links = actions.add_parser("links", parents=[common], help="passage-to-passage links ('also see')")
    links.add_argument("--rebuild", action="store_true", help="recompute every link of the namespace")


def _read_commands(sub, common: argparse.ArgumentParser) -> None:
    """Reading the graph, checking it, and the resolution pass and its figures."""
    as_of = argparse.ArgumentParser(add_help=False)
    as_of.add_argument("--as-of", metavar="ISO", help="the graph as it was then (only passages live at that time)")
    related = sub.add_parser("related", parents=[common, as_of], help="stated relations and co-mentions of a name")
    related.add_argument("name", metavar="NAME")
    related.add_argument("--limit", type=_whole, default=20, help="most entries per group (default: %(default)s)")
    related.add_argument("--type", dest="kind", metavar="T", help="only neighbours of this type")
    explore = sub.add_parser("explore", parents=[common, as_of], help="a name's passages and neighbours, hop by hop")
    explore.add_argument("name", metavar="NAME")
    explore.add_argument("--hops", type=_whole, default=1, help="1, 2 or 3 (default: %(default)s)")

    sub.add_parser("lint", parents=[common], help="consistency checks; exit 1 when a problem is found")
    sub.add_parser("metrics", parents=[common], help="graph cache counters in Prometheus text format")

    queue = sub.add_parser("queue", parents=[common], help="pending questions, ranked")
    queue.add_argument("--agent", action="store_true", help="agents' proposals only")

    judge = sub.add_parser("judge", parents=[common], help="explain the verdict for two names")
    judge.add_argument("a", metavar="A")
    judge.add_argument("b", metavar="B")
    judge.add_argument("--type-a", metavar="T")
    judge.add_argument("--type-b", metavar="T")

    resolve = sub.add_parser(
        "resolve", parents=[common], help="run a resolution pass: fold the certain, queue the rest"
    )
    resolve.add_argument("--dry-run", action="store_true", help="report what would happen; change nothing")
    resolve.add_argument("--cap", type=_whole, default=50, help="most pending entity questions (default: %(default)s)")
    resolve.add_argument(
        "--full",
        action="store_true",
        help="judge every name and compare every passage, whatever the last pass kept (by default only "
        "what changed since is)",
    )

    evaluate = sub.add_parser("eval", parents=[common], help="score the rules on labelled pairs (JSONL)")
    evaluate.add_argument("pairs", metavar="PAIRS.jsonl", nargs="?")
    evaluate.add_argument(
        "--store", action="store_true", help="score this store's automatic folds and queue against the labels"
    )
    evaluate.add_argument(
        "--kinds",
        nargs="?",
        const="tests/data/real",
        metavar="DIR",
        help="build each kind of real text in DIR (default: %(const)s) in a scratch store, run the pass with "
        "the calibration fitted without it and with the packaged one, and score both against its labels",
    )


@contextmanager
def _progress(enabled: bool, label: str = "ingesting") -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr for long work, when a person is watching."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


# C0 and C1 controls but tab and newline, and the bidirectional overrides: stored text (an agent
# can write any) must not retitle, clear or reorder the reviewer's terminal
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def for_terminal(text: str) -> str:
    """Text fit to print to a terminal: its control characters dropped."""
    return _CONTROL.sub("", text)


def _print(args: argparse.Namespace, data: dict | list, text: str) -> None:
    """`--json` exactly as stored (JSON escapes every control character); text for a terminal."""
    print(json.dumps(data, indent=2, default=str) if args.json else for_terminal(text))


@command("ingest")
def cmd_ingest(args: argparse.Namespace) -> int:
    from memo_tui.service import work

    if "" in args.paths:  # an unset shell variable: not the current directory
        raise MemoError("ingest: an empty path; nothing ingested (give '.' for the current directory)")
    with _progress(not args.json) as progress:
        report = work.ingest_paths(args.ns, args.paths, args.strict, sys.stdin.buffer, progress, args.source)
    for error in report.errors:
        print(for_terminal(error), file=sys.stderr)
    _print(
        args,
        report.as_dict(),
        f"passages: {report.passages_new} new, {report.passages_unchanged} unchanged, "
        f"{report.passages_revised} revised; mentions: {report.mentions}; relations: {report.relations}; "
        f"entities: {report.entities_new} new; skipped: {report.skipped}",
    )
    return 1 if report.skipped else 0


def _open_tui(args: argparse.Namespace, location: str) -> int:
    from pathlib import Path

    from memo_tui.service.stores import shown
    from memo_tui.tui.app import MemoApp

    label = Path(location).name if "://" not in location else shown(location)
    MemoApp(label, namespace=args.ns, location=shown(location)).run()
    return 0


@command("demo")
def cmd_demo(args: argparse.Namespace) -> int:
    from memo_tui.service import stores

    location = stores.demo_location(args.db or os.environ.get("MEMO_TUI_DB"))
    mine = stores.demo_decisions(location)
    label = stores.shown(location)
    rebuild = args.fresh or not mine
    if mine and not args.fresh and sys.stdin.isatty() and not args.json:
        answer = input(f"The demo store {label} holds {mine} decisions of yours; rebuild it and lose them? [y/N] ")
        rebuild = answer.strip().casefold() in ("y", "yes")
    if rebuild:
        report = stores.build_demo(location, args.ns)
        text = (
            f"demo store {label}: {report.folded} folded, {report.queued} name pairs and "
            f"{report.duplicates_queued + report.contradictions_queued} memory conflicts queued"
        )
        data = {"store": label, "rebuilt": True, **report.as_dict()}
    else:
        text = f"demo store {label} kept as it is, with {mine} decisions of yours (--fresh rebuilds it)"
        data = {"store": label, "rebuilt": False, "decisions_kept": mine}
    if args.no_open:
        _print(args, data, text)
        return 0
    return _open_tui(args, location)


@command("forget")
def cmd_forget(args: argparse.Namespace) -> int:
    from memo_tui.service import work

    row_id = work.forget(args.ns, args.passage_id)
    _print(args, {"retired": args.passage_id, "row": row_id}, f"retired passage {args.passage_id}")
    return 0


@command("mcp")
def cmd_mcp(args: argparse.Namespace) -> int:
    try:
        from memo_tui.mcp.server import build_server
        from memo_tui.mcp.stdio import serve_stdio
    except ImportError:
        raise MemoError("the MCP server needs the SDK: pip install 'memo-tui[mcp]'") from None
    serve_stdio(build_server(args.ns, allow_answers=args.allow_answers, agent=args.agent))
    return 0


@command("serve")
def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from memo_tui.tui.serve import serve
    except ImportError:
        raise MemoError("serving in a browser needs textual-serve: pip install 'memo-tui[serve]'") from None

    token = args.token or os.environ.get("MEMO_TUI_TOKEN")
    serve(resolve_location(args.db), args.ns, args.host, args.port, token, args.actor)
    return 0


@command("copy")
def cmd_copy(args: argparse.Namespace) -> int:
    from memo_tui.service.stores import copy_to

    report = copy_to(args.ns, args.to, every=args.all)
    namespaces = report.namespaces
    rows = ", ".join(f"{n} {table}" for table, n in report.rows.items() if n)
    _print(args, {"namespaces": report.namespaces, "rows": report.rows}, f"copied {', '.join(namespaces)}: {rows}")
    return 0


@command("stats")
def cmd_stats(args: argparse.Namespace) -> int:
    from memo_tui.service import reads

    stats = reads.stats(args.ns)
    _print(args, stats, "\n".join(f"{name}: {value}" for name, value in stats.items()))
    return 0


def _reviewer(args: argparse.Namespace) -> tuple[str, str]:
    from memo_tui.service.review import current_actor

    return current_actor(args.actor), "agent" if args.agent else "cli"


def _print_decision(args: argparse.Namespace, decision) -> int:
    _print(args, decision.as_dict(), f"#{decision.id} {decision.summary} (by {decision.actor})")
    return 0


def _merge_one(args: argparse.Namespace, actor: str, channel: str):
    """`graph merge N`: a question, or the cluster N leads (all its members unless told otherwise)."""
    from memo_tui.service import review

    number = args.question[0]
    canonical, left_out = None, None
    if not args.pair and (args.canonical or args.leave_out or args.mark_rest):
        canonical, left_out = review.members_named(args.ns, number, args.canonical, args.leave_out or [])
    return review.answer(
        args.ns, number, "merge", actor, channel, pair=args.pair, swap=args.swap, keep=args.keep,
        canonical=canonical, leave_out=left_out, mark_rest=args.mark_rest,
    )  # fmt: skip


def _answer(args: argparse.Namespace, ids: list[int], actor: str, channel: str):
    """`graph reject|keep-both N...`: one item (a cluster's lead: all its questions), or several
    questions as one decision."""
    from memo_tui.service import review

    action = args.action.replace("-", "_")
    if len(ids) > 1:
        return review.answer_batch(args.ns, ids, action, actor, channel, pairs=args.like or args.pair)
    return review.answer(args.ns, ids[0], action, actor, channel, pair=args.pair)


def _history(args: argparse.Namespace) -> int:
    from memo_tui.service import review

    views = review.history(args.ns, who=args.who, limit=args.limit)
    lines = [
        f"#{v.id:<5} {v.at:%Y-%m-%d %H:%M} {v.channel:<5} {v.actor:<12} {v.action:<9} {v.summary}"
        + (f"  [reverted {v.undone_at:%Y-%m-%d %H:%M}]" if v.undone_at else "")
        for v in views
    ]
    _print(args, [v.as_dict() for v in views], "\n".join(lines) or "no decisions yet")
    return 0


def _edit(args: argparse.Namespace, actor: str, channel: str):
    """The graph's hand edits and the log's: revert, undo, redo, fold, delete, not-a-name, unsure, rename."""
    from memo_tui.service import review

    ns = args.ns
    edits = {
        "revert": lambda: review.revert(ns, args.decision, actor, channel, fold=args.fold),
        "undo": lambda: review.undo(ns, actor, channel),
        "redo": lambda: review.redo(ns, actor, channel),
        "fold": lambda: review.manual_fold(ns, args.absorbed, args.into, actor, channel),
        "delete": lambda: review.delete(ns, args.name, actor, channel),
        "not-a-name": lambda: review.not_a_name(ns, args.name, actor, channel),
        "unsure": lambda: review.unsure(ns, args.question_id, args.note, actor, channel),
        "rename": lambda: review.rename(ns, args.name, args.new_name, actor, channel),
    }
    return edits[args.action]()


@command("graph")
def cmd_graph(args: argparse.Namespace) -> int:
    from memo_tui.service import review

    if args.action == "merges":
        return cmd_queue(args)
    if args.action in ("rebuild", "links"):
        return (_rebuild if args.action == "rebuild" else _links)(args)
    if args.action == "history":
        return _history(args)
    actor, channel = _reviewer(args)
    if args.action == "merge" and len(args.question) == 1:
        view = _merge_one(args, actor, channel)
    elif args.action == "merge":
        if args.swap or args.keep or args.canonical or args.leave_out or args.mark_rest:
            raise MemoError("--swap, --keep, --canonical, --except and --mark-rest answer one item; give one N")
        view = review.answer_batch(args.ns, args.question, "merge", actor, channel, pairs=args.pair)
    elif args.action in ("reject", "keep-both"):
        ids = args.question
        if args.like:  # every pending question of N's pattern
            if len(ids) != 1:
                raise MemoError("--like takes one question: the one whose pattern to answer")
            ids = review.questions_like(args.ns, ids[0])
            if not args.yes:
                text = f"would {args.action} {len(ids)} pending questions like #{args.question[0]}; add --yes to do it"
                _print(args, {"questions": ids, "done": False}, text)
                return 0
        view = _answer(args, ids, actor, channel)
    else:
        view = _edit(args, actor, channel)
    return _print_decision(args, view)


def _rebuild(args: argparse.Namespace) -> int:
    from memo_tui.service import work

    with _progress(not args.json, "rebuilding") as progress:
        report = work.rebuild(args.ns, progress=progress)
    text = (
        f"rebuilt {report.passages_unchanged} live passages: {report.mentions} mentions, "
        f"{report.relations} relations, {report.entities_new} new entities; folds and answers kept"
    )
    _print(args, report.as_dict(), text)
    return 0


def _links(args: argparse.Namespace) -> int:
    from memo_tui.service import work

    if args.rebuild:
        with _progress(not args.json, "linking") as progress:
            total = work.relink(args.ns, progress=progress)
    else:
        total = work.count_links(args.ns)
    _print(args, {"links": total}, f"{total} passage links" + (" (rebuilt)" if args.rebuild else ""))
    return 0


@command("queue")
def cmd_queue(args: argparse.Namespace) -> int:
    from memo_tui.service import review
    from memo_tui.service.views import TIMELINE

    items = review.queue(args.ns, proposed=args.agent)  # proposals stay pairs: an agent proposed each one
    lines = [
        f"{q.id:>5}  {q.kind:<14} {q.left_name} {'<-' if q.members else '/'} {q.right_name}  {q.rule}  "
        f"likely {q.likelihood:.2f}  impact {q.impact}"
        + (f"  proposed by {q.proposed_by}" if q.proposed_by else "")
        + (f"  unsure: {q.unsure or '(no note)'}" if q.unsure is not None else "")
        + (f"\n       {q.reason}" if q.rule.startswith(TIMELINE) else "")  # each value with its date
        for q in items
    ]
    _print(args, [q.as_dict() for q in items], "\n".join(lines) or "nothing pending")
    return 0


@command("judge")
def cmd_judge(args: argparse.Namespace) -> int:
    from memo_tui.service import reads

    verdict, before = reads.judge(args.a, args.b, args.type_a, args.type_b)
    text = f"{verdict.kind} ({verdict.score:.2f}, {verdict.rule}): {verdict.reason}"
    data = dataclasses.asdict(verdict)
    if before is not None:  # what labelled real text says of the rule, before a store's evidence
        data["prior"] = before
        text += f"\nlikelihood before evidence: {data['prior']:.2f} (the share of such pairs that were the same)"
    _print(args, data, text)
    return 0


@command("resolve")
def cmd_resolve(args: argparse.Namespace) -> int:
    from memo_tui.service import work

    if args.cap < 0:
        raise MemoError("--cap must be 0 or more")
    with _progress(not args.json, "resolving") as progress:
        report = work.resolve(args.ns, cap=args.cap, dry_run=args.dry_run, progress=progress, full=args.full)
    text = (
        f"{'dry run: ' if report.dry_run else ''}{report.entities} entities"
        + (f" ({report.names_changed} new or renamed since the last pass)" if report.incremental else "")
        + f", {report.pairs_judged} pairs judged: "
        f"{report.folded} folded, {report.queued} queued, {report.deferred} deferred, "
        f"{report.not_certain} asked instead of folded (the store is not sure), "
        f"{report.unlikely} too unlikely to ask, "
        f"{report.rejected_by_rule} rejected by rule, {report.skipped_settled} skipped as settled, "
        f"{report.already_queued} already queued, {report.moot} moot; {report.seconds:.2f} s\n"
        + (
            "memory: unchanged since the last search, not searched again (--full searches anyway)"
            if report.memory_unchanged
            else f"memory: {report.duplicates_queued} duplicates and {report.contradictions_queued} contradictions "
            f"queued, {report.memory_skipped_settled} asked before, {report.memory_moot} moot"
        )
    )
    _print(args, report.as_dict(), text)
    return 0


@command("eval")
def cmd_eval(args: argparse.Namespace) -> int:
    from memo_tui.service import figures
    from memo_tui.service.figures import FIRST, SAMPLE

    if (args.kinds is None) == (args.pairs is None):
        raise MemoError("eval takes PAIRS.jsonl or --kinds [DIR]")
    if args.kinds is not None:
        return _eval_kinds(args)
    if args.store:
        found = figures.store(args.ns, args.pairs)

        def tally(name: str, t) -> str:
            p = "n/a" if t.precision is None else f"{t.precision:.3f}"
            return (f"{name}: precision {p} ({t.same} same, {t.different} different, {t.unsure} unsure, "
                    f"{t.unlabelled} not labelled)")  # fmt: skip

        lines = [
            tally("automatic folds", found.folds),
            tally(f"first {FIRST} questions", found.first),
            tally(f"random {SAMPLE} questions", found.sample),
            tally("all labelled questions", found.asks),
            tally(f"members of the {found.clusters} clusters, against their canonical", found.cluster_members),
            f"questions per 1000 entities: {found.questions_per_1000_entities} "
            f"({found.questions} for {found.entities})",
            f"conflicts per 1000 passages: {found.conflicts_per_1000_passages} "
            f"({found.conflicts} for {found.passages})",
            f"labelled same-pairs folded or asked: {'n/a' if found.surfaced_share is None else found.surfaced_share} "
            f"({found.same_surfaced} of {found.same_labelled} in this store)",
        ]
        _print(args, found.as_dict(), "\n".join(lines))
        return 0
    result = figures.rules(args.pairs)
    lines = [
        f"pairs: {result.pairs} ({result.same} same)",
        f"folded: {result.folded}  asked: {result.asked}  rejected: {result.rejected}",
        f"fold precision: {result.fold_precision:.3f}",
        f"same-pairs folded or asked: {result.surfaced_share:.3f}",
        f"asked but different: {result.asked_different}",
    ]
    lines += [f"wrong fold: {w['a']!r} / {w['b']!r} ({w['rule']})" for w in result.wrong_folds]
    _print(args, result.as_dict(), "\n".join(lines))
    return 0


def _eval_kinds(args: argparse.Namespace) -> int:
    from pathlib import Path

    from memo_tui.service import figures

    data = Path(args.kinds)
    if not data.is_dir():
        raise MemoError(f"--kinds: no folder {data}")
    found, absent = figures.kinds(data)
    lines = _kinds_table(found)
    lines += [
        "each cell: held out (in sample), n judged, u unsure, x not labelled (an unlabelled item is not counted right)",
        "held out: the pass run with the calibration fitted without that kind; in sample: with the packaged one",
    ]
    if absent:
        lines.append(f"absent here: {', '.join(absent)}")
    _print(args, {"data": str(data), "kinds": found, "absent": absent}, "\n".join(lines))
    return 0


def _kinds_table(found: dict[str, dict]) -> list[str]:
    """One row per kind of text: each figure held out, in sample beside it."""
    from memo_tui.service.figures import FIRST, SAMPLE

    def share(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.2f}"

    def tally(key: str) -> Callable[[dict, dict], str]:
        def cell(held: dict, inside: dict) -> str:
            t = held[key]
            made = f" n{t['same'] + t['different']}" + (f" u{t['unsure']}" if t["unsure"] else "")
            made += f" x{t['unlabelled']}" if t["unlabelled"] else ""
            return f"{share(t['precision'])} ({share(inside[key]['precision'])}){made}"

        return cell

    def recall(held: dict, inside: dict) -> str:
        return f"{share(held['surfaced_share'])} ({share(inside['surfaced_share'])}) n{held['same_pairs_labelled']}"

    def plain(key: str) -> Callable[[dict, dict], str]:
        return lambda held, inside: f"{held[key]} ({inside[key]})"

    columns = {
        "fold precision": tally("folds"),
        f"first {FIRST} same": tally(f"first_{FIRST}"),
        f"random {SAMPLE} same": tally(f"random_{SAMPLE}"),
        "recall (mined)": recall,
        "questions/1k entities": plain("questions_per_1000_entities"),
        "conflicts": plain("conflicts"),
    }
    rows = [["kind", *columns]]
    rows += [
        [name, *(cell(runs["held_out"], runs["in_sample"]) for cell in columns.values())]
        for name, runs in found.items()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]


def _as_of(args: argparse.Namespace):
    from memo_tui.service.reads import time_of

    if args.as_of is None:
        return None
    try:
        return time_of(args.as_of)
    except ValueError as exc:
        if "out of range" in str(exc):
            raise MemoError(f"--as-of {exc}") from None
        raise MemoError(f"--as-of is not an ISO 8601 time: {args.as_of!r}") from None


@command("related")
def cmd_related(args: argparse.Namespace) -> int:
    from memo_tui.service import reads

    if args.limit < 1:
        raise MemoError("--limit must be 1 or more")
    result = reads.related(args.ns, args.name, limit=args.limit, kind=args.kind, as_of=_as_of(args))
    _print(args, result.as_dict(), render_related(result))
    return 0


def render_related(result) -> str:
    target = result.target
    lines = [f"{target.name} (#{target.id}{', ' + target.type if target.type else ''}, {target.mentions} passages)"]
    if result.matched_alias:
        lines[0] += f" — asked as {result.matched_alias!r}, an absorbed spelling"
    if result.as_of:
        lines.append(f"as of {result.as_of:%Y-%m-%d %H:%M}")
    lines.append(f"stated ({len(result.stated)} of {result.stated_total}):")
    for s in result.stated:
        arrow = f"-[{s.predicate}]->" if s.direction == "out" else f"<-[{s.predicate}]-"
        lines.append(f"  {arrow} {s.entity.name}  confidence {s.confidence:.2f}  from {s.passage}")
    lines.append(f"co-mentions ({len(result.co_mentions)} of {result.co_mentions_total}):")
    for c in result.co_mentions:
        mark = "  (also stated)" if c.stated else ""
        lines.append(f"  {c.entity.name}  {c.shared} shared / {c.entity.mentions} passages{mark}")
    return "\n".join(lines)


@command("explore")
def cmd_explore(args: argparse.Namespace) -> int:
    from memo_tui.service import reads

    result = reads.explore(args.ns, args.name, hops=args.hops, as_of=_as_of(args))
    _print(args, result.as_dict(), render_exploration(result))
    return 0


def _snippet(text: str, width: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def render_exploration(result) -> str:
    target = result.target
    lines = [f"{target.name} (#{target.id}, {target.mentions} passages)"]
    if result.matched_alias:
        lines[0] += f" — asked as {result.matched_alias!r}"
    if result.as_of:
        lines.append(f"as of {result.as_of:%Y-%m-%d %H:%M}")
    for p in result.passages:
        lines.append(f"  [{p.external_id}] {_snippet(p.text)}")
        lines += [f"      also see [{link['external_id']}] {_snippet(link['text'], 80)}" for link in p.also_see]
    for hop in result.hops:
        lines.append(f"hop {hop.number}:" + (f" ({hop.more} more not shown)" if hop.more else ""))
        for n in hop.neighbours:
            how = ", ".join(n.predicates) if n.predicates else f"{n.shared} shared passages"
            lines.append(f"  {n.entity.name}  via {n.via.name} ({n.link}: {how})")
            lines += [f"      [{p.external_id}] {_snippet(p.text, 90)}" for p in n.passages]
    return "\n".join(lines)


@command("lint")
def cmd_lint(args: argparse.Namespace) -> int:
    from memo_tui.service import reads

    problems = reads.lint(args.ns)
    lines = [f"{p.check}: {p.subject}: {p.detail}" for p in problems]
    _print(args, [p.as_dict() for p in problems], "\n".join(lines) or "no problems found")
    return 1 if problems else 0


@command("metrics")
def cmd_metrics(args: argparse.Namespace) -> int:
    from memo_tui.runtime.metrics import prometheus_text

    sys.stdout.write(prometheus_text())
    return 0


SERVING = ("mcp",)  # commands whose work runs in threads of their own


def main(argv: list[str] | None = None, ends_process: bool = False) -> int:
    """Run a command (the TUI when none is given). `ends_process`: the process ends with the command
    (`memo-tui`): once a command that runs in this thread alone is done, the store is closed and the
    process is let end without the collector's last sweep (`processes.no_last_sweep`). A command that
    fails, the TUI and the MCP server (whose workers run in threads, each with a connection) leave
    that sweep to close what is open."""
    argv = sys.argv[1:] if argv is None else argv
    refused = unstorable(argv)
    if refused:  # bytes that are not UTF-8 (a shell gives them as lone surrogates): no store takes them
        print(f"memo-tui: {refused}", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.db == "":  # an unset shell variable: not the default store
            raise MemoError("--db is empty; give a store path or URL, or leave --db out for the default store")
        if args.command == "demo" or getattr(args, "kinds", None) is not None:  # they build stores of their own
            return COMMANDS[args.command](args)
        database = open_store(args.db)
        if args.command is None:
            return _open_tui(args, resolve_location(args.db))
        try:
            code = COMMANDS[args.command](args)
        finally:
            from memo_tui.runtime import metrics

            metrics.flush()
        if ends_process and args.command not in SERVING:  # its connection is this thread's, the one to close
            database.close()
            no_last_sweep()
        return code
    except Busy as exc:  # another process is doing the work: try again later (EX_TEMPFAIL)
        print(f"memo-tui: {exc}", file=sys.stderr)
        return 75
    except MemoError as exc:
        print(f"memo-tui: {for_terminal(str(exc))}", file=sys.stderr)
        return 2
    except store_errors() as exc:
        print(f"memo-tui: store error: {for_terminal(failure(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("memo-tui: interrupted; nothing half-written was kept", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as exc:  # the last line of defence: one line, never a traceback
        if os.environ.get("MEMO_TUI_DEBUG"):
            raise
        first = (str(exc).strip().splitlines() or [""])[0]
        print(f"memo-tui: internal error: {type(exc).__name__}: {for_terminal(first)}", file=sys.stderr)
        return 1

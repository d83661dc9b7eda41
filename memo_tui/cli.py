"""The command line: every action the TUI has, as a subcommand with --json (DESIGN §9)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import contextmanager
from typing import Callable, Iterator

import peewee as pw

from memo_tui.core.errors import MemoError
from memo_tui.core.models import DEFAULT_NAMESPACE, open_store

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


def build_parser() -> argparse.ArgumentParser:
    common = _common(top=False)
    parser = argparse.ArgumentParser(
        prog="memo-tui", parents=[_common(top=True)], description="Keep the entity graph of an agent-memory store clean."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    ingest = sub.add_parser("ingest", parents=[common], help="ingest JSONL, markdown and text files ('-' = stdin)")
    ingest.add_argument("paths", nargs="+", metavar="PATH")
    ingest.add_argument("--strict", action="store_true", help="a file with any bad line is not ingested at all")

    forget = sub.add_parser("forget", parents=[common], help="retire a passage by its id")
    forget.add_argument("passage_id", metavar="ID")

    sub.add_parser("stats", parents=[common], help="counts of passages, entities, mentions, aliases, folds")
    return parser


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
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
        task = bar.add_task("ingesting", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _print(args: argparse.Namespace, data: dict, text: str) -> None:
    print(json.dumps(data, indent=2, default=str) if args.json else text)


@command("ingest")
def cmd_ingest(args: argparse.Namespace) -> int:
    from memo_tui.core.ingest import ingest_paths

    with _progress(not args.json) as progress:
        report = ingest_paths(args.ns, args.paths, strict=args.strict, stdin=sys.stdin.buffer, progress=progress)
    for error in report.errors:
        print(error, file=sys.stderr)
    _print(
        args,
        report.as_dict(),
        f"passages: {report.passages_new} new, {report.passages_unchanged} unchanged, "
        f"{report.passages_revised} revised; mentions: {report.mentions}; relations: {report.relations}; "
        f"entities: {report.entities_new} new; skipped: {report.skipped}",
    )
    return 1 if report.skipped else 0


@command("forget")
def cmd_forget(args: argparse.Namespace) -> int:
    from memo_tui.core.ingest import forget

    row_id = forget(args.ns, args.passage_id)
    _print(args, {"retired": args.passage_id, "row": row_id}, f"retired passage {args.passage_id}")
    return 0


@command("stats")
def cmd_stats(args: argparse.Namespace) -> int:
    from memo_tui.core.stats import store_stats

    stats = store_stats(args.ns)
    _print(args, stats, "\n".join(f"{name}: {value}" for name, value in stats.items()))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        open_store(args.db)
        if args.command is None:
            parser.print_help()
            return 0
        return COMMANDS[args.command](args)
    except MemoError as exc:
        print(f"memo-tui: {exc}", file=sys.stderr)
        return 2
    except pw.DatabaseError as exc:
        print(f"memo-tui: store error: {exc}", file=sys.stderr)
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
        print(f"memo-tui: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1

"""The `memo-tui` command and `python -m memo_tui`: the command line, imported only when it runs.

A process that a command starts with multiprocessing (`spawn`) runs the command's script again
before its work; through this module that costs nothing, where importing the command line there
brought in every layer and the store's drivers, all before a pass's second process could start
judging."""


def main() -> int:
    from memo_tui.cli import main as run

    return run(ends_process=True)


if __name__ == "__main__":
    raise SystemExit(main())

from memo_tui.cli import main

if __name__ == "__main__":
    raise SystemExit(main())

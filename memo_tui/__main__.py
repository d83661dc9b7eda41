from memo_tui.cli import main

raise SystemExit(main())

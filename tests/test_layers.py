"""The core never imports Textual (DESIGN §2)."""

import ast
from pathlib import Path

import memo_tui.core

CORE = Path(memo_tui.core.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_core_imports_nothing_from_textual_or_the_ui():
    offenders = {
        str(path.relative_to(CORE)): sorted(
            m
            for m in imported_modules(path)
            if m.split(".")[0] == "textual" or m.startswith(("memo_tui.tui", "memo_tui.cli"))
        )
        for path in CORE.rglob("*.py")
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}
    assert len(offenders) >= 8  # the walk really saw the core modules


def test_importing_the_core_does_not_load_textual():
    import subprocess
    import sys

    code = "import sys, memo_tui.core.ingest, memo_tui.store; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"

"""The import contracts of pyproject.toml (layers cli > tui > facade > engine > store, the engine's use cases
layered, no sibling cycles; no Textual below the UI; no store in the TUI or the pure packages) hold;
importing the engine loads no Textual, and a start no numpy."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold():
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert command, "import-linter is part of the test extra"
    result = subprocess.run([command, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "6 kept, 0 broken" in result.stdout


def test_importing_the_core_does_not_load_textual():
    code = "import sys, memo_tui.engine.ingest, memo_tui.engine.resolve.resolver; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_command_line_and_the_tui_do_not_load_the_mcp_sdk():
    code = "import sys, memo_tui.cli, memo_tui.tui.app; print('mcp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_command_line_and_the_tui_start_without_numpy():
    """numpy is imported by a passage search (`similar_sets`), not by every command: it would slow every start."""
    code = "import sys, memo_tui.cli, memo_tui.tui.app, memo_tui.engine.resolve.resolver; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"

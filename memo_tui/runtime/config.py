"""The user's settings file: `config.toml` in the platformdirs config directory (MEMO_TUI_CONFIG overrides).

[conflicts]
single_valued = ["owned_by", "owner", "version", "status"]

[keys]          # TUI key overrides: binding id = keys
merge = "m,enter"
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from platformdirs import user_config_dir

from memo_tui.errors import MemoError


def config_path() -> Path:
    return Path(os.environ.get("MEMO_TUI_CONFIG") or Path(user_config_dir("memo-tui", appauthor=False)) / "config.toml")


def load_config() -> dict:
    """The settings as a dict; a missing file is no settings, a broken one is a clear error."""
    path = config_path()
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise MemoError(f"cannot read settings {path}: {exc}") from None


def section(name: str) -> dict:
    value = load_config().get(name, {})
    if not isinstance(value, dict):
        raise MemoError(f"settings {config_path()}: [{name}] must be a table")
    return value

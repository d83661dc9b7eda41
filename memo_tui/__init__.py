"""memo-tui: keep the entity graph of an agent-memory store clean."""

__version__ = "0.1.0"

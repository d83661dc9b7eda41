"""The agent channel: `memo-tui mcp`, a stdio MCP server over the engine (the `[mcp]` extra).

Imported only by that command, so the CLI and the TUI never load the MCP SDK.
"""

"""The one facade the interfaces (`cli`, `tui/`, `mcp/`) use: everything a reviewer, an agent or a
script does to a store, by use case, and the view types they show (`views`).

An interface imports this package and its views only, never the engine, the store or the quality
tools (an import contract in pyproject.toml), so that a new interface is one folder. Each module is
imported when first needed, so a command loads only the engine it uses:

- `stores`: opening a store, its location as shown, copies, the demo store, store errors;
- `review`: answering queue items (the facade decides between a pair and a cluster), batches,
  reverts, undo and redo, hand edits, the queue, details and history, agents' proposals;
- `reads`: the graph read: related names, exploration, name and passage searches, stats, lint,
  what the name rules say of two spellings;
- `work`: ingest, forget, resolution passes, rebuilds and passage links;
- `figures`: how the rules and a store's pass do against hand labels (`memo-tui eval`).
"""

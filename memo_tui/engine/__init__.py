"""The engine by use case: ingest, resolve, conflicts, review, graph. Never imports Textual."""

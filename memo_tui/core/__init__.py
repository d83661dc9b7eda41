"""The engine: store, extraction, ingest, folds. Never imports Textual."""

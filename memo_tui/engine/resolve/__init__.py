"""The resolution pass and what it keeps between passes."""

"""Pure text logic: reading sources into records, and similar sets of numbers. No store."""

"""Pure name logic: keys, extraction, the verdict rules, blocking and the evidence layer. No store."""

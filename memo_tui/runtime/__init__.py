"""Runtime helpers: the user's settings, the second process, counters."""

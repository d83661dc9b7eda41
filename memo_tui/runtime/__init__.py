"""Runtime helpers: the user's settings, the second process, the packed formats, counters."""

"""The one exception type whose message is shown to the user as is."""


class MemoError(Exception):
    """A problem the user can act on; the CLI prints its message as one line."""

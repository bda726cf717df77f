"""Reading a log position typed into an address or a form: bounded, ASCII digits only."""

# A seq is a PositiveIntegerField (up to 2**31 - 1): nine digits always fit, and no longer
# text reaches int() (which refuses over 4,300 digits) or the database.
MAX_SEQ_DIGITS = 9


def seq_or_none(text: str) -> int | None:
    """Return the seq ``text`` writes (e.g. a poll's ?since=), or None if it is not one.

    ``str.isdigit`` alone also takes digits such as "²", which int() refuses.
    """
    if text.isascii() and text.isdigit() and len(text) <= MAX_SEQ_DIGITS:
        return int(text)
    return None


def id_or_none(text: str) -> int | None:
    """Return the row id ``text`` writes (a form's choice of a player, a pair…), or None:
    ids are positive integers of the same bounded width as a seq."""
    return seq_or_none(text)

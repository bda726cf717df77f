"""Event payloads the tests send, written the way a scorekeeper would."""


def quick(knocker: int, ending: str, k: int, d: int) -> dict:
    """Return a quick-entry Gin hand payload."""
    return {
        "mode": "quick",
        "knocker": knocker,
        "ending": ending,
        "knocker_count": k,
        "defender_count": d,
    }

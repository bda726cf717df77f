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


def by_cards(knocker: int, knocker_cards: str, defender_cards: str) -> dict:
    """Return a Gin hand payload entered by the cards both players show."""
    return {
        "mode": "cards",
        "knocker": knocker,
        "knocker_cards": knocker_cards,
        "defender_cards": defender_cards,
    }


# The home page's form as a phone sends it to start Anna and Bruno's Big Gin to 100.
GIN_TABLE_FORM = {
    "variant": "gin",
    "players": "2",
    "player_1": "Anna",
    "player_2": "Bruno",
    "gin__preset": "big_gin",
    "gin__target": "100",
}

"""Cards as players read them: 10H as 10♥, a joker as 🃏, a declared joker JK=4S as 🃏4♠.

Notation (7S 10H JK) is what phones type and the engine reads; everything a player reads —
card faces, verdicts, lists — shows the suit symbols instead.
"""

import re

SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}

# One card in notation, a declared joker included (JK=4S); anything else is left as written.
_CARD = re.compile(r"^(?:JK(?:=(?:10|[2-9AJQK])[CSHD])?|(?:10|[2-9AJQK])[CSHD])$", re.IGNORECASE)


def card_label(card: str) -> str:
    """Return one card as shown: 10♥, 🃏, 🃏4♠; a token that is no card comes back as it is."""
    if not _CARD.match(card):
        return card
    card = card.upper()
    if card.startswith("JK"):
        stands = card.partition("=")[2]
        return "🃏" + (card_label(stands) if stands else "")
    return card[:-1] + SUIT_SYMBOLS[card[-1]]


def cards_label(cards) -> str:
    """Return cards (a list, or text with spaces between cards) as shown, one space apart."""
    tokens = str(cards).split() if isinstance(cards, str) else [str(card) for card in cards]
    return " ".join(card_label(token) for token in tokens)

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


# Cards typed in Italian (docs/rules.md, CARD-3): the suit letters are the Italian ones, so
# 7C is the 7 of cuori (hearts) and QQ the queen of quadri (diamonds), and the suit and
# rank words are read too ("7 di cuori", "donna di picche", "jolly"). The English letters
# that mean nothing else in Italian (H, D, S) are read as in English.
ITALIAN_SUITS = {"C": "H", "Q": "D", "F": "C", "P": "S", "H": "H", "D": "D", "S": "S"}
_ITALIAN_SUIT_WORDS = {
    "cuori": "H",
    "cuore": "H",
    "quadri": "D",
    "quadro": "D",
    "fiori": "C",
    "fiore": "C",
    "picche": "S",
    "picca": "S",
}
_ITALIAN_RANK_WORDS = {"asso": "A", "fante": "J", "donna": "Q", "re": "K"}
_ITALIAN_CARD = re.compile(
    r"(?<![\w=])(?P<joker>jolly|joker)(?!\w)"
    r"|(?P<rank>10|[2-9]|asso|fante|donna|re|[ajqk])\s+(?:di\s+)?"
    r"(?P<word>cuori|cuore|quadri|quadro|fiori|fiore|picche|picca)(?!\w)"
    r"|(?<![\w])(?P<short>10|[2-9ajqk])(?P<letter>[cqfphds])(?!\w)",
    re.IGNORECASE,
)


def _italian_card(match: re.Match) -> str:
    if match["joker"]:
        return "JK"
    if match["word"]:
        rank = match["rank"].lower()
        return (
            _ITALIAN_RANK_WORDS.get(rank, rank.upper()) + _ITALIAN_SUIT_WORDS[match["word"].lower()]
        )
    return match["short"].upper() + ITALIAN_SUITS[match["letter"].upper()]


_TYPED_SUITS = {"it": {"H": "C", "D": "Q", "C": "F", "S": "P"}}


def card_typed(rank: str, suit: str, language: str) -> str:
    """Return a card as the reader types it (what a tap on the card picker writes): 7C in
    English is 7♣, in Italian 7F (fiori); typed_cards reads it back."""
    letters = _TYPED_SUITS.get(language.lower()[:2], {})
    return rank + letters.get(suit, suit)


def typed_cards(text: str, language: str) -> str:
    """Return cards typed in ``language`` written as the engine reads them (7S 10H JK).

    In Italian the suit letters are C Q F P (cuori, quadri, fiori, picche), so "7C 10Q" is
    7♥ 10♦; words are read too. Anything that is no card is left as typed, for the engine
    to refuse by name. English is the engine's own notation and comes back as it is."""
    if not language.lower().startswith("it"):
        return text
    return _ITALIAN_CARD.sub(_italian_card, text)

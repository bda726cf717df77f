"""Burraco's words for the pages: its option labels, its standings' counts, its rules' short
titles, what each part of a pair's score is for, a sentence for every refusal its
modules give and the names of its entry's parts (scoring/words.py says how the pages find
and translate them).

The strings are English; each is marked with ``gettext_noop`` below, a no-op of our own
(the engine has no Django), which ``makemessages`` finds by its name and puts in the
catalogue, where the Italian is written (locale/it/LC_MESSAGES/django.po). A sentence's
``%(name)s`` placeholders are the refusal's params.
"""

from __future__ import annotations

from scoring.words import GameWords


def gettext_noop(text: str) -> str:
    """Return ``text`` as it is: the mark that has makemessages extract it."""
    return text


NAME = gettext_noop("Burraco")

OPTIONS = {
    ("BUR-MATCH", "target"): gettext_noop("Points to win"),
    ("BUR-MATCH", "hands"): gettext_noop("Deals to play (0: to the points)"),
    "semipulito": gettext_noop("Semipulito burracos score 150"),
    "international": gettext_noop("International code"),
}

COUNTS = {
    "closings": gettext_noop("Closings"),
    "burraco_pulito": gettext_noop("Clean burracos"),
    "burraco_semipulito": gettext_noop("Semi-clean burracos"),
    "burraco_sporco": gettext_noop("Dirty burracos"),
    "pozzetti_missed": gettext_noop("Pozzetti not taken"),
}

# The pair's sheet's boxes and its question (the pairs' sheet entry), by field.
SHEET = {
    "melded": gettext_noop("Points melded"),
    "pulito": gettext_noop("Clean burracos"),
    "sporco": gettext_noop("Dirty burracos"),
    "semipulito": gettext_noop("Semi-clean burracos"),
    "pozzetto": gettext_noop("Took its pozzetto"),
    "in_hand": gettext_noop("Points left in hand"),
    "closed": gettext_noop("Who closed?"),
    "nobody": gettext_noop("Nobody (the stock ran out)"),
    "hint": gettext_noop(
        "For each pair: the points of the cards it melded, its burracos, its pozzetto and "
        "the points both partners still hold."
    ),
}

RULE_TITLES = {
    "BUR-SETUP": gettext_noop("Burraco: 4 players in two pairs, 108 cards, 11 each, two pozzetti"),
    "BUR-TURN": gettext_noop("Burraco: draw a card or take the whole discard pile, then discard"),
    "BUR-MELDS": gettext_noop("Burraco melds: sequences and combinations of 3 cards or more"),
    "BUR-WILD": gettext_noop("Burraco: one wild a meld, a jolly or a pinella"),
    "BUR-BURRACO": gettext_noop("Burraco: a meld of 7 or more; pulito 200, sporco 100"),
    "BUR-VALUES": gettext_noop("Burraco values: jolly 30, pinella 20, ace 15, 8 to K 10, 3 to 7 5"),
    "BUR-POZZETTO": gettext_noop("Burraco: each pair's pozzetto; 100 off if never taken"),
    "BUR-CLOSE": gettext_noop("Burraco: close with the pozzetto taken and a burraco, for 100"),
    "BUR-STOCK": gettext_noop("Burraco: the stock runs out, no one closes"),
    "BUR-SCORE": gettext_noop("Burraco: a pair scores its melds and bonuses, less its hands"),
    "BUR-MATCH": gettext_noop("Burraco match: to 2005, or a set number of hands"),
    "BUR-OPT-SEMIPULITO": gettext_noop("Semipulito: a burraco whose wild is at its end scores 150"),
    "BUR-OPT-INTL": gettext_noop("International code: close with a pulito; fewer combinations"),
}
RULE_TITLES_WITH_OPTIONS = {
    "BUR-MATCH": gettext_noop("Burraco match: to %(target)s, or a set number of hands"),
}

# The parts of a pair's score (scoring.py, PairScore.items), by rule and by (rule, code).
ITEM_TITLES = {
    "BUR-SCORE": gettext_noop("the pair's cards"),
    "BUR-BURRACO": gettext_noop("burraco bonus"),
    "BUR-OPT-SEMIPULITO": gettext_noop("burraco semipulito"),
    "BUR-CLOSE": gettext_noop("closing bonus"),
    "BUR-POZZETTO": gettext_noop("pozzetto never taken"),
}
ITEM_TITLES_BY_CODE = {
    ("BUR-SCORE", "melded"): gettext_noop("cards melded"),
    ("BUR-SCORE", "in_hand"): gettext_noop("cards left in hand"),
    ("BUR-BURRACO", "pulito"): gettext_noop("burraco pulito"),
    ("BUR-BURRACO", "sporco"): gettext_noop("burraco sporco"),
}

# (rule, code) -> sentence, for every refusal the package gives, those the shared checks
# give under Burraco's rules (the play engine's closing, its meld checker's jokers) and the
# cards a sheet entered by cards is written in.
REFUSALS = {
    ("BUR-SETUP", "players"): gettext_noop(
        "Burraco is for %(min)s players in two pairs, not %(count)s."
    ),
    ("BUR-SETUP", "two_pairs"): gettext_noop(
        "A Burraco hand is entered as the sheets of both pairs, the first player's pair first."
    ),
    ("BUR-MATCH", "out_of_bounds"): gettext_noop(
        "The option “%(option)s” cannot be %(value)s: it takes %(min)s to %(max)s."
    ),
    ("BUR-MATCH", "match_over"): gettext_noop(
        "The match ended after hand %(hands)s: no more hands can be recorded."
    ),
    ("BUR-MELDS", "too_short"): gettext_noop("A meld needs at least %(min)s cards, not %(count)s."),
    ("BUR-MELDS", "wilds_alone"): gettext_noop(
        "%(cards)s is not a meld: jollies and 2s make no meld on their own."
    ),
    ("BUR-MELDS", "too_long"): gettext_noop(
        "A combination holds at most %(max)s cards of its rank, and its wild; not %(count)s."
    ),
    ("BUR-MELDS", "mixed"): gettext_noop(
        "%(cards)s is neither a combination (cards of one rank) nor a sequence (cards of one "
        "suit in order)."
    ),
    ("BUR-MELDS", "repeated_rank"): gettext_noop(
        "A sequence holds each rank once, and a single ace, low or high: %(ranks)s twice."
    ),
    ("BUR-MELDS", "wrap"): gettext_noop(
        "%(cards)s: the ace goes below the 2 (A-2-3) or above the king (Q-K-A), never between them."
    ),
    ("BUR-MELDS", "not_in_order"): gettext_noop(
        "%(cards)s is not a sequence: its cards follow one another, one wild filling one gap "
        "at most."
    ),
    ("BUR-MELDS", "bad_melds"): gettext_noop(
        "Give the pair's melds as a list, each written in cards like 7S 8S 9S."
    ),
    ("BUR-WILD", "two_wilds"): gettext_noop(
        "A meld holds one wild at most (a jolly, or a 2 out of its own place); these are "
        "wild: %(cards)s."
    ),
    ("BUR-WILD", "too_many_jokers"): gettext_noop(
        "%(cards)s has %(count)s jokers; a meld holds at most %(limit)s."
    ),
    ("BUR-WILD", "too_many_wilds"): gettext_noop(
        "%(count)s burracos with a wild, but the deck holds only %(max)s wilds."
    ),
    ("BUR-BURRACO", "bad_count"): gettext_noop(
        "%(value)s is not a number of burracos: give 0 to %(max)s."
    ),
    ("BUR-BURRACO", "too_many_burracos"): gettext_noop(
        "So many burracos need %(count)s cards, more than the 108 of the deck."
    ),
    ("BUR-BURRACO", "burraco_points"): gettext_noop(
        "Melded cards worth %(value)s cannot hold these burracos: their cards are worth "
        "%(min)s at least."
    ),
    ("BUR-VALUES", "over_deck"): gettext_noop(
        "The cards melded and held add up to %(value)s, more than the whole deck is worth "
        "(%(max)s)."
    ),
    ("BUR-SCORE", "bad_entry"): gettext_noop(
        "The pair's sheet is missing, or is not a set of named figures."
    ),
    ("BUR-SCORE", "unknown_field"): gettext_noop("The sheet has no figure “%(unknown)s”."),
    ("BUR-SCORE", "bad_mode"): gettext_noop(
        "A Burraco hand is entered by each pair's sheet or by its cards."
    ),
    ("BUR-SCORE", "missing"): gettext_noop("The points are missing."),
    ("BUR-SCORE", "bad_points"): gettext_noop(
        "%(value)s is not a number of points: give a whole number, 0 or more."
    ),
    ("BUR-SCORE", "not_multiple_of_5"): gettext_noop(
        "%(value)s is not a multiple of 5, as every card's value is."
    ),
    ("BUR-SCORE", "too_many_points"): gettext_noop(
        "%(value)s is more than the whole deck is worth (%(max)s)."
    ),
    ("BUR-SCORE", "bad_hands"): gettext_noop(
        "Give the cards each partner holds at the end, nothing for a partner who holds none."
    ),
    ("BUR-SCORE", "entered_by_sheet"): gettext_noop(
        "A Burraco hand is entered by each pair's sheet: it cannot be played move by move yet."
    ),
    ("BUR-POZZETTO", "missing"): gettext_noop("Say whether the pair took its pozzetto."),
    ("BUR-POZZETTO", "bad_flag"): gettext_noop(
        "Say whether the pair took its pozzetto: yes or no, not %(value)s."
    ),
    ("BUR-CLOSE", "bad_flag"): gettext_noop(
        "Say whether the pair closed: yes or no, not %(value)s."
    ),
    ("BUR-CLOSE", "wild_discard"): gettext_noop(
        "%(card)s is a wild: a pair never closes by discarding a jolly or a 2."
    ),
    ("BUR-CLOSE", "two_closings"): gettext_noop(
        "Only one pair can close: the hand ends at the first closing."
    ),
    ("BUR-CLOSE", "closed_without_pozzetto"): gettext_noop(
        "A pair closes only once it has taken its pozzetto, and this one has not."
    ),
    ("BUR-CLOSE", "closed_without_burraco"): gettext_noop(
        "A pair closes only with a burraco on the table, and this one has none."
    ),
    ("BUR-CLOSE", "closer_holds_cards"): gettext_noop(
        "The partner who closed holds no card, yet both partners are given cards left in hand."
    ),
    ("BUR-CLOSE", "cannot_go_out"): gettext_noop(
        "These cards cannot close: every card but the last discard must be melded."
    ),
    ("BUR-CLOSE", "joker_discard"): gettext_noop(
        "These cards close only by discarding a wild, and the closing discard is never a wild."
    ),
    ("BUR-OPT-SEMIPULITO", "semipulito_off"): gettext_noop(
        "This table plays no semipulito: count such a burraco as sporco."
    ),
    ("BUR-OPT-INTL", "semipulito_international"): gettext_noop(
        "The international code has no semipulito: choose one of the two options."
    ),
    ("BUR-OPT-INTL", "combination_rank"): gettext_noop(
        "Under the international code only aces and 3s make combinations, not %(rank)s."
    ),
    ("BUR-OPT-INTL", "closed_without_pulito"): gettext_noop(
        "Under the international code a pair closes only with a burraco pulito, and this one "
        "has none."
    ),
    ("CARD-3", "bad_cards"): gettext_noop("Write the cards like 7S 8S 9S."),
}


# The parts of a hand's entry a refusal names (sheet.py's fields), "[]" for each index;
# %(n1)s is the pair (1 for the first player's), %(n2)s the meld or the partner.
FIELDS = {
    "entry": gettext_noop("the hand's entry"),
    "pairs": gettext_noop("both pairs"),
    "pairs[]": gettext_noop("pair %(n1)s"),
    "pairs[].melded": gettext_noop("pair %(n1)s, cards melded"),
    "pairs[].pulito": gettext_noop("pair %(n1)s, burracos pulito"),
    "pairs[].sporco": gettext_noop("pair %(n1)s, burracos sporco"),
    "pairs[].semipulito": gettext_noop("pair %(n1)s, burracos semipulito"),
    "pairs[].closed": gettext_noop("pair %(n1)s, closing"),
    "pairs[].pozzetto": gettext_noop("pair %(n1)s, pozzetto"),
    "pairs[].in_hand": gettext_noop("pair %(n1)s, cards in hand"),
    "pairs[].melds": gettext_noop("pair %(n1)s, melds"),
    "pairs[].melds[]": gettext_noop("pair %(n1)s, meld %(n2)s"),
    "pairs[].hands": gettext_noop("pair %(n1)s, cards in hand"),
    "pairs[].hands[]": gettext_noop("pair %(n1)s, partner %(n2)s's cards in hand"),
}

WORDS = GameWords(
    options=OPTIONS,
    counts=COUNTS,
    rule_titles=RULE_TITLES,
    rule_titles_with_options=RULE_TITLES_WITH_OPTIONS,
    refusals=REFUSALS,
    item_titles=ITEM_TITLES,
    item_titles_by_code=ITEM_TITLES_BY_CODE,
    fields=FIELDS,
)

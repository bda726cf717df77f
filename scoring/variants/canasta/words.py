"""Canasta's words for the pages: its option labels, its sheet's boxes, its standings'
counts, its rules' short titles, what each part of a side's score is for, a sentence for
every refusal its modules give and the names of its entry's parts (scoring/words.py says
how the pages find and translate them).

The strings are English; each is marked with ``gettext_noop`` below, a no-op of our own
(the engine has no Django), which ``makemessages`` finds by its name and puts in the
catalogue, where the Italian is written. A sentence's ``%(name)s`` placeholders are the
refusal's params.
"""

from __future__ import annotations

from scoring.words import GameWords


def gettext_noop(text: str) -> str:
    """Return ``text`` as it is: the mark that has makemessages extract it."""
    return text


NAME = gettext_noop("Canasta")

OPTIONS = {
    ("CAN-MATCH-1", "target"): gettext_noop("Points to win"),
    "concealed_bonus": gettext_noop("Going out concealed scores 200"),
    "canastas_to_go_out": gettext_noop("Canastas needed to go out"),
}
CHOICES = {
    ("canastas_to_go_out", 1): gettext_noop("One canasta"),
    ("canastas_to_go_out", 2): gettext_noop("Two canastas"),
}

# The side's sheet's boxes and its question (the pairs' sheet entry), by field.
SHEET = {
    "melded": gettext_noop("Points melded"),
    "natural": gettext_noop("Natural canastas"),
    "mixed": gettext_noop("Mixed canastas"),
    "red_threes": gettext_noop("Red 3s"),
    "concealed": gettext_noop("Went out concealed"),
    "in_hand": gettext_noop("Points left in hand"),
    "went_out": gettext_noop("Who went out?"),
    "nobody": gettext_noop("Nobody (the stock ran out)"),
    "hint": gettext_noop(
        "For each side: the points of the cards it melded, its canastas, its red 3s and the "
        "points both partners still hold."
    ),
}

COUNTS = {
    "went_out": gettext_noop("Times out"),
    "canasta_natural": gettext_noop("Natural canastas"),
    "canasta_mixed": gettext_noop("Mixed canastas"),
    "red_threes": gettext_noop("Red 3s"),
}

RULE_TITLES = {
    "CAN-SETUP": gettext_noop("Canasta: 4 players in two sides, 108 cards, 11 each"),
    "CAN-TURN-1": gettext_noop("Canasta: draw a card or take the whole discard pile, then discard"),
    "CAN-VALUES": gettext_noop("Canasta values: joker 50, 2 and ace 20, 8 to K 10, 4 to 7 5"),
    "CAN-MELD-1": gettext_noop("Canasta melds: 3 cards or more of one rank, no sequences"),
    "CAN-MELD-2": gettext_noop("Canasta: 2 naturals at least, 3 wilds at most a meld"),
    "CAN-MELD-3": gettext_noop("Canasta: black 3s meld only going out, without wilds"),
    "CAN-CANASTA-1": gettext_noop("Canasta: a meld of 7 or more; natural 500, mixed 300"),
    "CAN-RED3-1": gettext_noop("Canasta: red 3s 100 each, 800 all four; minus if nothing melded"),
    "CAN-OUT-1": gettext_noop("Canasta: go out with a canasta on the table, for 100"),
    "CAN-OUT-2": gettext_noop("Canasta: going out concealed, in one turn, for 200"),
    "CAN-OPEN-1": gettext_noop("Canasta: the first meld's minimum, 15 to 120 by the score"),
    "CAN-PILE-1": gettext_noop("Canasta: taking the discard pile, frozen or not"),
    "CAN-STOCK-1": gettext_noop("Canasta: the stock runs out, no one goes out"),
    "CAN-SCORE-1": gettext_noop("Canasta: a side scores its melds and bonuses, less its hands"),
    "CAN-MATCH-1": gettext_noop("Canasta match: to 5000"),
    "CAN-OPT-CONCEALED": gettext_noop("Canasta: the concealed going out's bonus, on or off"),
    "CAN-OPT-CANASTAS": gettext_noop("Canasta: one or two canastas to go out"),
}
RULE_TITLES_WITH_OPTIONS = {
    "CAN-MATCH-1": gettext_noop("Canasta match: to %(target)s"),
}

# The parts of a side's score (scoring.py, SideScore.items), by rule and by (rule, code).
ITEM_TITLES = {
    "CAN-SCORE-1": gettext_noop("the side's cards"),
    "CAN-CANASTA-1": gettext_noop("canasta bonus"),
    "CAN-OUT-1": gettext_noop("going out"),
    "CAN-OUT-2": gettext_noop("going out concealed"),
    "CAN-RED3-1": gettext_noop("red 3s"),
}
ITEM_TITLES_BY_CODE = {
    ("CAN-SCORE-1", "melded"): gettext_noop("cards melded"),
    ("CAN-SCORE-1", "in_hand"): gettext_noop("cards left in hand"),
    ("CAN-CANASTA-1", "natural"): gettext_noop("natural canasta"),
    ("CAN-CANASTA-1", "mixed"): gettext_noop("mixed canasta"),
}

# (rule, code) -> sentence, for every refusal the package gives.
REFUSALS = {
    ("CAN-SETUP", "players"): gettext_noop(
        "Canasta is for %(min)s players in two sides, not %(count)s."
    ),
    ("CAN-SETUP", "two_pairs"): gettext_noop(
        "A Canasta hand is entered as the sheets of both sides, the first player's side first."
    ),
    ("CAN-MATCH-1", "out_of_bounds"): gettext_noop(
        "The option “%(option)s” cannot be %(value)s: it takes %(min)s to %(max)s."
    ),
    ("CAN-MATCH-1", "match_over"): gettext_noop(
        "The match ended after hand %(hands)s: no more hands can be recorded."
    ),
    ("CAN-OPT-CANASTAS", "bad_choice"): gettext_noop(
        "A side needs one or two canastas to go out, not %(value)s."
    ),
    ("CAN-MELD-1", "too_short"): gettext_noop("%(cards)s: a meld needs at least %(min)s cards."),
    ("CAN-MELD-1", "mixed_ranks"): gettext_noop(
        "%(cards)s: a meld is of one rank only; Canasta has no sequences."
    ),
    ("CAN-MELD-1", "bad_melds"): gettext_noop(
        "Give the side's melds as a list, each written in cards like 7S 7H 7D."
    ),
    ("CAN-MELD-2", "too_few_naturals"): gettext_noop(
        "%(cards)s: a meld needs two natural cards at least, it has %(count)s."
    ),
    ("CAN-MELD-2", "too_many_wilds"): gettext_noop(
        "%(cards)s: a meld holds three wild cards at most, it has %(count)s."
    ),
    ("CAN-MELD-2", "too_many_jokers"): gettext_noop(
        "%(cards)s has %(count)s jokers; a meld holds at most %(limit)s."
    ),
    ("CAN-MELD-3", "black_threes_not_out"): gettext_noop(
        "%(cards)s: black 3s are melded only by a player going out."
    ),
    ("CAN-MELD-3", "black_threes_wild"): gettext_noop(
        "%(cards)s: a meld of black 3s takes no wild card."
    ),
    ("CAN-RED3-1", "red_three_melded"): gettext_noop(
        "%(cards)s: a red 3 is laid down at once as a bonus, never melded."
    ),
    ("CAN-RED3-1", "red_three_held"): gettext_noop(
        "A red 3 is laid down at once, never held: count it among the side's red 3s."
    ),
    ("CAN-RED3-1", "bad_count"): gettext_noop(
        "%(value)s is not a number of red 3s: give 0 to %(max)s."
    ),
    ("CAN-RED3-1", "too_many_red_threes"): gettext_noop(
        "Both sides together count %(count)s red 3s; the deck has %(max)s."
    ),
    ("CAN-CANASTA-1", "bad_count"): gettext_noop(
        "%(value)s is not a number of canastas: give 0 to %(max)s."
    ),
    ("CAN-CANASTA-1", "too_many_natural"): gettext_noop(
        "Both sides together count %(count)s natural canastas; the deck makes %(max)s at most."
    ),
    ("CAN-CANASTA-1", "too_many_canastas"): gettext_noop(
        "Both sides together count %(count)s canastas; the deck's 104 cards make %(max)s at most."
    ),
    ("CAN-CANASTA-1", "canasta_points"): gettext_noop(
        "Melded cards worth %(value)s cannot hold these canastas: their cards are worth "
        "%(min)s at least."
    ),
    ("CAN-MELD-2", "too_many_mixed"): gettext_noop(
        "Both sides together count %(count)s mixed canastas; the deck has %(max)s wild cards."
    ),
    ("CAN-VALUES", "not_multiple_of_5"): gettext_noop(
        "%(value)s is not a multiple of 5, as every card's value is."
    ),
    ("CAN-VALUES", "too_many_points"): gettext_noop(
        "%(value)s is more than the whole deck is worth (%(max)s)."
    ),
    ("CAN-VALUES", "over_deck"): gettext_noop(
        "The cards melded and held add up to %(value)s, more than the whole deck is worth "
        "(%(max)s)."
    ),
    ("CAN-SCORE-1", "bad_entry"): gettext_noop(
        "The side's sheet is missing, or is not a set of named figures."
    ),
    ("CAN-SCORE-1", "unknown_field"): gettext_noop("The sheet has no figure “%(unknown)s”."),
    ("CAN-SCORE-1", "bad_mode"): gettext_noop(
        "A Canasta hand is entered by each side's sheet or by its cards."
    ),
    ("CAN-SCORE-1", "missing"): gettext_noop("The points are missing."),
    ("CAN-SCORE-1", "bad_points"): gettext_noop(
        "%(value)s is not a number of points: give a whole number, 0 or more."
    ),
    ("CAN-SCORE-1", "bad_hands"): gettext_noop(
        "Give the cards each partner holds at the end, nothing for a partner who holds none."
    ),
    ("CAN-OUT-1", "bad_flag"): gettext_noop(
        "Say whether the side went out: yes or no, not %(value)s."
    ),
    ("CAN-OUT-1", "two_outs"): gettext_noop(
        "Only one side can go out: the hand ends when a player goes out."
    ),
    ("CAN-OUT-1", "out_without_canasta"): gettext_noop(
        "A side goes out only with %(needed)s canasta(s) on the table; this one has %(count)s."
    ),
    ("CAN-OUT-1", "out_holds_cards"): gettext_noop(
        "The partner who went out holds no card, yet both partners are given cards left in hand."
    ),
    ("CAN-OUT-1", "keep_one"): gettext_noop(
        "%(player)s must keep a card to discard: a player goes out by discarding the last card."
    ),
    ("CAN-OUT-2", "bad_flag"): gettext_noop(
        "Say whether the side went out concealed: yes or no, not %(value)s."
    ),
    ("CAN-OUT-2", "concealed_not_out"): gettext_noop(
        "Only the side that went out can have gone out concealed."
    ),
    ("CAN-OPEN-1", "bad_total"): gettext_noop(
        "%(value)s is not a side's total: give a whole number from -%(max)s to %(max)s."
    ),
    ("CAN-OPEN-1", "below_minimum"): gettext_noop(
        "The first meld is worth %(value)s; a side on %(total)s needs %(minimum)s."
    ),
    ("CAN-PILE-1", "pickup_unused"): gettext_noop(
        "%(player)s took %(card)s with the discard pile: it must go on the table this turn."
    ),
    ("CAN-PILE-1", "pickup_not_opened"): gettext_noop(
        "%(player)s took %(card)s with the discard pile: it must go on the table this turn."
    ),
    ("CAN-PILE-1", "black_three_on_top"): gettext_noop(
        "A black 3 (%(card)s) tops the discard pile: %(player)s cannot take it."
    ),
    ("CAN-PILE-1", "wild_on_top"): gettext_noop(
        "%(card)s tops the discard pile: no meld takes it, so %(player)s cannot take the pile."
    ),
    ("CAN-PILE-1", "frozen_pile"): gettext_noop(
        "The pile is frozen for %(player)s's side: its top card %(card)s goes to the table "
        "with two natural cards of its rank from the hand."
    ),
    ("CAN-PILE-1", "pile_pair"): gettext_noop(
        "%(card)s from the pile goes onto the side's meld of its rank, or with a natural pair, "
        "or a natural and a wild, from the hand."
    ),
    ("CAN-MELD-1", "rank_melded"): gettext_noop(
        "%(player)s's side already has a meld of that rank (%(rank)s): add the cards to it."
    ),
    ("CAN-MELD-1", "not_opened"): gettext_noop(
        "%(player)s's side has not melded yet: its first melds come before any card added."
    ),
    ("CAN-MELD-3", "black_threes_go_out"): gettext_noop(
        "Black 3s are melded only by a player going out: %(player)s must go out this turn."
    ),
    ("CAN-RED3-1", "replacement_from_stock"): gettext_noop(
        "%(player)s laid down a red 3: its replacement is drawn from the stock."
    ),
    ("CAN-RED3-1", "replacement_owed"): gettext_noop(
        "%(player)s laid down a red 3: draw its replacement from the stock first."
    ),
    ("CAN-RED3-1", "red_three_kept"): gettext_noop(
        "%(card)s is a red 3: it is laid down at once, never kept nor discarded."
    ),
    ("CARD-3", "bad_cards"): gettext_noop("Write the cards like 7S 7H 7D."),
}

# The parts of a hand's entry a refusal names (sheet.py's fields), "[]" for each index;
# %(n1)s is the side (1 for the first player's), %(n2)s the meld or the partner.
FIELDS = {
    "entry": gettext_noop("the hand's entry"),
    "pairs": gettext_noop("both sides"),
    "pairs[]": gettext_noop("side %(n1)s"),
    "pairs[].melded": gettext_noop("side %(n1)s, cards melded"),
    "pairs[].natural": gettext_noop("side %(n1)s, natural canastas"),
    "pairs[].mixed": gettext_noop("side %(n1)s, mixed canastas"),
    "pairs[].red_threes": gettext_noop("side %(n1)s, red 3s"),
    "pairs[].went_out": gettext_noop("side %(n1)s, going out"),
    "pairs[].concealed": gettext_noop("side %(n1)s, going out concealed"),
    "pairs[].in_hand": gettext_noop("side %(n1)s, cards in hand"),
    "pairs[].melds": gettext_noop("side %(n1)s, melds"),
    "pairs[].melds[]": gettext_noop("side %(n1)s, meld %(n2)s"),
    "pairs[].hands": gettext_noop("side %(n1)s, cards in hand"),
    "pairs[].hands[]": gettext_noop("side %(n1)s, partner %(n2)s's cards in hand"),
}

WORDS = GameWords(
    options=OPTIONS,
    choices=CHOICES,
    counts=COUNTS,
    rule_titles=RULE_TITLES,
    rule_titles_with_options=RULE_TITLES_WITH_OPTIONS,
    refusals=REFUSALS,
    item_titles=ITEM_TITLES,
    item_titles_by_code=ITEM_TITLES_BY_CODE,
    fields=FIELDS,
)

"""The sentences of the engine's verdicts, before translation: one for each (rule, code) the
engine can refuse with, and one for each code of a move whose rule depends on the game.

``games.rules.text`` turns a verdict into its sentence in the request's language (and
re-exports these catalogues under their names).
"""

from typing import Any

from django.utils.translation import gettext_lazy

_ = gettext_lazy  # the sentences below are translated when shown, in the request's language

# (rule, code) -> sentence with %(param)s placeholders. A test checks that every (rule, code)
# the engine can raise is here, so no verdict reaches a player untranslated.
MESSAGES: dict[tuple[str, str], Any] = {
    ("CARD-1", "bad_card"): _("There is no such card (rank %(rank)s, suit %(suit)s)."),
    ("CARD-2", "too_many_copies"): _(
        "%(card)s appears %(count)s times, but the deck holds only %(limit)s."
    ),
    ("CARD-3", "unknown_token"): _(
        "“%(token)s” (card %(position)s) is not a card. Write cards like 7S, 10H, QD, AC or JK."
    ),
    # Both codes are for cards that differ in rank and in suit: say why neither kind fits.
    ("MELD-SET", "mixed_ranks"): _(
        "%(cards)s is neither a set (a set holds cards of one rank) nor a run (a run holds "
        "cards of one suit)."
    ),
    ("MELD-SET", "repeated_suit"): _("%(cards)s is not a set: a suit appears twice."),
    ("MELD-SET", "too_few"): _("%(cards)s: a set needs at least 3 cards."),
    ("MELD-SET", "empty"): _("A meld needs at least 3 cards; this one has none."),
    ("MELD-SET", "too_many"): _("%(cards)s is not a set: a set holds at most %(limit)s cards."),
    ("MELD-RUN", "gap"): _("%(cards)s is not a run: %(missing)s missing."),
    ("MELD-RUN", "mixed_suits"): _(
        "%(cards)s is neither a run (a run holds cards of one suit) nor a set (a set holds "
        "cards of one rank)."
    ),
    ("MELD-RUN", "repeated_rank"): _("%(cards)s is not a run: %(card)s appears twice."),
    ("MELD-RUN", "too_few"): _("%(cards)s: a run needs at least 3 cards."),
    ("ACE-LOW", "not_allowed"): _(
        "%(cards)s is not a run here: the ace may not come before the 2."
    ),
    ("ACE-HIGH", "not_allowed"): _("%(cards)s is not a run here: the ace may not follow the king."),
    ("ACE-WRAP", "not_allowed"): _(
        "%(cards)s is not a run: a run may not go round the corner (K-A-2)."
    ),
    ("GIN-SETUP", "no_jokers"): _("Gin Rummy is played without jokers: take out the JK."),
    ("RAM-OPT-NOJOKER", "no_jokers"): _(
        "This table plays without jokers (house rule): take out the JK."
    ),
    ("OPTIONS", "bad_value"): _("The option “%(option)s” cannot be %(value)s."),
    ("OPTIONS", "unknown_option"): _("This game has no option “%(option)s”."),
    ("GIN-SETUP", "bad_seat"): _("Gin Rummy has two seats: choose one of the two players."),
    ("GIN-SETUP", "players"): _("Gin Rummy is for 2 players, not %(count)s."),
    ("GIN-SETUP", "wrong_count"): _("Cards of %(player)s: %(count)s given, %(expected)s needed."),
    ("GIN-DEADWOOD", "bad_count"): _(
        "The count of %(player)s must be a whole number from 0 to 98."
    ),
    ("GIN-KNOCK", "over_limit"): _(
        "A knock needs a deadwood count of %(limit)s or less; this hand counts %(count)s."
    ),
    ("GIN-KNOCK", "unknown_ending"): _("A hand ends by knock, gin or Big Gin."),
    ("GIN-GIN", "deadwood"): _(
        "Gin needs every card in a meld; this hand has %(count)s points of deadwood."
    ),
    ("GIN-BIGGIN", "deadwood"): _(
        "Big Gin needs all 11 cards in melds; this hand has %(count)s points of deadwood."
    ),
    ("GIN-BIGGIN", "not_available"): _("This table does not play Big Gin."),
    ("GIN-OKLAHOMA", "not_played"): _(
        "This table does not play Oklahoma: the upcard %(card)s sets nothing here."
    ),
    ("GIN-OKLAHOMA", "upcard_needed"): _(
        "At an Oklahoma table the hand's first upcard sets the knock limit: give it."
    ),
    ("GIN-OKLAHOMA", "over_limit"): _(
        "The upcard %(card)s lets a knock keep %(limit)s or less; this hand counts %(count)s."
    ),
    ("GIN-SPADES", "needs_oklahoma"): _(
        "Spades double only at an Oklahoma table, where the upcard counts."
    ),
    ("GIN-HOLLYWOOD", "single_hand"): _(
        "Hollywood plays three games to a target, not a single hand."
    ),
    ("GIN-WALL", "not_enabled"): _(
        "This table plays without the wall rule: the hand goes on until someone knocks."
    ),
    ("GIN-MATCH", "bad_target"): _(
        "This match cannot be played to %(target)s; choose %(choices)s (1 is a single hand)."
    ),
    ("GIN-MATCH", "bad_totals"): _("A Gin match has two totals of 0 points or more."),
    ("GIN-MATCH", "both_reached"): _(
        "Both totals reached %(target)s: the match ended before the last hand."
    ),
    ("GIN-MATCH", "match_over"): _("The match is over; no more hands can be recorded."),
    ("EVENT", "bad_int"): _("“%(field)s” must be a whole number from %(low)s to %(high)s."),
    ("EVENT", "bad_seat"): _(
        "“%(field)s” must be a seat number: 0 for the first player up to %(high)s for the last "
        "(seats count from 0)."
    ),
    ("EVENT", "decided"): _("The director has decided this table: nothing more can be recorded."),
    ("EVENT", "not_finished"): _("The match is not over: its result cannot be confirmed yet."),
    ("EVENT", "already_confirmed"): _("%(name)s has already confirmed the result."),
    ("EVENT", "no_reason"): _("Say why: a decision is recorded with its reason."),
    ("EVENT", "no_points"): _(
        "An adjustment adds or takes some points: give a number other than 0."
    ),
    ("EVENT", "bad_points"): _(
        "“%(field)s” must give the victory points of every player, and only with the "
        "decision to score the table."
    ),
    ("EVENT", "bad_choice"): _("“%(field)s” must be one of: %(choices)s."),
    ("EVENT", "bad_text"): _("“%(field)s” must be text of at most %(max_length)s characters."),
    ("EVENT", "bad_cards"): _("“%(field)s” must be cards written like 7S 8S 9S."),
    ("EVENT", "bad_names"): _("Every player needs a name of 1 to 40 characters."),
    ("EVENT", "unknown_field"): _("Unknown field “%(field)s”; this entry takes: %(choices)s."),
    ("EVENT", "duplicate_player"): _("Two players have the same name."),
    ("EVENT", "no_such_hand"): _("There is no hand %(hand)s."),
    ("EVENT", "already_voided"): _("Hand %(hand)s is already void."),
    ("EVENT", "unknown_type"): _("Unknown event type “%(type)s”."),
    ("EVENT", "unknown_variant"): _("Unknown game “%(variant)s”."),
    ("EVENT", "event_id_reused"): _(
        "This entry's identifier was already used for another entry: reload the page and "
        "enter it again."
    ),
    ("EVENT", "already_created"): _("This table has already been created."),
    ("EVENT", "not_created"): _("A table's log must start with its creation."),
    ("EVENT", "bad_seq"): _("Events must follow each other."),
    ("EVENT", "empty_log"): _("The log is empty."),
    ("R40-OPEN", "below_minimum"): _(
        "The opening is worth %(value)s; the table's minimum is %(minimum)s."
    ),
    ("RAM-OPEN", "below_minimum"): _(
        "The opening is worth %(value)s; the table's minimum is %(minimum)s."
    ),
    # Going out (scoring.solver.can_go_out); the rule is the game's own.
    **{
        (rule, "cannot_go_out"): _(
            "These cards cannot go out: they cannot all be melded, apart from a discard "
            "where the game needs one."
        )
        for rule in ("R40-HAND", "RAM-OUT", "KR-OUT", "GIN-BIGGIN", "S40-CLOSE")
    },
    **{
        (rule, "joker_discard"): _(
            "These cards go out only by discarding a joker, and a joker may not be discarded."
        )
        for rule in ("R40-JOKER-DISCARD", "RAM-OPT-FIXEDJOKER")
    },
    # Points entry (scoring.scoresheet.end_state_problems builds these with the game's rule).
    **{
        (rule, "points_left"): _("%(player)s went out, so their hand is worth 0, not %(count)s.")
        for rule in ("R40-HAND", "RAM-OUT", "KR-OUT", "S40-CLOSE")
    },
    ("REFEREE", "no_cards"): _("Enter the cards of the hand."),
    ("REFEREE", "one_upcard"): _("Give one card as the upcard, such as 7S."),
    ("REFEREE", "bad_table"): _("The table before the move is not legal: %(cards)s."),
    ("REFEREE", "not_in_game"): _("This question does not arise in this game."),
    ("REFEREE", "unknown_variant"): _("Unknown game “%(variant)s”."),
    ("LIMITS", "too_many_cards"): _(
        "%(count)s cards in “%(field)s”: a hand of this game holds at most %(limit)s. "
        "Check the cards and send the hand again."
    ),
    ("LIMITS", "too_complex"): _(
        "These cards are too many to work out: no hand in play holds this many. "
        "Check the cards and send them again."
    ),
    ("GIN-KNOCK", "one_knocker"): _("Exactly one player ends a Gin hand: mark who knocked."),
    ("R40-SETUP", "players"): _("Rummy40 is for %(min)s or %(max)s players, not %(count)s."),
    ("RAM-SETUP", "players"): _("Ramino is for %(min)s to %(max)s players, not %(count)s."),
    ("KR-SETUP", "players"): _("Knock Rummy is for %(min)s to %(max)s players, not %(count)s."),
    ("R40-OPEN", "bad_minimum"): _(
        "Rummy40 cannot open with a minimum of %(value)s; choose one of: %(choices)s."
    ),
    ("R40-MATCH", "bad_target"): _(
        "This match cannot be played to %(target)s; choose %(choices)s (1 is a single hand)."
    ),
    ("RAM-MATCH", "bad_hands"): _("A Ramino table plays %(min)s to %(max)s hands, not %(hands)s."),
    ("KR-MATCH", "bad_target"): _(
        "A Knock Rummy game cannot end at %(target)s: choose %(min)s or more."
    ),
    ("KR-MATCH", "target_too_high"): _(
        "A Knock Rummy game ends at %(max)s at most, not %(target)s."
    ),
    ("RAM-OPT-SHORT", "opening"): _(
        "The short deck plays with no opening minimum; that cannot be switched off."
    ),
    ("RAM-OPT-SCALA40", "conflict"): _(
        "The 40-point opening cannot go with “%(option)s”, which has no opening minimum."
    ),
    ("RAM-OPT-FIXEDJOKER", "no_jokers"): _(
        "Fixed jokers need jokers, but this table plays without them."
    ),
    ("RAM-OPT-KNOCKCLAIM", "players"): _(
        "Knocking for the last discard needs %(min)s or more players, not %(count)s."
    ),
    ("R40-MATCH", "match_over"): _("The match is over; no more hands can be recorded."),
    ("RAM-MATCH", "match_over"): _("The match is over; no more hands can be recorded."),
    ("KR-MATCH", "match_over"): _("The game is over; no more rounds can be recorded."),
    ("R40-END", "flag_not_used"): _(
        "%(player)s is marked “%(flag)s”, which a Rummy40 hand does not have."
    ),
    ("R40-END", "two_out"): _(
        "Only one player can go out: the hand ends when the first one does "
        "(marked out: %(players)s)."
    ),
    ("R40-END", "not_ended"): _(
        "The hand ends when a player goes out or the stock runs out; neither is marked."
    ),
    ("R40-HAND", "cards_left"): _(
        "%(player)s went out by discarding the last card, so cannot still hold %(cards)s."
    ),
    ("R40-HAND", "empty_hand"): _(
        "%(player)s holds no card but did not go out: a player always keeps one in hand."
    ),
    ("R40-OPEN-PENALTY", "bad_count"): _(
        "The failed openings of %(player)s must be a whole number, 0 or more, not %(count)s."
    ),
    ("R40-OPEN-PENALTY", "no_minimum"): _(
        "This table has no opening minimum, so %(player)s cannot have opened too low."
    ),
    ("RAM-OUT", "flag_not_used"): _(
        "%(player)s is marked “%(flag)s”, which a Ramino hand does not have."
    ),
    ("RAM-OUT", "two_out"): _(
        "Only one player can go out: the hand ends when the first one does "
        "(marked out: %(players)s)."
    ),
    ("RAM-OUT", "not_ended"): _(
        "The hand ends when a player goes out or the stock runs out; neither is marked."
    ),
    ("RAM-OUT", "cards_left"): _("%(player)s went out, so cannot still hold %(cards)s."),
    ("RAM-OUT", "empty_hand"): _("%(player)s holds no card, so went out: mark it."),
    ("RAM-HANDCLOSE", "not_out"): _(
        "Only the player who goes out can close in hand; %(player)s did not go out."
    ),
    ("KR-SCORE", "flag_not_used"): _(
        "%(player)s is marked “%(flag)s”, which a Knock Rummy round does not have."
    ),
    ("KR-KNOCK", "two_knockers"): _(
        "Only one player can knock: the round ends at the first knock "
        "(marked as knocking: %(players)s)."
    ),
    ("KR-KNOCK", "not_ended"): _(
        "A round ends with a knock or when the stock is used up; neither is marked."
    ),
    ("KR-KNOCK", "over_limit"): _(
        "A knock needs %(limit)s points or fewer in hand; %(player)s holds %(count)s."
    ),
    ("KR-OUT", "cards_left"): _(
        "%(player)s played all their cards, so cannot still hold %(cards)s."
    ),
    ("KR-OUT", "empty_hand"): _("%(player)s holds no card, so played them all: mark it."),
    ("CARD-3", "declaration_on_natural"): _(
        "“%(token)s” (card %(position)s): only a joker says which card it stands for."
    ),
    ("JOKER-1", "bad_declaration"): _(
        "In %(cards)s the joker at position %(position)s cannot stand for %(card)s."
    ),
    ("JOKER-1", "no_natural"): _("%(cards)s is not a meld: jokers need at least one natural card."),
    ("MELD-RUN", "too_many"): _("%(cards)s is not a run: a run holds at most %(limit)s cards."),
    ("R40-RUNS", "too_many_jokers"): _(
        "%(cards)s has %(count)s jokers; a meld holds at most %(limit)s."
    ),
    # Scala 40 (S40-*). The shared checks build some with the game's rule: the players,
    # the flags, the cards of who closed, the opening, the jokers of a meld.
    ("S40-SETUP", "players"): _("Scala 40 is for %(min)s to %(max)s players, not %(count)s."),
    ("S40-SCORE", "flag_not_used"): _(
        "%(player)s is marked “%(flag)s”, which a Scala 40 hand does not have."
    ),
    ("S40-CLOSE", "cards_left"): _(
        "%(player)s went out by discarding the last card, so cannot still hold %(cards)s."
    ),
    ("S40-CLOSE", "empty_hand"): _(
        "%(player)s holds no card but did not go out: a player always keeps one in hand."
    ),
    ("S40-OPEN", "below_minimum"): _(
        "The opening is worth %(value)s; the table's minimum is %(minimum)s."
    ),
    ("S40-JOKER", "too_many_jokers"): _(
        "%(cards)s has %(count)s jokers; a meld holds at most %(limit)s."
    ),
    ("S40-MATCH", "bad_target"): _(
        "A Scala 40 match cannot be played to %(target)s; choose %(choices)s."
    ),
    ("S40-REENTRY", "bad_reentries"): _("A player re-enters 0 to %(max)s times, not %(value)s."),
    ("S40-OPEN-PENALTY", "bad_penalty"): _(
        "A failed opening costs 0 to %(max)s points, not %(value)s."
    ),
    ("S40-OPEN-PENALTY", "bad_count"): _(
        "The failed openings of %(player)s must be a whole number, 0 or more, not %(count)s."
    ),
    ("S40-HANDCLOSE", "not_out"): _(
        "Only the player who closes can close in hand; %(player)s did not close."
    ),
    ("S40-CLOSE", "two_out"): _(
        "Only one player can close: the hand ends when the first one does."
    ),
    ("S40-CLOSE", "not_ended"): _(
        "The hand ends when a player closes, or when the stock cannot be made again; "
        "neither happened."
    ),
    ("S40-MATCH", "match_over"): _("The match is over; no more hands can be recorded."),
    ("S40-MATCH", "too_few_in"): _("A hand is played by two players or more still in the match."),
    ("S40-MATCH", "sat_out_played"): _(
        "%(player)s sat this hand out, so holds, melds and marks nothing."
    ),
    ("S40-MATCH", "is_out"): _(
        "%(player)s has been out of the match since hand %(hand)s: mark them as sitting out."
    ),
    ("S40-MATCH", "is_in"): _("%(player)s is still in the match and plays hand %(hand)s."),
    ("S40-REENTRY", "nothing_to_decline"): _(
        "%(player)s has no re-entry to decline after hand %(hand)s: only a player who reaches "
        "the limit while a re-entry is allowed can decline it."
    ),
    ("S40-MATCH", "dealer_out"): _("%(player)s is out of the match and cannot deal."),
    ("RAM-JOKER", "too_many_jokers"): _(
        "%(cards)s has more jokers (%(jokers)s) than natural cards (%(naturals)s)."
    ),
    ("RAM-OPT-FIXEDGROUPS", "joker_place"): _(
        "%(cards)s is not a set here: no suit is left for the joker at position "
        "%(position)s in the order ♣ ♠ ♥ ♦."
    ),
    ("RAM-OPT-FIXEDGROUPS", "gap"): _(
        "%(cards)s is not a set here: the suits must follow the order ♣ ♠ ♥ ♦, without gaps."
    ),
    ("RAM-OPT-FIXEDJOKER", "adjacent_jokers"): _(
        "%(cards)s: two jokers may not stand side by side in a meld."
    ),
    ("KR-MANIP", "card_left_table"): _(
        "%(card)s was on the table and is missing now: no card may leave the table."
    ),
    ("KR-MANIP", "nothing_added"): _(
        "A melding turn must add at least one card from the hand to the table."
    ),
    ("KR-MELDING", "not_in_hand"): _(
        "%(card)s was put on the table %(count)s times, but the hand held %(held)s."
    ),
    ("KR-MELDING", "first_meld"): _(
        "The first to meld must lay at least one legal set or run of 3 or more cards."
    ),
    ("KR-JOKER", "declaration_changed"): _(
        "A joker stood for %(card)s and now stands for another card, but no %(card)s "
        "took its place."
    ),
    ("KR-JOKER", "joker_not_reused"): _(
        "A joker replaced by its real card must be used again this turn, in a legal meld, "
        "for a new card; jokers not reused: %(count)s."
    ),
    # Moves of a hand played move by move (scoring/play/).
    ("EVENT", "bad_melds"): _("“%(field)s” must be a list of 1 to %(max)s melds."),
    ("EVENT", "bad_players"): _("“%(field)s” must hold one entry per seat."),
    ("EVENT", "one_card"): _("“%(field)s” must be exactly one card, such as 7S."),
    ("EVENT", "no_melds"): _("There is no meld on the table yet."),
    ("EVENT", "missing_hand"): _("“%(field)s”: give the cards this player holds."),
    ("EVENT", "known_hand"): _("“%(field)s”: leave it empty, this hand is already known."),
    ("EVENT", "hand_in_play"): _(
        "A hand is being played move by move: finish it, or take its moves back."
    ),
    ("EVENT", "no_hand_in_play"): _("No hand is being played: deal one first."),
    ("EVENT", "nothing_to_undo"): _("No move of this hand is left to take back."),
    ("GIN-KNOCK", "wrong_count"): _(
        "%(player)s holds %(expected)s cards: show them all, the discard aside (%(count)s given)."
    ),
    ("GIN-BIGGIN", "not_all_melded"): _(
        "Big Gin needs all 11 cards in melds; these leave %(count)s in deadwood."
    ),
}

# Verdicts on moves whose rule depends on the game (its turn rule, opening rule, ...): the
# sentence is the same whatever rule the table's game cites, so it is keyed by code alone.
MOVE_MESSAGES: dict[str, Any] = {
    "not_your_turn": _("It is %(turn)s's turn, not %(player)s's."),
    "hand_over": _("The hand is over: show the hands left (or take back the last move)."),
    "hand_not_over": _("The hands are shown when the hand is over."),
    "not_in_hand": _("%(card)s is not in %(player)s's hand, whose cards are all known: %(cards)s."),
    "draw_first": _("%(player)s must draw first."),
    "already_drawn": _("One draw per turn: %(player)s now discards."),
    "third_draw": _("After the third draw the turn is over: no more cards."),
    "drew_after_meld": _("After melding, the turn draws no more cards."),
    "draw_again": _("%(player)s drew %(draws)s and did not meld: draw another card."),
    "no_meld_after_third": _("After the third draw a player may not meld this turn."),
    "empty_discard": _("The discard pile is empty."),
    "pile_unused": _(
        "%(player)s took the discard pile: they must meld or add a card this turn before "
        "discarding."
    ),
    "not_the_top": _("The top of the discard pile is %(top)s, not %(card)s."),
    "stock_empty": _("The stock is empty."),
    "stock_out": _("The stock is used up: this last turn is for melding only."),
    "cannot_pass": _("A turn is passed only on Gin's first turn or to end a Knock Rummy turn."),
    "no_discard_pile": _("Knock Rummy has no discard pile."),
    "no_adds": _("Cards are added to this table's melds by rearranging it."),
    "no_swaps": _("A table joker cannot be swapped in this game."),
    "no_rearranging": _("Only Knock Rummy's table may be rearranged."),
    "no_knock": _("This game does not end by knocking."),
    # Refused under the rule a game's play rules name (its knock's, its first turn's, ...);
    # the game's own (rule, code) sentence above comes first where it has one.
    "before_turn": _("A player knocks after playing their turn."),
    "over_limit": _("A knock may keep %(limit)s or less; these cards count %(count)s."),
    "not_available": _("This table does not play a knock without a discard."),
    "not_all_melded": _(
        "A knock without a discard needs every card in melds; these leave %(count)s in deadwood."
    ),
    "stock_on_first_turn": _(
        "On the first turn %(player)s may take the face-up card or pass, not draw from the stock."
    ),
    "both_passed": _("Both players passed the face-up card: the first draw is from the stock."),
    "rediscard": _("%(card)s was just taken from the discard pile: it cannot go back this turn."),
    "joker_discard": _("At this table jokers are never discarded."),
    "joker_before_opening": _(
        "%(player)s has not opened: a joker may not be discarded before opening."
    ),
    "joker_last": _("A joker may never be the last card discarded to close."),
    "joker_unused": _("%(player)s took a joker this turn and must use it in a meld first."),
    "keep_one": _(
        "%(player)s must keep a card to discard: a player goes out by discarding the last card."
    ),
    "below_minimum": _("An opening needs %(minimum)s points; these melds make %(value)s."),
    "not_opened": _("%(player)s has not opened yet: first lay an opening."),
    "not_own_meld": _(
        "At this table a player adds only to their own melds; meld %(meld)s is %(owner)s's."
    ),
    "no_such_joker": _("No joker in meld %(meld)s stands for %(card)s."),
    "set_of_three": _("A joker can be taken from a set only when the set holds 4 cards."),
    "attachable": _(
        "%(card)s can go on meld %(meld)s: it may not be discarded unless it is the last card."
    ),
    # Knocking for the last discard (PlayRules.knock_claim; refused under the turn rule where
    # the game has no such rule).
    "not_on": _("Claiming a discard by knocking is a house rule this table does not play."),
    "too_late": _("Only the last discard can be claimed, before the next player draws."),
    "own_discard": _("%(player)s cannot claim their own discard."),
    "own_turn": _("It is %(player)s's turn: they simply draw the discard."),
    "wrong_count": _("%(player)s holds %(expected)s cards, not %(count)s."),
    "known_missing": _("%(player)s took %(cards)s during the hand: the cards shown must hold it."),
    # Cited under the game's own rule (PlayRules.pickup_rule, bonus_rule) where it has no
    # sentence of its own.
    "pickup_unused": _(
        "%(player)s took %(card)s from the discard pile: it must go on the table this turn."
    ),
    "pickup_not_opened": _(
        "%(player)s took %(card)s from the discard pile: it must go on the table this turn, "
        "in the melds that open."
    ),
    "replacement_owed": _(
        "%(player)s laid down a bonus card: draw its replacement from the stock first."
    ),
    "replacement_from_stock": _(
        "%(player)s laid down a bonus card: its replacement is drawn from the stock."
    ),
    "red_three_kept": _(
        "%(card)s is a bonus card: it is laid down at once, never kept nor discarded."
    ),
}
del _

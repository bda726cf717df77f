"""Sentences for the engine's verdicts, in the request's language.

The engine (``scoring``) cannot use gettext: it returns a rule ID, a sub-case code and
parameters. This module turns them into a translated sentence; the rule ID is always shown
beside it so a dispute at the table can end with "rule GIN-KNOCK says…".
"""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from scoring.errors import Violation

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
    ("MELD-SET", "mixed_ranks"): _("%(cards)s is not a set: a set holds cards of one rank."),
    ("MELD-SET", "repeated_suit"): _("%(cards)s is not a set: a suit appears twice."),
    ("MELD-SET", "too_few"): _("%(cards)s: a set needs at least 3 cards."),
    ("MELD-SET", "too_many"): _("%(cards)s is not a set: a set holds at most %(limit)s cards."),
    ("MELD-RUN", "gap"): _("%(cards)s is not a run: %(missing)s missing."),
    ("MELD-RUN", "mixed_suits"): _("%(cards)s is not a run: a run holds cards of one suit."),
    ("MELD-RUN", "repeated_rank"): _("%(cards)s is not a run: %(card)s appears twice."),
    ("MELD-RUN", "too_few"): _("%(cards)s: a run needs at least 3 cards."),
    ("ACE-LOW", "not_allowed"): _(
        "%(cards)s is not a run here: the ace may not come before the 2."
    ),
    ("ACE-HIGH", "not_allowed"): _("%(cards)s is not a run here: the ace may not follow the king."),
    ("ACE-WRAP", "not_allowed"): _(
        "%(cards)s is not a run: a run may not go round the corner (K-A-2)."
    ),
    ("JOKER-1", "unsupported"): _("This game has no jokers."),
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
    ("GIN-BIGGIN", "not_available"): _("Big Gin is not played at a Classic table."),
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
    ("EVENT", "event_id_reused"): _("This event_id was already used for a different event."),
    ("EVENT", "already_created"): _("This table has already been created."),
    ("EVENT", "not_created"): _("A table's log must start with its creation."),
    ("EVENT", "bad_seq"): _("Events must follow each other."),
    ("EVENT", "empty_log"): _("The log is empty."),
}
del _


def violation_text(violation: Violation) -> str:
    """Return the violation as a sentence in the active language."""
    template = MESSAGES.get((violation.rule, violation.code))
    if template is None:
        return violation.message
    params = _display_params(violation.params)
    try:
        text = str(template) % params
    except (TypeError, ValueError):
        return violation.message
    if "field" in violation.params and "%(field)s" not in str(template):
        # Say which part of the entry is meant, e.g. "defender's cards: 9C appears twice".
        text = f"{params['field']}: {text}"
    return text


class _Shown(dict):
    """Parameters for a sentence; one the engine did not send shows as nothing."""

    def __missing__(self, key: str) -> str:
        return ""


def _display_params(params: Mapping[str, Any]) -> dict[str, Any]:
    shown = _Shown(params)
    for key, value in params.items():
        if isinstance(value, list | tuple):
            shown[key] = " ".join(str(v) for v in value)
        if key == "player":
            shown[key] = PLAYERS.get(value, value)
        if key == "field":
            shown[key] = FIELD_NAMES.get(value, value)
    return shown


def violation_dict(violation: Violation) -> dict[str, Any]:
    """Return the JSON form the API answers with."""
    return {
        "rule": violation.rule,
        "code": violation.code,
        "message": violation_text(violation),
        "params": dict(violation.params),
    }


PLAYERS = {"knocker": gettext_lazy("the knocker"), "defender": gettext_lazy("the defender")}

FIELD_NAMES = {
    "knocker_cards": gettext_lazy("knocker's cards"),
    "defender_cards": gettext_lazy("defender's cards"),
    "knocker_count": gettext_lazy("knocker's count"),
    "defender_count": gettext_lazy("defender's count"),
    "knocker": gettext_lazy("who ended the hand"),
    "ending": gettext_lazy("how the hand ended"),
    "mode": gettext_lazy("entry mode"),
    "hand": gettext_lazy("hand number"),
    "seats": gettext_lazy("players"),
    "reason": gettext_lazy("reason"),
}


# What each score item is for, by the rule that awards it.
ITEM_TITLES = {
    "GIN-SCORE-KNOCK": gettext_lazy("the difference in counts after a knock"),
    "GIN-UNDERCUT": gettext_lazy("undercut"),
    "GIN-SCORE-GIN": gettext_lazy("the defender's count, after gin"),
    "GIN-GIN": gettext_lazy("gin bonus"),
    "GIN-BIGGIN": gettext_lazy("Big Gin bonus"),
    "GIN-WALL": gettext_lazy("wall: no score"),
}


def item_text(item: Mapping[str, Any], seats: list[str]) -> str:
    """Say who got how many points for what, e.g. 'Anna +25: gin bonus'."""
    seat = item.get("seat")
    who = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else ""
    title = ITEM_TITLES.get(item.get("rule", ""), item.get("rule", ""))
    return gettext("%(who)s %(points)+d: %(title)s") % {
        "who": who,
        "points": item.get("points", 0),
        "title": title,
    }

"""Sentences for the engine's verdicts, in the request's language.

The engine (``scoring``) cannot use gettext: it returns a rule ID, a sub-case code and
parameters. This module turns them into a translated sentence; the rule ID is always shown
beside it so a dispute at the table can end with "rule GIN-KNOCK says…". The sentences
themselves are in ``games.rules.verdicts`` (MOVE_MESSAGES, and MESSAGES, which this module
exports with every game's own refusal sentences over it: GameRules.words, scoring/words.py).
Rule titles and score items' titles are looked up the same way: the game's words first.
"""

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from games.rules import verdicts
from games.rules.card_text import cards_label
from games.rules.game_words import option_label, value_text
from games.rules.own_words import WithGamesWords, game_of_rule, own_field_name, own_word
from games.rules.reference import rule_url
from games.rules.verdicts import MOVE_MESSAGES
from scoring.errors import Violation
from scoring.game import BOOL
from scoring.variants import GAMES

# (rule, code) -> sentence: each game's own refusals (GameWords.refusals), then the
# catalogue's (games/rules/verdicts.py).
MESSAGES = WithGamesWords(verdicts.MESSAGES, "refusals")


def violation_text(violation: Violation) -> str:
    """Return the violation as a sentence in the active language."""
    template = MESSAGES.get((violation.rule, violation.code)) or MOVE_MESSAGES.get(violation.code)
    if template is None:
        return violation.message
    params = _display_params(violation.params, violation.rule)
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


# The parameters that hold cards: a player reads them with their suit symbols (7♠, not 7S).
_CARD_PARAMS = frozenset({"card", "cards", "top", "missing"})


def _display_params(params: Mapping[str, Any], rule: str = "") -> dict[str, Any]:
    shown = _Shown(params)
    for key, value in params.items():
        if isinstance(value, list | tuple):
            shown[key] = " ".join(str(v) for v in value)
        if key in _CARD_PARAMS and isinstance(value, str | list | tuple):
            shown[key] = cards_label(value)
        if key == "player":
            shown[key] = PLAYERS.get(value, value)
        if key == "field" and isinstance(value, str):
            shown[key] = field_name(value, rule)
    return shown


def violation_dict(violation: Violation, request=None) -> dict[str, Any]:
    """Return the JSON form the API answers with; ``rule_url`` is absolute given the request."""
    url = rule_url(violation.rule)
    return {
        "rule": violation.rule,
        "rule_url": request.build_absolute_uri(url) if request is not None else url,
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
    "upcard": gettext_lazy("face-up card"),
    "cards": gettext_lazy("cards"),
}
# A seat's part of an entry or a question, players[0].hand: "player 1, cards in hand".
SEAT_FIELD = re.compile(r"^players\[(\d+)\]\.(\w+)$")
SEAT_PARTS = {
    "hand": gettext_lazy("cards in hand"),
    "melded": gettext_lazy("cards melded"),
    "points": gettext_lazy("points in hand"),
}


def field_name(field: str, rule: str = "") -> str:
    """Return an entry's field as the reader calls it, in the active language: the words of
    the game whose ``rule`` refused it first (its own entry's fields)."""
    own = own_field_name(game_of_rule(rule), field)
    if own is not None:
        return own
    seat = SEAT_FIELD.match(field)
    if seat and seat[2] in SEAT_PARTS:
        return gettext("player %(number)s, %(part)s") % {
            "number": int(seat[1]) + 1,
            "part": SEAT_PARTS[seat[2]],
        }
    return str(FIELD_NAMES.get(field, field))


# What each score item is for, by the rule that awards it.
_ITEM_TITLES = {
    "GIN-SCORE-KNOCK": gettext_lazy("the difference in counts after a knock"),
    "GIN-UNDERCUT": gettext_lazy("undercut"),
    "GIN-SCORE-GIN": gettext_lazy("the defender's count, after gin"),
    "GIN-GIN": gettext_lazy("gin bonus"),
    "GIN-BIGGIN": gettext_lazy("Big Gin bonus"),
    "GIN-WALL": gettext_lazy("wall: no score"),
    "GIN-SPADES": gettext_lazy("spade upcard: the hand counts double"),
    "GIN-GAME": gettext_lazy("game bonus"),
    "GIN-BOX": gettext_lazy("box bonus, %(bonus)s for each hand won (%(hands)s)"),
    "GIN-SHUTOUT": gettext_lazy("shutout: the hand points and game bonus again"),
    "R40-END": gettext_lazy("cards left in hand"),
    "R40-OPEN-PENALTY": gettext_lazy("penalty for an opening below the minimum"),
    "RAM-SCORE": gettext_lazy("cards left in hand, won by who went out"),
    "RAM-STOCK": gettext_lazy("stock ran out: cards left in hand"),
    "RAM-OPT-CASINO": gettext_lazy("casino scoring: the winner's melded cards"),
    "RAM-HANDCLOSE": gettext_lazy("closed in hand: points doubled"),
    "KR-SCORE": gettext_lazy("the difference to the other hands"),
    "KR-UNDERCUT": gettext_lazy("undercut bonus"),
    "KR-OUT": gettext_lazy("bonus for holding no cards"),
    "S40-SCORE": gettext_lazy("cards left in hand"),
    "S40-STOCK": gettext_lazy("stock ran out: cards left in hand"),
    "S40-HANDCLOSE": gettext_lazy("closed in hand: points doubled"),
    "S40-OPEN-PENALTY": gettext_lazy("penalty for an opening below the minimum"),
    "S40-MATCH": gettext_lazy("out of the match: sat the hand out"),
    "S40-REENTRY": gettext_lazy("re-entry at the highest score still in"),
    "KR-MATCH": gettext_lazy("end-of-game bonus"),
}
# An item whose code changes what it is for (GIN-SHUTOUT: what the table's reading doubles).
_ITEM_TITLES_BY_CODE = {
    ("GIN-SHUTOUT", "double_game_bonus"): gettext_lazy("shutout: the game bonus again"),
    ("GIN-SHUTOUT", "double_hand_points"): gettext_lazy("shutout: the hand points again"),
    ("S40-REENTRY", "declined"): gettext_lazy("re-entry declined: out of the match"),
}
# With the games' own titles over them (GameWords.item_titles, item_titles_by_code).
ITEM_TITLES = WithGamesWords(_ITEM_TITLES, "item_titles")
ITEM_TITLES_BY_CODE = WithGamesWords(_ITEM_TITLES_BY_CODE, "item_titles_by_code")


def item_text(item: Mapping[str, Any], seats: list[str]) -> str:
    """Say who got how many points for what, e.g. 'Anna +25: gin bonus'."""
    seat = item.get("seat")
    who = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else ""
    params = item.get("params") or {}
    shared = params.get("seats") if seat is None else None
    if isinstance(shared, list) and all(isinstance(s, int) and 0 <= s < len(seats) for s in shared):
        # An item of a side's score (Burraco's pairs): its partners, once each (a board's
        # seat_labels already name the side at every partner's seat).
        who = " & ".join(dict.fromkeys(seats[s] for s in shared))
    rule = item.get("rule", "")
    title = str(ITEM_TITLES_BY_CODE.get((rule, item.get("code"))) or ITEM_TITLES.get(rule, rule))
    if "%(" in title:
        # A title that names the item's own figures (GIN-BOX: the hands won).
        title = title % _Shown(params)
    if params.get("game"):
        # One of the games on a Hollywood sheet (GIN-HOLLYWOOD).
        title = gettext("%(title)s (game %(game)s)") % {"title": title, "game": params["game"]}
    return gettext("%(who)s %(points)+d: %(title)s") % {
        "who": who,
        "points": item.get("points", 0),
        "title": title,
    }


# Every rule of docs/rules.md in a few words, shown beside its ID wherever a verdict cites it.
RULE_TITLES = {
    "CARD-1": gettext_lazy("Cards: ranks A to K in four suits, and jokers"),
    "CARD-2": gettext_lazy("No card more often than the decks hold"),
    "CARD-3": gettext_lazy("How cards are written"),
    "MELD-SET": gettext_lazy("A set: 3 or 4 cards of one rank, each suit once"),
    "MELD-RUN": gettext_lazy("A run: 3 or more cards of one suit in sequence"),
    "ACE-LOW": gettext_lazy("The ace may start a run: A-2-3"),
    "ACE-HIGH": gettext_lazy("The ace may end a run: Q-K-A, where the game allows"),
    "ACE-WRAP": gettext_lazy("No runs round the corner (K-A-2) unless circular runs are on"),
    "JOKER-1": gettext_lazy("A joker stands for exactly one card"),
    "VALUE": gettext_lazy("Opening value: ace 1 low, 11 high or in a set; a joker as its card"),
    "GIN-SETUP": gettext_lazy("Gin: 2 players, one deck, 10 cards each"),
    "GIN-FIRST": gettext_lazy("Gin: the first turn takes or passes the face-up card"),
    "GIN-TURN": gettext_lazy("Gin: draw one card, then discard one"),
    "GIN-NOREDISCARD": gettext_lazy("Gin: a card taken from the discards is not discarded at once"),
    "GIN-MELDS": gettext_lazy("Gin melds: sets and runs, ace low only"),
    "GIN-VALUE": gettext_lazy("Gin values: ace 1, 2–10 face value, J Q K 10"),
    "GIN-DEADWOOD": gettext_lazy("Deadwood: the cards in no meld, counted the lowest way"),
    "GIN-KNOCK": gettext_lazy("Knock with 10 or less deadwood"),
    "GIN-GIN": gettext_lazy("Gin: all 10 cards melded, bonus 25"),
    "GIN-BIGGIN": gettext_lazy("Big Gin: all 11 cards melded, bonus 31"),
    "GIN-LAYOFF": gettext_lazy("After a knock the defender lays off onto the knocker's melds"),
    "GIN-SCORE-KNOCK": gettext_lazy("A winning knock scores the difference"),
    "GIN-UNDERCUT": gettext_lazy(
        "Undercut: the defender's lower count wins the difference + bonus"
    ),
    "GIN-SCORE-GIN": gettext_lazy("Gin scores its bonus + the defender's count"),
    "GIN-WALL": gettext_lazy("Wall: with 2 cards left in the stock the hand is void"),
    "GIN-MATCH": gettext_lazy("Gin match: the first to reach the target wins"),
    "GIN-GAME": gettext_lazy("Gin: the game bonus to who reached the target"),
    "GIN-BOX": gettext_lazy("Gin: a box bonus for every hand won"),
    "GIN-SHUTOUT": gettext_lazy("Gin shutout: the loser scored nothing, the winner doubles"),
    "GIN-OKLAHOMA": gettext_lazy("Oklahoma: the upcard sets the most a knock may keep"),
    "GIN-SPADES": gettext_lazy("Oklahoma: a spade upcard doubles the hand"),
    "GIN-HOLLYWOOD": gettext_lazy("Hollywood: three games scored on one sheet"),
    "R40-SETUP": gettext_lazy("Rummy40: 2 or 4 players, decks and jokers, 10 cards each"),
    "R40-OPEN": gettext_lazy("Rummy40: first melds worth at least the opening minimum"),
    "R40-OPEN-PENALTY": gettext_lazy("Rummy40: 20 penalty points for an opening below the minimum"),
    "R40-TURN": gettext_lazy("Rummy40: draw, meld once opened, discard"),
    "R40-ADD": gettext_lazy("Rummy40: after opening, add cards to melds"),
    "R40-RUNS": gettext_lazy("Rummy40 runs: ace low or high, at most one joker per meld"),
    "R40-JOKER-STEAL": gettext_lazy("Rummy40: a joker taken must be used in the same turn"),
    "R40-JOKER-DISCARD": gettext_lazy("Rummy40: no joker discarded before opening or to close"),
    "R40-HAND": gettext_lazy("Rummy40: keep a card in hand; go out by discarding the last"),
    "R40-VALUE": gettext_lazy("Rummy40 penalties: ace 1, 2–10 face, J Q K 10, joker 25"),
    "R40-END": gettext_lazy("Rummy40: the others add the cards left in hand"),
    "R40-MATCH": gettext_lazy("Rummy40 match: the limit decides who loses or wins"),
    "RAM-SETUP": gettext_lazy("Ramino: two decks and 6 jokers, 13 cards each"),
    "RAM-TURN": gettext_lazy("Ramino: draw, act, end by discarding"),
    "RAM-SET": gettext_lazy("Ramino sets: 3 or 4 cards of one rank, each suit once"),
    "RAM-RUN": gettext_lazy("Ramino runs: 3 to 13 cards; the ace at either end, never inside"),
    "RAM-JOKER": gettext_lazy("Ramino: never more jokers than natural cards in a meld"),
    "RAM-OPEN": gettext_lazy("Ramino: open with 3+ cards worth 30 or more"),
    "RAM-ADD": gettext_lazy("Ramino: after opening, add to any meld"),
    "RAM-JOKER-SWAP": gettext_lazy("Ramino: swap a table joker for the card it stands for"),
    "RAM-OUT": gettext_lazy("Ramino: meld everything, discard the last card"),
    "RAM-STOCK": gettext_lazy("Ramino: stock out, everyone loses their hand's value"),
    "RAM-VALUE": gettext_lazy("Ramino values: 2–9 face, 10 J Q K 10, ace 11, joker 20"),
    "RAM-SCORE": gettext_lazy("Ramino: the others lose their hands, the winner gains it all"),
    "RAM-HANDCLOSE": gettext_lazy("Ramino: going out in one turn doubles the hand"),
    "RAM-MATCH": gettext_lazy("Ramino match: after the chosen hands, the highest total wins"),
    "S40-SETUP": gettext_lazy("Scala 40: 2 to 6 players, two decks and 4 jokers, 13 cards each"),
    "S40-TURN": gettext_lazy("Scala 40: draw, play once opened, discard"),
    "S40-MELDS": gettext_lazy("Scala 40 melds: sets of 3 or 4, runs with the ace at either end"),
    "S40-JOKER": gettext_lazy(
        "Scala 40: one joker a meld; a set's joker by hearts, diamonds, clubs, spades"
    ),
    "S40-OPEN": gettext_lazy("Scala 40: first melds worth 40 or more"),
    "S40-OPEN-PENALTY": gettext_lazy("Scala 40: a short opening goes back and costs a penalty"),
    "S40-PICKUP": gettext_lazy("Scala 40: the discard taken goes on the table that turn"),
    "S40-ADD": gettext_lazy("Scala 40: after opening, add to any meld"),
    "S40-JOKER-SWAP": gettext_lazy("Scala 40: a joker taken is played again that turn"),
    "S40-DISCARD": gettext_lazy("Scala 40: no discarding a card the table takes"),
    "S40-CLOSE": gettext_lazy("Scala 40: meld all but one card, close by discarding it"),
    "S40-HANDCLOSE": gettext_lazy("Scala 40: closing in hand needs no 40 and doubles the others"),
    "S40-STOCK": gettext_lazy("Scala 40: the discards become the stock again"),
    "S40-VALUE": gettext_lazy("Scala 40 penalties: ace 11, 2–10 face, J Q K 10, joker 25"),
    "S40-SCORE": gettext_lazy("Scala 40: the others add the cards left in hand"),
    "S40-MATCH": gettext_lazy("Scala 40 match: out at the limit; the last one in wins"),
    "S40-REENTRY": gettext_lazy("Scala 40: re-enter at the highest score still in"),
    "RAM-OPT-SHORT": gettext_lazy("Short deck: one deck and 3 jokers"),
    "RAM-OPT-SCALA40": gettext_lazy("Opening minimum 40"),
    "RAM-OPT-NOOPEN": gettext_lazy("No opening minimum"),
    "RAM-OPT-CIRCULAR": gettext_lazy("Circular runs: K-A-2 allowed"),
    "RAM-OPT-NOJOKER": gettext_lazy("No jokers"),
    "RAM-OPT-FIXEDJOKER": gettext_lazy("Fixed jokers: never discarded, never side by side"),
    "RAM-OPT-FIXEDGROUPS": gettext_lazy("Fixed groups: set suits in the order ♣ ♠ ♥ ♦"),
    "RAM-OPT-KNOCKCLAIM": gettext_lazy("Knock to claim the last discard out of turn"),
    "RAM-OPT-NODISCARDWIN": gettext_lazy("Go out without a final discard"),
    "RAM-OPT-CASINO": gettext_lazy("Casino scoring: melded cards count for the winner"),
    "RAM-OPT-PRACTICE": gettext_lazy("Practice table: never counted in standings"),
    "KR-SETUP": gettext_lazy("Knock Rummy: 2–5 players, 10 cards each, no discard pile"),
    "KR-TURN": gettext_lazy("Knock Rummy: draw up to three cards while not melding"),
    "KR-MELDS": gettext_lazy("Knock Rummy melds: ace low or high, never round the corner"),
    "KR-MELDING": gettext_lazy("Knock Rummy: every table card in a legal meld at turn end"),
    "KR-MANIP": gettext_lazy("Knock Rummy: add a card from hand; no card leaves the table"),
    "KR-JOKER": gettext_lazy("Knock Rummy: a joker keeps its card until replaced, then reused"),
    "KR-VALUE": gettext_lazy("Knock Rummy values: joker 25, J Q K 10, 2–10 face, ace 1"),
    "KR-KNOCK": gettext_lazy("Knock Rummy: knock with 5 points or fewer in hand"),
    "KR-SCORE": gettext_lazy("Knock Rummy: the fewest points in hand wins the round"),
    "KR-UNDERCUT": gettext_lazy("Knock Rummy: a winner who did not knock gets 10"),
    "KR-OUT": gettext_lazy("Knock Rummy: winning with no cards left gets 25"),
    "KR-STOCK": gettext_lazy("Knock Rummy: stock used up, one more turn each"),
    "KR-MATCH": gettext_lazy("Knock Rummy match: 150 ends it; bonuses 100 and 25 per round"),
    "EVENT": gettext_lazy("The entry itself"),
    "OPTIONS": gettext_lazy("The table's options"),
    "REFEREE": gettext_lazy("The question"),
}


# Titles that name a number the table chooses: shown with the table's own value when the
# options are known (the referee's "Rules applied", a table's rules), else the plain title.
RULE_TITLES_WITH_OPTIONS = {
    "GIN-GIN": gettext_lazy("Gin: all 10 cards melded, bonus %(gin_bonus)s"),
    "GIN-BIGGIN": gettext_lazy("Big Gin: all 11 cards melded, bonus %(big_gin_bonus)s"),
    "GIN-GAME": gettext_lazy("Gin: a game bonus of %(game_bonus)s to who reached the target"),
    "GIN-BOX": gettext_lazy("Gin: a box bonus of %(box_bonus)s for every hand won"),
    "R40-OPEN": gettext_lazy("Rummy40: first melds worth at least %(opening_minimum)s"),
    "RAM-OPEN": gettext_lazy("Ramino: open with 3+ cards worth %(opening_minimum)s or more"),
    "KR-MATCH": gettext_lazy("Knock Rummy match: %(target)s ends it; bonuses 100 and 25 per round"),
    "S40-MATCH": gettext_lazy("Scala 40 match: out at %(target)s; the last one in wins"),
    "S40-OPEN-PENALTY": gettext_lazy(
        "Scala 40: a short opening goes back and costs %(failed_opening_penalty)s"
    ),
    "S40-REENTRY": gettext_lazy(
        "Scala 40: up to %(reentries)s re-entries, at the highest score still in"
    ),
}


def rule_title(rule: str, options: Mapping[str, Any] | None = None) -> str:
    """Return a rule's few-word description in the active language (the ID if unknown),
    with the numbers the table's ``options`` choose where the title names one. The rule's
    game's own titles (GameWords) come first."""
    game = game_of_rule(rule)
    with_options = own_word(game, "rule_titles_with_options", rule)
    with_options = with_options or RULE_TITLES_WITH_OPTIONS.get(rule)
    if with_options is not None and options:
        try:
            return str(with_options) % options
        except KeyError:
            pass  # options of another game, or partial ones: the plain title says it
    own = own_word(game, "rule_titles", rule)
    return own if own is not None else str(RULE_TITLES.get(rule, rule))


def table_rules(variant: str, options: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """Return the options a table plays with, as (rule title, value, rule ID) lines: each
    option its game shows (OptionSpec.line), those its preset gives included, each title
    naming the table's own numbers. A switch whose rule another option cites too says which
    it is ("A tie after a knock is an undercut: on")."""
    game = GAMES.get(variant)
    if game is None:
        return []
    full = game.full_options(options)
    shown = [spec for spec in game.options if spec.line and spec.key in full]
    cited = Counter(spec.rule for spec in shown)
    lines = []
    for spec in shown:
        if spec.line_when and not full.get(spec.line_when):
            continue
        value = value_text(spec, full[spec.key])
        if spec.kind == BOOL and cited[spec.rule] > 1:
            value = gettext("%(option)s: %(value)s") % {
                "option": option_label(spec),
                "value": value,
            }
        lines.append((rule_title(spec.rule, full), value, spec.rule))
    return lines

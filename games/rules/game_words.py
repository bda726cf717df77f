"""The words the pages use for what a game's ``GameRules`` says of it (scoring/game.py): its
name, its options and their choices, its seat flags, its standings' and book's columns, the
board's one-line summary and the lines of "This table's rules".

The engine gives keys (an option's key, a flag's, a column's, a rule ID); each label is
one catalogue entry, found by that key, never by the game's name. A game added since the
first five brings its own words in its package (GameRules.words, scoring/words.py), looked
in first (games/rules/own_words.py); the catalogues here hold the first five games' words,
so a new game changes no page (docs/design.md, "Adding a game"). An option whose key means
different things in different games (every game's ``target``) is labelled by its rule and
key together.
"""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext

from games.rules.own_words import game_of_rule, own_word
from scoring.game import BOOL, CHOICE, GameRules, OptionSpec, SeatFlag
from scoring.variants import GAMES

_ = gettext_lazy

# Each game's proper name (GameRules.name), marked here so the catalogue holds it (a game
# with its own words marks its name there); the pages translate the name itself
# (games.shared.models.game_choices).
GAME_NAMES = (
    gettext_noop("Gin Rummy"),
    gettext_noop("Rummy40"),
    gettext_noop("Ramino"),
    gettext_noop("Knock Rummy"),
    gettext_noop("Scala 40"),
)


def game_name(game: GameRules) -> str:
    """Return the game's name in the active language."""
    return gettext(game.name)


# An option's label, by its key, or by its rule and key where one key means different things.
OPTION_LABELS: Mapping[Any, Any] = {
    "preset": _("Rules"),
    ("GIN-MATCH", "target"): _("Play to"),
    "no_rediscard": _("A card taken from the discard pile may not be discarded at once"),
    "wall": _("The hand is void when only 2 cards remain in the stock"),
    "undercut_on_tie": _("A tie after a knock is an undercut"),
    "big_gin": _("Big Gin: all 11 cards melded, no discard"),
    "shutout": _("Shutout: a loser who scored nothing doubles the winner's"),
    "shutout_doubles": _("A shutout doubles"),
    "oklahoma": _("Oklahoma: the upcard sets the most a knock may keep"),
    "spade_double": _("Oklahoma: a spade upcard doubles the hand"),
    "hollywood": _("Hollywood: three games on one sheet"),
    "gin_bonus": _("Gin bonus"),
    "undercut_bonus": _("Undercut bonus"),
    "big_gin_bonus": _("Big Gin bonus"),
    "box_bonus": _("Box bonus, for each hand won"),
    "game_bonus": _("Game bonus"),
    "opening_minimum": _("Opening minimum"),
    ("R40-MATCH", "target"): _("Limit"),
    "add_to_any_meld": _("Add cards to any player's melds"),
    "max_jokers_per_meld": _("Jokers a meld, at most"),
    "hands": _("Hands"),
    "short_deck": _("Short deck: one deck and 3 jokers"),
    "scala40": _("Opening minimum 40 instead of 30"),
    "no_opening": _("No opening minimum"),
    "circular_runs": _("Circular runs (K-A-2)"),
    "no_jokers": _("No jokers"),
    "fixed_jokers": _("Fixed jokers"),
    "fixed_groups": _("Fixed groups (suits in order)"),
    "knock_claim": _("Knock to claim the last discard (3+ players)"),
    "no_discard_win": _("Go out without a final discard"),
    "casino_scoring": _("Casino scoring"),
    "practice": _("Practice table: not counted in standings"),
    ("KR-MATCH", "target"): _("Game ends at"),
    ("S40-MATCH", "target"): _("Out at"),
    "reentries": _("Re-entries"),
    "failed_opening_penalty": _("Penalty for a short opening"),
    "free_discard": _("Any card may be discarded, even one the table takes"),
    "full_suit_run": _("A run may hold the whole suit and a joker as the second ace (14 cards)"),
    "unopened_discard_check": _(
        "A player who has not opened may not discard a card the table takes either"
    ),
}

# A choice's name, by its option's key and its value; a value not here is shown as it is.
CHOICE_LABELS: Mapping[tuple[str, Any], Any] = {
    ("preset", "big_gin"): _("Big Gin"),
    ("preset", "classic"): _("Classic"),
    ("preset", "american"): _("American"),
    ("preset", "oklahoma"): _("Oklahoma"),
    ("preset", "hollywood"): _("Hollywood"),
    ("target", 1): _("Single hand"),
    ("shutout_doubles", "both"): _("The hand points and the game bonus"),
    ("shutout_doubles", "game_bonus"): _("The game bonus"),
    ("shutout_doubles", "hand_points"): _("The hand points"),
    ("opening_minimum", 0): _("None"),
}


def option_label(spec: OptionSpec) -> str:
    """Return the option's label in the active language (its key if it has none)."""
    own = own_word(game_of_rule(spec.rule), "options", (spec.rule, spec.key), spec.key)
    if own is not None:
        return own
    label = OPTION_LABELS.get((spec.rule, spec.key)) or OPTION_LABELS.get(spec.key, spec.key)
    return str(label)


def choice_label(spec: OptionSpec, value: Any) -> str:
    """Return the name of one of the option's choices in the active language."""
    own = own_word(game_of_rule(spec.rule), "choices", (spec.key, value))
    return own if own is not None else str(CHOICE_LABELS.get((spec.key, value), value))


def value_text(spec: OptionSpec, value: Any) -> str:
    """Return an option's value as a player reads it: on or off, a choice's name, a number."""
    if spec.kind == BOOL or isinstance(value, bool):
        return gettext("on") if value else gettext("off")
    if spec.kind == CHOICE:
        return choice_label(spec, value)
    return str(value)


# What a hand entry says of a seat (SeatFlag.key), and how the seats out of a match are shown.
FLAG_LABELS: Mapping[str, Any] = {
    "knocked": _("knocked"),
    "went_out": _("went out"),
    "hand_closed": _("closed in one turn"),
    "opening_penalty": _("failed openings"),
    "sitting_out": _("out of the match: sits this hand out"),
    "declines_reentry": _("declines the re-entry if out at this hand"),
}


def flag_label(flag: SeatFlag) -> str:
    """Return the flag's label in the active language: its game's own word (the game that
    has the flag), else the catalogue's."""
    games = [game for game in GAMES.values() if flag in game.seat_flags]
    own = next((word for game in games if (word := own_word(game, "flags", flag.key))), None)
    return own if own is not None else str(FLAG_LABELS.get(flag.key, flag.key))


# What the standings call each game's counts (StandingsReading.counts).
COUNT_LABELS: Mapping[str, Any] = {
    "knocks": _("Knocks"),
    "gins": _("Gins"),
    "big_gins": _("Big gins"),
    "undercuts": _("Undercuts"),
    "went_out": _("Went out"),
    "opening_penalties": _("Failed openings"),
    "hand_closures": _("Hand closures"),
    "undercut_bonuses": _("Undercut bonuses"),
    "out_bonuses": _("Out bonuses"),
}


def count_label(game: GameRules, name: str) -> str:
    """Return what the standings call one of the game's counts, in the active language."""
    own = own_word(game, "counts", name)
    return own if own is not None else str(COUNT_LABELS.get(name, name))


# Points for and against in each game's own terms (StandingsReading.points_terms).
POINTS_TERMS: Mapping[str, tuple[Any, Any]] = {
    "for_against": (_("Points for"), _("Points against")),
    "penalty": (_("Penalty points"), _("Opponents' penalty points")),
    "gained_lost": (_("Points gained"), _("Points lost")),
}


def points_labels(game: GameRules) -> tuple[Any, Any]:
    """Return what the game calls points for and against."""
    return POINTS_TERMS[game.standings.points_terms]


# The players' book's columns (StandingsReading.book_columns) and the notes explaining them.
BOOK_COLUMN_LABELS: Mapping[str, Any] = {
    "gins": _("Gins"),
    "big_gins": _("Big gins"),
    "undercuts": _("Undercuts given"),
    "undercuts_taken": _("Undercuts taken"),
    "deadwood_caught": _("Deadwood when caught"),
    "opened": _("Opened"),
    "went_out": _("Went out"),
    "opening_penalties": _("Failed openings"),
    "hand_closures": _("Went out in one go"),
    "points_left": _("Points left in hand"),
    "knocks_won": _("Knocks won"),
    "knocks_lost": _("Knocks lost"),
    "undercut_bonuses": _("Undercut bonuses"),
    "out_bonuses": _("Out bonuses"),
}
# By the column they explain, or the rule they are about.
BOOK_NOTES: Mapping[str, Any] = {
    "opened": _(
        "Opened: the share of hands in which the player laid cards on the table. Only hands "
        "entered by cards or played move by move show it: hands entered by points are left out."
    ),
    "points_left": _(
        "Points left in hand: the average value of the player's hand in the hands they did not "
        "go out."
    ),
    "GIN-DEADWOOD": _(
        "Deadwood when caught: the average count left in the player's hand, after "
        "layoffs, in the hands their opponent knocked or went gin. Undercuts taken: "
        "their knocks that were undercut."
    ),
    "R40-HAND": _(
        "Going out in one go is not shown for Rummy40: a hand's record does not say "
        "when the player who went out laid their melds."
    ),
    "RAM-OPT-KNOCKCLAIM": _(
        "At tables that knock for the discard, only hands played move by move show it: a "
        "claim adds cards."
    ),
    "RAM-HANDCLOSE": _("Went out in one go: a closure in hand (RAM-HANDCLOSE)."),
    "S40-HANDCLOSE": _("Went out in one go: a closure in hand (S40-HANDCLOSE)."),
    "KR-KNOCK": _(
        "Knocks won: the player's knocks that won the round; knocks lost: those undercut or tied."
    ),
}


def book_column_label(game: GameRules, name: str) -> str:
    """Return the label of one of the game's columns in the players' book."""
    own = own_word(game, "book_columns", name)
    return own if own is not None else str(BOOK_COLUMN_LABELS.get(name, name))


def book_note(game: GameRules, note: str) -> str:
    """Return the players' book's note ``note`` (a column, or a rule) of the game."""
    own = own_word(game, "book_notes", note)
    return own if own is not None else str(BOOK_NOTES[note])


def _summary_part(spec: OptionSpec, value: Any) -> str:
    """Say one option on the board's summary line, as its spec's ``summary`` asks ("" none)."""
    if spec.summary in ("playing_to", "limit") and value == 1:
        return gettext("Single hand")
    if spec.summary == "playing_to":
        return gettext("Playing to %(target)s") % {"target": value}
    if spec.summary == "limit":
        return gettext("Limit %(target)s") % {"target": value}
    if spec.summary == "opening":
        return gettext("opening %(minimum)s") % {"minimum": value}
    if spec.summary == "hands" and value:  # none: the match is played to its target
        return ngettext("%(hands)s hand to play", "%(hands)s hands to play", value) % {
            "hands": value
        }
    if spec.summary == "reentries" and value:
        return ngettext("%(count)s re-entry", "%(count)s re-entries", value) % {"count": value}
    if spec.summary == "named" and value is True:
        return option_label(spec)
    if spec.summary == "choice":
        return choice_label(spec, value)
    return ""


def board_summary(game: GameRules, options: Mapping[str, Any]) -> list[str]:
    """Return the board's few words on the table's options ("Limit 101", "1 re-entry")."""
    full = game.full_options(options)
    parts = [_summary_part(spec, full.get(spec.key)) for spec in game.options if spec.summary]
    return [part for part in parts if part]


def seatings_text(game: GameRules, *, bare: bool = False) -> str:
    """Say the table sizes the game plays ("2 to 6", "2 or 4"), or with ``bare`` False the
    page's hint ("Rummy40: 2 or 4 players.")."""
    counts = game.seatings
    if len(counts) > 2 and counts == tuple(range(counts[0], counts[-1] + 1)):
        text = gettext("%(low)s to %(high)s") % {"low": counts[0], "high": counts[-1]}
    elif len(counts) > 1:
        some = ", ".join(map(str, counts[:-1]))
        text = gettext("%(some)s or %(last)s") % {"some": some, "last": counts[-1]}
    else:
        text = str(counts[0])
    if bare:
        return text
    return gettext("%(game)s: %(counts)s players.") % {"game": game_name(game), "counts": text}


# Why a choice is not open under the value another option has, by the rule the choice cites:
# (the sentence, the sentence when a named choice such as a single hand is open too).
NARROWED_REFUSALS: Mapping[str, tuple[Any, Any]] = {
    "GIN-MATCH": (
        _("%(preset)s plays to %(targets)s."),
        _("%(preset)s plays to %(targets)s, or a single hand."),
    ),
}


def narrowed_refusal(spec: OptionSpec, by: OptionSpec, chosen: Any, allowed: tuple) -> str:
    """Say which choices of ``spec`` are open while the option ``by`` is ``chosen``."""
    numbers = [str(value) for value in allowed if choice_label(spec, value) == str(value)]
    named = [value for value in allowed if choice_label(spec, value) != str(value)]
    plain, with_named = NARROWED_REFUSALS.get(spec.rule, (None, None))
    params = {"preset": choice_label(by, chosen), "targets": ", ".join(numbers)}
    if plain is None:
        shown = ", ".join(choice_label(spec, value) for value in allowed)
        return gettext("%(option)s: choose one of %(choices)s.") % {
            "option": option_label(spec),
            "choices": shown,
        }
    return str(with_named if named else plain) % params


def names_list(names: list[str]) -> str:
    """Join names as a sentence lists them: "A, B and C"."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(some)s and %(last)s") % {"some": ", ".join(names[:-1]), "last": names[-1]}

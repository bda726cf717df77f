"""Canasta, the classic partnership game: its rules engine.

Four players in two sides, partners across (side 0 seats 0 and 2, side 1 seats 1 and 3);
108 cards; melds of one rank, wild 2s and jokers, three at most; canastas of seven cards
or more; red 3s as bonuses; going out with a canasta; a match to 5000. Each hand is entered
per side (its sheet, or its cards) or played move by move (``play``), and both partners
carry their side's score.

Modules: ``options`` (the table's options), ``cards`` (deck, deal, values), ``melds``
(melds, wilds, black and red 3s, canastas), ``sheet`` (a hand entered per side, checked),
``play`` (a hand played move by move), ``scoring`` (a hand's score, entered or played),
``match`` (the match, the first meld's minimum, the standings' reading), ``referee`` (the
referee's answers), ``samples`` (worked hands), ``words`` (its labels, titles and refusal
sentences for the pages). This module builds ``GAME``, which scoring/variants/__init__.py
registers.

Readings where the sources differ or are silent (house choices marked in docs/rules.md):

- CAN-OUT-2: going out concealed is melding the whole hand, a canasta among it, in the
  turn the player goes out, having laid no card before in the hand (the partner may have
  melded); 200 rather than 100. Some clubs drop the extra (CAN-OPT-CONCEALED off: 100).
- CAN-OPT-CANASTAS: the classic game asks one canasta to go out; some clubs two.
- CAN-RED3-1: a side that melded nothing by the hand's end loses its red 3s' worth, a side
  that went out or melded anything gains it; a red 3 still in a hand at the end (dealt and
  never laid: play refuses keeping one the log names) counts as laid down.
- CAN-MATCH-1: to 5000; level totals at or over the target play on.
- CAN-STOCK-1: the stock run out ends the hand with no going-out bonus; the rule that lets
  the player who draws the last card take the top discard is left to the players.

Sources: https://www.pagat.com/rummy/canasta.html ;
https://en.wikipedia.org/wiki/Canasta ; https://bicyclecards.com/how-to-play/canasta
"""

from __future__ import annotations

from scoring.game import (
    ALL_FORMS,
    BOOL,
    CHOICE,
    INT,
    PAIRS_SHEET_ENTRY,
    SHEET_COUNT,
    SHEET_FLAG,
    SHEET_POINTS,
    GameRules,
    OptionSpec,
    RefereeRules,
    SheetField,
    SideSheet,
    StandingsReading,
)
from scoring.variants.canasta import samples
from scoring.variants.canasta.cards import (
    DECK,
    DECK_VALUE,
    HAND_SIZE,
    PAIRS,
    PLAYERS,
    RED_THREES,
    card_value,
    deck,
    hand_size,
)
from scoring.variants.canasta.match import (
    COUNTS,
    hand_counts,
    hand_winners,
    match_result,
    may_end,
    side_points,
)
from scoring.variants.canasta.options import (
    CANASTAS_TO_GO_OUT,
    MAX_TARGET,
    TARGET,
    CanastaOptions,
)
from scoring.variants.canasta.play import meld_rules, play_rules
from scoring.variants.canasta.referee import (
    meld_answer,
    opening_answer,
    referee_table,
    score_answer,
)
from scoring.variants.canasta.scoring import score_entry, score_play
from scoring.variants.canasta.sheet import MOST_CANASTAS, MOST_NATURAL, read_entry
from scoring.variants.canasta.words import NAME, SHEET, WORDS

# The most cards one hand can hold: 11 dealt and every card of the stock (108 - 44 = 64,
# the upcard among them) taken with the discard pile.
MOST_IN_HAND = HAND_SIZE + DECK.size - PLAYERS * HAND_SIZE


def _points(key: str, **more) -> SheetField:
    # Every card is worth a multiple of 5; no side holds more than the whole deck's worth.
    return SheetField(
        key, SHEET[key], SHEET_POINTS, "CAN-SCORE-1", high=DECK_VALUE, step=5, required=True, **more
    )


# A side's sheet (CAN-SCORE-1): its melded points, its canastas by kind, its red 3s, a
# concealed going out and its partners' points in hand; and who went out.
SIDE_SHEET = SideSheet(
    fields=(
        # Enough melded for every count of canastas the provisional probe tries.
        _points("melded", probe=800),
        SheetField("natural", SHEET["natural"], SHEET_COUNT, "CAN-CANASTA-1", high=MOST_NATURAL),
        SheetField("mixed", SHEET["mixed"], SHEET_COUNT, "CAN-CANASTA-1", high=MOST_CANASTAS),
        SheetField(
            "red_threes",
            SHEET["red_threes"],
            SHEET_COUNT,
            "CAN-RED3-1",
            high=RED_THREES,
            negated_unless="melded",
        ),
        SheetField("concealed", SHEET["concealed"], SHEET_FLAG, "CAN-OUT-2", only_when_out=True),
        _points("in_hand"),
    ),
    out_key="went_out",
    out_label=SHEET["went_out"],
    out_rule="CAN-OUT-1",
    nobody_label=SHEET["nobody"],
    hint=SHEET["hint"],
    hint_rule="CAN-SCORE-1",
    out_needs={"natural": 1, "mixed": 1},
)


GAME = GameRules(
    key="canasta",
    players=(PLAYERS, PLAYERS),
    setup_rule="CAN-SETUP",
    match_rule="CAN-MATCH-1",
    most_in_hand=MOST_IN_HAND,
    options_from_dict=CanastaOptions.from_dict,
    options_to_dict=CanastaOptions.to_dict,
    deck=deck,
    hand_size=hand_size,
    meld_rules=meld_rules,
    card_value=lambda options: card_value,
    play_rules=play_rules,
    read_entry=read_entry,
    score_entry=score_entry,
    score_play=score_play,
    match_result=match_result,
    may_end=may_end,
    standings=StandingsReading(
        counts=COUNTS,
        hand_winners=hand_winners,
        hand_counts=hand_counts,
        points=side_points,
    ),
    referee=RefereeRules(
        table=referee_table,
        questions={"meld": meld_answer, "opening": opening_answer, "score": score_answer},
        meld_rules=("CAN-MELD-1", "CAN-MELD-2", "CAN-MELD-3"),
        value_rule="CAN-VALUES",
        opening_rule="CAN-OPEN-1",
        opening_total_rule="CAN-OPEN-1",
    ),
    name=NAME,
    rule_prefix="CAN-",
    options=(
        OptionSpec(
            "target",
            INT,
            "CAN-MATCH-1",
            default=TARGET,
            low=1,
            high=MAX_TARGET,
            summary="playing_to",
        ),
        OptionSpec(
            "concealed_bonus",
            BOOL,
            "CAN-OPT-CONCEALED",
            default=True,
            forms=ALL_FORMS,
            summary="",
        ),
        OptionSpec(
            "canastas_to_go_out",
            CHOICE,
            "CAN-OPT-CANASTAS",
            default=1,
            choices=CANASTAS_TO_GO_OUT,
            forms=ALL_FORMS,
            summary="choice",
        ),
    ),
    hand_entry=PAIRS_SHEET_ENTRY,
    side_sheet=SIDE_SHEET,
    provisional="side_sheet",
    partners=PAIRS,
    words=WORDS,
    examples=samples.EXAMPLES,
)

"""Burraco, the Italian pairs game, as the federation (FIBur) plays it: its rules engine.

Four players in two pairs, partners across (pair 0 seats 0 and 2, pair 1 seats 1 and 3);
108 cards; melds of one wild at most; burracos of seven cards or more; a pozzetto each pair
takes once; closing for 100; a match to 2005. Each hand is entered per pair (its sheet, or
its cards) or played move by move (``play``), and both partners carry their pair's score.

Modules: ``options`` (the table's options), ``cards`` (deck, deal, values), ``melds``
(sequences, combinations, wilds, burracos), ``sheet`` (a hand entered per pair, checked),
``play`` (a hand played move by move: the play engine's rules and Burraco's rulings of
play), ``scoring`` (a hand's score, entered or played), ``match`` (the match and the
standings' reading), ``referee`` (the referee's answers), ``samples`` (worked hands),
``words`` (its labels, titles and refusal sentences for the pages). This
module builds ``GAME``, which scoring/variants/__init__.py registers.

Readings where the sources differ or are silent:

- BUR-OPT-SEMIPULITO (off unless chosen): 150 for a burraco that would be clean without
  its wild: a sequence of 7+ natural cards in unbroken order with the wild at one end, a
  combination of 7+ naturals and the wild. Where the table does not play it, such a
  burraco is sporco (100), as the federations that never adopted it count it.
- BUR-OPT-INTL (off unless chosen), the international code's differences: a pair closes
  only with a burraco pulito; no semipulito (so the two options exclude each other);
  combinations only of aces and 3s; taking the discard pile obliges the player to meld or
  add a card that turn (a rule of play, for move-by-move play: a hand's sheet cannot see
  it).
- BUR-CLOSE: a pair closes once it has taken its pozzetto and has a burraco (any kind;
  international: a pulito), the closer melding every card but one and discarding it, a
  card that is no wild (rules of play); +100. The federation's code also names closings
  that earn no bonus (at the discard pile, or without a discard): a sheet enters them
  with no pair closed, as it does a stock end.
  A hand that ends with the stock run out (BUR-STOCK: spent when two cards are left, the
  hand ending after the discard of whoever drew the third-to-last) has no closing bonus.
- BUR-MELDS: a sequence holds one ace (low or high) and 13 natural cards at most; with a
  whole suit a wild may be the fourteenth card. K-A-2 of one suit reads as Q-K-A with
  the 2 wild for the queen (a legal sporco-kind meld); K-A-2-3 wraps and is refused.
- BUR-MATCH: to 2005 by default; level totals at or over the target play on; a fixed
  number of hands (option ``hands``) ends level totals as a shared match.

Sources: https://eburraco.com/burraco-semi-pulito-3 ; https://eburraco.com/?p=1976 ;
https://api.onmadesoft.com/burraco-italiano/punti-burraco.html ;
https://eburraco.com/burraco-chiarimenti-sul-regolamento-internazionale ;
https://www.burraco.com/burraco-blog/differenze-burraco-italiano-internazionale.htm ;
the federation's codes (each address cut over two lines), the international code
https://pdfslide.net/documents/federazione-italiana-burraco-scarto-carta-
giocata-da-ogni-giocatore-che-conclude.html and the Italian one
https://pdfslide.net/documents/fiburfibur-federazione-italiana-gioco-
il-complesso-delle-giocate-effettuate.html ;
https://eburraco.com/?p=4147 ; http://www.eburraco.com/sequenza-combinazioni-e-burraco/ ;
https://eburraco.com/calare-le-carte-e-posizionarle-nozioni-per-principianti ;
https://eburraco.com/come-formare-combinazioni-nel-burraco-internazionale ;
https://www.eburraco.com/le-regole-sulle-chiusure-nel-burraco-italiano/ ;
https://eburraco.com/la-chiusura-con-bonus ; http://www.larivistadelburraco.it/chiusura/ ;
https://eburraco.com/?p=2781 ;
http://burraco.atuttonet.it/regole-burraco/burraco-regolamento-integrale.php
"""

from __future__ import annotations

from scoring.game import (
    ALL_FORMS,
    BOOL,
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
from scoring.solver import Closing
from scoring.variants.burraco import samples
from scoring.variants.burraco.cards import (
    DECK,
    DECK_VALUE,
    HAND_SIZE,
    PAIRS,
    POZZETTO_SIZE,
    card_value,
    deck,
    hand_size,
)
from scoring.variants.burraco.match import (
    COUNTS,
    hand_counts,
    hand_winners,
    match_result,
    may_end,
    pair_points,
)
from scoring.variants.burraco.options import (
    MAX_HANDS,
    MAX_TARGET,
    PLAYERS,
    TARGET,
    BurracoOptions,
)
from scoring.variants.burraco.play import barred_closing_discard, meld_rules, play_rules
from scoring.variants.burraco.referee import meld_answer, referee_table, score_answer
from scoring.variants.burraco.scoring import score_entry, score_play
from scoring.variants.burraco.sheet import MOST_BURRACOS, read_entry
from scoring.variants.burraco.words import NAME, SHEET, WORDS

# The most cards one hand can hold: 11 dealt, the pair's pozzetto of 11 and every card of
# the stock (108 - 44 dealt - 22 in the pozzetti = 42) taken with the discard pile.
MOST_IN_HAND = HAND_SIZE + POZZETTO_SIZE + (DECK.size - PLAYERS * HAND_SIZE - 2 * POZZETTO_SIZE)


def closing(options: BurracoOptions) -> Closing:
    """Say how a Burraco player closes: every card melded but the last, discarded, never a
    wild, a jolly or a 2, as in play (BUR-CLOSE)."""
    return Closing(
        discard="required",
        rule="BUR-CLOSE",
        joker_discard_rule="BUR-CLOSE",
        barred_discard=barred_closing_discard,
    )


def _count(key: str, **more) -> SheetField:
    return SheetField(key, SHEET[key], SHEET_COUNT, "BUR-BURRACO", high=MOST_BURRACOS, **more)


def _points(key: str, **more) -> SheetField:
    # Every card is worth a multiple of 5; no pair holds more than the whole deck's worth.
    return SheetField(
        key, SHEET[key], SHEET_POINTS, "BUR-SCORE", high=DECK_VALUE, step=5, required=True, **more
    )


# A pair's sheet (BUR-SCORE): its melded points, its burracos by kind (semipulito where the
# table plays it), its pozzetto and its partners' points in hand; and who closed.
SIDE_SHEET = SideSheet(
    fields=(
        # Enough melded for every count of burracos the provisional probe tries.
        _points("melded", probe=900),
        _count("pulito"),
        _count("sporco"),
        _count("semipulito", when_option="semipulito"),
        SheetField("pozzetto", SHEET["pozzetto"], SHEET_FLAG, "BUR-POZZETTO", probe=True),
        _points("in_hand"),
    ),
    out_key="closed",
    out_label=SHEET["closed"],
    out_rule="BUR-CLOSE",
    nobody_label=SHEET["nobody"],
    hint=SHEET["hint"],
    hint_rule="BUR-SCORE",
    out_needs={"pulito": 1},
)


GAME = GameRules(
    key="burraco",
    players=(PLAYERS, PLAYERS),
    setup_rule="BUR-SETUP",
    match_rule="BUR-MATCH",
    most_in_hand=MOST_IN_HAND,
    options_from_dict=BurracoOptions.from_dict,
    options_to_dict=BurracoOptions.to_dict,
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
        points=pair_points,
    ),
    referee=RefereeRules(
        table=referee_table,
        questions={"meld": meld_answer, "score": score_answer},
        meld_rules=("BUR-MELDS", "BUR-WILD"),
        value_rule="BUR-VALUES",
        closing=closing,
    ),
    name=NAME,
    rule_prefix="BUR-",
    options=(
        OptionSpec(
            "target", INT, "BUR-MATCH", default=TARGET, low=1, high=MAX_TARGET, summary="playing_to"
        ),
        OptionSpec("hands", INT, "BUR-MATCH", default=0, low=0, high=MAX_HANDS, summary="hands"),
        OptionSpec(
            "semipulito",
            BOOL,
            "BUR-OPT-SEMIPULITO",
            default=False,
            forms=ALL_FORMS,
            line_when="semipulito",
            summary="named",
        ),
        OptionSpec(
            "international",
            BOOL,
            "BUR-OPT-INTL",
            default=False,
            forms=ALL_FORMS,
            line_when="international",
            summary="named",
        ),
    ),
    hand_entry=PAIRS_SHEET_ENTRY,
    side_sheet=SIDE_SHEET,
    provisional="side_sheet",
    partners=PAIRS,
    words=WORDS,
    examples=samples.EXAMPLES,
)

"""Arrangement solver: one exact search answers every melding question of every variant.

The questions: the least value a hand leaves unmelded (GIN-DEADWOOD, and the hand values of
R40-END, RAM-SCORE, KR-SCORE) and every arrangement reaching it; the best layoffs onto table
melds (GIN-LAYOFF, R40-ADD, RAM-ADD); whether a hand can go out (R40-HAND, RAM-OUT,
RAM-OPT-NODISCARDWIN, KR-OUT, GIN-BIGGIN); the most valuable opening (RAM-OPEN, R40-OPEN).

The search sees a hand as a *state*, one int: the number of jokers left in its low 4 bits,
then a 2-bit count (0, 1 or 2 copies: two decks) for each card in display order (clubs ace
to king, then spades, hearts, diamonds), then one bit for each table meld that may still
take layoffs (its *token*). A *candidate* is a meld the hand can form, or what it can lay
onto one table meld: the natural cards it takes (one copy each, as a set never holds two
identical cards and a run never a rank twice), the jokers it takes, and its *gain*. The
search takes the lowest card still undecided and either leaves one copy of it out or puts it
in a candidate whose lowest card it is and that fits what is left; table melds come after
every card, where jokers alone may still be laid on them. Results are memoised on the state,
local to one question (but for openings: see below). That recursion is the whole search for
every variant; only the candidates differ:

- melds of natural cards come from tables made once per rules: each run of 3 to 5 cards (a
  longer run splits into such pieces with the same deadwood, and pieces that touch are merged
  again for display), each set; they are found with bit tricks on a mask of the cards held.
  A Gin hand (one deck, no jokers) needs nothing else, which keeps it fast;
- melds with jokers are listed per hand: every group of naturals of one rank, or of one suit
  close enough for the jokers to bridge, with every number of jokers the rules allow
  (MeldRules: max_jokers, jokers_within_naturals, adjacent_jokers, fixed_groups, the ace and
  wrap rules), at any length. Only the naturals and the number of jokers matter to the
  search, so each such pair keeps one placement of its jokers: for openings the most
  valuable, otherwise the one reaching highest;
- layoffs are, for each table meld, every mix of cards and jokers its ends (runs) or its
  missing suits (sets) can take, holding the meld's token so that each meld is extended once.

A gain is value * 64 + cards: the search maximises the value melded (card values, or the
VALUE of an opening) and, among equal values, the cards melded. Jokers left out are deadwood.
Going out forbids leaving cards out (the *strict* search), so whole branches end at once.
Questions about cards kept back (an opening keeps one to discard) or discarded (going out)
ask the same memo about the hand without those cards, once for each choice of them.

The joker options are read as check_meld reads them (scoring.melds): fixed_groups asks a
set's suits to be a stretch of the order C S H D without gaps (S H D too), its jokers
standing for the missing suits of the stretch, the set laid in that order; adjacent_jokers=False
forbids jokers on neighbouring ranks of a run and more than one joker in a set, except under
fixed_groups, where jokers on suits that are not neighbours in the order stand apart;
max_jokers and jokers_within_naturals count table jokers too when cards are added.

What bounds the cost: the hardest hands are long runs with jokers, where a run may put a
joker in place of any card it holds, so a hand lists thousands of candidates. Listing one
costs a few additions (runs grow a natural at a time, carrying their units and value; VALUE
is kept per stretch of a suit). The search never tests every candidate of the lowest card
against a state: each group of candidates knows which take each card, so the cards a state
lacks rule out theirs at once. Runs with jokers, and layoffs onto table runs, stay plain
tuples until the search takes one (as_piece). The memo also tells whether a state's best
packing is *whole* (melds every card and joker): where gains are card values (not an
opening's VALUE), a whole packing gains all there is, so the first one found ends the
state's search (ties go to the first anyway). Layoffs onto table melds multiply the states
(the cards left times the table melds still free), and where no packing is whole nothing
ends a state's search early: so the layoff search is bounded (``bounded``) by the same
search with every table meld taking any number of layoffs, which sees only the cards left,
and skips what cannot beat the best found; it finds the same packing. Before opening, going
out asks the loose search first: where its best packing is whole, the strict search would
take the same one; the best opening then reuses those states. The referee asks several
questions of one hand, so the hand read last, its groups and their loose memo for openings
are kept (one slot each) for the next question. And a search memoising more than
STATE_BUDGET states refuses the hand (no hand a game allows comes near).

The package, by responsibility: ``results`` (what the questions return), ``bits`` (cards as
bits and the search state), ``tables`` (natural melds, made once per rules), ``jokers``
(melds with jokers, listed per hand), ``layoffs`` (table melds and what they can take),
``search`` (the memoised recursion), ``bounded`` (the layoff search, bounded), ``packing``
(the melds of a packing), and the questions: ``deadwood`` (least deadwood, every arrangement
reaching it, layoffs) and ``going_out`` (going out, the best opening).
"""

from scoring.solver.deadwood import best_arrangement, best_layoff, deadwood_count, min_arrangements
from scoring.solver.going_out import best_opening, can_go_out
from scoring.solver.results import (
    DISCARDS,
    ONE_DECK,
    Arrangement,
    Closing,
    GoOut,
    LayoffResult,
    Opening,
    OpeningValue,
    Value,
)
from scoring.solver.search import STATE_BUDGET
from scoring.solver.tables import prepare

__all__ = [
    "DISCARDS",
    "ONE_DECK",
    "STATE_BUDGET",
    "Arrangement",
    "Closing",
    "GoOut",
    "LayoffResult",
    "Opening",
    "OpeningValue",
    "Value",
    "best_arrangement",
    "best_layoff",
    "best_opening",
    "can_go_out",
    "deadwood_count",
    "min_arrangements",
    "prepare",
]

"""The one interface every game offers the shared engine: ``GameRules``.

A game module (scoring/variants/) builds one ``GameRules`` from its own options, values and
scoring; the replay, the play checks, the standings and the referee read it as data and
call its functions, so none of them names a game. Adding a game is adding a module that
builds one of these and listing it in scoring/variants/__init__.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from scoring.cards import Card, DeckSpec
from scoring.hands import HandEnd, MatchOutcome
from scoring.melds import MeldRules
from scoring.play.rules import PlayRules
from scoring.solver import Closing

if TYPE_CHECKING:
    # Only named in annotations: scoring.questions reads GameRules, so importing it here
    # at run time would make a cycle.
    from scoring.questions import RefereeTable


class HandResult(Protocol):
    """What every game's scored hand offers the replay and the standings."""

    points: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]: ...


def opponents_mean(
    totals: Sequence[int], results: Sequence[Any], seat: int
) -> tuple[Fraction, Fraction]:
    """Return the seat's total as points for, and its opponents' mean total as against.

    The mean rather than the sum, so a four-player table weighs on a player's difference as
    much as a two-player one (scoring/standings.py's docstring).
    """
    others = [total for other, total in enumerate(totals) if other != seat]
    return Fraction(totals[seat]), Fraction(sum(others), len(others))


def every_hand(result: Any) -> bool:
    """Count every hand in force as a hand played."""
    return True


def no_figures(options: Any, result: Any, seat: int) -> Counter[str]:
    """Give a game without figures of its own none."""
    return Counter()


@dataclass(frozen=True, slots=True)
class StandingsReading:
    """Say how a league reads one game's finished matches (scoring/standings.py).

    ``counts`` are the game's own counts in the order the page shows them; ``hand_counts``
    gives one seat's counts for one hand and ``hand_winners`` the seats that won it.
    ``lower_is_better`` marks games scored in penalties. ``hand_played`` drops hands that
    were not played (Gin's wall); ``points`` gives a seat's points for and against.

    ``figures`` are what the players' book (scoring/book.py) shows beyond the standings'
    counts, summed over a match's hands like them: ``hand_figures`` gives one seat's for one
    hand, from the table's options and the hand's result. A figure read as an average or a
    share comes with the count of the hands it is known for (``caught`` beside
    ``deadwood_caught``), so a hand that cannot tell (entered by points) is left out of
    both.
    """

    counts: tuple[str, ...]
    hand_winners: Callable[[Any], tuple[int, ...]]
    hand_counts: Callable[[Any, int], Counter[str]]
    lower_is_better: bool = False
    hand_played: Callable[[Any], bool] = every_hand
    points: Callable[[Sequence[int], Sequence[Any], int], tuple[Fraction, Fraction]] = (
        opponents_mean
    )
    figures: tuple[str, ...] = ()
    hand_figures: Callable[[Any, Any, int], Counter[str]] = no_figures


RefereeQuestion = Callable[["RefereeTable", Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class RefereeRules:
    """Say what the referee (scoring/referee.py) answers for one game and which rules it cites.

    ``table`` reads a request's options and number of players; ``questions`` maps each
    question the game has to its answer (scoring/questions.py holds the shared ones). The
    rest are the rule IDs and values the shared answers cite: ``meld_rules`` besides
    MELD-SET / MELD-RUN, ``value_rule`` for a hand's count, ``layoff_rule``,
    ``opening_rule`` (None: the game has no opening), ``closing`` (how a player goes out),
    ``knock_limit`` (None: the game has no knock by count) and ``score_ends`` (one hand's
    end state scored, as the scoresheet scores it).
    """

    table: Callable[[Mapping[str, Any]], tuple[Any, int]]
    questions: Mapping[str, RefereeQuestion]
    meld_rules: tuple[str, ...] = ()
    value_rule: str = ""
    layoff_rule: str = ""
    opening_rule: str | None = None
    closing: Callable[[Any], Closing] | None = None
    knock_limit: int | None = None
    score_ends: Callable[..., Any] | None = None


@dataclass(frozen=True, slots=True)
class ReviewRules:
    """Say which rules the hand review (scoring/review/) cites for one game, beyond those its
    play rules and referee rules name (each left empty falls back to them).

    ``count_rule`` is the rule of the count a hand kept is weighed by (GIN-DEADWOOD; else the
    referee's ``value_rule``); ``knock_rule`` a knock's (GIN-KNOCK, KR-KNOCK; its limit is
    the play rules' ``knock_limit``); ``gin_rule`` and ``big_gin_rule`` going out with every
    card melded (GIN-GIN, GIN-BIGGIN); ``layoff_rule`` cards laid on other players' melds
    (GIN-LAYOFF; else the play rules' ``add_rule``, then the referee's ``layoff_rule``).
    """

    count_rule: str = ""
    knock_rule: str = ""
    gin_rule: str = ""
    big_gin_rule: str = ""
    layoff_rule: str = ""


@dataclass(frozen=True, slots=True)
class GameRules:
    """Hold everything the shared engine knows of one game (docs/rules.md).

    ``key`` is the game's name on the wire ("variant" in a table's creation); ``players``
    the fewest and most seats; ``setup_rule`` and ``match_rule`` the rules a refused table
    size or a hand after the match's end cite. ``match_entry`` says whether the table's
    projection carries the match result as its "match" entry (Gin's projection predates it
    and stays as cached tables hold it, but for the tables whose options add bonuses at a
    game's end: for them it is a function of the options). ``most_in_hand`` is the most
    cards one hand can hold in the game (dealt, plus what a turn can bring before the
    discard): the referee refuses a bigger hand, which bounds the solver's work.

    The functions take the table's options object, which ``options_from_dict`` builds for
    a table of that many seats and ``options_to_dict`` writes back explicitly:
    ``deck``/``hand_size`` (options, players), ``meld_rules`` (options), ``card_value``
    (options: the table's value of a card in hand), ``play_rules`` (options, players: what
    the move checks read), ``read_entry`` (options, a hand entry's payload, seat names:
    its typed value, as only the game knows an entry's fields), ``score_entry`` (options,
    that value, seat names), ``score_play`` (options, HandEnd, seat names) and
    ``match_result`` (options, hand results in force).
    """

    key: str
    players: tuple[int, int]
    setup_rule: str
    match_rule: str
    most_in_hand: int
    options_from_dict: Callable[[Mapping[str, Any], int], Any]
    options_to_dict: Callable[[Any], dict[str, Any]]
    deck: Callable[[Any, int], DeckSpec]
    hand_size: Callable[[Any, int], int]
    meld_rules: Callable[[Any], MeldRules]
    card_value: Callable[[Any], Callable[[Card], int]]
    play_rules: Callable[[Any, int], PlayRules]
    read_entry: Callable[[Any, Mapping[str, Any], tuple[str, ...]], Any]
    score_entry: Callable[[Any, Any, tuple[str, ...]], HandResult]
    score_play: Callable[[Any, HandEnd, tuple[str, ...]], HandResult]
    match_result: Callable[[Any, Sequence[Any]], MatchOutcome]
    standings: StandingsReading
    referee: RefereeRules
    # True, False, or a function of the table's options saying which.
    match_entry: bool | Callable[[Any], bool] = True
    # Whether the match could be over with these running totals after this many hands.
    # False lets the replay carry a match in play on by adding the new hand's points (so a
    # long log replays in time linear in its hands); True has ``match_result`` work it out.
    may_end: Callable[[Any, tuple[int, ...], int], bool] | None = None
    # What the hand review cites (scoring/review/).
    review: ReviewRules = ReviewRules()

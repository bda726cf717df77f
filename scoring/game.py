"""The one interface every game offers the shared engine: ``GameRules``.

A game module (scoring/variants/) builds one ``GameRules`` from its own options, values and
scoring; the replay, the play checks, the standings and the referee read it as data and
call its functions, so none of them names a game. Adding a game is adding a module that
builds one of these and listing it in scoring/variants/__init__.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from scoring.cards import Card, DeckSpec
from scoring.hands import HandEnd, MatchOutcome
from scoring.melds import MeldRules
from scoring.play.rules import PlayRules
from scoring.solver import Closing
from scoring.words import GameWords, HandLine

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
class BookColumn:
    """One of a game's own columns in the players' book (games/standings/book.py): a count
    or figure (``name``), or, with ``of``, that figure over the hands it is known for: a
    share of them (``share``) or an average."""

    name: str
    of: str = ""
    share: bool = False


# The book's columns of the games that open and keep cards in hand (scoresheet.opening_figures).
OPENED = BookColumn("opened", of="opened_known", share=True)
POINTS_LEFT = BookColumn("points_left", of="hands_left")


@dataclass(frozen=True, slots=True)
class StandingsReading:
    """Say how a league reads one game's finished matches (scoring/standings.py), and how
    the pages name its points and columns.

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
    # How the pages name points for and against: "for_against", "penalty" (points taken,
    # the opponents' taken) or "gained_lost".
    points_terms: str = "for_against"
    # The players' book's columns beyond the record, and the notes that explain them (each
    # a key of the pages' catalogue).
    book_columns: tuple[BookColumn, ...] = ()
    book_notes: tuple[str, ...] = ()


RefereeQuestion = Callable[["RefereeTable", Mapping[str, Any]], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class RefereeRules:
    """Say what the referee (scoring/referee.py) answers for one game and which rules it cites.

    ``table`` reads a request's options and number of players; ``questions`` maps each
    question the game has to its answer (scoring/questions.py holds the shared ones). The
    rest are the rule IDs and values the shared answers cite: ``meld_rules`` besides
    MELD-SET / MELD-RUN, ``value_rule`` for a hand's count, ``layoff_rule``,
    ``opening_rule`` (None: the game has no opening), ``closing`` (how a player goes out),
    ``knock_limit`` (None: the game has no knock by count) and ``knock_rule``, the rule it
    cites, ``score_ends`` (one hand's
    end state scored, as the scoresheet scores it) and ``opening_total_rule``.
    ``input_rules``: the game's rules whose refusal means the question could not be read
    (its setup's seats and hand sizes), beside the shared ones (scoring/questions.py).
    """

    table: Callable[[Mapping[str, Any]], tuple[Any, int]]
    questions: Mapping[str, RefereeQuestion]
    meld_rules: tuple[str, ...] = ()
    value_rule: str = ""
    layoff_rule: str = ""
    opening_rule: str | None = None
    closing: Callable[[Any], Closing] | None = None
    knock_limit: int | None = None
    knock_rule: str = ""
    score_ends: Callable[..., Any] | None = None
    # The rule by which the opening question reads the side's total before the hand
    # (``total``), the minimum turning on it (CAN-OPEN-1); None: the question takes none.
    opening_total_rule: str | None = None
    input_rules: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class ReviewRules:
    """Say which rules the hand review (scoring/review/) cites for one game, beyond those its
    play rules and referee rules name (each left empty falls back to them).

    ``count_rule`` is the rule of the count a hand kept is weighed by (GIN-DEADWOOD; else the
    referee's ``value_rule``); ``knock_rule`` a knock's (GIN-KNOCK, KR-KNOCK; its limit is
    the play rules' ``knock_limit``; else the play rules' ``knock_rule``); ``all_melded_rule``
    a knock with every card melded (GIN-GIN; without a discard, the play rules'
    ``out_without_discard`` names its rule); ``layoff_rule`` cards laid on other players' melds
    (GIN-LAYOFF; else the play rules' ``add_rule``, then the referee's ``layoff_rule``).
    """

    count_rule: str = ""
    knock_rule: str = ""
    all_melded_rule: str = ""
    layoff_rule: str = ""


@dataclass(frozen=True)
class SampleHand:
    """A table and the moves of one hand, with the hand's points worked out by hand."""

    variant: str
    title: str
    players: tuple[str, ...]
    options: dict[str, Any]
    events: tuple[tuple[str, dict[str, Any]], ...]
    points: tuple[int, ...]  # what the hand scores per seat (docs/rules.md, by hand)

    def with_draws_named(self, *cards: str, title: str) -> SampleHand:
        """Return this hand with its draws from the stock naming ``cards``, in order (a
        reviewed hand is a played one whose every draw names its card)."""
        named = iter(cards)
        events = tuple(
            (kind, {**payload, "card": next(named)})
            if kind == "card_drawn" and "card" not in payload
            else (kind, payload)
            for kind, payload in self.events
        )
        if next(named, None) is not None:
            raise ValueError("More cards named than the hand draws unnamed.")
        return replace(self, title=title, events=events)


@dataclass(frozen=True, slots=True)
class GameExamples:
    """The worked examples every game gives (scoring/variants/<game>/samples.py), which the
    API docs, the demo, the bench and the tests read from the registry, so a new game is in
    each of them once it is registered, and a test fails while it lacks one.

    ``played``: one hand played move by move; ``reviewed``: one whose every draw names its
    card, for the hand review; ``short_match``: the players and options of a table whose
    match ends within a hand or two.
    """

    played: SampleHand
    reviewed: SampleHand | None
    short_match: tuple[int, Mapping[str, Any]]


# What an option holds: true or false, a whole number between bounds, or one of its choices.
BOOL, INT, CHOICE = "bool", "int", "choice"
# The forms that offer an option: a new table (and a group's), a league, the referee.
TABLE_FORM, LEAGUE_FORM, REFEREE_FORM = "table", "league", "referee"
# How a hand is entered by its result: one row per seat (cards or points, and the seat's
# flags), or Gin's two hands, the knocker's and the defender's (counts or cards).
SEATS_ENTRY, KNOCKER_DEFENDER_ENTRY = "seats", "knocker_defender"
# Or one sheet a side, for partners scoring as one (Burraco's pairs): each side's points and
# bonuses as the players count them.
PAIRS_SHEET_ENTRY = "pairs_sheet"
# What a box of a side's sheet holds: points (in the game's steps), a count, or a check box.
SHEET_POINTS, SHEET_COUNT, SHEET_FLAG = "points", "count", "flag"


@dataclass(frozen=True, slots=True)
class SheetField:
    """One box of a side's sheet (PAIRS_SHEET_ENTRY), as the game declares it: the form,
    its template and the provisional totals (games/pages/provisional.py) read it.

    ``key`` is the field in the entry's payload (``pairs[i].<key>``); ``label`` its English
    label, marked in the game's words module and translated by the pages; ``kind``
    SHEET_POINTS, SHEET_COUNT or SHEET_FLAG; ``rule`` the rule its box links to. ``high``
    bounds a number (the form refuses more before the engine reads it), ``step`` is what
    points go in. A ``required`` number must be typed (0 if none): an empty box is a
    number not counted yet. ``when_option``: the table option that gives the box a
    meaning ("" always). ``probe`` is its value in the sheet the provisional totals score
    to read the game's numbers. ``negated_unless`` names a points field whose zero turns
    this count's points into a penalty (a bonus that counts against a side that melded
    nothing); ``only_when_out``: the box counts only for the side that went out.
    """

    key: str
    label: str
    kind: str
    rule: str
    high: int = 0
    step: int = 1
    required: bool = False
    when_option: str = ""
    probe: Any = 0
    negated_unless: str = ""
    only_when_out: bool = False

    def asked(self, options: Mapping[str, Any]) -> bool:
        """Tell whether a sheet at a table of these options has this box."""
        return not self.when_option or bool(options.get(self.when_option))


@dataclass(frozen=True, slots=True)
class SideSheet:
    """A side's sheet as the game declares it (PAIRS_SHEET_ENTRY): its boxes, in the order
    the form shows them, and the one choice of the hand, which side went out.

    ``out_key`` is the flag each side's payload carries for it (true for one side at most),
    ``out_label``/``out_rule`` the choice's question and rule, ``nobody_label`` the choice
    of no side (the hand ended otherwise). ``hint``/``hint_rule``: the line above the
    sheets. ``out_needs``: the least figures a side that went out holds, for the
    provisional totals' probe (a closing needs a burraco). Labels are English, marked in
    the game's words module.
    """

    fields: tuple[SheetField, ...]
    out_key: str
    out_label: str
    out_rule: str
    nobody_label: str
    hint: str
    hint_rule: str
    out_needs: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def asked(self, options: Mapping[str, Any]) -> tuple[SheetField, ...]:
        """Return the boxes a sheet at a table of these options shows."""
        return tuple(box for box in self.fields if box.asked(options))


# The forms that offer most options: a new table's and a league's; and those with the referee.
TABLE_FORMS = (TABLE_FORM, LEAGUE_FORM)
ALL_FORMS = (TABLE_FORM, LEAGUE_FORM, REFEREE_FORM)
# What a switch does that the shared pages act on while it is on (OptionSpec.means), so no
# page asks for a game's own option by its key. NAMES_UPCARD: each hand names the card turned
# up at the deal (the hand forms and the referee's score ask for it); MELDED_POINTS: an
# entry by points takes each seat's melded points too; SEVERAL_GAMES: the sheet scores
# several games at once, so the totals are no single running sum.
NAMES_UPCARD, MELDED_POINTS, SEVERAL_GAMES = "names_upcard", "melded_points", "several_games"
MEANINGS = (NAMES_UPCARD, MELDED_POINTS, SEVERAL_GAMES)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """Say how the pages offer and show one of a game's table options (docs/rules.md, Table
    options); the game's options class still decides what a table may hold.

    ``key`` is the option's key in ``options_to_dict``; ``kind`` BOOL, INT (``low`` to
    ``high`` as the game's options class bounds it, ``high`` 0: no most) or CHOICE (one of
    ``choices``, in the order offered); ``rule`` the rule ID it cites; ``default`` what a new
    table is offered (None: the game decides, e.g. by the number of players).
    ``from_preset``: left unset, the table's preset gives it (Gin's
    bonuses and switches), so the forms offer "as the rules chosen". ``choices_by`` names
    the option whose value narrows ``choices``: ``choices_for`` pairs each of its values
    with the choices it allows (Gin's match lengths by preset). ``house``: among the house
    rules, folded away on the forms; ``forms`` the forms that offer it (TABLE_FORM,
    LEAGUE_FORM, REFEREE_FORM: the referee only where it changes an answer). ``line``: a
    line of the table's rules, shown only while the option ``line_when`` is on where that
    is set (its own key: only when on).
    ``summary`` says how the board's one-line summary words it ("" not at all): "playing_to"
    and "limit" a match length (1 is a single hand), "opening" an opening minimum, "hands"
    a number of hands, "reentries" a number of re-entries (none left out), "named" a switch
    named when on, "choice" the chosen choice's name. ``means``: what the pages do while
    the switch is on (one of MEANINGS, "" nothing beyond its line).
    """

    key: str
    kind: str
    rule: str
    default: Any = None
    choices: tuple[Any, ...] = ()
    low: int = 0
    high: int = 0
    from_preset: bool = False
    choices_by: str = ""
    choices_for: tuple[tuple[Any, tuple[Any, ...]], ...] = ()
    house: bool = False
    forms: tuple[str, ...] = TABLE_FORMS
    line: bool = True
    line_when: str = ""
    summary: str = ""
    means: str = ""

    def allowed(self, options: Mapping[str, Any]) -> tuple[Any, ...]:
        """Return the choices a table with these other options may take."""
        chosen = options.get(self.choices_by) if self.choices_by else None
        return next(
            (allowed for value, allowed in self.choices_for if value == chosen), self.choices
        )


def house_rule(key: str, rule: str, forms: tuple[str, ...] = ALL_FORMS, **more: Any) -> OptionSpec:
    """Return the spec of a house rule: a switch, off unless chosen, folded away on the forms
    and a line of the table's rules while it is on."""
    return OptionSpec(
        key, BOOL, rule, default=False, house=True, forms=forms, line_when=key, **more
    )


@dataclass(frozen=True, slots=True)
class SeatFlag:
    """One thing a hand entry says of a seat besides its cards (scoring/scoresheet.py's
    SeatEnd): ``key`` is its field (knocked, went_out, hand_closed, opening_penalty,
    sitting_out), ``rule`` the rule it cites ("" none). ``most`` 0 makes it true or false,
    else a count from 0 to ``most`` (failed openings). ``from_match``: the match sets it,
    not the players (the seats out of a match sit every hand out, S40-MATCH);
    ``when_option`` the option that gives it a meaning."""

    key: str
    rule: str = ""
    most: int = 0
    from_match: bool = False
    # The table option that gives the flag a meaning ("" always): a hand form asks for it
    # only while that option is on, and the referee, which asks about one hand, never.
    when_option: str = ""

    def asked(self, options: Mapping[str, Any]) -> bool:
        """Tell whether a hand entry at a table of these options asks for the flag."""
        return not self.when_option or bool(options.get(self.when_option))


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
    # What the pages, forms and API read of the game (docs/design.md, "Adding a game"): no
    # module outside scoring/variants/ compares a game's key (tests/test_one_module.py).
    name: str = ""  # the game's proper name ("Scala 40"), translated by the pages
    rule_prefix: str = ""  # what its own rules' IDs start with ("S40-")
    seat_counts: tuple[int, ...] = ()  # the table sizes it plays, where not all of ``players``
    options: tuple[OptionSpec, ...] = ()  # its table options, in the order the forms offer them
    # Named sets of options, chosen by the option "preset" (Gin's): a table's options are
    # its preset's, then its own.
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    hand_entry: str = SEATS_ENTRY  # how a hand is entered by its result
    seat_flags: tuple[SeatFlag, ...] = ()  # what a hand entry or the referee says of a seat
    # Whether players lay melds on the table during a hand (Gin's go down only at its end):
    # an entry names each seat's melded cards, a question may say the player has opened.
    table_melds: bool = True
    # How a phone works out a quick entry's points offline (games/pages/provisional.py,
    # static/js/provisional.js): "knock_difference", "penalty", "gain_loss", "lowest_wins",
    # "side_sheet" (one sheet a side);
    # "" none, the hand waits without a number.
    provisional: str = ""
    # Options a new table takes where its creator names none, which differ from what a log
    # that lacks them means: a log made before the option existed keeps the rule it was
    # played by (scala40's ``unopened_discard_check``), a table made now gets the sources'.
    new_table_defaults: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    # The endings a hand entered by its ender and the other player offers, by the table's
    # options (KNOCKER_DEFENDER_ENTRY: Gin's knock, gin, Big Gin, the wall).
    hand_endings: Callable[[Any], tuple[str, ...]] = lambda options: ()
    # Those of ``hand_endings`` where the ender goes out holding every card the turn brought,
    # the drawn one too, with no discard: an entry by cards shows one card more than the hand
    # size for them (KNOCKER_DEFENDER_ENTRY: Gin's Big Gin).
    endings_without_discard: frozenset[str] = frozenset()
    # Its worked hands and a short match (scoring/samples.py reads them from the registry).
    examples: GameExamples | None = None
    # The seats that play as one side, each a tuple of seats (Burraco's pairs sit across:
    # (0, 2) and (1, 3)); empty: every seat plays for itself.
    partners: tuple[tuple[int, ...], ...] = ()
    # Its own labels, titles and refusal sentences (scoring/words.py), which the pages look
    # in before their own catalogues; None: every word of the game is in those catalogues.
    words: GameWords | None = None
    # Its side's sheet (PAIRS_SHEET_ENTRY): the boxes each side fills and who went out.
    side_sheet: SideSheet | None = None
    # How a hand's result (as the table's state holds it) is told in the history, by a
    # line of ``words.hand_lines``; None, or a result it returns None for: the pages' own
    # line of who went out (games/templatetags/rummy.py).
    hand_line: Callable[[Mapping[str, Any]], HandLine | None] | None = None

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Return the sides at a table of ``players`` seats: the partnerships, or each seat
        alone where the game has none."""
        return self.partners or tuple((seat,) for seat in range(players))

    def new_table_options(self, options: Any) -> Any:
        """Return a new table's options with ``new_table_defaults`` under what it names (a
        value that is no dict is returned as it is, for the options' reader to refuse)."""
        if not isinstance(options, Mapping):
            return options
        return {**self.new_table_defaults, **options}

    @property
    def seatings(self) -> tuple[int, ...]:
        """Return every number of players the game seats."""
        low, high = self.players
        return self.seat_counts or tuple(range(low, high + 1))

    def option(self, key: str) -> OptionSpec | None:
        """Return the spec of the option ``key``, or None if the game has none."""
        return next((spec for spec in self.options if spec.key == key), None)

    def switch_meaning(self, means: str) -> OptionSpec | None:
        """Return the spec of the switch that ``means`` this (one of MEANINGS), or None."""
        return next((spec for spec in self.options if spec.means == means), None)

    def switched_on(self, means: str, options: Mapping[str, Any]) -> bool:
        """Return whether a table of these options has on the switch that ``means`` this."""
        spec = self.switch_meaning(means)
        return bool(spec and self.full_options(options).get(spec.key))

    def takes_upcard(self, options: Mapping[str, Any]) -> bool:
        """Return whether a hand at a table of these options names its first upcard."""
        return self.switched_on(NAMES_UPCARD, options)

    def options_offered(self, form: str) -> tuple[OptionSpec, ...]:
        """Return the options the form ``form`` offers, in order."""
        return tuple(spec for spec in self.options if form in spec.forms)

    def full_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Return a table's options with what its preset gives and the dict leaves out."""
        preset = options.get("preset")
        return {**(self.presets.get(preset, {}) if isinstance(preset, str) else {}), **options}

"""The table's read model: one typed view of a table at its head, which every page of the
table (the full page, its polls, every save's answer, the correction pages, the room
screen) reads, built from the same JSON-ready state the API answers with.

Two layers, both read-only:

- ``StateData`` and the TypedDicts under it are the state's wire shape, as
  ``scoring.replay.TableState.to_dict`` makes it, the projection row stores it and
  ``GET /api/tables/{id}/state/`` returns it. Naming its keys here makes the shape a
  contract rather than something that exists only in ``to_dict``.
- ``TableBoard`` is what a page shows, worked out once from a ``StateData``: the seats with
  their totals and who won or deals, the winners and loser by name, the match's bonus
  lines, the hand in play with its seats and melds. Templates read its fields and never
  index the state themselves.

Nothing here reads the database: ``games.tables.selectors.table_page`` adds the parts
that need the log's rows (who recorded each hand, the moves of the hand in play).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NotRequired, TypedDict

from games.rules.game_words import board_summary
from games.rules.text import rule_title
from scoring.cards import JOKER
from scoring.game import SEVERAL_GAMES
from scoring.play import DRAW, FINAL, FIRST, PLAY
from scoring.play.rules import KNOCK_SHOWING, PlayRules
from scoring.variants import game_get
from scoring.words import GameWords


class ItemData(TypedDict):
    """One line of a score: the rule applied, the seat it concerns and its points."""

    rule: str
    code: str
    seat: int | None
    points: int
    params: dict[str, Any]


class ResultData(TypedDict):
    """A hand's score: every seat's points and the items they come from."""

    players: list[str]
    ending: str
    points: list[int]
    winners: list[int]
    winner: int | None
    knocker: int | None
    hand_values: list[int]
    hands: list[list[str]]
    items: list[ItemData]


class CorrectionData(TypedDict):
    seq: int
    kind: str  # "voided" | "amended"
    reason: str
    result: ResultData | None


class HandData(TypedDict):
    """One hand of the history: its result in force, the original and every correction."""

    number: int
    seq: int
    voided: bool
    played: bool  # recorded move by move
    amended: bool
    result: ResultData | None
    original: ResultData
    corrections: list[CorrectionData]


class MeldData(TypedDict):
    number: int
    owner: int | None
    kind: str
    cards: list[str]
    meld: str


class PlaySeatData(TypedDict):
    count: int
    known: list[str]
    opened: bool
    penalties: int
    to_show: bool


class PlayData(TypedDict):
    """The hand being played move by move, as a phone shows it."""

    seq: int
    dealer: int
    turn: int | None
    phase: str
    stock: int
    discard_top: str | None
    discard_count: int
    draws: int
    owed_jokers: Any
    melded_now: bool
    opening: dict[str, int] | None
    claimable: bool
    ending: Any
    ender: Any
    moves: int
    table: list[MeldData]
    hands: list[PlaySeatData]


class GameData(TypedDict):
    """One of the games a match scores on one sheet (GIN-HOLLYWOOD)."""

    number: int
    totals: list[int]
    finished: bool
    winner: int | None
    hands: int  # the hand after which it ended; 0 while it goes on


class MatchData(TypedDict):
    finished: bool
    hands: int
    totals: list[int]
    items: list[ItemData]
    winners: list[int]
    winner: int | None
    loser: int | None
    games: NotRequired[list[GameData]]  # Gin's Hollywood: its three games
    # A match played by elimination (Scala 40): the seats out of it, and each seat's place.
    out: NotRequired[list[int]]
    places: NotRequired[list[int]]


class DecisionData(TypedDict):
    kind: str  # "lock" | "void" | "score"
    reason: str
    points: list[int]


class AdjustmentData(TypedDict):
    seq: int
    seat: int
    points: int
    reason: str


class StateData(TypedDict):
    """The state at a table's head, on the wire (the API) and in the projection row."""

    variant: str
    options: dict[str, Any]
    seats: list[str]
    head_seq: int
    totals: list[int]
    winner: int | None
    finished: bool
    dealer: int
    turn: int | None
    play: PlayData | None
    hands: list[HandData]
    match: NotRequired[MatchData]  # every game but Gin
    confirmed: NotRequired[list[int]]
    decision: NotRequired[DecisionData]
    adjustments: NotRequired[list[AdjustmentData]]
    sides: NotRequired[list[list[int]]]  # where partners score as one (Burraco's pairs)


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat on the scoreboard."""

    seat: int
    name: str
    total: int  # with the end-of-match bonuses once the match is over (KR-MATCH)
    won: bool
    deals: bool  # deals the next hand, or dealt the hand in play
    out: bool = False  # out of a match played by elimination: it sits the hands out
    place: int | None = None  # its place, where the match gives places (S40-MATCH)
    # A side's box: which partner deals ("" in a seat's own box, whose name says it).
    dealer_name: str = ""


@dataclass(frozen=True, slots=True)
class GameColumn:
    """One game of a sheet that scores several at once (GIN-HOLLYWOOD), as a column."""

    number: int
    totals: tuple[int, ...]  # seat by seat, with the game's bonuses once it is over
    finished: bool
    winner_name: str  # "" while it goes on, or on equal totals
    hands: int  # the hand after which it ended


@dataclass(frozen=True, slots=True)
class AdjustmentLine:
    """A director's adjustment of one player's total, as the board lists it."""

    name: str
    points: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlaySeat:
    """One seat of the hand in play: its cards' count and what is known of them."""

    seat: int
    name: str
    count: int
    known: tuple[str, ...]
    opened: bool
    penalties: int
    to_show: bool
    to_move: bool
    dealt: bool


@dataclass(frozen=True, slots=True)
class MeldGroup:
    """Melds on the table, under their owner's name where ownership matters (R40-ADD)."""

    owner: str
    melds: tuple[MeldData, ...]


@dataclass(frozen=True, slots=True)
class PlayBoard:
    """The hand being played move by move."""

    seq: int  # the deal's
    dealer: int
    turn: int | None  # None once the hand is over and the cards are shown
    turn_name: str
    phase: str
    stock: int
    discard_top: str | None
    discard_count: int
    draws: int
    melded_now: bool
    opening: dict[str, int] | None
    claimable: bool
    table: tuple[MeldData, ...]
    seats: tuple[PlaySeat, ...]
    meld_groups: tuple[MeldGroup, ...]
    rearrange_text: str  # the table written out, to edit for a rearrangement
    # What the game's play rules allow, read from its rules object (scoring/play/rules.py),
    # so the move buttons never ask which game it is.
    moves_offered: tuple[str, ...]  # the move buttons of this phase (MoveForm's names)
    discard_pile: bool
    owned_melds: bool  # a player adds only to their own melds (R40-ADD)
    opening_rule: str | None  # the rule an opening cites (R40-OPEN, RAM-OPEN); None: none
    jokers: bool  # the deck holds jokers
    knock_shows_cards: bool  # a knock shows the cards kept (GIN-KNOCK)
    first_turn_rule: str | None  # a first turn taking the face-up card or passing (GIN-FIRST)
    # The knock button's name in the game's own words (GameWords.moves), in English: the
    # page translates it. None: the page's own word.
    knock_word: str | None
    show_by_points: bool  # the hands left may be shown by their value
    hand_size: int  # the cards dealt to each player
    known_to_move: tuple[str, ...]  # what is known of the mover's cards: offered first

    @property
    def drawing(self) -> bool:
        """Tell whether the mover may draw now (the stock and discard pile buttons)."""
        return "draw_stock" in self.moves_offered

    @property
    def picking(self) -> bool:
        """Tell whether a move of this phase takes cards from the hand (the card picker)."""
        return any(move in self.moves_offered for move in CARD_MOVES)


@dataclass(frozen=True, slots=True)
class TableBoard:
    """A table at its head, as its pages show it."""

    state: StateData
    variant: str
    options: dict[str, Any]
    head_seq: int
    seat_names: tuple[str, ...]
    seats: tuple[SeatLine, ...]
    finished: bool
    winner_names: tuple[str, ...]
    loser_name: str
    match_items: tuple[ItemData, ...]
    dealer: int
    hands: tuple[HandData, ...]
    hand_count: int
    last_played: HandData | None  # the latest hand in force, for the room screen
    play: PlayBoard | None
    decision: DecisionData | None
    confirmed: tuple[int, ...]
    lower_is_better: bool
    upcard_at_deal: bool  # the deal turns a card up to start the discard pile
    adjustments: tuple[AdjustmentLine, ...] = ()
    # The games of a sheet that scores several at once (GIN-HOLLYWOOD); none otherwise.
    games: tuple[GameColumn, ...] = ()
    # The rule of the switch that has the sheet score several games (SEVERAL_GAMES), "" none.
    games_rule: str = ""
    # The scoreboard's boxes: one a seat, or one a side where partners play as one (Burraco's
    # pairs), the side's partners named together with the total they share.
    boxes: tuple[SeatLine, ...] = ()
    # Each seat's name as a hand's line says who scored: its side's ("Anna & Carla") where
    # partners score as one, so the line names the pair once.
    seat_labels: tuple[str, ...] = ()
    # The options as the game's rules read them (``GameRules.options_from_dict``), parsed
    # once here, or taken from the engine's state, so that no form parses them again.
    typed_options: Any = field(default=None, repr=False, compare=False)

    @property
    def games_ended(self) -> bool:
        """Tell whether a game of the sheet is over (its column then says who won it)."""
        return any(game.finished for game in self.games)

    @property
    def games_title(self) -> str:
        """Return what the games' columns are, as their rule's title says it."""
        return rule_title(self.games_rule, self.options) if self.games_rule else ""

    @property
    def game_rows(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Return each seat's name with its total in each game of the sheet (GIN-HOLLYWOOD)."""
        return tuple(
            (name, tuple(game.totals[seat] for game in self.games))
            for seat, name in enumerate(self.seat_names)
        )

    @property
    def playing(self) -> bool:
        """Tell whether a hand is being played move by move."""
        return self.play is not None

    @property
    def out_seats(self) -> tuple[int, ...]:
        """Return the seats out of a match played by elimination (none elsewhere)."""
        return tuple(self.state.get("match", {}).get("out", ()))

    @property
    def match_rule(self) -> str:
        """Return the rule that says how the table's match ends (a loser's line cites it)."""
        return game_get(self.variant).match_rule

    @property
    def summary(self) -> list[str]:
        """Return the board's few words on the table's options ("Limit 101", "1 re-entry")."""
        return board_summary(game_get(self.variant), self.options)

    @property
    def to_confirm(self) -> tuple[SeatLine, ...]:
        """Return the seats still to confirm the finished match's result."""
        if not self.finished or self.decision is not None:
            return ()
        return tuple(seat for seat in self.seats if seat.seat not in self.confirmed)


# The moves that take cards from the mover's hand: the card picker is shown for them.
CARD_MOVES = ("discard", "meld", "add", "swap", "rearrange", "knock")


def board_from_state(state: StateData, *, typed_options: Any = None) -> TableBoard:
    """Return the board a page shows of the table at ``state`` (``typed_options``: its
    options as the engine holds them, when at hand; else parsed here)."""
    names = tuple(state["seats"])
    match = state.get("match")
    winners, seats = _seat_lines(state, names, match)
    loser = match.get("loser") if match else None
    finished = state["finished"]
    played = [hand for hand in state["hands"] if not hand["voided"] and hand["result"]]
    game = game_get(state["variant"])
    teams = game.teams(len(names))
    boxes = _side_boxes(seats, teams)
    if typed_options is None:
        typed_options = game.options_from_dict(state["options"], len(names))
    rules = game.play_rules(typed_options, len(names))
    return TableBoard(
        state=state,
        variant=state["variant"],
        options=state["options"],
        head_seq=state["head_seq"],
        seat_names=names,
        seats=seats,
        finished=finished,
        # Partners win together: their side's box names them (one winner, not two sharing).
        winner_names=(
            tuple(names[seat] for seat in winners)
            if boxes is seats
            else tuple(box.name for box in boxes if box.won)
        ),
        loser_name=names[loser] if loser is not None else "",
        match_items=tuple(match["items"]) if match else (),
        dealer=state["dealer"],
        hands=tuple(state["hands"]),
        hand_count=len(state["hands"]),
        last_played=played[-1] if played else None,
        play=_play_board(state["play"], names, rules, game.words) if state["play"] else None,
        decision=state.get("decision"),
        confirmed=tuple(state.get("confirmed", ())),
        lower_is_better=game.standings.lower_is_better,
        upcard_at_deal=rules.discard_pile,
        adjustments=tuple(
            AdjustmentLine(names[a["seat"]], a["points"], a["reason"])
            for a in state.get("adjustments", ())
        ),
        games=_game_columns(match, names),
        games_rule=several.rule if (several := game.switch_meaning(SEVERAL_GAMES)) else "",
        boxes=boxes,
        seat_labels=_seat_labels(boxes, teams),
        typed_options=typed_options,
    )


def _seat_labels(
    boxes: tuple[SeatLine, ...], teams: tuple[tuple[int, ...], ...]
) -> tuple[str, ...]:
    """Return each seat's name as a hand's line gives it: its box's (its side's)."""
    by_seat = {seat: box.name for box, team in zip(boxes, teams, strict=True) for seat in team}
    return tuple(by_seat[seat] for seat in sorted(by_seat))


def _seat_lines(
    state: StateData, names: tuple[str, ...], match: MatchData | None
) -> tuple[list[int], tuple[SeatLine, ...]]:
    """Return the match's winners and each seat's line on the scoreboard."""
    # Gin's state has no match entry; before the first hand a match's totals are empty, and
    # after the last they hold the end-of-match bonuses (KR-MATCH).
    totals = (match["totals"] if match else None) or state["totals"]
    if match is not None:
        winners = list(match["winners"])
    else:
        winners = [] if state["winner"] is None else [state["winner"]]
    out, places = set(match.get("out", ())) if match else set(), (match or {}).get("places")
    finished = state["finished"]
    seats = tuple(
        SeatLine(
            seat=seat,
            name=name,
            total=total,
            won=finished and seat in winners,
            deals=not finished and seat == state["dealer"],
            out=seat in out,
            place=places[seat] if finished and places else None,
        )
        for seat, (name, total) in enumerate(zip(names, totals, strict=True))
    )
    return winners, seats


def _side_boxes(
    seats: tuple[SeatLine, ...], teams: tuple[tuple[int, ...], ...]
) -> tuple[SeatLine, ...]:
    """Return the scoreboard's boxes: each seat's line where every seat plays alone, else
    one line a side, under its first partner's seat: the partners' names joined, the total
    they share (each partner carries the side's points), won and dealing as any partner."""
    if all(len(team) == 1 for team in teams):
        return seats
    return tuple(
        replace(
            seats[team[0]],
            name=" & ".join(seats[seat].name for seat in team),
            won=any(seats[seat].won for seat in team),
            deals=any(seats[seat].deals for seat in team),
            dealer_name=next((seats[seat].name for seat in team if seats[seat].deals), ""),
        )
        for team in teams
    )


def _game_columns(match: MatchData | None, names: tuple[str, ...]) -> tuple[GameColumn, ...]:
    """Return the games one sheet holds (GIN-HOLLYWOOD's three), each with its totals."""
    return tuple(
        GameColumn(
            number=g["number"],
            totals=tuple(g["totals"]),
            finished=g["finished"],
            winner_name=names[g["winner"]] if g["winner"] is not None else "",
            hands=g["hands"],
        )
        for g in (match.get("games", ()) if match else ())
    )


def _play_board(
    play: PlayData, names: tuple[str, ...], rules: PlayRules, words: GameWords | None
) -> PlayBoard:
    melds = tuple(play["table"])
    # Where a player adds only to their own melds (R40-ADD), who laid each one matters.
    if not rules.add_to_any:
        groups = tuple(
            MeldGroup(names[seat], tuple(m for m in melds if m["owner"] == seat))
            for seat in range(len(names))
            if any(m["owner"] == seat for m in melds)
        )
    else:
        groups = (MeldGroup("", melds),) if melds else ()
    turn = play["turn"]
    return PlayBoard(
        seq=play["seq"],
        dealer=play["dealer"],
        turn=turn,
        turn_name=names[turn] if turn is not None else "",
        phase=play["phase"],
        stock=play["stock"],
        discard_top=play["discard_top"],
        discard_count=play["discard_count"],
        draws=play["draws"],
        melded_now=play["melded_now"],
        opening=play["opening"],
        claimable=play["claimable"],
        table=melds,
        seats=tuple(
            PlaySeat(
                seat=seat,
                name=name,
                count=hand["count"],
                known=tuple(hand["known"]),
                opened=hand["opened"],
                penalties=hand["penalties"],
                to_show=hand["to_show"],
                to_move=seat == turn,
                dealt=seat == play["dealer"],
            )
            for seat, (name, hand) in enumerate(zip(names, play["hands"], strict=True))
        ),
        meld_groups=groups,
        rearrange_text="\n".join(m["meld"] for m in melds),
        moves_offered=_moves_offered(play, rules),
        discard_pile=rules.discard_pile,
        owned_melds=not rules.add_to_any,
        opening_rule=rules.opening_rule,
        jokers=rules.deck.jokers > 0,
        knock_shows_cards=rules.knock == KNOCK_SHOWING,
        first_turn_rule=rules.first_turn_rule,
        knock_word=words.moves.get("knock") if words is not None else None,
        show_by_points=rules.show_by_points,
        hand_size=rules.hand_size,
        known_to_move=tuple(play["hands"][turn]["known"]) if turn is not None else (),
    )


def _moves_offered(play: PlayData, rules: PlayRules) -> tuple[str, ...]:
    """Return the moves the mover may make in the hand's phase, as the game's rules allow
    them; the engine still judges each one (whose turn, which cards, the opening)."""
    phase, table = play["phase"], play["table"]
    if play["turn"] is None:
        return ("show",)
    if phase == FIRST:
        return ("draw_discard", "pass")  # the first turn: the face-up card, or pass
    if play.get("owed_draws"):
        # A bonus card laid (Canasta's red 3) is replaced from the stock before any other move.
        return ("draw_stock",)
    offered = []
    # Knock Rummy draws up to three times a turn, until it melds (KR-TURN).
    if phase == DRAW or (
        phase == PLAY and not play["melded_now"] and play["draws"] < rules.max_draws
    ):
        offered.append("draw_stock")
        if rules.discard_pile and play["discard_top"]:
            offered.append("draw_discard")
    if phase in (PLAY, FINAL):
        if rules.discard_pile and phase == PLAY:
            offered.append("discard")
        if not rules.melds_at_knock:
            offered.append("meld")
        if table and rules.rearrange:
            offered.append("rearrange")
        elif table and not rules.melds_at_knock:
            offered.append("add")
        if rules.swap_rule and any(str(JOKER) in m["cards"] for m in table):
            offered.append("swap")
        if rules.rearrange:
            offered.append("pass")  # the end of a Knock Rummy turn
        if rules.knock is not None:
            offered.append("knock")
    if play["claimable"]:
        offered.append("claim")
    return tuple(offered)

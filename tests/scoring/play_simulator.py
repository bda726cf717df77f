"""A table simulator for the play-by-play property tests: real cards, legal moves, the log.

The simulator deals real shuffled cards and plays every seat with simple, legal moves as
docs/rules.md states them: it draws from the stock (naming the card or not) or the discard pile,
opens with the solver's most valuable melds when they reach the minimum, adds cards to table
melds, swaps jokers, claims discards, knocks when the count allows, lets the stock run out,
and shows the real hands at the end. It plays badly on purpose where that keeps it short and
legal. It never asks scoring.play what is legal: the log it writes is the oracle the engine
is tested against. It uses the engine's card and meld helpers (check_meld, the solver, the
variants' decks and values), which have their own tests.

Beside the log it keeps, for every event, what the table really looked like just before it
(``Point``), so a test can inject a move that breaks a known rule at any point, and, for
every hand, the same hand as a scorekeeper would enter it by hand (``Entry``), so a test can
check that play by play scores what hand by hand scores.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from scoring.cards import Card, DeckSpec
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    HAND_RECORDED,
    HAND_STARTED,
    HANDS_SHOWN,
    MOVE_UNDONE,
    TABLE_CREATED,
    LogEvent,
)
from scoring.melds import MeldRules
from scoring.play.state import next_in
from scoring.variants import (
    burraco,
    canasta,
    game_get,
    gin,
    knock_rummy,
    ramino,
    rummy40,
    scala40,
)
from scoring.variants.gin.cards import gin_value
from tests.scoring.play_sim_base import (
    DRAW,
    FIRST,
    PLAY,
    SEAT_NAMES,
    SHOW,
    Config,
    Entry,
    Point,
    Simulation,
    TableMeld,
    _Stop,
    _text,
)
from tests.scoring.play_sim_burraco import BurracoMoves
from tests.scoring.play_sim_canasta import CanastaMoves
from tests.scoring.play_sim_gin import GinMoves
from tests.scoring.play_sim_knock_rummy import KnockRummyMoves
from tests.scoring.play_sim_rummy import RummyMoves

# A Scala 40 hand goes on while nobody closes (S40-STOCK); the simulator stops there.
MAX_TURNS = 400


class TableSimulator:
    """Play one table: its creation, then hands until the config's count or the match's end."""

    def __init__(self, config: Config, rng: random.Random) -> None:
        self.config = config
        self.rng = rng
        self.game = config.variant
        self.variant = game_get(config.variant)
        self.seats = SEAT_NAMES[: config.players]
        self.options = self.variant.options_from_dict(dict(config.options), config.players)
        self.deck, self.hand_size, self.melds, self.value = _game(
            self.game, self.options, config.players
        )
        self.events: list[LogEvent] = []
        self.points: list[Point] = []
        self.entries: list[Entry] = []
        self.next_dealer = 0
        # Seats out of the match (S40-MATCH): dealt nothing, passed over by turns and deals.
        self.out: tuple[int, ...] = ()
        self.totals: tuple[int, ...] = ()

    def run(self) -> Simulation:
        """Write the log."""
        created = {"variant": self.game, "options": dict(self.config.options)}
        try:
            self.emit(TABLE_CREATED, {**created, "seats": list(self.seats)}, Point(None, None))
            results = []
            for _ in range(self.config.hands):
                match = self.variant.match_result(self.options, results)
                if match.finished:
                    break
                self.out = match.out
                # Each seat's total before the hand (Canasta's first meld turns on it).
                self.totals = tuple(match.totals)
                entry = self._hand()
                if entry is not None and entry.payload is not None:
                    read = self.variant.read_entry(self.options, entry.payload, self.seats)
                    results.append(self.variant.score_entry(self.options, read, self.seats))
        except _Stop:
            pass
        return Simulation(
            self.config,
            self.options,
            self.deck,
            self.melds,
            tuple(self.events),
            tuple(self.points),
            tuple(self.entries),
        )

    def emit(self, kind: str, payload: Mapping[str, Any], point: Point) -> int:
        """Append an event to the log and return its seq."""
        limit = self.config.max_events
        if limit is not None and len(self.events) >= limit:
            raise _Stop
        self.events.append(LogEvent(len(self.events) + 1, kind, dict(payload)))
        self.points.append(point)
        return len(self.events)

    def dealer(self) -> int:
        """Return the seat the engine deals to next: the next dealer, passing over seats out."""
        if self.next_dealer in self.out:
            return next_in(self.next_dealer - 1, len(self.seats), self.out)
        return self.next_dealer

    def _hand(self) -> Entry | None:
        dealer = self.dealer()
        if self.rng.random() < 0.2:
            dealer = self.rng.choice([s for s in range(len(self.seats)) if s not in self.out])
        recorded = self.rng.random() < self.config.recorded
        hand = HandSimulator(self, dealer, silent=recorded)
        hand.play()
        entry = hand.entry()
        if recorded and entry is None:
            return None  # a void hand is not entered by hand
        if recorded:
            payload = hand.points_entry() if self.rng.random() < 0.3 else entry
            seq = self.emit(HAND_RECORDED, payload, Point(None, None))
            dealer = self.dealer()
        else:
            seq = hand.scored_seq
        self.next_dealer = (dealer + 1) % len(self.seats)
        result = Entry(seq, entry)
        self.entries.append(result)
        return result


def _game(game: str, options: Any, players: int) -> tuple[DeckSpec, int, MeldRules, Callable]:
    """Return the deck, the hand size, the meld rules and the hand values of a table."""
    if game == "gin":
        return gin.GIN_DECK, gin.HAND_SIZE, gin.GIN_MELDS, gin_value
    module = {
        "rummy40": rummy40,
        "ramino": ramino,
        "knock_rummy": knock_rummy,
        "scala40": scala40,
        "burraco": burraco,
        "canasta": canasta,
    }[game]
    value = ramino.card_values(options) if game == "ramino" else module.card_value
    return (
        module.deck(options, players),
        module.hand_size(options, players),
        module.meld_rules(options),
        value,
    )


class HandSimulator(GinMoves, RummyMoves, KnockRummyMoves, BurracoMoves, CanastaMoves):
    """Deal one hand and play it to its end with legal moves."""

    def __init__(self, table: TableSimulator, dealer: int, *, silent: bool) -> None:
        self.table = table
        self.rng = table.rng
        self.game = table.game
        self.options = table.options
        self.rules = table.melds
        self.deck = table.deck
        self.n = len(table.seats)
        self.silent = silent
        cards = list(self.deck.cards())
        self.rng.shuffle(cards)
        self.out = table.out
        self.hands = [
            [] if seat in self.out else [cards.pop() for _ in range(table.hand_size)]
            for seat in range(self.n)
        ]
        self.discard: list[Card] = [] if self.game == "knock_rummy" else [cards.pop()]
        self.stock = cards  # the top is the end
        self.kitties = self._kitties()  # Burraco's pozzetti, set aside from the stock
        self.table_melds: list[TableMeld] = []
        self.melded: list[list[Card]] = [[] for _ in range(self.n)]
        self.opened = [False] * self.n
        self.opened_turn = [0] * self.n
        self.penalties = [0] * self.n
        self.dealer = dealer
        self.turn = next_in(dealer, self.n, self.out)
        self.turn_number = 1
        self.phase = FIRST if self.game == "gin" else DRAW
        self.draws = 0
        self.passes = 0
        self.taken: Card | None = None
        self.melded_now = False
        self.short_opening = 0  # melds of a short Rummy40 opening waiting on the table
        self.ending: str | None = None  # "out", "knock", "stock", "wall"
        self.ender: int | None = None
        self.knocker_kept: list[Card] = []
        self.scored_seq = 0
        self.minimum = getattr(self.options, "opening_minimum", 0)

    # The log ----------------------------------------------------------------------------

    def point(self) -> Point:
        """Return the table as it is now."""
        return Point(
            phase=self.phase,
            turn=self.turn,
            hands=tuple(tuple(hand) for hand in self.hands),
            opened=tuple(self.opened),
            table=tuple(self.table_melds),
            discard=tuple(self.discard),
            stock=len(self.stock),
            draws=self.draws,
            passes=self.passes,
            taken=self.taken,
            melded_now=self.melded_now,
        )

    def move(self, kind: str, payload: Mapping[str, Any], *, scores: bool = False) -> None:
        """Record a move; sometimes take it back and make it again (move_undone).

        A move that scores the hand cannot be taken back: the hand has left the play.
        """
        if self.silent:
            return
        point = self.point()
        seq = self.table.emit(kind, payload, point)
        if scores:
            self.scored_seq = seq
        elif self.rng.random() < self.table.config.undo:
            # The table before an undo is the one after the move: no point to inject at.
            self.table.emit(MOVE_UNDONE, {"reason": "wrong entry"}, Point(None, None))
            self.table.emit(kind, payload, point)

    # A hand -----------------------------------------------------------------------------

    def play(self) -> None:
        """Deal, then play turns until the hand is over and shown."""
        start: dict[str, Any] = {}
        if self.dealer != self.table.dealer() or self.rng.random() < 0.3:
            start["dealer"] = self.dealer
        if self.discard:
            start["upcard"] = str(self.discard[0])
        self.move(HAND_STARTED, start)
        if self.game == "gin":
            self._gin_first_turn()
        turns = 0
        while self.ending is None:
            turns += 1
            if turns > MAX_TURNS:
                raise _Stop  # S40-STOCK makes the stock again: a hand nobody closes goes on
            if self.game == "gin":
                self._gin_turn()
            elif self.game == "knock_rummy":
                self._kr_turn()
            elif self.game == "burraco":
                self._burraco_turn()
            elif self.game == "canasta":
                self._canasta_turn()
            else:
                self._rummy_turn()
        if self.ending != "wall":
            self._show()

    def _next_turn(self) -> None:
        self.turn = next_in(self.turn, self.n, self.out)
        self.turn_number += 1
        self.phase = DRAW
        self.draws = 0
        self.passes = 0
        self.taken = None
        self.melded_now = False

    def _draw_stock(self, seat: int) -> None:
        card = self.stock[-1]
        payload: dict[str, Any] = {"seat": seat, "source": "stock"}
        if self.rng.random() < 0.5:
            payload["card"] = str(card)
        self.move(CARD_DRAWN, payload)
        self.hands[seat].append(self.stock.pop())
        self.phase = PLAY
        self.draws += 1

    def _draw_discard(self, seat: int) -> None:
        card = self.discard[-1]
        payload: dict[str, Any] = {"seat": seat, "source": "discard"}
        if self.rng.random() < 0.5:
            payload["card"] = str(card)
        self.move(CARD_DRAWN, payload)
        self.discard.pop()
        self.hands[seat].append(card)
        self.taken = card
        self.phase = PLAY
        self.draws += 1

    def _discard_card(self, seat: int, card: Card) -> None:
        """Discard; the hand ends when it was the last card or the stock is out."""
        wall = self.game == "gin" and len(self.stock) <= self._wall()
        self.move(CARD_DISCARDED, {"seat": seat, "card": str(card)}, scores=wall)
        self._take_back_short_opening(seat)
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        if not hand:
            self.ending, self.ender = "out", seat
        elif wall:
            self.ending = "wall"
        elif not self.stock and self.game == "scala40" and len(self.discard) > 1:
            # S40-STOCK: the pile but its top card is turned and shuffled as the new stock.
            self.stock = self.discard[:-1]
            self.rng.shuffle(self.stock)
            self.discard = self.discard[-1:]
            self._next_turn()
        elif not self.stock:
            self.ending = "stock"
        else:
            self._next_turn()
            self._maybe_claim(seat)

    def _wall(self) -> int:
        # GIN-WALL: void at two stock cards left; without the wall, when none is left.
        return 2 if self.options.wall else 0

    # The end of the hand ----------------------------------------------------------------

    def _show(self) -> None:
        """hands_shown: every seat still holding cards shows them (or their points)."""
        by_points = self.game != "gin" and self.rng.random() < 0.3
        players: list[dict[str, Any] | None] = []
        for hand in self.hands:
            if not hand:
                players.append(None)
            elif by_points:
                players.append({"points": sum(map(self.table.value, hand))})
            else:
                players.append({"hand": _text(hand)})
        self.phase = SHOW
        mode = "points" if by_points else "cards"
        self.move(HANDS_SHOWN, {"mode": mode, "players": players}, scores=True)

    def entry(self) -> dict[str, Any] | None:
        """Return the hand as a scorekeeper enters it by hand, with the real cards."""
        if self.game == "burraco":
            return self._burraco_entry(by_points=False)
        if self.game == "canasta":
            return self._canasta_entry(by_points=False)
        if self.game == "gin":
            if self.ending == "wall":
                return {"mode": "quick", "ending": "wall"} if self.options.wall else None
            return {
                "mode": "cards",
                "knocker": self.ender,
                "knocker_cards": _text(self.knocker_kept),
                "defender_cards": _text(self.hands[1 - self.ender]),
            }
        players = [
            {"hand": _text(self.hands[seat]), "melded": _text(self.melded[seat]), **flags}
            for seat, flags in enumerate(self._flags())
        ]
        return {"mode": "cards", "players": players, "stock_exhausted": self.ending == "stock"}

    def points_entry(self) -> dict[str, Any]:
        """Return the hand entered by each seat's hand value instead of its cards."""
        if self.game == "burraco":
            return self._burraco_entry(by_points=True)
        if self.game == "canasta":
            return self._canasta_entry(by_points=True)
        if self.game == "gin":
            return self.entry()  # Gin has no entry by points
        players = []
        for seat, flags in enumerate(self._flags()):
            player = {"points": sum(map(self.table.value, self.hands[seat])), **flags}
            if self.game == "ramino" and self.options.casino_scoring and seat == self.ender:
                player["melded_points"] = sum(map(ramino.casino_value, self.melded[seat]))
            players.append(player)
        return {"mode": "points", "players": players, "stock_exhausted": self.ending == "stock"}

    def _flags(self) -> list[dict[str, Any]]:
        flags: list[dict[str, Any]] = []
        for seat in range(self.n):
            if seat in self.out:
                flags.append({"sitting_out": True})  # S40-MATCH: out of the match
                continue
            out = self.ender == seat and not self.hands[seat]
            flag: dict[str, Any] = {"went_out": out}
            if self.game in ("rummy40", "scala40") and self.penalties[seat]:
                flag["opening_penalty"] = self.penalties[seat]
            if self.game in ("ramino", "scala40"):
                # RAM-HANDCLOSE: out in the turn of the first meld.
                flag["hand_closed"] = out and self.opened_turn[seat] == self.turn_number
            if self.game == "knock_rummy":
                flag["knocked"] = self.ending == "knock" and self.ender == seat
            flags.append(flag)
        return flags


def simulate(config: Config, rng: random.Random) -> Simulation:
    """Simulate a table and return its log with the table before each event."""
    return TableSimulator(config, rng).run()


def visible(point: Point) -> Counter[Card]:
    """Return the cards face up on the table and the discard pile at a point (CARD-2)."""
    shown = Counter(point.discard)
    for item in point.table:
        shown.update(item.meld.cards)
    return shown

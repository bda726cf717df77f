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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.cards import JOKER, Card, DeckSpec, gin_value
from scoring.errors import RuleViolation
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    DISCARD_CLAIMED,
    HAND_RECORDED,
    HAND_STARTED,
    HANDS_SHOWN,
    JOKER_SWAPPED,
    KNOCKED,
    MELDS_LAID,
    MOVE_UNDONE,
    TABLE_CREATED,
    TABLE_REARRANGED,
    TURN_PASSED,
    LogEvent,
)
from scoring.melds import Meld, MeldRules, check_meld, opening_value
from scoring.solver import best_arrangement, best_opening
from scoring.variants import game_get, gin, knock_rummy, ramino, rummy40

SEAT_NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")

# Phases of a hand as the simulator plays it (docs/rules.md words, not the engine's).
FIRST = "first"  # Gin's first turn: take the upcard or pass (GIN-FIRST)
DRAW = "draw"  # the seat to move has not drawn yet
PLAY = "play"  # the seat to move has drawn
FINAL = "final"  # Knock Rummy, stock used up: one melding turn each (KR-STOCK)
SHOW = "show"  # the hand is over, the hands left are to be shown

GIN_KNOCK_LIMIT = 10  # GIN-KNOCK
KR_KNOCK_LIMIT = 5  # KR-KNOCK
KR_DRAWS = 3  # KR-TURN


@dataclass(frozen=True, slots=True)
class Config:
    """Say what table to simulate and how often to take the rarer paths."""

    variant: str
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    hands: int = 1  # hands to enter at most; the match may end first
    recorded: float = 0.0  # chance that a hand is entered by hand_recorded instead
    undo: float = 0.0  # chance that a move is taken back and made again
    max_events: int | None = None  # stop the log there (a prefix of a legal log is legal)


@dataclass(frozen=True, slots=True)
class TableMeld:
    """Hold a meld on the table and the seat that laid it."""

    owner: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class Point:
    """Hold what the table really looked like just before one event of the log."""

    phase: str | None  # None between hands
    turn: int | None
    hands: tuple[tuple[Card, ...], ...] = ()
    opened: tuple[bool, ...] = ()
    table: tuple[TableMeld, ...] = ()
    discard: tuple[Card, ...] = ()
    stock: int = 0
    draws: int = 0
    passes: int = 0  # GIN-FIRST passes so far
    taken: Card | None = None  # the card taken from the discard pile this turn
    melded_now: bool = False  # the seat to move melded this turn


@dataclass(frozen=True, slots=True)
class Entry:
    """Hold one hand as a scorekeeper enters it by hand, and the seq of the event scoring it.

    ``payload`` is None for a Gin hand void because the stock ran out at a table without the
    wall: it scores nothing, and hand by hand it is not entered at all (a hand entered as a
    wall is refused there, GIN-WALL).
    """

    seq: int
    payload: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class Simulation:
    """Hold a simulated table: its log, the table before each event, the hands entered."""

    config: Config
    options: Any
    deck: DeckSpec
    melds: MeldRules
    events: tuple[LogEvent, ...]
    points: tuple[Point, ...]
    entries: tuple[Entry, ...]


class _Stop(Exception):
    """The log is as long as asked, or the simulator has no legal move: it stops there."""


def _text(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)


def _without(cards: Sequence[Card], gone: Sequence[Card]) -> list[Card]:
    left = list(cards)
    for card in gone:
        left.remove(card)
    return left


def extension(meld: Meld, cards: Sequence[Card], rules: MeldRules) -> Meld | None:
    """Return the meld with cards added at its ends, its jokers keeping their cards, or None."""
    if len(cards) == 1 and not _may_extend(meld, cards[0]):
        return None
    declarations = [stands for _, stands in meld.declared()] + [None] * len(cards)
    try:
        return check_meld((*meld.cards, *cards), rules, declarations)
    except RuleViolation:
        return None


def _may_extend(meld: Meld, card: Card) -> bool:
    """Tell whether a card could fit the meld, before asking check_meld (which is slower)."""
    if card.is_joker:
        return True
    stands = meld.stands_for
    if meld.kind == "set":
        return card.rank == stands[0].rank
    ends = (stands[0].rank, stands[-1].rank)
    return card.suit == stands[0].suit and any((card.rank - end) % 13 in (1, 12) for end in ends)


def _jokers(meld: Meld) -> Counter[Card]:
    """Return the cards the meld's jokers stand for."""
    return Counter(stands for card, stands in meld.declared() if card.is_joker)


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

    def run(self) -> Simulation:
        """Write the log."""
        created = {"variant": self.game, "options": dict(self.config.options)}
        try:
            self.emit(TABLE_CREATED, {**created, "seats": list(self.seats)}, Point(None, None))
            results = []
            for _ in range(self.config.hands):
                if self.variant.match_result(self.options, results).finished:
                    break
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

    def _hand(self) -> Entry | None:
        dealer = self.next_dealer
        if self.rng.random() < 0.2:
            dealer = self.rng.randrange(len(self.seats))
        recorded = self.rng.random() < self.config.recorded
        hand = HandSimulator(self, dealer, silent=recorded)
        hand.play()
        entry = hand.entry()
        if recorded and entry is None:
            return None  # a void hand is not entered by hand
        if recorded:
            payload = hand.points_entry() if self.rng.random() < 0.3 else entry
            seq = self.emit(HAND_RECORDED, payload, Point(None, None))
            dealer = self.next_dealer
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
    module = {"rummy40": rummy40, "ramino": ramino, "knock_rummy": knock_rummy}[game]
    value = ramino.card_values(options) if game == "ramino" else module.card_value
    return (
        module.deck(options, players),
        module.hand_size(options, players),
        module.meld_rules(options),
        value,
    )


class HandSimulator:
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
        self.hands = [[cards.pop() for _ in range(table.hand_size)] for _ in range(self.n)]
        self.discard: list[Card] = [] if self.game == "knock_rummy" else [cards.pop()]
        self.stock = cards  # the top is the end
        self.table_melds: list[TableMeld] = []
        self.melded: list[list[Card]] = [[] for _ in range(self.n)]
        self.opened = [False] * self.n
        self.opened_turn = [0] * self.n
        self.penalties = [0] * self.n
        self.dealer = dealer
        self.turn = (dealer + 1) % self.n
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
        if self.dealer != self.table.next_dealer or self.rng.random() < 0.3:
            start["dealer"] = self.dealer
        if self.discard:
            start["upcard"] = str(self.discard[0])
        self.move(HAND_STARTED, start)
        if self.game == "gin":
            self._gin_first_turn()
        while self.ending is None:
            if self.game == "gin":
                self._gin_turn()
            elif self.game == "knock_rummy":
                self._kr_turn()
            else:
                self._rummy_turn()
        if self.ending != "wall":
            self._show()

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.n
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
        elif not self.stock:
            self.ending = "stock"
        else:
            self._next_turn()
            self._maybe_claim(seat)

    def _wall(self) -> int:
        # GIN-WALL: void at two stock cards left; without the wall, when none is left.
        return 2 if self.options.wall else 0

    # Gin (docs/rules.md) ------------------------------------------------------------------

    def _gin_first_turn(self) -> None:
        """GIN-FIRST: the non-dealer takes the upcard or passes, then the dealer."""
        for _ in range(2):
            if self.rng.random() < 0.4:
                self._draw_discard(self.turn)
                self._gin_after_draw(self.turn)
                return
            self.move(TURN_PASSED, {"seat": self.turn})
            self.passes += 1
            self.turn = self.dealer if self.passes == 1 else (self.dealer + 1) % 2
        self.phase = DRAW
        self._draw_stock(self.turn)
        self._gin_after_draw(self.turn)

    def _gin_turn(self) -> None:
        seat = self.turn
        if self.discard and self.rng.random() < 0.3:
            self._draw_discard(seat)
        else:
            self._draw_stock(seat)
        self._gin_after_draw(seat)

    def _gin_count(self, cards: Sequence[Card]) -> int:
        return best_arrangement(cards, rules=self.rules, value=gin_value).count

    def _gin_after_draw(self, seat: int) -> None:
        """Knock or go gin when the count allows (GIN-KNOCK, GIN-BIGGIN), else discard."""
        hand = self.hands[seat]
        if self.options.preset == gin.BIG_GIN_PRESET and self._gin_count(hand) == 0:
            self._gin_knock(seat, None)
            return
        allowed = [
            card
            for card in hand
            if not (self.options.no_rediscard and card == self.taken)  # GIN-NOREDISCARD
        ]
        counts = {card: self._gin_count(_without(hand, [card])) for card in allowed}
        best = min(counts.values())
        if best <= GIN_KNOCK_LIMIT and self.rng.random() < 0.7:
            self._gin_knock(seat, self.rng.choice([c for c in allowed if counts[c] == best]))
            return
        if self.rng.random() < 0.8:
            card = self.rng.choice([c for c in allowed if counts[c] == best])
        else:
            card = self.rng.choice(allowed)
        self._discard_card(seat, card)

    def _gin_knock(self, seat: int, card: Card | None) -> None:
        hand = self.hands[seat]
        kept = _without(hand, [card]) if card else list(hand)
        payload: dict[str, Any] = {"seat": seat, "hand": _text(kept)}
        if card is not None:
            payload["card"] = str(card)
        self.move(KNOCKED, payload)
        if card is not None:
            self.discard.append(card)
        self.knocker_kept = kept
        self.hands[seat] = []
        self.ending, self.ender = "knock", seat

    # Rummy40 and Ramino (docs/rules.md, §4) -----------------------------------------------

    def _meld_out(self) -> bool:
        # RAM-OPT-NODISCARDWIN: going out by melding the last card.
        return self.game == "ramino" and self.options.no_discard_win

    def _discards(self, hand: Sequence[Card], opened: bool) -> list[Card]:
        """Return the cards the seat may discard (R40-JOKER-DISCARD, RAM-OPT-FIXEDJOKER)."""
        if self.game == "rummy40":
            joker_ok = opened and len(hand) > 1
        elif self.game == "ramino":
            joker_ok = not self.options.fixed_jokers
        else:
            joker_ok = True
        return [card for card in hand if joker_ok or not card.is_joker]

    def _can_finish(self, hand: Sequence[Card], opened: bool) -> bool:
        """Tell whether a hand left after melding still ends the turn legally."""
        if not hand:
            return self._meld_out()
        return bool(self._discards(hand, opened))

    def _rummy_turn(self) -> None:
        seat = self.turn
        top = self.discard[-1] if self.discard else None
        # R40-JOKER-STEAL: a joker from the pile is melded in the same turn; the simulator
        # takes one only where it adds it to a table meld at once.
        steal = top is not None and top.is_joker and self.game == "rummy40"
        joker_at = self._joker_place(seat) if steal else None
        if joker_at is not None and self.rng.random() < 0.7:
            self._draw_discard(seat)
            self._add(seat, *joker_at)
        elif top is not None and not steal and self.rng.random() < 0.3:
            self._draw_discard(seat)
        else:
            self._draw_stock(seat)
        self._rummy_melds(seat)
        if self.ending is None:
            self._rummy_discard(seat)

    def _joker_place(self, seat: int) -> tuple[int, Card, Meld] | None:
        """Return where an opened seat can add a joker, if one takes it."""
        if not self.opened[seat]:
            return None
        for index in self._addable(seat):
            grown = extension(self.table_melds[index].meld, [JOKER], self.rules)
            if grown is not None:
                return index, JOKER, grown
        return None

    def _rummy_melds(self, seat: int) -> None:
        """Open (or fail to, R40-OPEN-PENALTY), lay more melds, swap a joker, add cards."""
        hand = self.hands[seat]
        keep = 0 if self._meld_out() else 1
        opening = best_opening(hand, rules=self.rules, keep=keep, deck=self.deck)
        if opening.melds and (self.opened[seat] or opening.value >= self.minimum):
            left = _without(hand, opening.cards)
            if self.rng.random() < 0.85 and self._can_finish(left, True):
                self._lay(seat, opening.melds)
        elif opening.melds and self.game == "rummy40" and self.rng.random() < 0.2:
            # R40-OPEN-PENALTY: an opening still short when the turn ends costs 20, and its
            # melds go back to the hand then.
            self.move(MELDS_LAID, {"seat": seat, "melds": [str(m) for m in opening.melds]})
            self.hands[seat] = _without(hand, opening.cards)
            self.table_melds += [TableMeld(seat, meld) for meld in opening.melds]
            self.short_opening = len(opening.melds)
            self.melded_now = True
        if self.ending is None and self.opened[seat]:
            if self.game != "rummy40" or self.rng.random() < 0.5:
                self._swap(seat)
            self._adds(seat)

    def _take_back_short_opening(self, seat: int) -> None:
        """R40-OPEN-PENALTY at the end of the turn: the short opening's melds come back."""
        if not self.short_opening:
            return
        laid = self.table_melds[-self.short_opening :]
        del self.table_melds[-self.short_opening :]
        self.hands[seat] += [card for item in laid for card in item.meld.cards]
        self.penalties[seat] += 1
        self.short_opening = 0

    def _lay(self, seat: int, melds: Sequence[Meld]) -> None:
        """Lay melds in one move, or sometimes one by one: an opening may take several moves
        of a turn, its value summed (RAM-OPEN, R40-OPEN)."""
        moves = [melds] if len(melds) < 2 or self.rng.random() < 0.6 else [[m] for m in melds]
        value = 0
        for laid in moves:
            self.move(MELDS_LAID, {"seat": seat, "melds": [str(meld) for meld in laid]})
            self.table_melds += [TableMeld(seat, meld) for meld in laid]
            value += sum(map(opening_value, laid))
            cards = [card for meld in laid for card in meld.cards]
            self._to_table(seat, cards, opens=value >= self.minimum)

    def _to_table(
        self, seat: int, cards: Sequence[Card], *, reused: bool = False, opens: bool = True
    ) -> None:
        """Move cards from the hand to the table; a hand emptied so goes out.

        A joker taken from a table meld and melded again (``reused``) was laid by the seat
        that first melded it: counting it again would show one joker twice.
        """
        self.hands[seat] = _without(self.hands[seat], cards)
        self.melded_now = True
        if not reused:
            self.melded[seat] += cards
        if opens:
            self._opens(seat)
        if not self.hands[seat]:
            self.ending, self.ender = ("knock" if self.game == "knock_rummy" else "out"), seat

    def _opens(self, seat: int) -> None:
        if not self.opened[seat]:
            self.opened[seat], self.opened_turn[seat] = True, self.turn_number

    def _addable(self, seat: int) -> list[int]:
        """Return the table melds the seat may add to (R40-ADD, RAM-ADD)."""
        any_meld = self.game == "ramino" or self.options.add_to_any_meld
        return [
            index for index, item in enumerate(self.table_melds) if any_meld or item.owner == seat
        ]

    def _adds(self, seat: int) -> None:
        """Add single cards to table melds while one fits and the turn can still end."""
        added = True
        while added and self.ending is None:
            added = False
            hand = self.hands[seat]
            for card in self.rng.sample(hand, len(hand)):
                if not self._can_finish(_without(hand, [card]), True):
                    continue
                for index in self._addable(seat):
                    grown = extension(self.table_melds[index].meld, [card], self.rules)
                    if grown is None or self.rng.random() < 0.2:
                        continue
                    self._add(seat, index, card, grown)
                    added = True
                    break
                if added:
                    break

    def _add(self, seat: int, index: int, card: Card, grown: Meld, *, reused: bool = False) -> None:
        payload = {"seat": seat, "meld": index + 1, "cards": str(card)}
        self.move(CARDS_ADDED, payload)
        owner = self.table_melds[index].owner
        self.table_melds[index] = TableMeld(owner, grown)
        self._to_table(seat, [card], reused=reused)

    def _swap(self, seat: int) -> None:
        """Put a held card in place of the table joker standing for it, then use the joker.

        R40-JOKER-STEAL and RAM-OPT-FIXEDJOKER want the joker melded in the same turn: the
        simulator adds it to a table meld at once, so it swaps only when one takes it.
        RAM-JOKER-SWAP also lets the joker go as the last discard.
        """
        hand = self.hands[seat]
        for index, item in enumerate(self.table_melds):
            meld = item.meld
            fixed = self.game == "ramino" and self.options.fixed_jokers
            if fixed and meld.kind == "set" and len(meld.cards) < 4:
                continue
            for position, (card, stands) in enumerate(meld.declared()):
                if not card.is_joker or stands not in hand:
                    continue
                declarations = [
                    s if p != position else None for p, (_, s) in enumerate(meld.declared())
                ]
                cards = (*meld.cards[:position], stands, *meld.cards[position + 1 :])
                try:
                    swapped = check_meld(cards, self.rules, declarations)
                except RuleViolation:
                    continue
                if self._swap_and_use(seat, index, stands, swapped):
                    return

    def _swap_and_use(self, seat: int, index: int, card: Card, swapped: Meld) -> bool:
        left = _without(self.hands[seat], [card])
        payload = {"seat": seat, "meld": index + 1, "card": str(card)}
        if not left and self.game == "ramino" and not self.options.fixed_jokers:
            self.move(JOKER_SWAPPED, payload)
            self._swapped(seat, index, card, swapped)
            self._discard_card(seat, JOKER)
            return True
        if not self._can_finish(left, True):
            return False
        melds = [item.meld for item in self.table_melds]
        melds[index] = swapped
        for target in self._addable(seat):
            grown = extension(melds[target], [JOKER], self.rules)
            if grown is None:
                continue
            self.move(JOKER_SWAPPED, payload)
            self._swapped(seat, index, card, swapped)
            self._add(seat, target, JOKER, grown, reused=True)
            return True
        return False

    def _swapped(self, seat: int, index: int, card: Card, swapped: Meld) -> None:
        self.table_melds[index] = TableMeld(self.table_melds[index].owner, swapped)
        self.hands[seat] = [*_without(self.hands[seat], [card]), JOKER]
        self.melded[seat].append(card)

    def _rummy_discard(self, seat: int) -> None:
        # A short opening's cards come back before the discard, which may be one of them.
        back = [
            c
            for item in self.table_melds[len(self.table_melds) - self.short_opening :]
            for c in item.meld.cards
        ]
        hand = [*self.hands[seat], *back] if self.short_opening else self.hands[seat]
        allowed = self._discards(hand, self.opened[seat])
        if not allowed:
            raise _Stop  # e.g. only jokers left at a fixed-jokers table: docs/rules.md is silent
        deadwood = best_arrangement(
            hand, rules=self.rules, value=self.table.value, deck=self.deck
        ).deadwood
        loose = [card for card in allowed if card in deadwood]
        if loose and self.rng.random() < 0.8:
            card = max(loose, key=self.table.value)
        else:
            card = self.rng.choice(allowed)
        self._discard_card(seat, card)

    def _maybe_claim(self, discarder: int) -> None:
        """RAM-OPT-KNOCKCLAIM: a seat other than the discarder and the next claims the card."""
        if not (self.game == "ramino" and self.options.knock_claim):
            return
        # Two stock cards at least, so the next seat can still draw after the claim.
        if len(self.stock) < 2 or self.rng.random() > 0.15:
            return
        seat = self.rng.choice([s for s in range(self.n) if s not in (discarder, self.turn)])
        card = self.stock[-1]
        payload: dict[str, Any] = {"seat": seat}
        if self.rng.random() < 0.5:
            payload["card"] = str(card)
        self.move(DISCARD_CLAIMED, payload)
        self.hands[seat] += [self.discard.pop(), self.stock.pop()]

    # Knock Rummy (docs/rules.md) ------------------------------------------------------------

    def _kr_turn(self) -> None:
        """KR-TURN: draw up to three cards, melding after the first or second; KR-STOCK."""
        seat = self.turn
        melded = False
        while self.draws < KR_DRAWS and self.stock and not melded:
            self._draw_stock(seat)
            if self.draws < KR_DRAWS:
                melded = self._kr_meld(seat)
        if self.ending is None:
            self._kr_end_turn(seat, last=not self.stock)

    def _kr_end_turn(self, seat: int, *, last: bool) -> None:
        """Knock (KR-KNOCK) or pass; the turn that took the last card starts KR-STOCK."""
        if self._kr_knocks(seat):
            return
        if last or self.rng.random() < 0.6:
            self.move(TURN_PASSED, {"seat": seat})
        # Otherwise the next seat's draw ends the turn.
        if not last:
            self._next_turn()
            return
        for _ in range(self.n):
            self.turn = (self.turn + 1) % self.n
            self.turn_number += 1
            self.phase, self.draws, self.melded_now = FINAL, 0, False
            self._kr_meld(self.turn)
            if self.ending is not None or self._kr_knocks(self.turn):
                return
            self.move(TURN_PASSED, {"seat": self.turn})
        self.ending = "stock"

    def _kr_knocks(self, seat: int) -> bool:
        hand = self.hands[seat]
        if sum(map(self.table.value, hand)) > KR_KNOCK_LIMIT or self.rng.random() < 0.3:
            return False
        self.move(KNOCKED, {"seat": seat})
        self.ending, self.ender = "knock", seat
        return True

    def _kr_meld(self, seat: int) -> bool:
        """Meld on the shared table: new melds, cards added to table melds, a long run split.

        KR-MELDING asks every table meld to be legal after the turn and the first meld to
        hold a set or run; KR-MANIP asks for a card from the hand. A move that only lays new
        melds goes in as melds_laid or as the whole table after it, the others as the table.
        """
        if self.rng.random() < 0.15:
            return False
        hand = self.hands[seat]
        before = [item.meld for item in self.table_melds]
        table = list(before)
        added = []
        released = self._kr_release_joker(table, hand) if self.rng.random() < 0.7 else None
        if released is not None:
            table, card = released
            added.append(card)
        arrangement = best_arrangement(
            _without(hand, added), rules=self.rules, value=self.table.value, deck=self.deck
        )
        new = list(arrangement.melds)
        loose = list(arrangement.deadwood)
        for card in self.rng.sample(loose, len(loose)):
            for index in self.rng.sample(range(len(table)), len(table)):
                grown = extension(table[index], [card], self.rules)
                if grown is not None:
                    table[index] = grown
                    added.append(card)
                    break
        if added or new:
            table = self._split_long_run(table)
        if not new and not added:
            return False
        after = table + new
        if added or table != before or self.rng.random() < 0.3:
            self.rng.shuffle(after)
            self.move(TABLE_REARRANGED, {"seat": seat, "melds": [str(m) for m in after]})
        else:
            self.move(MELDS_LAID, {"seat": seat, "melds": [str(m) for m in new]})
        self.table_melds = [TableMeld(seat, meld) for meld in after]
        self._to_table(seat, [*(card for meld in new for card in meld.cards), *added])
        return True

    def _kr_release_joker(
        self, table: list[Meld], hand: Sequence[Card]
    ) -> tuple[list[Meld], Card] | None:
        """KR-JOKER: put a held card in place of the table joker standing for it, and use
        the joker again at once with a new card, at an end of a meld that takes it."""
        for index, meld in enumerate(table):
            declared = meld.declared()
            for position, (card, stands) in enumerate(declared):
                if not card.is_joker or stands not in hand:
                    continue
                cards = [stands if p == position else c for p, (c, _) in enumerate(declared)]
                kept = [None if p == position else s for p, (_, s) in enumerate(declared)]
                try:
                    replaced = check_meld(cards, self.rules, kept)
                except RuleViolation:
                    continue
                for target in range(len(table)):
                    base = replaced if target == index else table[target]
                    grown = extension(base, [JOKER], self.rules)
                    # The joker is used again with a new card, not the one it stood for.
                    if grown is None or stands in _jokers(grown) - _jokers(base):
                        continue
                    after = list(table)
                    after[index] = replaced
                    after[target] = grown
                    return after, stands
        return None

    def _split_long_run(self, table: list[Meld]) -> list[Meld]:
        """Sometimes split a run of six cards or more into two runs (KR-MELDING)."""
        runs = [i for i, meld in enumerate(table) if meld.kind == "run" and len(meld.cards) >= 6]
        if not runs or self.rng.random() < 0.5:
            return table
        index = self.rng.choice(runs)
        declared = table[index].declared()
        cut = self.rng.randrange(3, len(declared) - 2)
        parts = []
        for piece in (declared[:cut], declared[cut:]):
            cards = [card for card, _ in piece]
            try:
                parts.append(check_meld(cards, self.rules, [stands for _, stands in piece]))
            except RuleViolation:
                return table
        return [*table[:index], *parts, *table[index + 1 :]]

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
            out = self.ender == seat and not self.hands[seat]
            flag: dict[str, Any] = {"went_out": out}
            if self.game == "rummy40" and self.penalties[seat]:
                flag["opening_penalty"] = self.penalties[seat]
            if self.game == "ramino":
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

"""Realistic table logs for the benches: a table's creation, then hands entered with real cards.

``bench_log(variant, events)`` builds a log step by step. A step appends one or more events
through ``LogBuilder.add``, which folds each into the table's state with the engine itself:
the log is legal by construction, and a step the engine refuses is taken back and drawn
again (a knock over the limit, a correction of a hand that is already void). Steps are named
in ``STEPS`` and drawn by the weights of a mix (``MIX``); a hand played move by move is one
more step that adds its ``hand_started`` and moves with ``builder.add`` and goes in a mix
beside these.

Cards come from a ``Shoe``: the table's own decks (``scoring`` says which), so copies are
right (CARD-2). Hands are shaped as tables end them: the one who goes out or knocks has
melded most cards, the others hold a few, now and then a player who never opened holds
nearly all theirs.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring import samples
from scoring.cards import FULL_DECK, JOKER, SUITS, Card, DeckSpec
from scoring.errors import RuleViolation
from scoring.events import HAND_AMENDED, HAND_RECORDED, HAND_VOIDED, TABLE_CREATED, LogEvent
from scoring.game import PAIRS_SHEET_ENTRY, SHEET_COUNT, SHEET_FLAG, SideSheet
from scoring.replay import TableState, apply
from scoring.variants import GAMES, burraco, gin, knock_rummy, ramino, rummy40, scala40
from scoring.variants.gin.cards import gin_value

SEAT_NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")
# The longest match each game's options allow (GIN-MATCH and R40-MATCH: 500 at most,
# RAM-MATCH: 20 hands at most, KR-MATCH: 1,000,000 at most, S40-MATCH: 501 with three
# re-entries), so that long logs stay in play.
LONG_MATCH: Mapping[str, Mapping[str, Any]] = {
    "gin": {"preset": "big_gin", "target": 500},
    "rummy40": {"target": 500},
    "ramino": {"hands": ramino.MAX_HANDS},
    "knock_rummy": {"target": knock_rummy.MAX_TARGET},
    "scala40": {"target": scala40.TARGETS[-1], "reentries": scala40.MAX_REENTRIES},
    "burraco": {"target": burraco.MAX_TARGET},
}


def longest_match(variant: str) -> Mapping[str, Any]:
    """Return the options of the game's longest match: those above, else its target's
    highest (a game added since, read from its options' specs)."""
    if variant in LONG_MATCH:
        return LONG_MATCH[variant]
    target = GAMES[variant].option("target")
    return {"target": target.high} if target is not None and target.high else {}


SEATS: Mapping[str, Sequence[int]] = {
    "gin": (2,),
    "rummy40": rummy40.PLAYER_COUNTS,
    "ramino": range(ramino.MIN_PLAYERS, ramino.MAX_PLAYERS + 1),
    "knock_rummy": range(knock_rummy.MIN_PLAYERS, knock_rummy.MAX_PLAYERS + 1),
    "scala40": range(scala40.MIN_PLAYERS, scala40.MAX_PLAYERS + 1),
    "burraco": (burraco.PLAYERS,),
}
# The scoresheet games' decks and deals, by their modules.
MODULES = {"rummy40": rummy40, "ramino": ramino, "knock_rummy": knock_rummy, "scala40": scala40}
REASONS = ("misdeal", "recounted", "card missed", "wrong seat", "entered twice")
# A match about to end is given other hands this many times before the log stops with it.
FINISH_RETRIES = 8
# Sheets drawn for one hand before settling for one where nothing happened.
SHEET_TRIES = 200
# Refusals in a row that mean a step is broken rather than unlucky.
MAX_REFUSALS = 500


class Shoe:
    """Hold the cards of one deal not yet given to a seat."""

    def __init__(self, deck: DeckSpec, rng: random.Random) -> None:
        self.rng = rng
        self.left = Counter({card: deck.decks for card in FULL_DECK})
        self.left[JOKER] = deck.jokers

    def _take(self, cards: list[Card]) -> list[Card] | None:
        need = Counter(cards)
        if any(self.left[card] < count for card, count in need.items()):
            return None
        for card in cards:
            self.left[card] -= 1
        return cards

    def meld(self, size: int, *, joker_odds: float = 0.0) -> list[Card]:
        """Take a set or a run of ``size`` cards, maybe with one joker; [] if none is left."""
        rng = self.rng
        for _ in range(50):
            if size <= len(SUITS) and rng.random() < 0.4:
                rank = rng.randint(1, 13)
                cards = [Card(rank, suit) for suit in rng.sample(SUITS, size)]
            else:
                suit, first = rng.choice(SUITS), rng.randint(1, 14 - size)
                cards = [Card(rank, suit) for rank in range(first, first + size)]
            if self.left[JOKER] and rng.random() < joker_odds:
                cards[rng.randrange(size)] = JOKER
            taken = self._take(cards)
            if taken is not None:
                return taken
        return []

    def loose(
        self, count: int, *, worth: Callable[[Card], int] | None = None, most: int = 0
    ) -> list[Card]:
        """Take ``count`` random cards, each worth at most ``most`` by ``worth`` if given."""
        pool = [card for card in self.left.elements() if worth is None or worth(card) <= most]
        cards = self.rng.sample(pool, min(count, len(pool)))
        for card in cards:
            self.left[card] -= 1
        return cards


def options_in_full(created: Mapping[str, Any]) -> dict[str, Any]:
    """Return a creation payload's options as the engine reads them, every one named: a
    log stored as a new table keeps its own rules, not a new table's defaults."""
    state = apply(None, LogEvent(1, TABLE_CREATED, dict(created)))
    return state.variant.options_to_dict(state.options)


def notation(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


class LogFull(Exception):
    """The log has all the events asked for; a step adding more stops there."""


@dataclass
class LogBuilder:
    """Hold a log being built and the state the engine folds it into (a builder, so mutable)."""

    rng: random.Random
    state: TableState
    events: list[LogEvent]
    limit: int

    @property
    def variant(self) -> str:
        return self.state.variant.key

    @property
    def seats(self) -> int:
        return len(self.state.seats)

    def add(self, type: str, payload: Mapping[str, Any]) -> None:
        """Append one event; RuleViolation if the engine refuses it (the step is then undone).

        LogFull once the log is long enough, so a step of several events (a hand played
        move by move) stops there and leaves a legal log that ends inside it.
        """
        if len(self.events) >= self.limit:
            raise LogFull
        event = LogEvent(seq=len(self.events) + 1, event_type=type, payload=dict(payload))
        self.state = apply(self.state, event)
        self.events.append(event)

    def rewind(self, state: TableState, length: int) -> None:
        """Take back every event after the first ``length``, whose state was ``state``."""
        self.state = state
        del self.events[length:]

    def shoe(self) -> Shoe:
        """Return a fresh deal of the table's decks."""
        if self.variant == "gin":
            return Shoe(gin.GIN_DECK, self.rng)
        return Shoe(MODULES[self.variant].deck(self.state.options, self.seats), self.rng)

    def recent_hand(self) -> int:
        """Return the number of one of the last hands still in force (1 if there are none)."""
        live = [hand.number for hand in self.state.hands[-4:] if not hand.voided]
        return self.rng.choice(live) if live else 1


def gin_deal(builder: LogBuilder) -> dict[str, Any]:
    """Return a Gin hand entered by cards: a knock, a gin or (Big Gin) a big gin."""
    rng, shoe = builder.rng, builder.shoe()
    roll = rng.random()
    if roll < 0.03 and builder.state.options.preset == gin.BIG_GIN_PRESET:
        shape, loose, most = (4, 4, 3), 0, 0
    elif roll < 0.25:
        shape, loose, most = (4, 3, 3), 0, 0
    else:
        shape, loose, most = rng.choice([((3, 3, 3), 1, 9), ((4, 3), 3, 3), ((3, 3), 4, 2)])
    knocker_cards = [card for size in shape for card in shoe.meld(size)]
    knocker_cards += shoe.loose(loose, worth=gin_value, most=most)
    defender_shape = rng.choice([(3, 3), (3, 3), (4, 3), (3,)])
    defender_cards = [card for size in defender_shape for card in shoe.meld(size)]
    defender_cards += shoe.loose(gin.HAND_SIZE - len(defender_cards))
    return {
        "mode": "cards",
        "knocker": rng.randrange(2),
        "knocker_cards": notation(knocker_cards),
        "defender_cards": notation(defender_cards),
    }


def _melds(shoe: Shoe, cards: int, joker_odds: float) -> list[Card]:
    """Take melds of 3 or 4 cards until about ``cards`` cards are melded."""
    melded: list[Card] = []
    while len(melded) + 3 <= cards:
        size = 4 if len(melded) + 4 <= cards and shoe.rng.random() < 0.3 else 3
        meld = shoe.meld(size, joker_odds=joker_odds)
        if not meld:
            break
        melded += meld
    return melded


def seats_deal(builder: LogBuilder, out: Sequence[int] = ()) -> dict[str, Any]:
    """Return a Rummy40, Ramino, Knock Rummy or Scala 40 hand entered by every seat's cards;
    the seats ``out`` of a Scala 40 match sit it out (S40-MATCH)."""
    rng, shoe, game = builder.rng, builder.shoe(), builder.variant
    module = MODULES[game]
    size = module.hand_size(builder.state.options, builder.seats)
    jokers = 0.0 if game == "ramino" and builder.state.options.no_jokers else 0.15
    knock = game == "knock_rummy"
    stock = rng.random() < (0.15 if knock else 0.08)
    ender = None if stock else rng.choice([s for s in range(builder.seats) if s not in out])
    players = []
    for seat in range(builder.seats):
        entry: dict[str, Any]
        if seat in out:
            entry = {"hand": "", "sitting_out": True}
        elif seat == ender and knock:
            # KR-KNOCK: 5 points or fewer in hand; now and then every card played.
            melded = _melds(shoe, size - 2, jokers)
            held = [] if rng.random() < 0.1 else shoe.loose(2, worth=module.card_value, most=2)
            entry = {"hand": notation(held), "melded": notation(melded), "knocked": True}
            if not held:
                entry["went_out"] = True
        elif seat == ender:
            entry = {"hand": "", "melded": notation(_melds(shoe, size, jokers)), "went_out": True}
            if game in ("ramino", "scala40") and rng.random() < 0.05:
                entry["hand_closed"] = True
        elif rng.random() < 0.12:
            # Never opened: nearly the whole deal is still in hand.
            entry = {"hand": notation(shoe.loose(size - rng.randint(0, 2)))}
        else:
            melded = _melds(shoe, rng.randint(3, size - 3), jokers)
            entry = {"hand": notation(shoe.loose(rng.randint(1, 5))), "melded": notation(melded)}
        if game in ("rummy40", "scala40") and seat not in (ender, *out) and rng.random() < 0.04:
            entry["opening_penalty"] = 1
        players.append(entry)
    payload: dict[str, Any] = {"mode": "cards", "players": players}
    if stock:
        payload["stock_exhausted"] = True
    return payload


def sheets_deal(builder: LogBuilder) -> dict[str, Any]:
    """Return a hand entered one sheet a side, drawn from the game's declaration of its
    sheet (GameRules.side_sheet): a few points, a count or two, check boxes, now and then a
    side out; drawn again until the game's engine takes it, else a hand where nothing
    happened (nothing melded, nothing held, nobody out)."""
    rng, state = builder.rng, builder.state
    game, sheet = state.variant, state.variant.side_sheet
    names = tuple(state.seats)
    for _ in range(SHEET_TRIES):
        out = rng.choice([0, 1, 0, 1, None])
        pairs = [_drawn_side(rng, sheet, side == out) for side in (0, 1)]
        payload = {"mode": "sheet", "pairs": pairs}
        try:
            game.read_entry(state.options, payload, names)
        except RuleViolation:
            continue
        return payload
    empty = {box.key: False if box.kind == SHEET_FLAG else 0 for box in sheet.fields}
    return {"mode": "sheet", "pairs": [{**empty, sheet.out_key: False} for _ in (0, 1)]}


def _drawn_side(rng: random.Random, sheet: SideSheet, out: bool) -> dict[str, Any]:
    """Return one side's sheet drawn at random within each box's bounds."""
    side: dict[str, Any] = {sheet.out_key: out}
    for box in sheet.fields:
        if box.kind == SHEET_FLAG:
            side[box.key] = out or rng.random() < 0.6
        elif box.kind == SHEET_COUNT:
            side[box.key] = rng.randint(0, min(box.high, 2))
        else:
            side[box.key] = box.step * rng.randint(0, 80 if box.key == "melded" else 20)
    return side


def deal(builder: LogBuilder, number: int | None = None) -> dict[str, Any]:
    """Return a hand of the table's game entered by cards (by sheets where a game enters a
    hand one sheet a side), as hand ``number`` (the next one when None): a Scala 40 hand
    seats the players still in the match then."""
    if builder.variant == "gin":
        return gin_deal(builder)
    if builder.state.variant.hand_entry == PAIRS_SHEET_ENTRY:
        return sheets_deal(builder)
    state = builder.state
    hands = state.hands if number is None else state.hands[: number - 1]
    counted = [hand.current for hand in hands if hand.current is not None]
    return seats_deal(builder, state.variant.match_result(state.options, counted).out)


def record_hand(builder: LogBuilder) -> None:
    """Record a hand (``hand_recorded``)."""
    builder.add(HAND_RECORDED, deal(builder))


def void_hand(builder: LogBuilder) -> None:
    """Void one of the last hands (``hand_voided``)."""
    number, reason = builder.recent_hand(), builder.rng.choice(REASONS)
    builder.add(HAND_VOIDED, {"hand": number, "reason": reason})


def amend_hand(builder: LogBuilder) -> None:
    """Enter one of the last hands again with other cards (``hand_amended``)."""
    number, reason = builder.recent_hand(), builder.rng.choice(REASONS)
    builder.add(HAND_AMENDED, {**deal(builder, number), "hand": number, "reason": reason})


Step = Callable[[LogBuilder], None]
STEPS: dict[str, Step] = {
    "hand_recorded": record_hand,
    "hand_voided": void_hand,
    "hand_amended": amend_hand,
}
# About one correction in sixteen events.
MIX: tuple[tuple[str, int], ...] = (("hand_recorded", 30), ("hand_voided", 1), ("hand_amended", 1))


def log_build(
    variant: str,
    events: int,
    *,
    seats: int = 2,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    mix: Sequence[tuple[str, int]] = MIX,
) -> LogBuilder:
    """Build a legal log of ``events`` events, fewer if the match ends first; return the
    builder, which holds the log and the state it replays to.

    The table plays ``options`` (by default the game's longest match, ``LONG_MATCH``). A step
    that would end the match before the log is long enough is drawn again, up to
    ``FINISH_RETRIES`` times; then the log ends with the match.
    """
    rng = random.Random(f"{variant}-{seats}-{seed}")
    created = LogEvent(
        seq=1,
        event_type=TABLE_CREATED,
        payload={
            "variant": variant,
            "options": dict(longest_match(variant) if options is None else options),
            "seats": list(SEAT_NAMES[:seats]),
        },
    )
    builder = LogBuilder(rng=rng, state=apply(None, created), events=[created], limit=events)
    names, weights = zip(*mix, strict=True)
    refusals = retries = 0
    finished = False
    while len(builder.events) < events and not finished:
        state, length = builder.state, len(builder.events)
        try:
            STEPS[rng.choices(names, weights)[0]](builder)
        except LogFull:
            break
        except RuleViolation as exc:
            refusals += 1
            if refusals > MAX_REFUSALS:
                raise RuntimeError(f"{variant}: the engine refuses every step: {exc}") from exc
            builder.rewind(state, length)
            continue
        refusals = 0
        # The match is over (a property worked out afresh on each read: read it once).
        finished = builder.state.finished
        if finished and len(builder.events) < events and retries < FINISH_RETRIES:
            retries += 1
            finished = False
            builder.rewind(state, length)
    return builder


def bench_log(variant: str, events: int, **kwargs: Any) -> list[LogEvent]:
    """Return a legal log of ``events`` events of ``variant`` (log_build says how)."""
    return log_build(variant, events, **kwargs).events


def moves_build(events: int, variant: str = "knock_rummy") -> LogBuilder:
    """Build a log of ``events`` events of hands played move by move: the game's worked hand
    (``samples.played_of``: Knock Rummy's draws, melds, a rearrangement, a knock, hands
    shown; Burraco's pairs, pozzetto and closing) dealt again and again at a table playing
    its longest match (``LONG_MATCH``), as a long evening of refereed play."""
    sample = samples.played_of(variant)
    created = LogEvent(
        seq=1,
        event_type=TABLE_CREATED,
        payload={
            "variant": sample.variant,
            "options": dict(LONG_MATCH[variant]),
            "seats": list(sample.players),
        },
    )
    builder = LogBuilder(
        rng=random.Random(events), state=apply(None, created), events=[created], limit=events
    )
    try:
        while True:
            for event_type, payload in sample.events:
                builder.add(event_type, payload)
    except LogFull:
        return builder

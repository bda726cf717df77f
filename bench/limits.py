"""The worst hand within each game's limit: the referee's whole "hand" question (least
deadwood, going out, best opening) on the hardest hands of most_in_hand cards we make."""

from __future__ import annotations

import random

from bench.timing import Summary, best_of, duration, table, verdict
from scoring import referee
from scoring.cards import FULL_DECK, JOKER
from scoring.errors import RuleViolation
from scoring.variants import GAMES

WORST = 50e-3
HANDS = 300  # per game and per pool of ranks
# Dense pools (few ranks, every copy and every joker) are where the packings multiply.
POOLS = {"every rank": 13, "A to 5": 5, "A to 4": 4, "A to 3": 3}


def _hands(key: str, ranks: int, seed: int) -> list[str]:
    game = GAMES[key]
    options = game.options_from_dict({}, game.players[0])
    deck = game.deck(options, game.players[0])
    naturals = [card for card in FULL_DECK if card.rank <= ranks] * deck.decks
    size = game.most_in_hand
    rng = random.Random(seed)
    hands = []
    for n in range(HANDS):
        jokers = min(deck.jokers, size) if n % 2 else rng.randint(0, deck.jokers)
        picked = rng.sample(naturals, min(size - jokers, len(naturals))) + [JOKER] * jokers
        hands.append(" ".join(str(card) for card in picked))
    return hands


def _ask(key: str):
    def ask(cards: str) -> object:
        try:
            return referee.answer("hand", {"variant": key, "cards": cards})
        except RuleViolation:
            return None  # a refusal (too many copies of a card) is an answer too

    return ask


def run() -> tuple[str, bool]:
    """Time the hand question on each game's hardest hands; return the report and verdict."""
    rows = []
    passed = True
    for key, game in GAMES.items():
        timings = []
        ask = _ask(key)
        for seed, ranks in enumerate(POOLS.values()):
            timings += [best_of(ask, hand) for hand in _hands(key, ranks, seed)]
        found = Summary.of(timings)
        ok = found.max < WORST
        passed &= ok
        spread = [duration(found.median), duration(found.p99), duration(found.max)]
        rows.append([key, str(game.most_in_hand), *spread, verdict(ok)])
    header = [f"Hand question at the limit, {HANDS * len(POOLS):,} hands", "cards", "median"]
    report = table([*header, "p99", "max", "verdict"], rows)
    notes = (
        f"Target: no hand within a game's limit over {duration(WORST)} (a hand past it is"
        " refused at once, and the solver refuses a search past its state budget). Pools: "
        + ", ".join(POOLS)
        + "; every other hand holds all the deck's jokers."
    )
    return f"{report}\n{notes}", passed

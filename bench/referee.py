"""The referee's worst case: each question that searches (the hand: least deadwood, best
discard, going out, best opening; layoffs; a Gin score from the cards) on the hardest inputs
we build, for every game and house rule, asked whole through scoring.referee.answer.

The hardest inputs are long runs with jokers: a run may take a joker in place of any of its
cards, so a run of n naturals and j jokers packs in ~n^j ways, and the joker options of each
game change which. The family is generated, not picked: every run length and number of
jokers a hand of the game can hold, the rest of the hand copies of the run's cards (two
decks) or its ranks in other suits (sets across the run), from the ace up and down to the
king or ace-high.

Layoffs have a family of their own, also generated: the hand's run has a gap of three ranks
that the table holds (once per deck), so the hand's cards and jokers can go onto both ends
of several table runs (the gap, the pieces either side of it, round the corner where runs
wrap), and odd cards (a run rank in another suit, up to a copy per deck) that only a set
with the run's card can take: no packing melds every card, so the search cannot stop at a
whole one, and each table meld multiplies the states it visits. Each input is timed in CPU
time (time.process_time, the collector off), as a worker spends it: once, and the RETIMED
slowest of each question again as the best of RUNS; the worst of those is then timed
MEDIAN_RUNS times, and its median is held to the target (35 ms: the 50 ms goal with a margin).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping
from contextlib import suppress
from statistics import median
from time import process_time
from typing import Any

from bench.timing import duration, table, verdict
from scoring import referee
from scoring.cards import RANKS, DeckSpec, parse_cards
from scoring.errors import RuleViolation
from scoring.melds import MeldRules, check_meld
from scoring.variants import GAMES

# The goal is 50 ms a request; the worst input keeps a margin under it (issue 34).
WORST = 35e-3
RUNS = 3
RETIMED = 3  # the slowest inputs of each question, timed again as the best of RUNS
# The worst input of each question, timed again this many times: its median is the verdict,
# as a shared machine's pauses move a best or a worst run more than they move the median.
MEDIAN_RUNS = 9
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
SUITS = "SHDC"  # the run's suit first, then the suits its sets draw on
# (game, options, players): every house rule that changes what a meld with jokers may be.
TABLES: tuple[tuple[str, Mapping[str, Any], int], ...] = (
    ("gin", {}, 2),
    ("knock_rummy", {}, 2),
    ("knock_rummy", {}, 5),
    ("rummy40", {}, 2),
    ("rummy40", {}, 4),
    ("ramino", {}, 2),
    ("ramino", {"circular_runs": True}, 2),
    ("ramino", {"fixed_jokers": True}, 2),
    ("ramino", {"fixed_groups": True}, 2),
    ("ramino", {"fixed_groups": True, "fixed_jokers": True}, 2),
    ("ramino", {"no_discard_win": True, "circular_runs": True}, 2),
    ("ramino", {"short_deck": True}, 2),
    # Scala 40: 14 cards in hand, four jokers in the deck, one a meld or up to four.
    ("scala40", {}, 4),
    ("scala40", {"max_jokers_per_meld": 4}, 4),
)
# The hand the issue quoted: 150-250 ms per request before the search was bounded.
QUOTED = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS JK JK JK JK"


def _card(rank: int, suit: str) -> str:
    rank = (rank - 1) % len(RANKS) + 1
    return f"{RANK_NAMES.get(rank, str(rank))}{suit}"


def _run_hands(size: int, decks: int, jokers: int, rules: MeldRules) -> Iterator[str]:
    """Yield the long-run hands of ``size`` cards: every run length, start and joker count."""
    for length in range(3, min(len(RANKS), size) + 1):
        starts = {1, len(RANKS) - length + 1}  # from the ace up, and up to the king
        if rules.ace_high:
            starts.add(len(RANKS) - length + 2)  # up to the ace, high
        if rules.wrap:
            starts.add(len(RANKS) - 1)  # round the corner: Q K A 2 ...
        for start in sorted(starts):
            ranks = [start + i for i in range(length)]
            for joker_count in range(min(jokers, size - length) + 1):
                yield " ".join(
                    _hand(ranks, size - length - joker_count, decks) + ["JK"] * joker_count
                )


def _hand(ranks: list[int], rest: int, decks: int) -> list[str]:
    """Return the run's cards and ``rest`` more: copies of the run (two decks), then its ranks
    in the other suits, a suit at a time, so that sets cross the run."""
    cards = [_card(rank, SUITS[0]) for rank in ranks]
    extra = [_card(rank, SUITS[0]) for rank in ranks] if decks > 1 else []
    for suit in SUITS[1:]:
        extra += [_card(rank, suit) for rank in ranks] * decks
    return cards + extra[:rest]


def _layoff_melds(hand: str) -> list[str]:
    """Return table melds the hand's cards and jokers can all reach: the run's next ranks in
    its suit, and sets of its first ranks in the suits the hand leaves (refused when the deck
    holds too few: a refusal is timed too)."""
    run = [card for card in hand.split() if card.endswith(SUITS[0])]
    first, last = run[0][:-1], run[-1][:-1]
    lookup = {name: rank for rank, name in RANK_NAMES.items()}
    low, high = int(lookup.get(first, first) or 0), int(lookup.get(last, last) or 0)
    melds = [" ".join(_card(high + i, SUITS[0]) for i in (1, 2, 3))]
    melds += [" ".join(_card(rank, suit) for suit in "HDC") for rank in (low, low + 1)]
    return melds


def _gap_layoffs(size: int, deck: DeckSpec, rules: MeldRules) -> Iterator[tuple[str, list[str]]]:
    """Yield (hand, table melds): the run with a gap the table holds, for every gap, number of
    odd cards (a copy per deck at most) and number of jokers the deck holds."""
    for gap in range(1, len(RANKS) - 1):
        held = [rank for rank in RANKS if not gap <= rank < gap + 3]
        run = [_card(rank, SUITS[0]) for rank in held]
        for copies in range(1, deck.decks + 1):
            odd = [_card(held[0], SUITS[1])] * copies
            for joker_count in range(min(1, deck.jokers), deck.jokers + 1):
                room = size - copies - joker_count
                if room >= 3:
                    hand = run[:room] + odd + ["JK"] * joker_count
                    yield " ".join(hand), _gap_melds(hand, gap, held[1], deck, rules)


def _gap_melds(
    hand: list[str], gap: int, set_rank: int, deck: DeckSpec, rules: MeldRules
) -> list[str]:
    """Return the table melds of a gap hand that the rules and the deck allow: the gap's run
    (once per deck), the runs of three either side of it, round the corner where runs wrap,
    and a set of a run rank in the other suits."""
    runs = [gap] * deck.decks + [gap - 3, gap + 3] + ([len(RANKS)] if rules.wrap else [])
    melds = [" ".join(_card(first + i, SUITS[0]) for i in range(3)) for first in runs]
    melds += [" ".join(_card(set_rank, suit) for suit in suits) for suits in ("HDC", "SHD")]
    shown = list(hand)
    kept = []
    for meld in melds:
        cards = meld.split()
        if any(shown.count(card) + cards.count(card) > deck.decks for card in cards):
            continue
        with suppress(RuleViolation):
            check_meld(parse_cards(meld), rules)
            kept.append(meld)
            shown += cards
    return kept


def _questions(key: str, options: Mapping[str, Any], players: int) -> Iterator[tuple[str, dict]]:
    """Yield (question, request) for every input of one table."""
    game = GAMES[key]
    parsed = game.options_from_dict(dict(options), players)
    deck = game.deck(parsed, players)
    rules = game.meld_rules(parsed)
    base = {"variant": key, "options": dict(options), "players": players}
    # Gin's hand question takes 10 cards, or 11 after drawing; the others the most a hand
    # of the game holds (the fewer cards, the fewer ways to pack them).
    sizes = (10, 11) if key == "gin" else (game.most_in_hand,)
    openings = (False, True) if game.referee.opening_rule else (False,)
    for size in sizes:
        for hand in _run_hands(size, deck.decks, deck.jokers, rules):
            for opened in openings:
                yield "hand", {**base, "cards": hand, "opened": opened}
            yield "layoff", {**base, "cards": hand, "melds": _layoff_melds(hand)}
            if "score" in game.referee.questions and key == "gin" and size == 10:
                seats = [
                    {"name": "A", "hand": hand, "knocked": True},
                    {"name": "B", "hand": _other_hand(hand, size)},
                ]
                yield "score", {**base, "players": seats}
        for hand, melds in _gap_layoffs(size, deck, rules):
            yield "layoff", {**base, "cards": hand, "melds": melds}


def _other_hand(hand: str, size: int) -> str:
    """Return ``size`` cards of one deck the hand does not hold, the run's suit first."""
    held = set(hand.split())
    cards = [_card(rank, suit) for suit in SUITS for rank in RANKS]
    return " ".join([card for card in cards if card not in held][:size])


# A small hand with a joker, asked (untimed) before each timed answer: the solver keeps the
# hand read last for the next question, and a run answered from it would be timed warm.
OTHER_HAND = {"variant": "ramino", "cards": "2C 3C JK"}


def cpu_time(question: str, request: dict, runs: int = RUNS) -> float:
    """Return the least CPU time of ``runs`` answers to the request (a refusal is an answer),
    each asked cold: after another hand."""
    return min(cpu_times(question, request, runs))


def cpu_times(question: str, request: dict, runs: int) -> list[float]:
    """Return the CPU time of each of ``runs`` answers to the request, each asked cold."""
    times = []
    for _ in range(runs):
        referee.answer("hand", OTHER_HAND)
        gc.disable()
        try:
            start = process_time()
            with suppress(RuleViolation):
                referee.answer(question, request)
            times.append(process_time() - start)
        finally:
            gc.enable()
    return times


def _worst(key: str, options: Mapping[str, Any], players: int) -> tuple[int, dict]:
    """Return how many inputs were asked and, per question, (CPU time, request) of the worst.

    Every input is answered once; the RETIMED slowest of each question are then timed again
    as the best of RUNS, so that a pause of the machine is not taken for a slow answer.
    """
    once: dict[str, list[tuple[float, int, dict]]] = {}
    asked = 0
    for question, request in _questions(key, options, players):
        once.setdefault(question, []).append((cpu_time(question, request, 1), asked, request))
        asked += 1
    worst = {}
    for question, timed in once.items():
        slowest = sorted(timed, key=lambda item: item[:2], reverse=True)[:RETIMED]
        retimed = [(cpu_time(question, request), request) for _, _, request in slowest]
        worst[question] = max(retimed, key=lambda item: item[0])
    return asked, worst


# Burraco's questions read melds and sheets, not a hand to search: its hardest inputs are the
# longest melds (14 cards, a wild at every place) and a hand entered by the cards of all
# 108, each meld checked (BUR-MELDS, BUR-WILD), with and without its options.
BURRACO_OPTIONS: tuple[Mapping[str, Any], ...] = ({}, {"semipulito": True}, {"international": True})


def _burraco_questions(options: Mapping[str, Any]) -> Iterator[tuple[str, dict]]:
    """Yield (question, request) for Burraco's hardest melds and its fullest hand by cards."""
    base = {"variant": "burraco", "options": dict(options), "players": 4}
    ranks = ["A", *[RANK_NAMES.get(rank, str(rank)) for rank in range(2, 14)]]
    for suit in SUITS:
        run = [f"{rank}{suit}" for rank in ranks]
        for length in range(3, 14):
            for place in range(length):
                for wild in ("JK", f"2{'S' if suit != 'S' else 'H'}"):
                    cards = run[:length]
                    cards = [*cards[:place], wild, *cards[place + 1 :]]
                    yield "meld", {**base, "cards": " ".join(cards)}
        yield "meld", {**base, "cards": " ".join([*run, "JK"])}  # the whole suit, a wild after
    for size in range(3, 9):
        yield (
            "meld",
            {**base, "cards": " ".join(["7" + SUITS[i % 4] for i in range(size)] + ["JK"])},
        )
    # Every card of the two decks melded: each pair the four suits A to K, the first pair's
    # runs each with a jolly as its fourteenth card; nothing left in hand.
    runs = [" ".join(f"{rank}{suit}" for rank in ranks) for suit in SUITS]
    sheet = {"hands": ["", ""], "pozzetto": True}
    pairs = [
        {**sheet, "melds": [f"{run} JK" for run in runs], "closed": True},
        {**sheet, "melds": runs, "closed": False},
    ]
    yield "score", {**base, "mode": "cards", "pairs": pairs}


def _burraco_worst() -> list[tuple[str, str, int, float]]:
    """Return per Burraco table and question: its name, inputs asked and worst CPU time."""
    rows = []
    for options in BURRACO_OPTIONS:
        timed: dict[str, list[tuple[float, dict]]] = {}
        for question, request in _burraco_questions(options):
            timed.setdefault(question, []).append((cpu_time(question, request, 1), request))
        for question, answers in timed.items():
            slowest = sorted(answers, key=lambda item: item[0], reverse=True)[:RETIMED]
            spent = max(cpu_time(question, request) for _, request in slowest)
            rows.append(
                (f"burraco {', '.join(options) or 'default'} (4p)", question, len(answers), spent)
            )
    return rows


def run() -> tuple[str, bool]:
    """Time every question on every table's hardest inputs; return the report and verdict."""
    rows = []
    passed = True
    for name, question, asked, spent in _burraco_worst():
        passed &= spent <= WORST
        timed = [duration(spent), "", duration(WORST)]
        rows.append([name, question, str(asked), *timed, "(melds)", verdict(spent <= WORST)])
    for key, options, players in TABLES:
        gc.collect()
        asked, worst = _worst(key, options, players)
        for question, (spent, request) in worst.items():
            cards = request.get("cards", "(score)")
            middle = median(cpu_times(question, request, MEDIAN_RUNS))
            ok = middle <= WORST
            passed &= ok
            name = f"{key} {', '.join(options) or 'default'} ({players}p)"
            timed = [duration(spent), duration(middle), duration(WORST)]
            rows.append([name, question, str(asked), *timed, cards, verdict(ok)])
    quoted = {"variant": "ramino", "cards": QUOTED}
    header = ["Referee, worst input per question", "question", "inputs", "max CPU", "median"]
    report = table([*header, "target", "hand", "verdict"], rows)
    notes = (
        f"Target: the worst answer of each question within {duration(WORST)} of CPU, its"
        f" median of {MEDIAN_RUNS} runs (time.process_time; each input once, the {RETIMED}"
        f" slowest per question again as the best of {RUNS}: max CPU, the worst of those)."
        f" The quoted Ramino hand ({QUOTED}), hand question: {duration(cpu_time('hand', quoted))}."
    )
    return f"{report}\n{notes}", passed

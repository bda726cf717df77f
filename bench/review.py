"""Hand review (scoring/review/): a long Gin hand and a six-player Ramino hand, each played
move by move with every draw named (so every turn is weighed), reviewed whole; then, on
tables (bench/review_page.py), the API's first read of each (worked out from the log and
kept, target p95 200 ms), its review page answered from the cache, and the answers' size
per step (the API's whole answer over its steps and the largest htmx step, target 30 KiB).

The hands are played here by a simple seeded player through the engine (each move folded
by scoring.replay.apply, so the log is legal): Gin draws from the pile more often than a
good player would, to last 60 turns, and knocks only then; Ramino opens with the most
valuable opening, lays what melds it holds, adds to the table's melds and discards its
highest loose card. The first seed whose hand is long enough is taken. Each review is
timed in CPU time as a worker spends it (the collector on), from the table's log to the
review.
"""

from __future__ import annotations

import functools
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from time import process_time
from typing import Any

from bench.spread import Spread, seconds
from bench.timing import sized, table, verdict
from scoring.cards import Card
from scoring.errors import RuleViolation
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    HAND_STARTED,
    HANDS_SHOWN,
    KNOCKED,
    MELDS_LAID,
    TABLE_CREATED,
    TURN_PASSED,
    LogEvent,
)
from scoring.melds import check_meld
from scoring.replay import TableState, apply
from scoring.review import review_hand
from scoring.solver import best_arrangement, best_opening, deadwood_count
from scoring.variants import gin, ramino
from scoring.variants.gin.cards import gin_value

TARGET = 0.2  # each review within 200 ms (p95)
# The API's first read of a review (worked out from the log and kept), then the review page
# of a hand already reviewed, its htmx step and the API's answer (p95).
PAGE_TARGETS = {"first": 0.200, "page": 0.050, "step": 0.050, "api": 0.100}
PAGE_FIGURES = {
    "first": "the API's first read (worked out)",
    "page": "review page at a step",
    "step": "a step asked by htmx",
    "api": "the API's review",
}
# What an answer may weigh for each step of the hand: the API's whole answer over its steps,
# and the largest step htmx asks.
STEP_BYTES = 30 * 1024
PAGE_CACHES = {"file cache": "", "Redis": "redis://127.0.0.1:6379/11"}
PAGE_TIMEOUT = 600
GIN_TURNS = 60
RAMINO_MOVES = 120
RAMINO_SEATS = 6
RUNS, LEAST, BUDGET = sized(20, 2), sized(5, 2), 5.0
SEEDS = 400


class _Table:
    """A log being played: each event folded by the engine as it is written."""

    def __init__(self, variant: str, options: Mapping[str, Any], seats: int) -> None:
        names = [f"P{seat + 1}" for seat in range(seats)]
        created = {"variant": variant, "options": dict(options), "seats": names}
        self.events = [LogEvent(1, TABLE_CREATED, created)]
        self.state: TableState = apply(None, self.events[0])
        self.moves = 0

    def add(self, event_type: str, payload: Mapping[str, Any]) -> bool:
        """Append the event if the engine takes it; tell whether it did."""
        event = LogEvent(len(self.events) + 1, event_type, dict(payload))
        try:
            self.state = apply(self.state, event)
        except RuleViolation:
            return False
        self.events.append(event)
        self.moves += event_type != HAND_STARTED
        return True


def _text(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def _drop(cards: list[Card], gone: Sequence[Card]) -> None:
    for card in gone:
        cards.remove(card)


def gin_hand(seed: int) -> tuple[list[LogEvent], int] | None:
    """Play a Gin hand (Big Gin preset) and return its log and turns, or None if it ended
    (at the wall) before GIN_TURNS turns."""
    rng = random.Random(seed)
    deck = list(gin.GIN_DECK.cards())
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(gin.HAND_SIZE)] for _ in range(2)]
    pile = [deck.pop()]
    log = _Table("gin", {"preset": "big_gin"}, 2)
    log.add(HAND_STARTED, {"dealer": 0, "upcard": str(pile[0])})
    log.add(TURN_PASSED, {"seat": 1})
    log.add(TURN_PASSED, {"seat": 0})
    seat, turns = 1, 0
    while True:
        hand = hands[seat]
        from_pile = turns > 0 and rng.random() < 0.62
        card = pile.pop() if from_pile else deck.pop()
        source = "discard" if from_pile else "stock"
        log.add(CARD_DRAWN, {"seat": seat, "source": source, "card": str(card)})
        hand.append(card)
        turns += 1
        options = [c for c in hand if not (from_pile and c == card)]
        counts = {
            c: deadwood_count([o for o in hand if o != c], rules=gin.GIN_MELDS, value=gin_value)
            for c in options
        }
        least = min(counts.values())
        best = [c for c in options if counts[c] == least]
        if turns >= GIN_TURNS and least <= gin.KNOCK_LIMIT:
            out = rng.choice(best)
            kept = [c for c in hand if c != out]
            log.add(KNOCKED, {"seat": seat, "card": str(out), "hand": _text(kept)})
            shown = [None, None]
            shown[1 - seat] = {"hand": _text(hands[1 - seat])}
            log.add(HANDS_SHOWN, {"mode": "cards", "players": shown})
            return log.events, turns
        out = rng.choice(options) if rng.random() < 0.2 else rng.choice(best)
        log.add(CARD_DISCARDED, {"seat": seat, "card": str(out)})
        hand.remove(out)
        pile.append(out)
        if log.state.play is None:
            return None  # the wall: void before the turns wanted
        seat = 1 - seat


def _ramino_turn(log: _Table, rng: random.Random, seat: int, world: dict[str, Any]) -> None:
    """Play one Ramino turn for the seat: draw (named), open or meld, add, discard."""
    hands, pile, stock = world["hands"], world["pile"], world["stock"]
    rules, deck, value = world["rules"], world["deck"], world["value"]
    hand: list[Card] = hands[seat]
    if pile and rng.random() < 0.25:
        card = pile.pop()
        log.add(CARD_DRAWN, {"seat": seat, "source": "discard", "card": str(card)})
    else:
        card = stock.pop()
        log.add(CARD_DRAWN, {"seat": seat, "source": "stock", "card": str(card)})
    hand.append(card)
    play = log.state.play
    opened = play.hands[seat].opened
    if not opened:
        opening = best_opening(hand, rules=rules, keep=1, deck=deck)
        if opening.melds and opening.value >= world["minimum"]:
            payload = {"seat": seat, "melds": [str(meld) for meld in opening.melds]}
            if log.add(MELDS_LAID, payload):
                _drop(hand, opening.cards)
                opened = True
    elif len(hand) > 3:
        arranged = best_arrangement(hand, rules=rules, value=value, deck=deck)
        laid = [card for meld in arranged.melds for card in meld.cards]
        if arranged.melds and len(laid) < len(hand):
            payload = {"seat": seat, "melds": [str(meld) for meld in arranged.melds]}
            if log.add(MELDS_LAID, payload):
                _drop(hand, laid)
    if opened:
        for card in list(hand):
            if len(hand) < 2 or card not in hand:
                continue
            for number, item in enumerate(log.state.play.table, start=1):
                declared = [stands for _, stands in item.meld.declared()]
                try:
                    check_meld((*item.meld.cards, card), rules, [*declared, None])
                except RuleViolation:
                    continue
                payload = {"seat": seat, "meld": number, "cards": str(card)}
                if log.add(CARDS_ADDED, payload):
                    hand.remove(card)
                    break
    loose = best_arrangement(hand, rules=rules, value=value, deck=deck).deadwood
    choices = [c for c in loose if not c.is_joker] or [c for c in hand if not c.is_joker] or hand
    out = max(choices, key=value) if rng.random() < 0.8 else rng.choice(hand)
    log.add(CARD_DISCARDED, {"seat": seat, "card": str(out)})
    hand.remove(out)
    pile.append(out)


def ramino_hand(seed: int) -> tuple[list[LogEvent], int] | None:
    """Play a six-player Ramino hand and return its log and moves, or None if it ended
    before RAMINO_MOVES moves."""
    rng = random.Random(seed)
    options = ramino.RaminoOptions.from_dict({}, RAMINO_SEATS)
    deck = ramino.deck(options, RAMINO_SEATS)
    cards = list(deck.cards())
    rng.shuffle(cards)
    hands = [[cards.pop() for _ in range(ramino.HAND_SIZE)] for _ in range(RAMINO_SEATS)]
    pile = [cards.pop()]
    log = _Table("ramino", {}, RAMINO_SEATS)
    log.add(HAND_STARTED, {"dealer": RAMINO_SEATS - 1, "upcard": str(pile[0])})
    world = {
        "hands": hands,
        "pile": pile,
        "stock": cards,
        "rules": ramino.meld_rules(options),
        "deck": deck,
        "value": ramino.card_value,
        "minimum": options.opening_minimum,
    }
    seat = 0
    while log.state.play is not None and log.state.play.phase not in ("show", "done"):
        _ramino_turn(log, rng, seat, world)
        seat = (seat + 1) % RAMINO_SEATS
    if log.state.play is not None:
        shown = [{"hand": _text(hand)} if hand else None for hand in hands]
        log.add(HANDS_SHOWN, {"mode": "cards", "players": shown})
    if log.state.play is not None or log.moves < RAMINO_MOVES:
        return None
    return log.events, log.moves


def _first(play: Callable[[int], tuple[list[LogEvent], int] | None]) -> tuple[list[LogEvent], int]:
    for seed in range(SEEDS):
        found = play(seed)
        if found is not None:
            return found
    raise RuntimeError(f"no seed of {SEEDS} plays a hand long enough")


@functools.cache
def hands() -> dict[str, tuple[list[LogEvent], int]]:
    """Return the two benched hands (built once)."""
    return {"gin": _first(gin_hand), "ramino": _first(ramino_hand)}


def _cpu_times(events: list[LogEvent]) -> list[float]:
    """Return the CPU time of each review of the hand (time.process_time, the collector on,
    as a worker runs it), RUNS of them, at least LEAST, within BUDGET seconds."""
    times: list[float] = []
    gc.collect()
    while len(times) < RUNS and (len(times) < LEAST or sum(times) < BUDGET):
        start = process_time()
        review_hand(events, 1)
        times.append(process_time() - start)
    return times


def _page_times(cache_url: str) -> dict[str, dict[str, list[float]]]:
    """Run bench/review_page.py on a fresh SQLite file with the cache at ``cache_url`` (files
    beside the database when empty); return its times by hand and figure."""
    from bench.pages import ROOT

    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{folder}/bench.db",
            "CACHE_DIR": f"{folder}/cache",
            "DEBUG": "1",
        }
        env.pop("CELERY_BROKER_URL", None)
        env.pop("CACHE_URL", None)
        if cache_url:
            env["CACHE_URL"] = cache_url
        done = subprocess.run(
            [sys.executable, "-m", "bench.review_page"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=PAGE_TIMEOUT,
            check=False,
        )
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"bench/review_page.py failed:\n{tail}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False


def _kib(size: float) -> str:
    return f"{size / 1024:.1f} KiB"


def size_rows(sizes: Mapping[str, Mapping[str, int]]) -> tuple[list[list[str]], bool]:
    """Return the rows of the answers' sizes per step, and whether each is within STEP_BYTES."""
    rows, passed = [], True
    for key, size in sizes.items():
        name = "Gin" if key == "gin" else "Ramino"
        figures = [
            (
                f"the API's answer ({_kib(size['api'])}) over {size['steps']} steps",
                size["api"] / size["steps"],
            ),
            ("the largest step asked by htmx", size["step"]),
        ]
        for what, per_step in figures:
            ok = per_step <= STEP_BYTES
            passed &= ok
            rows.append([f"{name}, {what}", _kib(per_step), f"<= {_kib(STEP_BYTES)}", verdict(ok)])
    return rows, passed


def page_rows() -> tuple[list[list[str]], bool, list[str], dict[str, Any]]:
    """Time the review's first reads and cached pages with each cache; return the rows, the
    verdict, what was skipped and the answers' sizes (the first cache's)."""
    rows, passed, skipped, sizes = [], True, [], {}
    for cache, url in PAGE_CACHES.items():
        if url and not _redis_answers(url):
            skipped.append(f"{cache} (not answering at {url})")
            continue
        for key, found in _page_times(url).items():
            sizes.setdefault(key, found["sizes"])
            for figure, times in found["times"].items():
                spread = Spread.of(times)
                ok = spread.p95 <= PAGE_TARGETS[figure]
                passed &= ok
                rows.append(
                    [
                        f"{'Gin' if key == 'gin' else 'Ramino'}, {PAGE_FIGURES[figure]} ({cache})",
                        str(spread.runs),
                        seconds(spread.median),
                        seconds(spread.p95),
                        f"p95 <= {seconds(PAGE_TARGETS[figure])}",
                        verdict(ok),
                    ]
                )
    return rows, passed, skipped, sizes


def run() -> tuple[str, bool]:
    """Time the review of each hand, then its page once reviewed; return the report and the
    verdict."""
    rows = []
    passed = True
    for key, (events, length) in hands().items():
        review = review_hand(events, 1)
        if not review.complete:
            raise RuntimeError(f"the {key} hand is not known in hindsight at every turn")
        spread = Spread.of(_cpu_times(events))
        ok = spread.p95 <= TARGET
        passed &= ok
        if key == "gin":
            what = f"Gin, {len(review.turns)} turns ({GIN_TURNS} draws)"
        else:
            what = f"Ramino, {RAMINO_SEATS} players, {length} moves ({len(review.turns)} turns)"
        rows.append(
            [
                f"{what}, {len(review.chances)} chances",
                str(spread.runs),
                seconds(spread.median),
                seconds(spread.p95),
                f"p95 <= {seconds(TARGET)}",
                verdict(ok),
            ]
        )
    report = table(["Hand review (CPU)", "runs", "median", "p95", "target", "verdict"], rows)
    note = (
        "Each review from the table's log to the typed review (the replay, the hands in"
        " hindsight, every turn weighed), in CPU time (time.process_time, the collector on), as"
        " a worker spends it: other work on the machine does not count."
    )
    try:
        pages, pages_passed, skipped, sizes = page_rows()
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        return f"{report}\n{note}\n\nReview pages: FAIL: {exc}", False
    header = ["Review read, first and again", "runs", "median", "p95", "target", "verdict"]
    page_note = (
        "Wall time of each answer through Django's test client (DEBUG off, SQLite). The first"
        " read: the cache emptied, the table's log read, the review worked out, kept and"
        " answered. The others read it back: the table and its key, the state at the head, the"
        " review read from the cache and the page drawn at the hand's middle step."
        + (f" Skipped: {', '.join(skipped)}." if skipped else "")
    )
    sized, sizes_passed = size_rows(sizes)
    size_table = table(["Review answer, per step", "size", "target", "verdict"], sized)
    return (
        f"{report}\n{note}\n\n{table(header, pages)}\n{page_note}\n\n{size_table}\n"
        "Each step after the deal answers what changed since the step before.",
        passed and pages_passed and sizes_passed,
    )

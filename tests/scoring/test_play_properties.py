"""Replay properties of hands played move by move (scoring/play/ through scoring/replay.py).

A simulated table (play_simulator.py) deals real cards and plays legal moves for Gin, Rummy40,
Ramino and Knock Rummy, writing the log a phone would send. Any such log must replay; the
totals must be the sum of the hands' scores, each hand scoring what the same hand entered by
hand scores; every card must be somewhere while a hand is played; a prefix must replay to
the state the events reach one by one; taking back a move must give back the state before
it. Moves that break a known rule, injected anywhere in a legal log, must be refused with
that rule's ID, leaving the state as it was.

The simulator's choices come from a seeded ``random.Random``: hypothesis draws the table,
its options and the seed, and shrinks those. With ``st.randoms(use_true_random=False)`` the
longest tables (a Ramino hand makes thousands of choices) overrun hypothesis's buffer and
are dropped as invalid, which would keep hands that run the stock out from being tested.
The tests at the end replay short hand-written logs of moves RULES.md allows that the
engine refused when the simulator first played them: the bugs it found, fixed since.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.cards import FULL_DECK, gin_value
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
    MOVE_TYPES,
    MOVE_UNDONE,
    TABLE_CREATED,
    TABLE_REARRANGED,
    TURN_PASSED,
    LogEvent,
)
from scoring.melds import check_meld, opening_value
from scoring.replay import TableState, apply, replay
from scoring.solver import best_arrangement
from scoring.variants import gin
from tests.scoring.play_sim_base import (
    DRAW,
    FIRST,
    GIN_KNOCK_LIMIT,
    KR_DRAWS,
    PLAY,
    Config,
    Point,
    Simulation,
    extension,
)
from tests.scoring.play_simulator import simulate, visible

TURN_RULES = {
    "gin": "GIN-TURN",
    "rummy40": "R40-TURN",
    "ramino": "RAM-TURN",
    "knock_rummy": "KR-TURN",
}
GAMES = tuple(TURN_RULES)
GIN_OPTIONS = (
    {},
    {"preset": "classic"},
    {"no_rediscard": False},
    {"target": 1},
    {"preset": "classic", "target": 1, "undercut_on_tie": True},
    {"wall": False},
)
RAMINO_HOUSE_RULES = (
    {},
    {"scala40": True},
    {"no_opening": True},
    {"short_deck": True},
    {"circular_runs": True},
    {"no_jokers": True},
    {"fixed_jokers": True, "fixed_groups": True},
    {"no_discard_win": True},
    {"casino_scoring": True},
    {"knock_claim": True},
    {"circular_runs": True, "no_discard_win": True, "casino_scoring": True},
    {"short_deck": True, "fixed_jokers": True, "knock_claim": True},
    {"scala40": True, "fixed_groups": True, "no_discard_win": True, "knock_claim": True},
)
# A Knock Rummy target of 30 ends some games after a round or two (KR-MATCH).
KR_TARGETS = (30, 150)
PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
MUTATION_SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def tables(draw, games=GAMES, *, players=None, max_events=None, hands=3, knock_claim=False):
    """Draw a table to simulate: game, seats, a few house-rule combinations, hands."""
    game = draw(st.sampled_from(games))
    counts = {"gin": (2,), "rummy40": (2, 4), "ramino": range(2, 7), "knock_rummy": range(2, 6)}
    players = draw(st.sampled_from([n for n in counts[game] if players is None or n in players]))
    if game == "gin":
        options = draw(st.sampled_from(GIN_OPTIONS))
    elif game == "rummy40":
        options = {
            "opening_minimum": draw(st.sampled_from((0, 40, 50))),
            "target": draw(st.sampled_from((1, 100))),
        }
    elif game == "ramino":
        options = dict(draw(st.sampled_from(RAMINO_HOUSE_RULES)))
        if knock_claim:
            options = {**options, "knock_claim": True}
        if players < 3:
            options.pop("knock_claim", None)  # RAM-OPT-KNOCKCLAIM needs 3 players
        options["hands"] = draw(st.integers(1, 3))
    else:
        options = {"target": draw(st.sampled_from(KR_TARGETS))}
    return Config(
        game,
        players,
        options,
        hands=draw(st.integers(1, hands)),
        recorded=0.25,
        undo=0.1,
        max_events=max_events,
    )


def seeds():
    """Draw the seed of the simulator's choices."""
    return st.integers(0, 2**32 - 1)


def fold(events) -> list[TableState]:
    """Apply the events one by one and return the state after each; a refusal fails."""
    states: list[TableState] = []
    state = None
    for event in events:
        try:
            state = apply(state, event)
        except RuleViolation as exc:
            pytest.fail(
                f"legal event {event.seq} {event.event_type} {event.payload} refused: "
                f"{exc.rule} {[v.code for v in exc.violations]} {exc}"
            )
        states.append(state)
    return states


def without_head(projection: dict) -> dict:
    """Return a projection without the log position, which every event moves on."""
    return {key: value for key, value in projection.items() if key != "head_seq"}


def melds_of(items) -> list[tuple[str, ...]]:
    """Return the table's melds as sorted card names, whoever holds the meld objects."""
    return sorted(tuple(sorted(str(card) for card in item.meld.cards)) for item in items)


class TestLegalLogsReplay:
    @PROPERTY_SETTINGS
    @given(tables(), seeds())
    def test_a_legal_log_replays_without_a_refusal(self, table, seed):
        sim = simulate(table, random.Random(seed))
        states = fold(sim.events)
        assert states[-1].head_seq == len(sim.events)

    @PROPERTY_SETTINGS
    @given(tables(), seeds())
    def test_the_totals_are_the_sum_of_the_hands_each_scored_as_entered_by_hand(self, table, seed):
        sim = simulate(table, random.Random(seed))
        state = fold(sim.events)[-1]
        # Each hand played move by move scores what the same hand entered with the real
        # cards scores (the hand_recorded path), and hands entered so score as entered.
        expected = [
            state.variant.score_entry(sim.options, entry.payload, state.seats).points
            if entry.payload is not None
            else (0,) * len(state.seats)  # void: Gin's stock ran out without the wall
            for entry in sim.entries
        ]
        assert [hand.current.points for hand in state.hands] == expected
        assert [hand.seq for hand in state.hands] == [entry.seq for entry in sim.entries]
        sums = [sum(points[seat] for points in expected) for seat in range(len(state.seats))]
        assert list(state.totals) == sums
        assert state.to_dict()["totals"] == sums
        # The hands are the match's: once it is over, no hand starts (GIN-MATCH, R40-MATCH,
        # RAM-MATCH, KR-MATCH).
        if state.finished:
            start = LogEvent(state.head_seq + 1, HAND_STARTED, {})
            with pytest.raises(RuleViolation) as caught:
                apply(state, start)
            assert caught.value.rule == state.variant.match_rule

    @PROPERTY_SETTINGS
    @given(tables(), seeds())
    def test_every_card_is_somewhere_while_a_hand_is_played(self, table, seed):
        sim = simulate(table, random.Random(seed))
        states = fold(sim.events)
        for state, point in zip(states, [*sim.points[1:], Point(None, None)], strict=True):
            play = state.play
            if play is None or play.phase in ("show", "done"):
                continue
            held = sum(hand.count for hand in play.hands)
            on_table = sum(len(item.meld.cards) for item in play.table)
            assert held + play.stock + len(play.discard) + on_table == sim.deck.size
            if point.phase is None:
                continue  # the event after is a move_undone: the simulator kept no table
            # What the engine sees matches the real table.
            assert [hand.count for hand in play.hands] == [len(hand) for hand in point.hands]
            assert play.stock == point.stock
            assert list(play.discard) == list(point.discard)
            assert melds_of(play.table) == melds_of(point.table)
            for hand, real in zip(play.hands, point.hands, strict=True):
                assert not Counter(hand.known) - Counter(real), "a known card is not held"
            if play.phase == point.phase:
                assert play.turn == point.turn

    @PROPERTY_SETTINGS
    @given(tables(), seeds(), st.data())
    def test_replaying_a_prefix_gives_the_state_of_the_events_applied_one_by_one(
        self, table, seed, data
    ):
        sim = simulate(table, random.Random(seed))
        states = fold(sim.events)
        lengths = data.draw(
            st.lists(st.integers(1, len(sim.events)), min_size=1, max_size=4), label="prefixes"
        )
        for length in lengths:
            assert replay(sim.events[:length]).to_dict() == states[length - 1].to_dict()

    @PROPERTY_SETTINGS
    @given(tables(), seeds())
    def test_taking_back_any_move_gives_back_the_state_before_it(self, table, seed):
        sim = simulate(table, random.Random(seed))
        states = fold(sim.events)
        undoable = (HAND_STARTED, *MOVE_TYPES)
        for index, event in enumerate(sim.events[1:], start=1):
            if event.event_type not in undoable:
                continue
            before, after = states[index - 1], states[index]
            undo = LogEvent(after.head_seq + 1, MOVE_UNDONE, {"reason": "wrong card"})
            if after.play is None and event.event_type != HAND_STARTED:
                # The move ended and scored the hand: a later event voids or amends it.
                projection = after.to_dict()
                with pytest.raises(RuleViolation) as caught:
                    apply(after, undo)
                assert (caught.value.rule, caught.value.violations[0].code) == (
                    "EVENT",
                    "no_hand_in_play",
                )
                assert after.to_dict() == projection
                continue
            undone = apply(after, undo)
            assert without_head(undone.to_dict()) == without_head(before.to_dict())


# Mutations: (sim, point, state, rng) -> (event type, payload, rule[, lead]), or None where
# the mutation does not fit the point. The point is the real table just before a legal
# event; the state is the engine's state there. The mutated event replaces the legal one,
# after the legal moves of ``lead`` when the rule is judged at the end of a turn.


def _turn_rule(sim: Simulation) -> str:
    return TURN_RULES[sim.config.variant]


def _wrong_seat_draw(sim: Simulation, point: Point, state: TableState, rng: random.Random):
    """GIN-TURN, R40-TURN, RAM-TURN, KR-TURN: only the seat to move draws."""
    if point.phase not in (FIRST, DRAW) or state.play.phase not in ("first", "draw"):
        return None
    seat = rng.choice([seat for seat in range(sim.config.players) if seat != point.turn])
    source = "discard" if point.phase == FIRST else "stock"
    return CARD_DRAWN, {"seat": seat, "source": source}, _turn_rule(sim)


def _wrong_seat_discard(sim, point, state, rng):
    """GIN-TURN, R40-TURN, RAM-TURN: only the seat to move discards, a card it holds."""
    if point.phase != PLAY:
        return None
    seat = rng.choice([seat for seat in range(sim.config.players) if seat != point.turn])
    card = str(rng.choice(point.hands[seat]))
    return CARD_DISCARDED, {"seat": seat, "card": card}, _turn_rule(sim)


def _second_draw(sim, point, state, rng):
    """GIN-TURN, R40-TURN, RAM-TURN: one draw a turn."""
    if point.phase != PLAY:
        return None
    source = "discard" if point.discard and rng.random() < 0.5 else "stock"
    return CARD_DRAWN, {"seat": point.turn, "source": source}, _turn_rule(sim)


def _fourth_draw(sim, point, state, rng):
    """KR-TURN: after the third draw the turn is over."""
    if point.phase != PLAY or point.draws < KR_DRAWS or state.play.phase != "play":
        return None
    return CARD_DRAWN, {"seat": point.turn, "source": "stock"}, "KR-TURN"


def _early_knock(sim, point, state, rng):
    """KR-TURN: a knock comes after the turn is played (a meld, or the third draw)."""
    if point.phase != PLAY or point.melded_now or point.draws >= KR_DRAWS or not point.stock:
        return None
    return KNOCKED, {"seat": point.turn}, "KR-TURN"


def _rediscard(sim, point, state, rng):
    """GIN-NOREDISCARD: the card just taken from the discard pile stays this turn."""
    if point.phase != PLAY or point.taken is None or not sim.options.no_rediscard:
        return None
    if rng.random() < 0.5:
        payload = {"seat": point.turn, "card": str(point.taken)}
        return CARD_DISCARDED, payload, "GIN-NOREDISCARD"
    kept = list(point.hands[point.turn])
    kept.remove(point.taken)
    payload = {"seat": point.turn, "card": str(point.taken), "hand": _text(kept)}
    return KNOCKED, payload, "GIN-NOREDISCARD"


def _knock_over_limit(sim, point, state, rng):
    """GIN-KNOCK: a knock needs a count of 10 or less after the discard."""
    if point.phase != PLAY:
        return None
    hand = list(point.hands[point.turn])
    for card in rng.sample(hand, len(hand)):
        kept = list(hand)
        kept.remove(card)
        if card != point.taken and _gin_count(kept) > GIN_KNOCK_LIMIT:
            payload = {"seat": point.turn, "card": str(card), "hand": _text(kept)}
            return KNOCKED, payload, "GIN-KNOCK"
    return None


def _third_copy(sim, point, state, rng):
    """CARD-2: a card drawn and named that the table shows as often as the decks hold it."""
    if point.phase != DRAW or state.play.phase not in ("draw", "play"):
        return None
    full = [card for card, count in visible(point).items() if count >= sim.deck.limit(card)]
    if not full:
        return None
    payload = {"seat": point.turn, "source": "stock", "card": str(rng.choice(full))}
    return CARD_DRAWN, payload, "CARD-2"


def _first_turn_stock(sim, point, state, rng):
    """GIN-FIRST: no stock draw on the first turn; after two passes, not the upcard."""
    if point.phase == FIRST:
        return CARD_DRAWN, {"seat": point.turn, "source": "stock"}, "GIN-FIRST"
    if point.phase == DRAW and point.passes == 2:
        return CARD_DRAWN, {"seat": point.turn, "source": "discard"}, "GIN-FIRST"
    return None


def _low_opening(sim, point, state, rng):
    """RAM-OPEN: a turn ending on an opening worth less than the minimum.

    A short opening may wait on the table for more melds in the same turn ("several melds in
    the same turn may be summed"), so the refusal comes with the discard that ends the turn.
    """
    if point.phase != PLAY or point.opened[point.turn] or not sim.options.opening_minimum:
        return None
    if point.melded_now:
        return None  # melds laid earlier in the turn count towards the opening
    hand = point.hands[point.turn]
    for cards in combinations(sorted(set(hand), key=str), 3):
        try:
            meld = check_meld(cards, sim.melds)
        except RuleViolation:
            continue
        if opening_value(meld) < sim.options.opening_minimum:
            laid = (MELDS_LAID, {"seat": point.turn, "melds": [str(meld)]})
            card = str(_without(hand, cards)[0])
            return CARD_DISCARDED, {"seat": point.turn, "card": card}, "RAM-OPEN", [laid]
    return None


def _add_rule(sim: Simulation) -> str:
    return "R40-ADD" if sim.config.variant == "rummy40" else "RAM-ADD"


def _fitting_add(sim, point, seat, melds):
    """Return a cards_added payload of a held card that fits one of the table melds."""
    hand = point.hands[seat]
    for index in melds:
        for card in hand:
            if extension(point.table[index].meld, [card], sim.melds) is not None:
                return {"seat": seat, "meld": index + 1, "cards": str(card)}
    return None


def _add_before_opening(sim, point, state, rng):
    """R40-ADD, RAM-ADD: cards are added to table melds only after opening."""
    if point.phase != PLAY or point.opened[point.turn] or not point.table:
        return None
    melds = rng.sample(range(len(point.table)), len(point.table))
    payload = _fitting_add(sim, point, point.turn, melds)
    if payload is None:
        # The rule is about opening: any card the seat holds is refused the same way.
        payload = {
            "seat": point.turn,
            "meld": melds[0] + 1,
            "cards": str(point.hands[point.turn][0]),
        }
    return CARDS_ADDED, payload, _add_rule(sim)


def _add_to_other_meld(sim, point, state, rng):
    """R40-ADD: at two players a seat adds only to its own melds (add_to_any_meld off)."""
    if point.phase != PLAY or not point.opened[point.turn] or sim.options.add_to_any_meld:
        return None
    theirs = [i for i, item in enumerate(point.table) if item.owner != point.turn]
    payload = _fitting_add(sim, point, point.turn, theirs)
    return None if payload is None else (CARDS_ADDED, payload, "R40-ADD")


def _swap_before_opening(sim, point, state, rng):
    """R40-JOKER-STEAL, RAM-JOKER-SWAP: a table joker is taken only after opening."""
    if point.phase != PLAY or point.opened[point.turn]:
        return None
    rule = "R40-JOKER-STEAL" if sim.config.variant == "rummy40" else "RAM-JOKER-SWAP"
    for index, item in enumerate(point.table):
        for card, stands in item.meld.declared():
            if card.is_joker and stands in point.hands[point.turn]:
                payload = {"seat": point.turn, "meld": index + 1, "card": str(stands)}
                return JOKER_SWAPPED, payload, rule
    return None


def _joker_discard_before_opening(sim, point, state, rng):
    """R40-JOKER-DISCARD: a joker is not discarded before opening."""
    if point.phase != PLAY or point.opened[point.turn]:
        return None
    if not any(card.is_joker for card in point.hands[point.turn]):
        return None
    return CARD_DISCARDED, {"seat": point.turn, "card": "JK"}, "R40-JOKER-DISCARD"


def _own_discard_claimed(sim, point, state, rng):
    """RAM-OPT-KNOCKCLAIM: a player may not claim their own discard."""
    if point.phase != DRAW or not state.play.claimable:
        return None
    discarder = (point.turn - 1) % sim.config.players
    return DISCARD_CLAIMED, {"seat": discarder}, "RAM-OPT-KNOCKCLAIM"


def _without(cards, gone) -> list:
    left = list(cards)
    for card in gone:
        left.remove(card)
    return left


def _text(cards) -> str:
    return " ".join(str(card) for card in cards)


def _gin_count(cards) -> int:
    return best_arrangement(cards, rules=gin.GIN_MELDS, value=gin_value).count


# Short logs: the mutations look at the start of a hand as much as at its end.
SHORT = {"max_events": 150, "hands": 2}
DISCARD_GAMES = ("gin", "rummy40", "ramino")
# name: (mutation, the tables it is tried on)
MUTATIONS = {
    "a draw by a seat whose turn it is not": (_wrong_seat_draw, tables(**SHORT)),
    "a discard by a seat whose turn it is not": (
        _wrong_seat_discard,
        tables(DISCARD_GAMES, **SHORT),
    ),
    "a second draw in one turn": (_second_draw, tables(DISCARD_GAMES, **SHORT)),
    "a fourth draw in a Knock Rummy turn": (_fourth_draw, tables(("knock_rummy",), **SHORT)),
    "a Knock Rummy knock before the turn is played": (
        _early_knock,
        tables(("knock_rummy",), **SHORT),
    ),
    "a Gin discard of the card the discard pile just gave": (
        _rediscard,
        tables(("gin",), **SHORT),
    ),
    "a Gin knock over 10": (_knock_over_limit, tables(("gin",), **SHORT)),
    # Whole hands: two copies of a card face up take a while with two decks.
    "a third visible copy of a card": (_third_copy, tables(hands=1)),
    "a Gin stock draw on the first turn": (_first_turn_stock, tables(("gin",), **SHORT)),
    "a Ramino opening below the minimum": (_low_opening, tables(("ramino",), **SHORT)),
    "an add before opening": (_add_before_opening, tables(("rummy40", "ramino"), **SHORT)),
    "a Rummy40 add to the other player's meld": (
        _add_to_other_meld,
        tables(("rummy40",), players=(2,), hands=2),
    ),
    "a joker taken from the table before opening": (
        _swap_before_opening,
        tables(("rummy40", "ramino"), hands=2),
    ),
    "a Rummy40 joker discard before opening": (
        _joker_discard_before_opening,
        tables(("rummy40",), **SHORT),
    ),
    "a Ramino claim of one's own discard": (
        _own_discard_claimed,
        tables(("ramino",), players=(3, 4, 5, 6), knock_claim=True, **SHORT),
    ),
}


class TestIllegalMovesAreRefused:
    @pytest.mark.parametrize("name", list(MUTATIONS))
    @MUTATION_SETTINGS
    @given(data=st.data())
    def test_a_move_breaking_a_rule_is_refused_with_its_rule_and_changes_nothing(self, name, data):
        mutate, configs = MUTATIONS[name]
        config = data.draw(configs, label="table")
        rng = random.Random(data.draw(seeds(), label="seed"))
        sim = simulate(config, rng)
        states = fold(sim.events)
        # Try the points in a random order and inject at the first the mutation fits.
        order = list(range(1, len(sim.events)))
        rng.shuffle(order)
        for index in order:
            point, state = sim.points[index], states[index - 1]
            if point.phase is None or state.play is None:
                continue
            mutation = mutate(sim, point, state, rng)
            if mutation is not None:
                break
        else:
            assume(False)
        kind, payload, rule, *rest = mutation
        lead = rest[0] if rest else []
        before = state
        for lead_kind, lead_payload in lead:
            state = apply(state, LogEvent(state.head_seq + 1, lead_kind, lead_payload))
        projection = state.to_dict()
        with pytest.raises(RuleViolation) as caught:
            apply(state, LogEvent(state.head_seq + 1, kind, payload))
        assert caught.value.rule == rule, (kind, payload, str(caught.value))
        assert state.to_dict() == projection
        # Nothing of the refused move stayed behind: with the lead taken back, the legal log
        # goes on from there.
        for _ in lead:
            state = apply(state, LogEvent(state.head_seq + 1, MOVE_UNDONE, {}))
        assert without_head(state.to_dict()) == without_head(before.to_dict())
        legal = sim.events[index]
        apply(state, LogEvent(state.head_seq + 1, legal.event_type, legal.payload))


def table_log(variant, seats, options, *moves):
    """Return the events of a table: its creation, then each (type, payload) in order."""
    created = {"variant": variant, "options": options, "seats": seats}
    return [
        LogEvent(1, TABLE_CREATED, created),
        *(LogEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(moves, start=2)),
    ]


def draw(seat, card=None):
    return CARD_DRAWN, {"seat": seat, "source": "stock", **({"card": card} if card else {})}


def discard(seat, card):
    return CARD_DISCARDED, {"seat": seat, "card": card}


def lay(seat, *melds):
    return MELDS_LAID, {"seat": seat, "melds": list(melds)}


def pass_turn(seat):
    return TURN_PASSED, {"seat": seat}


class TestMovesRulesAllowedThatTheEngineRefused:
    """Bugs the simulator found: logs RULES.md allows that the engine refused.

    Each was fixed while these tests were written (the commit is named); the tests stay as
    guards, each with the shortest log that showed its bug.
    """

    def test_a_joker_taken_from_a_meld_and_melded_again_counts_once_r40_joker_steal(self):
        # Bruno lays both jokers; Anna opens, takes the 6♥ joker (R40-JOKER-STEAL), melds it
        # at once on her run and goes out. The table shows two jokers; the end of the hand
        # counted the stolen one in Bruno's melds and again in Anna's, so CARD-2 refused the
        # hands shown and the hand could never be scored (fixed by 6b23033).
        events = table_log(
            "rummy40",
            ["Anna", "Bruno"],
            {"opening_minimum": 0, "target": 1},
            (HAND_STARTED, {"upcard": "2D"}),
            draw(1),
            lay(1, "5H JK=6H 7H", "9C JK=10C JC"),
            discard(1, "KD"),
            draw(0),
            lay(0, "2S 3S 4S"),
            (JOKER_SWAPPED, {"seat": 0, "meld": 1, "card": "6H"}),
            (CARDS_ADDED, {"seat": 0, "meld": 3, "cards": "JK"}),
            lay(0, "8D 9D 10D", "QC QS QH"),
            discard(0, "4C"),
            (HANDS_SHOWN, {"mode": "cards", "players": [None, {"hand": "3C 4H 8S KS"}]}),
        )
        # R40-END: Anna went out; Bruno adds 3 + 4 + 8 + 10.
        assert replay(events).totals == (0, 25)

    def test_a_knock_rummy_table_of_more_than_twenty_melds_can_be_rearranged_kr_manip(self):
        # Five players lay 3 melds each, then one more each but Bruno (20 melds). Bruno then
        # lays two melds, one with the 4♣ taken from the end of a run (KR-MANIP): 21 melds
        # after the move, which is legal and takes all his cards. table_rearranged carries
        # the whole table and refused more than 20 melds (EVENT bad_melds), where a 106-card
        # table holds up to 35 (fixed by 85b1abf).
        first = {
            1: ["AC 2C 3C 4C", "7D 8D 9D", "KS KH KD"],
            2: ["AS 2S 3S", "4S 5S 6S", "7S 8S 9S"],
            3: ["AH 2H 3H", "4H 5H 6H", "7H 8H 9H"],
            4: ["AD 2D 3D", "4D 5D 6D", "10D JD QD"],
            0: ["10S JS QS", "10H JH QH", "10C JC QC"],
        }
        second = {2: "AC 2C 3C", 3: "AS 2S 3S", 4: "AH 2H 3H", 0: "AD 2D 3D"}
        moves = [(HAND_STARTED, {})]
        for seat, melds in first.items():
            moves += [draw(seat), lay(seat, *melds), pass_turn(seat)]
        moves += [draw(1), draw(1), draw(1), pass_turn(1)]  # KR-TURN: no meld, three draws
        for seat, meld in second.items():
            moves += [draw(seat), draw(seat), lay(seat, meld), pass_turn(seat)]
        table = [m for melds in first.values() for m in melds] + list(second.values())
        table[table.index("AC 2C 3C 4C")] = "AC 2C 3C"
        moves += [
            draw(1),
            (TABLE_REARRANGED, {"seat": 1, "melds": [*table, "4C 5C 6C", "KC KS KH"]}),
        ]
        events = table_log("knock_rummy", ["Anna", "Bruno", "Carla", "Dario", "Elena"], {}, *moves)
        state = replay(events)
        assert state.turn is None  # Bruno played his last card: the round is over

    def test_a_gin_table_without_the_wall_takes_the_discard_that_empties_the_stock(self):
        # wall off (GIN-WALL is a table option): both pass the upcard, then 31 turns of a
        # stock draw and a discard. The last discard leaves the stock empty: play.py ended
        # the hand as a wall, and gin.score_wall refused a wall at a table playing without
        # it (GIN-WALL not_enabled), so the discard was refused and nothing could follow.
        # The hand is void now (fixed by 686770f).
        names = [str(card) for card in FULL_DECK if str(card) != "KC"][:31]
        moves = [(HAND_STARTED, {"upcard": "KC"}), pass_turn(1), pass_turn(0)]
        for turn, card in enumerate(names):
            seat = 1 - turn % 2
            moves += [draw(seat), discard(seat, card)]
        events = table_log("gin", ["Anna", "Bruno"], {"wall": False}, *moves)
        state = replay(events)
        assert [hand.current.points for hand in state.hands] == [(0, 0)]
        assert state.play is None

    def test_a_ramino_opening_may_be_laid_meld_by_meld_in_its_turn_ram_open(self):
        # RAM-OPEN: "several melds in the same turn may be summed". Bruno lays 2♣ 3♣ 4♣ (9)
        # then K♠ K♥ K♦ (30) in the same turn: 39 together. The engine judged the first
        # melds_laid alone as the whole opening and refused it (RAM-OPEN below_minimum;
        # fixed by 511b788).
        events = table_log(
            "ramino",
            ["Anna", "Bruno"],
            {},
            (HAND_STARTED, {"upcard": "5D"}),
            draw(1),
            lay(1, "2C 3C 4C"),
            lay(1, "KS KH KD"),
            discard(1, "9H"),
        )
        assert replay(events).to_dict()["play"]["hands"][1]["opened"] is True

    def test_a_hand_of_eleven_failed_openings_can_be_entered_by_hand_r40_open_penalty(self):
        # Bruno tries to open with 2♣ 3♣ 4♣ (9 < 40) on each of 11 turns: 11 × 20 points
        # (R40-OPEN-PENALTY sets no limit). Played move by move, the hand scored; entered
        # by hand, opening_penalty was capped at 10 "to bound typos" and the same hand was
        # refused (EVENT bad_int): the two paths disagreed and the hand could not be
        # amended (fixed by 85b1abf).
        out = ["10S JS QS KS", "5D 6D 7D", "8C 8H 8D"]
        used = {"2C", "3C", "4C", "9H", "AH", *" ".join(out).split()}
        spare = iter(str(card) for card in FULL_DECK if str(card) not in used)
        moves = [(HAND_STARTED, {"upcard": "AH"})]
        for _ in range(11):
            moves += [draw(1), lay(1, "2C 3C 4C"), discard(1, next(spare)), draw(0)]
            moves.append(discard(0, next(spare)))
        moves[-1:] = [lay(0, *out), discard(0, "9H")]
        bruno = ["2C", "3C", "4C", *(next(spare) for _ in range(7))]
        shown = {"mode": "cards", "players": [None, {"hand": " ".join(bruno)}]}
        options = {"opening_minimum": 40, "target": 1}
        played = replay(
            table_log("rummy40", ["Anna", "Bruno"], options, *moves, (HANDS_SHOWN, shown))
        )
        entry = {
            "mode": "cards",
            "players": [
                {"hand": "", "melded": " ".join(out), "went_out": True},
                {"hand": " ".join(bruno), "opening_penalty": 11},
            ],
        }
        recorded = replay(table_log("rummy40", ["Anna", "Bruno"], options, (HAND_RECORDED, entry)))
        assert recorded.totals == played.totals

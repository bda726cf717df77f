"""Moves that break a known rule, injected anywhere in a legal simulated log, are refused
with that rule's ID and leave the state as it was (see test_play_properties.py).
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scoring.errors import RuleViolation
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    DISCARD_CLAIMED,
    JOKER_SWAPPED,
    KNOCKED,
    MELDS_LAID,
    MOVE_UNDONE,
    LogEvent,
)
from scoring.melds import check_meld, opening_value
from scoring.replay import TableState, apply
from scoring.solver import best_arrangement
from scoring.variants import game_get, gin
from scoring.variants.gin.cards import gin_value
from tests.scoring.play_sim_base import (
    DRAW,
    FIRST,
    GIN_KNOCK_LIMIT,
    KR_DRAWS,
    PLAY,
    Point,
    Simulation,
    extension,
)
from tests.scoring.play_simulator import simulate, visible
from tests.scoring.play_strategies import (
    MUTATION_SETTINGS,
    fold,
    seeds,
    tables,
    without_head,
)

# Mutations: (sim, point, state, rng) -> (event type, payload, rule[, lead]), or None where
# the mutation does not fit the point. The point is the real table just before a legal
# event; the state is the engine's state there. The mutated event replaces the legal one,
# after the legal moves of ``lead`` when the rule is judged at the end of a turn.


def _turn_rule(sim: Simulation) -> str:
    return game_get(sim.config.variant).play_rules(sim.options, sim.config.players).turn_rule


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
    # A seat out of the match (Scala 40) holds no card to discard.
    others = [s for s in range(sim.config.players) if s != point.turn and point.hands[s]]
    if not others:
        return None
    seat = rng.choice(others)
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
    return {"rummy40": "R40-ADD", "scala40": "S40-ADD"}.get(sim.config.variant, "RAM-ADD")


def _fitting_add(sim, point, seat, melds):
    """Return a cards_added payload of a held card that fits one of the table melds."""
    hand = point.hands[seat]
    for index in melds:
        for card in hand:
            if extension(point.table[index].meld, [card], sim.melds) is not None:
                return {"seat": seat, "meld": index + 1, "cards": str(card)}
    return None


def _add_before_opening(sim, point, state, rng):
    """R40-ADD, RAM-ADD, S40-ADD: cards are added to table melds only after opening."""
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
    """R40-JOKER-STEAL, RAM-JOKER-SWAP, S40-JOKER-SWAP: a table joker is taken only after
    opening."""
    if point.phase != PLAY or point.opened[point.turn]:
        return None
    rule = {"rummy40": "R40-JOKER-STEAL", "scala40": "S40-JOKER-SWAP"}.get(
        sim.config.variant, "RAM-JOKER-SWAP"
    )
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


def _attachable_discard(sim, point, state, rng):
    """S40-DISCARD: a player who has opened (any player, where the table says so) does not
    throw a card a table meld takes."""
    bound = point.opened[point.turn] or sim.options.unopened_discard_check
    if point.phase != PLAY or not bound or sim.options.free_discard:
        return None
    if not point.opened[point.turn] and state.play.opening_melds:
        # A short opening goes back into the hand at the discard (S40-OPEN-PENALTY): the
        # table the discard is checked against is without it.
        return None
    hand = point.hands[point.turn]
    if len(hand) < 2 or state.play.owed_jokers or state.play.owed_card is not None:
        return None
    for card in hand:
        if any(extension(item.meld, [card], sim.melds) for item in point.table):
            return CARD_DISCARDED, {"seat": point.turn, "card": str(card)}, "S40-DISCARD"
    return None


def _pickup_kept(sim, point, state, rng):
    """S40-PICKUP: the top discard, taken before opening, must open; kept, it is refused."""
    if point.phase != DRAW or point.opened[point.turn] or not point.discard:
        return None
    take = (CARD_DRAWN, {"seat": point.turn, "source": "discard"})
    card = str(point.hands[point.turn][0])
    return CARD_DISCARDED, {"seat": point.turn, "card": card}, "S40-PICKUP", [take]


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
DISCARD_GAMES = ("gin", "rummy40", "ramino", "scala40")
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
    "an add before opening": (
        _add_before_opening,
        tables(("rummy40", "ramino", "scala40"), **SHORT),
    ),
    "a Rummy40 add to the other player's meld": (
        _add_to_other_meld,
        tables(("rummy40",), players=(2,), hands=2),
    ),
    "a joker taken from the table before opening": (
        _swap_before_opening,
        tables(("rummy40", "ramino", "scala40"), hands=2),
    ),
    "a Scala 40 discard that a table meld takes": (
        _attachable_discard,
        tables(("scala40",), hands=2),
    ),
    "a Scala 40 discard taken and kept before opening": (
        _pickup_kept,
        tables(("scala40",), **SHORT),
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

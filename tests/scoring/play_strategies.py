"""Hypothesis strategies and replay helpers for the play-by-play property tests
(test_play_properties.py, test_play_mutations.py): simulated tables, seeds, folds.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from scoring.errors import RuleViolation
from scoring.replay import TableState, apply
from scoring.variants import GAMES as REGISTERED
from tests.hypothesis_profiles import examples
from tests.scoring.play_sim_base import Config

# Every registered game is simulated: one without its options drawn below (OPTIONS_DRAWN) or
# its simulator (play_simulator.MOVES) fails tests/scoring/test_game_test_data.py, and its
# property and mutation tests with it.
GAMES = tuple(REGISTERED)
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
# Scala 40 at its limit of 101, with and without re-entries and its two table options.
SCALA40_OPTIONS = (
    {},
    {"reentries": 1},
    {"reentries": 2, "failed_opening_penalty": 0},
    {"free_discard": True},
    {"max_jokers_per_meld": 2, "reentries": 1},
    {"unopened_discard_check": True, "reentries": 1},
)

# Burraco to a low target, so a match ends within a few hands, with each rule switch.
BURRACO_OPTIONS = (
    {"target": 300},
    {"target": 300, "semipulito": True},
    {"target": 300, "international": True},
    {"hands": 2},
)


def _ramino_options(draw, players: int, knock_claim: bool) -> dict:
    options = dict(draw(st.sampled_from(RAMINO_HOUSE_RULES)))
    if knock_claim:
        options = {**options, "knock_claim": True}
    if players < 3:
        options.pop("knock_claim", None)  # RAM-OPT-KNOCKCLAIM needs 3 players
    options["hands"] = draw(st.integers(1, 3))
    return options


# How each game's table options are drawn: (draw, players, knock_claim) -> options.
OPTIONS_DRAWN = {
    "gin": lambda draw, players, knock_claim: dict(draw(st.sampled_from(GIN_OPTIONS))),
    "rummy40": lambda draw, players, knock_claim: {
        "opening_minimum": draw(st.sampled_from((0, 40, 50))),
        "target": draw(st.sampled_from((1, 100))),
    },
    "ramino": _ramino_options,
    "knock_rummy": lambda draw, players, knock_claim: {"target": draw(st.sampled_from(KR_TARGETS))},
    "scala40": lambda draw, players, knock_claim: dict(draw(st.sampled_from(SCALA40_OPTIONS))),
    "burraco": lambda draw, players, knock_claim: dict(draw(st.sampled_from(BURRACO_OPTIONS))),
    "canasta": lambda draw, players, knock_claim: {
        "target": draw(st.sampled_from((300, 5000))),
        "concealed_bonus": draw(st.booleans()),
        "canastas_to_go_out": draw(st.sampled_from((1, 2))),
    },
}
PROPERTY_SETTINGS = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
MUTATION_SETTINGS = settings(
    max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def tables(draw, games=GAMES, *, players=None, max_events=None, hands=3, knock_claim=False):
    """Draw a table to simulate: game, seats, a few house-rule combinations, hands."""
    game = draw(st.sampled_from(games))
    seatings = REGISTERED[game].seatings
    players = draw(st.sampled_from([n for n in seatings if players is None or n in players]))
    options = OPTIONS_DRAWN[game](draw, players, knock_claim)
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

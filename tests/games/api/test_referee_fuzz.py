"""No request makes the referee answer 500: random cards, options and shapes, every endpoint."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.variants import GAMES as REGISTERED
from tests.hypothesis_profiles import examples

# Requests per question (a tenth under the fast profile: tests/hypothesis_profiles.py).
EXAMPLES = examples(120)

VALID = st.builds(
    "{}{}".format,
    st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]),
    st.sampled_from("CSHD"),
)
ODD = st.sampled_from(
    ["JK", "JK=4C", "*=QS", "TD", "ZZ", "1S", "JK=", "=4C", "🃏", "♠", "K♥", "JK=JK", "10"]
)
CARDS = st.lists(st.one_of(VALID, ODD), min_size=3, max_size=14, unique=True).map(" ".join)
REAL_CARDS = st.lists(VALID, min_size=3, max_size=14, unique=True).map(" ".join)
OPTIONS = st.dictionaries(
    st.sampled_from(
        [
            "preset",
            "target",
            "opening_minimum",
            "circular_runs",
            "fixed_jokers",
            "fixed_groups",
            "no_jokers",
            "short_deck",
            "casino_scoring",
            "no_discard_win",
            "max_jokers_per_meld",
            "scala40",
            "no_opening",
            "hands",
            "bogus",
        ]
    ),
    st.one_of(st.booleans(), st.integers(-5, 600), st.sampled_from(["classic", "big_gin", "x"])),
    max_size=4,
)
GAMES = st.sampled_from(["gin", "rummy40", "ramino", "knock_rummy"])
OPENING_GAMES = [key for key, game in REGISTERED.items() if game.referee.opening_rule]
# Mostly well-formed games, so the engine is reached; now and then anything at all.
BASE = st.one_of(
    st.fixed_dictionaries({"variant": GAMES}),
    st.fixed_dictionaries({"variant": GAMES}),
    st.fixed_dictionaries({"variant": GAMES}),
    st.fixed_dictionaries(
        {"variant": st.one_of(GAMES, st.just("chess"))},
        optional={"options": OPTIONS, "players": st.integers(0, 7)},
    ),
)


def _questions(cards):
    """Return, per question, the requests it takes, with cards drawn from ``cards``."""
    player = st.fixed_dictionaries(
        {"name": st.sampled_from(["A", "B", "C", "D"]), "hand": cards},
        optional={
            "melded": cards,
            "knocked": st.booleans(),
            "went_out": st.booleans(),
            "hand_closed": st.booleans(),
            "opening_penalty": st.integers(0, 3),
        },
    )
    return {
        "meld": st.fixed_dictionaries({"cards": cards}),
        "hand": st.fixed_dictionaries({"cards": cards}, optional={"opened": st.booleans()}),
        "opening": st.fixed_dictionaries({"melds": st.lists(cards, min_size=1, max_size=4)}),
        "layoff": st.fixed_dictionaries(
            {"melds": st.lists(cards, min_size=1, max_size=3), "cards": cards}
        ),
        "rearrangement": st.fixed_dictionaries(
            {
                "before": st.lists(cards, max_size=3),
                "after": st.lists(cards, max_size=3),
                "hand": cards,
            }
        ),
        "score": st.fixed_dictionaries(
            {"players": st.lists(player, min_size=2, max_size=5)},
            optional={"stock_exhausted": st.booleans()},
        ),
    }


QUESTIONS = _questions(CARDS)
REAL_QUESTIONS = {
    **_questions(REAL_CARDS),
    # Ramino's end of hand, with the flags Ramino has (others are refused as input).
    "score": st.fixed_dictionaries(
        {
            "players": st.lists(
                st.fixed_dictionaries(
                    {"name": st.sampled_from("ABCDEF"), "hand": REAL_CARDS},
                    optional={"went_out": st.booleans(), "hand_closed": st.booleans()},
                ),
                min_size=2,
                max_size=4,
            )
        },
        optional={"stock_exhausted": st.booleans()},
    ),
    # Random tables are rarely legal; a first meld onto an empty table reaches the verdicts.
    "rearrangement": st.fixed_dictionaries(
        {"before": st.just([]), "after": st.lists(REAL_CARDS, max_size=3), "hand": REAL_CARDS}
    ),
}


def _ask_many(monkeypatch, question, base, extra) -> dict[int, int]:
    """Ask ``question`` with every generated request; return how often each status came."""
    from rest_framework.throttling import ScopedRateThrottle

    # Hundreds of questions a minute from one client: lift the limit for this test only.
    rates = {**ScopedRateThrottle.THROTTLE_RATES, "referee": "100000/min"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    client = APIClient()
    seen: dict[int, int] = {}

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(base=base, extra=extra)
    def check(base, extra):
        response = client.post(f"/api/v1/referee/{question}/", {**base, **extra}, format="json")
        assert response.status_code in (200, 400), response.content
        if response.status_code == 400:
            assert response.json()["detail"]
        seen[response.status_code] = seen.get(response.status_code, 0) + 1

    check()
    return seen


@pytest.mark.parametrize("question", sorted(QUESTIONS))
@pytest.mark.django_db
def test_any_request_is_answered_with_200_or_a_clear_400(question, monkeypatch):
    _ask_many(monkeypatch, question, BASE, QUESTIONS[question])


@pytest.mark.parametrize("question", sorted(QUESTIONS))
@pytest.mark.django_db
def test_real_cards_reach_the_engine_and_get_a_verdict(question, monkeypatch):
    # Moves are a Knock Rummy question, and random cards want two decks (3+ players).
    bases = {
        "rearrangement": st.just({"variant": "knock_rummy", "players": 3}),
        "layoff": st.just({"variant": "ramino"}),
        "score": st.just({"variant": "ramino"}),
        # Only a game with an opening answers whether melds reach it (the others say so in a
        # 400): ask those, so that real cards reach the engine often enough to count.
        "opening": st.fixed_dictionaries({"variant": st.sampled_from(OPENING_GAMES)}),
    }
    base = bases.get(question, st.fixed_dictionaries({"variant": GAMES}))
    seen = _ask_many(monkeypatch, question, base, REAL_QUESTIONS[question])
    # Real cards must get past the parser into the engine, not only be refused as input:
    # one in twelve at least (10 of the full run's 120).
    assert seen.get(200, 0) >= EXAMPLES // 12, seen

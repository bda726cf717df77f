"""Burraco's referee questions and its pairs' sheet fuzzed: no input answers 500, and every
refusal names what was wrong (a request field, or the sheet's field it found at fault)."""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.errors import RuleViolation
from scoring.variants.burraco import GAME
from scoring.variants.burraco.sheet import CARDS_FIELDS, SHEET_FIELDS
from tests.hypothesis_profiles import examples

pytestmark = pytest.mark.django_db
EXAMPLES = 60

CARD = st.one_of(
    st.builds(
        "{}{}".format,
        st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]),
        st.sampled_from("CSHD"),
    ),
    st.sampled_from(["JK", "JK=4C", "ZZ", "1S", "🃏", "10", ""]),
)
CARDS = st.lists(CARD, max_size=12).map(" ".join)
# Anything JSON holds, shallow: what a client might send in a sheet's box.
VALUE = st.one_of(
    st.integers(-50, 2_000),
    st.sampled_from([0, 5, 35, 100, 1_080, 1_085, 10**12]),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.lists(st.integers(0, 5), max_size=3),
    CARDS,
)
SHEET = st.dictionaries(st.sampled_from([*SHEET_FIELDS, "bogus"]), VALUE, max_size=8)
CARDS_SHEET = st.dictionaries(
    st.sampled_from([*CARDS_FIELDS, "bogus"]),
    st.one_of(VALUE, st.lists(CARDS, max_size=4)),
    max_size=5,
)
ENTRY = st.fixed_dictionaries(
    {},
    optional={
        "mode": st.sampled_from(["sheet", "sheet", "cards", "x", 3]),
        "pairs": st.one_of(
            st.lists(st.one_of(SHEET, CARDS_SHEET, VALUE), min_size=2, max_size=2),
            st.lists(SHEET, max_size=3),
            VALUE,
        ),
        "bogus": VALUE,
    },
)
OPTIONS = st.dictionaries(
    st.sampled_from(["semipulito", "international", "target", "hands", "bogus"]),
    st.one_of(st.booleans(), st.integers(-5, 3_000), st.text(max_size=3)),
    max_size=3,
)
SETTINGS = settings(
    max_examples=examples(EXAMPLES), deadline=None, suppress_health_check=list(HealthCheck)
)


@pytest.fixture
def unthrottled(monkeypatch):
    from rest_framework.throttling import SimpleRateThrottle

    # Hundreds of questions a minute from one client: lift the limit for these tests only.
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "referee": "100000/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


def _names_a_field(violation: dict) -> bool:
    return bool((violation.get("params") or {}).get("field"))


@SETTINGS
@given(entry=ENTRY)
def test_every_refusal_of_a_sheet_names_its_field(entry):
    """The sheet's reader (BUR-SCORE): whatever it is given, it reads a sheet or refuses,
    each refusal naming the entry's field at fault."""
    table = GAME.options_from_dict({}, 4)
    refused: tuple = ()
    try:
        sheet = GAME.read_entry(table, entry, ("N", "E", "S", "W"))
    except RuleViolation as exc:
        refused = exc.violations
    else:
        GAME.score_entry(table, sheet, ("N", "E", "S", "W"))
    assert all(v.params.get("field") for v in refused), refused


def test_the_api_asks_burracos_score_from_any_sheet(unthrottled):
    client = APIClient()
    players = [{"name": name} for name in "NESW"]

    @SETTINGS
    @given(entry=ENTRY, options=OPTIONS)
    def ask(entry, options):
        body = {"variant": "burraco", "players": players, "options": options, **entry}
        # Written as a careless client would: NaN and Infinity as json.dumps spells them,
        # which are no JSON (DRF's own encoder would refuse to send them at all).
        response = client.post(
            "/api/v1/referee/score/", json.dumps(body), content_type="application/json"
        )
        assert response.status_code in (200, 400), response.content
        answer = response.json()
        if response.status_code == 400:
            assert answer["detail"] and (answer.get("fields") or answer.get("violations"))
        elif not answer["valid"]:
            assert all(map(_names_a_field, answer["violations"])), answer["violations"]

    ask()


def test_the_api_asks_about_any_burraco_meld(unthrottled):
    client = APIClient()

    @SETTINGS
    @given(cards=CARDS, options=OPTIONS)
    def ask(cards, options):
        body = {"variant": "burraco", "cards": cards, "options": options}
        response = client.post("/api/v1/referee/meld/", body, format="json")
        assert response.status_code in (200, 400), response.content
        answer = response.json()
        if response.status_code == 400:
            assert answer["detail"]
        else:
            assert answer["valid"] or all(v["rule"] for v in answer["violations"])

    ask()


BOX = st.one_of(
    st.integers(-10, 2_000).map(str),
    st.sampled_from(["", "0", "1085", "99999999999999999999", "-0", "1e3", "x", " 5 ", "٣"]),
)
PAGE_FIELDS = [
    f"s{side}_{key}" for side in (0, 1) for key in ("melded", "pulito", "sporco", "semipulito")
] + ["s0_in_hand", "s1_in_hand"]


def test_the_page_asks_burracos_score_from_any_boxes(unthrottled):
    from django.test import Client

    client = Client()

    @SETTINGS
    @given(
        boxes=st.fixed_dictionaries({}, optional={name: BOX for name in PAGE_FIELDS}),
        flags=st.fixed_dictionaries(
            {},
            optional={
                "s0_pozzetto": st.just("on"),
                "s1_pozzetto": st.just("on"),
                "closed": st.sampled_from(["", "0", "1", "2", "x"]),
            },
        ),
        options=st.fixed_dictionaries(
            {},
            optional={
                "burraco__semipulito": st.just("on"),
                "burraco__international": st.just("on"),
                "burraco__target": st.sampled_from(["2005", "0", "x", "99999999"]),
            },
        ),
    )
    def ask(boxes, flags, options):
        data = {"variant": "burraco", "question": "score", "players": "2"}
        response = client.post("/referee/", {**data, **boxes, **flags, **options})
        assert response.status_code in (200, 400), response.content.decode()[-2000:]
        page = response.content.decode()
        if response.status_code == 400:
            # Each refusal is said with the label of the field it is about.
            lines = re.findall(r'<div class="alert" role="alert">(.*?)</div>', page, re.S)
            assert lines and all(": " in line for line in lines), lines
        elif "cannot be scored" in page:
            assert 'class="violation"' in page

    ask()

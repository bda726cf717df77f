"""A game brings its own words (GameRules.words, scoring/words.py): the pages find its labels,
titles and refusal sentences in its package and translate them, before their own catalogues.

Burraco is the game that does: these tests register it while they run, as its pairs' sheet
page is not there yet (its words do not need it).
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.rules.game_words import board_summary, count_label, option_label
from games.rules.text import ITEM_TITLES_BY_CODE, MESSAGES, item_text, rule_title, violation_text
from scoring.cards import parse_cards
from scoring.errors import RuleViolation
from scoring.variants import GAMES, burraco, register, unregister
from scoring.variants.burraco.melds import check_meld
from scoring.variants.burraco.options import BurracoOptions
from scoring.variants.burraco.sheet import read_entry

WORDS = burraco.GAME.words
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@pytest.fixture
def registered():
    """Burraco in the registry for the test (left as found, once it is registered for good)."""
    added = burraco.GAME.key not in GAMES
    if added:
        register(burraco.GAME)
    yield burraco.GAME
    if added:
        unregister(burraco.GAME.key)


def _refusals() -> list:
    """Return real refusals of Burraco's engine: melds, a pair's sheet, options."""
    options = BurracoOptions()
    sheet = {"melded": 0, "pozzetto": True, "in_hand": 0}
    attempts = [
        lambda: check_meld(parse_cards("5H 6H JK 8H 2C")),
        lambda: check_meld(parse_cards("KH AH 2H 3H")),
        lambda: check_meld(parse_cards("QC QD QS"), international=True),
        lambda: read_entry(options, {"pairs": [{**sheet, "melded": 12}, sheet]}),
        lambda: read_entry(options, {"pairs": [{**sheet, "pulito": 1}, sheet]}),
        lambda: read_entry(options, {"pairs": [{**sheet, "closed": True}, sheet]}),
        lambda: BurracoOptions(target=0),
        lambda: BurracoOptions(semipulito=True, international=True),
    ]
    found = []
    for attempt in attempts:
        with pytest.raises(RuleViolation) as refused:
            attempt()
        found += refused.value.violations
    return found


def test_its_refusals_read_in_both_languages_with_their_own_figures(registered):
    refusals = _refusals()
    assert {v.rule for v in refusals} >= {"BUR-WILD", "BUR-MELDS", "BUR-OPT-INTL", "BUR-MATCH"}
    for violation in refusals:
        template = WORDS.refusals[(violation.rule, violation.code)]
        # Every figure the sentence names is one the refusal gives.
        assert set(PLACEHOLDER.findall(template)) <= set(violation.params), violation
        english = violation_text(violation)
        with translation.override("it"):
            italian = violation_text(violation)
        assert english != italian and "%(" not in english + italian, violation
    two_wilds = violation_text(refusals[0])
    assert two_wilds.endswith("these are wild: 🃏 2♣.")
    # A pair's sheet names the pair and the figure refused, in the game's own words.
    too_little = next(v for v in refusals if v.code == "burraco_points")
    assert violation_text(too_little).startswith("pair 1, cards melded: Melded cards worth 0")
    with translation.override("it"):
        assert violation_text(too_little).startswith("coppia 1, carte calate: ")


def test_its_sentences_join_the_catalogue_only_while_it_is_registered(registered):
    assert ("BUR-CLOSE", "closed_without_burraco") in MESSAGES
    unregister(registered.key)
    try:
        assert ("BUR-CLOSE", "closed_without_burraco") not in MESSAGES
        assert ("GIN-KNOCK", "over_limit") in MESSAGES  # the catalogue's own stay
    finally:
        register(registered)


def test_its_options_counts_and_titles_are_its_own(registered):
    target, hands, semipulito, _international = registered.options
    with translation.override("it"):
        assert option_label(semipulito) == "Il burraco semipulito vale 150"
        assert option_label(hands).startswith("Smazzate da giocare")
        assert option_label(target) == "Punti per vincere"
        assert count_label(registered, "pozzetti_missed") == "Pozzetti non presi"
        assert rule_title("BUR-CLOSE").startswith("Burraco: si chiude")
        assert rule_title("BUR-MATCH", {"target": 1505}) == (
            "Partita a Burraco: a 1505, o un numero fisso di smazzate"
        )
    assert rule_title("BUR-CLOSE").endswith("the pozzetto taken and a burraco, for 100")
    # A number of hands of 0 plays to the target: the board's summary says only the target.
    assert board_summary(registered, {"target": 2005, "hands": 0}) == ["Playing to 2005"]


def test_every_rule_it_cites_has_a_title_and_every_score_item_one(registered):
    cited = {rule for rule, _code in WORDS.refusals if rule.startswith("BUR-")}
    assert cited <= set(WORDS.rule_titles)
    assert ("BUR-SCORE", "in_hand") in ITEM_TITLES_BY_CODE
    item = {"rule": "BUR-POZZETTO", "code": "pozzetto_missed", "points": -100, "seat": None}
    with translation.override("it"):
        assert item_text(item, []).endswith("-100: pozzetto mai preso")

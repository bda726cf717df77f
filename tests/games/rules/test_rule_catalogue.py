"""Every refusal the engine can give reads well in both languages and links to its rule."""

import re

import pytest
from django.test import Client
from django.utils import translation

from games.rules.reference import reference, rule_url
from games.rules.text import MESSAGES, MOVE_MESSAGES
from tests.games.rules.test_translations import _engine_verdicts

# Words of the code, not of the table: a player should never read them.
INTERNAL = re.compile(
    r"\b(EVENT|OPTIONS|LIMITS|REFEREE|None|True|False)\b|\b[a-z]+_[a-z_]+\b|[{}]|\bseat \d"
)


def _sentences(template) -> dict[str, str]:
    sentences = {}
    for language in ("en", "it"):
        with translation.override(language):
            # Placeholders are filled in when shown; what is around them is the sentence.
            sentences[language] = re.sub(r"%\([a-z_]+\)[sd]", "", str(template))
    return sentences


PAIRS = sorted(set(MESSAGES) | _engine_verdicts())


def test_the_catalogue_covers_the_referee_and_the_limits():
    rules = {rule for rule, _code in PAIRS}
    assert {"REFEREE", "LIMITS", "EVENT", "OPTIONS", "GIN-KNOCK", "RAM-OPT-NOJOKER"} <= rules


@pytest.mark.parametrize(("rule", "code"), PAIRS)
def test_every_refusal_has_two_sentences_an_anchor_and_no_internal_words(rule, code):
    assert (rule, code) in MESSAGES, "no sentence: add it to games/rules/verdicts.py"
    sentences = _sentences(MESSAGES[(rule, code)])
    assert sentences["it"] != sentences["en"], "not translated into Italian"
    for language, sentence in sentences.items():
        assert not INTERNAL.search(sentence), f"{language}: {sentence!r}"
        assert rule in reference(language).rules, f"no entry for {rule} in the {language} rules"


@pytest.mark.parametrize("code", sorted(MOVE_MESSAGES))
def test_every_move_refusal_reads_well_in_both_languages(code):
    sentences = _sentences(MOVE_MESSAGES[code])
    assert sentences["it"] != sentences["en"]
    for sentence in sentences.values():
        assert not INTERNAL.search(sentence), sentence


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "it"])
def test_every_rule_has_its_anchor_on_its_page(language):
    client = Client(headers={"accept-language": language})
    pages = {}
    for rule in sorted(reference(language).rules):
        page, anchor = rule_url(rule).split("#")
        if page not in pages:
            response = client.get(page)
            assert response.status_code == 200
            pages[page] = response.content.decode()
        assert f'id="{anchor}"' in pages[page], (page, anchor)


def test_a_tables_rules_are_titled_with_its_own_numbers():
    # A Rummy40 table opening at 51 (R40-OPEN), a Ramino one at 40 (RAM-OPT-SCALA40), a Knock
    # Rummy game to 200 (KR-MATCH): each title names the table's number, in both languages.
    from games.rules.text import table_rules

    def titles(variant, options):
        return {rule: title for title, _value, rule in table_rules(variant, options)}

    assert titles("rummy40", {"opening_minimum": 51, "target": 100})["R40-OPEN"] == (
        "Rummy40: first melds worth at least 51"
    )
    assert "40 or more" in titles("ramino", {"hands": 5, "opening_minimum": 40})["RAM-OPEN"]
    assert titles("knock_rummy", {"target": 200})["KR-MATCH"].startswith("Knock Rummy match: 200")
    with translation.override("it"):
        assert titles("ramino", {"hands": 5, "opening_minimum": 40})["RAM-OPEN"] == (
            "Ramino: apri con 3+ carte per almeno 40 punti"
        )


def test_verdicts_show_cards_with_their_suit_symbols():
    from games.rules.text import violation_text
    from scoring.errors import Violation

    gap = Violation(
        rule="MELD-RUN",
        code="gap",
        message="",
        params={"cards": ["7S", "9S", "JK=10S"], "missing": ["8S"]},
    )
    assert violation_text(gap) == "7♠ 9♠ 🃏10♠ is not a run: 8♠ missing."
    copies = Violation(
        rule="CARD-2", code="too_many_copies", message="", params={"card": "QH", "count": 2}
    )
    with translation.override("it"):
        assert "Q♥" in violation_text(copies) and "QH" not in violation_text(copies)
    # What is not a card stays as the player typed it, to be found and fixed.
    typo = Violation(
        rule="CARD-3", code="unknown_token", message="", params={"token": "7X", "position": 2}
    )
    assert "“7X”" in violation_text(typo)

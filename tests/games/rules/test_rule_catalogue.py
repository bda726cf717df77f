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

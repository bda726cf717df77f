"""The card fields of the hand and move forms share the pack's choices between the forms
built from them (games/pages/forms/cards.py), and a form that replaces its own field's
choices changes no other form's."""

import copy

from games.pages.entries.knocker_defender import KnockerDefenderForm
from games.pages.forms.cards import CardChoiceField, CardsChoiceField
from games.pages.forms.tables import CARD_CHOICES

GIN = {"seats": ["Anna", "Bruno"], "options": {"preset": "big_gin", "target": 100}}


def _hand_form() -> KnockerDefenderForm:
    return KnockerDefenderForm(variant="gin", **GIN)


def test_two_hand_forms_share_the_packs_cards():
    first, second = _hand_form(), _hand_form()
    for name in ("knocker_cards", "defender_cards", "upcard"):
        assert first.fields[name].choices is second.fields[name].choices, name
    assert first.fields["knocker_cards"].choices == CARD_CHOICES
    # The upcard's list is the pack after a blank: 1 + 52.
    assert len(first.fields["upcard"].choices) == 53


def test_a_form_that_replaces_its_choices_leaves_the_others_theirs():
    first, second = _hand_form(), _hand_form()
    first.fields["upcard"].choices = [("", "—"), ("7H", "7♥")]
    assert len(second.fields["upcard"].choices) == 53
    assert len(_hand_form().fields["upcard"].choices) == 53
    # The widget each form draws follows its own field.
    assert len(first.fields["upcard"].widget.choices) == 2
    assert len(second.fields["upcard"].widget.choices) == 53


def test_a_copied_card_field_keeps_its_own_widget_and_messages():
    for field in (CardChoiceField(choices=CARD_CHOICES), CardsChoiceField(choices=CARD_CHOICES)):
        copied = copy.deepcopy(field)
        assert copied.choices is field.choices
        assert copied.widget is not field.widget
        copied.error_messages["required"] = "changed"
        assert field.error_messages["required"] != "changed"


def test_a_hand_entered_by_cards_is_still_read():
    form = KnockerDefenderForm(
        data={
            "event_id": "0b4f1c5e-6f0a-4c53-9c55-3a8d3f0c9e11",
            "expected_seq": "1",
            "mode": "cards",
            "knocker": "0",
            "ending": "knock",
            "knocker_cards": ["AC", "2C", "3C", "4S", "4H", "4D", "9S", "9H", "9D", "KC"],
            "defender_cards": ["5C", "6C", "7C", "8S", "8H", "8D", "QS", "QH", "QD", "2D"],
        },
        variant="gin",
        **GIN,
    )
    form.is_valid()
    assert "knocker_cards" not in form.errors and "defender_cards" not in form.errors, form.errors
    assert form.cleaned_data["knocker_cards"][0] == "AC"

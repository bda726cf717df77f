"""The field that takes typed cards on every page form, in the reader's language."""

from django import forms
from django.utils import translation

from games.rules.card_text import typed_cards


class CardsField(forms.CharField):
    """Cards typed as the reader writes them (in Italian 7C is the 7 of cuori, CARD-3),
    cleaned to the engine's notation; what is no card is left for the engine to refuse."""

    def to_python(self, value):
        return typed_cards(super().to_python(value), translation.get_language() or "en")


class _SharedChoices:
    """A field whose choices are a constant of the code (the pack's cards): every form built
    shares them. Django deep-copies each field's choices for every form it builds; a Gin
    hand's form holds 157 cards in three fields, and copying them was a third of the CPU a
    scorekeeper's poll took. Such choices are only ever replaced, never changed in place."""

    def __deepcopy__(self, memo):
        # Field's own copy (the widget, the messages, the validators), not ChoiceField's,
        # which adds a deep copy of every choice.
        return forms.Field.__deepcopy__(self, memo)


class CardChoiceField(_SharedChoices, forms.ChoiceField):
    """One card, picked from the pack's list."""


class CardsChoiceField(_SharedChoices, forms.MultipleChoiceField):
    """Cards ticked in the pack's list."""

"""The field that takes typed cards on every page form, in the reader's language."""

from django import forms
from django.utils import translation

from games.rules.card_text import typed_cards


class CardsField(forms.CharField):
    """Cards typed as the reader writes them (in Italian 7C is the 7 of cuori, CARD-3),
    cleaned to the engine's notation; what is no card is left for the engine to refuse."""

    def to_python(self, value):
        return typed_cards(super().to_python(value), translation.get_language() or "en")

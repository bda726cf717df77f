"""The provisional scoring a table's page carries for the hands its outbox keeps offline."""

import json

from django import template

from games.pages.provisional import provisional_scoring as scoring_model

register = template.Library()


@register.simple_tag
def provisional_scoring(board) -> str:
    """Return, as JSON, what provisional.js needs to score this table's quick entries
    (``null`` where it cannot: the pending hands are then shown without a number)."""
    model = scoring_model(board.variant, board.options, len(board.seats), typed=board.typed_options)
    return json.dumps(model)

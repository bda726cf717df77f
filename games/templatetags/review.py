"""Template helpers of a hand's review (templates/tables/review.html): each step's move said in
one line with its cards shown as cards, the name of each decision and missed chance, signed
points, and the chart of each player's count turn by turn.

The review's figures and rule IDs are the engine's (scoring/review/); these only name them.
"""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

from games.rules.own_words import game_of_rule, own_word
from games.standings import charts
from games.templatetags.rummy import cards
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    DISCARD_CLAIMED,
    HAND_STARTED,
    HANDS_SHOWN,
    JOKER_SWAPPED,
    KNOCKED,
    MELDS_LAID,
    TABLE_REARRANGED,
    TURN_PASSED,
)
from scoring.review import (
    ALL_MELDED,
    ALL_MELDED_NO_DISCARD,
    DISCARD,
    DRAW,
    FED,
    KNOCK,
    LAYOFF,
    MELDING,
    OPEN,
    OUT,
    SWAP,
)

register = template.Library()

# A decision weighed (Cost.kind) or a chance missed (Chance.kind), as the review names it.
DECISIONS = {
    DISCARD: gettext_lazy("The discard"),
    DRAW: gettext_lazy("The draw"),
    MELDING: gettext_lazy("The melding"),
    KNOCK: gettext_lazy("Could knock"),
    ALL_MELDED: gettext_lazy("Could go out with every card melded"),
    ALL_MELDED_NO_DISCARD: gettext_lazy("Could go out with every card melded, no discard"),
    OUT: gettext_lazy("Could go out"),
    OPEN: gettext_lazy("Could open"),
    LAYOFF: gettext_lazy("Could lay off"),
    SWAP: gettext_lazy("Could take a joker back"),
    FED: gettext_lazy("Fed the next player"),
}


@register.filter
def decision(kind: str, rule: str = "") -> str:
    """Name a decision or a missed chance by its kind (a review's Cost or Chance): in the
    game's own words where it has them for the rule cited (GameWords.chances)."""
    own = own_word(game_of_rule(rule), "chances", rule) if rule else None
    return own or str(DECISIONS.get(kind, kind))


@register.filter
def signed(points) -> str:
    """Write points with their sign: +19, −21, 0."""
    if points is None:
        return "–"
    if points > 0:
        return f"+{points}"
    return f"−{-points}" if points < 0 else "0"


def _who(seat, seats) -> str:
    return seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else ""


@register.filter
def seat_name(seats, seat) -> str:
    """Name the player at ``seat`` (a number, from 0)."""
    return _who(seat, seats)


# The moves said as the move list of the hand in play says them (templatetags/play.py).
_SAID = {
    CARD_DISCARDED: gettext_noop("%(who)s discarded"),
    TURN_PASSED: gettext_noop("%(who)s passed"),
    MELDS_LAID: gettext_noop("%(who)s laid"),
    TABLE_REARRANGED: gettext_noop("%(who)s rearranged the table"),
    DISCARD_CLAIMED: gettext_noop("%(who)s knocked for the discard"),
    KNOCKED: gettext_noop("%(who)s knocked"),
}


@register.simple_tag
def step_line(step, seats, dealer=None) -> str:
    """Say what the move of a review's step did (``Step.to_dict``), its cards in hindsight."""
    who = {"who": _who(step["seat"], seats)}
    move, moved = step["move"], cards(step["cards"])
    if move == HAND_STARTED:
        return (
            _("%(who)s dealt") % {"who": _who(dealer, seats)} if dealer is not None else _("Dealt")
        )
    if move == HANDS_SHOWN:
        return _("Hands shown")
    if move == CARD_DRAWN:
        if step["source"] == "discard":
            return format_html("{} {}", _("%(who)s took the discard") % who, moved)
        if step["cards"]:
            return format_html("{} {}", _("%(who)s drew") % who, moved)
        return _("%(who)s drew from the stock") % who
    if move == CARDS_ADDED:
        return format_html("{} {}", _("%(who)s added to a meld") % who, moved)
    if move == JOKER_SWAPPED:
        return format_html("{} {}", _("%(who)s took a joker back with") % who, moved)
    if move in _SAID:
        return format_html("{} {}", _(_SAID[move]) % who, moved)
    return move


@register.filter
def loose_cards(chance) -> list[str]:
    """Return a chance's cards that none of its melds shows (a knock's discard beside the
    melds kept), so that no card is shown twice (``Chance.to_dict``)."""
    melded = {card.partition("=")[0] for meld in chance["melds"] for card in meld}
    return [card for card in chance["cards"] if card.partition("=")[0] not in melded]


@register.simple_tag
def unknown_cards(count: int) -> str:
    """Mark the cards of a hand no one can know: a face-down card each, and how many."""
    if not count:
        return ""
    backs = mark_safe('<span class="c back" aria-hidden="true">?</span>' * count)  # a constant
    said = ngettext("%(count)s card no one can know", "%(count)s cards no one can know", count) % {
        "count": count
    }
    return format_html('{}<span class="unknown-note">{}</span>', backs, said)


@register.simple_tag
def seat_points(points, seats) -> str:
    """Say each seat's points, e.g. Anna 0 · Bruno 19 (a hand's score, or one in hindsight)."""
    return format_html_join(" · ", "{} {}", zip(seats, points, strict=False))


@register.inclusion_tag("tables/_review_chart.html")
def review_chart(players, count_rule: str) -> dict:
    """Draw each player's count after each of their turns (``PlayerSummary.to_dict``'s chart)
    as the score chart is drawn, one line a player."""
    names = [player["name"] for player in players]
    series = [[point["left"] for point in player["chart"]] for player in players]
    chart = charts.review_chart(names, series)
    rows = []
    if chart is not None:
        rows = [(step.hand, step.totals) for step in chart.steps]
    return {"chart": chart, "rows": rows, "count_rule": count_rule, "names": names}

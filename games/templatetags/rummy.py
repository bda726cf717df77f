"""Template helpers that show cards, hands and score items in the page's language."""

from django import template
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.pages.game_styles import stylesheet_url
from games.rules import reference as rules_reference
from games.rules.card_text import SUIT_SYMBOLS, card_label, card_typed
from games.rules.game_words import game_name, names_list
from games.rules.own_words import own_hand_line
from games.rules.text import item_text
from games.standings import charts
from games.tables.selectors import UNNAMED_PHONE
from scoring.variants import GAMES

register = template.Library()


@register.simple_tag
def game_styles_url() -> str:
    """The address of games.css, which shows each game's fields when it is chosen."""
    return stylesheet_url()


@register.simple_tag
def game_names() -> str:
    """Name every game the engine knows, in the page's language ("Gin Rummy, … and Scala 40")."""
    return names_list([game_name(game) for game in GAMES.values()])


@register.simple_tag
def rule_link(rule, game=None):
    """Link a rule ID to its entry in the rules reference, e.g. {% rule_link "GIN-KNOCK" %}."""
    return rules_reference.rule_link(rule, game) if rule else ""


@register.simple_tag
def typed_card(rank: str, suit: str) -> str:
    """Return a card as the reader types it in the active language (CARD-3)."""
    return card_typed(rank, suit, translation.get_language() or "en")


@register.simple_tag
def cards(card_list) -> str:
    """Render cards written in notation ('10H') as small face-up cards ('10♥')."""
    return format_html_join(
        "",
        '<span class="c {}">{}</span>',
        ((_suit_class(c), card_label(c)) for c in card_list or []),
    )


def _suit_class(card: str) -> str:
    if card.startswith("JK"):
        return "jk"
    return "s" + card[-1] if card[-1] in SUIT_SYMBOLS else "jk"


@register.simple_tag
def hand_summary(result, seats, variant) -> str:
    """Say in one line how a hand ended, and under which upcard it was played where the
    hand names one (GIN-OKLAHOMA)."""
    summary = _hand_summary(result, seats, GAMES.get(variant))
    if result is not None and result.get("upcard"):
        card = card_label(result["upcard"])
        return _("%(summary)s · upcard %(card)s") % {"summary": summary, "card": card}
    return summary


def _hand_summary(result, seats, game) -> str:
    if result is None:
        return pgettext("history of a voided hand", "Void")
    return own_hand_line(game, result, seats) or _round_summary(result, seats)


def _round_summary(result, seats) -> str:
    """Say how a hand of a game with several players ended (Rummy40, Ramino, Knock Rummy)."""
    # Partners are named once, by their side (a board's seat_labels).
    winners = ", ".join(dict.fromkeys(seats[seat] for seat in result.get("winners", [])))
    if result["ending"] == "stock":
        return _("The stock ran out")
    if result["ending"] == "knock" and result.get("knocker") is not None:
        return _("%(who)s knocked; %(winners)s won") % {
            "who": seats[result["knocker"]],
            "winners": winners,
        }
    return _("%(winners)s went out") % {"winners": winners}


@register.simple_tag
def hand_points(result, seats) -> str:
    """Say who scored what in a hand."""
    if result is None:
        return _("no points")
    # Several players can score (or lose) in one hand: name every non-zero one.
    # Partners carry their side's points: their side is named once (seat_labels).
    scored = dict.fromkeys(
        (seats[seat], f"{points:+d}") for seat, points in enumerate(result["points"]) if points
    )
    return format_html_join(" · ", "{} {}", scored) or _("no points")


@register.simple_tag
def score_item(item, seats) -> str:
    """Say one bonus or score component with its rule ID."""
    return format_html("{} {}", item_text(item, seats), rules_reference.rule_link(item["rule"]))


@register.inclusion_tag("tables/_chart.html")
def score_chart(state) -> dict:
    """Draw every seat's running total after each counted hand as an inline SVG chart."""
    return {"chart": charts.score_chart(state)}


# Who recorded an entry when the phone had no name: kept empty in the log since this release,
# and as the recording phone's word for it ("scorekeeper", "segnapunti", "creator") before.
_UNNAMED_RECORDERS = frozenset({"", "scorekeeper", "segnapunti", "creator", "creatore"})


@register.filter
def recorder(entered_by) -> str:
    """Say who recorded an entry: the phone's or member's name, else "phone 2" or, in older
    logs, "scorekeeper", in the reader's language (whatever language the recording phone
    spoke)."""
    name = str(entered_by or "").strip()
    number = name.removeprefix(UNNAMED_PHONE)
    if number != name and number.isdigit():
        return _("phone %(number)s") % {"number": number}
    return _("scorekeeper") if name.lower() in _UNNAMED_RECORDERS else name


@register.filter
def as_list(value) -> list:
    """Wrap one card so the cards tag can show it."""
    return [value]


@register.simple_tag
def card_boxes(field) -> str:
    """Draw a card field's checkboxes (one a card, each in its label), as its widget would:
    52 renders of the widget's own template cost more than the rest of the table's page."""
    chosen = {str(value) for value in field.value() or ()}
    return format_html_join(
        "",
        '<label class="pc s{}{}"><input type="checkbox" name="{}" value="{}" id="{}_{}"{}>'
        "<span>{}</span></label>",
        (
            (
                value[-1],
                " first" if value.startswith("A") else "",
                field.html_name,
                value,
                field.auto_id,
                number,
                " checked" if value in chosen else "",
                label,
            )
            for number, (value, label) in enumerate(field.field.choices)
        ),
    )

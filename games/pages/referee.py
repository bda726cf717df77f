"""The referee's page: ask about cards (a meld, a hand, an opening, layoffs, a move, a score)
and get the engine's verdict with the rules it applied."""

import math

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from games.pages.entries.referee_sheet import (
    SheetRefereeForm,
    entry_refusals,
    seat_labels,
    sheet_games,
    side_points,
)
from games.pages.forms.game_options import options_initial
from games.pages.forms.tables import RANKS, SUITS
from games.rules.text import item_text, rule_title, violation_text
from games.shared.throttles import CountedRateThrottle
from games.tables import selectors
from games.tables.access import request_digests
from games.tables.models import Table
from scoring import referee
from scoring.errors import RuleViolation
from scoring.variants import GAMES


class RefereeThrottle(CountedRateThrottle):
    """The API referee's throttle for the page: the same rate and the same counter per client."""

    scope = "referee"

    def get_cache_key(self, request, view):
        # The key ScopedRateThrottle gives the API's referee views, so both count together.
        ident = request.user.pk if request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def _throttled(request) -> list[tuple[str, str]] | None:
    """Return the page's error when this client has asked too often, else None."""
    throttle = RefereeThrottle()
    if throttle.allow_request(request, view=None):
        return None
    seconds = math.ceil(throttle.wait() or 1)
    message = ngettext(
        "Too many questions from this network: ask again in %(seconds)d second.",
        "Too many questions from this network: ask again in %(seconds)d seconds.",
        seconds,
    ) % {"seconds": seconds}
    return [(message, "")]


@require_http_methods(["GET", "HEAD", "POST"])
def referee_page(request):
    """Ask the referee about cards: a meld, a hand, an opening, layoffs, a move, a score."""
    initial = {}
    table_id = request.GET.get("table", "")
    if table_id:
        # Opened from a table: the table's game and options, for whoever holds its key.
        try:
            table, _role = selectors.table_for_digests(
                table_id=table_id, digests=request_digests(request, table_id), user=request.user
            )
        except Table.DoesNotExist:
            raise Http404 from None
        initial = referee_initial(table)
    form = SheetRefereeForm(request.POST or None, initial=initial)
    answer, error, status, refusals = None, None, 200, {}
    if request.method == "POST" and (error := _throttled(request)):
        status = 429
    elif request.method == "POST":
        if form.is_valid():
            question, ask = form.request()
            try:
                answer = referee_answer(question, ask)
                refusals = answer.pop("refusals", {})
            except RuleViolation as exc:
                error = [(violation_text(v), v.rule) for v in exc.violations]
                status = 400
        else:
            status = 400
    context = {
        "form": form,
        "answer": answer,
        "error": error,
        "picker_suits": SUITS,
        "picker_ranks": RANKS,
        # A side's sheet: its boxes, each with the engine's refusals naming it.
        "sheet_panels": form.sheet_panels(refusals),
        # An htmx answer brings the sheet along, out of band, for the errors by its boxes.
        "sheet_oob": bool(request.htmx),
    }
    template = "referee/referee.html#answer" if request.htmx else "referee/referee.html"
    return render(request, template, context, status=status)


def referee_initial(table: Table) -> dict:
    """Return the referee form's starting values for a table's game and options."""
    return {**options_initial(table.variant, table.options), "players": table.seats.count()}


def referee_answer(question: str, ask: dict) -> dict:
    """Ask the engine and make its answer ready for the page: sentences and rule titles."""
    answer = referee.answer(question, ask)
    game = GAMES[ask["variant"]]
    if question == "score" and game in sheet_games():
        return _sheet_answer(answer, game, ask["players"], referee.table_options(ask))
    answer["violations"] = [(violation_text(v), v.rule) for v in answer.get("violations", [])]
    options = referee.table_options(ask)
    answer["rules"] = [(rule, rule_title(rule, options)) for rule in answer.get("rules", [])]
    # Whether the hand makes each of the game's own ways out (Gin's gin and Big Gin): the
    # answer says so by the ending's key, the game's words name it.
    endings = game.words.endings if game.words is not None else {}
    answer["endings_made"] = [
        (gettext(label), answer[key])
        for key, label in endings.items()
        if isinstance(answer.get(key), bool)
    ]
    # "items" would resolve to dict.items in a template. Each says who scored what for
    # which rule, bonuses included (a spade's doubling, an undercut's bonus).
    players = ask.get("players")
    names = [p.get("name", "") for p in players] if isinstance(players, list) else []
    answer["score_items"] = [
        {**item, "text": item_text(item, names)} for item in answer.pop("items", [])
    ]
    if question == "score":
        answer["score_seats"] = score_seats(answer, players if isinstance(players, list) else [])
    return answer


def _sheet_answer(answer: dict, game, players: int, options: dict) -> dict:
    """Make a sides' sheet's score ready for the page: each side's points by its label, what
    each scored for, and the refusals that name a box, to say next to it."""
    answer["refusals"] = entry_refusals(answer.get("violations", []), game)
    answer["violations"] = [(violation_text(v), v.rule) for v in answer.get("violations", [])]
    answer["rules"] = [(rule, rule_title(rule, options)) for rule in answer.get("rules", [])]
    labels = seat_labels(game, players)
    answer["score_items"] = [
        {**item, "text": item_text(item, labels)} for item in answer.pop("items", [])
    ]
    if answer.get("valid"):
        answer["points"] = side_points(answer, game, players)
    else:
        answer.pop("points", None)
    answer["score_seats"] = []
    return answer


def score_seats(answer: dict, players: list) -> list[dict]:
    """Return each player of a scored hand as the page shows them: name and points, the
    melds (rows of cards), the unmelded cards and their count, or the hand's value, and the
    cards laid off. The answer's per-name dicts are taken out of it: drawn whole, they would
    print as dicts and draw the names as cards."""
    melds, unmelded = answer.pop("melds", None) or {}, answer.pop("deadwood", None) or {}
    counts = answer.pop("counts", None) or answer.pop("hand_values", None) or {}
    # Gin: the defender's layoffs go on the knocker's melds, numbered from 0 in their order.
    layoffs = answer.pop("layoffs", None) or []
    ender = next((p.get("name") for p in players if p.get("knocked") or p.get("went_out")), None)
    points, winners = answer.get("points") or {}, answer.get("winners") or []
    seats = []
    for player in players:
        name = player.get("name", "")
        seats.append(
            {
                "name": name,
                "points": points.get(name),
                "melds": melds.get(name) or [],
                "unmelded": unmelded.get(name),
                "count": counts.get(name),
                "went_out": name in winners,
                "laid_off": [layoff["card"] for layoff in layoffs]
                if layoffs and name != ender
                else [],
                "laid_on": ender,
            }
        )
    return seats

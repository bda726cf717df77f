"""Standings pages: a season's standings block, a league's standings page, a season's
standings and match results as CSV, and a club player's page.

The CSV files' content is games/standings/exports.py's; who may download them is who may
see the season's page.
"""

import csv
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.clubs import selectors as club_selectors
from games.clubs.models import Player, Season, Tiebreaker
from games.pages.common import with_club, with_league, with_season
from games.rules.game_words import count_label, points_labels
from games.standings import exports
from games.standings import selectors as standings_selectors
from games.standings.charts import rating_chart
from scoring.standings import counts_of
from scoring.variants import GAMES


def standings_context(access, season: Season) -> dict:
    league = access.league
    return {
        "access": access,
        "league": league,
        "club": league.club,
        "standings": standings_selectors.season_standings(season=season),
        "points_labels": points_labels(GAMES[league.variant]),
        "count_labels": [
            count_label(GAMES[league.variant], name) for name in counts_of(league.variant)
        ],
        "tiebreak_names": [Tiebreaker(name).label for name in league.tiebreakers],
    }


@require_safe
@with_season
def season_standings_view(request, access, season):
    """Return the season's standings block: the page polls it until a recompute lands."""
    return render(request, "standings/_standings.html", standings_context(access, season))


@require_safe
@with_league
def league_standings(request, access):
    """The league's standings page: its latest season, or the one asked for (``?season=``),
    with the other seasons to switch to. Read-only; public leagues show it to anyone."""
    seasons = list(club_selectors.league_seasons(league=access.league))
    if not seasons:
        raise Http404(_("This league has no seasons yet."))
    chosen = next((s for s in seasons if str(s.pk) == request.GET.get("season")), seasons[0])
    context = {**standings_context(access, chosen), "seasons": seasons, "season": chosen}
    return render(request, "standings/league_standings.html", context)


def _csv_response(season: Season, what: str) -> tuple[HttpResponse, Any]:
    league = season.league
    # Seasons have no slug of their own; a name with nothing to slug still names the file.
    name = slugify(season.name) or f"season-{season.pk}"
    filename = f"{league.club.slug}-{league.slug}-{name}-{what}.csv"
    response = HttpResponse(
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": content_disposition_header(True, filename)},
    )
    return response, csv.writer(response)


@require_safe
@with_season
def season_standings_csv(request, access, season):
    """Download the season's standings, one row per player, as last computed."""
    response, writer = _csv_response(season, "standings")
    exports.standings_write(writer, season)
    return response


@require_safe
@with_season
def season_results_csv(request, access, season):
    """Download every seat of the season's counted matches, in the order they were played."""
    response, writer = _csv_response(season, "results")
    exports.results_write(writer, season)
    return response


@require_safe
@with_club
def player_detail(request, access, player_id):
    """Show a player of the club to its members: win rate per game, rating over time in
    each league, and their matches, latest first."""
    try:
        player = club_selectors.player_for_user(access=access, player_id=player_id)
    except Player.DoesNotExist:
        raise Http404(_("No such player, or it is not yours to see.")) from None
    record = standings_selectors.player_record(player=player)
    context = {
        "access": access,
        "club": access.club,
        "player": player,
        "record": record,
        "ratings": [
            (series, rating_chart(series.points, player.name)) for series in record.ratings
        ],
        "matches": [
            (match, points_labels(GAMES[match.league.variant])) for match in record.matches
        ],
    }
    return render(request, "standings/player.html", context)

"""Standings pages: a season's standings block, a league's standings page, a season's
standings and match results as CSV, and a club player's page.

The CSV files are data for spreadsheets and scripts, in machine form whatever the page's
language: the header's column names are fixed identifiers (never translated, so a script
keyed on them keeps working), numbers are written with a point and no grouping, whole
numbers as integers and others rounded to two decimals as the standings show them (exact
fractions such as a mean against two opponents, 71/2, become 35.5; thirds are rounded),
ratings with every digit stored, times in ISO 8601 UTC. Who may download them is who may
see the season's page.
"""

import csv
import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.clubs import selectors as club_selectors
from games.clubs.models import Player, Season, Tiebreaker
from games.pages.common import with_club, with_league, with_season
from games.rules.text import COUNT_LABELS, POINTS_LABELS
from games.standings import selectors as standings_selectors
from games.standings.charts import rating_chart
from scoring.standings import COUNTS


def standings_context(access, season: Season) -> dict:
    league = access.league
    return {
        "access": access,
        "league": league,
        "club": league.club,
        "standings": standings_selectors.season_standings(season=season),
        "points_labels": POINTS_LABELS[league.variant],
        "count_labels": [COUNT_LABELS[name] for name in COUNTS[league.variant]],
        "tiebreak_names": [Tiebreaker(name).label for name in league.tiebreakers],
    }


@require_GET
@with_season
def season_standings(request, access, season):
    """Return the season's standings block: the page polls it until a recompute lands."""
    return render(request, "standings/_standings.html", standings_context(access, season))


@require_GET
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


# A spreadsheet reads a cell starting with one of these as a formula (CSV injection): such a
# text cell gets a leading single quote, as OWASP advises, and shows as the text it is.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    """Return a text cell that no spreadsheet runs as a formula."""
    return f"'{value}" if value.startswith(_FORMULA_STARTS) else value


def _decimal(value: int | float | str) -> str:
    """Return a count or points (an int, a stored 2-decimal float or an "n/d" fraction) in
    machine form: an integer when whole, else at most two decimals."""
    rounded = round(Fraction(str(value)), 2)
    if rounded.denominator == 1:
        return str(rounded.numerator)
    # The denominator divides 100, so the decimal is exact.
    return str(Decimal(rounded.numerator) / rounded.denominator)


def _rating(value: float | None) -> str:
    # Every stored digit (float(cell) gives the stored value back), and never an exponent.
    return "" if value is None else format(Decimal(repr(value)), "f")


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


@require_GET
@with_season
def season_standings_csv(request, access, season):
    """Download the season's standings, one row per player, as last computed."""
    standings = standings_selectors.season_standings(season=season)
    # The page shows only the conservative rating; the export adds mean and deviation.
    ratings = standings_selectors.season_ratings(season=season)
    response, writer = _csv_response(season, "standings")
    writer.writerow(
        [
            "rank",
            "player",
            "played",
            "won",
            "lost",
            "win_rate",
            "hands_played",
            "hands_won",
            "points_for",
            "points_against",
            "points_difference",
            "average_for",
            "average_against",
            *standings.counts,
            "rating",
            "rating_mu",
            "rating_sigma",
            "placed_by",
        ]
    )
    for line in standings.lines:
        row = line.row
        rating = ratings.get(str(row["player"]), {})
        writer.writerow(
            [
                row["rank"],
                _text(line.name),
                row["played"],
                row["won"],
                row["lost"],
                _decimal(row["win_rate"]),
                row["hands_played"],
                row["hands_won"],
                *(
                    _decimal(row[key])
                    for key in (
                        "points_for",
                        "points_against",
                        "points_difference",
                        "average_for",
                        "average_against",
                    )
                ),
                *(row["counts"][name] for name in standings.counts),
                _rating(rating.get("conservative")),
                _rating(rating.get("mu")),
                _rating(rating.get("sigma")),
                row["tiebreak"] or "",
            ]
        )
    return response


@require_GET
@with_season
def season_results_csv(request, access, season):
    """Download every seat of the season's counted matches, in the order they were played.

    ``match`` numbers the matches from 1 in that order (the order the ratings follow);
    ``seat`` numbers a table's seats from 1; ``total`` is the seat's final score at the
    table, end-of-match bonuses included.
    """
    counts = COUNTS[access.league.variant]
    response, writer = _csv_response(season, "results")
    writer.writerow(
        [
            "match",
            "table",
            "finished_at",
            "seat",
            "player",
            "place",
            "outcome",
            "hands_played",
            "hands_won",
            "points_for",
            "points_against",
            *counts,
            "total",
        ]
    )
    for number, match in enumerate(standings_selectors.season_results(season=season), start=1):
        summary = match.summary
        finished_at = match.finished_at.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        for seat, player in zip(summary["seats"], match.players, strict=True):
            seat_counts = dict(seat["counts"])
            writer.writerow(
                [
                    number,
                    match.table.id,
                    finished_at,
                    seat["seat"] + 1,
                    _text(player.name),
                    seat["place"],
                    seat["outcome"],
                    summary["hands"],
                    seat["hands_won"],
                    _decimal(seat["points_for"]),
                    _decimal(seat["points_against"]),
                    *(seat_counts[name] for name in counts),
                    summary["totals"][seat["seat"]],
                ]
            )
    return response


@require_GET
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
        "matches": [(match, POINTS_LABELS[match.league.variant]) for match in record.matches],
    }
    return render(request, "standings/player.html", context)

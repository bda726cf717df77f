"""A season's standings and match results as CSV rows.

The CSV files are data for spreadsheets and scripts, in machine form whatever the page's
language: the header's column names are fixed identifiers (never translated, so a script
keyed on them keeps working), numbers are written with a point and no grouping, whole
numbers as integers and others rounded to two decimals as the standings show them (exact
fractions such as a mean against two opponents, 71/2, become 35.5; thirds are rounded),
ratings with every digit stored, times in ISO 8601 UTC.
"""

import datetime
from decimal import Decimal

from games.clubs.models import Season
from games.shared.csv_cells import number_cell, text_cell
from games.standings import selectors
from scoring.standings import counts_of


def _rating(value: float | None) -> str:
    # Every stored digit (float(cell) gives the stored value back), and never an exponent.
    return "" if value is None else format(Decimal(repr(value)), "f")


def standings_write(writer, season: Season) -> None:
    """Write the season's standings, one row per player, as last computed."""
    standings = selectors.season_standings(season=season)
    # The page shows only the conservative rating; the export adds mean and deviation.
    ratings = selectors.season_ratings(season=season)
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
                text_cell(line.name),
                row["played"],
                row["won"],
                row["lost"],
                number_cell(row["win_rate"]),
                row["hands_played"],
                row["hands_won"],
                *(
                    number_cell(row[key])
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


def results_write(writer, season: Season) -> None:
    """Write every seat of the season's counted matches, in the order they were played.

    ``match`` numbers the matches from 1 in that order (the order the ratings follow);
    ``seat`` numbers a table's seats from 1; ``total`` is the seat's final score at the
    table, end-of-match bonuses included.
    """
    counts = counts_of(season.league.variant)
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
    for number, match in enumerate(selectors.season_results(season=season), start=1):
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
                    text_cell(player.name),
                    seat["place"],
                    seat["outcome"],
                    summary["hands"],
                    seat["hands_won"],
                    number_cell(seat["points_for"]),
                    number_cell(seat["points_against"]),
                    *(seat_counts[name] for name in counts),
                    summary["totals"][seat["seat"]],
                ]
            )

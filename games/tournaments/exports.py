"""A night's results as a file for an association: the JSON document (docs/export.md,
"A night's results") beside the standings' CSV. A pairs night's files name pairs: their
number, name and players, its plan, its matches' hands and its VP table."""

from fractions import Fraction
from typing import Any

from games.shared.csv_cells import number_cell, text_cell
from games.tournaments import pairs_selectors, selectors, table_results
from games.tournaments.models import Tournament

RESULTS_FORMAT = "rummyref-night-results"
RESULTS_VERSION = 1


def _number(value: int | Fraction) -> int | float:
    """Return points as JSON writes them: whole, or rounded to two decimals (as the CSV)."""
    rounded = round(Fraction(value), 2)
    return rounded.numerator if rounded.denominator == 1 else float(rounded)


def _decision(table: table_results.NightTable) -> dict[str, Any] | None:
    """Return the director's decision on a table as the file writes it, or None."""
    if not table.decision:
        return None
    return {
        "decision": table.decision,
        "reason": table.reason,
        "victory_points": [{"player": name, "points": vp} for name, vp in table.given],
    }


def _night(tournament: Tournament) -> dict[str, Any]:
    """Return what the night was, as the file writes it."""
    night = {
        "name": tournament.name,
        "club": tournament.club.name,
        "game": tournament.variant,
        "format": tournament.format,
        "scale": tournament.scale,
        "rounds": tournament.rounds,
        "created_at": tournament.created_at.isoformat(),
        "finished": tournament.status == Tournament.Status.FINISHED,
    }
    if pairs_selectors.is_pairs(tournament):
        night["plan"] = tournament.plan
        night["hands"] = tournament.options["hands"]
        night["vp_table"] = tournament.vp_table
        night["bye_victory_points"] = tournament.bye_points
    return night


def _pairs(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """Return each pair of a pairs night (by entrant id) as the file writes it: its number
    and players; none at another night."""
    if not pairs_selectors.is_pairs(tournament):
        return {}
    return {
        pair.pk: {"number": pair.number, "players": [m.player.name for m in pair.members.all()]}
        for pair in pairs_selectors.pairs_in_order(tournament=tournament)
    }


def night_results_document(*, tournament: Tournament) -> dict[str, Any]:
    """Return the night's results: what it was, its standings, and every round's tables."""
    standings = selectors.night_standings(tournament=tournament)
    pairs = _pairs(tournament)
    return {
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        "night": _night(tournament),
        "standings": [
            {
                "rank": line.row.rank,
                "player": line.name,
                **({"pair": pairs[line.row.player]} if pairs else {}),
                "victory_points": _number(line.row.victory_points),
                "buchholz": _number(line.row.buchholz),
                "points_difference": _number(line.row.points_difference),
                "played": line.row.played,
                "byes": line.row.byes,
                "withdrawn": line.withdrawn,
                "tiebreak": line.row.tiebreak,
            }
            for line in standings
        ],
        "rounds": [
            {
                "number": round_.number,
                "tables": [
                    {
                        "number": table.pairing.number,
                        "seats": [{"player": name, "total": total} for name, total in table.seats],
                        "adjustments": [
                            {"player": name, "points": points, "reason": reason}
                            for name, points, reason in table.adjustments
                        ],
                        "decision": _decision(table),
                    }
                    for table in tables
                ],
                "bye": round_.bye.name if round_.bye else None,
                "walkovers": [entrant.name for entrant in round_.walkovers.all()],
            }
            for round_, tables in table_results.night_tables(tournament=tournament)
        ],
    }


CSV_HEADER = ["rank", "player", "victory_points", "buchholz", "points_difference", "played", "byes"]
PAIRS_CSV_HEADER = [
    "rank",
    "pair",
    "name",
    "victory_points",
    "points_difference",
    "played",
    "byes",
    "withdrawn",
]


def night_standings_rows(*, tournament: Tournament) -> list[list]:
    """Return the night's standings as the CSV file's rows, its header first: one a player,
    or at a pairs night one a pair (its number and name)."""
    lines = selectors.night_standings(tournament=tournament)
    if not pairs_selectors.is_pairs(tournament):
        return [CSV_HEADER] + [
            [
                line.row.rank,
                text_cell(line.name),
                number_cell(line.row.victory_points),
                number_cell(line.row.buchholz),
                number_cell(line.row.points_difference),
                line.row.played,
                line.row.byes,
            ]
            for line in lines
        ]
    pairs = _pairs(tournament)
    return [PAIRS_CSV_HEADER] + [
        [
            line.row.rank,
            pairs[line.row.player]["number"],
            text_cell(line.name),
            number_cell(line.row.victory_points),
            number_cell(line.row.points_difference),
            line.row.played,
            line.row.byes,
            int(line.withdrawn),
        ]
        for line in lines
    ]

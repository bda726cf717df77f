"""A night's results as a file for an association: the JSON document (docs/export.md,
"A night's results") beside the standings' CSV."""

from fractions import Fraction
from typing import Any

from games.tournaments import selectors, table_results
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


def night_results_document(*, tournament: Tournament) -> dict[str, Any]:
    """Return the night's results: what it was, its standings, and every round's tables."""
    standings = selectors.night_standings(tournament=tournament)
    return {
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        "night": {
            "name": tournament.name,
            "club": tournament.club.name,
            "game": tournament.variant,
            "format": tournament.format,
            "scale": tournament.scale,
            "rounds": tournament.rounds,
            "created_at": tournament.created_at.isoformat(),
            "finished": tournament.status == Tournament.Status.FINISHED,
        },
        "standings": [
            {
                "rank": line.row.rank,
                "player": line.name,
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
                "bye": round_.bye.player.name if round_.bye else None,
                "walkovers": [entrant.player.name for entrant in round_.walkovers.all()],
            }
            for round_, tables in table_results.night_tables(tournament=tournament)
        ],
    }

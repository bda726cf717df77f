"""A club night's standings checked against its tables' logs.

Every phone and screen following a night reads its standings from the shared cache, kept
under everything they are worked out from (selectors.night_standings). Whoever can write
to the cache can put other standings under the same key, and the night's pages, its
results page and its results file would serve them. So ``verify_tables`` and the nightly
audit work the standings of every night that may still have them kept out again from the
logs and compare: a difference is said by player (which night, whose line, which field,
kept and recomputed), and the audit keeps the recompute over it. A night with nothing
kept has nothing to compare: its next reader works its standings out from the logs.
"""

from dataclasses import asdict, fields
from datetime import timedelta
from fractions import Fraction
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.shared.differences import capped, fields_differing
from games.tournaments import selectors
from games.tournaments.models import Tournament
from scoring.tournaments.ranking import TournamentRow

# Nights compared: those running, and those made this recently (kept standings last
# STANDINGS_SECONDS after their last reader, and a night ends the evening it starts).
RECENT = timedelta(days=3)
# What a standings line says, beside its player: the row's fields and whether they left.
SAID = [field.name for field in fields(TournamentRow) if field.name != "player"]


def _said(line: selectors.StandingLine) -> dict[str, Any]:
    """Return a line's fields as people read them: points as numbers, opponents in order."""
    row = asdict(line.row)
    said = {name: row[name] for name in SAID}
    for name, value in said.items():
        if isinstance(value, Fraction):
            said[name] = int(value) if value.denominator == 1 else float(value)
        elif isinstance(value, frozenset):
            said[name] = sorted(value, key=str)
    return {**said, "withdrawn": line.withdrawn}


def _standings_differing(tournament: Tournament, kept: object, fresh: list) -> list[str]:
    """Say how the kept standings of a night differ from the recomputed, player by player."""
    label = f"night {tournament.pk} ({tournament.club.name}, {tournament.name}) standings"
    if not isinstance(kept, list) or not all(
        isinstance(line, selectors.StandingLine) for line in kept
    ):
        return [f"{label}: what is kept is not standings"]
    stored = {line.row.player: line for line in kept}
    computed = {line.row.player: line for line in fresh}
    found = []
    for player in sorted(stored.keys() | computed.keys(), key=str):
        line = computed.get(player) or stored[player]
        who = f"{line.name} (entrant {player})"
        if player not in stored or player not in computed:
            where = "kept only" if player in stored else "recomputed only"
            found.append(f"{label}: {who} is in the {where}")
            continue
        for said in fields_differing(_said(stored[player]), _said(computed[player])):
            found.append(f"{label}: {who}: {said}")
    if [line.row.player for line in kept] != [line.row.player for line in fresh]:
        found.append(f"{label}: the order of the rows differs")
    return capped(found, label)


def night_differences(*, repair: bool = False) -> list[str]:
    """Compare the kept standings of every night that may have them with its logs read
    again; return one sentence per difference, and keep the recompute when ``repair``."""
    nights = (
        Tournament.objects.exclude(status=Tournament.Status.REGISTERING)
        .filter(Q(status=Tournament.Status.RUNNING) | Q(created_at__gte=timezone.now() - RECENT))
        .select_related("club")
        .order_by("pk")
    )
    found: list[str] = []
    for tournament in nights:
        kept = selectors.night_standings_kept(tournament=tournament)
        if kept is None:
            continue
        fresh = selectors.night_standings(
            tournament=tournament, found=selectors.night_results(tournament=tournament)
        )
        said = _standings_differing(tournament, kept, fresh)
        found += said
        if said and repair:
            selectors.night_standings_rebuilt(tournament=tournament)
    return found

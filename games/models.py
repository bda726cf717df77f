"""The app's models, one migration history: each part keeps its own, they are gathered here
so Django (and ``games.models.X`` in migrations and settings) finds them all."""

from games.clubs.models import (
    Club,
    ClubRole,
    Invite,
    League,
    Membership,
    Player,
    Season,
    Tiebreaker,
)
from games.shared.models import Created, Variant, new_key
from games.standings.models import MatchResult, RecomputeJob, SeasonStandings
from games.tables.models import (
    Event,
    EventQuerySet,
    ImmutableEventError,
    JoinToken,
    Seat,
    Table,
    TableProjection,
)
from games.tournaments.models import Entrant, Round, RoundSeat, RoundTable, Tournament

__all__ = [
    "Club",
    "ClubRole",
    "Created",
    "Entrant",
    "Event",
    "EventQuerySet",
    "ImmutableEventError",
    "Invite",
    "JoinToken",
    "League",
    "MatchResult",
    "Membership",
    "Player",
    "RecomputeJob",
    "Round",
    "RoundSeat",
    "RoundTable",
    "Season",
    "SeasonStandings",
    "Seat",
    "Table",
    "TableProjection",
    "Tiebreaker",
    "Tournament",
    "Variant",
    "new_key",
]

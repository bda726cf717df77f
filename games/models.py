"""The app's models, one migration history: each part keeps its own, they are gathered here
so Django (and ``games.models.X`` in migrations and settings) finds them all."""

from games.clubs.models import (
    Club,
    ClubRole,
    Group,
    Invite,
    League,
    Membership,
    Player,
    Season,
    Tiebreaker,
)
from games.shared.models import Created, QueuedTask, new_key
from games.standings.models import MatchResult, RecomputeJob, SeasonStandings
from games.tables.models import (
    Checkpoint,
    Event,
    EventQuerySet,
    ImmutableEventError,
    JoinToken,
    KeyClaim,
    KeyTransfer,
    Seat,
    SharedResult,
    Table,
    TableProjection,
)
from games.tournaments.models import (
    Entrant,
    KeptApart,
    PairMember,
    Round,
    RoundSeat,
    RoundTable,
    Tournament,
)

__all__ = [
    "Checkpoint",
    "Club",
    "ClubRole",
    "Created",
    "Entrant",
    "Event",
    "EventQuerySet",
    "Group",
    "ImmutableEventError",
    "Invite",
    "JoinToken",
    "KeptApart",
    "KeyClaim",
    "KeyTransfer",
    "League",
    "MatchResult",
    "Membership",
    "PairMember",
    "Player",
    "QueuedTask",
    "RecomputeJob",
    "Round",
    "RoundSeat",
    "RoundTable",
    "Season",
    "SeasonStandings",
    "Seat",
    "SharedResult",
    "Table",
    "TableProjection",
    "Tiebreaker",
    "Tournament",
    "new_key",
]

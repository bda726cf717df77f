"""A night's background work, queued on commit. Tasks take ids and are idempotent."""

from celery import shared_task

from games.tournaments import selectors
from games.tournaments.models import Tournament


@shared_task(
    name="games.tasks.night_standings_refresh",
    acks_late=True,
    autoretry_for=(Exception,),
    retry_backoff=True,
    max_retries=5,
)
def night_standings_refresh(tournament_id: int) -> dict:
    """Work out a night's standings after a table's result moved and keep them, so the
    phones and the room screen that ask next find them ready."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return {"tournament": tournament_id, "players": 0}
    lines = selectors.night_standings(tournament=tournament)
    return {"tournament": tournament_id, "players": len(lines)}

"""Tables whose hands are reviewed (games/tables/review.py): each game's reviewed hand
(scoring/samples.reviewed) played move by move through the services, as a phone plays it."""

import uuid

from games.models import Table
from games.tables import services
from scoring.samples import SampleHand


def sample_play(table: Table, sample: SampleHand) -> Table:
    """Append the sample hand's moves to ``table`` (its creation's seating matches the
    sample's players) and return it at its new head."""
    for event_type, payload in sample.events:
        table.refresh_from_db()
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=table.head_seq,
            event_type=event_type,
            payload=payload,
            entered_by="Anna's phone",
        )
    table.refresh_from_db()
    return table


def sample_table(sample: SampleHand, **kwargs) -> Table:
    """Create a table of the sample's game and players (``kwargs``: the service's, such as
    ``practice``) and play the sample's hand on it. The table's keys are on it."""
    table = services.table_create(
        variant=sample.variant,
        options=sample.options,
        players=list(sample.players),
        entered_by="Anna's phone",
        **kwargs,
    )
    keys = table.scorekeeper_key, table.viewer_key
    played = sample_play(table, sample)
    played.scorekeeper_key, played.viewer_key = keys
    return played

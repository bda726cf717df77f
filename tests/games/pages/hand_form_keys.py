"""The hand form's keys as a phone reads them from the table's page."""

import re

from django.test import Client

from games.models import Table


def hand_form_keys(client: Client, table: Table) -> dict:
    """Read the hand form's keys and the board's head from the table's page."""
    page = client.get(f"/t/{table.id}/").content.decode()
    return {
        "event_id": re.search(r'name="event_id" value="([^"]+)"', page).group(1),
        "expected_seq": re.search(r'name="expected_seq" value="([^"]+)"', page).group(1),
        "shown_seq": re.search(r'data-head-seq="(\d+)"', page).group(1),
    }

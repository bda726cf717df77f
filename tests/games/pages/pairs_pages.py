"""What the pages tests of the games played in pairs (Burraco, Canasta) share: a table of
four started from the home form, a hand form's hidden fields read off the page, a side's
total read off the scoreboard."""

import re

from django.test import Client

from games.models import Table

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def create_table(phone: Client, variant: str, options: dict[str, str]) -> Table:
    """Start a table of ``variant`` for the four NAMES from the home form, with ``options``
    filled in under the game's own prefix."""
    data = {"variant": variant, "players": "4"}
    data.update({f"player_{n}": name for n, name in enumerate(NAMES, start=1)})
    data.update({f"{variant}__{key}": value for key, value in options.items()})
    response = phone.post("/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Table.objects.get(pk=response.url.split("/")[2])


def hand_form(page: str, **fields) -> dict:
    """Return ``fields`` with the hand form's event id and expected sequence from the page."""
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    expected = re.search(r'name="expected_seq" value="([^"]+)"', page).group(1)
    return {"event_id": event_id, "expected_seq": expected, **fields}


def shown_total(page: str, seat: int) -> str:
    """Return the total the scoreboard shows for the seat's box."""
    return re.search(rf'data-testid="total-{seat}">([^<]*)<', page).group(1)

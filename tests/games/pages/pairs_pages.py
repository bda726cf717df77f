"""What the pages tests of the games played in pairs (Burraco, Canasta) share: a table of
four started from the home form, a hand form's hidden fields read off the page, a side's
total read off the scoreboard."""

import re

from django.test import Client
from rest_framework.test import APIClient

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


def api_table(variant: str, options: dict | None = None) -> tuple[APIClient, dict]:
    """Create a table of ``variant`` for the four NAMES through the API; return a client
    holding its scorekeeper's key, and the table."""
    api = APIClient()
    body = {"variant": variant, "players": NAMES}
    if options is not None:
        body["options"] = options
    created = api.post("/api/v1/tables/", body, format="json")
    assert created.status_code == 201, created.content
    table = created.json()
    api.credentials(HTTP_X_TABLE_KEY=table["scorekeeper_key"])
    return api, table


def post_sheet(api: APIClient, table: dict, seq: int, pairs: list[dict], event_id: str):
    """Append a hand entered by sheet, both sides' ``pairs``, as event ``seq``."""
    return api.post(
        f"/api/v1/tables/{table['id']}/events/",
        {
            "event_id": event_id,
            "expected_seq": seq,
            "type": "hand_recorded",
            "payload": {"mode": "sheet", "pairs": pairs},
        },
        format="json",
    )

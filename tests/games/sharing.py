"""Opening a table on a second phone the way people do: with a join link the first phone's
share block shows."""

import re

from django.test import Client


def share_link(page: str, role: str) -> str:
    """Return the path of the join link for ``role`` in a table page's share block."""
    box = re.search(rf'<input[^>]*data-testid="link-{role}"[^>]*>', page).group(0)
    return re.search(r'value="https?://[^/"]+(/j/[^"]+/)"', box).group(1)


def join_from(creator: Client, other: Client, table, role: str) -> None:
    """Open ``table`` on ``other`` with the ``role`` join link that ``creator`` is shown."""
    page = creator.get(f"/t/{table.id}/").content.decode()
    response = other.get(share_link(page, role))
    assert response.status_code == 302 and response.url == f"/t/{table.id}/"

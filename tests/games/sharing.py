"""Opening a table on a second phone the way people do: with a join link the first phone's
share block shows (its contents come from /t/<id>/share/ when the block is opened)."""

import re

from django.test import Client


def share_page(phone: Client, table) -> str:
    """Return what ``phone``'s share block shows at ``table`` once opened."""
    response = phone.get(f"/t/{table.id}/share/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def share_link(page: str, role: str) -> str:
    """Return the join link for ``role`` in a share block, without its host: ``/j/#<token>``."""
    box = re.search(rf'<input[^>]*data-testid="link-{role}"[^>]*>', page).group(0)
    return re.search(r'value="https?://[^/"]+(/j/#[\w-]+)"', box).group(1)


def join_by_link(phone: Client, link: str):
    """Open a join link on ``phone`` as the /j/ page's script does: post the token after
    ``#`` to /j/ with the page's CSRF token (browsers never send a fragment); return the
    answer."""
    path, token = link.split("#", 1)
    page = phone.get(path)
    assert page.status_code == 200
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())
    return phone.post(path, {"link": token, "csrfmiddlewaretoken": csrf.group(1)})


def join_from(creator: Client, other: Client, table, role: str) -> None:
    """Open ``table`` on ``other`` with the ``role`` join link that ``creator`` is shown."""
    response = join_by_link(other, share_link(share_page(creator, table), role))
    assert response.status_code == 302 and response.url == f"/t/{table.id}/"

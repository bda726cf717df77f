"""Playing a Burraco pairs night as its director and its tables would: the night created and
its pairs added on the director's pages, each match's hands entered one sheet a pair through
the table's services, then confirmed by its four players."""

import re
import uuid

from django.test import Client

from games.clubs.models import League
from games.tables import services as table_services
from games.tables.models import Table
from games.tournaments.models import Entrant, RoundTable, Tournament
from tests.factories import LeagueFactory, PlayerFactory

# The new pairs night form as the director fills it: the federation's 3-hand table.
PAIRS_NIGHT_FORM = {
    "name": "Burraco night",
    "plan": "3 Mitchell + 1 Danese",
    "hands": 3,
    "vp_table": "fibur-3-hands",
    "own_table": "",
    "bye_points": 12,
    "round_minutes": 60,
}


def burraco_league(world):
    """Return the club's Burraco league (made the first time): pairs, partners across, to
    2005 between nights."""
    league = League.objects.filter(club=world.club, name="Burraco").first()
    return league or LeagueFactory(
        club=world.club,
        actor=world.admin,
        name="Burraco",
        variant="burraco",
        players=4,
        options={"target": 2005, "hands": 0},
    )


def pairs_night(world, director: Client, pairs: int, **form) -> tuple[Tournament, str]:
    """Create the night on the director's page and add ``pairs`` pairs of new club players,
    pair n being "Pn a & Pn b"; return it and its page's address."""
    league = burraco_league(world)
    data = {**PAIRS_NIGHT_FORM, "league": league.pk, **form}
    response = director.post(f"/clubs/{world.club.slug}/n/new/pairs/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(name=data["name"])
    url = f"/clubs/{world.club.slug}/n/{tournament.pk}/"
    for number in range(1, pairs + 1):
        first, second = (
            PlayerFactory(club=world.club, actor=world.admin, name=f"P{number} {part}")
            for part in ("a", "b")
        )
        added = director.post(url + "pairs/", {"first": first.pk, "second": second.pk})
        assert added.status_code == 302, added.content.decode()[:3000]
    return tournament, url


def pair_ids(tournament: Tournament) -> dict[int, int]:
    """Return the night's pairs' entrant ids by pair number."""
    return dict(Entrant.objects.filter(tournament=tournament).values_list("number", "pk"))


def append(table: Table, event_type: str, payload: dict) -> None:
    table.refresh_from_db()
    table_services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=table.head_seq,
        event_type=event_type,
        payload=payload,
    )


def _sheet(melded: int) -> dict:
    """A pair's sheet of a hand ended with nobody closing: ``melded`` points on the table, its
    pozzetto taken, nothing left in hand (BUR-SCORE: the hand scores ``melded``)."""
    return {"melded": melded, "pozzetto": True, "in_hand": 0}


def play_match(pairing: RoundTable, difference: int) -> None:
    """Play the table's three hands so that North–South end ``difference`` points ahead of
    East–West (behind if negative): 100 each a hand, the winner's lead spread over the three
    hands in fives, then the four players confirm."""
    lead = abs(difference)
    part = -(-lead // 15) * 5  # a third of the lead, rounded up to a multiple of 5
    for share in (part, part, lead - 2 * part):
        ahead, behind = 100 + share, 100
        ns, ew = (ahead, behind) if difference >= 0 else (behind, ahead)
        append(pairing.table, "hand_recorded", {"mode": "sheet", "pairs": [_sheet(ns), _sheet(ew)]})
    for seat in range(4):
        append(pairing.table, "result_confirmed", {"seat": seat})


def tables_of(tournament: Tournament, number: int) -> dict[int, RoundTable]:
    """Return round ``number``'s tables by their number."""
    return {
        pairing.number: pairing
        for pairing in RoundTable.objects.filter(
            round__tournament=tournament, round__number=number
        ).select_related("table")
    }


def meetings(tournament: Tournament, number: int, numbers: dict[int, int]) -> dict:
    """Return round ``number``'s tables as {table: (NS pair's number, EW pair's number)}."""
    of = {pk: n for n, pk in numbers.items()}
    return {
        table: tuple(of[seat.entrant_id] for seat in pairing.seats.order_by("seat"))
        for table, pairing in tables_of(tournament, number).items()
    }


def _form_fields(page: str, testid: str | None = None) -> dict:
    """Return the hidden event id and expected seq of the page's form (``testid``: of the
    form so marked, else the first)."""
    if testid is not None:
        page = page.split(f'data-testid="{testid}"', 1)[1]
    return {
        "event_id": re.search(r'name="event_id" value="([^"]+)"', page).group(1),
        "expected_seq": re.search(r'name="expected_seq" value="([^"]+)"', page).group(1),
    }


def enter_match(client: Client, pairing: RoundTable, difference: int) -> None:
    """Enter the table's three hands on its page as its players would, North–South ending
    ``difference`` points ahead (behind if negative), as ``play_match`` spreads it; then
    each of the four players confirms the result there."""
    url = f"/t/{pairing.table_id}/"
    lead = abs(difference)
    part = -(-lead // 15) * 5
    for share in (part, part, lead - 2 * part):
        ahead, behind = 100 + share, 100
        ns, ew = (ahead, behind) if difference >= 0 else (behind, ahead)
        sheet = {
            **_form_fields(client.get(url).content.decode()),
            "closed": "",
            **{f"s{side}_melded": str(points) for side, points in enumerate((ns, ew))},
            **{f"s{side}_pozzetto": "on" for side in (0, 1)},
            **{f"s{side}_in_hand": "0" for side in (0, 1)},
        }
        response = client.post(url + "hands/", sheet)
        assert response.status_code == 302, response.content.decode()[:3000]
    for seat in range(4):
        fields = _form_fields(client.get(url).content.decode(), "confirm")
        response = client.post(url + "confirm/", {**fields, "seat": seat})
        assert response.status_code == 302, response.content.decode()[:3000]


def standings_rows(page: str) -> list[tuple[str, str, str, str]]:
    """Return the night page's standings rows: (rank, pair, VP, points difference)."""
    rows = re.findall(
        r'<td>(\d+)</td>\s*<th scope="row"><span data-testid="name">([^<]+)</span>.*?'
        r'data-testid="vp">([^<]+)<.*?data-testid="points-difference">([^<]+)<',
        page,
        re.S,
    )
    return [(rank, name.replace("&amp;", "&"), vp, diff) for rank, name, vp, diff in rows]

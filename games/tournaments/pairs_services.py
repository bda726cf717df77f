"""Writes of a pairs night (Burraco): the director creates it and registers its pairs.

Its rounds, tables, withdrawals, decisions and close are the other nights' (``services``):
a pair is an entrant like a player, paired by the night's plan (``pairing``).
"""

import secrets
from collections.abc import Mapping
from itertools import groupby
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext

from games.clubs.models import League, Player
from games.clubs.services import require_member
from games.shared.errors import ActionRefused
from games.tournaments.models import MAX_POINTS, Entrant, PairMember, Tournament
from games.tournaments.services import night_for_director, night_season
from scoring.tournaments.pairs_night import MAX_ROUNDS, night_plan
from scoring.tournaments.victory_points import VPTableError, from_dict, to_dict
from scoring.variants import game_get

# The number of hands a pairs match lasts, as the federation's VP tables have them.
MATCH_HANDS = (2, 3, 4)


def _pairs_league(club_id: int, league_id: int) -> League:
    """Return the club's league of a game of partners, or refuse it."""
    league = League.objects.filter(pk=league_id, club_id=club_id).first()
    if league is None or not game_get(league.variant).partners:
        raise ValidationError(
            gettext("Choose one of the club's leagues of a game of pairs."), code="league"
        )
    return league


def _checked_plan(plan: str) -> tuple[str, ...]:
    try:
        rounds = night_plan(plan)
    except ValueError:
        rounds = ()
    if not 0 < len(rounds) <= MAX_ROUNDS:
        raise ValidationError(
            gettext(
                "Write the plan as numbers of Mitchell and Danese rounds, e.g. "
                "“3 Mitchell + 1 Danese”, %(most)d rounds at most."
            )
            % {"most": MAX_ROUNDS},
            code="plan",
        )
    return rounds


def _checked_vp_table(vp_table: Mapping[str, Any], hands: int) -> dict[str, Any]:
    """Return the VP table as the night pins it, checked (``victory_points.from_dict``)."""
    try:
        table = from_dict(vp_table)
    except VPTableError as exc:
        raise ValidationError(str(exc), code="vp_table") from None
    if table.hands != hands:
        raise ValidationError(
            gettext("This table is for matches of %(table)d hands, the night's are %(hands)d.")
            % {"table": table.hands, "hands": hands},
            code="vp_table",
        )
    return to_dict(table)


@transaction.atomic
def pairs_night_create(
    *,
    actor,
    club_id: int,
    league_id: int,
    name: str,
    plan: str,
    hands: int,
    vp_table: Mapping[str, Any],
    bye_points: int = 12,
    round_minutes: int = 60,
    season_id: int | None = None,
) -> Tournament:
    """Create a pairs night of a league of a game of partners (Burraco): its ``plan`` of
    Mitchell and Danese rounds ("3 Mitchell + 1 Danese"), each match ``hands`` hands long
    (2, 3 or 4: the game's option ``hands``), its results turned into VP by ``vp_table``
    (``victory_points.to_dict``'s shape, for matches of that many hands), ``bye_points``
    VP for a bye or a walkover (BURRACO-BYE)."""
    require_member(club_id=club_id, user=actor, admin=True)
    league = _pairs_league(club_id, league_id)
    rounds = _checked_plan(plan)
    if hands not in MATCH_HANDS:
        raise ValidationError(gettext("A match lasts 2, 3 or 4 hands."), code="hands")
    if not 0 <= bye_points <= MAX_POINTS:
        raise ValidationError(
            gettext("Victory points are whole numbers from 0 to %(most)d.") % {"most": MAX_POINTS},
            code="bye_points",
        )
    try:
        with transaction.atomic():
            return Tournament.objects.create(
                club_id=club_id,
                league=league,
                season=night_season(league, season_id),
                name=name.strip(),
                format=Tournament.Format.PAIRS,
                plan=_plan_text(rounds),
                vp_table=_checked_vp_table(vp_table, hands),
                bye_points=bye_points,
                variant=league.variant,
                options={**league.options, "hands": hands},
                rounds=len(rounds),
                round_minutes=round_minutes,
                seed=secrets.randbelow(2**31),
                created_by=actor,
            )
    except IntegrityError:
        raise ValidationError(
            gettext("The club already has a tournament of that name."), code="name"
        ) from None


def _plan_text(rounds: tuple[str, ...]) -> str:
    """Return the plan as the night shows it: "3 Mitchell + 1 Danese", however typed."""
    return " + ".join(f"{len(list(run))} {kind.title()}" for kind, run in groupby(rounds))


@transaction.atomic
def pair_register(*, actor, tournament_id: int, player_ids: tuple[int, int]) -> Entrant:
    """Register two club players as the night's next pair (checked in: they are at the
    door), numbered after the last one."""
    tournament = night_for_director(tournament_id, actor)
    if tournament.format != Tournament.Format.PAIRS:
        raise ValidationError(gettext("This night's entrants are players, not pairs."))
    if len(player_ids) != 2 or player_ids[0] == player_ids[1]:
        raise ValidationError(gettext("A pair is two different players."), code="pair")
    players = Player.objects.in_bulk(list(player_ids))
    if len(players) != 2 or any(p.club_id != tournament.club_id for p in players.values()):
        raise ValidationError(gettext("Choose the pair's players from the club's players."))
    if tournament.field:
        # The first round drew the Mitchell lines from the pairs then: a later pair would
        # have no seat in them (NIGHT-LATE).
        raise ActionRefused(
            gettext("The first round seated the night's pairs: no new pair can join now.")
        )
    taken = PairMember.objects.filter(tournament=tournament, player_id__in=player_ids)
    if taken.exists():
        raise ValidationError(
            gettext("%(name)s already plays in a pair of this night.")
            % {"name": taken.select_related("player").first().player.name},
            code="pair",
        )
    last = tournament.entrants.aggregate(last=Max("number"))["last"] or 0
    pair = Entrant.objects.create(tournament=tournament, number=last + 1, checked_in=True)
    PairMember.objects.bulk_create(
        PairMember(tournament=tournament, pair=pair, player=players[pk], place=place)
        for place, pk in enumerate(player_ids)
    )
    return pair

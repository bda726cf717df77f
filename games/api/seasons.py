"""League seasons in the API: their standings, and starting a table in one."""

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import serializers
from games.api.tables import Throttled
from games.clubs import selectors as club_selectors
from games.clubs.models import Season
from games.standings import selectors as standings_selectors
from games.tables import services as table_services
from games.tables.access import Role

NOT_FOUND = OpenApiResponse(
    serializers.ErrorSerializer, description="No such season, or its league is private to its club."
)


def _season(request, season_id: int):
    try:
        return club_selectors.season_by_id_for_user(season_id=season_id, user=request.user)
    except Season.DoesNotExist:
        raise NotFound("No such season, or its league is private to its club.") from None


class SeasonStandingsView(Throttled, APIView):
    @extend_schema(
        summary="Get a season's standings",
        description="The standings as last worked out from the season's tables' logs by the "
        "workers: ranked by matches won, then fewest lost, then the league's tie-breakers in "
        "order. Public leagues answer anyone; private ones only their club's members (signed "
        "in). up_to_date is false for the few seconds after a match finishes or is "
        "corrected, until the recompute lands.",
        responses={200: serializers.SeasonStandingsSerializer, 404: NOT_FOUND},
    )
    def get(self, request, season_id: int):
        season, _access = _season(request, season_id)
        view = standings_selectors.season_standings(season=season)
        league = season.league
        body = {
            "season": season.pk,
            "league": league.name,
            "variant": league.variant,
            "tiebreakers": view.tiebreakers,
            "lower_is_better": view.lower_is_better,
            "matches": view.matches,
            "computed_at": view.computed_at,
            "up_to_date": view.up_to_date,
            "rows": [{**line.row, "name": line.name} for line in view.lines],
        }
        return Response(serializers.SeasonStandingsSerializer(body).data)


class SeasonTableCreateView(Throttled, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Start a table in a season (club members)",
        description="The table plays the league's game and options, which cannot be changed; "
        "the seats are the club's players. Signed-in members record on it without a key "
        "(the session and its CSRF token); the keys in the answer only read it.",
        request=serializers.SeasonTableCreateSerializer,
        responses={
            201: serializers.TableSerializer,
            400: serializers.ErrorSerializer,
            403: serializers.ErrorSerializer,
            404: NOT_FOUND,
        },
        examples=[
            OpenApiExample(
                "Anna (id 4) and Bruno (id 7)", value={"players": [4, 7]}, request_only=True
            )
        ],
    )
    def post(self, request, season_id: int):
        season, _access = _season(request, season_id)
        serializer = serializers.SeasonTableCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            table = table_services.season_table_create(
                actor=request.user,
                season_id=season.pk,
                player_ids=data["players"],
                practice=data["practice"],
                entered_by="api",
            )
        except DjangoValidationError as exc:
            raise ValidationError({"players": exc.messages}) from None
        body = serializers.TableSerializer(
            table, context={"roles": {table.id: Role.SCOREKEEPER}}
        ).data
        return Response(body, status=status.HTTP_201_CREATED)

"""The tables API: thin views that parse, call one service or selector, and answer."""

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import serializers
from games.api.examples import move_examples
from games.shared.throttles import CountedAnonThrottle, CountedUserThrottle
from games.tables import selectors, services
from games.tables.access import KEY_HEADER, Role, header_digests, table_role, write_refusal
from games.tables.joining import link_path, table_join_links
from games.tables.models import Table

KEY_PARAMETER = OpenApiParameter(
    name=KEY_HEADER,
    location=OpenApiParameter.HEADER,
    required=False,
    description="The table's scorekeeper key (read and record) or viewer key (read only). "
    "Not needed at a league table by a signed-in member of its club (session and CSRF "
    "token); there a key only reads.",
)
LIST_KEY_PARAMETER = OpenApiParameter(
    name=KEY_HEADER,
    location=OpenApiParameter.HEADER,
    required=False,
    description="One or more table keys, comma-separated: the tables they open are listed.",
)
ERRORS = {
    404: OpenApiResponse(
        serializers.ErrorSerializer, description="No table with this id opens with the key."
    ),
}

EVENT_EXAMPLES = [
    OpenApiExample(
        "Gin: a knock, entered quickly",
        value={
            "event_id": "6f1d3c1e-8a55-4c36-9a4e-3d2b0e6f9a10",
            "expected_seq": 1,
            "type": "hand_recorded",
            "payload": {
                "mode": "quick",
                "knocker": 0,
                "ending": "knock",
                "knocker_count": 7,
                "defender_count": 20,
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "Gin: a hand entered by cards",
        description="The engine finds both players' melds, the defender's layoffs and the "
        "counts. The knocker's cards are the 10 kept after the discard (11 for Big Gin).",
        value={
            "event_id": "0b6e2f0a-0c1b-4d0e-8f6a-1e2d3c4b5a69",
            "expected_seq": 2,
            "type": "hand_recorded",
            "payload": {
                "mode": "cards",
                "knocker": 1,
                "knocker_cards": "9C 9S 9H 9D 4C 4S 4H 3C 3S 3H",
                "defender_cards": "6C AH AS 2S 5D 6D 7D KC KS KH",
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "Gin: the stock ran down to two cards (GIN-WALL)",
        value={
            "event_id": "a7f6b8e4-1b1e-4f7c-8d2a-5c6b7a8d9e0f",
            "expected_seq": 3,
            "type": "hand_recorded",
            "payload": {"mode": "quick", "ending": "wall"},
        },
        request_only=True,
    ),
    OpenApiExample(
        "Ramino (3 players): Anna goes out, by cards",
        description="One entry per seat, in seat order: the cards still in hand, the cards "
        "laid this hand, and the flags the game uses (went_out, hand_closed).",
        value={
            "event_id": "3a0c9e5e-2f0b-4c4e-9a8f-6d5b4c3a2b10",
            "expected_seq": 1,
            "type": "hand_recorded",
            "payload": {
                "mode": "cards",
                "players": [
                    {"hand": "", "melded": "7S 8S 9S", "went_out": True},
                    {"hand": "KH QH 5C"},
                    {"hand": "JK 2D"},
                ],
                "stock_exhausted": False,
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "Knock Rummy (3 players): Anna knocks, by points in hand",
        value={
            "event_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
            "expected_seq": 1,
            "type": "hand_recorded",
            "payload": {
                "mode": "points",
                "players": [{"points": 4, "knocked": True}, {"points": 2}, {"points": 9}],
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "Rummy40 (2 players): Bruno failed an opening, the stock ran out",
        value={
            "event_id": "c0ffee00-1234-4abc-9def-0123456789ab",
            "expected_seq": 1,
            "type": "hand_recorded",
            "payload": {
                "mode": "cards",
                "players": [
                    {"hand": "KS QS"},
                    {"hand": "5D JK", "opening_penalty": 1},
                ],
                "stock_exhausted": True,
            },
        },
        request_only=True,
    ),
    OpenApiExample(
        "Void hand 2",
        value={
            "event_id": "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f",
            "expected_seq": 4,
            "type": "hand_voided",
            "payload": {"hand": 2, "reason": "dealt 11 cards"},
        },
        request_only=True,
    ),
    OpenApiExample(
        "Amend hand 1 (same fields as hand_recorded, plus the hand number)",
        value={
            "event_id": "d4c3b2a1-f6e5-4d8c-9b0a-1f2e3d4c5b6a",
            "expected_seq": 5,
            "type": "hand_amended",
            "payload": {
                "hand": 1,
                "mode": "quick",
                "knocker": 0,
                "ending": "knock",
                "knocker_count": 5,
                "defender_count": 20,
                "reason": "miscounted",
            },
        },
        request_only=True,
    ),
    *move_examples(),
]


def _table(request, table_id, *, write: bool = False) -> tuple[Table, Role]:
    # A session-signed-in club member opens league tables without a key (CSRF is checked).
    # The API trusts only the header: session-held grants would open it to cross-site requests.
    table, role = selectors.table_for_digests(
        table_id=table_id, digests=header_digests(request), user=request.user
    )
    if write and role != Role.SCOREKEEPER:
        # A viewer may know the table exists; it still may not write to it.
        from rest_framework.exceptions import PermissionDenied

        if table.season_id is None:
            raise PermissionDenied("The viewer key can only read this table.")
        raise PermissionDenied(write_refusal(table))
    return table, role


class Throttled:
    throttle_classes = [CountedAnonThrottle, CountedUserThrottle]


class TableListCreateView(Throttled, ListAPIView):
    serializer_class = serializers.TableSerializer

    def get_queryset(self):
        return selectors.tables_for_digests(digests=header_digests(self.request))

    def get_serializer_context(self):
        context = super().get_serializer_context()
        digests = header_digests(self.request)
        context["roles"] = {
            t.id: table_role(t, digests=digests, user=self.request.user)
            for t in self.get_queryset()
        }
        return context

    @extend_schema(
        summary="List the tables your keys open",
        parameters=[LIST_KEY_PARAMETER],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        summary="Create a table",
        description="Creates the table and the first event of its log. The answer holds the "
        "scorekeeper key (keep it: it records) and the viewer key (share it: it only reads), "
        "once: the server keeps only their SHA-256 digests and can never show them again. "
        "The two links open the table's page in a browser with each role; they are join "
        "links, valid for 12 hours or until the match ends, whichever comes first.",
        request=serializers.TableCreateSerializer,
        responses={201: serializers.TableCreatedSerializer, 422: serializers.ErrorSerializer},
        examples=[
            OpenApiExample(
                "Classic Gin to 50",
                value={
                    "variant": "gin",
                    "players": ["Anna", "Bruno"],
                    "options": {"preset": "classic", "target": 50},
                },
                request_only=True,
            )
        ],
    )
    def post(self, request, *args, **kwargs):
        serializer = serializers.TableCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        table = services.table_create(
            variant=data["variant"],
            options=data["options"],
            players=data["players"],
            entered_by="api",
            user=request.user,
        )
        links = {
            role: request.build_absolute_uri(link_path(minted.secret))
            for role, minted in table_join_links(table).items()
        }
        body = serializers.TableCreatedSerializer(
            table, context={"links": links, "roles": {table.id: Role.SCOREKEEPER}}
        ).data
        return Response(body, status=status.HTTP_201_CREATED)


class TableDetailView(Throttled, APIView):
    @extend_schema(
        summary="Get a table",
        parameters=[KEY_PARAMETER],
        responses={200: serializers.TableSerializer, **ERRORS},
    )
    def get(self, request, table_id):
        table, role = _table(request, table_id)
        return Response(
            serializers.TableSerializer(table, context={"roles": {table.id: role}}).data
        )


class TableStateView(Throttled, APIView):
    @extend_schema(
        summary="Get a table's state: totals per seat, hands, winner, the hand in play",
        description="The log replayed: running totals per seat (in seat order), every hand "
        "with its result, the original entry and each correction, the match winner, who "
        "deals, and the hand being played move by move: whose turn, the stock, the discard "
        "top, the melds on the table and each hand's size.",
        parameters=[KEY_PARAMETER],
        responses={200: serializers.TableStateSerializer, **ERRORS},
    )
    def get(self, request, table_id):
        table, _role = _table(request, table_id)
        return Response(selectors.table_state(table=table))


class TableEventsView(Throttled, APIView):
    @extend_schema(
        summary="List a table's events",
        parameters=[KEY_PARAMETER, serializers.EventsQuerySerializer],
        responses={
            200: serializers.EventSerializer(many=True),
            400: OpenApiResponse(
                serializers.ErrorSerializer,
                description="`after` is not a whole number from 0 to 999999999.",
            ),
            **ERRORS,
        },
    )
    def get(self, request, table_id):
        table, _role = _table(request, table_id)
        query = serializers.EventsQuerySerializer(data=serializers.query_data(request.query_params))
        query.is_valid(raise_exception=True)
        events = selectors.table_events(table=table)
        if (after := query.validated_data.get("after")) is not None:
            events = events.filter(seq__gt=after)
        return Response(serializers.EventSerializer(events, many=True).data)

    @extend_schema(
        summary="Append an event to a table's log",
        description=(
            "The event is replayed on the table's current state. 201: stored. 200: this "
            "event_id was already stored (a retry); the stored event is returned and nothing "
            "is stored twice. 409: expected_seq is not the table's head (someone else recorded "
            "first); the body has the current head and state. 422: the event breaks a rule; "
            "the body names the rule (rule ID of docs/rules.md) and nothing is stored. "
            "The 201 and 200 answers hold the stored event, the table's head (seq, hash) and "
            "its totals, a few hundred bytes at any length of the log; the whole state (which "
            "grows with the log) only with ?include=state."
        ),
        parameters=[KEY_PARAMETER, serializers.AppendQuerySerializer],
        request=serializers.EventAppendSerializer,
        responses={
            201: serializers.AppendedSerializer,
            200: serializers.AppendedSerializer,
            400: serializers.ErrorSerializer,
            403: serializers.ErrorSerializer,
            409: serializers.ErrorSerializer,
            422: serializers.ErrorSerializer,
            **ERRORS,
        },
        examples=EVENT_EXAMPLES,
    )
    def post(self, request, table_id):
        table, _role = _table(request, table_id, write=True)
        query = serializers.AppendQuerySerializer(data=serializers.query_data(request.query_params))
        query.is_valid(raise_exception=True)
        serializer = serializers.EventAppendSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.event_append(
            table_id=table.id,
            event_id=data["event_id"],
            expected_seq=data["expected_seq"],
            event_type=data["type"],
            payload=data["payload"],
            entered_by=data["entered_by"] or "api",
            user=request.user,
        )
        body = {
            "event": serializers.EventSerializer(result.event).data,
            "head": {"seq": result.head_seq, "hash": result.head_hash},
            "totals": result.totals,
            "winner": result.winner,
            "finished": result.finished,
        }
        if query.validated_data.get("include") == "state":
            body["state"] = result.state
        return Response(
            body, status=status.HTTP_201_CREATED if result.created else status.HTTP_200_OK
        )

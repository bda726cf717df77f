"""Request and response shapes of the tables API (the OpenAPI schema is built from these)."""

import re

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from games.shared.clean_text import NAME_PATTERN
from games.shared.models import Variant
from games.tables.models import Event, Table
from scoring.events import APPENDABLE_TYPES
from scoring.variants.gin_options import BIG_GIN_PRESET as GIN_DEFAULT_PRESET
from scoring.variants.gin_options import BONUS_LIMITS as GIN_BONUS_LIMITS
from scoring.variants.gin_options import PRESETS as GIN_PRESETS

DIGITS = re.compile(r"[0-9]+")


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField(source="player.name")


class TableSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    role = serializers.SerializerMethodField(help_text="What the key you sent allows.")
    rematch_of = serializers.UUIDField(
        source="rematch_of_id",
        read_only=True,
        allow_null=True,
        help_text="The finished table this one is the rematch of, if any.",
    )
    rematch = serializers.SerializerMethodField(
        help_text="This finished table's rematch, once one of its phones has started it (one "
        "per table): the next match of the same players. Its keys are not this table's; its "
        "page opens to a phone that followed this table's page or joined with its links."
    )

    class Meta:
        model = Table
        fields = [
            "id",
            "variant",
            "preset",
            "options",
            "target",
            "status",
            "head_seq",
            "head_hash",
            "seats",
            "role",
            "rematch_of",
            "rematch",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_role(self, table: Table) -> str | None:
        roles = self.context.get("roles", {})
        return roles.get(table.id)

    @extend_schema_field(serializers.UUIDField(allow_null=True))
    def get_rematch(self, table: Table) -> str | None:
        try:
            return str(table.rematch.pk)
        except Table.DoesNotExist:  # none started yet
            return None


class TableCreatedSerializer(TableSerializer):
    # The keys exist only on the table just made (Table.keys_issue): this answer is the only
    # time anyone sees them.
    scorekeeper_key = serializers.CharField(read_only=True)
    viewer_key = serializers.CharField(read_only=True)
    scorekeeper_link = serializers.SerializerMethodField(
        help_text="A join link (12 hours, or until the match ends) that opens the page to record."
    )
    viewer_link = serializers.SerializerMethodField(
        help_text="A join link (12 hours, or until the match ends) that opens the page to watch."
    )

    class Meta(TableSerializer.Meta):
        fields = [
            *TableSerializer.Meta.fields,
            "scorekeeper_key",
            "viewer_key",
            "scorekeeper_link",
            "viewer_link",
        ]
        read_only_fields = fields

    def get_scorekeeper_link(self, table: Table) -> str:
        return self.context["links"]["scorekeeper"]

    def get_viewer_link(self, table: Table) -> str:
        return self.context["links"]["viewer"]


def _gin_option_schema(key: str, value: object) -> dict:
    """Return the schema of one Gin option, read from the engine's own presets and bounds."""
    if isinstance(value, bool):
        return {"type": "boolean"}
    low = 1 if key == "target" else 0
    return {"type": "integer", "minimum": low, **_gin_bonus_bound(key)}


def _gin_bonus_bound(key: str) -> dict:
    return {"maximum": GIN_BONUS_LIMITS[key]} if key in GIN_BONUS_LIMITS else {}


# The table options as the engine reads them (docs/rules.md, "Table options"): Gin's keys
# named one by one, since its presets and American scoring have many; the other games' keys
# are free-form, each game refusing with its rule what it does not take (a 422).
TABLE_OPTIONS_SCHEMA = {
    "type": "object",
    "description": "The game's options (docs/rules.md, Table options); a preset is a named "
    "set of them, and the keys given change it. Gin: preset big_gin, classic, american, "
    "oklahoma or hollywood; the bonuses gin_bonus, undercut_bonus, big_gin_bonus, "
    "box_bonus, game_bonus; the switches big_gin, undercut_on_tie, shutout, oklahoma (each "
    "hand then names its upcard), spade_double (needs oklahoma), hollywood (three games on "
    "one sheet), no_rediscard, wall; target. The other games' keys: see docs/rules.md.",
    "properties": {
        "preset": {"type": "string", "enum": list(GIN_PRESETS)},
        **{
            key: _gin_option_schema(key, value)
            for key, value in GIN_PRESETS[GIN_DEFAULT_PRESET].items()
        },
    },
    "propertyNames": {"pattern": NAME_PATTERN},
    "additionalProperties": {"$ref": "#/components/schemas/CleanValue"},
    "example": {"preset": "oklahoma", "target": 150},
}


class TextOnlyField(serializers.CharField):
    """Text, and only text: DRF's own field takes a number as its digits, where the schema's
    "string" (which schemathesis holds the API to) refuses it."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


@extend_schema_field(TABLE_OPTIONS_SCHEMA)
class TableOptionsField(serializers.DictField):
    """A table's options: any JSON object, the engine judging each key (a 422 names the rule)."""


class TableCreateSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=Variant.choices)
    players = serializers.ListField(child=TextOnlyField(max_length=40), min_length=2, max_length=6)
    options = TableOptionsField(required=False, default=dict)


class EventSerializer(serializers.ModelSerializer):
    class Meta:
        model = Event
        fields = [
            "seq",
            "event_id",
            "type",
            "payload",
            "schema_version",
            "entered_by",
            "created_at",
            "prev_hash",
            "hash",
        ]
        read_only_fields = fields


def query_data(query_params) -> dict:
    """Return a query string as its serializer reads it, strictly: an empty value is a value
    (a form's empty field would count as left out), and a name given twice is a list, which
    a field that takes one value refuses."""
    return {name: vals[0] if len(vals) == 1 else vals for name, vals in query_params.lists()}


class WholeNumberField(serializers.IntegerField):
    """A whole number written as digits only, as the schema's "integer" says: DRF's own
    field also takes "1.0", " 1", "+1", "1_000" and other scripts' digits."""

    def to_internal_value(self, data):
        if isinstance(data, str) and not DIGITS.fullmatch(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class EventsQuerySerializer(serializers.Serializer):
    # A seq is a PositiveIntegerField; games.shared.numbers reads no more than nine digits.
    after = WholeNumberField(
        required=False,
        min_value=0,
        max_value=999_999_999,
        help_text="Only events with a seq greater than this.",
    )


class EventAppendSerializer(serializers.Serializer):
    event_id = serializers.UUIDField(
        help_text="Made by the client (UUID4). Sending the same event again returns the stored "
        "one with HTTP 200 and stores nothing twice."
    )
    expected_seq = serializers.IntegerField(
        min_value=0,
        help_text="The table's head_seq the client last saw; a different head answers 409.",
    )
    type = serializers.ChoiceField(choices=APPENDABLE_TYPES)
    payload = serializers.DictField(help_text="The event's data; see the examples per type.")
    entered_by = serializers.CharField(
        max_length=40,
        required=False,
        default="",
        help_text="Who is recording, as shown in the history (e.g. 'Anna's phone').",
    )


class HandSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seq = serializers.IntegerField()
    voided = serializers.BooleanField()
    played = serializers.BooleanField(help_text="Recorded move by move (else as one entry).")
    amended = serializers.BooleanField()
    result = serializers.DictField(allow_null=True)
    original = serializers.DictField()
    corrections = serializers.ListField(child=serializers.DictField())


class TableStateSerializer(serializers.Serializer):
    variant = serializers.CharField()
    options = serializers.DictField()
    seats = serializers.ListField(child=serializers.CharField())
    head_seq = serializers.IntegerField()
    totals = serializers.ListField(child=serializers.IntegerField(), help_text="Per seat.")
    winner = serializers.IntegerField(allow_null=True, help_text="Seat of the match winner.")
    finished = serializers.BooleanField()
    hands = HandSerializer(many=True)
    dealer = serializers.IntegerField(help_text="Seat dealing the hand in play, or the next.")
    turn = serializers.IntegerField(
        allow_null=True, help_text="Seat to move in the hand played move by move (else null)."
    )
    play = serializers.DictField(
        allow_null=True,
        help_text="The hand played move by move: phase, turn, stock, discard_top, table "
        "(melds with their owner seat), hands (count and known cards per seat); null between "
        "hands.",
    )
    match = serializers.DictField(
        required=False,
        help_text="Rummy40, Ramino, Knock Rummy: totals with end-of-match bonuses, winners, loser.",
    )
    adjustments = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="A tournament director's adjustments of the totals (NIGHT-ADJUST), each with "
        "its seq, seat, points and reason; present only where there are some. The totals "
        "include them.",
    )


class AppendQuerySerializer(serializers.Serializer):
    include = serializers.ChoiceField(
        choices=["state"],
        required=False,
        help_text="state: add the whole state at the head to the answer (it grows with the log).",
    )


class HeadSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The table's head_seq: send it as expected_seq next.")
    hash = serializers.CharField(help_text="The hash of the event at the head.")


class AppendedSerializer(serializers.Serializer):
    """An append's answer: the same few hundred bytes at any length of the log."""

    event = EventSerializer(help_text="The stored event.")
    head = HeadSerializer(help_text="The table's head after it (a retry: the head now).")
    totals = serializers.ListField(
        child=serializers.IntegerField(), help_text="Per seat, at the head."
    )
    winner = serializers.IntegerField(allow_null=True, help_text="Seat of the match winner.")
    finished = serializers.BooleanField()
    state = TableStateSerializer(
        required=False,
        help_text="The whole state at the head, only with ?include=state (it grows with the "
        "log: GET .../state/ gives the same).",
    )


# What a refused field holds: its messages, or (a list or a nested object) the same per item.
_FIELD_ERRORS = {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "object"}]}}


@extend_schema_field(
    {"type": "object", "additionalProperties": {"anyOf": [_FIELD_ERRORS, {"type": "object"}]}}
)
class FieldErrorsField(serializers.DictField):
    """Each refused field (or a JSON path) with what is wrong in it."""


class DistinctListField(serializers.ListField):
    """A list whose items are all different (the schema says uniqueItems)."""

    distinct = True
    default_error_messages = {"not_distinct": _("The items must all be different.")}

    def to_internal_value(self, data):
        items = super().to_internal_value(data)
        if len(set(items)) != len(items):
            self.fail("not_distinct")
        return items


class ViolationSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="docs/rules.md rule ID, e.g. GIN-KNOCK.")
    rule_url = serializers.URLField(help_text="The rule's entry on the rules page.")
    code = serializers.CharField()
    message = serializers.CharField(help_text="In the request's language (Accept-Language).")
    params = serializers.DictField()


@extend_schema_serializer(many=False)
class ErrorSerializer(serializers.Serializer):
    error = serializers.CharField()
    detail = serializers.CharField()
    violations = ViolationSerializer(many=True, required=False)
    head_seq = serializers.IntegerField(required=False)
    head_hash = serializers.CharField(required=False)
    state = TableStateSerializer(required=False)
    # A 400: each field (a JSON path for "bad_text") with what is wrong in it.
    fields = FieldErrorsField(required=False)


class SeasonTableCreateSerializer(serializers.Serializer):
    players = DistinctListField(
        # Player ids are bigints: a bigger number is no id, and is refused before the query.
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        min_length=2,
        max_length=6,
        help_text="The club's player ids, in seat order; as many as the league's tables seat.",
        error_messages={"not_distinct": _("Choose a different player for every seat.")},
    )
    practice = serializers.BooleanField(
        required=False, default=False, help_text="A practice table never counts in standings."
    )


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Shared by players still tied (1, 2, 2, 4).")
    player = serializers.IntegerField(help_text="The club's player id.")
    name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    win_rate = serializers.FloatField()
    hands_played = serializers.IntegerField()
    hands_won = serializers.IntegerField()
    points_for = serializers.FloatField(help_text="In the game's own terms (see the docs).")
    points_against = serializers.FloatField()
    points_difference = serializers.FloatField()
    average_for = serializers.FloatField()
    average_against = serializers.FloatField()
    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text="The game's own counts, e.g. gins."
    )
    rating = serializers.FloatField(
        allow_null=True, help_text="openskill conservative rating (mu - 3 sigma) in the league."
    )
    tiebreak = serializers.CharField(
        allow_null=True, help_text="The tie-breaker that placed this row above the next."
    )


class SeasonStandingsSerializer(serializers.Serializer):
    season = serializers.IntegerField()
    league = serializers.CharField()
    variant = serializers.CharField()
    tiebreakers = serializers.ListField(child=serializers.CharField())
    lower_is_better = serializers.BooleanField(help_text="Penalty points (Rummy40).")
    matches = serializers.IntegerField(help_text="Finished, counted matches.")
    computed_at = serializers.DateTimeField(allow_null=True)
    up_to_date = serializers.BooleanField(
        help_text="False while a match that finished or was corrected is being recomputed."
    )
    rows = StandingRowSerializer(many=True)

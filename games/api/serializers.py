"""Request and response shapes of the tables API (the OpenAPI schema is built from these)."""

import re

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from games.shared.clean_text import NAME_PATTERN
from games.shared.models import game_choices
from games.tables.models import Event, Table
from scoring.events import APPENDABLE_TYPES
from scoring.game import BOOL, CHOICE, OptionSpec
from scoring.variants import GAMES

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


def _option_schema(specs: list[OptionSpec]) -> dict:
    """Return the schema of one option key, from every game that has it (GameRules.options):
    its type, its choices where they are names, and the widest bounds the games take."""
    if all(spec.kind == BOOL for spec in specs):
        return {"type": "boolean"}
    choices = [value for spec in specs for value in spec.choices]
    if choices and all(isinstance(value, str) for value in choices):
        return {"type": "string", "enum": list(dict.fromkeys(choices))}
    lows = [min(spec.choices) if spec.kind == CHOICE else spec.low for spec in specs]
    highs = [max(spec.choices) if spec.kind == CHOICE else spec.high for spec in specs]
    schema = {"type": "integer", "minimum": min(lows)}
    if all(highs):  # a game with no most leaves the key unbounded
        schema["maximum"] = max(highs)
    return schema


def _options_schemas() -> dict[str, dict]:
    by_key: dict[str, list[OptionSpec]] = {}
    for game in GAMES.values():
        for spec in game.options:
            by_key.setdefault(spec.key, []).append(spec)
    return {key: _option_schema(specs) for key, specs in by_key.items()}


def _games_keys() -> str:
    return "; ".join(
        f"{key}: {', '.join(spec.key for spec in game.options)}" for key, game in GAMES.items()
    )


# The table options as the engine reads them (docs/rules.md, "Table options"), named from
# every game's GameRules: a key two games share takes the widest of their bounds, and each
# game refuses with its rule what it does not take (a 422).
TABLE_OPTIONS_SCHEMA = {
    "type": "object",
    "description": "The game's options (docs/rules.md, Table options); a preset is a named "
    "set of them, and the keys given change it. Each game's keys: "
    + _games_keys()
    + ". Gin: oklahoma makes each hand name its upcard, spade_double needs oklahoma, "
    "hollywood scores three games on one sheet.",
    "properties": _options_schemas(),
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
    variant = serializers.ChoiceField(choices=game_choices())
    players = serializers.ListField(child=TextOnlyField(max_length=40), min_length=2, max_length=6)
    options = TableOptionsField(required=False, default=dict)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The games as registered now, not when this module was imported: a game registered
        # late (the tests' stub game) is offered too, in the requests and the schema.
        self.fields["variant"].choices = game_choices()


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
    totals = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Per seat, each seat's score as the rules give it: the hands in force with "
        "the match's re-entries (S40-REENTRY), end-of-match bonuses (KR-MATCH, GIN-GAME) and "
        "the director's adjustments (NIGHT-ADJUST).",
    )
    hand_totals = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Per seat, the hands' points alone; present only where they differ from totals.",
    )
    sides = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        required=False,
        help_text="Where partners score as one (Burraco's pairs, partners across): the seats "
        "of each side, e.g. [[0, 2], [1, 3]]. Each partner's totals are the side's.",
    )
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
        help_text="Every game but Gin's older presets: totals with the match's items (end-of-match "
        "bonuses, re-entries), winners, loser; a match played by elimination (Scala 40) adds "
        "out (the seats out of it) and, once over, places.",
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
        child=serializers.IntegerField(),
        help_text="Per seat, at the head: the score as the rules give it (as the state's totals).",
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

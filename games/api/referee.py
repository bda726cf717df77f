"""The referee API: ask the rules engine about cards, with no table and no login.

Each endpoint validates the request's shape, asks ``scoring.referee`` one question and
answers with the verdict. A verdict that says "illegal" is a 200 answer (`valid: false`,
with the rules broken); a request the engine cannot read (an unknown card, more copies of a
card than the decks hold, a wrong number of cards) is a 400 naming the card and position.
"""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.rules.text import rule_title, violation_dict
from games.shared.errors import violations_body
from games.shared.models import game_choices
from games.shared.throttles import CountedScopedThrottle
from scoring import referee
from scoring.errors import RuleViolation

# The games' keys and names, as the table API names them (one enum in the schema).
VARIANTS = game_choices()  # the schema's first reading; each request reads the registry again
# The API is for programs: one notation, whatever the caller's language, so a request means the
# same thing from every client. The pages read cards in the reader's language (in Italian 7C is
# the 7 of cuori); the API never does.
CARDS_HELP = (
    "Cards in the card notation of rule CARD-3, always with the English letters whatever the "
    "Accept-Language: 7S 10H QD AC (S spades, H hearts, D diamonds, C clubs), jokers JK "
    "(declared: JK=4C). The Italian letters the web pages read (C cuori, Q quadri, F fiori, "
    "P picche) are not read here: 7C is the 7 of clubs."
)


class AskSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANTS)
    preset = serializers.CharField(
        required=False,
        max_length=20,
        help_text="Gin: big_gin, classic, american, oklahoma, hollywood.",
    )
    options = serializers.DictField(
        required=False, default=dict, help_text="Option keys (docs/rules.md)."
    )
    players = serializers.IntegerField(
        required=False, min_value=2, max_value=6, help_text="Decides the deck (CARD-2)."
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The games as registered now, not when this module was imported (a game registered
        # late, as the tests' stub game, is asked about too).
        self.fields["variant"].choices = game_choices()


class MeldAsk(AskSerializer):
    cards = serializers.CharField(max_length=200, help_text=CARDS_HELP)


class HandAsk(AskSerializer):
    cards = serializers.CharField(max_length=300, help_text=CARDS_HELP)
    opened = serializers.BooleanField(
        required=False, default=False, help_text="Has the player already opened this hand?"
    )


class OpeningAsk(AskSerializer):
    melds = serializers.ListField(
        child=serializers.CharField(max_length=200), min_length=1, max_length=10
    )
    total = serializers.IntegerField(
        required=False,
        min_value=-1_000_000,
        max_value=1_000_000,
        help_text="Canasta (CAN-OPEN-1): the side's total before the hand, which sets the "
        "first meld's minimum (0 if left out).",
    )


class LayoffAsk(AskSerializer):
    melds = serializers.ListField(
        child=serializers.CharField(max_length=200),
        min_length=1,
        max_length=20,
        help_text="The melds on the table, one string each.",
    )
    cards = serializers.CharField(max_length=300, help_text=CARDS_HELP)


class RearrangementAsk(AskSerializer):
    before = serializers.ListField(child=serializers.CharField(max_length=200), max_length=30)
    after = serializers.ListField(child=serializers.CharField(max_length=200), max_length=30)
    hand = serializers.CharField(max_length=300, allow_blank=True, help_text=CARDS_HELP)


class PlayerEnd(serializers.Serializer):
    name = serializers.CharField(max_length=40)
    hand = serializers.CharField(max_length=300, allow_blank=True, required=False, default="")
    melded = serializers.CharField(max_length=300, allow_blank=True, required=False, default="")
    knocked = serializers.BooleanField(required=False, default=False)
    went_out = serializers.BooleanField(required=False, default=False)
    hand_closed = serializers.BooleanField(required=False, default=False)
    opening_penalty = serializers.IntegerField(required=False, default=0, min_value=0, max_value=9)


class ScoreAsk(AskSerializer):
    stock_exhausted = serializers.BooleanField(required=False, default=False)
    upcard = serializers.CharField(
        required=False,
        max_length=4,
        help_text="Gin at an Oklahoma table (GIN-OKLAHOMA): the card turned up at the deal, "
        "which sets the knock limit (a spade doubles the hand where spades double).",
    )
    players = PlayerEnd(many=True, min_length=2, max_length=6)  # type: ignore[assignment]
    # A game entered one sheet a side (Burraco's pairs) is scored from its sides' sheets,
    # which the game's own reader checks field by field, naming each; ``players`` then
    # names the seats only.
    mode = serializers.ChoiceField(
        choices=["sheet", "cards"],
        required=False,
        help_text="A game entered one sheet a side (Burraco): 'sheet' (each side's figures)"
        " or 'cards' (each side's melds and its partners' hands).",
    )
    pairs = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        max_length=6,
        help_text="A game entered one sheet a side (Burraco): each side's sheet, the first"
        " seat's side first: melded, pulito, sporco, semipulito, closed, pozzetto, in_hand"
        " (mode 'sheet'), or melds, hands, closed, pozzetto (mode 'cards').",
    )


class ViolationOut(serializers.Serializer):
    rule = serializers.CharField()
    rule_url = serializers.URLField(help_text="The rule's entry on the rules page.")
    code = serializers.CharField()
    message = serializers.CharField()
    params = serializers.DictField()


class RuleOut(serializers.Serializer):
    rule = serializers.CharField()
    title = serializers.CharField()


class VerdictOut(serializers.Serializer):
    valid = serializers.BooleanField(required=False)
    violations = ViolationOut(many=True, required=False)
    rules = RuleOut(many=True, required=False)


class BadRequestOut(serializers.Serializer):
    error = serializers.CharField()
    detail = serializers.CharField()
    violations = ViolationOut(many=True, required=False)
    fields = serializers.DictField(required=False)


def _render(value, request=None, options=None):
    """Turn the engine's answer into JSON, sentences in the request's language; rule titles
    name the numbers the question's ``options`` chose."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "violations":
                out[key] = [violation_dict(v, request) for v in item]
            elif key == "rules":
                out[key] = [{"rule": r, "title": str(rule_title(r, options))} for r in item]
            else:
                out[key] = _render(item, request, options)
        return out
    if isinstance(value, list | tuple):
        return [_render(v, request, options) for v in value]
    return value


class RefereeView(APIView):
    """Base: parse with ``ask``, answer ``question``; no login, throttled per client."""

    authentication_classes: list = []
    permission_classes: list = []
    throttle_classes = [CountedScopedThrottle]
    throttle_scope = "referee"
    ask: type[serializers.Serializer]
    question: str

    def post(self, request):
        serializer = self.ask(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            answer = referee.answer(self.question, serializer.validated_data)
        except RuleViolation as exc:
            body = violations_body(exc.violations, request, code="bad_input", status=400)
            return Response(body.as_dict(), status=body.status)
        return Response(_render(answer, request, referee.table_options(serializer.validated_data)))


def _schema(summary, ask, examples, description=""):
    return extend_schema(
        summary=summary,
        description=description,
        request=ask,
        responses={
            200: VerdictOut,
            400: OpenApiResponse(BadRequestOut, description="Unknown card, too many copies…"),
            # 413, 415 and 429 as every API view answers them (games.api.schema).
        },
        examples=[OpenApiExample(name, value=value, request_only=True) for name, value in examples],
        tags=["referee"],
    )


class MeldView(RefereeView):
    ask, question = MeldAsk, "meld"

    @_schema(
        "Is this meld legal?",
        MeldAsk,
        [
            ("Rummy40: Q-K-A of spades", {"variant": "rummy40", "cards": "QS KS AS"}),
            ("Gin: Q-K-A is not a run", {"variant": "gin", "cards": "QS KS AS"}),
            ("Ramino: a declared joker", {"variant": "ramino", "cards": "7S 8S JK=9S"}),
            ("Scala 40: one joker a meld", {"variant": "scala40", "cards": "7S JK JK"}),
        ],
        "Answers `valid`, the `kind` (set or run), its opening `value` (VALUE rule: ace 1 low, "
        "11 high or in a set; a joker as the card it stands for), `jokers` (position → card it "
        "stands for) and the rules applied; or `valid: false` with the violations.",
    )
    def post(self, request):
        return super().post(request)


class HandView(RefereeView):
    ask, question = HandAsk, "hand"

    @_schema(
        "What is this hand's best arrangement and count?",
        HandAsk,
        [
            ("Gin: can I knock?", {"variant": "gin", "cards": "AS 2S 3S 4C 5C 6C 7H 8H 9H KD"}),
            (
                "Ramino: can I go out?",
                {"variant": "ramino", "cards": "7S 8S 9S 4H 4D 4C KH QH JH 2C JK 5D 6D 7D"},
            ),
        ],
        "The arrangement leaving the least value unmelded (`deadwood`), the `melds`, the "
        "`unmelded` cards, and per game `can_knock`, `gin`, `big_gin`, `can_go_out`, "
        "`best_opening` (fields that do not apply to the game are omitted).",
    )
    def post(self, request):
        return super().post(request)


class OpeningView(RefereeView):
    ask, question = OpeningAsk, "opening"

    @_schema(
        "Does this opening reach the minimum?",
        OpeningAsk,
        [
            ("Rummy40 at 40", {"variant": "rummy40", "melds": ["QS KS AS", "7H 7C 7D"]}),
            ("Scala 40 short of 40", {"variant": "scala40", "melds": ["2S 3S 4S", "5H 5C 5D"]}),
            (
                "Canasta, a side on 1600",
                {"variant": "canasta", "melds": ["KS KD KC 2H", "AC AD AS"], "total": 1600},
            ),
        ],
        "The melds' total `value` against the table's `minimum` (R40-OPEN, RAM-OPEN, S40-OPEN; "
        "Canasta's by the side's `total` before the hand, CAN-OPEN-1).",
    )
    def post(self, request):
        return super().post(request)


class LayoffView(RefereeView):
    ask, question = LayoffAsk, "layoff"

    @_schema(
        "Where can these cards be laid off?",
        LayoffAsk,
        [("Gin defender", {"variant": "gin", "melds": ["7S 8S 9S"], "cards": "10S JS 2D"})],
        "The best layoffs onto the given melds (GIN-LAYOFF, R40-ADD, RAM-ADD), the cards left "
        "and their count.",
    )
    def post(self, request):
        return super().post(request)


class RearrangementView(RefereeView):
    ask, question = RearrangementAsk, "rearrangement"

    @_schema(
        "Is this Knock Rummy table rearrangement legal?",
        RearrangementAsk,
        [
            (
                "Split a run and reuse a joker",
                {
                    "variant": "knock_rummy",
                    "before": ["4S 5S 6S 7S", "9H 9D JK=9C"],
                    "after": ["4S 5S 6S", "7S 8S JK=9S", "9H 9D 9C"],
                    "hand": "8S 9C 2D",
                },
            )
        ],
        "Every violation of KR-MELDING, KR-MANIP and KR-JOKER the move commits.",
    )
    def post(self, request):
        return super().post(request)


# The score question's examples in the API docs, one a game's way of ending a hand.
SCORE_EXAMPLES = [
    (
        "Gin: the knocker's 10 cards against the defender's",
        {
            "variant": "gin",
            "players": [
                {"name": "A", "hand": "9C 9S 9H 9D 4C 4S 4H 3C 3S 3H", "knocked": True},
                {"name": "B", "hand": "6C AH AS 2S 5D 6D 7D KC KS KH"},
            ],
        },
    ),
    (
        "Ramino: A goes out",
        {
            "variant": "ramino",
            "players": [
                {"name": "A", "hand": "", "melded": "7S 8S 9S", "went_out": True},
                {"name": "B", "hand": "KH QH 5C"},
                {"name": "C", "hand": "JK 2D"},
            ],
        },
    ),
    (
        "Gin at Oklahoma: the Q♠ upcard lets A knock with 10 and doubles the hand",
        {
            "variant": "gin",
            "preset": "oklahoma",
            "upcard": "QS",
            "players": [
                {"name": "A", "hand": "7S 8S 9S KC KH KD 2C 3C 4C 5H", "knocked": True},
                {"name": "B", "hand": "5S 6S 10S JS KS 8C 8H 8D QH 2D"},
            ],
        },
    ),
    (
        "Burraco: one sheet a pair; the first closes with a burraco pulito",
        {
            "variant": "burraco",
            "players": [{"name": "Anna"}, {"name": "Bruno"}, {"name": "Carla"}, {"name": "Dario"}],
            "mode": "sheet",
            "pairs": [
                {"melded": 235, "pulito": 1, "closed": True, "pozzetto": True, "in_hand": 0},
                {"melded": 120, "pozzetto": True, "in_hand": 45},
            ],
        },
    ),
    (
        "Scala 40: A closes in hand, doubling the others",
        {
            "variant": "scala40",
            "players": [
                {
                    "name": "A",
                    "hand": "",
                    "melded": "7S 8S 9S",
                    "went_out": True,
                    "hand_closed": True,
                },
                {"name": "B", "hand": "KH QH 5C"},
            ],
        },
    ),
]


class ScoreView(RefereeView):
    ask, question = ScoreAsk, "score"

    @_schema(
        "What does this hand score?",
        ScoreAsk,
        SCORE_EXAMPLES,
        "Points each player gets for this hand in the game's own terms (gained/lost for "
        "Ramino, penalty points for Rummy40 and Scala 40, points won for Gin and Knock Rummy), "
        "with every "
        "bonus and penalty itemised by rule; or `valid: false` for an illegal end. At an "
        "Oklahoma table, `upcard` is the card turned up at the deal (GIN-OKLAHOMA): a 400 "
        "without it.",
    )
    def post(self, request):
        return super().post(request)

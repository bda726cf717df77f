"""The review of a finished hand, in the API: its view and the shape of its answer.

The answer is ``HandReview.to_dict()`` (scoring/review/model.py), read through the same
selector as the review page (games/tables/review.py: worked out once, kept in the cache);
the serializers below only describe it for the OpenAPI schema. Reading a review needs what
reading the table needs, and changes nothing.
"""

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.views import APIView

from games.api.examples import review_example
from games.api.serializers import ErrorSerializer
from games.api.tables import KEY_PARAMETER, Throttled, _table
from games.tables import review as reviews
from scoring.events import HAND_STARTED, MOVE_TYPES
from scoring.play import state as phases
from scoring.review import CARDS, CHANCE_KINDS, DISCARD, DRAW, MELDING, PLAYED, POINTS

CARD = "A card in the notation of CARD-3 (e.g. 10H, QS); a joker is JK."
MELD = "A meld's cards in order, each joker with the card it stands for (JK=9C)."
COUNT = "The game's count of the cards kept (HandReview.count_rule: Gin's deadwood, else the "
COUNT += "points no meld of the player's, nor a table meld they may add to, would take)."
# The largest hand number the path takes: as the other positions of a table's log.
MOST_HANDS = 999_999_999


def _cards(help_text: str = CARD, **kwargs) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.CharField(help_text=CARD), help_text=help_text, **kwargs
    )


def _melds(help_text: str) -> serializers.ListField:
    return serializers.ListField(child=_cards(MELD), help_text=help_text)


def _seat(help_text: str, **kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, help_text=help_text, **kwargs)


class SeatViewSerializer(serializers.Serializer):
    seat = _seat("The seat whose hand this is.")
    count = serializers.IntegerField(help_text="How many cards the seat holds, as the log says.")
    cards = _cards("The cards the whole log names, in hindsight, for that moment.")
    unknown = serializers.IntegerField(help_text="How many more it holds that no one can know.")
    opened = serializers.BooleanField()
    shown = serializers.BooleanField(help_text="Laid open at the end (a knock, the hands shown).")


class TableMeldSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="As moves name it, from 1.")
    owner = _seat("The seat that laid it.")
    kind = serializers.CharField(help_text="run or set.")
    cards = _cards(MELD)


class StepSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="0: after the deal; then one per standing move.")
    seq = serializers.IntegerField(help_text="The move's place in the table's log.")
    move = serializers.ChoiceField(choices=[HAND_STARTED, *MOVE_TYPES], help_text="Its type.")
    seat = _seat("Who moved (null: the deal, the hands shown).", allow_null=True)
    cards = _cards("The cards the move put in play or took, in hindsight.")
    source = serializers.ChoiceField(choices=["stock", "discard"], allow_null=True)
    turn = serializers.IntegerField(allow_null=True, help_text="The turn (TurnReview.number).")
    to_move = _seat("Whose turn it is after it (null once the hand is over).", allow_null=True)
    phase = serializers.ChoiceField(
        choices=[phases.FIRST, phases.DRAW, phases.PLAY, phases.FINAL, phases.SHOW, phases.DONE]
    )
    hands = SeatViewSerializer(
        many=True,
        help_text="The hands that changed since the step before (every seat's at step 0), "
        "each with its seat: a seat not listed holds what it held at the step before.",
    )
    table = TableMeldSerializer(
        many=True,
        help_text="The melds new or changed since the step before (all of them at step 0); "
        "a meld not listed is as it was.",
    )
    table_count = serializers.IntegerField(
        min_value=0, help_text="How many melds the table holds: those past it are gone."
    )
    discard_top = serializers.CharField(allow_null=True, help_text=CARD)
    discard_count = serializers.IntegerField()
    stock = serializers.IntegerField()


class DrawReviewSerializer(serializers.Serializer):
    source = serializers.ChoiceField(choices=["stock", "discard"])
    card = serializers.CharField(help_text="The card taken.")
    other = serializers.CharField(help_text="The other source's card.")
    left = serializers.IntegerField(help_text=COUNT + " After the best discard.")
    other_left = serializers.IntegerField(help_text="The same, had the other card been taken.")
    lost = serializers.IntegerField(help_text="Points lost by the choice (0: none).")
    rule = serializers.CharField()


class DiscardReviewSerializer(serializers.Serializer):
    card = serializers.CharField(allow_null=True, help_text="null: out without a discard.")
    left = serializers.IntegerField(help_text=COUNT)
    best = _cards("The discards that leave the least.")
    best_left = serializers.IntegerField()
    lost = serializers.IntegerField(help_text="left - best_left (0 when among the best).")
    rule = serializers.CharField()
    unmelded = serializers.IntegerField(help_text="Cards kept that no meld takes.")
    best_unmelded = serializers.IntegerField()
    opening = serializers.IntegerField(allow_null=True, help_text="The opening kept in hand.")
    best_opening = serializers.IntegerField(allow_null=True)


class MeldingReviewSerializer(serializers.Serializer):
    left = serializers.IntegerField(help_text="Points left in hand after the turn.")
    best_left = serializers.IntegerField(help_text="The least its cards could leave.")
    lost = serializers.IntegerField()
    step = serializers.IntegerField(help_text="The best moment of the turn.")
    rule = serializers.CharField()


class ChanceSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(CHANCE_KINDS))
    seat = _seat("Who missed it (fed: who discarded).")
    turn = serializers.IntegerField()
    step = serializers.IntegerField()
    rule = serializers.CharField()
    points = serializers.IntegerField(
        allow_null=True,
        help_text="At stake (null: unknown). For a chance that ends the hand (knock, "
        "all_melded, all_melded_no_discard, out), the swing: what the player's score less "
        "the opponents' (added up) would have gained over the hand as scored, turned round "
        "where lower is better.",
    )
    cards = _cards("The chance's cards.")
    melds = _melds("An opening's or a way out's melds.")
    scores = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="What the hand would have scored, seat by seat, had it ended there.",
    )
    hindsight = serializers.BooleanField(help_text="scores is worked out in hindsight.")
    by = _seat("fed: who picked the card up.", allow_null=True)


class TurnReviewSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="From 1.")
    seat = _seat("Whose turn.")
    first_step = serializers.IntegerField()
    last_step = serializers.IntegerField()
    known = serializers.BooleanField(help_text="false: not weighed (cards no one can know).")
    unknown = serializers.IntegerField()
    held = serializers.IntegerField(allow_null=True, help_text="Value of the cards in hand.")
    left = serializers.IntegerField(allow_null=True, help_text=COUNT)
    draw = DrawReviewSerializer(allow_null=True)
    discard = DiscardReviewSerializer(allow_null=True)
    melding = MeldingReviewSerializer(allow_null=True)
    chances = ChanceSerializer(many=True)


class LayoffSerializer(serializers.Serializer):
    card = serializers.CharField(help_text=CARD)
    meld = serializers.IntegerField(help_text="A number into the end's table, from 1.")


class EndSeatSerializer(serializers.Serializer):
    seat = _seat("The seat.")
    cards = _cards("Its cards at the end (null: never shown).", allow_null=True)
    count = serializers.IntegerField(allow_null=True, help_text="As scored.")
    best = serializers.IntegerField(allow_null=True, help_text="The least they could count.")
    melds = _melds("Their best arrangement.")
    deadwood = _cards("The cards no meld takes.")
    layoffs = LayoffSerializer(many=True)
    layoffs_made = serializers.BooleanField(help_text="Laid by the scoring; false: missed.")


class EndReviewSerializer(serializers.Serializer):
    ending = serializers.CharField(allow_null=True)
    ender = _seat("Who ended the hand.", allow_null=True)
    rule = serializers.CharField(help_text="The layoff rule.")
    seats = EndSeatSerializer(many=True)
    table = _melds("The melds layoffs go on.")
    table_known = serializers.BooleanField(help_text="false: melded cards arranged (by cards).")


class CostSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    step = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=[DISCARD, DRAW, MELDING, *CHANCE_KINDS])
    rule = serializers.CharField()
    points = serializers.IntegerField(help_text="Points at stake.")


class ChartPointSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    step = serializers.IntegerField()
    held = serializers.IntegerField(allow_null=True)
    left = serializers.IntegerField(allow_null=True, help_text=COUNT)


class PlayerSummarySerializer(serializers.Serializer):
    seat = _seat("The seat.")
    name = serializers.CharField()
    lost = serializers.IntegerField(help_text="The weighings' points lost (chances apart).")
    costs = CostSerializer(many=True, help_text="Decisions that cost points, worst first.")
    chart = ChartPointSerializer(many=True, help_text="After each of the player's turns.")
    turns = serializers.IntegerField()
    unknown_turns = serializers.IntegerField()
    decisions = serializers.IntegerField(
        min_value=0, help_text="Decisions weighed: draws, discards, Knock Rummy's meldings."
    )
    matched = serializers.IntegerField(min_value=0, help_text="Of those, the ones that lost none.")
    accuracy = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        max_value=100,
        help_text="matched / decisions in whole percent, rounded half up (null: none weighed).",
    )


class HandReviewSerializer(serializers.Serializer):
    variant = serializers.CharField()
    seats = serializers.ListField(child=serializers.CharField(), help_text="Names, in order.")
    number = serializers.IntegerField(help_text="The hand's number in the history.")
    kind = serializers.ChoiceField(
        choices=[PLAYED, CARDS, POINTS],
        help_text="played: move by move; cards: entered by the cards held; points: by counts.",
    )
    points = serializers.ListField(child=serializers.IntegerField(), help_text="As scored.")
    count_rule = serializers.CharField(help_text="The rule of the game's count.")
    lower_is_better = serializers.BooleanField()
    voided = serializers.BooleanField(help_text="A later event voided the hand.")
    amended = serializers.BooleanField(help_text="A later event amended it.")
    complete = serializers.BooleanField(help_text="Every turn known in hindsight.")
    dealer = _seat("The dealer (null: entered whole).", allow_null=True)
    steps = StepSerializer(
        many=True,
        help_text="The replay stepper; empty unless played. Step 0 is whole; each later one "
        "says what changed since the step before (hands, table, table_count).",
    )
    turns = TurnReviewSerializer(many=True)
    chances = ChanceSerializer(many=True, help_text="Every missed chance, in order.")
    end = EndReviewSerializer(allow_null=True)
    players = PlayerSummarySerializer(many=True)


NUMBER_PARAMETER = OpenApiParameter(
    name="number",
    type={"type": "integer", "minimum": 1, "maximum": MOST_HANDS},
    location=OpenApiParameter.PATH,
    description="The hand's number in the table's history, from 1.",
)


class TableHandReviewView(Throttled, APIView):
    @extend_schema(
        summary="Review a finished hand: every move again, and where points were lost",
        description="For a hand played move by move: a stepper (each seat's cards at each "
        "step as the whole log shows them in hindsight, unknown ones counted, never guessed; "
        "the melds with their owners; the discard pile's top; whose turn), each turn weighed "
        "by the game's count (the draw, the discard against the best, a Knock Rummy melding), "
        "the chances missed (knock, gin, out, open, layoff, joker swap, a discard that fed the "
        "next player: `scores` in hindsight), the end of the hand (a Gin defender's layoffs) "
        "and each player's costliest decisions, worst first, their accuracy and a chart series. "
        "A chance that ends the hand is worth the swing (the player's score less the "
        "opponents'). Steps after the deal carry only what changed. For a hand "
        "entered by cards, what the cards show (`end`); by counts or points, only the score. "
        "A hand voided or amended later is reviewed as it was played (`voided`, `amended`). "
        "Worked out once and kept; reading it changes nothing.",
        parameters=[KEY_PARAMETER, NUMBER_PARAMETER],
        responses={
            200: HandReviewSerializer,
            404: OpenApiResponse(
                ErrorSerializer,
                description="No table with this id opens with the key, or the table has no "
                "finished hand of this number.",
            ),
        },
        examples=[
            OpenApiExample(
                "Gin, a hand played move by move",
                description="Gin's reviewed hand (scoring/variants/gin/samples.py), as reviewed.",
                value=review_example(),
                response_only=True,
            )
        ],
    )
    def get(self, request, table_id, number):
        table, _role = _table(request, table_id)
        try:
            review = reviews.hand_review(table=table, number=number)
        except reviews.NoSuchHand:
            raise NotFound(
                _("This table has no finished hand %(number)s.") % {"number": number}
            ) from None
        # The review's JSON as kept, not parsed and written again (games/tables/review.py).
        return HttpResponse(review.json(), content_type="application/json")

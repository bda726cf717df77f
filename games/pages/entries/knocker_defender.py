"""A hand entered by its ender and the other player (KNOCKER_DEFENDER_ENTRY: Gin's): counts
or both hands' cards."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from games.pages.entries.base import EntryForm
from games.pages.forms.cards import CardChoiceField, CardsChoiceField, CardsField
from games.pages.forms.tables import CARD_CHOICES
from games.rules.own_words import own_word
from scoring.game import NAMES_UPCARD
from scoring.variants import GAMES

# How each ending a game may offer is named (GameRules.hand_endings).
# The endings this entry knows the meaning of: a knock gives the ender's count and the
# defender's; at the wall no one ended the hand and no count is given. Any other ending a
# game offers is a way out the defender's count alone scores (the game's words name it).
KNOCK, WALL = "knock", "wall"
ENDING_LABELS = {KNOCK: _("Knock"), WALL: _("Wall (no score)")}


class KnockerDefenderForm(EntryForm):
    """Record a two-player hand by its ender and the other (KNOCKER_DEFENDER_ENTRY): who
    ended it and how (the endings the game's options offer), then the two counts or the two
    hands' cards, and the card turned up at the deal where the options make it count."""

    template = "entries/knocker_defender.html"

    mode = forms.ChoiceField(
        label=_("Entry"),
        choices=[("quick", _("Counts")), ("cards", _("Cards"))],
        initial="quick",
        widget=forms.RadioSelect,
    )
    knocker = forms.TypedChoiceField(
        label=_("Who ended the hand?"), coerce=int, required=False, widget=forms.RadioSelect
    )
    ending = forms.ChoiceField(label=_("How?"), required=False, widget=forms.RadioSelect)
    knocker_count = forms.IntegerField(
        label=_("Knocker's deadwood"), min_value=0, max_value=98, required=False
    )
    defender_count = forms.IntegerField(
        label=_("Defender's deadwood, after lay-offs"), min_value=0, max_value=98, required=False
    )
    knocker_cards = CardsChoiceField(
        label=_("Knocker's cards"),
        choices=CARD_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    knocker_typed = CardsField(label=_("or type them"), required=False, max_length=200)
    defender_cards = CardsChoiceField(
        label=_("Defender's cards"),
        choices=CARD_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    defender_typed = CardsField(label=_("or type them"), required=False, max_length=200)
    # The card turned up at the deal, where the table's switch has it set the knock limit.
    upcard = CardChoiceField(
        label=_("Upcard at the deal"), choices=[("", "—"), *CARD_CHOICES], required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        seats, options, variant = self.seats, self.table_options, self.variant
        game = GAMES[variant]
        self.takes_upcard = game.takes_upcard(options)
        upcard_switch = game.switch_meaning(NAMES_UPCARD)
        self.upcard_rule = upcard_switch.rule if upcard_switch else ""
        typed = self.typed_options
        self.kept = game.hand_size(typed, len(seats))
        self.fields["knocker"].choices = list(enumerate(seats))
        endings = game.hand_endings(typed)
        self.fields["ending"].choices = [
            (e, own_word(game, "endings", e) or ENDING_LABELS.get(e, e)) for e in endings
        ]
        # The endings the ender shows every card for, the drawn one too (no discard).
        self.without_discard = tuple(e for e in endings if e in game.endings_without_discard)

    @property
    def picker_hands(self) -> list[tuple[str, int, str, str]]:
        """Return the one card picker's hands: field, cards it holds, its name, and the
        cards it holds by the ending chosen where that changes them (JSON, for app.js)."""
        by_ending = json.dumps({ending: self.kept + 1 for ending in self.without_discard})
        return [
            ("knocker_cards", self.kept, _("Knocker"), by_ending),
            ("defender_cards", self.kept, _("Defender"), "{}"),
        ]

    @property
    def knocker_hint(self) -> str:
        """Say how many cards the ender shows, with every card where an ending allows it."""
        if self.without_discard:
            return _(
                "The %(kept)s cards kept after the discard (all %(all)s going out without one)."
            ) % {
                "kept": self.kept,
                "all": self.kept + 1,
            }
        return _("The %(kept)s cards kept after the discard.") % {"kept": self.kept}

    @property
    def defender_hint(self) -> str:
        """Say how many cards the other player shows."""
        return _("The defender's %(kept)s cards.") % {"kept": self.kept}

    def clean(self):
        data = super().clean()
        ending = data.get("ending")
        if data.get("mode") == "quick":
            if not ending:
                self.add_error("ending", _("Choose how the hand ended."))
            if ending != WALL and data.get("knocker") is None:
                self.add_error("knocker", _("Choose who ended the hand."))
            # A knock gives both counts; any other way out but the wall, the defender's.
            counted = (
                ("knocker_count", "defender_count")
                if ending == KNOCK
                else ("defender_count",)
                if ending and ending != WALL
                else ()
            )
            for name in counted:
                if data.get(name) is None:
                    self.add_error(name, _("Enter the count."))
        elif data.get("knocker") is None:
            self.add_error("knocker", _("Choose who ended the hand."))
        if self.takes_upcard and ending != WALL and not data.get("upcard"):
            self.add_error("upcard", _("Choose the upcard: at this table it sets the knock."))
        return data

    def payload(self) -> dict:
        """Return the hand_recorded payload these fields describe."""
        data = self.cleaned_data
        # Only a table whose switch names the upcard takes it; a wall may leave it out.
        upcard = {"upcard": data["upcard"]} if self.takes_upcard and data.get("upcard") else {}
        if data["mode"] == "quick":
            if data["ending"] == WALL:
                return {"mode": "quick", "ending": WALL, **upcard}
            return {
                "mode": "quick",
                "knocker": data["knocker"],
                "ending": data["ending"],
                "knocker_count": 0 if data["ending"] != KNOCK else data["knocker_count"],
                "defender_count": data["defender_count"],
                **upcard,
            }
        payload = {
            "mode": "cards",
            "knocker": data["knocker"],
            "knocker_cards": " ".join([*data["knocker_cards"], data["knocker_typed"]]).strip(),
            "defender_cards": " ".join([*data["defender_cards"], data["defender_typed"]]).strip(),
        }
        if data.get("ending") and data["ending"] != WALL:
            payload["ending"] = data["ending"]
        return {**payload, **upcard}

    @classmethod
    def initial_from_payload(cls, payload: dict) -> dict:
        """Return form values that re-enter a recorded hand (for an amendment)."""
        initial = {k: payload[k] for k in ("mode", "knocker", "ending", "upcard") if k in payload}
        if payload.get("mode") == "cards":
            initial["knocker_typed"] = payload.get("knocker_cards", "")
            initial["defender_typed"] = payload.get("defender_cards", "")
        else:
            for name in ("knocker_count", "defender_count"):
                if name in payload:
                    initial[name] = payload[name]
        return initial


class KnockerDefenderAmendForm(KnockerDefenderForm):
    reason = forms.CharField(label=_("Why?"), required=False, max_length=200)

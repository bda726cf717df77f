"""A hand entered seat by seat (SEATS_ENTRY): each seat's cards or points, and the flags its
game asks of a seat."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.pages.entries.base import EntryForm
from games.pages.forms.cards import CardsField
from games.rules.game_words import flag_label
from scoring.game import MELDED_POINTS
from scoring.variants import GAMES


class SeatsHandForm(EntryForm):
    """Record a hand seat by seat (a game whose hand entry is SEATS_ENTRY): every seat's
    cards or points, and the flags its game takes (GameRules.seat_flags). A seat out of the
    match (``out``, the state's match) sits the hand out: the form says so and asks nothing."""

    template = "entries/seats.html"
    mode = forms.ChoiceField(
        label=_("Entry"),
        choices=[("cards", _("Cards")), ("points", _("Points in hand"))],
        initial="cards",
        required=False,
        widget=forms.RadioSelect,
    )
    stock_exhausted = forms.BooleanField(label=_("The stock ran out"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        seats, options, variant = self.seats, self.table_options, self.variant
        game = GAMES[variant]
        self.flags = tuple(
            flag for flag in game.seat_flags if not flag.from_match and flag.asked(options)
        )
        self.match_flags = tuple(flag for flag in game.seat_flags if flag.from_match)
        # Casino scoring pays the winner for what they melded (RAM-OPT-CASINO).
        self.takes_melded_points = game.switched_on(MELDED_POINTS, options)
        for i in range(len(seats)):
            self.fields[f"p{i}_hand"] = CardsField(
                label=_("Cards still in hand"), required=False, max_length=300
            )
            self.fields[f"p{i}_melded"] = CardsField(
                label=_("Cards melded this hand"), required=False, max_length=300
            )
            # The fast way at a noisy table: each hand's value instead of its cards.
            self.fields[f"p{i}_points"] = forms.IntegerField(
                label=_("Points in hand"), min_value=0, max_value=500, required=False
            )
            if self.takes_melded_points:
                self.fields[f"p{i}_melded_points"] = forms.IntegerField(
                    label=_("Points melded this hand"), min_value=0, max_value=500, required=False
                )
            for flag in self.flags:
                label = flag_label(flag)
                if flag.most:
                    field = forms.IntegerField(
                        label=label, min_value=0, max_value=flag.most, required=False
                    )
                else:
                    field = forms.BooleanField(label=label, required=False)
                self.fields[f"p{i}_{flag.key}"] = field

    def seat_rows(self) -> list[dict]:
        rows = []
        for i, name in enumerate(self.seats):
            if i in self.out:
                # Nothing to ask of a seat out of the match: the match says it sits out.
                # Each flag the match sets goes with the entry too (a hidden field the form
                # does not read: it knows the seats out), for the phone's provisional totals.
                sits = [
                    (flag_label(flag), flag.rule, f"p{i}_{flag.key}") for flag in self.match_flags
                ]
                rows.append({"index": i, "name": name, "out": sits})
                continue
            rows.append(
                {
                    "index": i,
                    "name": name,
                    "out": [],
                    "hand": self[f"p{i}_hand"],
                    "melded": self[f"p{i}_melded"],
                    "points": self[f"p{i}_points"],
                    "melded_points": (
                        self[f"p{i}_melded_points"] if self.takes_melded_points else None
                    ),
                    "flags": [(self[f"p{i}_{flag.key}"], flag.rule) for flag in self.flags],
                }
            )
        return rows

    def clean(self):
        data = super().clean()
        if data.get("mode") == "points":
            # An empty box is a number not typed yet, not "holds nothing": only the player who
            # went out may leave it empty (the engine reads that as 0).
            for i, name in enumerate(self.seats):
                field = f"p{i}_points"
                if i in self.out or data.get(f"p{i}_went_out"):
                    continue
                if field in data and data[field] is None:
                    self.add_error(
                        field,
                        _("Enter the points %(name)s holds (0 only for who went out).")
                        % {"name": name},
                    )
        return data

    def payload(self) -> dict:
        """Return the hand_recorded payload these fields describe."""
        data = self.cleaned_data
        mode = data.get("mode") or "cards"
        by_points = mode == "points"
        players = []
        for i in range(len(self.seats)):
            if i in self.out:
                blank = {"points": 0} if by_points else {"hand": "", "melded": ""}
                players.append({**blank, **{flag.key: True for flag in self.match_flags}})
                continue
            if by_points:
                seat = {"points": data[f"p{i}_points"] or 0}
                if self.takes_melded_points and data[f"p{i}_melded_points"]:
                    seat["melded_points"] = data[f"p{i}_melded_points"]
            else:
                seat = {"hand": data[f"p{i}_hand"].strip(), "melded": data[f"p{i}_melded"].strip()}
            for flag in self.flags:
                seat[flag.key] = data[f"p{i}_{flag.key}"] or (0 if flag.most else False)
            players.append(seat)
        return {
            "mode": mode,
            "players": players,
            "stock_exhausted": data["stock_exhausted"],
        }

    @classmethod
    def initial_from_payload(cls, payload: dict) -> dict:
        """Return form values that re-enter a recorded hand (for an amendment)."""
        initial = {
            "mode": payload.get("mode", "cards"),
            "stock_exhausted": payload.get("stock_exhausted", False),
        }
        for i, seat in enumerate(payload.get("players", [])):
            for key, value in seat.items():
                initial[f"p{i}_{key}"] = " ".join(value) if isinstance(value, list) else value
        return initial


class SeatsAmendForm(SeatsHandForm):
    reason = forms.CharField(label=_("Why?"), required=False, max_length=200)

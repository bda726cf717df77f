"""What every way of entering a hand shares: the table it is drawn for."""

from games.pages.forms.tables import EventForm
from scoring.variants import GAMES


class EntryForm(EventForm):
    """A hand entry's form, drawn for a table: its seats' names, its options, its game's key
    and the seats out of the match (those a match by elimination sits out)."""

    def __init__(
        self,
        *args,
        seats: list[str],
        options: dict,
        variant: str,
        out=(),
        typed_options=None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.seats, self.table_options, self.variant = seats, options, variant
        self.out = tuple(seat for seat in out if 0 <= seat < len(seats))
        # The options as the rules read them, when the caller holds them (the board's, the
        # engine's); else parsed once, if a form asks for them.
        self._typed_options = typed_options

    @property
    def typed_options(self):
        """Return the table's options as its game's rules read them."""
        if self._typed_options is None:
            game = GAMES[self.variant]
            self._typed_options = game.options_from_dict(self.table_options, len(self.seats))
        return self._typed_options

    def rebuild_kwargs(self, head_seq: int) -> dict:
        """Return what it takes to draw this form again against another head."""
        return {
            "seats": self.seats,
            "options": self.table_options,
            "variant": self.variant,
            "out": self.out,
            "typed_options": self._typed_options,
            "head_seq": head_seq,
        }

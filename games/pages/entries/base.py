"""What every way of entering a hand shares: the table it is drawn for."""

from games.pages.forms.tables import EventForm


class EntryForm(EventForm):
    """A hand entry's form, drawn for a table: its seats' names, its options, its game's key
    and the seats out of the match (those a match by elimination sits out)."""

    def __init__(self, *args, seats: list[str], options: dict, variant: str, out=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.seats, self.table_options, self.variant = seats, options, variant
        self.out = tuple(seat for seat in out if 0 <= seat < len(seats))

    def rebuild_kwargs(self, head_seq: int) -> dict:
        """Return what it takes to draw this form again against another head."""
        return {
            "seats": self.seats,
            "options": self.table_options,
            "variant": self.variant,
            "out": self.out,
            "head_seq": head_seq,
        }

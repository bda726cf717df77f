"""Who recorded an entry, as a table's history says it (games/pages/tables.py writes it)."""

from games.tables import selectors
from games.tables.models import Table
from games.tables.selectors import UNNAMED_PHONE

PHONE_NAME = "phone_name"
PHONE_NUMBERS = "phone_numbers"


def recorder(request, table: Table | None = None) -> str:
    """Say who recorded, as the history shows it: the name this phone was given, else the
    signed-in member (always the member at a league table: the service sees to it), else
    this phone's number on the table."""
    if name := request.session.get(PHONE_NAME):
        return name
    if request.user.is_authenticated:
        return request.user.get_username()
    return _phone_number(request, table) if table is not None else ""


def _phone_number(request, table: Table) -> str:
    """An unnamed phone is "phone 1", "phone 2"... at each table, in the order the phones first
    recorded there, so that two phones' entries are told apart without naming either. The log
    keeps a marker, not a word: the history says it in its reader's language (the recorder
    filter)."""
    numbers = request.session.get(PHONE_NUMBERS, {})
    key = str(table.id)
    if key not in numbers:
        taken = selectors.table_unnamed_phones(table=table, prefix=UNNAMED_PHONE)
        numbers[key] = taken + 1
        request.session[PHONE_NUMBERS] = numbers
    return f"{UNNAMED_PHONE}{numbers[key]}"

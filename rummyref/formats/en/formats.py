"""English at a European table: Django's British formats (27/11/2026, 21:40), not its US ones."""

from django.conf.locale.en_GB.formats import *  # noqa: F403

# Card rooms keep the 24-hour clock: "21:40", not "9:40 p.m.".
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"

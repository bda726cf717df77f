"""Dates as the tables read them: day first and the 24-hour clock, in English as in Italian."""

import datetime

import pytest
from django.template import Context, Template
from django.utils import translation

WHEN = datetime.datetime(2026, 3, 4, 21, 40)


@pytest.mark.parametrize(
    ("language", "short_date", "short_datetime"),
    [("en", "04/03/2026", "04/03/2026 21:40"), ("it", "04/03/2026", "04/03/2026 21:40")],
)
def test_dates_are_day_first_on_the_24_hour_clock(language, short_date, short_datetime):
    page = Template('{{ when|date:"SHORT_DATE_FORMAT" }}|{{ when|date:"SHORT_DATETIME_FORMAT" }}')
    with translation.override(language):
        shown = page.render(Context({"when": WHEN}))
    assert shown == f"{short_date}|{short_datetime}"

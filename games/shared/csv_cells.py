"""Cells of the CSV files the app hands out: text no spreadsheet runs, numbers in machine form."""

from decimal import Decimal
from fractions import Fraction

# A spreadsheet reads a cell starting with one of these as a formula (CSV injection): such a
# text cell gets a leading single quote, as OWASP advises, and shows as the text it is.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    """Return a text cell that no spreadsheet runs as a formula."""
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def number_cell(value: int | float | str | Fraction) -> str:
    """Return a count or points (an int, a stored 2-decimal float, a fraction or an "n/d"
    string) in machine form: an integer when whole, else at most two decimals."""
    rounded = round(Fraction(str(value)), 2)
    if rounded.denominator == 1:
        return str(rounded.numerator)
    # The denominator divides 100, so the decimal is exact.
    return str(Decimal(rounded.numerator) / rounded.denominator)

"""Reading a table's options (docs/rules.md): the checks every game's options share."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring.errors import RuleViolation, Violation


def json_value(value: object) -> object:
    """Return the value if JSON holds it as it is, else its repr (for violation params)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return repr(value)


def is_int(value: object) -> bool:
    """Tell whether the value is a whole number (True is not a number of points)."""
    return isinstance(value, int) and not isinstance(value, bool)


def bad_option(option: str, value: object, expected: str) -> Violation:
    """Return the violation for an option value of the wrong kind or range."""
    return Violation(
        rule="OPTIONS",
        code="bad_value",
        message=f"Option {option!r} cannot be {value!r}: it takes {expected}.",
        params={"option": option, "value": json_value(value), "expected": expected},
    )


def read_options(data: object, known: Iterable[str], game: str) -> dict[str, Any]:
    """Return the options dict, refusing a non-mapping and every key the game lacks."""
    if not isinstance(data, Mapping):
        raise RuleViolation(bad_option("options", data, "a JSON object"))
    known = set(known)
    unknown = [
        Violation(
            rule="OPTIONS",
            code="unknown_option",
            message=f"{game} has no option {key!r}.",
            params={"option": json_value(key), "value": json_value(value)},
        )
        for key, value in data.items()
        if key not in known
    ]
    if unknown:
        raise RuleViolation(*unknown)
    return dict(data)


def kind_violations(
    options: object, bools: Iterable[str] = (), ints: Mapping[str, int] | None = None
) -> list[Violation]:
    """Return a violation for each option not true/false, or not a whole number >= its minimum."""
    violations = [
        bad_option(name, getattr(options, name), "true or false")
        for name in bools
        if not isinstance(getattr(options, name), bool)
    ]
    violations += [
        bad_option(name, getattr(options, name), f"a whole number, {low} or more")
        for name, low in (ints or {}).items()
        if not is_int(getattr(options, name)) or getattr(options, name) < low
    ]
    return violations

"""Typed readers for settings taken from the environment; a bad value stops start-up loudly."""

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str:
    """Return a string setting, or fail if it is missing and has no default."""
    value = os.environ.get(name)
    if value is None:
        if default is None:
            raise ImproperlyConfigured(f"Set the environment variable {name}.")
        return default
    return value


def env_bool(name: str, default: bool) -> bool:
    """Return a boolean setting written as 1/0, true/false, yes/no or on/off."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use 1 or 0.")


def _env_number(name: str, default, kind, what: str):
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return kind(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not {what}.") from None


def env_int(name: str, default: int) -> int:
    """Return an integer setting."""
    return _env_number(name, default, int, "an integer")


def env_float(name: str, default: float) -> float:
    """Return a number setting (seconds, say), which may have a fraction."""
    return _env_number(name, default, float, "a number")


def env_list(name: str, default: list[str]) -> list[str]:
    """Return a comma-separated list setting."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]

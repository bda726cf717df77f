"""Refusals every part raises and every page and API answers the same way."""

from collections.abc import Sequence

from django.core.exceptions import PermissionDenied

from scoring.errors import Violation


class EventRejected(Exception):
    """The event breaks a rule or is malformed; nothing was stored."""

    def __init__(self, violations: Sequence[Violation]):
        super().__init__("; ".join(v.message for v in violations))
        self.violations = tuple(violations)


class ActionRefused(PermissionDenied):
    """The user may not do this here (not a member, not an admin, closed); nothing changed."""

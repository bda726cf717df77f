"""Rule violations: every user-caused refusal of the engine, citing a rule ID of docs/rules.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Violation:
    """Describe one broken rule: its ID (docs/rules.md), a fallback message and JSON params."""

    rule: str
    message: str
    # The Django side translates by rule + code + params, so params hold only JSON values
    # (ints, strs, bools, lists of card strings); the message is the English fallback.
    params: Mapping[str, Any] = field(default_factory=dict)
    code: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict of this violation."""
        return {
            "rule": self.rule,
            "code": self.code,
            "message": self.message,
            "params": dict(self.params),
        }


class RuleViolation(Exception):
    """Refuse an input that breaks one or more rules."""

    violations: tuple[Violation, ...]

    def __init__(self, *violations: Violation) -> None:
        if not violations:
            raise TypeError("RuleViolation needs at least one Violation")
        # Passing the violations to Exception keeps the exception picklable (Celery, caches).
        super().__init__(*violations)
        self.violations = violations

    @property
    def rule(self) -> str:
        """Return the rule ID of the first violation."""
        return self.violations[0].rule

    def __str__(self) -> str:
        return " ".join(v.message for v in self.violations)


def refusal(rule: str, code: str, message: str, **params: Any) -> RuleViolation:
    """Return a RuleViolation of one violation, params given as keywords."""
    return RuleViolation(Violation(rule=rule, code=code, message=message, params=params))

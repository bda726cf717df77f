"""Refusals every part raises, and the one JSON body the pages and the API answer them with.

The body is the same for the same failure wherever it happens (the API, a page asked for
JSON by the offline outbox): ``{"error": CODE, "detail": SENTENCE, ...}``, the sentence in
the request's language, and beside them only what applies:

- ``rule_violation`` (422): a rule refuses the entry; ``violations`` lists each broken rule
  as ``{"rule", "rule_url", "code", "message", "params"}``; the referee's ``bad_input``
  (400) lists them the same way.
- ``conflict`` (409): another phone wrote first; ``head_seq``, ``head_hash`` and ``state``
  say where the table is now (send again with ``expected_seq`` = ``head_seq``).
- ``permission_denied`` (403): not allowed here (a key's role, a club's role, closed).
- ``invalid``: the form or request is not valid (a page's form 422, the API 400), with
  ``fields``: ``{field: [what is wrong, ...]}`` for the fields named; ``bad_text`` (400) a
  text with a character no text may hold, the same way.
- ``refused`` (400): a service refused it for another reason; ``not_found`` (404).

The status rides with the body (``ErrorBody.status``) but is not part of it.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext

from games.rules.text import violation_dict
from scoring.errors import Violation


class EventRejected(Exception):
    """The event breaks a rule or is malformed; nothing was stored."""

    def __init__(self, violations: Sequence[Violation]):
        super().__init__("; ".join(v.message for v in violations))
        self.violations = tuple(violations)


class ActionRefused(PermissionDenied):
    """The user may not do this here (not a member, not an admin, closed); nothing changed."""


class AppendConflict(Exception):
    """The client's ``expected_seq`` is not the table's head: someone else wrote first."""

    def __init__(self, *, head_seq: int, head_hash: str, state: dict[str, Any]):
        super().__init__(f"The table is at event {head_seq}.")
        self.head_seq = head_seq
        self.head_hash = head_hash
        self.state = state


@dataclass(frozen=True)
class ErrorBody:
    """One error as JSON answers it (the module's docstring says the keys), and its status."""

    code: str
    detail: str
    status: int
    violations: tuple[dict[str, Any], ...] = ()
    # Each field's errors: a list of sentences, or a nested serializer's own mapping.
    fields: Mapping[str, Any] = field(default_factory=dict)
    head_seq: int | None = None
    head_hash: str | None = None
    state: Mapping[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return the body: ``error`` and ``detail``, then only the keys that apply."""
        body: dict[str, Any] = {"error": self.code, "detail": self.detail}
        if self.violations:
            body["violations"] = list(self.violations)
        if self.fields:
            body["fields"] = dict(self.fields)
        if self.head_seq is not None:
            body.update(head_seq=self.head_seq, head_hash=self.head_hash, state=self.state)
        return body


def violations_body(
    violations: Sequence[Violation],
    request=None,
    *,
    code: str = "rule_violation",
    status: int = 422,
) -> ErrorBody:
    """Return a rule's refusal: every violation in words with its rule ID, and each as data
    (``rule_url`` absolute given the request)."""
    listed = tuple(violation_dict(v, request) for v in violations)
    said = (f"{v['message']} ({v['rule']})" if v["rule"] else v["message"] for v in listed)
    return ErrorBody(code, " ".join(said), status, violations=listed)


def invalid_body(
    detail: str, fields: Mapping[str, Any], *, code: str = "invalid", status: int = 422
) -> ErrorBody:
    """Return a form's or a request's refusal, with what is wrong in each field named."""
    return ErrorBody(code, detail or gettext("The request is not valid."), status, fields=fields)


def conflict_body(exc: AppendConflict) -> ErrorBody:
    """Return another phone's head, the table's state there, and how to send again."""
    detail = gettext(
        "Someone else just recorded on this table; the table is now at event %(seq)s. Check "
        "the latest state and send again with that expected_seq."
    ) % {"seq": exc.head_seq}
    return ErrorBody(
        "conflict",
        detail,
        409,
        head_seq=exc.head_seq,
        head_hash=exc.head_hash,
        state=exc.state,
    )


def error_body(exc: Exception, request=None) -> ErrorBody | None:
    """Return the body for a domain error (a rule's refusal, a conflict, a permission
    problem, a service's refusal); None for anything else."""
    if isinstance(exc, EventRejected):
        return violations_body(exc.violations, request)
    if isinstance(exc, AppendConflict):
        return conflict_body(exc)
    if isinstance(exc, ActionRefused):
        return ErrorBody("permission_denied", str(exc), 403)
    if isinstance(exc, ValidationError):
        return ErrorBody("refused", " ".join(exc.messages), 400)
    return None

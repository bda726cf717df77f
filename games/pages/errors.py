"""One answer for a domain error on every page, as the API has one (games/api/errors.py).

A service's refusal, a conflict with another phone, a permission problem: the same status
as the API gives it (422 a rule's refusal, 400 any other refusal, 409 a conflict, 403 not
allowed), and the same look wherever it happens. A full page load gets a page that says
it; an htmx request gets a small alert swapped into the slot of the form that sent it
(``<div id="FORM-ID-alert">``: the answer says where with HX-Retarget), so the message is
where the user is looking and what they typed stays in the form; a request that asks for
JSON (the offline outbox) gets ``{"ok": false, "error": {...}}``. Nothing is stored.

``DomainErrorMiddleware`` answers any such error a page view lets through; a view that
must answer one itself (a form drawn again with the error on it) calls ``error_answer``.
"""

from dataclasses import dataclass
from enum import Enum

from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.html import format_html_join, strip_tags
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy
from django_htmx.http import reswap, retarget

from games.rules.reference import refusal_html
from games.rules.text import violation_text
from games.shared.errors import ActionRefused, EventRejected
from games.tables.services import AppendConflict


class Kind(Enum):
    """What went wrong, with the status the API answers it with and the page's title."""

    RULE = (422, "rule_violation", gettext_lazy("Not by the rules"))
    INVALID = (422, "invalid", gettext_lazy("Not valid"))
    REFUSED = (400, "refused", gettext_lazy("Not done"))
    CONFLICT = (409, "conflict", gettext_lazy("Someone else was first"))
    FORBIDDEN = (403, "permission_denied", gettext_lazy("Not allowed"))

    def __init__(self, status: int, code: str, title):
        self.status, self.code, self.title = status, code, title


CONFLICT = gettext_lazy(
    "Someone else just recorded on this table. Check the history: if your entry is already "
    "there, you are done; otherwise send it again."
)


@dataclass(frozen=True)
class PageError:
    """One domain error as a page shows it: ``html`` is safe (a rule's ID is a link)."""

    kind: Kind
    message: str
    html: SafeString | str
    field: str = ""

    @property
    def status(self) -> int:
        return self.kind.status


def page_error(exc: Exception) -> PageError | None:
    """Return the page's reading of a domain error; None for anything else."""
    if isinstance(exc, EventRejected):
        texts = [(violation_text(v), v.rule) for v in exc.violations]
        return PageError(
            Kind.RULE,
            " ".join(f"{text} ({rule})" if rule else text for text, rule in texts),
            format_html_join(" ", "{}", ((refusal_html(t, r),) for t, r in texts)),
        )
    if isinstance(exc, AppendConflict):
        return PageError(Kind.CONFLICT, str(CONFLICT), str(CONFLICT))
    if isinstance(exc, ActionRefused):
        return PageError(Kind.FORBIDDEN, str(exc), str(exc))
    if isinstance(exc, ValidationError):
        message = " ".join(exc.messages)
        return PageError(Kind.REFUSED, message, message)
    return None


def form_error(form, *, rule: bool = False) -> PageError:
    """Return a form's errors as one refusal (422, as every page's form): a rule's when the
    service refused the entry with one (``add_errors`` put it on the form), else the form's
    own, with the first field that has one."""
    lines = [str(e) for e in form.non_field_errors()]
    field = ""
    for name, errors in form.errors.items():
        if name == "__all__":
            continue
        field = field or name
        lines.append(f"{form[name].label}: {' '.join(errors)}")
    html = format_html_join(" ", "{}", ((line,) for line in lines))
    plain = strip_tags(" ".join(lines))
    return PageError(Kind.RULE if rule else Kind.INVALID, plain, html, field=field)


def wants_json(request) -> bool:
    """The offline outbox asks for JSON: it reads answers, never markup."""
    return "application/json" in request.headers.get("Accept", "")


def alert_slot(request) -> tuple[str, str]:
    """Return where an htmx answer's alert goes (HX-Retarget, HX-Reswap): the alert slot of
    the form that sent the request, found by the form's id; a form without an id gets it
    at its top."""
    trigger = request.htmx.trigger if request.htmx else None
    if trigger:
        return f"#{trigger}-alert", "innerHTML"
    return "this", "afterbegin"


def in_alert_slot(request, response: HttpResponse) -> HttpResponse:
    """Send an htmx answer to the alert slot of the form that sent the request."""
    target, swap = alert_slot(request)
    return reswap(retarget(response, target), swap)


def error_answer(request, error: PageError, *, expected_seq: int | None = None) -> HttpResponse:
    """Answer ``error``: JSON, an alert for the form's slot (htmx), or a page."""
    if wants_json(request):
        body = {
            "ok": False,
            "error": {"code": error.kind.code, "message": error.message, "field": error.field},
        }
        if expected_seq is not None:
            body["expected_seq"] = expected_seq
        return JsonResponse(body, status=error.status)
    context = {"error": error, "title": error.kind.title}
    if request.htmx:
        response = render(request, "shared/_page_alert.html", context, status=error.status)
        return in_alert_slot(request, response)
    back = request.headers.get("Referer", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        context["back"] = back
    return render(request, "shared/error.html", context, status=error.status)


class DomainErrorMiddleware:
    """Answer the domain errors page views let through, all in one way (``error_answer``).

    The API never gets here: DRF answers its views' errors itself (games/api/errors.py).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        error = page_error(exception)
        return None if error is None else error_answer(request, error)

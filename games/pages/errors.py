"""One answer for a domain error on every page, and the API's body when JSON is asked for.

A service's refusal, a conflict with another phone, a permission problem: the same status
as the API gives it (422 a rule's refusal, 400 any other refusal, 409 a conflict, 403 not
allowed), and the same look wherever it happens. A full page load gets a page that says
it; an htmx request gets a small alert swapped into the slot of the form that sent it
(``<div id="FORM-ID-alert">``: the answer says where with HX-Retarget), so the message is
where the user is looking and what they typed stays in the form; a request that asks for
JSON (the offline outbox) gets the API's body for it (games/shared/errors.py). Nothing is
stored.

``DomainErrorMiddleware`` answers any such error a page view lets through; a view that
must answer one itself (a form drawn again with the error on it) calls ``error_answer``.
"""

from dataclasses import dataclass

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.html import format_html_join, strip_tags
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy
from django_htmx.http import reswap, retarget

from games.rules.reference import refusal_html
from games.rules.text import violation_text
from games.shared.errors import (
    AppendConflict,
    ErrorBody,
    EventRejected,
    error_body,
    invalid_body,
    violations_body,
)

# Each code's title on a page; the code and the status come with the error's body.
TITLES = {
    "rule_violation": gettext_lazy("Not by the rules"),
    "invalid": gettext_lazy("Not valid"),
    "refused": gettext_lazy("Not done"),
    "conflict": gettext_lazy("Someone else was first"),
    "permission_denied": gettext_lazy("Not allowed"),
}


CONFLICT = gettext_lazy(
    "Someone else just recorded on this table. Check the history: if your entry is already "
    "there, you are done; otherwise send it again."
)


@dataclass(frozen=True)
class PageError:
    """One domain error as a page shows it (``html`` is safe: a rule's ID is a link) and as
    a JSON answer says it (``body``, the API's, games/shared/errors.py)."""

    body: ErrorBody
    html: SafeString | str

    @property
    def code(self) -> str:
        return self.body.code

    @property
    def status(self) -> int:
        return self.body.status

    @property
    def title(self) -> str:
        return TITLES[self.body.code]


def page_error(exc: Exception, request=None) -> PageError | None:
    """Return the page's reading of a domain error; None for anything else."""
    body = error_body(exc, request)
    if body is None:
        return None
    if isinstance(exc, EventRejected):
        texts = [(violation_text(v), v.rule) for v in exc.violations]
        html = format_html_join(" ", "{}", ((refusal_html(t, r),) for t, r in texts))
        return PageError(body, html)
    if isinstance(exc, AppendConflict):
        return PageError(body, str(CONFLICT))
    return PageError(body, body.detail)


def form_error(form, *, rejected: EventRejected | None = None, request=None) -> PageError:
    """Return a form's errors as one refusal (422, as every page's form): a rule's when the
    service refused the entry (``rejected``, which ``add_errors`` put on the form in its
    words), else the form's own, with what is wrong in each field."""
    lines = [str(e) for e in form.non_field_errors()]
    fields = {}
    for name, errors in form.errors.items():
        if name == "__all__":
            continue
        fields[name] = list(errors)
        lines.append(f"{form[name].label}: {' '.join(errors)}")
    html = format_html_join(" ", "{}", ((line,) for line in lines))
    if rejected is not None:
        return PageError(violations_body(rejected.violations, request), html)
    return PageError(invalid_body(strip_tags(" ".join(lines)), fields), html)


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


def error_answer(request, error: PageError) -> HttpResponse:
    """Answer ``error``: its JSON body (as the API's), an alert for the form's slot (htmx),
    or a page."""
    if wants_json(request):
        return JsonResponse(error.body.as_dict(), status=error.status)
    context = {"error": error, "title": error.title}
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
        error = page_error(exception, request)
        return None if error is None else error_answer(request, error)

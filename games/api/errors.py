"""One JSON shape for every API error, and no error left to become a 500."""

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.api.parsers import BodyTooLarge
from games.rules.text import violation_dict
from games.shared.errors import ActionRefused, EventRejected
from games.tables.models import Table
from games.tables.services import AppendConflict


def exception_handler(exc, context):
    """Map domain errors to HTTP: 422 rule violation, 409 stale head, 404 unknown table."""
    if isinstance(exc, EventRejected):
        violations = [violation_dict(v, context.get("request")) for v in exc.violations]
        return Response(
            {
                "error": "rule_violation",
                "detail": violations[0]["message"] if violations else "",
                "violations": violations,
            },
            status=status.HTTP_422_UNPROCESSABLE_ENTITY,
        )
    if isinstance(exc, AppendConflict):
        return Response(
            {
                "error": "conflict",
                "detail": _(
                    "Someone else just recorded on this table; the table is now at event "
                    "%(seq)s. Check the latest state and send again with that expected_seq."
                )
                % {"seq": exc.head_seq},
                "head_seq": exc.head_seq,
                "head_hash": exc.head_hash,
                "state": exc.state,
            },
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, ActionRefused):
        # DRF would answer Django's PermissionDenied with a generic sentence; keep ours.
        return Response(
            {"error": "permission_denied", "detail": str(exc)}, status=status.HTTP_403_FORBIDDEN
        )
    if isinstance(exc, Table.DoesNotExist):
        return Response(
            {
                "error": "not_found",
                "detail": _("No table with this id opens with the key given in X-Table-Key."),
            },
            status=status.HTTP_404_NOT_FOUND,
        )
    if isinstance(exc, RequestDataTooBig):
        # Django refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE before any parser sees it.
        exc = BodyTooLarge()
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "error" not in response.data:
        detail = response.data.get("detail")
        fields = {k: v for k, v in response.data.items() if k != "detail"}
        response.data = {
            "error": getattr(exc, "default_code", "invalid"),
            "detail": str(detail) if detail else _("The request is not valid."),
            **({"fields": fields} if fields else {}),
        }
    return response


def not_found(request, exception):
    """Answer an address that matches no route: the API's JSON shape under /api/ (a client
    reads the error it expects, e.g. for a malformed id), Django's 404 page elsewhere."""
    if request.path.startswith("/api/"):
        body = {"error": "not_found", "detail": _("There is nothing at this address.")}
        return JsonResponse(body, status=status.HTTP_404_NOT_FOUND)
    return page_not_found(request, exception)

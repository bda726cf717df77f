"""The one error body (games/shared/errors.py) for every API error, none left a 500."""

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.api.parsers import BodyTooLarge
from games.shared.errors import ErrorBody, error_body, invalid_body
from games.tables.models import Table


def exception_handler(exc, context):
    """Answer every API error with the one body (games/shared/errors.py): 422 a rule's
    refusal, 409 a stale head, 403 not allowed, 404 an unknown table, DRF's own otherwise."""
    if isinstance(exc, Table.DoesNotExist):
        detail = _("No table with this id opens with the key given in X-Table-Key.")
        exc = NotFound(detail)
    elif isinstance(exc, RequestDataTooBig):
        # Django refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE before any parser sees it.
        exc = BodyTooLarge()
    body = error_body(exc, context.get("request"))
    if body is not None:
        return Response(body.as_dict(), status=body.status)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "error" not in response.data:
        detail = response.data.get("detail")
        fields = {k: v for k, v in response.data.items() if k != "detail"}
        code = getattr(exc, "default_code", "invalid")
        body = invalid_body(str(detail or ""), fields, code=code, status=response.status_code)
        response.data = body.as_dict()
    return response


def not_found(request, exception):
    """Answer an address that matches no route: the API's JSON shape under /api/ (a client
    reads the error it expects, e.g. for a malformed id), Django's 404 page elsewhere."""
    if request.path.startswith("/api/"):
        body = ErrorBody("not_found", _("There is nothing at this address."), 404)
        return JsonResponse(body.as_dict(), status=body.status)
    return page_not_found(request, exception)

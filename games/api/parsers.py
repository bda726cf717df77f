"""JSON bodies of bounded size and depth, and of clean text, refused in the API's own error
shape (games.shared.clean_text says what clean text is)."""

import json

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser, MultiPartParser

from games.shared.clean_text import Flaw, form_flaw, json_flaw

# No request the API takes nests deeper than a few levels (a hand's seats, a meld's cards).
MAX_DEPTH = 20


def _depth_within(value: object, limit: int) -> bool:
    """Say whether ``value`` nests no deeper than ``limit`` (iteratively: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return True


class BodyTooLarge(APIException):
    """The request body is larger than the API reads."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"

    def __init__(self):
        limit = settings.API_MAX_BODY
        super().__init__(_("The body is larger than %(limit)s bytes.") % {"limit": limit})


class BadText(APIException):
    """A text in the body holds a control character or a lone surrogate: the body names
    the field and the character's position, never the text."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "bad_text"

    def __init__(self, flaw: Flaw):
        super().__init__(flaw.api_body())


def _too_deep() -> ParseError:
    return ParseError(_("The body nests deeper than %(depth)s levels.") % {"depth": MAX_DEPTH})


class BoundedJSONParser(JSONParser):
    """Parse JSON no larger than API_MAX_BODY bytes, no deeper than MAX_DEPTH, of clean text."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.API_MAX_BODY
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise BodyTooLarge
        try:
            data = json.loads(raw.decode(settings.DEFAULT_CHARSET))
        except RecursionError:
            raise _too_deep() from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(_("The body is not valid JSON: %(error)s") % {"error": exc}) from None
        if not _depth_within(data, MAX_DEPTH):
            raise _too_deep()
        if flaw := json_flaw(data):
            raise BadText(flaw)
        return data


class CleanMultiPartParser(MultiPartParser):
    """Parse a multipart body whose field names, values and file names are clean text."""

    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        if flaw := form_flaw(parsed.data, parsed.files):
            raise BadText(flaw)
        return parsed

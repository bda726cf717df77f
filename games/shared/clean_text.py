"""Every text input is clean text: no NUL, no other control character, no lone surrogate.

Such characters break what comes after the request: PostgreSQL refuses NUL in text and
JSON, and a lone surrogate cannot be encoded as UTF-8, so hashing an event, storing it or
rendering an answer that names it fails with a 500. They are refused at the edge instead,
with a 400 that names the field and the character's position, never the text itself:

- JSON bodies of the API: its parser walks the parsed body (``json_flaw``).
- Query strings and form posts of every page and API view: the middleware (a path that
  holds a control character is no page's: a 404).

Values may hold tab, line feed and carriage return (a text area's own characters); names
(form fields, JSON keys, the path) may hold no control character at all. A surrogate pair
in JSON ("\\ud83c\\udfb4") is one character (🎴) once parsed, so only lone surrogates meet
the check.
"""

import re
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import unquote_to_bytes

from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.shared.errors import invalid_body

# C0 controls and the surrogate block. Text values keep tab, line feed and carriage return.
# Written as regex escapes, so the same ranges serve Python here and the OpenAPI schema.
_NAME_CONTROLS = r"\x00-\x1f"
_TEXT_CONTROLS = r"\x00-\x08\x0b\x0c\x0e-\x1f"
_SURROGATES = r"\ud800-\udfff"
_NOT_IN_NAMES = re.compile(f"[{_NAME_CONTROLS}{_SURROGATES}]")
_NOT_IN_TEXT = re.compile(f"[{_TEXT_CONTROLS}{_SURROGATES}]")

# Schema hints (games.api.schema): what clean text and clean names match, whole. A lone
# surrogate is no character, so schema tools (which read text as Unicode scalars) cannot
# even hold one: the patterns leave it out, and the schema says it in words.
TEXT_PATTERN = f"^[^{_TEXT_CONTROLS}]*$"
NAME_PATTERN = f"^[^{_NAME_CONTROLS}]*$"
# Clean text with something besides white space: what a text field that may not be blank
# takes (DRF trims white space before it checks).
FILLED_TEXT_PATTERN = f"^[^{_TEXT_CONTROLS}]*[^\\s{_TEXT_CONTROLS}][^{_TEXT_CONTROLS}]*$"

# A name longer than this is cut in answers that name it (a key may be any length).
LABEL_MAX = 40

# Where a flaw is when it is not in one named value: the JSON body itself, or a name.
BODY = "body"
QUERY = "query"
FORM = "form"


class Kind(StrEnum):
    CONTROL = "control"
    SURROGATE = "surrogate"
    ENCODING = "encoding"


@dataclass(frozen=True)
class Flaw:
    """Where a text input holds a character it may not hold (never the text itself)."""

    field: str  # a JSON path (payload.reason, players[0]), a form field's name, or the above
    position: int  # of the character in the value or name, from 1
    kind: Kind
    code: int | None = None  # the character (None: bytes that are not UTF-8)
    in_name: bool = False  # the flaw is in the name of a field within ``field``

    def message(self) -> str:
        """Say what is wrong, in the active language."""
        params = {"position": self.position, "code": f"U+{self.code or 0:04X}"}
        if self.in_name:
            texts = {
                Kind.CONTROL: _(
                    "Character %(position)s of a field's name is a control character "
                    "(%(code)s), which a name may not hold."
                ),
                Kind.SURROGATE: _(
                    "Character %(position)s of a field's name is a lone surrogate "
                    "(%(code)s), which is not a character."
                ),
                Kind.ENCODING: _("Character %(position)s of a field's name is not valid UTF-8."),
            }
        else:
            texts = {
                Kind.CONTROL: _(
                    "Character %(position)s is a control character (%(code)s), which text "
                    "may not hold."
                ),
                Kind.SURROGATE: _(
                    "Character %(position)s is a lone surrogate (%(code)s), which is not a "
                    "character."
                ),
                Kind.ENCODING: _("Character %(position)s is not valid UTF-8."),
            }
        return texts[self.kind] % params

    def detail(self) -> str:
        """Say which field holds what is wrong, and what it is."""
        return _("“%(field)s”: %(problem)s") % {"field": self.field, "problem": self.message()}

    def api_body(self) -> dict:
        """Return the one error body for this flaw (games/shared/errors.py), a 400."""
        fields = {self.field: [self.message()]}
        return invalid_body(self.detail(), fields, code="bad_text", status=400).as_dict()


class UncleanText(MultiPartParserError):
    """A multipart form body holds a flaw: a parse error, so the request's POST and FILES
    are left empty, and a 400 wherever it surfaces."""

    def __init__(self, flaw: Flaw):
        super().__init__(flaw.detail())
        self.flaw = flaw


def _label(name: str) -> str:
    return name if len(name) <= LABEL_MAX else name[:LABEL_MAX] + "…"


def text_flaw(text: str, *, field: str, name: bool = False) -> Flaw | None:
    """Return the first flaw in ``text`` (a field's name if ``name``), else None."""
    found = (_NOT_IN_NAMES if name else _NOT_IN_TEXT).search(text)
    if found is None:
        return None
    code = ord(found.group())
    kind = Kind.SURROGATE if 0xD800 <= code <= 0xDFFF else Kind.CONTROL
    return Flaw(field, found.start() + 1, kind, code, name)


def json_flaw(data: object) -> Flaw | None:
    """Return the first flaw in a parsed JSON body, in document order, else None.

    Iterative, so any depth the parser let through is walked without recursion.
    """
    stack: list[tuple[object, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if flaw := text_flaw(value, field=_json_path(path)):
                return flaw
        elif isinstance(value, dict):
            for key in value:
                if flaw := text_flaw(key, field=_json_path(path), name=True):
                    return flaw
            stack.extend((value[key], (*path, key)) for key in reversed(list(value)))
        elif isinstance(value, list):
            stack.extend((value[i], (*path, i)) for i in reversed(range(len(value))))
    return None


def _json_path(path: tuple[str | int, ...]) -> str:
    """Write a path as payload.players[1].hand; the whole body is ``body``."""
    written = ""
    for step in path:
        written += f"[{step}]" if isinstance(step, int) else f".{_label(step)}"
    return written.lstrip(".") or BODY


def _decoded(raw: bytes, *, field: str, name: bool) -> str | Flaw:
    """Decode one percent-encoded name or value as UTF-8, or say where it is not."""
    data = unquote_to_bytes(raw.replace(b"+", b" "))
    try:
        return data.decode()
    except UnicodeDecodeError as exc:
        position = len(data[: exc.start].decode()) + 1
        return Flaw(field, position, Kind.ENCODING, None, name)


def urlencoded_flaw(raw: bytes, *, container: str) -> Flaw | None:
    """Return the first flaw in a query string or a urlencoded body, else None.

    Read from the raw bytes: Django's own decoding turns bytes that are not UTF-8 (a lone
    surrogate sent as UTF-8 bytes among them) into U+FFFD, which would be stored silently.
    """
    for pair in raw.split(b"&"):
        raw_name, _equals, raw_value = pair.partition(b"=")
        name = _decoded(raw_name, field=container, name=True)
        if isinstance(name, Flaw):
            return name
        if flaw := text_flaw(name, field=container, name=True):
            return flaw
        field = _label(name) or container
        value = _decoded(raw_value, field=field, name=False)
        if isinstance(value, Flaw):
            return value
        if flaw := text_flaw(value, field=field):
            return flaw
    return None


def form_flaw(post, files) -> Flaw | None:
    """Return the first flaw in a parsed multipart body (its fields and file names)."""
    for name, values in post.lists():
        if flaw := text_flaw(name, field=FORM, name=True):
            return flaw
        for value in values:
            if flaw := text_flaw(value, field=_label(name)):
                return flaw
    for name, uploads in files.lists():
        if flaw := text_flaw(name, field=FORM, name=True):
            return flaw
        for upload in uploads:
            # Django drops unprintable characters from file names; this keeps it so.
            if flaw := text_flaw(upload.name or "", field=_label(name), name=True):
                return flaw
    return None


def _checked_parse(parse):
    """Wrap HttpRequest.parse_file_upload so a multipart body is checked as it is read."""

    def parse_file_upload(meta, post_data):
        post, files = parse(meta, post_data)
        if flaw := form_flaw(post, files):
            raise UncleanText(flaw)
        return post, files

    return parse_file_upload


def _raw_query(request) -> bytes:
    # WSGI hands the query string over as latin-1 text of its bytes (PEP 3333).
    query = request.META.get("QUERY_STRING", "")
    try:
        return query.encode("iso-8859-1")
    except UnicodeEncodeError:  # ASGI decodes it as UTF-8
        return query.encode(errors="surrogatepass")


def _is_api(view) -> bool:
    # Imported here: APIView reads the API's settings, whose JSON parser imports this module.
    from rest_framework.views import APIView

    # DRF's as_view() marks its views with their class; every API view is one.
    cls = getattr(view, "cls", None)
    return isinstance(cls, type) and issubclass(cls, APIView)


class CleanTextMiddleware:
    """Refuse a request whose query string or form body holds a flaw, before the view.

    Put before CsrfViewMiddleware, which reads the form body. A multipart body is not read
    here (a view that bounds its uploads must add its upload handler first): it is checked
    when it is read, and a flaw then surfaces from the view as UncleanText. A JSON body is
    the API parser's to check.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if text_flaw(request.path_info, field="path", name=True):
            raise Http404  # no page has such an address (the view would look it up)
        flaw = urlencoded_flaw(_raw_query(request), container=QUERY) or self._body_flaw(
            request, view
        )
        return None if flaw is None else _refusal(request, flaw, api=_is_api(view))

    def process_exception(self, request, exception):
        if not isinstance(exception, UncleanText):
            return None
        match = request.resolver_match
        return _refusal(request, exception.flaw, api=match is not None and _is_api(match.func))

    @staticmethod
    def _body_flaw(request, view) -> Flaw | None:
        if request.method != "POST":
            return None
        if request.content_type == "multipart/form-data":
            request.parse_file_upload = _checked_parse(request.parse_file_upload)
            if getattr(view, "csrf_exempt", False):
                return None
            try:
                request.POST  # noqa: B018 - CsrfViewMiddleware reads it next anyway
            except UncleanText as exc:
                return exc.flaw
            return None
        if request.content_type == "application/x-www-form-urlencoded":
            try:
                body = request.body
            except RequestDataTooBig:
                return None  # refused as before, where the body is read
            return urlencoded_flaw(body, container=FORM)
        return None


def _refusal(request, flaw: Flaw, *, api: bool):
    if api:
        return JsonResponse(flaw.api_body(), status=400, json_dumps_params={"ensure_ascii": False})
    template = "bad_text.html#message" if getattr(request, "htmx", False) else "bad_text.html"
    return render(request, template, {"flaw": flaw}, status=400)

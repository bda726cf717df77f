"""The OpenAPI schema states every bound the API applies, read from where it is applied.

drf-spectacular maps the serializers' own bounds (max_length, min_value, choices, required).
This AutoSchema adds the bounds that live elsewhere, so none is written twice:

- the clean-text rule of the API's parsers (games.shared.clean_text): every text of a request
  body matches TEXT_PATTERN (FILLED_TEXT_PATTERN where a field may not be blank) and every
  key NAME_PATTERN, in the fields and in free-form objects alike; a body's other keys are
  ignored, but they too must be clean;
- a file field's refusal of an empty file (minLength);
- the list bounds of nested serializers with ``many=True`` (min_length, max_length), which
  drf-spectacular leaves out, and ``uniqueItems`` of a field marked ``distinct``;
- ``exactly_one_of`` of a serializer (which its validate() enforces): a oneOf of required keys;
- the errors every view of a kind may answer, in the one error shape of games.api.errors:
  400 (a query string, or a body, refused), 403 (a signed-in session's CSRF token, or a
  sign-in, missing), 413 and 415 (a body too large or not of a type the view reads) and
  429 (too many requests).
"""

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent, is_list_serializer
from drf_spectacular.utils import OpenApiResponse
from rest_framework.fields import CharField, FileField
from rest_framework.permissions import SAFE_METHODS, AllowAny

from games.api.serializers import ErrorSerializer
from games.shared.clean_text import FILLED_TEXT_PATTERN, NAME_PATTERN, TEXT_PATTERN

CLEAN_VALUE = "CleanValue"
_CLEAN_VALUE_REF = {"$ref": f"#/components/schemas/{CLEAN_VALUE}"}
_CLEAN_NAME = {"pattern": NAME_PATTERN}
_CLEAN_VALUE_SCHEMA = {
    "description": "Any JSON value whose texts hold no control character but tab, line feed "
    "and carriage return, and whose keys hold none at all; no text holds a lone surrogate "
    "(refused with 400 bad_text, naming the field). Nested no deeper than 20 levels.",
    "anyOf": [
        {"type": "null"},
        {"type": "string", "pattern": TEXT_PATTERN},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "array", "items": _CLEAN_VALUE_REF},
        {"type": "object", "propertyNames": _CLEAN_NAME, "additionalProperties": _CLEAN_VALUE_REF},
    ],
}

# Formats and enums already exclude every character the clean-text rule refuses.
_SELF_BOUNDED = ("enum", "format", "pattern", "$ref")


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


class ApiAutoSchema(AutoSchema):
    def _clean_value(self):
        component = ResolvedComponent(
            name=CLEAN_VALUE,
            type=ResolvedComponent.SCHEMA,
            schema=_CLEAN_VALUE_SCHEMA,
            object=CLEAN_VALUE,
        )
        self.registry.register_on_missing(component)
        return dict(_CLEAN_VALUE_REF)

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if schema is None or direction != "request":
            return schema
        if is_list_serializer(field):
            if field.min_length is not None or not field.allow_empty:
                schema["minItems"] = max(field.min_length or 0, 0 if field.allow_empty else 1)
            if field.max_length is not None:
                schema["maxItems"] = field.max_length
        if getattr(field, "distinct", False):
            schema["uniqueItems"] = True
        if isinstance(field, FileField) and not field.allow_empty_file:
            schema["minLength"] = 1
        kind = schema.get("type")
        if kind == "string" and not any(key in schema for key in _SELF_BOUNDED):
            blank_refused = (
                isinstance(field, CharField) and field.trim_whitespace and not field.allow_blank
            )
            schema["pattern"] = FILLED_TEXT_PATTERN if blank_refused else TEXT_PATTERN
        elif kind == "object" and "properties" not in schema:
            schema["propertyNames"] = dict(_CLEAN_NAME)
            if schema.get("additionalProperties") in (None, {}, True):
                schema["additionalProperties"] = self._clean_value()
        return schema

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if direction != "request":
            return schema
        schema["propertyNames"] = dict(_CLEAN_NAME)
        schema["additionalProperties"] = self._clean_value()
        one_of = getattr(serializer, "exactly_one_of", ())
        if one_of:
            schema["oneOf"] = [{"required": [name]} for name in one_of]
        return schema

    def _common_errors(self) -> dict[int, OpenApiResponse]:
        view = self.view
        errors = {
            400: _error(
                "The request is not valid: a field (named in `fields`), the query string or "
                "the body. `bad_text`: a text holds a control character or a lone surrogate."
            )
        }
        takes_body = self.method in ("POST", "PUT", "PATCH") and bool(view.parser_classes)
        signs_in = self.method not in SAFE_METHODS and bool(view.authentication_classes)
        guarded = any(p is not AllowAny for p in view.permission_classes)
        if signs_in or guarded:
            errors[403] = _error(
                "Not allowed: a sign-in is needed, or a signed-in session sent no valid CSRF "
                "token (X-CSRFToken)."
            )
        if takes_body:
            errors[413] = _error("The body is larger than the API reads.")
            errors[415] = _error("The body is not of a type this operation reads.")
        if view.throttle_classes:
            errors[429] = _error("Too many requests from this client: wait and send again.")
        return errors

    def _get_response_bodies(self, direction="response"):
        # Below extend_schema, which replaces get_response_serializers() with what it declares.
        responses = super()._get_response_bodies(direction)
        for code, response in self._common_errors().items():
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(
                    response, str(code), None, direction
                )
        return responses

"""Pages of API lists: a client chooses how many, within bounds."""

from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination

from games.api.serializers import WholeNumberField, query_data


class PageQuerySerializer(serializers.Serializer):
    # No maximum: a limit above the cap is cut to it, an offset past every row is an empty page.
    limit = WholeNumberField(
        required=False, min_value=1, help_text="How many results a page holds (at most 500)."
    )
    offset = WholeNumberField(required=False, min_value=0, help_text="How many results to skip.")


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """Limit/offset pages whose limit is capped and whose numbers must fit the database.

    DRF reads ``limit`` and ``offset`` as any positive integer and quietly ignores anything
    else; one beyond a 64-bit integer reached PostgreSQL as a 500. Here a value that is not
    a whole number in bounds is a 400 naming it, a limit above ``max_limit`` is cut to it,
    and an offset beyond every row simply gives an empty page.
    """

    default_limit = 100
    max_limit = 500
    max_offset = 2**31

    @staticmethod
    def _page_query(request) -> dict:
        query = PageQuerySerializer(data=query_data(request.query_params))
        query.is_valid(raise_exception=True)
        return query.validated_data

    def get_limit(self, request):
        given = self._page_query(request).get("limit")
        return self.default_limit if given is None else min(given, self.max_limit)

    def get_offset(self, request):
        return min(self._page_query(request).get("offset", 0), self.max_offset)

    def get_schema_operation_parameters(self, view):
        fields = PageQuerySerializer().fields
        return [
            {
                "name": name,
                "required": False,
                "in": "query",
                "description": str(field.help_text),
                "schema": {"type": "integer", "minimum": field.min_value},
            }
            for name, field in fields.items()
        ]

"""Pages of API lists: a client chooses how many, within bounds."""

from rest_framework.pagination import LimitOffsetPagination


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """Limit/offset pages whose limit is capped and whose numbers must fit the database.

    DRF reads ``limit`` and ``offset`` as any positive integer; one beyond a 64-bit integer
    reached PostgreSQL as a 500. A limit above ``max_limit`` is cut to it, and an offset
    beyond every row simply gives an empty page.
    """

    default_limit = 100
    max_limit = 500
    max_offset = 2**31

    def get_offset(self, request):
        return min(super().get_offset(request), self.max_offset)

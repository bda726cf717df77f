"""The archive API: a table's log as JSON Lines, and imports of logs and archives."""

import json

from django.conf import settings
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.parsers import CleanMultiPartParser
from games.api.serializers import ErrorSerializer
from games.api.tables import ERRORS, KEY_PARAMETER, Throttled, _table
from games.shared.uploads import bound_uploads
from games.tables import exports, imports

# Ids are bigints: a bigger number is no id, and is refused before the query.
ID_MAX = 2**63 - 1


class NDJSONRenderer(BaseRenderer):
    """Answers in JSON Lines: the log is streamed by the view; an error is one line."""

    media_type = exports.MEDIA_TYPE
    format = "jsonl"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        return (json.dumps(data, ensure_ascii=False) + "\n").encode()


class ImportRequestSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="A table's log (JSON Lines, as /export/ sends it) or a group's or a club's "
        "archive (zip, as the pages download it)."
    )
    group = serializers.IntegerField(
        required=False, min_value=1, max_value=ID_MAX, help_text="A group you manage."
    )
    club = serializers.IntegerField(
        required=False, min_value=1, max_value=ID_MAX, help_text="A club you administer."
    )

    # The schema says it too (games.api.schema): a oneOf of the two.
    exactly_one_of = ("group", "club")

    def validate(self, data):
        if sum(name in data for name in self.exactly_one_of) != 1:
            raise serializers.ValidationError(_("Give a group or a club, not both."))
        return data


class ImportedTableSerializer(serializers.Serializer):
    id = serializers.UUIDField(source="table.id")
    imported_from = serializers.UUIDField(source="source_id")
    events = serializers.IntegerField()
    # The keys exist only on the table just made: this answer is the only time anyone sees them.
    scorekeeper_key = serializers.CharField(source="table.scorekeeper_key")
    viewer_key = serializers.CharField(source="table.viewer_key")


class ImportResultSerializer(serializers.Serializer):
    tables = ImportedTableSerializer(many=True)
    players_created = serializers.ListField(child=serializers.CharField())


class ImportRefusedSerializer(serializers.Serializer):
    error = serializers.CharField()
    detail = serializers.CharField()
    file = serializers.CharField(allow_null=True, help_text="The archive's file, if any.")
    line = serializers.IntegerField(allow_null=True, help_text="The line refused, from 1.")


class TableExportView(Throttled, APIView):
    renderer_classes = [JSONRenderer, NDJSONRenderer]

    @extend_schema(
        summary="Export a table's log (JSON Lines)",
        description="The whole log, one JSON object a line: a header (format "
        "`rummyref-table`, version, table, game, options, players), every event in order "
        "(seq, event_id, type, payload, schema_version, entered_by, created_at) and a "
        "closing line (count and last hash). Each line carries `hash`: SHA-256 of the line "
        "before's hash and the line's canonical JSON, so a reader finds a line changed, "
        "dropped, moved or cut off. POST it to /api/v1/imports/ on any RummyRef server.",
        # DRF's ?format= picks a renderer; the log is always JSON Lines, so it is no parameter.
        parameters=[KEY_PARAMETER, OpenApiParameter("format", exclude=True)],
        responses={
            (200, exports.MEDIA_TYPE): OpenApiResponse(
                OpenApiTypes.STR, description="The log, as JSON Lines."
            ),
            **ERRORS,
        },
    )
    def get(self, request, table_id):
        table, _role = _table(request, table_id)
        response = StreamingHttpResponse(
            exports.table_log_lines(table=table),
            content_type=f"{exports.MEDIA_TYPE}; charset=utf-8",
        )
        response["Content-Disposition"] = f'attachment; filename="{exports.table_file_name(table)}"'
        return response


class ImportView(Throttled, APIView):
    parser_classes = [CleanMultiPartParser]
    permission_classes = [IsAuthenticated]

    def initialize_request(self, request, *args, **kwargs):
        # Before anything reads the body (the session's CSRF check does): an upload past
        # the limit is cut off there.
        self.bounded = bound_uploads(request, settings.IMPORT_MAX_BYTES)
        return super().initialize_request(request, *args, **kwargs)

    @extend_schema(
        summary="Import a table's log or an archive of tables",
        description="Signed in (session and CSRF token): into a group you manage or a club "
        "you administer. Every line is checked and every event replayed before anything is "
        "stored; 422 names the file and line refused and says why, and nothing is stored. "
        "Seats are matched to the group's or club's players by name, whatever the capitals; "
        "other names become new players. Each table gets a new id and new keys, given here "
        "once. A file is imported once. Limits: "
        f"{settings.IMPORT_MAX_BYTES // (1024 * 1024)} MB a file, "
        f"{imports.MAX_LINE // 1024} KB a line, {imports.MAX_EVENTS:,} events a table, "
        f"{imports.MAX_TABLES} tables an archive.",
        request={"multipart/form-data": ImportRequestSerializer},
        responses={
            201: ImportResultSerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            413: ErrorSerializer,
            422: ImportRefusedSerializer,
        },
    )
    def post(self, request):
        serializer = ImportRequestSerializer(data=request.data)
        if self.bounded.too_large:
            return Response(
                {"error": "too_large", "detail": imports.too_large()},
                status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
            )
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            result = imports.log_import(
                user=request.user,
                data=data["file"],
                group_id=data.get("group"),
                club_id=data.get("club"),
            )
        except imports.ImportRefused as exc:
            body = {"error": "import_refused", "detail": exc.message, "file": exc.file}
            return Response({**body, "line": exc.line}, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        return Response(ImportResultSerializer(result).data, status=status.HTTP_201_CREATED)

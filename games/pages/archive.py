"""Files out and in: a table's log and hands, a group's or a club's archive, the import page.

Downloads need what reading the table, the group or the club's admin pages needs. The
import page reads the upload itself, bounded (``games.shared.uploads``): it checks CSRF only
once its upload handler is in place.
"""

import csv
import tempfile

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_safe

from games.pages.common import admins_only, with_club
from games.pages.forms.archive import ImportForm
from games.pages.groups import with_group
from games.pages.tables import with_table
from games.shared.uploads import bound_uploads
from games.tables import exports, imports
from games.tables.access import Role, session_remember

# An archive is built in memory up to this size, past it in a temporary file.
SPOOL_BYTES = 8 * 1024 * 1024


def _attachment(response, filename: str):
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
@never_cache  # private to the table's phones, like its page
@with_table()
def table_log_download(request, table, role):
    """Send the table's whole log as JSON Lines, written as it is read."""
    response = StreamingHttpResponse(
        exports.table_log_lines(table=table),
        content_type=f"{exports.MEDIA_TYPE}; charset=utf-8",
    )
    return _attachment(response, exports.table_file_name(table))


@require_safe
@never_cache
@with_table()
def table_hands_csv(request, table, role):
    """Send the table's hands and totals as CSV."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    exports.hands_csv_write(csv.writer(response), table=table)
    return _attachment(response, f"rummyref-{table.variant}-{table.id}-hands.csv")


def _archive(tables, *, source: dict, name: str) -> FileResponse:
    # Closed by the response once sent.
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)  # noqa: SIM115
    exports.archive_write(spool, tables=tables, source=source)
    spool.seek(0)
    return FileResponse(
        spool,
        as_attachment=True,
        filename=f"rummyref-{slugify(name) or source['id']}.zip",
        content_type="application/zip",
    )


@require_safe
@never_cache
@with_group()
def group_export(request, group, role):
    """Send every table of the group as one archive, for any phone holding one of its keys."""
    source = {"kind": "group", "id": group.pk, "name": group.name}
    return _archive(exports.group_tables(group=group), source=source, name=group.name)


@require_safe
@never_cache
@with_club
def club_export(request, access):
    """Send every table of the club as one archive, for its owner and admins."""
    admins_only(access)
    club = access.club
    source = {"kind": "club", "id": club.pk, "name": club.name}
    return _archive(exports.club_tables(club=club), source=source, name=club.slug)


@csrf_exempt  # checked by _import_page, once the upload is bounded
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_page(request):
    """Import a table's log or an archive into a group the user manages or a club they
    administer: everything is checked first; a refusal says which line and why, next to
    the file, and nothing is stored."""
    bounded = bound_uploads(request, settings.IMPORT_MAX_BYTES)
    return _import_page(request, bounded)


@csrf_protect
def _import_page(request, bounded):
    targets = imports.import_targets(user=request.user)
    existing = None
    form = ImportForm(request.POST or None, request.FILES or None, targets=targets)
    if request.method == "POST" and form.is_valid():
        try:
            result = imports.log_import(
                user=request.user, data=form.cleaned_data["file"], **form.chosen()
            )
        except imports.ImportRefused as exc:
            form.add_error("file", exc.message)
            existing = exc.existing
        else:
            if result.target.club is not None:
                # A club's imported table opens with its keys: this browser gets the
                # scorekeeper's, as the phone that starts a table does.
                for item in result.tables:
                    session_remember(request, item.table, Role.SCOREKEEPER)
            return render(request, "archive/imported.html", {"result": result})
    if bounded.too_large:
        form.errors["file"] = form.error_class([imports.too_large()])
    status = 422 if form.errors else 200
    context = {
        "form": form,
        "max_mb": imports.megabytes(settings.IMPORT_MAX_BYTES),
        "existing": existing,
    }
    return render(request, "archive/import.html", context, status=status)

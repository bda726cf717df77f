"""Uploads read no further than their limit."""

from django.core.files.uploadhandler import FileUploadHandler, SkipFile


class BoundedUpload(FileUploadHandler):
    """Drop an uploaded file once it passes ``limit`` bytes, and say so (``too_large``).

    Put first among the request's upload handlers, before anything reads the body (a view
    that takes a file checks CSRF itself, after this is in place). The rest of a file past
    the limit is read from the connection and thrown away, never kept in memory or on disk;
    the form's other fields are still read.
    """

    def __init__(self, request=None, *, limit: int):
        super().__init__(request)
        self.limit = limit
        self.too_large = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        if start + len(raw_data) > self.limit:
            self.too_large = True
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler holds the file


def bound_uploads(request, limit: int) -> BoundedUpload:
    """Put a BoundedUpload first among ``request``'s upload handlers and return it."""
    bounded = BoundedUpload(request, limit=limit)
    request.upload_handlers.insert(0, bounded)
    return bounded

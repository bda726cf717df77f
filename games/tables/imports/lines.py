"""Reading an import's lines: each bounded in size and read as one JSON object, the text
checked; an ImportRefused says where (file, line) and why."""

import json
import re
from collections.abc import Callable, Iterator
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext

MAX_LINE = 64 * 1024
# No line of ours nests deeper than a few levels (a hand's seats, a meld's cards).
MAX_DEPTH = 32
UTF8_BOM = b"\xef\xbb\xbf"
# Text no database keeps (PostgreSQL refuses NUL in JSON) and no encoder writes: a lone
# surrogate is half a character.
BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


class ImportRefused(Exception):
    """A file that cannot be imported; ``message`` says where (file, line) and why."""

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        file: str | None = None,
        existing: object = None,
    ):
        self.reason, self.line, self.file = reason, line, file
        # The table an earlier import made of the same log, which the page links to.
        self.existing = existing
        super().__init__(self.message)

    @property
    def message(self) -> str:
        where = {"file": self.file, "line": self.line, "reason": self.reason}
        if self.file and self.line is not None:
            return gettext("%(file)s, line %(line)d: %(reason)s") % where
        if self.line is not None:
            return gettext("Line %(line)d: %(reason)s") % where
        if self.file:
            return gettext("%(file)s: %(reason)s") % where
        return self.reason


def megabytes(size: int) -> str:
    """Return a size in bytes as MB, for people."""
    return f"{size / (1024 * 1024):g}"


def too_large() -> str:
    """Say how large a file the import takes at most."""
    return gettext("The file is larger than %(size)s MB.") % {
        "size": megabytes(settings.IMPORT_MAX_BYTES)
    }


class Budget:
    """Bytes an import may still read: a file's own limit, and an archive's unpacked one."""

    def __init__(self, limit: int, refusal: Callable[[], str]):
        self.left = limit
        self.refusal = refusal

    def spend(self, size: int, *, line: int, file: str | None) -> None:
        self.left -= size
        if self.left < 0:
            raise ImportRefused(self.refusal(), line=line, file=file)


def read_lines(
    stream: IO[bytes], *, file: str | None, budgets: tuple[Budget, ...], digest=None
) -> Iterator[tuple[int, bytes]]:
    """Yield each line of ``stream`` with its number, never reading more than MAX_LINE
    bytes of one line nor more than the budgets allow; ``digest`` sees every byte."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        for budget in budgets:
            budget.spend(len(raw), line=number, file=file)
        if digest is not None:
            digest.update(raw)
        if not raw.endswith(b"\n") and len(raw) > MAX_LINE:
            reason = gettext("the line is longer than %(size)d KB.") % {"size": MAX_LINE // 1024}
            raise ImportRefused(reason, line=number, file=file)
        yield number, raw.removesuffix(b"\n").removesuffix(b"\r")


class _Repeated(ValueError):
    pass


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        names = [name for name, _value in pairs]
        repeated = next(name for name in names if names.count(name) > 1)
        raise _Repeated(gettext("the field “%(name)s” appears twice.") % {"name": repeated})
    return found


def _no_constant(name: str) -> None:
    raise _Repeated(gettext("%(name)s is not a number JSON knows.") % {"name": name})


def parse_line(raw: bytes, *, line: int | None, file: str | None) -> dict[str, Any]:
    """Return a line's JSON object, refusing what is not one or holds text we cannot keep."""

    def refuse(reason: str) -> ImportRefused:
        return ImportRefused(reason, line=line, file=file)

    if line in (1, None):
        raw = raw.removeprefix(UTF8_BOM)
    if not raw.strip():
        raise refuse(gettext("the line is empty."))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise refuse(gettext("the line is not UTF-8 text.")) from None
    try:
        value = json.loads(text, object_pairs_hook=_no_repeats, parse_constant=_no_constant)
    except RecursionError:
        raise refuse(gettext("the line nests too deep.")) from None
    except _Repeated as exc:
        raise refuse(str(exc)) from None
    except ValueError as exc:
        reason = gettext("the line is not valid JSON (%(error)s at character %(column)s).")
        # json's messages may end "starting at", before the position this sentence gives.
        error = getattr(exc, "msg", str(exc)).removesuffix(" at")
        raise refuse(reason % {"error": error, "column": getattr(exc, "colno", "?")}) from None
    if not isinstance(value, dict):
        raise refuse(gettext("the line is not a JSON object."))
    # A NUL or a lone surrogate can only come from a \u escape (the text is strict UTF-8 and
    # JSON takes no raw control character), and deep nesting needs as many brackets.
    if b"\\u" in raw or raw.count(b"[") + raw.count(b"{") > MAX_DEPTH:
        _check_text(value, refuse)
    return value


def _check_text(value: Any, refuse: Callable[[str], ImportRefused]) -> None:
    """Refuse NUL characters and lone surrogates anywhere (names too), and deep nesting."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise refuse(gettext("the line nests too deep."))
        if isinstance(item, dict):
            stack.extend((key, depth) for key in item)
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str) and (bad := BAD_TEXT.search(item)):
            if bad.group() == "\x00":
                raise refuse(gettext("the line holds a NUL character."))
            raise refuse(gettext("the line holds a lone surrogate, which is not text."))

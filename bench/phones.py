"""The club night's phones (bench/clubnight.py runs them, once a step): one asyncio process,
one kept-alive HTTP/1.1 connection a phone.

    python -m bench.phones < night.json > figures.json

reads the night (the server's port, the tables as the API created them, and the times to
keep, as time.monotonic() values: CLOCK_MONOTONIC is the same clock in every process of the
machine) and prints one line of JSON: the seconds each page load, poll and append took,
the errors, the process's own CPU seconds over the measured window, and how late its event
loop woke over that window (its lag: when the generator itself is short of CPU, every
request's time grows by it, and this says so).

Phones run as tasks of one event loop rather than threads: hundreds of threads contending
for one interpreter lock would time their own queueing, not the server. Each request is
timed from its first byte written to its answer's last byte read; opening a connection is
not timed, as a phone's is open long before a poll.

With ``push_port`` in the night (push on, Pushpin there: bench/live.py), every phone holds
its table's stream through Pushpin instead of polling every couple of seconds, and asks the
poll once for each head it hears past what it shows (and once as its stream opens), as
static/js/live.js does. Either way, each time a phone's poll brings a hand, the moment is
noted beside the moment the hand's 201 was read: the delivery, save to screen.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import resource
import sys
import time
import uuid
from typing import Any

HEAD = re.compile(rb'data-head-seq="(\d+)"')
WATCH = re.compile(rb'\?since=\d+&amp;w=([^"&]+)"')
TIMEOUT = 30.0  # seconds: gunicorn's own timeout, after which no answer will come
LAG_EVERY = 0.05


class Broken(Exception):
    """The server closed the connection before answering."""


class Connection:
    """One phone's connection to the server: requests one after the other, kept alive."""

    def __init__(self, port: int, headers: dict[str, str]):
        self.port = port
        self.headers = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: str = ""
    ) -> tuple[int, bytes, float]:
        """Return the answer's status and body and the seconds the exchange took."""
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            began = time.perf_counter()
            try:
                async with asyncio.timeout(TIMEOUT):
                    status, answer, close = await self._exchange(method, path, body, headers)
            except (Broken, ConnectionError):
                # A worker that stops (max_requests) closes its kept-alive connections, and
                # one may close just as a request goes out: ask again on a new one, as a
                # browser does.
                self.close()
                if attempt == 2:
                    raise
                continue
            except BaseException:
                self.close()
                raise
            elapsed = time.perf_counter() - began
            if close:
                self.close()
            return status, answer, elapsed
        raise AssertionError("unreachable")

    async def _exchange(
        self, method: str, path: str, body: bytes, headers: str
    ) -> tuple[int, bytes, bool]:
        reader, writer = self.reader, self.writer
        assert reader is not None and writer is not None
        length = f"Content-Length: {len(body)}\r\n" if body else ""
        head = f"{method} {path} HTTP/1.1\r\n{self.headers}{headers}{length}\r\n"
        writer.write(head.encode("latin-1") + body)
        await writer.drain()
        line = await reader.readline()
        if not line:
            raise Broken
        version, status_text, *_ = line.split(None, 2)
        status = int(status_text)
        fields: dict[bytes, bytes] = {}
        while True:
            line = await reader.readline()
            if not line:
                raise ConnectionResetError("the answer's head was cut short")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.partition(b":")
            fields[name.strip().lower()] = value.strip()
        close = version == b"HTTP/1.0" or fields.get(b"connection", b"").lower() == b"close"
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            answer = b""
        elif b"chunked" in fields.get(b"transfer-encoding", b"").lower():
            answer = await _chunked(reader)
        elif b"content-length" in fields:
            answer = await reader.readexactly(int(fields[b"content-length"]))
        else:
            answer, close = await reader.read(), True
        return status, answer, close


async def _chunked(reader: asyncio.StreamReader) -> bytes:
    parts = []
    while True:
        size = int((await reader.readline()).split(b";", 1)[0], 16)
        if size == 0:
            # Trailer fields, if any, up to the blank line that ends the answer.
            while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                pass
            return b"".join(parts)
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)


class Figures:
    def __init__(self) -> None:
        self.pages: list[float] = []
        self.polls: list[float] = []
        self.appends: list[float] = []
        self.errors: list[str] = []
        self.lag: list[float] = []
        self.cpu = 0.0
        # When each (table, seq) saved in the window had its 201 read, and when each of the
        # other phones' polls brought it.
        self.saved: dict[tuple[str, int], float] = {}
        self.shown: dict[tuple[str, int], list[float]] = {}

    def deliveries(self, until: float) -> tuple[list[float], int]:
        """Return the seconds from each hand's 201 to each other phone showing it, and how
        many showings are missing (hands saved SETTLE seconds or more before ``until``)."""
        times, missing = [], 0
        for key, read in self.saved.items():
            shown = self.shown.get(key, [])
            times += [moment - read for moment in shown]
            if read <= until - SETTLE:
                missing += max(0, WATCHERS - len(shown))
        return times, missing


# The phones of a table that do not save its hands, and the seconds a hand gets to reach them
# before the window ends for it to count as missing (two polls' worth).
WATCHERS, SETTLE = 3, 5.0


# What a request that got no answer raises: it counts as an error, and the phone goes on.
FAILURES = (OSError, EOFError, TimeoutError, ValueError, Broken)


async def _until(moment: float) -> None:
    await asyncio.sleep(max(0.0, moment - time.monotonic()))


async def _phone(night: dict[str, Any], created: dict, index: int, head: dict, figures: Figures):
    number, table_id = created["number"], created["id"]
    key = created["scorekeeper_key"] if index < 2 else created["viewer_key"]
    rng = random.Random(number * 4 + index)
    connection = Connection(
        night["port"],
        {
            "Host": "127.0.0.1",
            "X-Table-Key": key,
            # Every phone its own client address, so the per-client throttles count it alone.
            "X-Forwarded-For": f"10.{number // 250}.{number % 250}.{index + 1}",
            "X-Forwarded-Proto": "https",
        },
    )
    await _until(night["start_at"] + rng.random() * night["ramp"])
    try:
        await _phone_night(night, connection, table_id, index, head, figures, rng)
    finally:
        connection.close()


async def _page_load(connection, table_id, figures: Figures) -> str:
    """Load the table's page; return its watch token (the poll's and the stream's)."""
    try:
        status, body, elapsed = await connection.request("GET", f"/t/{table_id}/")
    except FAILURES as exc:
        figures.errors.append(f"page {type(exc).__name__}: {exc}")
        return ""
    figures.pages.append(elapsed)
    if status != 200:
        figures.errors.append(f"page {status}: {body[:120]!r}")
    # The page's poll address carries its watch token, as a browser's htmx sends it.
    found = WATCH.search(body)
    if found is None:
        figures.errors.append("no watch token on the page")
        return ""
    return found.group(1).decode()


class Shown:
    """What one phone's board shows: the head, moved by its polls' news."""

    def __init__(self, connection, table_id: str, seq: int, watch: str, index: int) -> None:
        self.connection, self.table_id, self.seq = connection, table_id, seq
        self.watch, self.index = watch, index
        # The first scorekeeper's stream and hands share its one connection: one at a time.
        self.lock = asyncio.Lock()

    async def poll(self, night, figures: Figures) -> None:
        """Ask the table's poll once, as htmx does; note the hands it brings."""
        measured = night["start_at"] + night["ramp"] <= time.monotonic()
        try:
            async with self.lock:
                status, body, elapsed = await self.connection.request(
                    "GET",
                    f"/t/{self.table_id}/?since={self.seq}&w={self.watch}",
                    headers="HX-Request: true\r\n",
                )
        except FAILURES as exc:
            figures.errors.append(f"poll {type(exc).__name__}: {exc}")
            return
        if status == 200:
            found = HEAD.search(body)
            seq = int(found.group(1)) if found else self.seq
            if self.index != 0:
                now = time.monotonic()
                for shown in range(self.seq + 1, seq + 1):
                    figures.shown.setdefault((self.table_id, shown), []).append(now)
            self.seq = max(self.seq, seq)
        elif status != 204:
            figures.errors.append(f"poll {status}: {body[:120]!r}")
        if measured:
            figures.polls.append(elapsed)


async def _phone_night(night, connection, table_id, index, head, figures, rng) -> None:
    until = night["until"]
    board = Shown(
        connection, table_id, head["seq"], await _page_load(connection, table_id, figures), index
    )
    if night.get("push_port"):
        await _streamed_night(night, board, head, figures, rng)
        return
    next_hand = time.monotonic() + rng.uniform(0, night["hand_every"])
    while time.monotonic() < until:
        await asyncio.sleep(night["poll_every"] * rng.uniform(0.9, 1.1))
        await board.poll(night, figures)
        # The first scorekeeper records the table's hands (the second one watches).
        if index == 0 and time.monotonic() >= next_hand:
            next_hand += night["hand_every"] * rng.uniform(0.8, 1.2)
            await _hand(night, board, head, figures, rng)


async def _hand(night, board: Shown, head, figures: Figures, rng) -> None:
    measured = night["start_at"] + night["ramp"] <= time.monotonic()
    try:
        async with board.lock:
            await _append(board.connection, board.table_id, head, figures, measured, rng)
    except FAILURES as exc:
        figures.errors.append(f"append {type(exc).__name__}: {exc}")
    board.seq = max(board.seq, head["seq"])


async def _streamed_night(night, board: Shown, head, figures: Figures, rng) -> None:
    """Hold the table's stream through Pushpin until the night ends: poll once as it opens,
    then once for each head past what the board shows; the first scorekeeper saves the hands
    on its own schedule meanwhile (its connection is its own)."""
    tasks = [_stream(night, board, figures)]
    if board.index == 0:
        tasks.append(_hands(night, board, head, figures, rng))
    await asyncio.gather(*tasks)


async def _hands(night, board: Shown, head, figures: Figures, rng) -> None:
    next_hand = time.monotonic() + rng.uniform(0, night["hand_every"])
    while (left := night["until"] - time.monotonic()) > 0:
        await asyncio.sleep(min(left, max(0.0, next_hand - time.monotonic())))
        if time.monotonic() >= night["until"]:
            return
        next_hand += night["hand_every"] * rng.uniform(0.8, 1.2)
        await _hand(night, board, head, figures, rng)


async def _stream(night, board: Shown, figures: Figures) -> None:
    try:
        async with asyncio.timeout(max(0.0, night["until"] - time.monotonic())):
            reader, writer = await asyncio.open_connection("127.0.0.1", night["push_port"])
            try:
                await _stream_events(night, board, figures, reader, writer)
            finally:
                writer.close()
    except TimeoutError:
        return  # the night is over
    except FAILURES as exc:
        figures.errors.append(f"stream {type(exc).__name__}: {exc}")


class StreamRefused(Exception):
    """The stream was answered otherwise than 200."""


async def event_ids(reader, writer, path: str):
    """Open the stream at ``path`` on this connection (Pushpin's); yield each event's id, a
    table's head, as it arrives; raise StreamRefused if it is not opened."""
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    status = await reader.readline()
    if b" 200 " not in status:
        raise StreamRefused(f"stream answered {status!r}")
    while line := await reader.readline():
        if line.startswith(b"id: "):
            yield int(line[4:])


async def _stream_events(night, board: Shown, figures: Figures, reader, writer) -> None:
    opened = False
    try:
        async for seq in event_ids(reader, writer, f"/t/{board.table_id}/live/?w={board.watch}"):
            # The first event closes the gap while the stream opened; then each newer head.
            if not opened or (board.index != 0 and seq > board.seq):
                opened = True
                await board.poll(night, figures)
    except StreamRefused as exc:
        figures.errors.append(str(exc))


async def _append(connection, table_id, head, figures: Figures, measured: bool, rng) -> None:
    payload = {
        "mode": "quick",
        "knocker": rng.randrange(2),
        "ending": "knock",
        "knocker_count": 2,
        "defender_count": 10,
    }
    for _attempt in range(3):
        body = {
            "event_id": str(uuid.uuid4()),
            "expected_seq": head["seq"],
            "type": "hand_recorded",
            "payload": payload,
        }
        status, answer, elapsed = await connection.request(
            "POST",
            f"/api/v1/tables/{table_id}/events/",
            json.dumps(body).encode(),
            "Content-Type: application/json\r\n",
        )
        if measured:
            figures.appends.append(elapsed)
        if status in (200, 201):
            head["seq"] = json.loads(answer)["event"]["seq"]
            if measured:
                figures.saved[table_id, head["seq"]] = time.monotonic()
            return
        if status == 409:
            head["seq"] = json.loads(answer)["head_seq"]
            continue
        figures.errors.append(f"append {status}: {answer[:120]!r}")
        return
    figures.errors.append("append: three conflicts in a row")


async def _watch_self(night: dict[str, Any], figures: Figures) -> None:
    """Over the measured window, count this process's CPU and how late its loop wakes."""
    start, until = night["start_at"] + night["ramp"], night["until"]
    await _until(start)
    cpu = time.process_time()
    while (now := time.monotonic()) < until:
        await asyncio.sleep(LAG_EVERY)
        figures.lag.append(max(0.0, time.monotonic() - now - LAG_EVERY))
    figures.cpu = time.process_time() - cpu


async def night_run(night: dict[str, Any]) -> Figures:
    figures = Figures()
    tasks = [_watch_self(night, figures)]
    for created in night["tables"]:
        head = {"seq": created["head_seq"]}
        tasks += [_phone(night, created, index, head, figures) for index in range(4)]
    await asyncio.gather(*tasks)
    return figures


def main() -> None:
    # A connection a phone: a few hundred open at once, beyond a small default soft limit.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    night = json.load(sys.stdin)
    figures = asyncio.run(night_run(night))
    rounded = {
        kind: [round(value, 6) for value in getattr(figures, kind)]
        for kind in ("pages", "polls", "appends", "lag")
    }
    deliveries, missing = figures.deliveries(night["until"])
    rounded["deliveries"] = [round(value, 6) for value in deliveries]
    answer = {**rounded, "errors": figures.errors, "cpu": figures.cpu, "missing": missing}
    json.dump(answer, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

"""Logs for the export and import tests: simulated tables of every game (hands played move by
move and entered whole, voided and amended), stored as the event store stores them, and the
comparisons a round trip must pass (state, totals, match results)."""

from __future__ import annotations

import io
import json
import random
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import strategies as st

from bench.logs import log_build, options_in_full
from games.clubs.models import Player
from games.standings.services import match_results_refresh
from games.tables import exports, selectors
from games.tables import services as table_services
from games.tables.log import event_row
from games.tables.models import Event, Seat, Table
from scoring.errors import RuleViolation
from scoring.events import HAND_AMENDED, HAND_VOIDED, LogEvent
from scoring.replay import apply, replay
from scoring.variants import GAMES
from tests.scoring.play_simulator import simulate
from tests.scoring.play_strategies import seeds, tables

START = datetime(2026, 3, 1, 20, 0, 0, 123456, tzinfo=UTC)
REASONS = ("misdeal", "recounted", "=cmd|' /C calc'!A0", "wrong seat")


def with_corrections(events: Sequence[LogEvent], rng: random.Random, count: int) -> list:
    """Return the log with up to ``count`` voids and amendments of its hands added at its end;
    an amendment enters another hand's entry of the same table. Refused ones are left out."""
    log = list(events)
    state = replay(log)
    entries = [e.payload for e in log if e.event_type == "hand_recorded"]
    for _ in range(count):
        if not state.hands:
            break
        hand = rng.randrange(len(state.hands)) + 1
        reason = rng.choice(REASONS)
        if entries and rng.random() < 0.5:
            kind, payload = HAND_AMENDED, {**rng.choice(entries), "hand": hand, "reason": reason}
        else:
            kind, payload = HAND_VOIDED, {"hand": hand, "reason": reason}
        event = LogEvent(len(log) + 1, kind, payload)
        try:
            state = apply(state, event)
        except RuleViolation:
            continue
        log.append(event)
    return log


@st.composite
def game_logs(draw, game: str) -> list[LogEvent]:
    """Draw a legal log of ``game``: a simulated table (moves, and hands entered whole) or a
    built one (hands entered whole with voids and amendments), then a few corrections."""
    seed = draw(seeds())
    if draw(st.booleans()):
        config = draw(tables(games=(game,), hands=2))
        events = simulate(config, random.Random(seed)).events
    else:
        # Two to four seats, as many of them as the game seats (from the registry).
        seats = draw(st.sampled_from([n for n in GAMES[game].seatings if n <= 4]))
        # The game's own defaults end some matches; the longest ones never end.
        options = draw(st.sampled_from([None, {}]))
        length = draw(st.integers(2, 30))
        events = log_build(game, length, seats=seats, seed=seed, options=options).events
    return with_corrections(events, random.Random(seed), draw(st.integers(0, 3)))


def table_stored(events: Sequence[LogEvent], *, entered_by: str = "Anna's phone") -> Table:
    """Store a log as the event store keeps it: the table made by ``table_create``, every
    other event chained by ``event_row`` a second apart, the head moved to the last."""
    created = events[0].payload
    table = table_services.table_create(
        variant=created["variant"],
        options=options_in_full(created),
        players=created["seats"],
        entered_by=entered_by,
        created_at=START,
    )
    prev, rows = table.head_hash, []
    for event in events[1:]:
        row = event_row(
            table=table,
            seq=event.seq,
            prev_hash=prev,
            event_id=uuid.uuid4(),
            event_type=event.event_type,
            payload=dict(event.payload),
            entered_by=entered_by,
            created_at=START + timedelta(seconds=event.seq),
        )
        rows.append(row)
        prev = row.hash
    Event.objects.bulk_create(rows)
    state = replay(events)
    status = Table.Status.FINISHED if state.closed else Table.Status.OPEN
    Table.objects.filter(pk=table.pk).update(head_seq=len(events), head_hash=prev, status=status)
    table.refresh_from_db()
    return table


def exported(table: Table) -> bytes:
    return b"".join(exports.table_log_lines(table=table))


def lines_of(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.splitlines()]


def file_of(lines: Sequence[dict[str, Any]]) -> bytes:
    return b"".join((json.dumps(line, ensure_ascii=False) + "\n").encode() for line in lines)


def rehashed(lines: Sequence[dict[str, Any]]) -> bytes:
    """Return the lines as a file whose chain is made again: a file edited by someone who
    knows the format (the engine, not the chain, must catch what they changed)."""
    prev, fixed = "", []
    for line in lines:
        fields = {k: v for k, v in line.items() if k != "hash"}
        if "end" in fields:
            fields["last_hash"] = prev
        prev = exports.line_hash(prev, fields)
        fixed.append({**fields, "hash": prev})
    return file_of(fixed)


def upload(data: bytes, name: str = "table.jsonl") -> io.BytesIO:
    stream = io.BytesIO(data)
    stream.name = name
    return stream


def counts() -> dict[str, int]:
    """Return how many rows every model an import writes holds."""
    return {model.__name__: model.objects.count() for model in (Table, Event, Seat, Player)}


def summary_by_name(table: Table) -> dict[str, Any] | None:
    """Return the table's MatchResult summary, its players named instead of numbered and
    without its table id: what two copies of one match share."""
    result = match_results_refresh([table.id])[table.id]
    summary = result.summary
    if summary is None:
        return None
    names = dict(Player.objects.filter(seats__table=table).values_list("pk", "name"))
    return {
        **{k: v for k, v in summary.items() if k != "match_id"},
        "seats": [{**seat, "player": names[seat["player"]]} for seat in summary["seats"]],
    }


def same_match(original: Table, copy: Table) -> None:
    """Assert that a copy replays to the original's state, totals and match result."""
    original.refresh_from_db()
    copy.refresh_from_db()
    state = selectors.table_state(table=original)
    assert selectors.table_state(table=copy) == state
    assert copy.head_seq == original.head_seq and copy.status == original.status
    assert summary_by_name(copy) == summary_by_name(original)

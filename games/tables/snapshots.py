"""The engine's folded state at a point of a table's log, kept so that work on a table
starts from it instead of replaying the whole log.

Two snapshots per table, each stored with the (seq, hash) of the event it was folded up to:

- the head's, written by every append, which applies only its new event to it;
- the verified one, written by ``table_verify``, which checks only the events since it.

A snapshot is a cache, never a source: it lives in the shared cache (Redis in production,
files in the embedded default) and is used only when its (seq, hash) is the one asked for.
Otherwise (evicted, another process moved the head, the server restarted) the log is
replayed and the snapshot written again. The hash names the whole log up to that seq
(the chain), so a snapshot can never stand for a different log.
"""

from dataclasses import dataclass

from django.core.cache import cache

from games.tables.log import engine_events
from scoring.replay import TableState, apply, replay

# A table idle longer than this replays its log once when it is next touched.
SNAPSHOT_SECONDS = 12 * 60 * 60
# Pickling a long table's state costs about what replaying a few hundred events does: the
# shared copy is written once every SHARE_EVERY events, and a process that finds it behind
# the head folds in the few events since. This process keeps every snapshot it made, as is.
SHARE_EVERY = 100
# How many snapshots this process keeps (the tables it served last): a few MB at most.
KEPT_HERE = 200


@dataclass(frozen=True)
class Snapshot:
    seq: int
    hash: str
    state: TableState


# (kind, table id) -> this process's latest snapshot and the seq of the last one shared.
_here: dict[tuple[str, str], tuple[Snapshot, int]] = {}


def _key(kind: str, table_id) -> str:
    return f"table-state:{kind}:{table_id}"


def _shared(kind: str, table_id) -> Snapshot | None:
    snapshot = cache.get(_key(kind, table_id))
    return snapshot if isinstance(snapshot, Snapshot) else None


def latest(kind: str, table_id, *, at_most: int | None = None) -> Snapshot | None:
    """Return the newest ``kind`` snapshot of the table folded up to ``at_most`` or before
    (the caller checks that its hash is the log's at its seq), or None."""
    found = _here.get((kind, str(table_id)))
    here = found[0] if found else None
    if here is not None and here.seq == at_most:
        return here
    shared = _shared(kind, table_id)
    usable = [s for s in (here, shared) if s is not None and (at_most is None or s.seq <= at_most)]
    return max(usable, key=lambda s: s.seq, default=None)


def read_here(kind: str, table_id, *, seq: int, hash: str) -> TableState | None:
    """Return this process's ``kind`` snapshot if it was folded up to exactly (seq, hash)."""
    found = _here.get((kind, str(table_id)))
    if found is not None and (found[0].seq, found[0].hash) == (seq, hash):
        return found[0].state
    return None


def read(kind: str, table_id, *, seq: int, hash: str) -> TableState | None:
    """Return the ``kind`` snapshot's state if it was folded up to exactly (seq, hash)."""
    snapshot = latest(kind, table_id, at_most=seq)
    if snapshot is not None and (snapshot.seq, snapshot.hash) == (seq, hash):
        return snapshot.state
    return None


def keep(kind: str, table_id, *, seq: int, hash: str, state: TableState) -> None:
    """Keep the state folded up to (seq, hash) as the table's ``kind`` snapshot: in this
    process always, in the shared cache when the shared one is SHARE_EVERY events behind."""
    key = (kind, str(table_id))
    snapshot = Snapshot(seq, hash, state)
    found = _here.pop(key, None)
    shared_seq = found[1] if found else None
    if shared_seq is None or not 0 <= seq - shared_seq < SHARE_EVERY:
        cache.set(_key(kind, table_id), snapshot, SNAPSHOT_SECONDS)
        shared_seq = seq
    _here[key] = (snapshot, shared_seq)
    while len(_here) > KEPT_HERE:
        _here.pop(next(iter(_here)))


def forget_here() -> None:
    """Drop this process's snapshots (as a restart would); the shared ones stay."""
    _here.clear()


def head_state(table) -> TableState:
    """Return the engine's state at the table's head: its snapshot, folded on by the events
    since it if it is behind, or a replay of the whole log; kept as the head's snapshot.

    The head is the one ``table`` was read at. A reader holds no lock, so another request
    may have appended since: the log is read up to that head only, never past it, or the
    state kept under the head's (seq, hash) would hold events after it.
    """
    base = latest("head", table.id, at_most=table.head_seq)
    if base is not None and (base.seq, base.hash) == (table.head_seq, table.head_hash):
        return base.state
    upto = table.events.filter(seq__lte=table.head_seq).order_by("seq")
    state = None
    if base is not None:
        events = list(upto.filter(seq__gte=base.seq))
        if events and events[0].hash == base.hash and events[-1].hash == table.head_hash:
            state = base.state
            for event in engine_events(events[1:]):
                state = apply(state, event)
    if state is None:
        state = replay(engine_events(upto))
        if state.head_seq != table.head_seq:
            # The head read with the table and its log disagree (a torn read): keep nothing.
            return state
    keep("head", table.id, seq=table.head_seq, hash=table.head_hash, state=state)
    return state

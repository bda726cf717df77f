"""Every read of tables and their logs goes through here."""

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Case, Q, QuerySet, When

from games.clubs.models import Season
from games.rules.text import table_rules
from games.tables import snapshots
from games.tables.access import Role, table_role
from games.tables.board import HandData, StateData, TableBoard, board_from_state
from games.tables.models import Event, Table, TableProjection
from scoring.events import HAND_RECORDED, MOVE_UNDONE, LogEvent
from scoring.replay import TableState, apply


def table_for_digests(
    *, table_id: uuid.UUID | str, digests: Iterable[str], user=None
) -> tuple[Table, Role]:
    """Return a table and the role the key digests (and, at a league table, the signed-in
    user's club membership) grant; unknown ids and bad keys look the same."""
    digests = list(digests)
    try:
        # The night's pairing comes in the same query (None at other tables), so the table's
        # page asks nothing more to know whether it is a tournament's.
        table = Table.objects.select_related(
            "season__league__club", "group", "tournament_pairing__round__tournament__club"
        ).get(pk=table_id)
    except (Table.DoesNotExist, ValidationError, ValueError, TypeError) as exc:
        # An id that is not a UUID is a table that does not exist, for every caller.
        raise Table.DoesNotExist from exc
    role = table_role(table, digests=digests, user=user)
    if role is None:
        # Answer as for a table that does not exist, so ids cannot be probed.
        raise Table.DoesNotExist
    return table, role


# A table's rematches are followed this far at most: more than a night's worth of matches.
REMATCH_CHAIN_MOST = 100


def table_newest(*, table: Table) -> Table:
    """Return the newest table of the chain of rematches that continues ``table`` (the
    table itself while it has no rematch)."""
    newest = table
    for _ in range(REMATCH_CHAIN_MOST):
        following = Table.objects.filter(rematch_of=newest).first()
        if following is None:
            break
        newest = following
    return newest


def table_rematch_newest(*, table: Table) -> Table | None:
    """Return where a finished ``table``'s phones go on to: the newest table of its chain
    of rematches, or None while it has none (or is in play: no query then)."""
    if table.status != Table.Status.FINISHED:
        return None
    newest = table_newest(table=table)
    return None if newest.pk == table.pk else newest


def tables_for_digests(*, digests: Iterable[str]) -> QuerySet[Table]:
    """Return the tables any of the key ``digests`` opens (a group's key, its tables), most
    recently played first."""
    digests = [d for d in digests if d]
    if not digests:
        return Table.objects.none()
    return (
        Table.objects.filter(
            Q(scorekeeper_digest__in=digests)
            | Q(viewer_digest__in=digests)
            # A group's key opens every table of the group.
            | Q(group__member_digest__in=digests)
            | Q(group__viewer_digest__in=digests)
        )
        .select_related("season__league", "rematch")
        .prefetch_related("seats__player")
    )


def table_state(*, table: Table) -> StateData:
    """Return the state at the table's head as JSON-ready data (the one source of every
    read of a table's state), from the first of these that holds the head ``table`` was
    read at (its seq and hash):

    1. the engine's state this process keeps for the head (no database read; an append
       leaves it there for its own answer and the next request);
    2. the projection's row, if it was written at the head;
    3. the snapshot in the shared cache, folded on by the events since it, or else a
       replay of the whole log (``snapshots.head_state``, which keeps the result as 1).
    """
    here = snapshots.read_here("head", table.id, seq=table.head_seq, hash=table.head_hash)
    if here is not None:
        return here.to_dict()
    projection = TableProjection.objects.filter(table=table, seq=table.head_seq).first()
    if projection is not None:
        return projection.state
    return snapshots.head_state(table).to_dict()


def hand_preview(*, table: Table, payload: dict[str, Any]) -> dict[str, Any]:
    """Score a hand as if it were recorded now, storing nothing; RuleViolation if refused."""
    hand = LogEvent(seq=table.head_seq + 1, event_type=HAND_RECORDED, payload=payload)
    return apply(snapshots.head_state(table), hand).to_dict()["hands"][-1]["result"]


# How the log signs an entry of a phone nobody named: "#phone-1", "#phone-2"... at each
# table; the history says it in its reader's language ("phone 1").
UNNAMED_PHONE = "#phone-"


def table_unnamed_phones(*, table: Table, prefix: str = UNNAMED_PHONE) -> int:
    """How many unnamed phones have recorded on the table: the distinct recorders written
    with ``prefix`` and their number ("#phone-1", "#phone-2")."""
    recorders = table.events.filter(entered_by__startswith=prefix).values_list("entered_by")
    return recorders.distinct().count()


def table_events(*, table: Table) -> QuerySet[Event]:
    """Return a table's log in order."""
    return table.events.order_by("seq")


def table_board(*, table: Table, state: TableState | None = None) -> TableBoard:
    """Return the table's board at its head; ``state``, an append's own result, is drawn
    as it is instead of read again."""
    return board_from_state(state.to_dict() if state is not None else table_state(table=table))


# How many hands the table's page shows (the latest); the rest are on the hands page.
HISTORY_SHOWN = 20


@dataclass(frozen=True)
class HistoryView:
    """The part of a table's history a page brings: its latest hands (``entries``, newest
    first, with ``older`` more on the hands page), or, for a phone that saw the head
    ``since`` (``delta``), only the hands recorded and corrected after it."""

    entries: tuple["HistoryEntry", ...] = ()
    older: int = 0
    delta: bool = False
    new_entries: tuple["HistoryEntry", ...] = ()
    corrected_entries: tuple["HistoryEntry", ...] = ()


@dataclass(frozen=True)
class TablePage:
    """Everything the table's page shows that is read, not typed: its board, its history,
    the moves of a hand played move by move, how the last whole hand was entered, the
    night's pairing it plays, if any, and its rules' lines.
    The page, its polls and every save's answer render from it; the forms are the page's."""

    board: TableBoard
    history: HistoryView
    moves: tuple["MoveLine", ...]
    # How the next hand is entered ("quick", "cards"...): as the last whole hand was.
    entry_mode: str | None
    pairing: Any  # the night's RoundTable (games.tournaments), or None

    def rules(self) -> list[tuple[str, str, str]]:
        """Return the table's options as its rules' lines (only the whole page shows them:
        a template calls this when it draws them, and a save's answer never does)."""
        return table_rules(self.board.variant, self.board.options)


def table_page(
    *,
    table: Table,
    state: TableState | None = None,
    news_since: int | None = None,
    appended: Event | None = None,
) -> TablePage:
    """Return what the table's page shows at its head, its state turned into a board once.

    ``state`` and ``appended`` are an append's own result (the engine's state at the new
    head and the stored event), drawn without reading either again; ``news_since``, the head
    a phone showed, brings the history's news since then instead of its latest hands.
    """
    if state is None:
        board = board_from_state(table_state(table=table))
    else:
        board = board_from_state(state.to_dict(), typed_options=state.options)
    known = (appended,) if appended is not None else ()
    history = _history_view(table, board, news_since, known)
    return TablePage(
        board=board,
        history=history,
        moves=tuple(hand_move_lines(table=table, state=board.state)),
        entry_mode=_entry_mode(table, board, history, known),
        # Loaded with the table by ``table_for_digests``; a query only for a table from
        # elsewhere.
        pairing=getattr(table, "tournament_pairing", None),
    )


def _entry_mode(
    table: Table, board: TableBoard, history: HistoryView, known: Iterable[Event]
) -> str | None:
    """Return how the last whole hand was entered, from the events the page holds already
    (the save's own, the history's); the log is asked only when none of them is one."""
    if board.finished or board.decision is not None or board.playing:
        return None  # no hand form is drawn
    entries = history.new_entries if history.delta else history.entries
    held = [*known, *(entry.recorded for entry in entries)]
    whole = [event for event in held if event.type == HAND_RECORDED]
    if whole:
        payload = max(whole, key=lambda event: event.seq).payload
    elif board.hands:
        payload = last_hand_payload(table=table)
    else:
        return None
    return payload.get("mode") if isinstance(payload, dict) else None


@dataclass(frozen=True)
class TableEntry:
    """What a hand's entry form is checked against before a write: the table's game, seats,
    options (as stored and as the rules read them) and the seats out of the match."""

    variant: str
    seat_names: tuple[str, ...]
    options: dict[str, Any]
    typed_options: Any
    out_seats: tuple[int, ...]
    head_seq: int


def table_entry(*, table: Table) -> TableEntry:
    """Return what a hand's entry is checked against at the table's head, from the engine's
    state (kept here from the last append): no board is drawn, no option parsed."""
    state = snapshots.head_state(table)
    return TableEntry(
        variant=state.variant.key,
        seat_names=state.seats,
        options=state.variant.options_to_dict(state.options),
        typed_options=state.options,
        out_seats=tuple(state.match.out),
        head_seq=state.head_seq,
    )


def _history_view(
    table: Table, board: TableBoard, news_since: int | None, known: Iterable[Event] = ()
) -> HistoryView:
    """Return the news since ``news_since`` unless it is most of the history (or the phone
    is ahead of the log): then the latest hands, as for a phone with no head. The events in
    ``known`` are not read again."""
    hands = board.state["hands"]
    if news_since is not None and news_since <= board.head_seq:
        new, corrected = hands_changed_since(state=board.state, seq=news_since)
        if len(new) < len(hands) and len(new) + len(corrected) <= HISTORY_SHOWN:
            entries = table_history(
                table=table, state=board.state, hands=[*new, *corrected], known=known
            )
            return HistoryView(
                delta=True,
                new_entries=tuple(e for e in entries if e.hand["seq"] > news_since),
                corrected_entries=tuple(e for e in entries if e.hand["seq"] <= news_since),
            )
    recent = hands[-HISTORY_SHOWN:]
    return HistoryView(
        entries=tuple(table_history(table=table, state=board.state, hands=recent, known=known)),
        older=len(hands) - len(recent),
    )


@dataclass(frozen=True)
class HistoryEntry:
    """One hand of the history with who recorded and corrected it, and when."""

    hand: HandData
    recorded: Event
    corrections: list[tuple[dict[str, Any], Event]]

    def latest_entry(self) -> Event:
        """Return the event whose entry is in force: the last amendment, or the original."""
        amendments = [e for c, e in self.corrections if c["kind"] == "amended"]
        return amendments[-1] if amendments else self.recorded


def table_history(
    *,
    table: Table,
    state: StateData,
    hands: Iterable[HandData] | None = None,
    known: Iterable[Event] = (),
) -> list[HistoryEntry]:
    """Join hands of the state (``hands``, or all of them) with the events that recorded
    and corrected them, newest first; those in ``known`` (a save's own) are not read again."""
    chosen = list(state["hands"] if hands is None else hands)
    seqs = {h["seq"] for h in chosen}
    seqs.update(c["seq"] for h in chosen for c in h["corrections"])
    by_seq = {e.seq: e for e in known if e.seq in seqs}
    if seqs - by_seq.keys():
        by_seq.update((e.seq, e) for e in table.events.filter(seq__in=seqs - by_seq.keys()))
    entries = [
        HistoryEntry(
            hand=h,
            recorded=by_seq[h["seq"]],
            corrections=[(c, by_seq[c["seq"]]) for c in h["corrections"]],
        )
        for h in chosen
    ]
    return entries[::-1]


def hands_changed_since(*, state: StateData, seq: int) -> tuple[list, list]:
    """Return the hands recorded after ``seq``, and the older ones corrected after it."""
    new = [h for h in state["hands"] if h["seq"] > seq]
    corrected = [
        h
        for h in state["hands"]
        if h["seq"] <= seq and any(c["seq"] > seq for c in h["corrections"])
    ]
    return new, corrected


@dataclass(frozen=True)
class MoveLine:
    """One move of the hand in play, and the later event that took it back, if any."""

    event: Event
    taken_back_by: Event | None = None


def hand_move_lines(*, table: Table, state: StateData) -> list[MoveLine]:
    """Return the hand's moves, each taken-back one paired with the undo that took it back.

    An undo takes back the latest move not yet taken back, so undos pop moves off a stack.
    """
    moves = hand_moves(table=table, state=state)
    taken_back: dict[int, Event] = {}
    standing: list[Event] = []
    for event in moves:
        if event.type == MOVE_UNDONE:
            if standing:
                taken_back[standing.pop().seq] = event
        else:
            standing.append(event)
    return [MoveLine(event, taken_back.get(event.seq)) for event in moves]


def last_hand_payload(*, table: Table) -> dict[str, Any]:
    """Return the payload of the table's last whole hand ({} before the first)."""
    payload = (
        table.events.filter(type=HAND_RECORDED).order_by("-seq").values_list("payload", flat=True)
    ).first()
    return payload if isinstance(payload, dict) else {}


def hand_moves(*, table: Table, state: StateData) -> list[Event]:
    """Return the events of the hand being played move by move, deal first (none between
    hands)."""
    play = state.get("play")
    if not play:
        return []
    return list(table.events.filter(seq__gte=play["seq"]).order_by("seq"))


def season_tables(*, season: Season) -> QuerySet[Table]:
    """Return a season's tables, those in play first, then newest first, with their seats."""
    in_play_first = Case(When(status=Table.Status.OPEN, then=0), default=1)
    return season.tables.prefetch_related("seats__player").order_by(in_play_first, "-created_at")

"""Phone pages: each view parses a form, calls one service or selector, and renders.

The same view renders the whole page or, for htmx requests, only the part that changed.
"""

from enum import Enum
from functools import partial, wraps

from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from games.clubs.models import Group
from games.demo import demo_tables
from games.pages.common import add_errors, next_url
from games.pages.entries import entry_of, seats_sat_out
from games.pages.errors import (
    CONFLICT,
    error_answer,
    form_error,
    in_alert_slot,
    page_error,
    wants_json,
)
from games.pages.forms.play import MoveForm
from games.pages.forms.tables import (
    RANKS,
    SUITS,
    ConfirmForm,
    EventForm,
    PhoneNameForm,
    TableCreateForm,
    VoidForm,
)
from games.pages.recorder import PHONE_NAME
from games.pages.recorder import recorder as _recorder
from games.rules.reference import refusal_html
from games.rules.text import violation_text
from games.shared.errors import ActionRefused, AppendConflict, EventRejected
from games.shared.numbers import seq_or_none
from games.shared.throttles import page_status, page_write_allowed
from games.tables import heads, keyring, selectors, services
from games.tables.access import (
    Role,
    group_role,
    request_digests,
    session_follow,
    session_group_grants,
    session_remember,
    write_refusal,
)
from games.tables.board import board_from_state
from games.tables.models import Table
from games.tournaments import selectors as tournament_selectors
from scoring.errors import RuleViolation
from scoring.events import HAND_RECORDED, RESULT_CONFIRMED
from scoring.variants import game_get


def with_table(*, write: bool = False):
    """Resolve the table from the URL and this browser's keys (or, at a league table, the
    signed-in user's club membership); 404 for anyone else."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, table_id, *args, **kwargs):
            try:
                table, role = selectors.table_for_digests(
                    table_id=table_id, digests=request_digests(request, table_id), user=request.user
                )
            except Table.DoesNotExist:
                raise Http404(_("No such table, or this browser has no key for it.")) from None
            if write and role != Role.SCOREKEEPER:
                raise ActionRefused(write_refusal(table))
            return view(request, table, role, *args, **kwargs)

        return wrapper

    return decorator


@require_http_methods(["GET", "HEAD", "POST"])
def home(request):
    """Create a table, and list the tables this browser holds a key for."""
    form = TableCreateForm(request.POST or None)
    if (
        request.method == "POST"
        and form.is_valid()
        and page_write_allowed(request, form, "table_create")
    ):
        try:
            table = services.table_create(
                variant=form.cleaned_data["variant"],
                options=form.options(),
                players=form.player_names(),
                entered_by="",
                user=request.user,
            )
        except EventRejected as exc:
            for violation in exc.violations:
                form.add_error(None, refusal_html(violation_text(violation), violation.rule))
        else:
            session_remember(request, table, Role.SCOREKEEPER)
            return redirect("table", table_id=table.id)
    context = {
        "form": form,
        "tables": selectors.tables_for_digests(digests=request_digests(request)),
        "groups": Group.objects.filter(
            pk__in=[int(pk) for pk in session_group_grants(request)]
        ).order_by("name"),
    }
    if settings.DEBUG:
        # Local runs show the demo tables so a first look has something to look at.
        context["demo_tables"] = demo_tables()
    return render(request, "tables/home.html", context, status=page_status(form))


def _context(
    request,
    table: Table,
    role: Role,
    *,
    page: selectors.TablePage | None = None,
    news_since: int | None = None,
    **extra,
):
    """Return what the table's page shows: its read model (``page``, or the table's at its
    head, with the history's news since ``news_since`` if given) and this phone's forms,
    each built once, and only where ``extra`` brings none of its own."""
    if page is None:
        page = selectors.table_page(table=table, news_since=news_since)
    board = page.board
    context = {
        "table": table,
        "role": role,
        "board": board,
        "history": page.history,
        "moves": page.moves,
        "poll_ms": settings.TABLE_POLL_MS,
        "watch": heads.watch_token(table.id),
        "picker_suits": SUITS,
        "picker_ranks": RANKS,
        "table_rules": page.rules,  # drawn only where the template shows them
        "phone_name": request.session.get(PHONE_NAME, ""),
    }
    if "next_table" not in extra:
        # A finished match whose rematch has started shows the way there, and stops polling.
        context["next_table"] = selectors.table_rematch_newest(table=table)
    if role == Role.SCOREKEEPER and not board.finished and board.decision is None:
        if "move_form" not in extra:
            context["move_form"] = MoveForm(
                head_seq=board.head_seq, seats=len(board.seats), play=board.play
            )
        if "hand_form" not in extra and _hand_form_shown(role, board):
            initial = {"mode": page.entry_mode} if page.entry_mode else {}
            context["hand_form"] = _hand_form(table, board, initial=initial)
    context.update(_night_context(page.pairing, board, role))
    # The way to the table's group and its book, for a phone that holds the group's key.
    if table.group_id and group_role(table.group, digests=request_digests(request)):
        context["table_group"] = table.group
    context.update(extra)
    return context


def _hand_form_shown(role: Role, board) -> bool:
    """Tell whether the page draws the hand form: for its scorekeepers, between hands of a
    match still to be decided."""
    return (
        role == Role.SCOREKEEPER
        and not board.finished
        and board.decision is None
        and not board.playing
    )


def _night_context(pairing, board, role: Role) -> dict:
    """Return what a tournament table shows: its night, round, clock, and who has still to
    confirm the result (each player, on a phone at the table)."""
    if pairing is None:
        return {}
    waiting = board.to_confirm if role == Role.SCOREKEEPER else ()
    lines = {
        line.row.player: line
        for line in tournament_selectors.night_standings(tournament=pairing.round.tournament)
    }
    return {
        "pairing": pairing,
        # Where each player at this table stands in the night, as the room screen shows it.
        "night_lines": [lines[seat.entrant_id] for seat in pairing.seats.all()],
        "to_confirm": waiting,
        "confirm_form": ConfirmForm(head_seq=board.head_seq) if waiting else None,
    }


def _hand_form(table: Table, board, data=None, *, amend=False, **kwargs):
    """Return the hand form of the way the table's game enters a hand (games/pages/entries/),
    drawn against ``board`` (a TableBoard, or a TableEntry before a write).

    Who ended the last hand is never ticked in advance (``initial`` gives its entry's mode
    only): at a noisy table a name ticked from the last hand that nobody notices credits
    the wrong player."""
    kwargs.update(
        seats=list(board.seat_names),
        options=board.options,
        typed_options=board.typed_options,
        head_seq=board.head_seq,
    )
    entry = entry_of(game_get(table.variant))
    out = kwargs.pop("out", None)
    # A seat out of the match sits the hand out (S40-MATCH): the form asks it nothing.
    kwargs.update(variant=table.variant, out=board.out_seats if out is None else out)
    return (entry.correct if amend else entry.record)(data, **kwargs)


@require_safe
@never_cache  # the page shows join links and codes: no cache may keep it
@with_table()
def table_detail(request, table, role):
    """Show the scoreboard; htmx polls ask with ?since=<seq> and get 204 if nothing changed,
    or, once the finished match's rematch has started, are sent on to it."""
    rematch = selectors.table_rematch_newest(table=table)
    if rematch is not None:
        return _rematch_started(request, table, role, rematch)
    since = poll_since(request, table)
    if since == table.head_seq:
        return HttpResponse(status=204)
    if since is not None:
        # The poll's answer draws the board, the hand in play and the history's news, never
        # the hand form: app.js moves the form's head on from the board's data-head-seq.
        context = _context(request, table, role, news_since=since, next_table=None, hand_form=None)
        return render(request, "tables/table.html#poll", context)
    return render(request, "tables/table.html", _context(request, table, role, next_table=None))


@require_safe
@never_cache  # private to the table's phones, like its page
@with_table()
def table_chart(request, table, role):
    """Draw the chart of the running totals: a save's answer asks for it once it is in."""
    context = {"table": table, "board": selectors.table_board(table=table)}
    return render(request, "tables/table.html#chart", context)


def poll_since(request, table: Table) -> int | None:
    """Return the head an htmx poll of the table's page or room screen comes from (None for
    anything else), and put the table's head back in the cache for the idle polls after
    this one (games.pages.idle_polls)."""
    heads.head_offer(table.id, table.head_seq)
    return seq_or_none(request.GET.get("since", "")) if request.htmx else None


HANDS_PER_PAGE = 50


@require_safe
@never_cache  # private to the table's phones, like its page
@with_table()
def table_hands(request, table, role):
    """List every hand of the table, newest first, a page at a time."""
    board = selectors.table_board(table=table)
    page = Paginator(board.hands[::-1], HANDS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "table": table,
        "role": role,
        "board": board,
        "page": page,
        "history": selectors.table_history(table=table, state=board.state, hands=page[::-1]),
    }
    return render(request, "tables/hands.html", context)


def rematch_follow(request, table: Table, rematch: Table) -> None:
    """Carry this phone's access at a finished ``table`` over to its ``rematch``: the role
    its session holds there (access.session_follow), and its account's claim, if any."""
    session_follow(request, table, rematch)
    keyring.keys_claim_follow(user=request.user, table=table, rematch=rematch)


def rematch_poll(request) -> bool:
    """Tell whether the request is a page's htmx poll (``?since=``): those are moved on."""
    return bool(request.htmx) and "since" in request.GET


def _rematch_started(request, table: Table, role: Role, rematch: Table) -> HttpResponse:
    """Answer a finished table whose rematch has started: a poll of its board moves the
    phone on to the newest table, with the role it held here (HX-Redirect); the page itself
    shows the result, and the way on for a browser without JavaScript."""
    heads.head_retire(table.id)  # so that every poll of it, now or later, comes here
    if rematch_poll(request):
        rematch_follow(request, table, rematch)
        return HttpResponseClientRedirect(reverse("table", args=[rematch.id]))
    context = _context(request, table, role, next_table=rematch)
    return render(request, "tables/table.html", context)


@require_POST
@with_table(write=True)
def table_rematch_view(request, table, role):
    """Start the next match with the same players and options, or open the one already
    started from any phone (a double tap, a stale page); this phone keeps score there."""
    if tournament_selectors.table_pairing(table=table) is not None:
        # A night's next match is the director's next round, not a table's choice.
        raise ActionRefused(
            _("A tournament night's table has no rematch: the director pairs the next round.")
        )
    # A refusal goes to the pages' one answer (games/pages/errors.py): 403, 422 or 400.
    rematch = services.table_rematch(
        table_id=table.id, actor=request.user, entered_by=_recorder(request, table)
    )
    session_remember(request, rematch, Role.SCOREKEEPER)
    keyring.keys_claim_follow(user=request.user, table=table, rematch=rematch)
    return redirect("table", table_id=rematch.id)


@require_safe
@never_cache
@with_table()
def table_next_view(request, table, role):
    """Open the rematch of a finished table (the page's link "The rematch is on"), with the
    role this phone holds here; back to the table while it has none."""
    rematch = selectors.table_rematch_newest(table=table)
    if rematch is None:
        return redirect("table", table_id=table.id)
    rematch_follow(request, table, rematch)
    return redirect("table", table_id=rematch.id)


@require_POST
def phone_name(request):
    """Name this phone, so the history says which phone recorded each entry."""
    form = PhoneNameForm(request.POST)
    if form.is_valid():
        request.session[PHONE_NAME] = form.cleaned_data["name"]
    if not form.is_valid():
        return HttpResponse(" ".join(form.errors["name"]), status=400)
    return HttpResponseRedirect(next_url(request, request.POST.get("next", ""), reverse("home")))


class FormKind(Enum):
    """The form a write comes from, which says how its answer is drawn: the hand and move
    forms live on the table's page (htmx saves), the corrections on a page of their own."""

    HAND = "hand_form"
    MOVE = "move_form"
    AMEND = "amend_form"
    VOID = "void_form"

    @property
    def on_table_page(self) -> bool:
        return self in (FormKind.HAND, FormKind.MOVE)


def _append(request, table: Table, form, event_type: str, payload: dict) -> services.AppendResult:
    """Append the form's event and return the service's result; its refusals (EventRejected,
    AppendConflict, ActionRefused) are raised for the caller, or the pages' one answer.

    A whole hand goes through ``hand_append``, which re-bases an entry whose hand is still
    the next one, so a phone whose form is a poll behind saves on the first tap.
    """
    common = {
        "table_id": table.id,
        "event_id": form.cleaned_data["event_id"],
        "expected_seq": form.cleaned_data["expected_seq"],
        "payload": payload,
        "entered_by": _recorder(request, table),
        "user": request.user,
    }
    if event_type == HAND_RECORDED:
        return services.hand_append(**common)
    return services.event_append(event_type=event_type, **common)


def _write(
    request, table: Table, role: Role, *, form, kind: FormKind, event, extra=None, explain=None
):
    """Validate the form, append the event ``event()`` builds from it, and answer: stored,
    refused (the form's errors or a rule, 422, put on the form by ``explain``, by default
    ``add_errors``) or overtaken by another phone (409)."""
    rejected = None
    if form.is_valid():
        try:
            event_type, payload = event()
            result = _append(request, table, form, event_type, payload)
        except EventRejected as exc:
            (explain or partial(add_errors, form))(exc)
            rejected = exc
        except AppendConflict as exc:
            return _conflict(request, table, role, form=form, kind=kind, exc=exc, extra=extra)
        else:
            return _saved(request, table, role, kind=kind, result=result, form=form)
    return _refused(request, table, role, form=form, kind=kind, rejected=rejected, extra=extra)


def _saved(request, table: Table, role: Role, *, kind: FormKind, result, form=None) -> HttpResponse:
    """Answer a stored write. The offline outbox gets JSON; an htmx save from the table's
    page gets its board (the forms say ``hx-target="#board"``) and, out of band, the hand in
    play, what the history gained since the head the phone showed (``shown_seq``, which the
    forms send from the board) and the form's fresh keys; the form itself stays on the
    page, emptied by app.js, unless the next entry needs another form (a new one is sent).
    Anything else goes back to the table's page.

    Everything is drawn from the service's result (the state at the new head it folded and
    the stored event), never read again: ``selectors.table_page`` turns it into the page."""
    if wants_json(request):
        return JsonResponse({"ok": True, "seq": result.event.seq, "head": result.head_seq})
    if not (request.htmx and kind.on_table_page):
        return redirect("table", table_id=table.id)
    table.head_seq, table.head_hash = result.head_seq, result.head_hash
    shown = seq_or_none(request.POST.get("shown_seq", ""))
    if shown is not None and shown > result.head_seq:
        shown = None
    page = selectors.table_page(
        table=table, state=result.engine_state, news_since=shown, appended=result.event
    )
    # The same hand form again: only its keys change, so only they are drawn. Another
    # (none, once the match is over or a hand is dealt to play move by move; one, once such
    # a hand is over): built and sent. A seat gone out of the match (S40-MATCH) changes the
    # rows: the new form is sent too.
    board = page.board
    keys_only = (
        kind == FormKind.HAND
        and _hand_form_shown(role, board)
        and getattr(form, "out", ()) == board.out_seats
    )
    extra = {}
    if keys_only:
        extra = {"hand_form": None, "form_keys": EventForm(head_seq=board.head_seq)}
    context = _context(request, table, role, page=page, chart_later=True, **extra)
    context["form_keys_only"] = keys_only
    return render(request, "tables/table.html#saved", context)


def _refused(request, table: Table, role: Role, *, form, kind: FormKind, rejected, extra=None):
    """Answer a refused write (422): the form's errors and the rule it broke (``rejected``).
    An htmx save and the outbox get them as the pages' one answer (the form stays as typed);
    a full page gets the form again, with them on it."""
    if wants_json(request) or (request.htmx and kind.on_table_page):
        return error_answer(request, form_error(form, rejected=rejected, request=request))
    table.refresh_from_db()
    context = _context(request, table, role, **{kind.value: form}, **(extra or {}))
    template = "tables/table.html" if kind.on_table_page else "tables/correction.html"
    return render(request, template, context, status=422)


def _conflict(request, table: Table, role: Role, *, form, kind: FormKind, exc, extra=None):
    """Answer a write another phone overtook (409). A hand gets both entries side by side:
    the hands recorded since its form was drawn, and this one, kept in the form, to record
    as the next (one tap: the form's keys come on the new head) or drop."""
    # The conflict carries the state at the head it found: drawn from it, not read again.
    table.head_seq, table.head_hash = exc.head_seq, exc.head_hash
    if wants_json(request):
        return error_answer(request, page_error(exc, request))
    seen = form.cleaned_data.get("expected_seq", 0)
    board = board_from_state(exc.state)
    conflict_hands = [h for h in board.hands if h["seq"] > seen] if kind == FormKind.HAND else []
    if request.htmx and kind.on_table_page:
        if not conflict_hands:
            return error_answer(request, page_error(exc, request))
        context = {
            "table": table,
            "board": board,
            "conflict_hands": conflict_hands,
            "event_id": form.cleaned_data["event_id"],
        }
        response = render(request, "tables/table.html#conflict", context, status=409)
        return in_alert_slot(request, response)
    # A full page: the form drawn again on the new head, values kept, to send again.
    data = request.POST.copy()
    data["expected_seq"] = str(table.head_seq)
    form = form.__class__(data, **form.rebuild_kwargs(table.head_seq))
    form.is_valid()
    extra = dict(extra or {})
    if conflict_hands:
        extra["conflict_hands"] = conflict_hands
    else:
        form.add_error(None, CONFLICT)
    context = _context(request, table, role, **{kind.value: form}, **extra)
    template = "tables/table.html" if kind.on_table_page else "tables/correction.html"
    return render(request, template, context, status=409)


@require_POST
@with_table(write=True)
def hand_record(request, table, role):
    """Record a finished hand: Gin by counts or by cards, the other games by every seat's cards."""
    # Checked against the table's seats and options as the engine holds them: no board is
    # drawn before the write, and the answer draws the one board from the write's result.
    form = _hand_form(table, selectors.table_entry(table=table), request.POST)
    return _write(
        request,
        table,
        role,
        form=form,
        kind=FormKind.HAND,
        event=lambda: (HAND_RECORDED, form.payload()),
    )


@require_POST
@with_table(write=True)
def move_record(request, table, role):
    """Record one move of the hand played move by move, or the deal that starts it."""
    # The hand as the phone saw it, so a refusal says what the move lacked in its words.
    board = selectors.table_board(table=table)
    form = MoveForm(request.POST, head_seq=table.head_seq, seats=len(board.seats), play=board.play)
    return _write(
        request,
        table,
        role,
        form=form,
        kind=FormKind.MOVE,
        event=form.event,
        explain=form.add_refusal,
    )


@require_POST
@with_table(write=True)
def hand_preview_view(request, table, role):
    """Show what the hand in the form would score, with its items, before it is saved."""
    board = selectors.table_board(table=table)
    form = _hand_form(table, board, request.POST)
    result, errors = None, []
    if form.is_valid():
        try:
            result = selectors.hand_preview(table=table, payload=form.payload())
        except RuleViolation as exc:
            errors = [(violation_text(v), v.rule) for v in exc.violations]
    else:
        errors = [(" ".join(e), "") for e in form.errors.values()]
    context = {"result": result, "errors": errors, "board": board}
    return render(request, "tables/table.html#preview", context)


def _history_entry(table: Table, number: int, board) -> selectors.HistoryEntry:
    hands = [hand for hand in board.hands if hand["number"] == number]
    if not hands:
        raise Http404
    return selectors.table_history(table=table, state=board.state, hands=hands)[0]


@require_http_methods(["GET", "HEAD", "POST"])
@with_table(write=True)
def hand_amend(request, table, role, number: int):
    """Correct a recorded hand: the history keeps the original beside the amendment."""
    board = selectors.table_board(table=table)
    entry = _history_entry(table, number, board)
    payload = entry.latest_entry().payload
    # The seats out of the match when that hand was played, not now.
    out = {"out": seats_sat_out(table.variant, payload)}
    if request.method == "GET":
        form_class = entry_of(game_get(table.variant)).record
        initial = form_class.initial_from_payload(payload)
        form = _hand_form(table, board, amend=True, initial=initial, **out)
        context = _context(request, table, role, entry=entry, amend_form=form)
        return render(request, "tables/correction.html", context)
    form = _hand_form(table, board, request.POST, amend=True, **out)

    def event():
        return "hand_amended", {
            **form.payload(),
            "hand": number,
            "reason": form.cleaned_data["reason"],
        }

    return _write(
        request, table, role, form=form, kind=FormKind.AMEND, event=event, extra={"entry": entry}
    )


@require_POST
@with_table(write=True)
def result_confirm(request, table, role):
    """A player confirms the finished match's result (a tournament table asks each one)."""
    form = ConfirmForm(request.POST, head_seq=table.head_seq)
    error, status = _("Choose who confirms."), 422
    if form.is_valid():
        try:
            _append(request, table, form, RESULT_CONFIRMED, {"seat": form.cleaned_data["seat"]})
        except EventRejected as exc:
            error = page_error(exc, request).html
        except AppendConflict:
            error, status = _("The result has just changed: check it, then confirm again."), 409
        else:
            return redirect("table", table_id=table.id)
    table.refresh_from_db()
    context = _context(request, table, role, confirm_error=error)
    return render(request, "tables/table.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@with_table(write=True)
def hand_void(request, table, role, number: int):
    """Void a recorded hand: it stays in the history, struck through, and stops counting."""
    entry = _history_entry(table, number, selectors.table_board(table=table))
    if request.method == "GET":
        form = VoidForm(head_seq=table.head_seq)
        context = _context(request, table, role, entry=entry, void_form=form)
        return render(request, "tables/correction.html", context)
    form = VoidForm(request.POST, head_seq=table.head_seq)

    def event():
        return "hand_voided", {"hand": number, "reason": form.cleaned_data["reason"]}

    return _write(
        request, table, role, form=form, kind=FormKind.VOID, event=event, extra={"entry": entry}
    )

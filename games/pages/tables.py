"""Phone pages: each view parses a form, calls one service or selector, and renders.

The same view renders the whole page or, for htmx requests, only the part that changed.
"""

from functools import wraps

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from games.clubs.models import Group
from games.demo import demo_tables
from games.pages.forms.play import MoveForm
from games.pages.forms.tables import (
    RANKS,
    SUITS,
    ConfirmForm,
    GinAmendForm,
    GinHandForm,
    PhoneNameForm,
    SeatsAmendForm,
    SeatsHandForm,
    TableCreateForm,
    VoidForm,
)
from games.rules.reference import refusal_html
from games.rules.text import table_rules, violation_text
from games.shared.errors import ActionRefused, EventRejected
from games.shared.numbers import seq_or_none
from games.shared.throttles import page_status, page_write_allowed
from games.tables import heads, selectors, services
from games.tables.access import (
    Role,
    request_digests,
    session_group_grants,
    session_remember,
    write_refusal,
)
from games.tables.models import Table
from games.tournaments import selectors as tournament_selectors
from scoring.errors import RuleViolation
from scoring.events import HAND_RECORDED, RESULT_CONFIRMED


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
                return HttpResponse(write_refusal(table), status=403)
            return view(request, table, role, *args, **kwargs)

        return wrapper

    return decorator


@require_http_methods(["GET", "POST"])
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
                entered_by=_("creator"),
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


# How many hands the table page shows (the latest); the rest are on the hands page.
HISTORY_SHOWN = 20


def _context(request, table: Table, role: Role, *, news_since: int | None = None, **extra):
    """Return what the table's page shows; with ``news_since``, the history's news since
    that head instead of its latest hands (see _history)."""
    state = selectors.table_state(table=table)
    match = _match_context(state)
    context = {
        "table": table,
        "role": role,
        "state": state,
        **_history(table, state, news_since),
        "seats": list(zip(state["seats"], match.pop("board_totals"), strict=True)),
        "poll_ms": settings.TABLE_POLL_MS,
        "watch": heads.watch_token(table.id),
        "winner_name": state["seats"][state["winner"]] if state["winner"] is not None else "",
        "picker_suits": SUITS,
        "picker_ranks": RANKS,
        "table_rules": table_rules(state["variant"], state["options"]),
        "phone_name": request.session.get(PHONE_NAME, ""),
        **match,
    }
    if role == Role.SCOREKEEPER and not state["finished"] and not state.get("decision"):
        if "move_form" not in extra:
            context["move_form"] = MoveForm(head_seq=table.head_seq, seats=len(state["seats"]))
        if "hand_form" not in extra and not state["play"]:
            context["hand_form"] = _hand_form(table, state)
    if state["play"]:
        context.update(_play_context(table, state))
    context.update(_night_context(table, state, role))
    context.update(extra)
    return context


def _night_context(table: Table, state: dict, role: Role) -> dict:
    """Return what a tournament table shows: its night, round, clock, and who has still to
    confirm the result (each player, on a phone at the table)."""
    pairing = tournament_selectors.table_pairing(table=table)
    if pairing is None:
        return {}
    confirmed = set(state.get("confirmed", ()))
    waiting = []
    if role == Role.SCOREKEEPER and state["finished"] and not state.get("decision"):
        waiting = [
            (seat, name) for seat, name in enumerate(state["seats"]) if seat not in confirmed
        ]
    lines = {
        line.row.player: line
        for line in tournament_selectors.night_standings(tournament=pairing.round.tournament)
    }
    return {
        "pairing": pairing,
        # Where each player at this table stands in the night, as the room screen shows it.
        "night_lines": [lines[seat.entrant_id] for seat in pairing.seats.all()],
        "to_confirm": waiting,
        "confirm_form": ConfirmForm(head_seq=table.head_seq) if waiting else None,
    }


def _play_context(table: Table, state: dict) -> dict:
    """Return what the move-by-move view shows: seats, melds by owner, the hand's moves."""
    play = state["play"]
    seats = state["seats"]
    melds = play["table"]
    # Rummy40 adds only to one's own melds (R40-ADD), so who laid a meld matters there.
    if state["variant"] == "rummy40":
        groups = [
            (seats[seat], [m for m in melds if m["owner"] == seat])
            for seat in range(len(seats))
            if any(m["owner"] == seat for m in melds)
        ]
    else:
        groups = [("", melds)] if melds else []
    return {
        "play": play,
        "play_seats": [
            {"seat": seat, "name": name, **play["hands"][seat]} for seat, name in enumerate(seats)
        ],
        "meld_groups": groups,
        "moves": selectors.hand_move_lines(table=table, state=state),
        "turn_name": seats[play["turn"]] if play["turn"] is not None else "",
        "rearrange_text": "\n".join(m["meld"] for m in melds),
    }


def _match_context(state: dict) -> dict:
    """Return the scoreboard's figures: totals with end bonuses, winners and loser by name."""
    match = state.get("match")
    if match is None:  # Gin's projection has no match entry.
        winners = [] if state["winner"] is None else [state["winner"]]
        return {"board_totals": state["totals"], "winner_seats": winners}
    seats = state["seats"]
    return {
        # Before the first hand the match has no totals yet; after the last, they hold the
        # end-of-match bonuses (KR-MATCH).
        "board_totals": match["totals"] or state["totals"],
        "winner_seats": match["winners"],
        "winner_names": [seats[seat] for seat in match["winners"]],
        "loser_name": seats[match["loser"]] if match.get("loser") is not None else "",
        "match_items": match["items"],
    }


def _hand_form(table: Table, state: dict, data=None, *, amend=False, **kwargs):
    """Return the hand form of the table's game: Gin's, or one row per seat for the others."""
    kwargs.update(seats=state["seats"], options=state["options"], head_seq=table.head_seq)
    if data is None and not amend and "initial" not in kwargs:
        # The next hand is entered the way the last one was (counts, cards or points), and at
        # Gin whoever ended the last hand is offered first: players on a run tend to knock again.
        last = selectors.last_hand_payload(table=table)
        initial = {key: last[key] for key in ("mode", "knocker") if key in last}
        if table.variant != "gin":
            initial.pop("knocker", None)
        if initial:
            kwargs["initial"] = initial
    if table.variant == "gin":
        return (GinAmendForm if amend else GinHandForm)(data, **kwargs)
    form_class = SeatsAmendForm if amend else SeatsHandForm
    return form_class(data, variant=table.variant, **kwargs)


@require_GET
@never_cache  # the page shows join links and codes: no cache may keep it
@with_table()
def table_detail(request, table, role):
    """Show the scoreboard; htmx polls ask with ?since=<seq> and get 204 if nothing changed."""
    since = poll_since(request, table)
    if since == table.head_seq:
        return HttpResponse(status=204)
    if since is not None:
        context = _context(request, table, role, news_since=since)
        return render(request, "tables/table.html#poll", context)
    return render(request, "tables/table.html", _context(request, table, role))


def poll_since(request, table: Table) -> int | None:
    """Return the head an htmx poll of the table's page or room screen comes from (None for
    anything else), and put the table's head back in the cache for the idle polls after
    this one (games.pages.idle_polls)."""
    heads.head_offer(table.id, table.head_seq)
    return seq_or_none(request.GET.get("since", "")) if request.htmx else None


def _history(table: Table, state: dict, news_since: int | None) -> dict:
    """Return the history an answer brings: the hands recorded and corrected since the
    phone's head ``news_since`` (``history_delta``), or, without one, or when the news is
    most of the history (or the phone is ahead of the log), the latest hands; older ones
    are a page of their own."""
    if news_since is not None and news_since <= state["head_seq"]:
        new, corrected = selectors.hands_changed_since(state=state, seq=news_since)
        if len(new) < len(state["hands"]) and len(new) + len(corrected) <= HISTORY_SHOWN:
            entries = selectors.table_history(table=table, state=state, hands=[*new, *corrected])
            return {
                "history_delta": True,
                "new_entries": [e for e in entries if e.hand["seq"] > news_since],
                "corrected_entries": [e for e in entries if e.hand["seq"] <= news_since],
            }
    recent = state["hands"][-HISTORY_SHOWN:]
    return {
        "history": selectors.table_history(table=table, state=state, hands=recent),
        "older_hands": len(state["hands"]) - len(recent),
    }


HANDS_PER_PAGE = 50


@require_GET
@never_cache  # private to the table's phones, like its page
@with_table()
def table_hands(request, table, role):
    """List every hand of the table, newest first, a page at a time."""
    state = selectors.table_state(table=table)
    page = Paginator(state["hands"][::-1], HANDS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "table": table,
        "role": role,
        "state": state,
        "page": page,
        "history": selectors.table_history(table=table, state=state, hands=page[::-1]),
    }
    return render(request, "tables/hands.html", context)


CONFLICT = (
    "Someone else just recorded on this table. Check the history: if your entry is already "
    "there, you are done; otherwise send it again."
)


@require_POST
@with_table(write=True)
def table_rematch(request, table, role):
    """Start the next match with the same players and options; this phone keeps score."""
    try:
        rematch = services.table_rematch(
            table_id=table.id, actor=request.user, entered_by=_recorder(request)
        )
    except (ActionRefused, EventRejected, ValidationError) as exc:
        return HttpResponse(" ".join(getattr(exc, "messages", [str(exc)])), status=409)
    session_remember(request, rematch, Role.SCOREKEEPER)
    return redirect("table", table_id=rematch.id)


PHONE_NAME = "phone_name"


def _recorder(request) -> str:
    """Say who recorded, as the history shows it: the name this phone was given, else the
    signed-in member (always the member at a league table: the service sees to it)."""
    if name := request.session.get(PHONE_NAME):
        return name
    return request.user.get_username() if request.user.is_authenticated else _("scorekeeper")


@require_POST
def phone_name(request):
    """Name this phone, so the history says which phone recorded each entry."""
    form = PhoneNameForm(request.POST)
    if form.is_valid():
        request.session[PHONE_NAME] = form.cleaned_data["name"]
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = reverse("home")
    if not form.is_valid():
        return HttpResponse(" ".join(form.errors["name"]), status=400)
    return redirect(back)


def _append(request, table: Table, form, event_type: str, payload: dict) -> int | None:
    """Append the form's event; return None when stored, else the HTTP status to answer.

    A whole hand goes through ``hand_append``, which re-bases an entry whose hand is still
    the next one, so a phone whose form is a poll behind saves on the first tap.
    """
    common = {
        "table_id": table.id,
        "event_id": form.cleaned_data["event_id"],
        "expected_seq": form.cleaned_data["expected_seq"],
        "payload": payload,
        "entered_by": _recorder(request),
        "user": request.user,
    }
    try:
        if event_type == HAND_RECORDED:
            services.hand_append(**common)
        else:
            services.event_append(event_type=event_type, **common)
    except EventRejected as exc:
        for violation in exc.violations:
            form.add_error(None, refusal_html(violation_text(violation), violation.rule))
        return 422
    except services.AppendConflict:
        return 409
    return None


def _saved(request, table: Table, role: Role) -> HttpResponse:
    """Answer a stored htmx save: with the board and, out of band, the hand in play, a fresh
    form and what the history gained since the head the phone showed (``shown_seq``, which
    app.js adds); a phone that did not say gets the whole of ``#main``."""
    shown = seq_or_none(request.POST.get("shown_seq", ""))
    if shown is None or shown > table.head_seq:
        return render(request, "tables/table.html#main", _context(request, table, role))
    context = _context(request, table, role, news_since=shown)
    response = render(request, "tables/table.html#saved", context)
    return reswap(retarget(response, "#board"), "outerHTML")


def _respond(request, table, role, *, form, form_name: str, status: int | None, extra=None):
    """Answer a write: the fresh table on success, else the form with what went wrong."""
    table.refresh_from_db()
    if status is None:
        if request.htmx and form_name in ("hand_form", "move_form"):
            return _saved(request, table, role)
        return redirect("table", table_id=table.id)
    extra = dict(extra or {})
    if status == 409:
        # Redraw the form against the new head, values kept, so sending it again is one tap.
        seen = form.cleaned_data.get("expected_seq", 0) if hasattr(form, "cleaned_data") else 0
        data = request.POST.copy()
        data["expected_seq"] = str(table.head_seq)
        form = form.__class__(data, **form.rebuild_kwargs(table.head_seq))
        form.is_valid()
        if form_name == "hand_form":
            # Both entries side by side: the hands other phones recorded since this form
            # was drawn, and this one, still in the form, to record as the next or drop.
            state = selectors.table_state(table=table)
            extra["conflict_hands"] = [h for h in state["hands"] if h["seq"] > seen]
        else:
            form.add_error(None, _(CONFLICT))
    context = _context(request, table, role, **{form_name: form}, **extra)
    if form_name not in ("hand_form", "move_form"):
        return render(request, "tables/correction.html", context, status=status)
    template = "tables/table.html#main" if request.htmx else "tables/table.html"
    return render(request, template, context, status=status)


@require_POST
@with_table(write=True)
def hand_record(request, table, role):
    """Record a finished hand: Gin by counts or by cards, the other games by every seat's cards."""
    form = _hand_form(table, selectors.table_state(table=table), request.POST)
    status = (
        _append(request, table, form, "hand_recorded", form.payload()) if form.is_valid() else 422
    )
    return _respond(request, table, role, form=form, form_name="hand_form", status=status)


@require_POST
@with_table(write=True)
def move_record(request, table, role):
    """Record one move of the hand played move by move, or the deal that starts it."""
    form = MoveForm(request.POST, head_seq=table.head_seq, seats=table.seats.count())
    status = 422
    if form.is_valid():
        event_type, payload = form.event()
        status = _append(request, table, form, event_type, payload)
    return _respond(request, table, role, form=form, form_name="move_form", status=status)


@require_POST
@with_table(write=True)
def hand_preview(request, table, role):
    """Show what the hand in the form would score, with its items, before it is saved."""
    state = selectors.table_state(table=table)
    form = _hand_form(table, state, request.POST)
    result, errors = None, []
    if form.is_valid():
        try:
            result = selectors.hand_preview(table=table, payload=form.payload())
        except RuleViolation as exc:
            errors = [(violation_text(v), v.rule) for v in exc.violations]
    else:
        errors = [(" ".join(e), "") for e in form.errors.values()]
    context = {"result": result, "errors": errors, "state": state}
    return render(request, "tables/table.html#preview", context)


def _history_entry(table: Table, number: int, state: dict) -> selectors.HistoryEntry:
    hands = [hand for hand in state["hands"] if hand["number"] == number]
    if not hands:
        raise Http404
    return selectors.table_history(table=table, state=state, hands=hands)[0]


@require_http_methods(["GET", "POST"])
@with_table(write=True)
def hand_amend(request, table, role, number: int):
    """Correct a recorded hand: the history keeps the original beside the amendment."""
    state = selectors.table_state(table=table)
    entry = _history_entry(table, number, state)
    if request.method == "GET":
        form_class = GinHandForm if table.variant == "gin" else SeatsHandForm
        initial = form_class.initial_from_payload(entry.latest_entry().payload)
        form = _hand_form(table, state, amend=True, initial=initial)
        status = 200
    else:
        form = _hand_form(table, state, request.POST, amend=True)
        status = 422
        if form.is_valid():
            payload = {**form.payload(), "hand": number, "reason": form.cleaned_data["reason"]}
            status = _append(request, table, form, "hand_amended", payload)
    if status == 200:
        context = _context(request, table, role, entry=entry, amend_form=form)
        return render(request, "tables/correction.html", context)
    return _respond(
        request,
        table,
        role,
        form=form,
        form_name="amend_form",
        status=status,
        extra={"entry": entry},
    )


@require_POST
@with_table(write=True)
def result_confirm(request, table, role):
    """A player confirms the finished match's result (a tournament table asks each one)."""
    form = ConfirmForm(request.POST, head_seq=table.head_seq)
    error = _("Choose who confirms.")
    if form.is_valid():
        status = _append(
            request, table, form, RESULT_CONFIRMED, {"seat": form.cleaned_data["seat"]}
        )
        if status is None:
            return redirect("table", table_id=table.id)
        error = (
            _("The result has just changed: check it, then confirm again.")
            if status == 409
            else " ".join(str(e) for e in form.non_field_errors())
        )
    table.refresh_from_db()
    context = _context(request, table, role, confirm_error=error)
    return render(request, "tables/table.html", context, status=422)


@require_http_methods(["GET", "POST"])
@with_table(write=True)
def hand_void(request, table, role, number: int):
    """Void a recorded hand: it stays in the history, struck through, and stops counting."""
    entry = _history_entry(table, number, selectors.table_state(table=table))
    if request.method == "GET":
        form = VoidForm(head_seq=table.head_seq)
        context = _context(request, table, role, entry=entry, void_form=form)
        return render(request, "tables/correction.html", context)
    form = VoidForm(request.POST, head_seq=table.head_seq)
    status = 422
    if form.is_valid():
        payload = {"hand": number, "reason": form.cleaned_data["reason"]}
        status = _append(request, table, form, "hand_voided", payload)
    return _respond(
        request,
        table,
        role,
        form=form,
        form_name="void_form",
        status=status,
        extra={"entry": entry},
    )

"""A club's tournament nights: the director's page, the table cards, the room's screen,
and the results for everyone once the night is over."""

import csv
import hashlib

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.clubs.models import Player
from games.pages import live
from games.pages.common import add_errors, admins_only, with_club
from games.pages.errors import page_error, wants_json
from games.pages.forms.pairs_nights import PairForm
from games.pages.forms.tournaments import (
    AdjustForm,
    DecisionForm,
    EntrantNamesForm,
    EntrantsForm,
    TournamentForm,
)
from games.pages.joining import qr_svg, share_context
from games.pages.tables import with_table
from games.shared.errors import ActionRefused
from games.shared.numbers import id_or_none
from games.shared.throttles import page_status
from games.tables.access import Role, session_remember
from games.tournaments import exports, pairs_selectors, selectors, services, table_results
from games.tournaments.models import PairMember, Tournament


def _tournament(access, tournament_id: int) -> Tournament:
    if not access.is_member:
        raise Http404
    tournament = Tournament.objects.filter(pk=tournament_id, club=access.club).first()
    if tournament is None:
        raise Http404
    return tournament


def _night_context(tournament: Tournament, *, decide: bool = False) -> dict:
    """Return what the night's pages show; with ``decide``, each table's decision form (a
    victory points field for each of its seats), for the director's page."""
    current = selectors.current_round(tournament=tournament)
    statuses = selectors.round_statuses(round_=current) if current else []
    return {
        "tournament": tournament,
        "round": current,
        "round_tables": [
            (line, _director_forms(line.pairing) if decide else None) for line in statuses
        ],
        "standings": selectors.night_standings(tournament=tournament),
        "bracket": selectors.bracket(tournament=tournament),
        "now": timezone.now(),
    }


def _director_forms(pairing) -> dict:
    """Return a table's forms on the director's page: its decision and its adjustment, a
    field or a choice for each of its seats."""
    names = [seat.entrant.name for seat in pairing.seats.all()]
    return {
        "decide": DecisionForm(seats=names, auto_id=f"id_decide_{pairing.pk}_%s"),
        "adjust": AdjustForm(seats=names, auto_id=f"id_adjust_{pairing.pk}_%s"),
        "names": list(enumerate(names)),
    }


@require_http_methods(["GET", "HEAD", "POST"])
@with_club
def tournament_create_view(request, access):
    """Start a night's page: its name, its league's rules, its rounds and their length."""
    admins_only(access)
    form = TournamentForm(request.POST or None, club=access.club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                actor=request.user,
                club_id=access.club.pk,
                league_id=data["league"].pk,
                name=data["name"],
                rounds=data["rounds"],
                round_minutes=data["round_minutes"],
                format=data["format"],
                scale=data["scale"],
                points=form.points(),
                season_id=data["season"].pk if data["season"] else None,
                late_penalty=data.get("late_penalty") or 0,
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect("tournament", club=access.club.slug, tournament_id=tournament.pk)
    context = {"club": access.club, "form": form}
    return render(request, "tournaments/new.html", context, status=page_status(form))


@require_safe
@never_cache
@with_club
def tournament_detail(request, access, tournament_id: int):
    """The night for the director (and for members to follow): entrants, rounds, standings."""
    tournament = _tournament(access, tournament_id)
    return render(request, "tournaments/night.html", _detail_context(request, access, tournament))


def _directs(request, access, tournament) -> bool:
    """Tell whether the signed-in user runs this night: a club admin, or its deputy."""
    return access.is_admin or selectors.is_deputy(tournament=tournament, user=request.user)


def _detail_context(request, access, tournament, **extra) -> dict:
    # The version is read before what it vouches for: a move committed in between then makes
    # the page claim an older version than it shows (one more fetch), never a newer one (a
    # page that would wait for news it never drew).
    live_version = _live_version(tournament)
    directs = _directs(request, access, tournament)
    return {
        "club": access.club,
        "access": access,
        "directs": directs,
        **(_deputies(access, tournament) if access.is_admin else {}),
        **_entrants(access, tournament),
        "names_form": EntrantNamesForm(),
        "kept_apart": tournament.kept_apart.select_related("first__player", "second__player"),
        **_night_context(tournament, decide=directs),
        **(_room_link(request, tournament) if directs else {}),
        "live_version": live_version,
        **extra,
    }


def _live_version(tournament) -> str:
    """Return the night's version for a page that follows its stream (push on), else ""."""
    return selectors.night_version(tournament=tournament) if settings.PUSH_URL else ""


def _entrants(access, tournament) -> dict:
    """Return the night's entrants (players by name, or pairs by number) and the forms that
    add more from the club's players not entered yet."""
    entrants = tournament.entrants.select_related("player").prefetch_related("members__player")
    if pairs_selectors.is_pairs(tournament):
        entered = PairMember.objects.filter(tournament=tournament).values_list("player_id")
        roster = Player.objects.filter(club=access.club).exclude(pk__in=entered).order_by("name")
        return {"entrants": entrants.order_by("number"), "pair_form": PairForm(players=roster)}
    entered = tournament.entrants.values_list("player_id", flat=True)
    roster = Player.objects.filter(club=access.club).exclude(pk__in=entered).order_by("name")
    return {
        "entrants": entrants.order_by("player__name"),
        "entrants_form": EntrantsForm(players=roster),
    }


def _deputies(access, tournament) -> dict:
    """Return who deputises for the night's director, and the members who could."""
    deputies = list(tournament.deputies.order_by("username"))
    taken = {user.pk for user in deputies}
    members = [
        membership.user
        for membership in access.club.memberships.select_related("user").order_by("user__username")
        if membership.user_id not in taken and not membership.is_admin
    ]
    return {"deputies": deputies, "deputy_choices": members}


def _director_post(request, access, tournament_id: int, act) -> object:
    """Run a director's action and go back to the night's page. A refusal of the action is
    shown on the night's page itself, at its top and focused, with the status every page
    gives it (games/pages/errors.py: 403 not allowed now, 400 not valid, 409 overtaken), so
    the director reads it where the night is and taps on. Refused before anything is read
    but the night, to anyone who does not run it."""
    tournament = _tournament(access, tournament_id)
    if not _directs(request, access, tournament):
        raise ActionRefused(_("Only the night's director can do this."))
    try:
        act(tournament)
    except (ActionRefused, ValidationError) as exc:
        error = page_error(exc, request)
        if request.htmx or wants_json(request):
            raise
        tournament.refresh_from_db()
        context = _detail_context(request, access, tournament, error=error.html)
        return render(request, "tournaments/night.html", context, status=error.status)
    return redirect("tournament", club=access.club.slug, tournament_id=tournament.pk)


@require_POST
@with_club
def tournament_entrants(request, access, tournament_id: int):
    """Register players from the club's roster (checked in: they are at the door)."""

    def act(tournament):
        ids = [id_or_none(pk) for pk in request.POST.getlist("players")[:200]]
        ids = [pk for pk in ids if pk is not None]
        services.entrants_register(actor=request.user, tournament_id=tournament.pk, player_ids=ids)

    return _director_post(request, access, tournament_id, act)


@require_POST
@with_club
def tournament_entrant_names(request, access, tournament_id: int):
    """Register players by name, pasted one a line (not checked in yet)."""
    form = EntrantNamesForm(request.POST)

    def act(tournament):
        if not form.is_valid():
            raise ValidationError([m for errors in form.errors.values() for m in errors])
        services.entrants_register_names(
            actor=request.user, tournament_id=tournament.pk, names=form.name_lines()
        )

    return _director_post(request, access, tournament_id, act)


@require_POST
@with_club
def tournament_deputy(request, access, tournament_id: int):
    """Let a member direct this night (``grant``), or take it back (``revoke``): admins."""
    admins_only(access)
    tournament = _tournament(access, tournament_id)
    grant = id_or_none(request.POST.get("grant", ""))
    revoke = id_or_none(request.POST.get("revoke", ""))
    if grant is not None:
        services.deputy_grant(actor=request.user, tournament_id=tournament.pk, user_id=grant)
    elif revoke is not None:
        services.deputy_revoke(actor=request.user, tournament_id=tournament.pk, user_id=revoke)
    else:
        raise ValidationError(_("Choose a member."))
    return redirect("tournament", club=access.club.slug, tournament_id=tournament.pk)


@require_POST
@with_club
def tournament_apart(request, access, tournament_id: int):
    """Keep two players apart (``first``, ``second``), or let a pair meet again (``drop``)."""

    def act(tournament):
        if (drop := id_or_none(request.POST.get("drop", ""))) is not None:
            services.apart_drop(actor=request.user, tournament_id=tournament.pk, kept_id=drop)
            return
        ids = [id_or_none(request.POST.get(key, "")) for key in ("first", "second")]
        services.apart_keep(
            actor=request.user,
            tournament_id=tournament.pk,
            entrant_ids=[i for i in ids if i is not None],
        )

    return _director_post(request, access, tournament_id, act)


@require_POST
@with_club
def tournament_entrant(request, access, tournament_id: int, entrant_id: int):
    """Check an entrant in or out, or withdraw them."""
    state = request.POST.get("state", "")

    def act(tournament):
        if state not in ("in", "out", "withdrawn"):
            raise ValidationError("Choose in, out or withdrawn.")
        services.entrant_set(
            actor=request.user,
            tournament_id=tournament.pk,
            entrant_id=entrant_id,
            checked_in=state == "in",
            withdrawn=state == "withdrawn",
        )

    return _director_post(request, access, tournament_id, act)


@require_POST
@with_club
def round_start_view(request, access, tournament_id: int):
    """Pair the next round; this phone can then open (and hand out) every table of it."""

    def act(tournament):
        started = services.round_start(actor=request.user, tournament_id=tournament.pk)
        for table in started.tables:
            session_remember(request, table, Role.SCOREKEEPER)

    return _director_post(request, access, tournament_id, act)


@require_POST
@with_club
def table_decide_view(request, access, tournament_id: int, round_table_id: int):
    """The director's decision on a table: lock (its totals stand), void, or score it (one
    value a seat, at every table size)."""

    def act(tournament):
        seats = selectors.pairing_seat_names(tournament=tournament, round_table_id=round_table_id)
        if seats is None:
            raise Http404
        form = DecisionForm(request.POST, seats=seats)
        if not form.is_valid():
            raise ValidationError([m for errors in form.errors.values() for m in errors])
        data = form.cleaned_data
        services.table_decide(
            actor=request.user,
            tournament_id=tournament.pk,
            round_table_id=round_table_id,
            decision=data["decision"],
            reason=data["reason"],
            points=form.points(),
        )

    return _director_post(request, access, tournament_id, act)


@require_POST
@with_club
def table_adjust_view(request, access, tournament_id: int, round_table_id: int):
    """The director adjusts a player's total at a table: points and a reason, or the night's
    lateness preset (``late``: the seat)."""

    def act(tournament):
        late = id_or_none(request.POST.get("late", ""))
        if late is not None:
            services.points_adjust(
                actor=request.user,
                tournament_id=tournament.pk,
                round_table_id=round_table_id,
                seat=late,
                preset=services.LATE,
            )
            return
        seats = selectors.pairing_seat_names(tournament=tournament, round_table_id=round_table_id)
        if seats is None:
            raise Http404
        form = AdjustForm(request.POST, seats=seats)
        if not form.is_valid():
            raise ValidationError([m for errors in form.errors.values() for m in errors])
        services.points_adjust(
            actor=request.user,
            tournament_id=tournament.pk,
            round_table_id=round_table_id,
            **form.cleaned_data,
        )

    return _director_post(request, access, tournament_id, act)


@require_POST
@with_club
def tournament_finish_view(request, access, tournament_id: int):
    def act(tournament):
        services.tournament_finish(actor=request.user, tournament_id=tournament.pk)

    return _director_post(request, access, tournament_id, act)


# Lines of a table card's paper score sheet: more hands than a round's time holds.
SHEET_HANDS = 14


@require_safe
@never_cache  # join links and codes
@with_club
def table_cards(request, access, tournament_id: int):
    """One card per table of the round: its number, its players, a QR code to score it."""
    tournament = _tournament(access, tournament_id)
    if not _directs(request, access, tournament):
        raise ActionRefused(_("Only the night's director can do this."))
    current = selectors.current_round(tournament=tournament)
    # A pairs match is a fixed number of hands: its sheet has a line for each.
    pairs = pairs_selectors.is_pairs(tournament)
    hands = tournament.options["hands"] if pairs else SHEET_HANDS
    cards = []
    for pairing in current.tables.all() if current else []:
        share = share_context(request, pairing.table, Role.SCOREKEEPER)
        invite = next((i for i in share.get("invites", ()) if i["role"] == "scorekeeper"), None)
        cards.append({"pairing": pairing, "invite": invite})
    context = {
        "club": access.club,
        "tournament": tournament,
        "round": current,
        "cards": cards,
        "pairs": pairs,
        "sheet_lines": range(1, hands + 1),
        "vp_table": pairs_selectors.vp_table(tournament=tournament) if pairs else None,
    }
    return render(request, "tournaments/cards.html", context)


@require_safe
@never_cache
@with_club
def tournament_tv(request, access, tournament_id: int):
    """The night's screen for the club's members: the round's tables and the standings,
    live; like the room's screen, its polls get 204 while nothing it shows has moved, and
    every member's screen is served one drawing of each version of the night."""
    tournament = _tournament(access, tournament_id)
    version = selectors.night_version(tournament=tournament)
    if request.htmx and request.GET.get("since") == version:
        return HttpResponse(status=204)

    def context() -> dict:
        return {
            "club": access.club,
            "version": version,
            "poll_ms": settings.NIGHT_POLL_MS,
            **_night_context(tournament),
        }

    if request.htmx:
        key = f"members-board:{tournament.pk}:{version}:{get_language()}"
        return _drawn_once(key, lambda: render_to_string("tournaments/tv.html#board", context()))
    return render(request, "tournaments/tv.html", context())


def _drawn_once(key: str, draw) -> HttpResponse:
    """Answer the board kept under ``key`` in the shared cache, drawn by ``draw`` the first
    time it is asked for: every screen of a night shows the same board."""
    board = cache.get(key)
    if board is None:
        board = draw()
        cache.set(key, board, ROOM_BOARD_SECONDS)
    return HttpResponse(board)


@require_safe
@never_cache
def room_screen(request, token: str):
    """The room's screen by the director's room link: read-only, no session, no account,
    for a TV across the room; its polls get 204 while nothing it shows has moved."""
    tournament = selectors.night_for_room(token=token)
    if tournament is None:
        raise Http404
    version = selectors.night_version(tournament=tournament)
    if request.htmx and request.GET.get("since") == version:
        return HttpResponse(status=204)
    if request.htmx:
        # Every screen of the night shows the same board: drawn once per version of the
        # night, language and room link (the board polls its own address), then served to
        # the other screens from the shared cache.
        link = hashlib.sha256(token.encode()).hexdigest()[:16]
        key = f"room-board:{tournament.pk}:{link}:{version}:{get_language()}"
        return _drawn_once(
            key,
            lambda: render_to_string(
                "tournaments/room.html#board",
                _room_context(tournament, token, version),
                request=request,
            ),
        )
    return render(request, "tournaments/room.html", _room_context(tournament, token, version))


# A room board is kept for as long as its version can still be asked for.
ROOM_BOARD_SECONDS = 10 * 60


def _room_context(tournament, token: str, version: str) -> dict:
    night = _night_context(tournament)
    statuses = [line.status for line, _forms in night["round_tables"]]
    return {
        **night,
        "token": token,
        "version": version,
        "poll_ms": settings.NIGHT_POLL_MS,
        # The round's clock stops once no table is still playing or waiting to confirm.
        "round_over": bool(statuses) and all(s in ("done", "decided") for s in statuses),
    }


@require_POST
@with_club
def room_link_view(request, access, tournament_id: int):
    """Make the night a new room link, or stop it (``stop``)."""

    def act(tournament):
        if "stop" in request.POST:
            services.room_link_revoke(actor=request.user, tournament_id=tournament.pk)
        else:
            services.room_link_make(actor=request.user, tournament_id=tournament.pk)

    return _director_post(request, access, tournament_id, act)


def _room_link(request, tournament) -> dict:
    """Return the director's view of the room link: its address and QR code, if any."""
    if not tournament.room_token:
        return {}
    url = request.build_absolute_uri(reverse("room", args=[tournament.room_token]))
    return {"room_url": url, "room_qr": qr_svg(url, _("The room screen's address"))}


@require_safe
@never_cache
@with_table()
def table_night_view(request, table, role):
    """The night as the players at one of its tables see it, by the table's key (no
    account): the round's clock, the standings, and once the next round is paired, where
    each of this table's players sits next; after the night, the link to its results."""
    pairing = selectors.table_pairing(table=table)
    if pairing is None:
        raise Http404
    tournament = pairing.round.tournament
    live_version = _live_version(tournament)  # before what it vouches for: _detail_context
    night = _night_context(tournament)
    here = {seat.entrant_id for seat in pairing.seats.all()}
    later = night["round"] is not None and night["round"].pk != pairing.round_id
    context = {
        **night,
        "table": table,
        "pairing": pairing,
        "club": tournament.club,
        # The tables of the round now in play where this table's players sit.
        "next_tables": [
            line.pairing
            for line, _forms in night["round_tables"]
            if later and here & {seat.entrant_id for seat in line.pairing.seats.all()}
        ],
        "next_paired": later,
        "live_version": live_version,
    }
    return render(request, "tournaments/participant.html", context)


@require_safe
@never_cache
@with_table()
def table_night_live(request, table, role):
    """The players' night page's stream, by the table's key as the page itself."""
    pairing = selectors.table_pairing(table=table)
    if pairing is None or not live.engine_in_front(request):
        raise Http404
    return live.night_stream(request, pairing.round.tournament)


@require_safe
@never_cache
@with_club
def tournament_live(request, access, tournament_id: int):
    """The stream of the night's director page and members' screen: for the club's members,
    as those pages."""
    tournament = _tournament(access, tournament_id)
    if not live.engine_in_front(request):
        raise Http404
    return live.night_stream(request, tournament)


@require_safe
@never_cache
def room_live(request, token: str):
    """The room screen's stream, by the room link as the screen itself."""
    tournament = selectors.night_for_room(token=token)
    if tournament is None or not live.engine_in_front(request):
        raise Http404
    return live.night_stream(request, tournament)


@require_POST
@with_table()
def table_call_director_view(request, table, role):
    """A phone at a night's table calls the director; back to the table, which says so."""
    services.director_call(table=table)
    return redirect("table", table_id=table.id)


@require_POST
@with_club
def director_call_clear_view(request, access, tournament_id: int, round_table_id: int):
    """The director clears a table's call: on the way to it."""

    def act(tournament):
        services.director_call_clear(
            actor=request.user, tournament_id=tournament.pk, round_table_id=round_table_id
        )

    return _director_post(request, access, tournament_id, act)


def _visible_night(request, club: str, tournament_id: int) -> Tournament:
    tournament = selectors.night_for_visitor(
        club_slug=club, tournament_id=tournament_id, user=request.user
    )
    if tournament is None:
        raise Http404(_("No such tournament, or its results are not out yet."))
    return tournament


@require_safe
def tournament_results(request, club: str, tournament_id: int):
    """The night's results for everyone once it is over: standings and every table."""
    tournament = _visible_night(request, club, tournament_id)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "standings": selectors.night_standings(tournament=tournament),
        "bracket": selectors.bracket(tournament=tournament),
        "rounds": table_results.night_tables(tournament=tournament),
    }
    return render(request, "tournaments/results.html", context)


@require_safe
def tournament_results_json(request, club: str, tournament_id: int):
    """The night's results as one JSON document (docs/export.md, "A night's results")."""
    tournament = _visible_night(request, club, tournament_id)
    filename = f"{tournament.club.slug}-{slugify(tournament.name) or tournament.pk}-results.json"
    return JsonResponse(
        exports.night_results_document(tournament=tournament),
        json_dumps_params={"ensure_ascii": False, "indent": 1},
        headers={"Content-Disposition": content_disposition_header(True, filename)},
    )


@require_safe
def tournament_results_csv(request, club: str, tournament_id: int):
    """The night's standings as a CSV file, one row per player (per pair)."""
    tournament = _visible_night(request, club, tournament_id)
    filename = f"{tournament.club.slug}-{slugify(tournament.name) or tournament.pk}-results.csv"
    response = HttpResponse(
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": content_disposition_header(True, filename)},
    )
    csv.writer(response).writerows(exports.night_standings_rows(tournament=tournament))
    return response

"""Club pages: clubs, members, players, leagues, seasons and their tables.

Each view parses a form, calls one service or selector, and renders; what a user may see is
decided by the selectors (an object they may not see is a 404, as an unknown one), what they
may do by the services (a refusal is a 403 with its reason, games/pages/errors.py). Writes
answer with a redirect, or for htmx requests with the page's part that changed.
"""

import logging

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.clubs import selectors as club_selectors
from games.clubs import services as club_services
from games.clubs.models import Invite, Membership
from games.pages.common import (
    add_errors,
    admins_only,
    season_url,
    with_club,
    with_league,
    with_season,
)
from games.pages.forms.clubs import (
    ClubCreateForm,
    InviteForm,
    InviteLinkForm,
    LeagueForm,
    PlayerForm,
    PlayerLinkForm,
    RoleForm,
    SeasonForm,
    SeasonTableForm,
)
from games.pages.standings import standings_context
from games.rules.text import table_rules
from games.shared.errors import ActionRefused, EventRejected
from games.shared.throttles import page_status, page_write_allowed
from games.tables import selectors as table_selectors
from games.tables import services as table_services
from games.tournaments import selectors as tournament_selectors
from rummyref.security import client_address

# The invite a browser opened (its token's digest, never the token), until it is accepted:
# the sign-in or sign-up on the way comes back to /invite/, with nothing secret in next=.
PENDING_INVITE = "pending_invite"
# Why /invite/ was opened by an old link that opens nothing (?refused=...).
REFUSED_INVITE = "invite"

logger = logging.getLogger(__name__)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_list(request):
    """List the user's clubs, and create one (its creator becomes the owner)."""
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_services.club_create(
                user=request.user,
                name=form.cleaned_data["name"],
                public=form.cleaned_data["public"],
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect("club", club=club.slug)
    context = {"form": form, "clubs": club_selectors.clubs_for_user(user=request.user)}
    return render(request, "clubs/club_list.html", context, status=page_status(form))


def _club_context(request, access, **forms) -> dict:
    detail = club_selectors.club_detail(access=access, user=request.user)
    context = {
        "access": access,
        "club": access.club,
        "detail": detail,
        "invites": detail.invites,
    }
    if access.is_member:
        context["tournaments"] = tournament_selectors.club_tournaments(club=access.club)[:20]
    if access.is_admin:
        context.update(
            invite_form=InviteForm(),
            player_form=PlayerForm(),
            max_players_at_once=club_services.MAX_PLAYERS_AT_ONCE,
            link_form=PlayerLinkForm(players=detail.players, members=detail.members),
            role_choices=RoleForm.base_fields["role"].choices,
        )
    context.update(forms)
    return context


def _club_answer(request, access, *, part: str, status: int = 200, **forms):
    """Answer a club write: htmx gets the section that changed, a plain form the page again."""
    context = _club_context(request, access, **forms)
    template = f"clubs/club.html#{part}" if request.htmx else "clubs/club.html"
    return render(request, template, context, status=status)


@require_safe
@with_club
def club_detail_view(request, access):
    """Show a club: its leagues, and to members its members and players; admins manage them."""
    return render(request, "clubs/club.html", _club_context(request, access))


def _club_write(request, access, form, *, part: str, form_name: str, write):
    """Call ``write`` with a valid form's data; answer with the club page's ``part`` (htmx)
    or a redirect to it, or with the form and what went wrong."""
    if form.is_valid():
        try:
            write(form.cleaned_data)
        except ValidationError as exc:
            add_errors(form, exc)
    if form.errors:
        return _club_answer(request, access, part=part, status=422, **{form_name: form})
    if request.htmx:
        return _club_answer(request, access, part=part)
    return redirect(reverse("club", args=[access.club.slug]) + f"#{part}")


@require_POST
@with_club
def invite_create_view(request, access):
    """Make an invite link (admins) and show it in the answer, once, to copy and send: only
    its digest is kept, so the link is in no session and no later page."""
    admins_only(access)
    form = InviteForm(request.POST)
    if form.is_valid() and not page_write_allowed(request, form, "invite_create"):
        return _club_answer(request, access, part="invites", status=429, invite_form=form)
    if form.is_valid():
        try:
            invite = club_services.invite_create(
                actor=request.user, club_id=access.club.pk, **form.cleaned_data
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            # The token after "#": no request the link makes carries it (see invite_accept).
            link = request.build_absolute_uri(f"{reverse('invite')}#{invite.token}")
            return _club_answer(request, access, part="invites", new_invite_link=link)
    return _club_answer(request, access, part="invites", status=422, invite_form=form)


@require_POST
@with_club
def player_create_view(request, access):
    """Add guest players to the club's roster, one name a line (admins): all or none."""
    admins_only(access)
    form = PlayerForm(request.POST)
    return _club_write(
        request,
        access,
        form,
        part="players",
        form_name="player_form",
        write=lambda data: club_services.players_create(
            actor=request.user, club_id=access.club.pk, lines=form.name_lines()
        ),
    )


@require_POST
@with_club
def player_link_view(request, access):
    """Link a guest player to a member's account (admins)."""
    admins_only(access)
    detail = club_selectors.club_detail(access=access, user=request.user)
    return _club_write(
        request,
        access,
        PlayerLinkForm(request.POST, players=detail.players, members=detail.members),
        part="players",
        form_name="link_form",
        write=lambda data: club_services.player_link(
            actor=request.user, player_id=data["player"], user_id=data["member"]
        ),
    )


@require_POST
@with_club
def membership_role(request, access, membership_id: int):
    """Change a member's role (admins; handing the club over is the owner's)."""
    admins_only(access)
    try:
        # The service checks the actor against the member's own club, whatever the URL says.
        return _club_write(
            request,
            access,
            RoleForm(request.POST),
            part="members",
            form_name="role_form",
            write=lambda data: club_services.membership_set_role(
                actor=request.user, membership_id=membership_id, role=data["role"]
            ),
        )
    except Membership.DoesNotExist:
        raise Http404 from None


@require_http_methods(["GET", "HEAD", "POST"])
@with_club
def league_create_view(request, access):
    """Create a league of the club (admins): one game with its options, tables of N players."""
    admins_only(access)
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = club_services.league_create(
                actor=request.user,
                club_id=access.club.pk,
                name=form.cleaned_data["name"],
                variant=form.cleaned_data["variant"],
                players=form.players_count(),
                options=form.options(),
                tiebreakers=form.tiebreakers(),
                public=form.cleaned_data["public"],
            )
        except (ValidationError, EventRejected) as exc:
            add_errors(form, exc)
        else:
            return redirect("league", club=access.club.slug, league=league.slug)
    context = {"access": access, "club": access.club, "form": form}
    return render(request, "clubs/league_new.html", context, status=page_status(form))


def _league_context(request, access, **extra) -> dict:
    league = access.league
    context = {
        "access": access,
        "league": league,
        "club": league.club,
        "seasons": club_selectors.league_seasons(league=league),
        "table_rules": table_rules(league.variant, league.options),
    }
    if access.is_admin:
        context["season_form"] = SeasonForm()
    context.update(extra)
    return context


@require_safe
@with_league
def league_detail(request, access):
    """Show a league: its game and options, its seasons; admins open seasons."""
    return render(request, "clubs/league.html", _league_context(request, access))


@require_POST
@with_league
def league_public(request, access):
    """Show the league to everyone, or to members only (admins)."""
    admins_only(access)
    league = club_services.league_set_public(
        actor=request.user, league_id=access.league.pk, public=request.POST.get("public") == "1"
    )
    return redirect("league", club=league.club.slug, league=league.slug)


@require_POST
@with_league
def season_create_view(request, access):
    """Open a season of the league (admins)."""
    admins_only(access)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            season = club_services.season_create(
                actor=request.user, league_id=access.league.pk, **form.cleaned_data
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect(season_url(season))
    context = _league_context(request, access, season_form=form)
    return render(request, "clubs/league.html", context, status=422)


TABLES_PER_PAGE = 25


def _season_context(request, access, season, **extra) -> dict:
    league = access.league
    context = {
        **standings_context(access, season),
        "season": season,
        # A season may hold thousands of tables: a page of them at a time.
        "tables": Paginator(table_selectors.season_tables(season=season), TABLES_PER_PAGE).get_page(
            request.GET.get("page")
        ),
        "table_rules": table_rules(league.variant, league.options),
    }
    if access.is_member and season.is_open:
        context["table_form"] = SeasonTableForm(
            players=list(club_selectors.club_players(club=league.club)), seats=league.players
        )
    context.update(extra)
    return context


@require_safe
@with_season
def season_detail(request, access, season):
    """Show a season: its tables, its standings, and to members a form for a new table."""
    return render(request, "clubs/season.html", _season_context(request, access, season))


@require_POST
@with_season
def season_table_create_view(request, access, season):
    """Start a league table (members, open season): seats from the club, the league's options.

    Only seats and the practice mark are read from the form: anything else posted (a game,
    options) is never passed on, so a league table always plays the league's options.
    """
    if not access.is_member:
        raise ActionRefused(_("Only members of the club can do this."))
    league = access.league
    form = SeasonTableForm(
        request.POST,
        players=list(club_selectors.club_players(club=league.club)),
        seats=league.players,
    )
    if form.is_valid():
        try:
            table = table_services.season_table_create(
                actor=request.user,
                season_id=season.pk,
                player_ids=form.player_ids(),
                practice=form.cleaned_data["practice"],
                entered_by=request.user.get_username(),
            )
        except (ValidationError, EventRejected) as exc:
            add_errors(form, exc)
        else:
            return redirect("table", table_id=table.id)
    context = _season_context(request, access, season, table_form=form)
    return render(request, "clubs/season.html", context, status=422)


@require_http_methods(["GET", "HEAD", "POST"])
@with_season
def season_close_view(request, access, season):
    """Close a season (admins), after a confirmation page: its tables become read-only."""
    admins_only(access)
    if request.method == "POST":
        club_services.season_close(actor=request.user, season_id=season.pk)
        return redirect(season_url(season))
    context = {"access": access, "league": access.league, "club": access.league.club}
    return render(request, "clubs/season_close.html", {**context, "season": season})


def _pending_invite(request) -> Invite | None:
    """Return the invite this browser opened, if it still names one."""
    digest = request.session.get(PENDING_INVITE)
    if not digest:
        return None
    try:
        return club_selectors.invite_get(digest=digest)
    except Invite.DoesNotExist:
        del request.session[PENDING_INVITE]
        return None


def _invite_hold(request, token: str) -> bool:
    """Keep the invite ``token`` opens in this browser's session (its digest); False if
    it opens none."""
    try:
        invite = club_selectors.invite_get(token=token)
    except Invite.DoesNotExist:
        logger.info("Invite link refused from %s", client_address(request))
        return False
    request.session[PENDING_INVITE] = invite.token_digest
    return True


def _invite_open_page(request, form: InviteLinkForm, *, status: int = 200):
    """The page that takes an invite's token (from the fragment, or pasted); a refused one
    says so, and is not written back into the page."""
    refusal = _("No such invite.") if status == 404 else ""
    context = {"form": InviteLinkForm() if refusal else form, "refusal": refusal}
    return render(request, "clubs/invite_open.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def invite_accept_view(request):
    """Open an invite (``/invite/#<token>``) and join its club.

    The token rides after ``#``, which browsers never send: the page's script posts it
    (``link``), and the browser's session keeps the invite's digest, never the token;
    without JavaScript the link is pasted in the page's form. The invite is then shown, to
    accept once signed in: signing in or up comes back here, with no token in ``next=``.
    An invite stays usable up to its ``max_uses`` (a club's one link for a whole evening);
    the link keeps working for who is a member already.
    """
    if request.method == "POST" and "link" in request.POST:
        form = InviteLinkForm(request.POST)
        if not form.is_valid():
            return _invite_open_page(request, form, status=400)
        if not _invite_hold(request, form.cleaned_data["link"]):
            return _invite_open_page(request, form, status=404)
        return redirect("invite")
    invite = _pending_invite(request)
    if invite is None:
        refused = request.GET.get("refused") == REFUSED_INVITE
        return _invite_open_page(request, InviteLinkForm(), status=404 if refused else 200)
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(reverse("invite"))
        return render(request, "clubs/invite.html", {"invite": invite, "signed_out": True})
    error = ""
    if request.method == "POST":
        try:
            club_services.invite_accept(digest=invite.token_digest, user=request.user)
        except ValidationError as exc:
            error = " ".join(exc.messages)
        else:
            del request.session[PENDING_INVITE]
            return redirect("club", club=invite.club.slug)
    membership = club_selectors.membership_get(club=invite.club, user=request.user)
    context = {"invite": invite, "membership": membership, "error": error}
    return render(request, "clubs/invite.html", context, status=410 if error else 200)


# HEAD (link previews) and POST (a page of the old invite left open) too: a 405 would be
# logged with the path.
@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def invite_open_old(request, token):
    """Open an invite link made before the token moved after ``#`` (``/invite/<token>/``):
    keep the invite (its digest) and go at once to /invite/, an address without the token
    (the access log redacts it: rummyref.access_log)."""
    if _invite_hold(request, token):
        return redirect("invite")
    return redirect(f"{reverse('invite')}?refused={REFUSED_INVITE}")

"""Club pages: clubs, members, players, leagues, seasons and their tables.

Each view parses a form, calls one service or selector, and renders; what a user may see is
decided by the selectors (an object they may not see is a 404, as an unknown one), what they
may do by the services (a refusal is a 403 with its reason, templates/403.html). Writes
answer with a redirect, or for htmx requests with the page's part that changed.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.clubs import selectors as club_selectors
from games.clubs import services as club_services
from games.clubs.models import Invite, Membership
from games.pages.common import (
    add_errors,
    admins_only,
    form_status,
    season_url,
    with_club,
    with_league,
    with_season,
)
from games.pages.forms.clubs import (
    ClubCreateForm,
    InviteForm,
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
from games.shared.throttles import page_write_allowed
from games.tables import selectors as table_selectors
from games.tables import services as table_services
from games.tournaments import selectors as tournament_selectors

# The invite link just made, kept in its maker's session until the club page shows it once.
NEW_INVITE_LINK = "new_invite_link"


@login_required
@require_http_methods(["GET", "POST"])
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
    return render(request, "clubs/club_list.html", context, status=form_status(form))


def _new_invite_link(request, club_id: int) -> str | None:
    """Return the invite link this admin just made at the club, once."""
    links = dict(request.session.get(NEW_INVITE_LINK, {}))
    link = links.pop(str(club_id), None)
    if link is not None:
        request.session[NEW_INVITE_LINK] = links
    return link


def _club_context(request, access, **forms) -> dict:
    detail = club_selectors.club_detail(access=access, user=request.user)
    context = {
        "access": access,
        "club": access.club,
        "detail": detail,
        "invites": detail.invites,
        # Only its digest is kept: the link is shown once, to the admin who just made it.
        "new_invite_link": _new_invite_link(request, access.club.pk),
    }
    if access.is_member:
        context["tournaments"] = tournament_selectors.club_tournaments(club=access.club)[:20]
    if access.is_admin:
        context.update(
            invite_form=InviteForm(),
            player_form=PlayerForm(),
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


@require_GET
@with_club
def club_detail(request, access):
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
def invite_create(request, access):
    """Make an invite link (admins); the club page shows it once, to copy and send."""
    admins_only(access)
    form = InviteForm(request.POST)
    if form.is_valid() and not page_write_allowed(request, form, "invite_create"):
        return _club_answer(request, access, part="invites", status=429, invite_form=form)

    def write(data):
        invite = club_services.invite_create(actor=request.user, club_id=access.club.pk, **data)
        link = request.build_absolute_uri(reverse("invite", args=[invite.token]))
        links = request.session.get(NEW_INVITE_LINK, {})
        request.session[NEW_INVITE_LINK] = {**links, str(access.club.pk): link}

    return _club_write(
        request,
        access,
        form,
        part="invites",
        form_name="invite_form",
        write=write,
    )


@require_POST
@with_club
def player_create(request, access):
    """Add a guest player to the club's roster (admins)."""
    admins_only(access)
    return _club_write(
        request,
        access,
        PlayerForm(request.POST),
        part="players",
        form_name="player_form",
        write=lambda data: club_services.player_create(
            actor=request.user, club_id=access.club.pk, name=data["name"]
        ),
    )


@require_POST
@with_club
def player_link(request, access):
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


@require_http_methods(["GET", "POST"])
@with_club
def league_create(request, access):
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
    return render(request, "clubs/league_new.html", context, status=form_status(form))


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


@require_GET
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
def season_create(request, access):
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


@require_GET
@with_season
def season_detail(request, access, season):
    """Show a season: its tables, its standings, and to members a form for a new table."""
    return render(request, "clubs/season.html", _season_context(request, access, season))


@require_POST
@with_season
def season_table_create(request, access, season):
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


@require_http_methods(["GET", "POST"])
@with_season
def season_close(request, access, season):
    """Close a season (admins), after a confirmation page: its tables become read-only."""
    admins_only(access)
    if request.method == "POST":
        club_services.season_close(actor=request.user, season_id=season.pk)
        return redirect(season_url(season))
    context = {"access": access, "league": access.league, "club": access.league.club}
    return render(request, "clubs/season_close.html", {**context, "season": season})


@login_required
@require_http_methods(["GET", "POST"])
def invite_accept(request, token):
    """Show an invite's club and join it; the link keeps working for who is a member already."""
    try:
        invite = club_selectors.invite_get(token=token)
    except Invite.DoesNotExist:
        raise Http404(_("No such invite.")) from None
    error = ""
    if request.method == "POST":
        try:
            club_services.invite_accept(token=token, user=request.user)
        except ValidationError as exc:
            error = " ".join(exc.messages)
        else:
            return redirect("club", club=invite.club.slug)
    membership = club_selectors.membership_get(club=invite.club, user=request.user)
    context = {"invite": invite, "token": token, "membership": membership, "error": error}
    return render(request, "clubs/invite.html", context, status=410 if error else 200)

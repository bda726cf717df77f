"""What the pages share: the club, league or season a URL names, resolved for the user
(one they may not see is a 404, as an unknown one), and a service's refusal shown on a form."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from games.clubs import selectors as club_selectors
from games.clubs.models import Club, League, Season
from games.rules.reference import refusal_html
from games.rules.text import violation_text
from games.shared.errors import ActionRefused, EventRejected


def add_errors(form, exc: ValidationError | EventRejected) -> None:
    """Show a service's refusal on the form: its sentences, with the rule ID if it has one."""
    if isinstance(exc, EventRejected):
        for violation in exc.violations:
            form.add_error(None, refusal_html(violation_text(violation), violation.rule))
    else:
        for message in exc.messages:
            form.add_error(None, message)


def next_url(request, candidate: str, fallback: str) -> str:
    """Return ``candidate`` when it is a path on this site, else ``fallback`` (a URL).

    Always a path, never a URL name nor one relative to the page: what a visitor sends as
    ``next`` goes to HttpResponseRedirect as it is, so a word such as ``x`` is not looked up
    as a view's name.
    """
    if candidate.startswith("/") and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return fallback


def admins_only(access) -> None:
    """Refuse before reading any form: a non-admin learns nothing about what it would take."""
    if not access.is_admin:
        raise ActionRefused(_("Only the club's owner and admins can do this."))


def with_club(view):
    """Resolve the club from the URL for a signed-in user who may see it; 404 for anyone else."""

    @login_required
    @wraps(view)
    def wrapper(request, club, *args, **kwargs):
        try:
            access = club_selectors.club_for_user(slug=club, user=request.user)
        except Club.DoesNotExist:
            raise Http404(_("No such club, or it is not yours to see.")) from None
        return view(request, access, *args, **kwargs)

    return wrapper


def with_league(view):
    """Resolve the league from the URL for whoever may see it: members, or anyone if public.

    A visitor who is not signed in is sent to sign in (they may be a member); a signed-in
    user who may not see it gets a 404, as for a league that does not exist.
    """

    @wraps(view)
    def wrapper(request, club, league, *args, **kwargs):
        try:
            access = club_selectors.league_for_user(
                club_slug=club, league_slug=league, user=request.user
            )
        except League.DoesNotExist:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise Http404(_("No such league, or it is not yours to see.")) from None
        return view(request, access, *args, **kwargs)

    return wrapper


def with_season(view):
    """Resolve the season of a league the user may see; 404 for a season of another league."""

    @with_league
    @wraps(view)
    def wrapper(request, access, season_id, *args, **kwargs):
        try:
            season = club_selectors.season_for_user(access=access, season_id=season_id)
        except Season.DoesNotExist:
            raise Http404 from None
        return view(request, access, season, *args, **kwargs)

    return wrapper


def season_url(season: Season) -> str:
    league = season.league
    return reverse("season", args=[league.club.slug, league.slug, season.pk])

"""A pairs night's own pages (Burraco): the director creates it and registers its pairs. The
rest is the night's pages (games/pages/tournaments.py), which read a pair as an entrant."""

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.pages.common import add_errors, admins_only, with_club
from games.pages.forms.pairs_nights import PairsNightForm
from games.pages.tournaments import _director_post
from games.shared.numbers import id_or_none
from games.shared.throttles import page_status
from games.tournaments import pairs_services


@require_http_methods(["GET", "HEAD", "POST"])
@with_club
def pairs_night_create_view(request, access):
    """Create a pairs night: its league, plan, hands a match, VP table and bye; the form's
    VP rows filled with the federation's table ``start`` names (a GET), else the 3-hand one."""
    admins_only(access)
    # ?start=<a federation table>: the rows filled with it, to edit.
    start = request.GET.get("start", "")
    form = PairsNightForm(request.POST or None, club=access.club, start=start)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = pairs_services.pairs_night_create(
                actor=request.user,
                club_id=access.club.pk,
                league_id=data["league"].pk,
                name=data["name"],
                plan=data["plan"],
                hands=data["hands"],
                vp_table=data["table"],
                bye_points=data["bye_points"],
                round_minutes=data["round_minutes"],
                season_id=data["season"].pk if data["season"] else None,
            )
        except ValidationError as exc:
            add_errors(form, exc)
        else:
            return redirect("tournament", club=access.club.slug, tournament_id=tournament.pk)
    context = {"club": access.club, "form": form, "pairs": True}
    return render(request, "tournaments/new.html", context, status=page_status(form))


@require_POST
@with_club
def pair_register_view(request, access, tournament_id: int):
    """Register two club players as the night's next pair (``first``, ``second``)."""

    def act(tournament):
        ids = [id_or_none(request.POST.get(key, "")) for key in ("first", "second")]
        if None in ids:
            raise ValidationError(_("Choose the pair's two players."))
        pairs_services.pair_register(
            actor=request.user, tournament_id=tournament.pk, player_ids=(ids[0], ids[1])
        )

    return _director_post(request, access, tournament_id, act)

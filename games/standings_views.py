"""Standings exports and the player page (to be written)."""

from django.http import Http404


def player_detail(request, club, player_id):
    raise Http404


def season_standings_csv(request, club, league, season_id):
    raise Http404


def season_results_csv(request, club, league, season_id):
    raise Http404

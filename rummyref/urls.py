from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games import club_views, standings_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("t/<uuid:table_id>/", views.table_detail, name="table"),
    path("t/<uuid:table_id>/join/<str:key>/", views.table_join, name="table-join"),
    path("t/<uuid:table_id>/hands/", views.hand_record, name="hand-record"),
    path("t/<uuid:table_id>/hands/preview/", views.hand_preview, name="hand-preview"),
    path("t/<uuid:table_id>/moves/", views.move_record, name="move-record"),
    path("t/<uuid:table_id>/hands/<int:number>/amend/", views.hand_amend, name="hand-amend"),
    path("t/<uuid:table_id>/hands/<int:number>/void/", views.hand_void, name="hand-void"),
    path("referee/", views.referee_page, name="referee"),
    path("accounts/signup/", club_views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("clubs/", club_views.club_list, name="clubs"),
    path("clubs/<slug:club>/", club_views.club_detail, name="club"),
    path("clubs/<slug:club>/invites/", club_views.invite_create, name="invite-create"),
    path("clubs/<slug:club>/players/", club_views.player_create, name="player-create"),
    path("clubs/<slug:club>/players/link/", club_views.player_link, name="player-link"),
    path(
        "clubs/<slug:club>/members/<int:membership_id>/role/",
        club_views.membership_role,
        name="membership-role",
    ),
    path("clubs/<slug:club>/leagues/new/", club_views.league_create, name="league-create"),
    path("clubs/<slug:club>/l/<slug:league>/", club_views.league_detail, name="league"),
    path(
        "clubs/<slug:club>/l/<slug:league>/public/", club_views.league_public, name="league-public"
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/seasons/",
        club_views.season_create,
        name="season-create",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/",
        club_views.season_detail,
        name="season",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/tables/",
        club_views.season_table_create,
        name="season-table-create",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/close/",
        club_views.season_close,
        name="season-close",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/standings/",
        club_views.season_standings,
        name="season-standings",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/standings.csv",
        standings_views.season_standings_csv,
        name="season-standings-csv",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/results.csv",
        standings_views.season_results_csv,
        name="season-results-csv",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/standings/",
        club_views.league_standings,
        name="league-standings",
    ),
    path(
        "clubs/<slug:club>/players/<int:player_id>/",
        standings_views.player_detail,
        name="player",
    ),
    path("invite/<str:token>/", club_views.invite_accept, name="invite"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("games.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

"""The pages' routes: every path and name as it always was (the API's are in games.api.urls)."""

from django.urls import include, path

from games.pages import (
    accounts,
    app_shell,
    archive,
    clubs,
    game_styles,
    groups,
    guide,
    joining,
    keyring,
    live,
    pairs_nights,
    referee,
    review,
    rules,
    sharing,
    standings,
    stats,
    tables,
    tournaments,
    tv,
)

urlpatterns = [
    path("", tables.home, name="home"),
    path("manifest.webmanifest", app_shell.manifest, name="manifest"),
    path("sw.js", app_shell.service_worker, name="service-worker"),
    path("favicon.ico", app_shell.favicon, name="favicon"),
    path("offline/", app_shell.offline, name="offline"),
    path("games.css", game_styles.game_styles, name="game-styles"),
    # A local run over HTTPS (make run HTTPS=1): how a phone installs this machine's authority.
    path("ca/", app_shell.local_ca, name="local-ca"),
    path(f"ca/{app_shell.CERTIFICATE_NAME}", app_shell.local_ca_certificate, name="local-ca-file"),
    path("t/<uuid:table_id>/", tables.table_detail, name="table"),
    path("t/<uuid:table_id>/tv/", tv.table_tv, name="table-tv"),
    path("t/<uuid:table_id>/live/", live.table_live, name="table-live"),
    path("phone-name/", tables.phone_name, name="phone-name"),
    path("t/<uuid:table_id>/rematch/", tables.table_rematch_view, name="table-rematch"),
    path("t/<uuid:table_id>/next/", tables.table_next_view, name="table-next"),
    path("t/<uuid:table_id>/confirm/", tables.result_confirm, name="result-confirm"),
    path("t/<uuid:table_id>/night/", tournaments.table_night_view, name="table-night"),
    path("t/<uuid:table_id>/night/live/", tournaments.table_night_live, name="table-night-live"),
    path(
        "t/<uuid:table_id>/call-director/",
        tournaments.table_call_director_view,
        name="table-call-director",
    ),
    # Key links from before keys were hashed: they still open the table; nothing makes them.
    # Any id, so that a malformed one is refused by the view, not by a 404 whose log line
    # would carry the key.
    path("t/<str:table_id>/join/<str:key>/", joining.table_join, name="table-join"),
    path("t/<uuid:table_id>/share/", joining.table_share, name="table-share"),
    # A join link carries its token after "#" (the page posts it); one made before that
    # still opens its table, and the access log redacts its token (rummyref.access_log).
    path("j/", joining.link_join_page, name="join-link"),
    path("j/<str:token>/", joining.link_join, name="join-link-old"),
    path("t/<uuid:table_id>/share-result/", sharing.result_share_block, name="result-share"),
    path(
        "t/<uuid:table_id>/share-result/revoke/",
        sharing.result_unshare,
        name="result-share-revoke",
    ),
    # A shared result's public page and picture: the token is the whole address (one not
    # shaped like a share's, too long for one, is refused before the database is asked).
    path("r/<str:token>/", sharing.shared_result_page, name="shared-result"),
    path("r/<str:token>/card.png", sharing.shared_result_card, name="shared-result-card"),
    path("join/", joining.code_join, name="join"),
    path("demo/<uuid:table_id>/", joining.demo_join, name="demo-join"),
    path("t/<uuid:table_id>/hands/", tables.hand_record, name="hand-record"),
    path("t/<uuid:table_id>/history/", tables.table_hands, name="table-hands"),
    path("t/<uuid:table_id>/chart/", tables.table_chart, name="table-chart"),
    path("t/<uuid:table_id>/hands/preview/", tables.hand_preview_view, name="hand-preview"),
    path("t/<uuid:table_id>/moves/", tables.move_record, name="move-record"),
    path("t/<uuid:table_id>/hands/<int:number>/amend/", tables.hand_amend, name="hand-amend"),
    path("t/<uuid:table_id>/hands/<int:number>/void/", tables.hand_void, name="hand-void"),
    path(
        "t/<uuid:table_id>/hands/<int:number>/review/",
        review.hand_review_page,
        name="hand-review",
    ),
    path("g/new/", groups.group_create_view, name="group-create"),
    path("g/<int:group_id>/", groups.group_detail, name="group"),
    path("g/<int:group_id>/live/", groups.group_live, name="group-live"),
    path("g/<int:group_id>/tables/", groups.group_table_create_view, name="group-table-create"),
    path("g/<int:group_id>/share/", groups.group_share, name="group-share"),
    path("g/<int:group_id>/players/", groups.group_player_add_view, name="group-player-add"),
    path(
        "g/<int:group_id>/players/<int:player_id>/rename/",
        groups.group_player_rename_view,
        name="group-player-rename",
    ),
    path(
        "g/<int:group_id>/players/<int:player_id>/retire/",
        groups.group_player_retire_view,
        name="group-player-retire",
    ),
    path("keys/", keyring.keyring_page, name="keyring"),
    path("keys/claim/", keyring.keys_claim_view, name="keys-claim"),
    path("keys/move/", keyring.keys_move, name="keys-move"),
    path("keys/receive/", keyring.keys_receive, name="keys-receive"),
    path("keys/recovery/", keyring.recovery_download, name="keys-recovery"),
    path("keys/recovery/load/", keyring.recovery_load, name="keys-recovery-load"),
    path("referee/", referee.referee_page, name="referee"),
    path("help/", guide.guide_page, name="help"),
    path("rules/", rules.rules_index, name="rules"),
    path("rules/<str:game>/", rules.rules_game, name="rules-game"),
    path("t/<uuid:table_id>/rules/", rules.table_rules_page, name="table-rules"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/password_reset/", accounts.PasswordReset.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/<slug:club>/", clubs.club_detail_view, name="club"),
    path("clubs/<slug:club>/invites/", clubs.invite_create_view, name="invite-create"),
    path("clubs/<slug:club>/players/", clubs.player_create_view, name="player-create"),
    path("clubs/<slug:club>/players/link/", clubs.player_link_view, name="player-link"),
    path(
        "clubs/<slug:club>/members/<int:membership_id>/role/",
        clubs.membership_role,
        name="membership-role",
    ),
    path("clubs/<slug:club>/leagues/new/", clubs.league_create_view, name="league-create"),
    path("clubs/<slug:club>/n/new/", tournaments.tournament_create_view, name="tournament-create"),
    path(
        "clubs/<slug:club>/n/new/pairs/",
        pairs_nights.pairs_night_create_view,
        name="pairs-night-create",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/pairs/",
        pairs_nights.pair_register_view,
        name="pair-register",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/", tournaments.tournament_detail, name="tournament"
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/entrants/",
        tournaments.tournament_entrants,
        name="tournament-entrants",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/deputies/",
        tournaments.tournament_deputy,
        name="tournament-deputy",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/apart/",
        tournaments.tournament_apart,
        name="tournament-apart",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/entrants/names/",
        tournaments.tournament_entrant_names,
        name="tournament-entrant-names",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/entrants/<int:entrant_id>/",
        tournaments.tournament_entrant,
        name="tournament-entrant",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/rounds/",
        tournaments.round_start_view,
        name="tournament-round-start",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/tables/<int:round_table_id>/decide/",
        tournaments.table_decide_view,
        name="tournament-decide",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/finish/",
        tournaments.tournament_finish_view,
        name="tournament-finish",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/results/",
        tournaments.tournament_results,
        name="tournament-results",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/results.json",
        tournaments.tournament_results_json,
        name="tournament-results-json",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/results.csv",
        tournaments.tournament_results_csv,
        name="tournament-results-csv",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/cards/",
        tournaments.table_cards,
        name="tournament-cards",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/tv/",
        tournaments.tournament_tv,
        name="tournament-tv",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/live/",
        tournaments.tournament_live,
        name="tournament-live",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/tables/<int:round_table_id>/adjust/",
        tournaments.table_adjust_view,
        name="tournament-adjust",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/tables/<int:round_table_id>/call-clear/",
        tournaments.director_call_clear_view,
        name="tournament-call-clear",
    ),
    path(
        "clubs/<slug:club>/n/<int:tournament_id>/room-link/",
        tournaments.room_link_view,
        name="tournament-room-link",
    ),
    # A night's room screen: the token is the whole address of a read-only screen, made
    # and revoked by the director (a token not shaped like one is refused before a query).
    path("room/<str:token>/", tournaments.room_screen, name="room"),
    path("room/<str:token>/live/", tournaments.room_live, name="room-live"),
    path("clubs/<slug:club>/l/<slug:league>/", clubs.league_detail, name="league"),
    path("clubs/<slug:club>/l/<slug:league>/public/", clubs.league_public, name="league-public"),
    path(
        "clubs/<slug:club>/l/<slug:league>/seasons/",
        clubs.season_create_view,
        name="season-create",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/",
        clubs.season_detail,
        name="season",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/tables/",
        clubs.season_table_create_view,
        name="season-table-create",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/close/",
        clubs.season_close_view,
        name="season-close",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/standings/",
        standings.season_standings_view,
        name="season-standings",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/standings.csv",
        standings.season_standings_csv,
        name="season-standings-csv",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/s/<int:season_id>/results.csv",
        standings.season_results_csv,
        name="season-results-csv",
    ),
    path(
        "clubs/<slug:club>/l/<slug:league>/standings/",
        standings.league_standings,
        name="league-standings",
    ),
    path(
        "clubs/<slug:club>/players/<int:player_id>/",
        standings.player_detail,
        name="player",
    ),
    # As join links: the token after "#", posted by the page; the old form still works.
    path("invite/", clubs.invite_accept_view, name="invite"),
    path("invite/<str:token>/", clubs.invite_open_old, name="invite-old"),
]

# Files out and in: a table's log and hands, a group's or a club's archive, the import page.
urlpatterns += [
    path("t/<uuid:table_id>/log.jsonl", archive.table_log_download, name="table-log"),
    path("t/<uuid:table_id>/hands.csv", archive.table_hands_csv, name="table-hands-csv"),
    path("g/<int:group_id>/export/", archive.group_export, name="group-export"),
    path("clubs/<slug:club>/export/", archive.club_export, name="club-export"),
    path("import/", archive.import_page, name="import"),
]

# The players' book: a group's stats (for its keys) and a club's (for its members).
urlpatterns += [
    path("g/<int:group_id>/stats/", stats.group_stats_view, name="group-stats"),
    path(
        "g/<int:group_id>/players/<int:player_id>/",
        stats.group_player_view,
        name="group-player",
    ),
    path("clubs/<slug:club>/stats/", stats.club_stats_view, name="club-stats"),
]

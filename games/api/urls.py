from django.urls import path

from games.api import archive, referee, review, seasons, tables

urlpatterns = [
    path("tables/", tables.TableListCreateView.as_view(), name="api-tables"),
    path("tables/<uuid:table_id>/", tables.TableDetailView.as_view(), name="api-table"),
    path("tables/<uuid:table_id>/state/", tables.TableStateView.as_view(), name="api-table-state"),
    path(
        "tables/<uuid:table_id>/events/", tables.TableEventsView.as_view(), name="api-table-events"
    ),
    path(
        "tables/<uuid:table_id>/hands/<int:number>/review/",
        review.TableHandReviewView.as_view(),
        name="api-hand-review",
    ),
    path(
        "seasons/<int:season_id>/standings/",
        seasons.SeasonStandingsView.as_view(),
        name="api-season-standings",
    ),
    path(
        "seasons/<int:season_id>/tables/",
        seasons.SeasonTableCreateView.as_view(),
        name="api-season-tables",
    ),
]

urlpatterns += [
    path("referee/meld/", referee.MeldView.as_view(), name="referee-meld"),
    path("referee/hand/", referee.HandView.as_view(), name="referee-hand"),
    path("referee/opening/", referee.OpeningView.as_view(), name="referee-opening"),
    path("referee/layoff/", referee.LayoffView.as_view(), name="referee-layoff"),
    path(
        "referee/rearrangement/",
        referee.RearrangementView.as_view(),
        name="referee-rearrangement",
    ),
    path("referee/score/", referee.ScoreView.as_view(), name="referee-score"),
]

urlpatterns += [
    path(
        "tables/<uuid:table_id>/export/",
        archive.TableExportView.as_view(),
        name="api-table-export",
    ),
    path("imports/", archive.ImportView.as_view(), name="api-imports"),
]

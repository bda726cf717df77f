from django.urls import path

from games.api import views

urlpatterns = [
    path("tables/", views.TableListCreateView.as_view(), name="api-tables"),
    path("tables/<uuid:table_id>/", views.TableDetailView.as_view(), name="api-table"),
    path("tables/<uuid:table_id>/state/", views.TableStateView.as_view(), name="api-table-state"),
    path(
        "tables/<uuid:table_id>/events/", views.TableEventsView.as_view(), name="api-table-events"
    ),
]

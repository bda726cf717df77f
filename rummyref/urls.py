from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games import views

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
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("games.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

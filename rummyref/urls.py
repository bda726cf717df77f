from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

urlpatterns = [
    path("", include("games.pages.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("games.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

# A path no route matches: JSON under /api/, the 404 page elsewhere.
handler404 = "games.api.errors.not_found"

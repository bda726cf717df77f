"""The project's own app: site-wide security hooks that belong to no part of games."""

from django.apps import AppConfig


class RummyRefConfig(AppConfig):
    name = "rummyref"
    verbose_name = "RummyRef"

    def ready(self):
        from rummyref import security

        security.connect()

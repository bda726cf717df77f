"""The games app: tables, their event logs, pages and API."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Standings follow the tables' logs through the tables part's signals (it never
        # imports standings); connected here, once every model is loaded.
        from games.standings import receivers

        receivers.connect()

"""The games app: tables, their event logs, pages and API."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Standings and tournament nights follow the tables' logs through the tables part's
        # signals (it never imports them); connected here, once every model is loaded.
        from games.pages import keyring
        from games.standings import receivers
        from games.tournaments import receivers as tournament_receivers

        receivers.connect()
        tournament_receivers.connect()
        # A browser that signs in gets the roles its account holds (this phone's keys).
        keyring.connect()

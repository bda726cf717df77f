"""The demo tables `make run` loads: idempotent, and each replays from its log."""

import logging
import re

import pytest
from django.core.management import call_command

from games.demo import DEMO_IDS, MOVES_ID
from games.models import Event, Table
from games.tables import selectors as table_selectors


@pytest.mark.django_db
class TestDemoTables:
    def test_loading_twice_makes_the_tables_once(self, capsys):
        call_command("load_demo")
        call_command("load_demo")
        assert Table.objects.filter(pk__in=DEMO_IDS).count() == 3
        assert capsys.readouterr().out.count("Demo table:") == 6

    def test_the_links_name_the_port_make_run_serves(self, capsys):
        call_command("load_demo", port=8123)
        out = capsys.readouterr().out
        assert out.count("http://127.0.0.1:8123/") == 4 and ":8000" not in out

    def test_the_demo_prints_only_what_a_person_needs(self, capsys, settings):
        # `make run` runs the tasks inside the command (no broker), once each save commits:
        # their "Task ... succeeded" lines, and kombu's note about the missing broker host,
        # would bury the links, so those loggers keep quiet then.
        # (With a real broker, as in CI's second pass, workers log their tasks as they should.)
        eager = settings.CELERY_TASK_ALWAYS_EAGER
        assert logging.getLogger("celery.app.trace").isEnabledFor(logging.INFO) is not eager
        assert logging.getLogger("kombu.connection").isEnabledFor(logging.WARNING) is not eager
        call_command("load_demo", port=8123)
        out = capsys.readouterr().out
        assert [line.split(":", 1)[0] for line in out.splitlines()] == [
            "Demo table",
            "Demo table",
            "Demo table",
            "Demo league standings (public)",
        ]

    def test_the_ramino_demo_is_a_hand_being_played_move_by_move(self):
        call_command("load_demo")
        table = Table.objects.get(pk=MOVES_ID)
        state = table_selectors.table_state(table=table)
        assert state["hands"] == [] and state["play"] is not None
        # After Bruno's discard it is Carla's turn to draw (seats Anna, Bruno, Carla).
        assert state["turn"] == 2 and state["play"]["phase"] == "draw"
        assert Event.objects.filter(table=table).count() == 11


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
class TestDemoClub:
    def test_the_demo_league_shows_its_standings_to_anyone(
        self, client, django_capture_on_commit_callbacks
    ):
        """Six one-or-two-hand Gin matches (Classic to 50), worked by hand:
        Anna beats Bruno 71–0 and Carla 65–28, loses to Dario 0–51; Dario beats Carla
        60–0 and Anna, loses to Bruno 0–53; Bruno loses to Carla 0–51. Anna and Dario are
        2–1, Dario above by head to head; Carla and Bruno 1–2, Carla above by head to head.
        """
        with django_capture_on_commit_callbacks(execute=True):
            call_command("load_demo")
        page = client.get("/clubs/circolo-demo/l/gin-del-martedi/standings/").content.decode()
        assert re.findall(r'<tr data-player="([^"]+)"', page) == ["Dario", "Anna", "Carla", "Bruno"]
        assert "6 matches counted" in page
        dario = page[page.index('<tr data-player="Dario"') : page.index('<tr data-player="Anna"')]
        assert ">Head to head<" in dario
        # Loading again adds nothing.
        with django_capture_on_commit_callbacks(execute=True):
            call_command("load_demo")
        assert Table.objects.filter(season__league__club__slug="circolo-demo").count() == 6

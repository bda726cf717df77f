"""The demo tables `make run` loads: idempotent, and each replays from its log."""

import pytest
from django.core.management import call_command

from games import selectors
from games.demo import DEMO_IDS, MOVES_ID
from games.models import Event, Table


@pytest.mark.django_db
class TestDemoTables:
    def test_loading_twice_makes_the_tables_once(self, capsys):
        call_command("load_demo")
        call_command("load_demo")
        assert Table.objects.filter(pk__in=DEMO_IDS).count() == 3
        assert capsys.readouterr().out.count("Demo table:") == 6

    def test_the_ramino_demo_is_a_hand_being_played_move_by_move(self):
        call_command("load_demo")
        table = Table.objects.get(pk=MOVES_ID)
        state = selectors.table_state(table=table)
        assert state["hands"] == [] and state["play"] is not None
        # After Bruno's discard it is Carla's turn to draw (seats Anna, Bruno, Carla).
        assert state["turn"] == 2 and state["play"]["phase"] == "draw"
        assert Event.objects.filter(table=table).count() == 11

"""Tampering the hash chain alone cannot show: a seat's player changed, a log cut short with
its head moved back. The first event logs the seating; the nightly audit keeps signed
checkpoints of every table's head and seating; verification compares both (issue 27)."""

import uuid
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from games.models import Checkpoint, Player, Seat, Table
from games.tables import audit, selectors
from games.tables.log import checkpoint_signature, event_row
from games.tables.models import ImmutableCheckpointError
from games.tables.tasks import tables_audit
from scoring.events import TABLE_CREATED
from tests.factories import TableFactory
from tests.payloads import quick


def _verify_tables() -> tuple[bool, str]:
    """Run ``manage.py verify_tables``; return whether it passed and what it wrote to stderr."""
    from io import StringIO

    err = StringIO()
    try:
        call_command("verify_tables", stderr=err, stdout=StringIO())
    except CommandError:
        return False, err.getvalue()
    return True, err.getvalue()


def _played(append, players=("Anna", "Bruno")) -> Table:
    table = TableFactory(players=players)
    append(table, "hand_recorded", quick(0, "knock", 5, 20))
    append(table, "hand_recorded", quick(1, "knock", 3, 12))
    table.refresh_from_db()
    return table


def _old_style(players=("Olga", "Piero")) -> Table:
    """A table as table_create made it before the seating was logged: its first event holds
    the game, the options and the names only."""
    table = Table.objects.create(variant="gin", options={}, target=100)
    for position, name in enumerate(players):
        Seat.objects.create(table=table, position=position, player=Player.objects.create(name=name))
    first = event_row(
        table=table,
        seq=1,
        prev_hash="",
        event_id=uuid.uuid4(),
        event_type=TABLE_CREATED,
        payload={"variant": "gin", "options": {}, "seats": list(players)},
        entered_by="",
        created_at=timezone.now(),
    )
    first.save()
    Table.objects.filter(pk=table.pk).update(head_seq=1, head_hash=first.hash)
    table.refresh_from_db()
    return table


def _raw(statement: str, params=()) -> None:
    """Run SQL below the ORM, as whoever can write the rows would; on PostgreSQL as the
    owner, who steps round the log's trigger the way an owner can (and turns it back on)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and "games_event" in statement:
            # The test's transaction holds deferred foreign-key checks; ALTER waits for none.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("ALTER TABLE games_event DISABLE TRIGGER games_event_append_only")
            cursor.execute(statement, params)
            cursor.execute("ALTER TABLE games_event ENABLE TRIGGER games_event_append_only")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        else:
            cursor.execute(statement, params)


def _truncate(table: Table) -> None:
    """Delete the table's last event and rewind its head to the one before, as an owner of
    the schema could."""
    table.refresh_from_db()
    before = table.events.get(seq=table.head_seq - 1)
    _raw("DELETE FROM games_event WHERE table_id = %s AND seq = %s", [table.pk.hex, table.head_seq])
    _raw(
        "UPDATE games_table SET head_seq = %s, head_hash = %s WHERE id = %s",
        [before.seq, before.hash, table.pk.hex],
    )


def _swap_seat(table: Table, position: int, player: Player) -> None:
    _raw(
        "UPDATE games_seat SET player_id = %s WHERE table_id = %s AND position = %s",
        [player.pk, table.pk.hex, position],
    )


@pytest.mark.django_db
class TestSeatingInTheLog:
    def test_the_first_event_logs_each_seats_player_and_the_engine_never_sees_it(self, append):
        table = _played(append)
        first = table.events.get(seq=1)
        seats = list(table.seats.order_by("position").select_related("player"))
        assert first.payload["seating"] == [
            {"player": seat.player_id, "name": seat.player.name} for seat in seats
        ]
        assert [s["name"] for s in first.payload["seating"]] == ["Anna", "Bruno"]
        state = selectors.table_state(table=table)
        assert state["seats"] == ["Anna", "Bruno"] and len(state["hands"]) == 2

    def test_a_league_tables_first_event_seats_the_clubs_players(self, world):
        table = world.table(world.carla, world.anna)
        seating = table.events.get(seq=1).payload["seating"]
        assert [s["player"] for s in seating] == [world.carla.pk, world.anna.pk]

    def test_a_clean_table_passes(self, append):
        _played(append)
        assert _verify_tables() == (True, "")

    def test_a_seat_given_to_another_player_is_reported(self, append):
        table = _played(append)
        other = TableFactory(players=("Carla", "Dario"))
        carla = other.seats.get(position=0).player
        _swap_seat(table, 1, carla)
        bruno = table.events.get(seq=1).payload["seating"][1]["player"]
        ok, err = _verify_tables()
        assert not ok
        assert err.strip() == (
            f"table {table.pk}: seat 2 changed since the table was created: player {carla.pk} "
            f"(Carla) sits there now, player {bruno} (Bruno) then"
        )
        # The check after an append finds it too, not only the whole audit.
        assert audit.table_verify(table_id=table.pk).findings

    def test_the_renamed_player_is_still_the_same_seat(self, append):
        table = _played(append)
        Player.objects.filter(pk=table.seats.get(position=0).player_id).update(name="Annalisa")
        assert _verify_tables() == (True, "")


@pytest.mark.django_db
class TestCheckpoints:
    def test_the_nightly_audit_checkpoints_each_table_once_until_it_changes(self, append):
        table = _played(append)
        assert tables_audit.apply().get()["checkpointed"] == 1
        checkpoint = table.checkpoints.get()
        assert (checkpoint.seq, checkpoint.head_hash) == (3, table.head_hash)
        # To the millisecond, as a fixture keeps it: the signature covers the time.
        assert checkpoint.taken_at.microsecond % 1000 == 0
        assert checkpoint.seating == list(
            table.seats.order_by("position").values_list("player_id", flat=True)
        )
        assert tables_audit.apply().get()["checkpointed"] == 0
        append(table, "hand_recorded", quick(0, "knock", 2, 30))
        assert tables_audit.apply().get()["checkpointed"] == 1
        assert list(table.checkpoints.values_list("seq", flat=True)) == [4, 3]

    def test_a_log_cut_short_after_its_checkpoint_is_reported(self, append):
        table = _played(append)
        audit.tables_audit(checkpoint=True)
        taken = table.checkpoints.get().taken_at
        _truncate(table)
        ok, err = _verify_tables()
        assert not ok
        assert (
            f"table {table.pk}: log truncated after seq 2 (the checkpoint of "
            f"{taken:%Y-%m-%d %H:%M} UTC had seq 3)"
        ) in err
        # Not anchored again over the cut: the next night reports it as well.
        report = audit.tables_audit(checkpoint=True)
        assert report["checkpointed"] == 0
        assert "log truncated after seq 2" in report["failures"][0]["findings"][0]

    def test_a_log_cut_and_appended_again_is_reported_as_rewritten(self, append):
        table = _played(append)
        audit.tables_audit(checkpoint=True)
        _truncate(table)
        append(table, "hand_recorded", quick(1, "knock", 9, 10))
        ok, err = _verify_tables()
        assert not ok and f"table {table.pk}: log rewritten: its event 3 is not the head" in err

    def test_a_log_cut_before_any_checkpoint_is_beyond_what_the_chain_shows(self, append):
        # Why the checkpoints exist: the chain of what is left verifies.
        table = _played(append)
        _truncate(table)
        assert _verify_tables() == (True, "")

    def test_an_old_style_tables_seats_are_anchored_by_its_first_checkpoint(self, append):
        table = _old_style()
        append(table, "hand_recorded", quick(0, "knock", 5, 20))
        assert "seating" not in table.events.get(seq=1).payload
        assert _verify_tables() == (True, "")
        audit.tables_audit(checkpoint=True)
        taken = table.checkpoints.get().taken_at
        olga = table.seats.get(position=0).player
        intruder = Player.objects.create(name="Intruder")
        _swap_seat(table, 0, intruder)
        ok, err = _verify_tables()
        assert not ok
        assert err.strip() == (
            f"table {table.pk}: seat 1 changed since the checkpoint of "
            f"{taken:%Y-%m-%d %H:%M} UTC: player {intruder.pk} (Intruder) sits there now, "
            f"player {olga.pk} then"
        )

    def test_a_forged_checkpoint_is_reported(self, append):
        table = _played(append)
        audit.tables_audit(checkpoint=True)
        _truncate(table)
        # Whoever cut the log writes a checkpoint of the shorter head, without the key.
        later = timezone.now() + timedelta(hours=1)
        forged = {"seq": 2, "head_hash": table.events.get(seq=2).hash, "seating": [1, 2]}
        Checkpoint.objects.create(table=table, taken_at=later, signature="0" * 64, **forged)
        ok, err = _verify_tables()
        assert not ok
        assert f"{later:%Y-%m-%d %H:%M} UTC is not signed with this server's key: forged" in err
        # The older, signed checkpoint still shows the cut.
        assert "log truncated after seq 2" in err

    def test_a_checkpoint_signed_with_another_key_is_forged(self, append, settings):
        table = _played(append)
        ours = settings.LOG_CHAIN_KEY
        settings.LOG_CHAIN_KEY = "another-servers-key-" + "x" * 20
        taken_at = timezone.now()
        seating = list(table.seats.order_by("position").values_list("player_id", flat=True))
        signature = checkpoint_signature(
            table_id=table.pk, taken_at=taken_at, seq=3, head_hash=table.head_hash, seating=seating
        )
        Checkpoint.objects.create(
            table=table,
            taken_at=taken_at,
            seq=3,
            head_hash=table.head_hash,
            seating=seating,
            signature=signature,
        )
        assert not audit.table_verify(table_id=table.pk).findings
        settings.LOG_CHAIN_KEY = ours
        [finding] = audit.table_verify(table_id=table.pk, whole=True).findings
        assert finding.endswith("is not signed with this server's key: forged")

    def test_the_orm_never_changes_or_removes_a_checkpoint(self, append):
        table = _played(append)
        audit.tables_audit(checkpoint=True)
        checkpoint = table.checkpoints.get()
        with pytest.raises(ImmutableCheckpointError):
            Checkpoint.objects.filter(pk=checkpoint.pk).update(seq=1)
        with pytest.raises(ImmutableCheckpointError):
            checkpoint.delete()
        checkpoint.seq = 1
        with pytest.raises(ImmutableCheckpointError):
            checkpoint.save()

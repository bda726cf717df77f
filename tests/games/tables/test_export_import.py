"""Export and import of tables' logs: the file's lines and chain, the hands CSV, archives,
the round trip of every game, and every file that must be refused with nothing stored."""

import csv
import hashlib
import io
import json
import zipfile
from datetime import datetime

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.logs import log_build
from games.clubs import groups
from games.shared.errors import ActionRefused
from games.tables import audit, exports, imports
from games.tables.log import chain_broken_at, engine_payload
from games.tables.models import KeyClaim, Table
from scoring.events import TABLE_CREATED
from scoring.samples import examples_of
from tests.factories import TableFactory, UserFactory
from tests.games.tables.archive_logs import (
    counts,
    exported,
    file_of,
    game_logs,
    lines_of,
    rehashed,
    same_match,
    summary_by_name,
    table_stored,
    upload,
)
from tests.hypothesis_profiles import examples
from tests.payloads import quick
from tests.scoring.play_strategies import GAMES

ROUND_TRIP = settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _import(user, group, data: bytes):
    return imports.log_import(user=user, data=upload(data), group_id=group.pk)


def _played(append) -> Table:
    """A Gin table with two hands, one voided and one amended, and a third hand."""
    table = TableFactory(players=("Anna", "Bruno"), entered_by="Anna's phone")
    append(table, "hand_recorded", quick(0, "knock", 7, 20), entered_by="Anna's phone")
    append(table, "hand_recorded", quick(1, "knock", 3, 30))
    append(table, "hand_voided", {"hand": 1, "reason": "misdeal"})
    append(table, "hand_amended", {**quick(1, "knock", 2, 30), "hand": 2, "reason": "recount"})
    append(table, "hand_recorded", quick(0, "gin", 0, 12))
    table.refresh_from_db()
    return table


class TestTheFile:
    def test_it_is_a_header_the_events_in_order_and_a_closing_line(self, append):
        table = _played(append)
        lines = lines_of(exported(table))
        header, events, trailer = lines[0], lines[1:-1], lines[-1]
        assert header["format"] == "rummyref-table" and header["version"] == 1
        assert header["table"] == str(table.id) and header["variant"] == "gin"
        assert header["seats"] == ["Anna", "Bruno"] and header["options"] == table.options
        datetime.fromisoformat(header["exported_at"])
        stored = list(table.events.order_by("seq"))
        assert [e["seq"] for e in events] == [e.seq for e in stored] == [1, 2, 3, 4, 5, 6]
        assert [e["event_id"] for e in events] == [str(e.event_id) for e in stored]
        assert [e["payload"] for e in events] == [e.payload for e in stored]
        assert events[1]["entered_by"] == "Anna's phone"
        assert [datetime.fromisoformat(e["created_at"]) for e in events] == [
            e.created_at for e in stored
        ]
        assert trailer == {
            "end": "rummyref-table",
            "events": 6,
            "last_hash": events[-1]["hash"],
            "hash": trailer["hash"],
        }

    def test_its_chain_is_plain_sha256_any_reader_can_check(self, append):
        prev = ""
        for raw in exported(_played(append)).splitlines():
            line = json.loads(raw)
            given_hash = line.pop("hash")
            body = json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            assert given_hash == hashlib.sha256((prev + body).encode()).hexdigest()
            prev = given_hash

    def test_the_servers_keyed_hashes_never_leave(self, append):
        table = _played(append)
        text = exported(table).decode()
        keyed = {h for e in table.events.all() for h in (e.hash, e.prev_hash) if h}
        assert len(keyed) == 6 and not any(digest in text for digest in keyed)

    def test_an_event_appended_after_the_head_was_read_is_left_out(self, append):
        table = _played(append)
        lines = exports.table_log_lines(table=table)
        first = next(lines)
        append(table, "hand_recorded", quick(1, "knock", 1, 10))
        assert lines_of(first + b"".join(lines))[-1]["events"] == 6


class TestHandsCsv:
    def test_a_row_per_hand_and_seat_then_the_match_totals(self, append):
        table = _played(append)
        out = io.StringIO()
        exports.hands_csv_write(csv.writer(out), table=table)
        rows = list(csv.DictReader(io.StringIO(out.getvalue())))
        assert list(rows[0]) == list(exports.HANDS_COLUMNS)
        hands = [r for r in rows if r["row"] == "hand"]
        assert [(r["hand"], r["seat"], r["status"]) for r in hands] == [
            ("1", "1", "voided"),
            ("1", "2", "voided"),
            ("2", "1", "amended"),
            ("2", "2", "amended"),
            ("3", "1", "counted"),
            ("3", "2", "counted"),
        ]
        assert hands[0]["points"] == "" and hands[0]["total"] == "0"
        state = table.projection.state if hasattr(table, "projection") else None
        match = [r for r in rows if r["row"] == "match"]
        assert [r["player"] for r in match] == ["Anna", "Bruno"]
        assert [int(r["total"]) for r in match] == [int(hands[4]["total"]), int(hands[5]["total"])]
        assert state is None or [int(r["total"]) for r in match] == state["totals"]
        assert {r["won"] for r in match} == {""}  # the match goes on

    def test_a_name_a_spreadsheet_would_run_is_written_as_text(self, db):
        table = TableFactory(players=("=SUM(A1)", "@Bruno"))
        out = io.StringIO()
        exports.hands_csv_write(csv.writer(out), table=table)
        assert "'=SUM(A1)" in out.getvalue() and "'@Bruno" in out.getvalue()


class TestImport:
    def test_a_table_comes_back_with_new_ids_the_same_times_and_this_servers_chain(
        self, append, group_manager, thursday_friends
    ):
        table = _played(append)
        before = counts()
        result = _import(group_manager, thursday_friends, exported(table))
        copy = result.tables[0].table
        copy.refresh_from_db()
        assert (
            copy.pk != table.pk
            and copy.imported_from == table.pk
            and copy.group == thursday_friends
        )
        assert result.tables[0].events == 6 and result.players_created == []
        assert counts()["Table"] == before["Table"] + 1 and counts()["Event"] == before["Event"] + 6
        originals = list(table.events.order_by("seq"))
        copies = list(copy.events.order_by("seq"))
        assert not {e.event_id for e in originals} & {e.event_id for e in copies}
        # The same events, but for the seating the creation logs: the copy's own players.
        assert [
            (e.type, engine_payload(e.type, e.payload), e.created_at, e.entered_by) for e in copies
        ] == [
            (e.type, engine_payload(e.type, e.payload), e.created_at, e.entered_by)
            for e in originals
        ]
        assert chain_broken_at(copies) is None and copy.head_hash == copies[-1].hash
        assert audit.table_verify(table_id=copy.pk, whole=True).ok
        assert [s.player.group for s in copy.seats.all()] == [thursday_friends, thursday_friends]
        assert copies[0].payload["seating"] == [
            {"player": s.player_id, "name": s.player.name} for s in copy.seats.order_by("position")
        ]
        assert originals[0].payload["seating"] != copies[0].payload["seating"]
        same_match(table, copy)

    def test_seats_find_the_groups_players_whatever_the_capitals_and_add_the_others(
        self, group_manager, thursday_friends
    ):
        table = TableFactory(variant="ramino", players=("ANNA", "Carla", "dario"))
        result = _import(group_manager, thursday_friends, exported(table))
        seated = [s.player for s in result.tables[0].table.seats.order_by("position")]
        assert seated[0] == thursday_friends.players.get(name="Anna")
        assert [p.name for p in seated[1:]] == ["Carla", "dario"]
        assert result.players_created == ["Carla", "dario"]
        assert thursday_friends.players.count() == 4

    def test_a_club_import_seats_its_roster_and_the_importer_keeps_the_key(self, world):
        table = TableFactory(players=("anna", "Zoe"))
        result = imports.log_import(
            user=world.admin, data=upload(exported(table)), club_id=world.club.pk
        )
        copy = result.tables[0].table
        seated = [s.player for s in copy.seats.order_by("position")]
        assert seated[0] == world.anna and seated[1].club == world.club
        assert copy.group is None and copy.season is None
        assert KeyClaim.objects.filter(user=world.admin, table=copy, role="scorekeeper").exists()
        assert copy.pk in {t.pk for t in exports.club_tables(club=world.club)}

    def test_a_file_is_imported_once_and_the_refusal_names_the_table(
        self, append, group_manager, thursday_friends
    ):
        table = _played(append)
        data = exported(table)
        first = _import(group_manager, thursday_friends, data).tables[0].table
        # Dated by its log, not by the import.
        assert first.created_at == table.events.get(seq=1).created_at
        assert Table.objects.get(pk=first.pk).created_at == first.created_at
        before = counts()
        with pytest.raises(imports.ImportRefused) as refused:
            _import(group_manager, thursday_friends, data)
        assert refused.value.existing == first.pk and "already" in refused.value.message
        assert str(first.pk) not in refused.value.message  # a link, not a raw id
        assert counts() == before

    def test_an_export_of_this_servers_table_imports_beside_it(
        self, append, group_manager, thursday_friends
    ):
        table = _played(append)
        copy = _import(group_manager, thursday_friends, exported(table)).tables[0].table
        assert Table.objects.filter(pk__in=[table.pk, copy.pk]).count() == 2

    def test_a_group_holds_at_most_40_players(self, group_manager):
        full = groups.group_create(
            name="Bar",
            players=[f"Player {n}" for n in range(39)],
            variant="gin",
            options={},
            user=group_manager,
        )
        data = exported(TableFactory(players=("Newcomer", "Stranger")))
        before = counts()
        with pytest.raises(imports.ImportRefused) as refused:
            _import(group_manager, full, data)
        assert "at most 40" in refused.value.message
        assert counts() == before


@pytest.mark.parametrize("game", GAMES)
class TestRoundTrip:
    @ROUND_TRIP
    @given(data=st.data())
    def test_a_table_of_every_game_comes_back_the_same(
        self, game, group_manager, thursday_friends, data
    ):
        events = data.draw(game_logs(game))
        assert events[0].event_type == TABLE_CREATED
        table = table_stored(events)
        copy = _import(group_manager, thursday_friends, exported(table)).tables[0].table
        same_match(table, copy)
        assert [e.created_at for e in copy.events.order_by("seq")] == [
            e.created_at for e in table.events.order_by("seq")
        ]


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_match_of_every_game_keeps_its_result(game, group_manager, thursday_friends):
    seats, options = examples_of(game).short_match
    events = log_build(game, 40, seats=seats, seed=3, options=options).events
    table = table_stored(events)
    assert table.status == Table.Status.FINISHED
    copy = _import(group_manager, thursday_friends, exported(table)).tables[0].table
    assert summary_by_name(copy) is not None
    same_match(table, copy)


class TestArchives:
    def _group_with_tables(self, manager, group):
        made = []
        for game, seats in (("gin", 2), ("rummy40", 4), ("ramino", 3), ("knock_rummy", 2)):
            built = log_build(game, 12, seats=seats, seed=len(made)).events
            table = table_stored(built)
            Table.objects.filter(pk=table.pk).update(group=group)
            made.append(table)
        return made

    def _archive(self, group) -> bytes:
        out = io.BytesIO()
        exports.archive_write(
            out, tables=exports.group_tables(group=group), source={"kind": "group"}
        )
        return out.getvalue()

    def test_a_groups_archive_holds_each_log_a_manifest_and_the_matches(
        self, group_manager, thursday_friends
    ):
        made = self._group_with_tables(group_manager, thursday_friends)
        archive = zipfile.ZipFile(io.BytesIO(self._archive(thursday_friends)))
        manifest = json.loads(archive.read("manifest.json"))
        assert manifest["format"] == "rummyref-archive" and manifest["version"] == 1
        assert sorted(e["table"] for e in manifest["tables"]) == sorted(str(t.pk) for t in made)
        for entry in manifest["tables"]:
            data = archive.read(entry["file"])
            assert hashlib.sha256(data).hexdigest() == entry["sha256"]
            assert lines_of(data)[-1]["last_hash"] == entry["last_hash"]
        rows = list(csv.DictReader(io.StringIO(archive.read("matches.csv").decode())))
        assert len(rows) == 2 + 4 + 3 + 2 and list(rows[0]) == list(exports.MATCHES_COLUMNS)

    def test_a_groups_archive_comes_back_whole_in_another_group(
        self, group_manager, thursday_friends
    ):
        made = self._group_with_tables(group_manager, thursday_friends)
        other = groups.group_create(
            name="Cousins", players=["Anna"], variant="gin", options={}, user=group_manager
        )
        result = imports.log_import(
            user=group_manager,
            data=upload(self._archive(thursday_friends), "g.zip"),
            group_id=other.pk,
        )
        copies = {item.source_id: item.table for item in result.tables}
        assert len(copies) == 4
        for table in made:
            same_match(table, copies[table.pk])
        assert sorted(result.players_created) == ["Bruno", "Carla", "Dario"]

    def test_an_archive_with_a_changed_file_is_refused_whole(self, group_manager, thursday_friends):
        self._group_with_tables(group_manager, thursday_friends)
        source = zipfile.ZipFile(io.BytesIO(self._archive(thursday_friends)))
        manifest = json.loads(source.read("manifest.json"))
        victim = manifest["tables"][2]["file"]
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as changed:
            for name in source.namelist():
                data = source.read(name)
                if name == victim:
                    lines = lines_of(data)
                    lines[3]["entered_by"] = "someone else"
                    data = file_of(lines)
                changed.writestr(name, data)
        other = groups.group_create(
            name="O", players=["Anna"], variant="gin", options={}, user=group_manager
        )
        before = counts()
        with pytest.raises(imports.ImportRefused) as refused:
            imports.log_import(
                user=group_manager, data=upload(out.getvalue(), "g.zip"), group_id=other.pk
            )
        assert refused.value.file == victim and refused.value.line == 4
        assert counts() == before

    def test_an_archive_of_more_tables_than_allowed_is_refused(
        self, group_manager, thursday_friends, monkeypatch
    ):
        self._group_with_tables(group_manager, thursday_friends)
        monkeypatch.setattr(imports.sources, "MAX_TABLES", 3)
        before = counts()
        with pytest.raises(imports.ImportRefused) as refused:
            imports.log_import(
                user=group_manager,
                data=upload(self._archive(thursday_friends), "g.zip"),
                group_id=thursday_friends.pk,
            )
        assert "at most 3 tables" in refused.value.message
        assert counts() == before


def _refused(manager, group, data: bytes) -> imports.ImportRefused:
    before = counts()
    with pytest.raises(imports.ImportRefused) as refused:
        _import(manager, group, data)
    assert counts() == before
    return refused.value


class TestRefusals:
    """Every file that is not a whole, unchanged log of ours is refused, naming the line and
    saying why; and nothing at all is stored."""

    @pytest.fixture
    def lines(self, append):
        return lines_of(exported(_played(append)))

    def test_a_changed_line(self, group_manager, thursday_friends, lines):
        lines[3]["payload"]["knocker_count"] = 2
        refused = _refused(group_manager, thursday_friends, file_of(lines))
        assert refused.line == 4 and "hash does not match" in refused.message
        assert refused.message.startswith("Line 4:")

    def test_a_changed_line_whose_hash_was_made_again_breaks_the_next(
        self, group_manager, thursday_friends, lines
    ):
        lines[3]["payload"]["knocker_count"] = 2
        fields = {k: v for k, v in lines[3].items() if k != "hash"}
        lines[3]["hash"] = exports.line_hash(lines[2]["hash"], fields)
        assert _refused(group_manager, thursday_friends, file_of(lines)).line == 5

    def test_a_dropped_line(self, group_manager, thursday_friends, lines):
        del lines[3]
        refused = _refused(group_manager, thursday_friends, file_of(lines))
        assert refused.line == 4 and "event 3 belongs here, not event 4" in refused.message

    def test_a_reordered_line(self, group_manager, thursday_friends, lines):
        lines[3], lines[4] = lines[4], lines[3]
        refused = _refused(group_manager, thursday_friends, file_of(lines))
        assert refused.line == 4 and "out of order" in refused.message

    def test_a_repeated_line(self, group_manager, thursday_friends, lines):
        lines.insert(4, lines[3])
        assert _refused(group_manager, thursday_friends, file_of(lines)).line == 5

    def test_a_file_cut_at_a_line_end(self, group_manager, thursday_friends, lines):
        refused = _refused(group_manager, thursday_friends, file_of(lines[:5]))
        assert refused.line == 6 and "cut short" in refused.message

    def test_a_file_cut_inside_a_line(self, group_manager, thursday_friends, lines):
        data = file_of(lines)
        refused = _refused(group_manager, thursday_friends, data[: data.index(b"\n", 400) + 30])
        assert "not valid JSON" in refused.message and refused.line is not None

    def test_a_closing_line_that_counts_other_events(self, group_manager, thursday_friends, lines):
        del lines[5]
        refused = _refused(group_manager, thursday_friends, rehashed(lines))
        assert "event 5 belongs here, not event 6" in refused.message

    def test_lines_after_the_closing_line(self, group_manager, thursday_friends, lines):
        refused = _refused(group_manager, thursday_friends, file_of([*lines, lines[1]]))
        assert refused.line == len(lines) + 1 and "after the closing line" in refused.message

    def test_an_unknown_version(self, group_manager, thursday_friends, lines):
        lines[0]["version"] = 2
        refused = _refused(group_manager, thursday_friends, rehashed(lines))
        assert refused.line == 1 and "version 2" in refused.message

    def test_an_unknown_format(self, group_manager, thursday_friends, lines):
        lines[0]["format"] = "somebody-else"
        refused = _refused(group_manager, thursday_friends, rehashed(lines))
        assert refused.line == 1 and "not a RummyRef table log" in refused.message

    def test_an_unknown_schema_version(self, group_manager, thursday_friends, lines):
        lines[2]["schema_version"] = 9
        refused = _refused(group_manager, thursday_friends, rehashed(lines))
        assert refused.line == 3 and "schema version 9" in refused.message

    def test_an_event_the_rules_refuse_even_with_a_good_chain(
        self, group_manager, thursday_friends, lines
    ):
        lines[2]["payload"]["knocker_count"] = 40
        refused = _refused(group_manager, thursday_friends, rehashed(lines))
        assert refused.line == 3 and "GIN-KNOCK" in refused.message

    def test_a_header_that_does_not_match_the_log(self, group_manager, thursday_friends, lines):
        lines[0]["variant"] = "ramino"
        refused = _refused(group_manager, thursday_friends, rehashed(lines))
        assert refused.line == 1 and "creation" in refused.message

    @pytest.mark.parametrize(
        "options",
        [{"preset": "classic", "target": 100}, {"target": 75}, {"hollywood": "yes"}],
    )
    def test_a_header_whose_options_are_not_the_creations(
        self, group_manager, thursday_friends, lines, options
    ):
        """docs/export.md: an import refuses a header that disagrees with the creation; the
        table here is Big Gin to 100."""
        lines[0]["options"] = options
        refused = _refused(group_manager, thursday_friends, rehashed(lines))
        assert refused.line == 1 and "options are not the ones" in refused.message

    def test_a_header_naming_fewer_options_that_read_the_same_is_taken(
        self, group_manager, thursday_friends, lines
    ):
        """A file from an older release names fewer options: the same rules once read."""
        lines[0]["options"] = {"preset": "big_gin"}
        assert _import(group_manager, thursday_friends, rehashed(lines)).tables

    def test_a_cut_string_is_told_once_with_its_place(self, group_manager, thursday_friends, lines):
        data = file_of(lines)
        cut = data[: data.index(b'"format"') + 4] + b"\n" + data[data.index(b"\n") + 1 :]
        refused = _refused(group_manager, thursday_friends, cut)
        assert "Unterminated string starting at character" in refused.message
        assert "at at" not in refused.message

    def test_a_file_over_20_mb(self, group_manager, thursday_friends, lines):
        data = file_of(lines) + b" " * (21 * 1024 * 1024)
        refused = _refused(group_manager, thursday_friends, data)
        assert "larger than 20 MB" in refused.message

    def test_a_line_over_64_kb(self, group_manager, thursday_friends, lines):
        lines[2]["payload"]["reason"] = "x" * (70 * 1024)
        refused = _refused(group_manager, thursday_friends, rehashed(lines))
        assert refused.line == 3 and "longer than 64 KB" in refused.message

    def test_more_events_than_a_table_holds(
        self, group_manager, thursday_friends, lines, monkeypatch
    ):
        monkeypatch.setattr(imports.checks, "MAX_EVENTS", 4)
        refused = _refused(group_manager, thursday_friends, file_of(lines))
        assert refused.line == 6 and "at most 4 events" in refused.message

    @pytest.mark.parametrize(
        ("text", "reason"),
        [
            ("not json at all", "not valid JSON"),
            ("[1, 2]", "not a JSON object"),
            ('{"seq": NaN}', "not a number JSON knows"),
            ('{"seq": 1, "seq": 2}', "appears twice"),
            ("", "empty"),
            ("[" * 5000 + "]" * 5000, "nests too deep"),
        ],
    )
    def test_a_line_that_is_not_a_json_object(
        self, group_manager, thursday_friends, lines, text, reason
    ):
        data = file_of(lines).splitlines(keepends=True)
        data[2] = text.encode() + b"\n"
        refused = _refused(group_manager, thursday_friends, b"".join(data))
        assert refused.line == 3 and reason in refused.message

    def test_a_nul_character(self, group_manager, thursday_friends, lines):
        lines[3]["entered_by"] = "Anna\x00"
        refused = _refused(group_manager, thursday_friends, rehashed(lines))
        assert refused.line == 4 and "NUL" in refused.message

    def test_a_raw_nul_byte(self, group_manager, thursday_friends, lines):
        data = bytearray(file_of(lines))
        data[data.index(b"Anna's phone")] = 0
        refused = _refused(group_manager, thursday_friends, bytes(data))
        assert refused.line is not None and "not valid JSON" in refused.message

    def test_a_lone_surrogate(self, group_manager, thursday_friends, lines):
        data = file_of(lines).replace(b"misdeal", b"mis\\ud800deal")
        refused = _refused(group_manager, thursday_friends, data)
        assert refused.line == 5 and "surrogate" in refused.message  # the void, event 4

    def test_bytes_that_are_not_utf8(self, group_manager, thursday_friends, lines):
        data = file_of(lines).replace(b"misdeal", b"mis\xffdeal")
        assert "not UTF-8" in _refused(group_manager, thursday_friends, data).message

    @pytest.mark.parametrize(
        ("field", "value"),
        [
            ("seq", "2"),
            ("payload", "knock"),
            ("created_at", "yesterday"),
            ("created_at", "2026-03-01T20:00:00"),
            ("event_id", 7),
            ("entered_by", "x" * 81),
        ],
    )
    def test_a_field_of_the_wrong_type(self, group_manager, thursday_friends, lines, field, value):
        lines[2][field] = value
        refused = _refused(group_manager, thursday_friends, rehashed(lines))
        assert refused.line == 3 and field in refused.message

    def test_an_unknown_field(self, group_manager, thursday_friends, lines):
        lines[2]["secret"] = 1
        assert "secret" in _refused(group_manager, thursday_friends, rehashed(lines)).message

    def test_an_empty_file_and_a_log_with_no_events(self, group_manager, thursday_friends, lines):
        assert "empty" in _refused(group_manager, thursday_friends, b"").message
        only = [lines[0], {"end": "rummyref-table", "events": 0, "last_hash": ""}]
        assert "no event" in _refused(group_manager, thursday_friends, rehashed(only)).message

    def test_a_broken_zip(self, group_manager, thursday_friends):
        refused = _refused(group_manager, thursday_friends, b"PK\x03\x04 not really a zip")
        assert "archive cannot be read" in refused.message


DAMAGE = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(1, 255)),
    st.tuples(st.just("cut"), st.integers(0, 10**6), st.integers(1, 200)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.binary(min_size=1, max_size=12)),
    st.tuples(st.just("swap"), st.integers(0, 50), st.integers(0, 50)),
)


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(damage=st.lists(DAMAGE, min_size=1, max_size=3))
def test_damage_of_any_kind_is_refused_cleanly_or_harmless(
    damage, group_manager, thursday_friends, gin_file
):
    data = bytearray(gin_file)
    for kind, at, what in damage:
        if kind == "swap":
            lines = bytes(data).split(b"\n")
            i, j = at % len(lines), what % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
        elif kind == "flip" and data:
            data[at % len(data)] ^= what
        elif kind == "cut":
            del data[at % (len(data) + 1) : at % (len(data) + 1) + what]
        elif kind == "insert":
            data[at % (len(data) + 1) : at % (len(data) + 1)] = what
    before = counts()
    with transaction.atomic():
        try:
            _import(group_manager, thursday_friends, bytes(data))
        except imports.ImportRefused as exc:
            refused = exc
        else:
            refused = None
        after = counts()
        transaction.set_rollback(True)
    assert refused is None or (refused.message and after == before)


@pytest.fixture
def gin_file(append):
    return exported(_played(append))


class TestWhoMayImport:
    def test_a_stranger_cannot_import_into_a_group(self, append, thursday_friends):
        data = exported(_played(append))
        with pytest.raises(ActionRefused):
            imports.log_import(user=UserFactory(), data=upload(data), group_id=thursday_friends.pk)

    def test_nobody_signed_out_imports(self, append, thursday_friends):
        from django.contrib.auth.models import AnonymousUser

        with pytest.raises(ActionRefused):
            imports.import_target(user=AnonymousUser(), group_id=thursday_friends.pk)

    def test_a_club_member_who_is_no_admin_cannot_import_into_the_club(self, world):
        with pytest.raises(ActionRefused):
            imports.import_target(user=world.member, club_id=world.club.pk)

    def test_the_targets_are_the_groups_managed_and_the_clubs_administered(
        self, world, group_manager, thursday_friends
    ):
        assert [t.key for t in imports.import_targets(user=group_manager)] == [
            f"group:{thursday_friends.pk}"
        ]
        assert [t.key for t in imports.import_targets(user=world.admin)] == [
            f"club:{world.club.pk}"
        ]
        assert imports.import_targets(user=world.member) == []

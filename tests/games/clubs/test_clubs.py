"""Clubs, leagues and seasons through the services, and the constraints the database keeps."""

import datetime as dt
import uuid

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.clubs import selectors as club_selectors
from games.clubs import services as club_services
from games.models import (
    ClubRole,
    Event,
    Invite,
    League,
    Membership,
    Player,
    Season,
    Table,
)
from games.shared.errors import ActionRefused, EventRejected
from games.tables import selectors as table_selectors
from games.tables import services as table_services
from tests.factories import (
    LEAGUE_OPTIONS,
    LeagueFactory,
    MembershipFactory,
    PlayerFactory,
    TableFactory,
    UserFactory,
)
from tests.games.clubs_setup import club_world
from tests.payloads import quick


def _refused_by_the_database(create) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


class TestRolesAndConstraints:
    def test_the_creator_of_a_club_becomes_its_owner(self, world):
        owner = world.club.memberships.get(role=ClubRole.OWNER)
        assert owner.user == world.owner
        assert world.club.slug == "circolo-del-ramino"

    def test_a_second_club_of_the_same_name_gets_its_own_address(self, world):
        twin = club_services.club_create(user=world.member, name="Circolo del Ramino")
        assert twin.slug == "circolo-del-ramino-2"

    def test_the_database_refuses_a_second_membership_of_the_same_user(self, world):
        _refused_by_the_database(
            lambda: Membership.objects.create(club=world.club, user=world.member)
        )

    def test_the_database_refuses_a_second_owner(self, world):
        _refused_by_the_database(
            lambda: Membership.objects.create(
                club=world.club, user=world.outsider, role=ClubRole.OWNER
            )
        )

    def test_the_database_refuses_an_unknown_role(self, world):
        _refused_by_the_database(
            lambda: Membership.objects.create(club=world.club, user=world.outsider, role="king")
        )

    def test_the_database_refuses_a_season_ending_before_it_starts(self, world):
        _refused_by_the_database(
            lambda: Season.objects.create(
                league=world.league,
                name="Backwards",
                starts_on=dt.date(2026, 5, 1),
                ends_on=dt.date(2026, 4, 30),
            )
        )

    def test_the_service_refuses_a_season_ending_before_it_starts_by_name(self, world):
        with pytest.raises(ValidationError, match="ends on or after"):
            club_services.season_create(
                actor=world.admin,
                league_id=world.league.pk,
                name="Backwards",
                starts_on=dt.date(2026, 5, 1),
                ends_on=dt.date(2026, 4, 30),
            )

    def test_the_database_refuses_a_closed_season_without_its_closing_time(self, world):
        world.season.status = Season.Status.CLOSED
        _refused_by_the_database(world.season.save)

    def test_admins_promote_and_demote_members(self, world):
        membership = world.club.memberships.get(user=world.member)
        club_services.membership_set_role(
            actor=world.admin, membership_id=membership.pk, role=ClubRole.ADMIN
        )
        membership.refresh_from_db()
        assert membership.role == ClubRole.ADMIN
        club_services.membership_set_role(
            actor=world.admin, membership_id=membership.pk, role=ClubRole.MEMBER
        )
        membership.refresh_from_db()
        assert membership.role == ClubRole.MEMBER

    def test_an_admin_cannot_demote_the_owner(self, world):
        owner = world.club.memberships.get(user=world.owner)
        with pytest.raises(ActionRefused, match="owner"):
            club_services.membership_set_role(
                actor=world.admin, membership_id=owner.pk, role=ClubRole.MEMBER
            )
        owner.refresh_from_db()
        assert owner.role == ClubRole.OWNER

    def test_an_admin_cannot_hand_the_club_over(self, world):
        membership = world.club.memberships.get(user=world.member)
        with pytest.raises(ActionRefused):
            club_services.membership_set_role(
                actor=world.admin, membership_id=membership.pk, role=ClubRole.OWNER
            )
        assert world.club.memberships.get(role=ClubRole.OWNER).user == world.owner

    def test_a_member_cannot_change_roles(self, world):
        admin = world.club.memberships.get(user=world.admin)
        with pytest.raises(ActionRefused):
            club_services.membership_set_role(
                actor=world.member, membership_id=admin.pk, role=ClubRole.MEMBER
            )
        admin.refresh_from_db()
        assert admin.role == ClubRole.ADMIN

    def test_the_owner_hands_the_club_over_and_becomes_an_admin(self, world):
        membership = world.club.memberships.get(user=world.member)
        club_services.membership_set_role(
            actor=world.owner, membership_id=membership.pk, role=ClubRole.OWNER
        )
        roles = dict(world.club.memberships.values_list("user__username", "role"))
        assert roles == {"olga": "admin", "adam": "admin", "mara": "owner"}

    def test_an_outsider_cannot_change_roles(self, world):
        membership = world.club.memberships.get(user=world.member)
        with pytest.raises(ActionRefused):
            club_services.membership_set_role(
                actor=world.outsider, membership_id=membership.pk, role=ClubRole.ADMIN
            )


class TestInvites:
    def test_accepting_makes_the_user_a_member_with_the_invites_role(self, world):
        newcomer = UserFactory()
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk, role="admin")
        membership = club_services.invite_accept(token=invite.token, user=newcomer)
        assert (membership.club, membership.role) == (world.club, ClubRole.ADMIN)
        invite.refresh_from_db()
        assert invite.uses == 1

    def test_accepting_again_changes_nothing(self, world):
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk, max_uses=2)
        newcomer = UserFactory()
        first = club_services.invite_accept(token=invite.token, user=newcomer)
        again = club_services.invite_accept(token=invite.token, user=newcomer)
        assert first == again
        invite.refresh_from_db()
        assert invite.uses == 1

    def test_a_member_already_keeps_their_role(self, world):
        invite = club_services.invite_create(actor=world.owner, club_id=world.club.pk, role="admin")
        membership = club_services.invite_accept(token=invite.token, user=world.member)
        assert membership.role == ClubRole.MEMBER

    def test_an_expired_invite_is_refused(self, world):
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now())
        with pytest.raises(ValidationError, match="expired"):
            club_services.invite_accept(token=invite.token, user=UserFactory())
        assert world.club.memberships.count() == 3

    def test_a_used_invite_is_refused(self, world):
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        club_services.invite_accept(token=invite.token, user=UserFactory())
        with pytest.raises(ValidationError, match="used"):
            club_services.invite_accept(token=invite.token, user=UserFactory())
        assert world.club.memberships.count() == 4

    def test_an_unknown_token_is_not_found(self, world):
        with pytest.raises(Invite.DoesNotExist):
            club_services.invite_accept(token="nope", user=UserFactory())

    def test_only_admins_make_invites(self, world):
        with pytest.raises(ActionRefused):
            club_services.invite_create(actor=world.member, club_id=world.club.pk)
        with pytest.raises(ActionRefused):
            club_services.invite_create(actor=world.outsider, club_id=world.club.pk)

    def test_an_invite_never_makes_an_owner(self, world):
        with pytest.raises(ValidationError):
            club_services.invite_create(actor=world.owner, club_id=world.club.pk, role="owner")
        _refused_by_the_database(
            lambda: Invite.objects.create(
                club=world.club, role=ClubRole.OWNER, expires_at=timezone.now()
            )
        )

    def test_the_database_refuses_more_uses_than_allowed(self, world):
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        invite.uses = 2
        _refused_by_the_database(invite.save)


class TestPlayers:
    def test_a_guest_player_is_later_linked_to_a_members_account(self, world):
        table = world.table()
        club_services.player_link(
            actor=world.admin, player_id=world.anna.pk, user_id=world.member.pk
        )
        world.anna.refresh_from_db()
        assert world.anna.user == world.member
        # The seat taken as a guest is the linked account's seat now.
        assert table.seats.get(position=0).player.user == world.member

    def test_linking_twice_to_the_same_account_changes_nothing(self, world):
        for _ in range(2):
            club_services.player_link(
                actor=world.admin, player_id=world.anna.pk, user_id=world.member.pk
            )
        assert Player.objects.filter(user=world.member).count() == 1

    def test_a_player_is_linked_only_to_a_member_of_the_club(self, world):
        with pytest.raises(ValidationError, match="member"):
            club_services.player_link(
                actor=world.admin, player_id=world.anna.pk, user_id=world.outsider.pk
            )

    def test_a_member_has_one_player_per_club(self, world):
        club_services.player_link(
            actor=world.admin, player_id=world.anna.pk, user_id=world.member.pk
        )
        with pytest.raises(ValidationError, match="already has a player"):
            club_services.player_link(
                actor=world.admin, player_id=world.bruno.pk, user_id=world.member.pk
            )
        _refused_by_the_database(
            lambda: Player.objects.filter(pk=world.bruno.pk).update(user=world.member)
        )

    def test_only_admins_manage_players(self, world):
        with pytest.raises(ActionRefused):
            club_services.player_create(actor=world.member, club_id=world.club.pk, name="Dino")
        with pytest.raises(ActionRefused):
            club_services.player_link(
                actor=world.member, player_id=world.anna.pk, user_id=world.member.pk
            )

    def test_names_are_unique_in_a_club_whatever_their_case(self, world):
        with pytest.raises(ValidationError, match="already has a player called"):
            club_services.player_create(actor=world.admin, club_id=world.club.pk, name=" anna ")
        _refused_by_the_database(lambda: Player.objects.create(club=world.club, name="ANNA"))

    def test_other_clubs_and_casual_tables_may_reuse_a_name(self, world):
        club_services.player_create(actor=world.outsider, club_id=world.other_club.pk, name="Anna")
        TableFactory(players=("Anna", "Bruno"))
        TableFactory(players=("Anna", "Bruno"))
        assert Player.objects.filter(name="Anna").count() == 4


class TestLeagues:
    def _league(self, world, **kwargs):
        fields = {"name": "L", "variant": "gin", "players": 2, "options": {}, **kwargs}
        return club_services.league_create(actor=world.admin, club_id=world.club.pk, **fields)

    def test_the_league_keeps_its_options_in_full(self, world):
        league = world.league
        assert league.preset == "classic"
        assert league.options["target"] == 50 and league.options["preset"] == "classic"
        # Every option explicit, as a table's log keeps them.
        assert {"undercut_on_tie", "no_rediscard", "wall"} <= set(league.options)
        assert league.tiebreakers == ["head_to_head", "points_difference"]

    @pytest.mark.parametrize(
        ("variant", "players", "options", "rule"),
        [
            ("gin", 2, {"preset": "big_gin", "target": 50}, "GIN-MATCH"),
            ("gin", 3, {}, "GIN-SETUP"),
            ("rummy40", 3, {}, "R40-SETUP"),
            ("ramino", 2, {"knock_claim": True}, "RAM-OPT-KNOCKCLAIM"),
            ("ramino", 4, {"short_deck": True, "scala40": True}, "RAM-OPT-SCALA40"),
            ("knock_rummy", 6, {}, "KR-SETUP"),
            ("chess", 2, {}, "EVENT"),
        ],
    )
    def test_options_are_checked_by_the_engine_and_the_rule_named(
        self, world, variant, players, options, rule
    ):
        with pytest.raises(EventRejected) as refused:
            self._league(world, variant=variant, players=players, options=options)
        assert refused.value.violations[0].rule == rule
        assert League.objects.count() == 1

    def test_options_valid_for_more_players_are_accepted_for_them(self, world):
        league = self._league(world, variant="ramino", players=4, options={"knock_claim": True})
        assert league.options["knock_claim"] is True and league.players == 4

    def test_a_practice_league_is_refused(self, world):
        with pytest.raises(ValidationError, match="RAM-OPT-PRACTICE"):
            self._league(world, variant="ramino", players=3, options={"practice": True})

    def test_tiebreakers_come_from_the_list_without_repeats(self, world):
        with pytest.raises(ValidationError, match="head_to_head"):
            self._league(world, tiebreakers=["coin_toss"])
        with pytest.raises(ValidationError):
            self._league(world, tiebreakers=["rating", "rating"])

    def test_only_admins_create_leagues(self, world):
        with pytest.raises(ActionRefused):
            club_services.league_create(
                actor=world.member,
                club_id=world.club.pk,
                name="Mine",
                variant="gin",
                players=2,
                options={},
            )

    def test_league_addresses_are_unique_in_a_club(self, world):
        # Another name that makes the same address gets a number.
        assert self._league(world, name="Gin: Tuesdays!").slug == "gin-tuesdays-2"
        _refused_by_the_database(
            lambda: League.objects.create(
                club=world.club, name="X", slug="gin-tuesdays", variant="gin", players=2
            )
        )

    def test_the_database_refuses_a_league_of_no_game(self, world):
        # Which games exist is the registry's to say (the services refuse "chess" by it, EVENT
        # above), so a new game needs no migration; the database still refuses none at all.
        _refused_by_the_database(
            lambda: League.objects.create(
                club=world.club, name="X", slug="x", variant="", players=2
            )
        )


class TestSeasonTables:
    def test_a_season_table_plays_the_leagues_options_with_club_players(self, world):
        table = world.table(world.carla, world.anna)
        assert table.season == world.season
        assert (table.variant, table.preset, table.target) == ("gin", "classic", 50)
        assert table.options == world.league.options
        assert [s.player for s in table.seats.all()] == [world.carla, world.anna]
        assert table.events.get().payload["options"] == world.league.options
        assert not table.practice

    def test_changing_the_options_is_refused_and_nothing_is_made(self, world):
        with pytest.raises(ActionRefused, match="league's game and options"):
            world.table(options={**LEAGUE_OPTIONS, "target": 100})
        with pytest.raises(ActionRefused):
            world.table(variant="ramino")
        assert not Table.objects.exists()

    def test_the_leagues_own_options_may_be_repeated(self, world):
        assert world.table(options=dict(world.league.options)).season == world.season

    def test_seats_are_the_clubs_players_as_many_as_the_league_says(self, world):
        stranger = PlayerFactory(club=world.other_club, name="Zeno")
        with pytest.raises(ValidationError, match="club's players"):
            world.table(world.anna, stranger)
        with pytest.raises(ValidationError, match="2 players"):
            world.table(world.anna, world.bruno, world.carla)
        with pytest.raises(ValidationError, match="different player"):
            world.table(world.anna, world.anna)
        assert not Table.objects.exists()

    def test_an_outsider_cannot_start_a_table_in_the_season(self, world):
        with pytest.raises(ActionRefused):
            world.table(actor=world.outsider)

    def test_a_table_marked_practice_is_flagged(self, world):
        assert world.table(practice=True).practice

    def test_a_ramino_table_with_the_practice_option_is_flagged(self, db):
        table = table_services.table_create(
            variant="ramino", options={"practice": True}, players=["A", "B"]
        )
        assert table.practice

    def test_the_database_refuses_a_practice_option_on_a_counted_table(self, db):
        table = TableFactory()
        table.options = {**table.options, "practice": True}
        _refused_by_the_database(lambda: table.save(update_fields=["options"]))


class TestClosingSeasons:
    def test_only_admins_and_the_owner_close_a_season(self, world):
        with pytest.raises(ActionRefused):
            club_services.season_close(actor=world.member, season_id=world.season.pk)
        with pytest.raises(ActionRefused):
            club_services.season_close(actor=world.outsider, season_id=world.season.pk)
        world.season.refresh_from_db()
        assert world.season.is_open
        closed = club_services.season_close(actor=world.owner, season_id=world.season.pk)
        assert (closed.status, closed.closed_by) == ("closed", world.owner)
        assert closed.closed_at is not None

    def test_closing_twice_changes_nothing(self, world):
        first = club_services.season_close(actor=world.admin, season_id=world.season.pk)
        again = club_services.season_close(actor=world.owner, season_id=world.season.pk)
        assert (again.closed_at, again.closed_by) == (first.closed_at, world.admin)

    def test_a_closed_season_refuses_new_tables(self, world):
        club_services.season_close(actor=world.admin, season_id=world.season.pk)
        with pytest.raises(table_services.SeasonClosed, match="closed"):
            world.table()
        assert not Table.objects.exists()

    def test_a_closed_season_refuses_appends_and_stores_nothing(self, world, append):
        table = world.table()
        append(table, "hand_recorded", quick(0, "knock", 3, 20))
        club_services.season_close(actor=world.admin, season_id=world.season.pk)
        with pytest.raises(table_services.SeasonClosed, match="archived and read-only"):
            append(table, "hand_recorded", quick(1, "knock", 3, 20))
        assert Event.objects.filter(table=table).count() == 2
        table.refresh_from_db()
        assert table.head_seq == 2

    def test_a_retry_of_an_event_stored_before_closing_still_answers(self, world, append):
        table = world.table()
        event_id = uuid.uuid4()
        append(table, "hand_recorded", quick(0, "knock", 3, 20), event_id=event_id)
        club_services.season_close(actor=world.admin, season_id=world.season.pk)
        result = append(
            table, "hand_recorded", quick(0, "knock", 3, 20), event_id=event_id, expected_seq=1
        )
        assert not result.created


class TestWhatUsersSee:
    def test_members_see_every_league_of_their_club_others_only_public_ones(self, world):
        private = world.league
        public = LeagueFactory(
            club=world.club,
            actor=world.admin,
            name="Open Ramino",
            variant="ramino",
            players=3,
            options={},
            public=True,
        )
        assert set(club_selectors.leagues_visible(user=world.member)) == {private, public}
        assert set(club_selectors.leagues_visible(user=world.outsider)) == {public}
        anonymous = type("Anonymous", (), {"is_authenticated": False})()
        assert set(club_selectors.leagues_visible(user=anonymous)) == {public}

    def test_clubs_for_a_user_carry_their_role(self, world):
        MembershipFactory(club=world.other_club, user=world.member)
        roles = {c.name: c.my_role for c in club_selectors.clubs_for_user(user=world.member)}
        assert roles == {"Circolo del Ramino": "member", "Other Club": "member"}
        assert [c.my_role for c in club_selectors.clubs_for_user(user=world.owner)] == ["owner"]

    def test_a_private_club_is_hidden_from_outsiders(self, world):
        from games.models import Club

        with pytest.raises(Club.DoesNotExist):
            club_selectors.club_for_user(slug=world.club.slug, user=world.outsider)
        world.club.public = True
        world.club.save()
        access = club_selectors.club_for_user(slug=world.club.slug, user=world.outsider)
        detail = club_selectors.club_detail(access=access, user=world.outsider)
        assert not access.is_member and detail.members == [] and detail.players == []

    def test_a_seasons_tables_are_listed_newest_first(self, world):
        first = world.table()
        second = world.table(world.carla, world.bruno)
        assert list(table_selectors.season_tables(season=world.season)) == [second, first]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
class TestUnderConcurrency:
    def test_closing_a_season_while_phones_record_lets_no_event_in_after_it(self):
        from tests.games.tables.test_postgres_store import _in_threads

        world = club_world()
        tables = [world.table() for _ in range(6)]

        def work(i):
            if i == len(tables):
                return club_services.season_close(actor=world.admin, season_id=world.season.pk)
            return table_services.event_append(
                table_id=tables[i].id,
                event_id=uuid.uuid4(),
                expected_seq=1,
                event_type="hand_recorded",
                payload=quick(0, "knock", 3, 20),
            )

        results = _in_threads(len(tables) + 1, work)
        season = results[-1]
        assert isinstance(season, Season) and not season.is_open, results
        outcomes = results[:-1]
        assert all(
            isinstance(r, table_services.AppendResult | table_services.SeasonClosed)
            for r in outcomes
        ), outcomes
        hands = Event.objects.filter(table__season=season, type="hand_recorded")
        assert hands.count() == sum(isinstance(r, table_services.AppendResult) for r in outcomes)
        assert all(e.created_at <= season.closed_at for e in hands)

    def test_the_last_use_of_an_invite_goes_to_one_person_only(self):
        from tests.games.tables.test_postgres_store import _in_threads

        world = club_world()
        invite = club_services.invite_create(actor=world.admin, club_id=world.club.pk)
        people = [UserFactory() for _ in range(5)]
        results = _in_threads(
            5, lambda i: club_services.invite_accept(token=invite.token, user=people[i])
        )
        assert sum(isinstance(r, Membership) for r in results) == 1, results
        assert sum(isinstance(r, ValidationError) for r in results) == 4
        invite.refresh_from_db()
        assert invite.uses == 1


class TestNamesOneOfAKind:
    def test_one_person_cannot_have_two_clubs_of_one_name_whatever_the_capitals(self, world):
        with pytest.raises(ValidationError) as refused:
            club_services.club_create(user=world.owner, name="CIRCOLO del ramino")
        assert refused.value.message_dict == {
            "name": ["You already have a club called “CIRCOLO del ramino”."]
        }

    def test_a_club_cannot_have_two_leagues_of_one_name(self, world):
        LeagueFactory(club=world.club, name="Gin del giovedì")
        with pytest.raises(ValidationError) as refused:
            LeagueFactory(club=world.club, name="gin del GIOVEDÌ")
        assert "already exists in this club" in refused.value.message_dict["name"][0]
        # Another club may use the name.
        other = club_services.club_create(user=world.member, name="Altro circolo")
        assert LeagueFactory(club=other, name="Gin del giovedì").name == "Gin del giovedì"

    def test_the_database_refuses_twins_that_skip_the_service(self, world):
        league = world.league
        _refused_by_the_database(
            lambda: type(league).objects.create(
                club=league.club, name=league.name.upper(), slug="other", variant="gin", players=2
            )
        )

    def test_existing_twins_are_numbered_by_the_migration(self):
        import importlib

        migration = importlib.import_module(
            "games.migrations.0010_unique_names_whatever_the_capitals"
        )

        class Row:
            def __init__(self, pk, name, owner):
                self.pk, self.name, self.created_by_id, self.club_id = pk, name, owner, owner
                self.saved = False

            def save(self, update_fields):
                self.saved = True

        rows = {
            "Club": [Row(1, "Circolo", 7), Row(2, "circolo", 7), Row(3, "Circolo", 8)],
            "League": [Row(1, "Gin", 1), Row(2, "GIN", 1), Row(3, "gin (2)", 1)],
        }

        class Apps:
            def get_model(self, app, name):
                class Manager:
                    def order_by(self, *fields):
                        return rows[name]

                return type(name, (), {"objects": Manager()})

        migration.rename_duplicates(Apps(), None)
        # The oldest keeps its name; another owner's club is no twin; numbers skip taken ones.
        assert [r.name for r in rows["Club"]] == ["Circolo", "circolo (2)", "Circolo"]
        assert [r.name for r in rows["League"]] == ["Gin", "GIN (3)", "gin (2)"]

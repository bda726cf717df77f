"""The review of a finished hand (games/pages/review.py): one tap from the history, a stepper
whose every step is an address, each turn weighed, each player's costliest decisions worst
first; read with the table's own access, computed once and kept, never writing to the log.

The hands are every game's reviewed hand (scoring/samples.reviewed), whose figures
tests/scoring/test_review.py checks by hand; here they are only looked for on the page.
"""

import re
import uuid

import pytest
from django.test import Client
from django.utils import translation

from games.models import Event
from games.tables import review as reviews
from games.tables import services
from games.templatetags.review import decision
from scoring import samples
from scoring.review import ALL_MELDED, ALL_MELDED_NO_DISCARD, KNOCK
from tests.games.review_setup import sample_table
from tests.games.test_cache_outage import redis_server  # noqa: F401 (a fixture)


def _phone(table, key: str | None = None) -> Client:
    """Return a phone holding ``key`` of the table (its scorekeeper's by default)."""
    phone = Client()
    phone.get(f"/t/{table.id}/join/{key or table.scorekeeper_key}/")
    return phone


def _review(table, number: int = 1, query: str = "") -> str:
    return f"/t/{table.id}/hands/{number}/review/{query}"


def _text(response) -> str:
    """Return the page's text with its tags dropped and its spaces run together."""
    body = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", body)


@pytest.fixture
def gin(db):
    return sample_table(samples.reviewed_of("gin"))


@pytest.fixture
def engine_calls(monkeypatch):
    """Count the reviews the engine works out (games.tables.review calls review_hand)."""
    calls = []
    engine = reviews.review_hand

    def counted(events, number, **kwargs):
        calls.append(number)
        return engine(events, number, **kwargs)

    monkeypatch.setattr(reviews, "review_hand", counted)
    return calls


class TestOneTapFromTheHistory:
    def test_every_hand_of_the_history_links_to_its_review_for_every_role(self, gin):
        link = f'href="{_review(gin)}"'
        for key in (gin.scorekeeper_key, gin.viewer_key):
            phone = _phone(gin, key)
            assert link in phone.get(f"/t/{gin.id}/").content.decode()
            assert link in phone.get(f"/t/{gin.id}/history/").content.decode()

    def test_a_hand_entered_by_counts_has_its_review_link_too(self, db):
        table = services.table_create(variant="gin", options={}, players=["Anna", "Bruno"])
        quick = {
            "mode": "quick",
            "knocker": 0,
            "ending": "gin",
            "knocker_count": 0,
            "defender_count": 30,
        }
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_recorded",
            payload=quick,
        )
        phone = _phone(table)
        assert f'href="{_review(table)}"' in phone.get(f"/t/{table.id}/").content.decode()
        page = phone.get(_review(table))
        assert page.status_code == 200
        assert "there is nothing to review but the score" in _text(page)
        assert 'id="stepper"' not in page.content.decode()


class TestTheStepper:
    def test_the_page_opens_at_the_deal_with_a_link_to_the_next_step(self, gin):
        page = _phone(gin).get(_review(gin))
        assert page.status_code == 200
        text = _text(page)
        # Ten steps: the deal, two passes, then draws, discards, the knock and the show.
        assert "Step 0 of 9 · Anna dealt" in text
        assert 'href="?step=1"' in page.content.decode()
        assert 'rel="prev"' not in page.content.decode()
        # Anna's hand at the deal, every card known in hindsight (every draw was named).
        stepper = text.split("Move by move")[1].split("Where points were lost")[0]
        assert "2♣ 3♣ 4♣" in stepper and "no one can know" not in stepper
        assert "Bruno to move" in text

    def test_a_step_is_an_address_showing_the_turn_weighed_and_its_chances(self, gin):
        page = _phone(gin).get(_review(gin, query="?step=4"))
        text = _text(page)
        assert "Step 4 of 9 · Bruno discarded 9♥" in text
        assert "Turn 3 · Bruno" in text
        # The discard made and the best one, with the points lost and the count's rule.
        assert "9♥ : 10 left. Best: J♥ 9 left. Points lost: 1 GIN-DEADWOOD" in text
        assert "Could knock" in text and "points at stake: +46 GIN-KNOCK" in text
        assert "In hindsight, the hand would have scored: Anna 0 · Bruno 19" in text
        assert "Fed the next player (taken by Anna) 9♥ · points at stake: +20" in text
        body = page.content.decode()
        assert 'href="?step=3"' in body and 'href="?step=5"' in body
        # The top of the discard pile after the move, and whose turn it is.
        assert "Anna to move" in text

    def test_the_last_step_has_no_next_and_shows_the_hands_at_the_end(self, gin):
        page = _phone(gin).get(_review(gin, query="?step=9"))
        text = _text(page)
        assert "Step 9 of 9 · Hands shown" in text
        assert 'rel="next"' not in page.content.decode()
        assert "The hand is over." in text

    def test_a_step_asked_by_htmx_comes_alone_with_its_line_for_the_status(self, gin):
        answer = _phone(gin).get(_review(gin, query="?step=5"), headers={"HX-Request": "true"})
        body = answer.content.decode()
        assert answer.status_code == 200
        assert "<html" not in body and 'id="stepper"' not in body
        assert 'id="step-status" hx-swap-oob="innerHTML"' in body
        assert "Step 5 of 9" in _text(answer)

    @pytest.mark.parametrize("step", ["10", "-1", "x", "1.5", "9999999999"])
    def test_a_step_the_hand_has_not_is_refused_naming_its_steps(self, gin, step):
        answer = _phone(gin).get(_review(gin, query=f"?step={step}"))
        assert answer.status_code == 400
        assert "its steps run from 0 to 9" in _text(answer)


class TestWhatItSays:
    def test_each_player_s_costliest_decision_comes_first(self, gin):
        text = _text(_phone(gin).get(_review(gin)))
        bruno = text.split("Bruno", text.count("Bruno"))[-1]
        assert "Points lost by the decisions weighed: 1." in text
        # Bruno passed up a knock (a swing of 46), fed Anna the 9♥ (20), discarded 1 worse
        # than the best.
        assert re.search(
            r"Turn 3 · Could knock · 46 GIN-KNOCK .*Turn 3 · Fed the next player · 20 GIN-TURN"
            r" .*Turn 3 · The discard · 1 GIN-DEADWOOD",
            text,
        ), bruno
        assert "No decision cost points." in text  # Anna's

    def test_each_player_s_accuracy_is_shown(self, gin):
        text = _text(_phone(gin).get(_review(gin)))
        # Bruno: his 9H lost a point; his draw of 2H and his knock's JH were the best; his
        # first draw, forced from the stock (GIN-FIRST), is no decision. Anna: both best.
        assert "Accuracy: 67% (2 of 3 decisions weighed were the best)." in text
        assert "Accuracy: 100% (2 of 2 decisions weighed were the best)." in text

    def test_a_cost_links_to_its_step(self, gin):
        assert 'href="?step=4#stepper"' in _phone(gin).get(_review(gin)).content.decode()

    def test_the_chart_draws_each_player_s_count_turn_by_turn(self, gin):
        body = _phone(gin).get(_review(gin)).content.decode()
        chart = body.split('data-testid="review-chart"')[1].split("</figure>")[0]
        assert chart.count("<polyline") == 2
        # Bruno's counts after his turns: a pass (not weighed), 10, 2.
        assert re.search(r"<th scope=\"row\">#2</th><td>4</td><td>10</td>", chart)

    def test_the_end_shows_the_gin_defender_s_layoffs(self, gin):
        text = _text(_phone(gin).get(_review(gin)))
        assert "Laid off: 4♠ → #2 GIN-LAYOFF" in text

    def test_a_hand_entered_by_cards_shows_what_its_cards_show(self, db):
        table = services.table_create(variant="gin", options={}, players=["Anna", "Bruno"])
        by_cards = {
            "mode": "cards",
            "knocker": 1,
            "knocker_cards": "9C 9S 9H 9D 4C 4S 4H 3C 3S 3H",
            "defender_cards": "6C AH AS 2S 5D 6D 7D KC KS KH",
        }
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_recorded",
            payload=by_cards,
        )
        text = _text(_phone(table).get(_review(table)))
        assert "Entered by the cards each player held" in text
        assert "The end of the hand" in text
        assert "Step 0" not in text

    def test_it_reads_in_italian(self, gin):
        phone = _phone(gin)
        phone.post("/i18n/setlang/", {"language": "it", "next": "/"})
        text = _text(phone.get(_review(gin, query="?step=4")))
        assert "Passo 4 di 9" in text
        assert "Dove si sono persi i punti" in text

    def test_a_voided_hand_is_reviewed_as_it_was_played(self, gin):
        services.event_append(
            table_id=gin.id,
            event_id=uuid.uuid4(),
            expected_seq=gin.head_seq,
            event_type="hand_voided",
            payload={"hand": 1, "reason": "misdeal"},
        )
        text = _text(_phone(gin).get(_review(gin)))
        assert "This hand was voided later: here it is as it was played." in text


class TestAccess:
    def test_a_phone_without_the_table_s_key_gets_the_table_page_s_404(self, gin):
        stranger = Client()
        assert stranger.get(f"/t/{gin.id}/").status_code == 404
        assert stranger.get(_review(gin)).status_code == 404

    def test_a_viewer_reads_the_review(self, gin):
        assert _phone(gin, gin.viewer_key).get(_review(gin)).status_code == 200

    @pytest.mark.parametrize("number", [0, 2, 999999999999])
    def test_a_hand_the_table_has_not_finished_is_a_404(self, gin, number):
        assert _phone(gin).get(_review(gin, number)).status_code == 404

    def test_a_hand_in_play_has_no_review_yet(self, db):
        table = services.table_create(variant="gin", options={}, players=["Anna", "Bruno"])
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=1,
            event_type="hand_started",
            payload={"dealer": 0, "upcard": "5H"},
        )
        assert _phone(table).get(_review(table)).status_code == 404

    def test_a_practice_table_is_reviewed_as_any_other(self, db):
        table = sample_table(samples.reviewed_of("ramino"), practice=True)
        text = _text(_phone(table).get(_review(table)))
        assert "Could open" in text and "RAM-OPEN" in text

    def test_a_league_table_opens_to_its_club_s_members_only(self, world, client):
        table = world.table()
        key = table.scorekeeper_key
        from tests.games.review_setup import sample_play

        sample_play(table, samples.reviewed_of("gin"))
        client.force_login(world.member)
        assert client.get(_review(table)).status_code == 200
        client.force_login(world.outsider)
        assert client.get(_review(table)).status_code == 404
        # A key opens a league table to watch: its reviews too.
        assert _phone(table, key).get(_review(table)).status_code == 200


class TestComputedOnce:
    def test_the_engine_works_a_review_out_once_for_the_page_and_the_api(self, gin, engine_calls):
        phone = _phone(gin)
        for query in ("", "?step=3", "?step=7"):
            assert phone.get(_review(gin, query=query)).status_code == 200
        api = Client().get(
            f"/api/v1/tables/{gin.id}/hands/1/review/", HTTP_X_TABLE_KEY=gin.viewer_key
        )
        assert api.status_code == 200
        assert engine_calls == [1]

    def test_a_correction_of_the_hand_makes_a_new_review(self, gin, engine_calls):
        phone = _phone(gin)
        phone.get(_review(gin))
        services.event_append(
            table_id=gin.id,
            event_id=uuid.uuid4(),
            expected_seq=gin.head_seq,
            event_type="hand_voided",
            payload={"hand": 1, "reason": "misdeal"},
        )
        assert "voided later" in _text(phone.get(_review(gin)))
        phone.get(_review(gin))
        assert engine_calls == [1, 1]

    def test_reading_a_review_never_writes_to_the_log(self, gin):
        before = list(Event.objects.filter(table=gin).values_list("seq", "hash"))
        phone = _phone(gin)
        for query in ("", "?step=4", "?step=9"):
            phone.get(_review(gin, query=query))
        Client().get(f"/api/v1/tables/{gin.id}/hands/1/review/", HTTP_X_TABLE_KEY=gin.viewer_key)
        gin.refresh_from_db()
        assert list(Event.objects.filter(table=gin).values_list("seq", "hash")) == before
        assert gin.head_seq == before[-1][0]

    def test_with_redis_down_the_review_is_worked_out_again_not_refused(
        self,
        redis_server,  # noqa: F811 (the fixture imported above)
        db,
    ):
        table = sample_table(samples.reviewed_of("gin"))
        phone = _phone(table)
        assert phone.get(_review(table)).status_code == 200
        redis_server.kill()
        assert phone.get(_review(table, query="?step=4")).status_code == 200


class TestChanceNames:
    """A missed chance is named by what it means, or by the game's own words for the rule
    it cites (GameWords.chances): the template tag names no game."""

    def test_gins_ways_out_are_named_in_its_words(self):
        # GIN-GIN: gin, every card melded after the discard; GIN-BIGGIN: all 11, no discard.
        assert decision(ALL_MELDED, "GIN-GIN") == "Could go gin"
        assert decision(ALL_MELDED_NO_DISCARD, "GIN-BIGGIN") == "Could go Big Gin"
        with translation.override("it"):
            assert decision(ALL_MELDED, "GIN-GIN") == "Poteva fare gin"

    def test_a_chance_the_games_words_do_not_name_keeps_the_pages_name(self):
        assert decision(KNOCK, "GIN-KNOCK") == "Could knock"
        assert decision(ALL_MELDED, "") == "Could go out with every card melded"
        assert decision(ALL_MELDED_NO_DISCARD, "KR-KNOCK") == (
            "Could go out with every card melded, no discard"
        )

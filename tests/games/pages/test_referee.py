"""The referee API and page: verdicts with rule IDs, 400 for unreadable input, never a 500."""

import json
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.shared.throttles import CountedRateThrottle
from tests.factories import TableFactory


def ask(api, question, body, **headers):
    response = api.post(f"/api/v1/referee/{question}/", body, format="json", **headers)
    return response.status_code, response.json()


class TestGinMelds:
    def test_a_run_is_legal_with_its_value(self, api_client, db):
        code, body = ask(api_client, "meld", {"variant": "gin", "cards": "7S 8S 9S"})
        assert code == 200
        assert body["valid"] and body["kind"] == "run" and body["value"] == 24  # GIN-VALUE 7+8+9
        assert "MELD-RUN" in [r["rule"] for r in body["rules"]]

    def test_queen_king_ace_is_not_a_gin_run(self, api_client, db):
        # GIN-MELDS: ace low only, so Q-K-A breaks ACE-HIGH.
        code, body = ask(api_client, "meld", {"variant": "gin", "cards": "QS KS AS"})
        assert code == 200 and body["valid"] is False
        assert body["violations"][0]["rule"] == "ACE-HIGH"


class TestGinHands:
    def test_a_ten_card_hand_with_ten_deadwood_can_knock(self, api_client, db):
        # A-2-3♠, 4-5-6♣, 7-8-9♥ melded; K♦ left: 10 (GIN-DEADWOOD, GIN-KNOCK).
        code, body = ask(
            api_client, "hand", {"variant": "gin", "cards": "AS 2S 3S 4C 5C 6C 7H 8H 9H KD"}
        )
        assert code == 200
        assert body["deadwood"] == 10 and body["unmelded"] == ["KD"]
        assert body["can_knock"] is True and body["gin"] is False
        assert "can_go_out" not in body and "best_opening" not in body

    def test_eleven_cards_name_the_best_discard(self, api_client, db):
        code, body = ask(
            api_client, "hand", {"variant": "gin", "cards": "AS 2S 3S 4C 5C 6C 7H 8H 9H KD KS"}
        )
        assert code == 200
        assert body["discard"] in ("KD", "KS") and body["deadwood_after_discard"] == 10
        assert body["big_gin"] is False


class TestGinLayoffsAndScores:
    def test_layoffs_chain_onto_a_run(self, api_client, db):
        # GIN-LAYOFF: 10♠ then J♠ extend 7-8-9♠; 2♦ stays (2 points).
        code, body = ask(
            api_client, "layoff", {"variant": "gin", "melds": ["7S 8S 9S"], "cards": "10S JS 2D"}
        )
        assert code == 200
        assert [(x["card"], x["meld"]) for x in body["layoffs"]] == [("10S", 0), ("JS", 0)]
        assert body["remaining"] == ["2D"] and body["deadwood"] == 2

    def test_the_seed_page_gin_scores_35(self, api_client, db):
        # gin-rummy-rules-it.txt: gin (25) + the defender's 6♣ A♥ A♠ 2♠ = 10 -> 35.
        code, body = ask(
            api_client,
            "score",
            {
                "variant": "gin",
                "players": [
                    {"name": "A", "hand": "9C 9S 9H 9D 4C 4S 4H 3C 3S 3H", "knocked": True},
                    {"name": "B", "hand": "6C AH AS 2S 5D 6D 7D KC KS KH"},
                ],
            },
        )
        assert code == 200 and body["valid"]
        assert body["points"] == {"A": 35, "B": 0}
        assert {item["rule"] for item in body["items"]} == {"GIN-GIN", "GIN-SCORE-GIN"}

    def test_a_knock_over_ten_is_an_illegal_end(self, api_client, db):
        code, body = ask(
            api_client,
            "score",
            {
                "variant": "gin",
                "players": [
                    {"name": "A", "hand": "AS 2S 3S 4C 5C 6C 7H 8H KD QD", "knocked": True},
                    {"name": "B", "hand": "9C AH 2H 2C 5D 6D 7D KC KS KH"},
                ],
            },
        )
        assert code == 200 and body["valid"] is False
        assert body["violations"][0]["rule"] == "GIN-KNOCK"


class TestBadInput:
    def test_an_unknown_card_is_a_400_with_token_and_position(self, api_client, db):
        code, body = ask(api_client, "meld", {"variant": "gin", "cards": "7S 8S ZZ"})
        assert code == 400
        assert body["violations"][0]["rule"] == "CARD-3"
        assert body["violations"][0]["params"] == {"token": "ZZ", "position": 3}

    def test_too_many_copies_is_a_400_naming_the_card(self, api_client, db):
        code, body = ask(api_client, "meld", {"variant": "gin", "cards": "7S 7S 7S"})
        assert code == 400 and body["violations"][0]["params"]["card"] == "7S"

    def test_a_question_the_game_does_not_have_is_a_400(self, api_client, db):
        code, body = ask(
            api_client, "rearrangement", {"variant": "gin", "before": [], "after": [], "hand": ""}
        )
        assert code == 400 and body["violations"][0]["code"] == "not_in_game"

    @pytest.mark.parametrize(
        ("question", "body"),
        [
            ("meld", {"variant": "gin"}),
            ("meld", {"variant": "chess", "cards": "7S"}),
            ("meld", {"variant": "gin", "cards": ["7S"]}),
            ("hand", {"variant": "gin", "cards": "7S 8S"}),
            ("hand", {"variant": "gin", "cards": "AS 2S 3S 4C 5C 6C 7H 8H 9H KD", "preset": "x"}),
            ("layoff", {"variant": "gin", "melds": ["7S 8S"], "cards": "9S"}),
            ("layoff", {"variant": "gin", "melds": "7S 8S 9S", "cards": "9S"}),
            ("score", {"variant": "gin", "players": [{"name": "A"}]}),
            ("score", {"variant": "gin", "players": [{"name": "A"}, {"name": "B"}]}),
            ("opening", {"variant": "gin", "melds": []}),
            ("meld", {"variant": "gin", "cards": "7S 8S 9S", "options": {"target": "x"}}),
        ],
    )
    def test_bad_requests_are_answered_never_crashed_on(self, api_client, db, question, body):
        code, answer = ask(api_client, question, body)
        assert code in (200, 400), answer
        assert json.dumps(answer)


class TestItalian:
    def test_the_referee_answers_in_italian(self, api_client, db):
        code, body = ask(
            api_client, "meld", {"variant": "gin", "cards": "QS KS AS"}, HTTP_ACCEPT_LANGUAGE="it"
        )
        assert code == 200
        assert "asso" in body["violations"][0]["message"].lower()
        assert body["rules"][0]["title"] != "Gin melds: sets and runs, ace low only"


class TestThrottle:
    def test_a_client_asking_too_fast_is_told_to_wait(self, api_client, db, settings):
        from rest_framework.throttling import ScopedRateThrottle

        rates = {**ScopedRateThrottle.THROTTLE_RATES, "referee": "3/min"}
        original = ScopedRateThrottle.THROTTLE_RATES
        ScopedRateThrottle.THROTTLE_RATES = rates
        try:
            codes = [
                ask(api_client, "meld", {"variant": "gin", "cards": "7S 8S 9S"})[0]
                for _ in range(5)
            ]
        finally:
            ScopedRateThrottle.THROTTLE_RATES = original
        assert codes == [200, 200, 200, 429, 429]


class TestRefereePage:
    def test_the_page_answers_a_hand_question(self, client, db):
        response = client.post(
            "/referee/",
            {
                "variant": "gin",
                "gin__preset": "big_gin",
                "players": "2",
                "question": "hand",
                "cards": "AS 2S 3S 4C 5C 6C 7H 8H 9H KD",
            },
        )
        page = response.content.decode()
        assert response.status_code == 200
        assert 'data-testid="deadwood">10<' in page and "GIN-DEADWOOD" in page

    def test_a_gin_hand_is_told_in_the_games_own_word_for_its_way_out(self, client, db):
        # GIN-GIN: every card of a ten-card hand in melds (A-2-3 of spades, 4-5-6 of clubs,
        # 7-8-9-10 of hearts) is gin; the pages name it by Gin's own words.
        data = {
            "variant": "gin",
            "gin__preset": "big_gin",
            "players": "2",
            "question": "hand",
            "cards": "AS 2S 3S 4C 5C 6C 7H 8H 9H 10H",
        }
        english = client.post("/referee/", data).content.decode()
        assert "<dt>Gin</dt><dd>yes</dd>" in english
        italian = client.post("/referee/", data, HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert "<dt>Gin</dt><dd>sì</dd>" in italian

    def test_the_page_shows_unreadable_cards_as_an_error(self, client, db):
        response = client.post(
            "/referee/",
            {"variant": "gin", "players": "2", "question": "meld", "cards": "7S 8S XX"},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 400
        assert "CARD-3" in response.content.decode()

    def test_opened_from_a_table_it_takes_the_tables_game(self, client, db):
        table = TableFactory(options={"preset": "classic", "target": 50})
        client.get(f"/t/{table.id}/join/{table.scorekeeper_key}/")
        page = client.get(f"/referee/?table={table.id}").content.decode()
        assert re.search(r'name="gin__preset" value="classic" id="[^"]+" checked', page)

    def test_a_table_without_a_key_is_not_found(self, client, db):
        table = TableFactory()
        assert client.get(f"/referee/?table={table.id}").status_code == 404

    OKLAHOMA_HAND = {
        "variant": "gin",
        "gin__preset": "oklahoma",
        "players": "2",
        "question": "score",
        "p0_name": "Anna",
        "p0_hand": "7S 8S 9S KC KH KD 2C 3C 4C 5H",
        "p0_knocked": "on",
        "p1_name": "Bruno",
        "p1_hand": "5S 6S 10S JS KS 8C 8H 8D QH 2D",
    }

    def test_an_oklahoma_hand_is_scored_with_the_upcard_typed_on_the_page(self, client, db):
        """GIN-OKLAHOMA and GIN-SPADES: the Q♠ turned up lets a knock keep 10; Anna keeps the
        5♥. Bruno lays 5♠ 6♠ and 10♠ J♠ on her 7-8-9♠ and K♠ on her kings, keeping
        Q♥ 2♦ = 12 (GIN-LAYOFF): 12 - 5 = 7 (GIN-SCORE-KNOCK), doubled by the spade: 14."""
        response = client.post("/referee/", {**self.OKLAHOMA_HAND, "upcard": "QS"})
        page = response.content.decode()
        assert response.status_code == 200, page
        points = re.search(r'data-testid="points">(.*?)</table>', page, re.S).group(1)
        assert re.findall(r"<th>(\w+)</th><td>(\d+)</td>", points) == [
            ("Anna", "14"),
            ("Bruno", "0"),
        ]
        assert "GIN-SPADES" in page

    def test_a_score_answer_is_sentences_and_rows_of_cards(self, client, db):
        """The hand above: Anna's three melds and her 5♥ counting 5; Bruno's eights, the five
        spades he laid off on Anna's melds, and Q♥ 2♦ counting 12. No dict, no name drawn as
        cards, and a heading that scores rather than judges."""
        page = client.post(
            "/referee/", {**self.OKLAHOMA_HAND, "upcard": "QS"}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert "{'" not in page and "Legal" not in page
        verdict = r'<h2 class="verdict ok" data-testid="verdict">The hand.s score</h2>'
        assert re.search(verdict, page)
        anna, bruno = (
            re.search(rf'data-testid="score-seat-{n}".*?</section>', page, re.S).group(0)
            for n in (0, 1)
        )

        def rows(seat: str) -> list[str]:
            return [
                " ".join(re.findall(r'<span class="c s\w">([^<]+)</span>', row))
                for row in re.findall(r'<li class="meld">(.*?)</li>', seat)
            ]

        assert "Anna: 14 points" in anna and "Bruno: 0 points" in bruno
        assert rows(anna) == ["2♣ 3♣ 4♣", "K♣ K♥ K♦", "7♠ 8♠ 9♠"]
        assert rows(bruno) == ["8♣ 8♥ 8♦"]
        assert re.search(r"Unmelded, counting 5 points: <span class=\"c sH\">5♥</span></p>", anna)
        assert "Laid off on Anna's melds:" in bruno
        assert re.search(r"Unmelded, counting 12 points: .*Q♥.*2♦</span></p>", bruno)
        assert '<span class="c sA">A</span>' not in page  # a name is never drawn as cards

    def test_an_oklahoma_hand_without_its_upcard_is_refused_naming_it(self, client, db):
        response = client.post("/referee/", self.OKLAHOMA_HAND, HTTP_HX_REQUEST="true")
        page = response.content.decode()
        assert response.status_code == 400
        assert "first upcard sets the knock limit" in page and "GIN-OKLAHOMA" in page

    def test_the_upcard_is_asked_only_where_the_preset_plays_oklahoma(self, client, db):
        """The field is on the page for Gin; games.css shows it under the Oklahoma preset
        only, and the other presets' hands are scored without it (an upcard typed before
        switching preset is left out, not refused)."""
        page = client.get("/referee/").content.decode()
        assert 'data-upcard="gin"' in page and 'data-testid="upcard"' in page
        css = client.get(reverse("game-styles")).content.decode()
        assert '[data-upcard~="gin"] { display: none; }' in css
        assert 'option[value="oklahoma"]:checked) [data-upcard~="gin"] { display: block; }' in css
        assert 'value="american"]:checked) [data-upcard' not in css
        big_gin = {**self.OKLAHOMA_HAND, "gin__preset": "big_gin", "upcard": "QS"}
        page = client.post("/referee/", big_gin).content.decode()
        # Big Gin without the spade: 12 - 5 = 7 (GIN-SCORE-KNOCK).
        assert re.search(r"<th>Anna</th><td>7</td>", page) and "GIN-SPADES" not in page

    def test_the_upcard_picked_is_written_with_its_suit_symbol_and_scored(self, client, db):
        """What the picker writes (Q♠: the symbol, read alike in every language) is the
        same card as QS: 14 to Anna, as worked above (GIN-OKLAHOMA, GIN-SPADES)."""
        response = client.post("/referee/", {**self.OKLAHOMA_HAND, "upcard": "Q♠"})
        assert re.search(r"<th>Anna</th><td>14</td>", response.content.decode())

    def test_without_javascript_the_upcard_is_a_plain_labelled_field(self, client, db):
        """The picker comes hidden (app.js shows it): the field alone still takes the card."""
        page = client.get("/referee/").content.decode()
        label = re.search(r'<div class="upcard".*?</label>', page, re.S).group(0)
        assert "Upcard at the deal" in label and 'name="upcard"' in label
        assert "<button" not in label  # the picker's buttons are no part of the field's name
        picker = re.search(r"<div class=\"upcard-picker\"[^>]*>(.*?)\n</div>", page, re.S)
        assert " hidden>" in picker.group(0).split("\n")[0]
        assert len(re.findall(r"data-suit=", picker.group(1))) == 4
        assert len(re.findall(r"data-rank=", picker.group(1))) == 13


class TestScoresOfTheOtherGames:
    def test_ramino_the_winner_gains_what_the_others_lose(self, api_client, db):
        # RAM-SCORE with RAM-VALUE: B holds K Q 5 = 10+10+5 = 25; C holds JK 2 = 20+2 = 22.
        code, body = ask(
            api_client,
            "score",
            {
                "variant": "ramino",
                "players": [
                    {"name": "A", "hand": "", "melded": "7S 8S 9S", "went_out": True},
                    {"name": "B", "hand": "KH QH 5C"},
                    {"name": "C", "hand": "JK 2D"},
                ],
            },
        )
        assert code == 200 and body["valid"]
        assert body["points"] == {"A": 47, "B": -25, "C": -22}

    def test_ramino_closing_in_one_turn_doubles_the_hand(self, api_client, db):
        # RAM-HANDCLOSE: B's 25 doubles to 50, lost by B and gained by A.
        code, body = ask(
            api_client,
            "score",
            {
                "variant": "ramino",
                "players": [
                    {"name": "A", "hand": "", "went_out": True, "hand_closed": True},
                    {"name": "B", "hand": "KH QH 5C"},
                ],
            },
        )
        assert code == 200 and body["points"] == {"A": 50, "B": -50}

    def test_rummy40_the_loser_adds_the_cards_left_and_the_joker_counts_25(self, api_client, db):
        # R40-END with R40-VALUE: K Q 5 JK = 10+10+5+25 = 50 penalty points for B.
        code, body = ask(
            api_client,
            "score",
            {
                "variant": "rummy40",
                "players": [
                    {"name": "A", "hand": "", "went_out": True},
                    {"name": "B", "hand": "KS QS 5D JK"},
                ],
            },
        )
        assert code == 200 and body["points"] == {"A": 0, "B": 50}

    def test_knock_rummy_the_lowest_hand_wins_and_an_undercut_earns_10(self, api_client, db):
        # KR-SCORE: B (2) beats A (4) by 2 and C (9) by 7 = 9; KR-UNDERCUT: B did not knock, +10.
        code, body = ask(
            api_client,
            "score",
            {
                "variant": "knock_rummy",
                "players": [
                    {"name": "A", "hand": "4C", "knocked": True},
                    {"name": "B", "hand": "2C"},
                    {"name": "C", "hand": "9D"},
                ],
            },
        )
        assert code == 200 and body["points"] == {"A": 0, "B": 19, "C": 0}
        assert {i["rule"] for i in body["items"]} == {"KR-SCORE", "KR-UNDERCUT"}

    def test_knock_rummy_a_knock_over_five_is_an_illegal_end(self, api_client, db):
        # KR-KNOCK: 4 + 5 = 9 points in hand is over the limit of 5.
        code, body = ask(
            api_client,
            "score",
            {
                "variant": "knock_rummy",
                "players": [
                    {"name": "A", "hand": "4C 5C", "knocked": True},
                    {"name": "B", "hand": "2C"},
                ],
            },
        )
        assert code == 200 and body["valid"] is False
        assert body["violations"][0]["rule"] == "KR-KNOCK"
        assert body["violations"][0]["params"]["count"] == 9


class TestMeldsOpeningsAndMoves:
    def test_rummy40_queen_king_ace_is_a_run_worth_31(self, api_client, db):
        # R40-RUNS allows ACE-HIGH; VALUE: Q 10 + K 10 + high ace 11 = 31 (the issue's example).
        code, body = ask(api_client, "meld", {"variant": "rummy40", "cards": "QS KS AS"})
        assert code == 200
        assert body["valid"] and body["kind"] == "run" and body["value"] == 31

    def test_a_ramino_joker_left_open_is_placed_and_said(self, api_client, db):
        # JOKER-1: 7♠ 8♠ JK may be 6♠ or 9♠; the referee picks one and says which.
        code, body = ask(api_client, "meld", {"variant": "ramino", "cards": "7S 8S JK"})
        assert code == 200 and body["valid"]
        assert body["jokers"] in ({"3": "9S"}, {"3": "6S"})
        assert body["chosen_by_referee"] == ["3"]

    def test_a_declared_joker_is_kept(self, api_client, db):
        # The meld comes back in rank order; jokers are keyed by their place in it.
        code, body = ask(api_client, "meld", {"variant": "ramino", "cards": "7S 8S JK=6S"})
        assert code == 200 and body["cards"] == ["JK=6S", "7S", "8S"]
        assert body["jokers"] == {"1": "6S"} and body["chosen_by_referee"] == []

    def test_a_second_joker_in_a_rummy40_meld_is_refused(self, api_client, db):
        code, body = ask(api_client, "meld", {"variant": "rummy40", "cards": "7S JK JK"})
        assert code == 200 and body["valid"] is False
        assert body["violations"][0]["rule"] == "R40-RUNS"

    def test_round_the_corner_needs_circular_runs(self, api_client, db):
        # ACE-WRAP, RAM-OPT-CIRCULAR.
        _, plain = ask(api_client, "meld", {"variant": "ramino", "cards": "KS AS 2S"})
        _, circular = ask(
            api_client,
            "meld",
            {"variant": "ramino", "cards": "KS AS 2S", "options": {"circular_runs": True}},
        )
        assert plain["valid"] is False and plain["violations"][0]["rule"] == "ACE-WRAP"
        assert circular["valid"] is True

    def test_a_rummy40_opening_of_52_reaches_40(self, api_client, db):
        # R40-OPEN with VALUE: Q K A♠ = 31, 7♥ 7♣ 7♦ = 21 -> 52 >= 40.
        code, body = ask(
            api_client, "opening", {"variant": "rummy40", "melds": ["QS KS AS", "7H 7C 7D"]}
        )
        assert code == 200
        assert body["valid"] and body["value"] == 52 and body["minimum"] == 40

    def test_a_ramino_opening_of_9_is_short_of_30(self, api_client, db):
        # RAM-OPEN: 2+3+4 = 9 < 30.
        code, body = ask(api_client, "opening", {"variant": "ramino", "melds": ["2S 3S 4S"]})
        assert code == 200 and body["valid"] is False
        assert body["violations"][0]["rule"] == "RAM-OPEN" and body["value"] == 9

    def test_the_rules_applied_name_the_tables_opening_minimum(self, api_client, db):
        # RAM-OPT-SCALA40 raises RAM-OPEN's 30 to 40: 2+3+4 = 9 < 40, and the title says 40.
        code, body = ask(
            api_client,
            "opening",
            {"variant": "ramino", "options": {"scala40": True}, "melds": ["2S 3S 4S"]},
        )
        assert code == 200 and body["minimum"] == 40
        titles = {rule["rule"]: rule["title"] for rule in body["rules"]}
        assert titles["RAM-OPEN"] == "Ramino: open with 3+ cards worth 40 or more"
        code, body = ask(api_client, "opening", {"variant": "ramino", "melds": ["2S 3S 4S"]})
        titles = {rule["rule"]: rule["title"] for rule in body["rules"]}
        assert titles["RAM-OPEN"] == "Ramino: open with 3+ cards worth 30 or more"

    def test_the_page_titles_the_rules_with_the_tables_options(self, client, db):
        response = client.post(
            "/referee/",
            {
                "variant": "ramino",
                "players": "3",
                "ramino__scala40": "on",
                "question": "opening",
                "melds": "2S 3S 4S",
            },
        )
        page = response.content.decode()
        assert "worth 40 or more" in page and "worth 30 or more" not in page

    def test_a_knock_rummy_move_that_splits_a_run_and_frees_a_joker_is_legal(self, api_client, db):
        # KR-MANIP, KR-JOKER: 9♣ from hand frees the joker, which becomes 9♠ after 7♠ 8♠.
        code, body = ask(
            api_client,
            "rearrangement",
            {
                "variant": "knock_rummy",
                "before": ["4S 5S 6S 7S", "9H 9D JK=9C"],
                "after": ["4S 5S 6S", "7S 8S JK=9S", "9H 9D 9C"],
                "hand": "8S 9C 2D",
            },
        )
        assert code == 200 and body["valid"], body
        assert sorted(body["added"]) == ["8S", "9C"]

    def test_a_knock_rummy_move_that_takes_a_card_off_the_table_is_refused(self, api_client, db):
        code, body = ask(
            api_client,
            "rearrangement",
            {
                "variant": "knock_rummy",
                "before": ["4S 5S 6S 7S"],
                "after": ["4S 5S 6S"],
                "hand": "8S",
            },
        )
        assert code == 200 and body["valid"] is False
        codes = {(v["rule"], v["code"]) for v in body["violations"]}
        assert codes == {("KR-MANIP", "card_left_table"), ("KR-MANIP", "nothing_added")}


class TestHandsAndLayoffsOfTheOtherGames:
    def test_a_ramino_hand_that_goes_out_says_how(self, api_client, db):
        # RAM-OUT: four melds (the joker completes one) and 2♣ to discard; RAM-VALUE: 2 left.
        code, body = ask(
            api_client,
            "hand",
            {"variant": "ramino", "cards": "7S 8S 9S 4H 4D 4C KH QH JH 2C JK 5D 6D 7D"},
        )
        assert code == 200
        assert body["can_go_out"] is True and body["going_out"]["discard"] == "2C"
        assert body["deadwood"] == 2
        assert body["best_opening"] >= 30

    def test_a_rummy40_hand_with_two_loose_cards_cannot_go_out(self, api_client, db):
        # R40-HAND: one discard is allowed, 2♣ and 3♣ are two loose cards; R40-VALUE 2+3 = 5.
        code, body = ask(
            api_client, "hand", {"variant": "rummy40", "cards": "7S 8S 9S 4H 4D 4C KH QH JH 2C 3C"}
        )
        assert code == 200
        assert body["can_go_out"] is False and body["deadwood"] == 5
        assert body["violations"][0]["rule"] == "R40-HAND"
        # VALUE: 7+8+9 + 4+4+4 + 10+10+10 = 66.
        assert body["best_opening"] == 66

    def test_a_knock_rummy_hand_with_two_points_left_can_knock(self, api_client, db):
        # KR-KNOCK: 2♣ alone is 2 points, 5 or fewer; KR-OUT needs every card melded.
        code, body = ask(
            api_client, "hand", {"variant": "knock_rummy", "cards": "7S 8S 9S 4H 4D 4C 2C"}
        )
        assert code == 200
        assert body["can_knock"] is True and body["can_go_out"] is False

    def test_ramino_cards_are_added_to_a_table_run(self, api_client, db):
        # RAM-ADD: 10♠ J♠ extend 7-8-9♠; 2♦ stays (2 points).
        code, body = ask(
            api_client,
            "layoff",
            {"variant": "ramino", "melds": ["7S 8S 9S"], "cards": "10S JS 2D"},
        )
        assert code == 200 and body["valid"]
        assert sorted(x["card"] for x in body["layoffs"]) == ["10S", "JS"]
        assert body["remaining"] == ["2D"] and body["deadwood"] == 2


class TestGoingOutVerdictsSpeakItalian:
    def test_a_hand_that_cannot_go_out_is_told_so_in_italian(self, api_client, db):
        code, body = ask(
            api_client,
            "hand",
            {"variant": "rummy40", "cards": "7S 8S 9S 4H 4D 4C KH QH JH 2C 3C"},
            HTTP_ACCEPT_LANGUAGE="it",
        )
        assert code == 200
        assert body["violations"][0]["message"].startswith("Con queste carte non si chiude")


class TestRefereeBounds:
    HEAVY = {
        "variant": "ramino",
        "cards": "JK JK JK JK JK JK AS AH AD AC AS AH AD AC 2S 2H 2D 2C 2S 2H 2D 2C "
        "3S 3H 3D 3C 3S 3H 3D 3C 4S 4H 4D 4C",
    }

    def test_the_api_refuses_a_hand_past_the_limit_with_a_400_naming_it(self, api_client, db):
        status, body = ask(api_client, "hand", self.HEAVY)
        assert status == 400
        violation = body["violations"][0]
        assert (violation["rule"], violation["code"]) == ("LIMITS", "too_many_cards")
        assert violation["message"] == (
            "34 cards in “cards”: a hand of this game holds at most 15. "
            "Check the cards and send the hand again."
        )

    def test_the_page_is_throttled_like_the_api_on_one_counter(
        self, client, api_client, db, monkeypatch
    ):
        # The clock stands still at a minute's start: on a slow machine the 121 requests
        # could straddle a minute's edge, where the last minute's count starts to fade.
        monkeypatch.setattr(CountedRateThrottle, "timer", lambda _throttle: 6_000_000.0)
        cache.clear()
        data = {"variant": "gin", "players": "2", "question": "meld", "cards": "7S 8S 9S"}
        for _ in range(60):
            assert ask(api_client, "meld", {"variant": "gin", "cards": "7S 8S 9S"})[0] == 200
        for _ in range(60):
            assert client.post("/referee/", data).status_code == 200
        refused = client.post("/referee/", data)
        assert refused.status_code == 429
        assert "Too many questions from this network: ask again in" in refused.content.decode()
        assert ask(api_client, "meld", {"variant": "gin", "cards": "7S 8S 9S"})[0] == 429

    def test_a_table_id_that_is_not_one_is_a_404(self, client, db):
        assert client.get("/referee/?table=zzz").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "field"),
    [("meld", "Cards"), ("opening", "Melds, one per line"), ("rearrangement", "Table before")],
)
def test_an_empty_question_is_refused_naming_what_to_fill(question, field):
    response = Client().post(
        "/referee/", {"variant": "ramino", "question": question}, headers={"hx-request": "true"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Type or tap the cards for" in page and field in page
    assert 'data-testid="verdict"' not in page

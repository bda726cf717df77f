"""Scala 40 rule by rule (docs/rules.md, S40-*): the table's setup, each move the referee
checks, the scoring of a hand and the match by elimination.

Anna (seat 0) deals the first hand, so Bruno (seat 1) moves first. Values are S40-VALUE in
hand (ace 11, 2-10 face, J Q K 10, joker 25) and VALUE for openings (ace 1 before a 2, 11
after a king or in a set); every expected number is worked by hand beside it.
"""

import pytest

from scoring.cards import Card, parse_cards
from scoring.errors import RuleViolation
from scoring.hands import SeatEnd
from scoring.melds import check_meld
from scoring.variants import scala40
from tests.scoring.play_helpers import (
    Table,
    add,
    deal,
    discard,
    draw,
    lay,
    record,
    rule_and_code,
    show,
    swap,
    take,
)

TWO = ["Anna", "Bruno"]
FOUR = ["Anna", "Bruno", "Carla", "Dario"]
SIX = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
ANNA, BRUNO, CARLA, DARIO = 0, 1, 2, 3
OPTIONS = scala40.Scala40Options()


def s40(seats=FOUR, **options) -> Table:
    return Table("scala40", seats, options)


def dealt(seats=FOUR, upcard="9D", **options) -> Table:
    return s40(seats, **options).play(deal(upcard))


def melds(text: str):
    return check_meld(parse_cards(text), scala40.meld_rules(OPTIONS))


def bruno_opened(**options) -> Table:
    """Bruno draws and opens with Q♥ K♥ A♥ (10 + 10 + 11 = 31) and 5♠ 6♠ 7♠ (18): 49 >= 40
    (S40-OPEN); he throws the 2♦ and holds 13 + 1 - 6 - 1 = 7 cards."""
    return dealt(**options).play(
        draw(BRUNO),
        lay(BRUNO, "QH KH AH", "5S 6S 7S"),
        discard(BRUNO, "2D"),
    )


def cards_entry(*players: dict, stock_exhausted: bool = False) -> dict:
    return {"mode": "cards", "players": list(players), "stock_exhausted": stock_exhausted}


def points_entry(*players: dict) -> dict:
    return {"mode": "points", "players": list(players), "stock_exhausted": False}


class TestTheTable:
    def test_four_players_leave_55_cards_in_the_stock_s40_setup(self):
        """S40-SETUP: 2 x 52 + 4 jokers = 108; 108 - 4 x 13 - the upcard = 55."""
        table = dealt()
        assert (table.hand["stock"], table.hand["discard_top"]) == (55, "9D")
        assert table.counts() == [13, 13, 13, 13]
        assert (table.view["dealer"], table.view["turn"]) == (ANNA, BRUNO)

    def test_six_players_leave_29_and_two_leave_81_s40_setup(self):
        """S40-SETUP: 108 - 6 x 13 - 1 = 29; 108 - 2 x 13 - 1 = 81."""
        assert dealt(SIX).hand["stock"] == 29
        assert dealt(TWO).hand["stock"] == 81

    def test_seven_players_are_refused_s40_setup(self):
        with pytest.raises(RuleViolation) as caught:
            s40(["A", "B", "C", "D", "E", "F", "G"])
        assert rule_and_code(caught.value.violations[0]) == ("S40-SETUP", "players")

    def test_the_options_are_checked_and_shown_whole(self):
        """S40-MATCH, S40-REENTRY, S40-OPEN-PENALTY refuse values outside their range."""
        table = s40(target=201, reentries=1)
        assert table.view["options"] == {
            "target": 201,
            "reentries": 1,
            "failed_opening_penalty": 20,
            "max_jokers_per_meld": 1,
            "free_discard": False,
            "unopened_discard_check": False,
            "full_suit_run": False,
        }
        for bad, rule in (
            ({"target": 100}, "S40-MATCH"),
            ({"reentries": 4}, "S40-REENTRY"),
            ({"failed_opening_penalty": 101}, "S40-OPEN-PENALTY"),
        ):
            with pytest.raises(RuleViolation) as caught:
                s40(**bad)
            assert caught.value.violations[0].rule == rule


class TestTurnsAndMelds:
    def test_a_turn_draws_before_it_discards_and_goes_clockwise_s40_turn(self):
        table = dealt()
        assert rule_and_code(table.refused(discard(BRUNO, "KD"))) == ("S40-TURN", "draw_first")
        assert rule_and_code(table.refused(draw(CARLA))) == ("S40-TURN", "not_your_turn")
        table.play(draw(BRUNO), discard(BRUNO, "KD"))
        assert table.view["turn"] == CARLA

    def test_sets_and_runs_and_the_ace_at_either_end_but_not_round_the_corner_s40_melds(self):
        """S40-MELDS: Q K A and A 2 3 are runs, K A 2 is not; a set repeats no suit."""
        assert melds("QS KS AS").kind == "run"
        assert melds("AS 2S 3S").kind == "run"
        with pytest.raises(RuleViolation) as caught:
            melds("KS AS 2S")
        assert caught.value.rule == "ACE-WRAP"
        with pytest.raises(RuleViolation) as caught:
            melds("9H 9C 9C")
        assert rule_and_code(caught.value.violations[0]) == ("MELD-SET", "repeated_suit")

    def test_one_joker_a_meld_unless_the_table_allows_more_s40_joker(self):
        """S40-JOKER: 5♥ JK JK 8♥ holds two jokers; the default allows one."""
        with pytest.raises(RuleViolation) as caught:
            melds("5H JK JK 8H")
        assert rule_and_code(caught.value.violations[0]) == ("S40-JOKER", "too_many_jokers")
        two = scala40.Scala40Options(max_jokers_per_meld=2)
        cards = parse_cards("5H JK JK 8H")
        assert check_meld(cards, scala40.meld_rules(two)).kind == "run"

    def test_a_sets_joker_takes_the_first_missing_suit_of_come_quando_fuori_piove_s40_joker(
        self,
    ):
        """S40-JOKER: hearts, diamonds, clubs, spades. 7♣ 7♠ JK lacks ♥ and ♦: the joker is
        7♥; 7♥ 7♠ JK lacks ♦ and ♣: 7♦; a declared joker keeps its card."""
        assert str(melds("7C 7S JK")) == "7C 7S JK=7H"
        assert str(melds("7H 7S JK")) == "7S 7H JK=7D"
        declared = check_meld(
            parse_cards("7C 7S JK"), scala40.meld_rules(OPTIONS), [None, None, Card(7, "D")]
        )
        assert str(declared) == "7C 7S JK=7D"


class TestOpening:
    def test_an_opening_of_40_or_more_opens_s40_open(self):
        """S40-OPEN: 31 + 18 = 49; Bruno is open and holds 7 cards."""
        table = bruno_opened()
        assert table.hand["hands"][BRUNO]["opened"] is True
        assert table.counts() == [13, 7, 13, 13]

    def test_melds_laid_over_one_turn_add_up_s40_open(self):
        """S40-OPEN: 10♠ J♠ Q♠ (30) alone is short; with 3♣ 3♦ 3♥ (9) 39, still short; with
        4♣ 4♦ 4♥ (12) it is 51 and opens."""
        table = dealt().play(draw(BRUNO), lay(BRUNO, "10S JS QS"))
        assert table.hand["opening"] == {"so_far": 30, "minimum": 40}
        table.play(lay(BRUNO, "3C 3D 3H"))
        assert table.hand["opening"] == {"so_far": 39, "minimum": 40}
        table.play(lay(BRUNO, "4C 4D 4H"))
        assert table.hand["opening"] is None
        assert table.hand["hands"][BRUNO]["opened"] is True

    def test_a_short_opening_goes_back_to_the_hand_and_costs_20_s40_open_penalty(self):
        """S40-OPEN-PENALTY: 2♣ 3♣ 4♣ is worth 9; at the discard the three cards come back
        (13 + 1 - 1 = 13 held, the three known) and Bruno has one failed opening."""
        table = dealt().play(draw(BRUNO), lay(BRUNO, "2C 3C 4C"), discard(BRUNO, "KD"))
        bruno = table.hand["hands"][BRUNO]
        assert (bruno["count"], bruno["known"], bruno["penalties"]) == (13, ["2C", "3C", "4C"], 1)
        assert table.hand["table"] == []

    def test_a_failed_opening_scores_the_tables_penalty_never_doubled_s40_open_penalty(self):
        """S40-OPEN-PENALTY: Carla holds 7♦ (7) and failed twice: 7 + 2 x 20 = 47. At a table
        whose penalty is 0 the count is kept and costs nothing: 7."""
        players = [
            SeatEnd("Anna", went_out=True),
            SeatEnd("Bruno", hand=parse_cards("KD")),
            SeatEnd("Carla", hand=parse_cards("7D"), opening_penalty=2),
        ]
        result = scala40.score_hand(OPTIONS, players)
        assert result.points == (0, 10, 47)
        free = scala40.score_hand(scala40.Scala40Options(failed_opening_penalty=0), players)
        assert free.points == (0, 10, 7)
        assert scala40.hand_counts(free, 2)["opening_penalties"] == 2


class TestTakingTheDiscard:
    def test_before_opening_the_discard_must_go_into_the_opening_s40_pickup(self):
        """S40-PICKUP: Carla takes Bruno's 2♦ and throws a card without opening: refused."""
        table = bruno_opened().play(take(CARLA, "2D"))
        violation = table.refused(discard(CARLA, "KC"))
        assert rule_and_code(violation) == ("S40-PICKUP", "pickup_not_opened")

    def test_the_discard_opens_when_it_is_in_the_opening_s40_pickup(self):
        """S40-PICKUP: 2♦ 3♦ 4♦ 5♦ (14) + K♣ K♦ K♠ (30) = 44, with the 2♦ taken."""
        table = bruno_opened().play(
            take(CARLA, "2D"),
            lay(CARLA, "2D 3D 4D 5D", "KC KD KS"),
            discard(CARLA, "8C"),
        )
        assert table.hand["hands"][CARLA]["opened"] is True

    def test_a_discard_put_in_a_short_opening_comes_back_and_is_refused_s40_pickup(self):
        """S40-PICKUP: 2♦ 3♦ 4♦ is worth 9: the opening fails at the discard, the 2♦ comes
        back to the hand, and so the discard is refused."""
        table = bruno_opened().play(take(CARLA, "2D"), lay(CARLA, "2D 3D 4D"))
        violation = table.refused(discard(CARLA, "8C"))
        assert rule_and_code(violation) == ("S40-PICKUP", "pickup_not_opened")

    def test_after_opening_the_discard_goes_on_the_table_the_same_turn_s40_pickup(self):
        """S40-PICKUP: Bruno, open, takes the J♥ Carla threw: kept in hand he may not end
        the turn; added to his Q♥ K♥ A♥ he may (the run J♥ Q♥ K♥ A♥)."""
        table = bruno_opened().play(
            draw(CARLA), discard(CARLA, "JH"), draw(DARIO), discard(DARIO, "8C"), draw(ANNA)
        )
        table.play(discard(ANNA, "JH"))
        table.play(take(BRUNO, "JH"))
        assert rule_and_code(table.refused(discard(BRUNO, "9C"))) == (
            "S40-PICKUP",
            "pickup_unused",
        )
        table.play(add(BRUNO, 1, "JH"), discard(BRUNO, "9C"))
        assert table.hand["table"][0]["meld"] == "JH QH KH AH"


class TestAddingAndJokers:
    def test_adding_needs_an_opening_and_then_takes_any_players_meld_s40_add(self):
        """S40-ADD: Carla has not opened; once she has, she adds the 8♠ to Bruno's run."""
        table = bruno_opened().play(draw(CARLA))
        assert rule_and_code(table.refused(add(CARLA, 2, "8S"))) == ("S40-ADD", "not_opened")
        table.play(lay(CARLA, "KC KD KS", "QC QD QS"), add(CARLA, 2, "8S"))
        assert table.hand["table"][1]["meld"] == "5S 6S 7S 8S"

    def test_a_joker_taken_is_played_again_in_the_same_turn_s40_joker_swap(self):
        """S40-JOKER-SWAP: Bruno opens with 9♣ 10♣ JK (the joker is J♣: 9 + 10 + 10) and
        K♠ K♥ K♦ (30): 59. Carla, once open, puts the J♣ in and takes the joker: she must
        meld it this turn, and adds it to her 3♦ 4♦ 5♦ as the 6♦."""
        table = dealt().play(
            draw(BRUNO), lay(BRUNO, "9C 10C JK", "KS KH KD"), discard(BRUNO, "2H"), draw(CARLA)
        )
        assert rule_and_code(table.refused(swap(CARLA, 1, "JC"))) == (
            "S40-JOKER-SWAP",
            "not_opened",
        )
        table.play(lay(CARLA, "3D 4D 5D", "QC QH QS"), swap(CARLA, 1, "JC"))
        assert rule_and_code(table.refused(discard(CARLA, "8S"))) == (
            "S40-JOKER-SWAP",
            "joker_unused",
        )
        table.play(add(CARLA, 3, "JK"), discard(CARLA, "8S"))
        on_table = [meld["meld"] for meld in table.hand["table"]]
        assert (on_table[0], on_table[2]) == ("9C 10C JC", "3D 4D 5D JK=6D")


class TestTheWholeSuit:
    """S40-MELDS: where the table allows it (a new table does), a run holds the whole suit
    with a joker as its second ace, 14 cards."""

    WHOLE = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK"

    def _to_the_king(self, **options) -> Table:
        """Bruno opens with 2♠ to K♠, twelve cards: 2 + ... + 10 = 54, J Q K 30: 84 >= 40;
        Carla opens with K♣ K♦ K♥ and Q♣ Q♦ Q♥ (60) and puts a joker on as the ace:
        2♠ ... K♠ JK=A♠, 13 cards."""
        return dealt(**options).play(
            draw(BRUNO),
            lay(BRUNO, "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"),
            discard(BRUNO, "2D"),
            draw(CARLA),
            lay(CARLA, "KC KD KH", "QC QD QH"),
            add(CARLA, 1, "JK"),
        )

    def test_the_ace_completes_a_run_of_fourteen_s40_melds(self):
        table = self._to_the_king(full_suit_run=True).play(add(CARLA, 1, "AS"))
        assert table.hand["table"][0]["meld"] == "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK=AS"

    def test_without_it_a_run_stops_at_thirteen_meld_run(self):
        violation = self._to_the_king().refused(add(CARLA, 1, "AS"))
        assert (violation.rule, violation.code, violation.params["limit"]) == (
            "MELD-RUN",
            "too_many",
            13,
        )

    def test_the_referee_and_every_check_read_the_same_run(self):
        on = scala40.meld_rules(scala40.Scala40Options(full_suit_run=True))
        meld = check_meld(parse_cards(self.WHOLE), on)
        assert (meld.kind, str(meld)) == ("run", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK=AS")
        # Two natural aces are one rank twice; a 15th card, a second joker, is refused too.
        with pytest.raises(RuleViolation, match="appears twice"):
            check_meld(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"), on)
        with pytest.raises(RuleViolation):
            check_meld(parse_cards(self.WHOLE + " JK"), on)


class TestDiscarding:
    def test_an_open_player_may_not_discard_a_card_the_table_takes_s40_discard(self):
        """S40-DISCARD: after Bruno's opening the 8♠ goes on 5♠ 6♠ 7♠; Bruno, open, may not
        throw it; Carla, not open, may."""
        table = bruno_opened().play(draw(CARLA), discard(CARLA, "8S"), draw(DARIO))
        table.play(discard(DARIO, "8S"), draw(ANNA), discard(ANNA, "3C"), draw(BRUNO, "4S"))
        violation = table.refused(discard(BRUNO, "4S"))
        assert rule_and_code(violation) == ("S40-DISCARD", "attachable")
        assert violation.params["meld"] == 2

    def test_the_last_card_closes_even_when_the_table_takes_it_s40_discard(self):
        """S40-DISCARD: Bruno, open with 7 cards, melds six and throws the 4♠ last: he
        closes (S40-CLOSE) though 4♠ 5♠ 6♠ 7♠ would take it."""
        table = bruno_opened().play(
            draw(CARLA),
            discard(CARLA, "JD"),
            draw(DARIO),
            discard(DARIO, "JC"),
            draw(ANNA),
            discard(ANNA, "3C"),
            draw(BRUNO),
            lay(BRUNO, "8D 8C 8H", "9D 9C 9H"),
        )
        table.play(add(BRUNO, 1, "JH"), discard(BRUNO, "4S"))
        assert table.hand["ending"] == "out"
        assert table.hand["ender"] == BRUNO

    def test_where_the_table_says_so_a_player_not_open_is_bound_too_s40_discard(self):
        """S40-DISCARD as the regulations have it: after Bruno's opening the 8♠ goes on
        5♠ 6♠ 7♠, so Carla, not open, may not throw it either; she throws another card."""
        table = bruno_opened(unopened_discard_check=True).play(draw(CARLA))
        violation = table.refused(discard(CARLA, "8S"))
        assert rule_and_code(violation) == ("S40-DISCARD", "attachable")
        assert violation.params["meld"] == 2
        table.play(discard(CARLA, "KC"))
        assert (table.hand["discard_top"], table.hand["turn"]) == ("KC", DARIO)

    def test_free_discard_lifts_the_rule_s40_discard(self):
        table = s40(free_discard=True).play(
            deal("9D"),
            draw(BRUNO),
            lay(BRUNO, "QH KH AH", "5S 6S 7S"),
            discard(BRUNO, "2D"),
            draw(CARLA),
            discard(CARLA, "KC"),
            draw(DARIO),
            discard(DARIO, "KC"),
            draw(ANNA),
            discard(ANNA, "3C"),
            draw(BRUNO, "4S"),
            discard(BRUNO, "4S"),
        )
        assert table.hand["discard_top"] == "4S"


class TestClosing:
    def test_the_last_card_is_discarded_never_melded_s40_close(self):
        """S40-CLOSE: Bruno, open with 7 cards, draws (8), lays 8♦ 8♣ 8♥ 8♠ (4 left) and
        adds the 4♠ to 5♠ 6♠ 7♠ (3 left): melding the last three leaves none to throw."""
        table = bruno_opened().play(
            draw(CARLA),
            discard(CARLA, "JD"),
            draw(DARIO),
            discard(DARIO, "JC"),
            draw(ANNA),
            discard(ANNA, "3C"),
            draw(BRUNO),
            lay(BRUNO, "8D 8C 8H 8S"),
            add(BRUNO, 2, "4S"),
        )
        violation = table.refused(lay(BRUNO, "10C JC QC"))
        assert rule_and_code(violation) == ("S40-CLOSE", "keep_one")

    def test_closing_in_hand_needs_no_40_and_doubles_the_others_s40_handclose(self):
        """S40-HANDCLOSE: Bruno lays A♣ 2♣ 3♣ (6), A♦ 2♦ 3♦ (6), A♥ 2♥ 3♥ (6) and
        2♠ 3♠ 4♠ 5♠ (14): 32, under 40, and throws the K♦: closed in hand. Anna holds
        K♠ Q♠ (20): 40; Carla 9♣ (9): 18; Dario A♠ JK (36): 72, each doubled."""
        table = dealt().play(
            draw(BRUNO, "5S"),
            lay(BRUNO, "AC 2C 3C", "AD 2D 3D", "AH 2H 3H", "2S 3S 4S 5S"),
            discard(BRUNO, "KD"),
        )
        # The others hold 13 cards each: shown by points, as a noisy table enters them.
        table.play(show(20, None, 9, 36))
        result = table.last["result"]
        assert result["points"] == [40, 0, 18, 72]
        assert [item["rule"] for item in result["items"] if item["seat"] == 0] == [
            "S40-SCORE",
            "S40-HANDCLOSE",
        ]

    def test_a_stock_played_out_is_made_again_from_the_discards_s40_stock(self):
        """S40-STOCK: six players leave 29 stock cards; after the 29th draw and its discard
        the pile holds the upcard and 29 discards, 30 cards: 29 go back as the stock."""
        throws = [f"{rank}{suit}" for suit in "CSHD" for rank in range(2, 10)]
        table = dealt(SIX)
        seat = BRUNO
        for number in range(29):
            table.play(draw(seat), discard(seat, throws[number]))
            seat = (seat + 1) % 6
        assert (table.hand["stock"], table.hand["discard_top"], table.hand["discard_count"]) == (
            29,
            throws[28],
            1,
        )
        assert table.hand["phase"] == "draw"

    def test_a_hand_no_stock_can_end_charges_everybody_s40_stock(self):
        """S40-STOCK: nobody closed: Anna adds K♠ (10), Bruno 2♣ (2)."""
        result = scala40.score_hand(
            OPTIONS,
            [SeatEnd("Anna", hand=parse_cards("KS")), SeatEnd("Bruno", hand=parse_cards("2C"))],
            stock_exhausted=True,
        )
        assert (result.points, result.ending, result.winners) == ((10, 2), "stock", ())
        assert {item.rule for item in result.items} == {"S40-STOCK"}


class TestScoring:
    def test_cards_in_hand_cost_ace_11_faces_10_joker_25_s40_value(self):
        """S40-VALUE: A♠ 11 + K♦ 10 + JK 25 + 7♣ 7 = 53."""
        assert sum(map(scala40.card_value, parse_cards("AS KD JK 7C"))) == 53

    def test_the_others_add_their_hands_the_closer_nothing_s40_score(self):
        """S40-SCORE: Anna closes; Bruno adds A♠ K♦ (21), Carla JK (25), Dario 3♥ 4♥ (7)."""
        table = s40().play(
            record(
                cards_entry(
                    {"hand": "", "melded": "QH KH AH", "went_out": True},
                    {"hand": "AS KD"},
                    {"hand": "JK"},
                    {"hand": "3H 4H"},
                )
            )
        )
        assert table.last["result"]["points"] == [0, 21, 25, 7]
        assert table.view["match"]["places"] == [1, 3, 4, 2]

    def test_only_the_closer_closes_in_hand_s40_handclose(self):
        entry = cards_entry(
            {"hand": "", "went_out": True},
            {"hand": "AS", "hand_closed": True},
        )
        violation = s40(TWO).refused(record(entry))
        assert rule_and_code(violation) == ("S40-HANDCLOSE", "not_out")

    def test_a_hand_ends_by_a_close_or_a_dead_stock_s40_close(self):
        entry = cards_entry({"hand": "KS"}, {"hand": "AS"})
        assert rule_and_code(s40(TWO).refused(record(entry))) == ("S40-CLOSE", "not_ended")


class TestElimination:
    def test_reaching_the_limit_puts_a_player_out_and_the_last_one_in_wins_s40_match(self):
        """S40-MATCH, three players to 101: hand 1 Bruno 60, Carla 101 (out: 101 reaches
        the limit); hand 2 Bruno 60 + 45 = 105, out; Anna, last in, wins. Places: Anna 1,
        Bruno (out after hand 2) 2, Carla (out after hand 1) 3."""
        table = s40(["Anna", "Bruno", "Carla"]).play(
            record(points_entry({"points": 0, "went_out": True}, {"points": 60}, {"points": 101}))
        )
        assert table.view["match"]["out"] == [2]
        assert table.view["finished"] is False
        table.play(
            record(
                points_entry(
                    {"points": 0, "went_out": True},
                    {"points": 45},
                    {"points": 0, "sitting_out": True},
                )
            )
        )
        match = table.view["match"]
        assert (match["finished"], match["winners"], match["totals"]) == (True, [0], [0, 105, 101])
        assert match["places"] == [1, 2, 3]

    def test_a_player_out_must_sit_out_and_one_in_must_play_s40_match(self):
        table = s40(["Anna", "Bruno", "Carla"]).play(
            record(points_entry({"points": 0, "went_out": True}, {"points": 60}, {"points": 101}))
        )
        still_playing = points_entry({"points": 0, "went_out": True}, {"points": 5}, {"points": 9})
        assert rule_and_code(table.refused(record(still_playing))) == ("S40-MATCH", "is_out")
        wrongly_out = points_entry(
            {"points": 0, "went_out": True},
            {"points": 0, "sitting_out": True},
            {"points": 0, "sitting_out": True},
        )
        # Bruno is still in; and with Carla out a hand of Anna alone is no hand.
        codes = table.violations(record(wrongly_out))
        assert ("S40-MATCH", "too_few_in") in codes

    def test_a_hand_played_move_by_move_deals_nothing_to_a_player_out_s40_match(self):
        """S40-MATCH: Carla is out after hand 1; hand 2 deals 3 x 13 and skips her: the
        stock is 108 - 39 - 1 = 68, and after Bruno the turn goes to Dario."""
        table = s40().play(
            record(
                points_entry(
                    {"points": 0, "went_out": True},
                    {"points": 30},
                    {"points": 120},
                    {"points": 40},
                )
            )
        )
        # Hand 2 is Bruno's deal; Carla, after him, is out: Dario plays first.
        assert table.view["dealer"] == BRUNO
        table.play(deal("5C"))
        assert table.counts() == [13, 13, 0, 13]
        assert (table.hand["stock"], table.view["turn"]) == (68, DARIO)
        table.play(draw(DARIO), discard(DARIO, "KC"), draw(ANNA), discard(ANNA, "QC"))
        assert table.view["turn"] == BRUNO
        assert rule_and_code(table.refused(deal("5C"))) == ("EVENT", "hand_in_play")

    def test_a_player_out_does_not_deal_s40_match(self):
        table = s40(["Anna", "Bruno", "Carla"]).play(
            record(points_entry({"points": 0, "went_out": True}, {"points": 120}, {"points": 4}))
        )
        # The next deal is Bruno's, who is out: it passes to Carla.
        assert table.view["dealer"] == CARLA
        assert rule_and_code(table.refused(deal("5C", dealer=BRUNO))) == (
            "S40-MATCH",
            "dealer_out",
        )

    def test_a_re_entry_costs_the_highest_score_still_in_s40_reentry(self):
        """S40-REENTRY, four players, one re-entry each: after hand 1 Anna 0, Bruno 70,
        Carla 110 (out), Dario 35. Anna, Bruno and Dario are still in, two or more: Carla
        re-enters at the highest of them, 70 (an item of 70 - 110 = -40)."""
        table = s40(reentries=1).play(
            record(
                points_entry(
                    {"points": 0, "went_out": True},
                    {"points": 70},
                    {"points": 110},
                    {"points": 35},
                )
            )
        )
        match = table.view["match"]
        assert match["totals"] == [0, 70, 70, 35]
        assert "out" not in match
        assert [(i["rule"], i["seat"], i["points"]) for i in match["items"]] == [
            ("S40-REENTRY", 2, -40)
        ]
        assert table.view["totals"] == [0, 70, 70, 35]
        assert table.view["hand_totals"] == [0, 70, 110, 35]

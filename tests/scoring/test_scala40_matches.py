"""A Scala 40 match worked by hand from docs/rules.md (S40-*), entered three ways: every
hand by the cards left, every hand by points, and its first two hands move by move.

Anna, Bruno, Carla and Dario (seats 0-3) play to 101 with one re-entry each (S40-REENTRY).
The match holds a failed opening, a joker taken from a meld, a closing in hand, two
players going out together and re-entering, and an elimination that ends it. Values in hand
are S40-VALUE (ace 11, 2-10 face, J Q K 10, joker 25); openings are VALUE.

Hand 1 (Anna deals, Bruno first), played move by move:
  Bruno draws and lays 2♣ 3♣ 4♣: 9, short of 40 (S40-OPEN); at his discard (K♦) the
    three come back and cost him 20 (S40-OPEN-PENALTY).
  Carla opens with 9♠ 10♠ JK (the joker is J♠, the most a joker can be worth there:
    9 + 10 + 10 = 29) and Q♦ Q♥ Q♣ (30): 59; throws the 4♥.
  Dario opens with 5♥ 6♥ 7♥ 8♥ (26) and K♣ K♠ K♥ (30): 56; puts his J♠ in Carla's run
    and takes the joker (S40-JOKER-SWAP), adding it at once to his hearts, where it is the
    9♥; throws the 2♠, which no table meld takes (S40-DISCARD).
  Anna throws the K♦; Bruno the 9♣; Carla adds the Q♠ to the queens and throws the 3♦.
  Dario lays 10♦ J♦ Q♦, adds the 8♠ and the Q♠ to 9♠ 10♠ J♠ and closes with the A♣.
  Left in hand (S40-SCORE):
    Anna 2♦ 3♠ 4♦ 5♣ 6♣ 7♣ 7♦ 8♦ 9♥ 10♣ J♣ 2♥ 3♥ = 2+3+4+5+6+7+7+8+9+10+10+2+3 = 76
    Bruno 2♣ 3♣ 4♣ 5♦ 6♦ 6♠ 7♠ 4♠ 5♠ 2♦ 3♠ 10♥ J♥ = 2+3+4+5+6+6+7+4+5+2+3+10+10 = 67,
      + 20 for the failed opening = 87
    Carla A♠ A♥ 5♦ 9♥ 10♥ K♣ = 11+11+5+9+10+10 = 56; Dario 0.
  Totals: 76, 87, 56, 0.

Hand 2 (Bruno deals, Carla first), played move by move: Carla draws the 5♠ and lays
  A♣ 2♣ 3♣ (6), A♦ 2♦ 3♦ (6), A♥ 2♥ 3♥ (6) and 2♠ 3♠ 4♠ 5♠ (14), 32 in all, having laid
  nothing before: she closes in hand with the K♦, needing no 40, and the others' hands
  count double (S40-HANDCLOSE).
    Anna 6♣ 6♦ 7♣ 7♦ 8♣ 8♦ 9♣ 9♦ 10♣ 10♦ J♣ J♦ Q♣ = 110, doubled 220
    Bruno 6♥ 6♠ 7♥ 7♠ 8♥ 8♠ 9♥ 9♠ 10♥ 10♠ J♥ J♠ Q♥ = 110, doubled 220
    Dario 2♣ 2♦ 2♥ 2♠ 3♣ 3♦ 3♥ 3♠ 4♣ 4♦ 4♥ 5♣ 5♦ = 8+12+12+10 = 42, doubled 84
  Totals from the hands: 296, 307, 56, 84. Anna and Bruno reach 101 together; Carla and
  Dario are still in, two players, so both re-enter at the highest score still in, 84
  (S40-REENTRY): Anna 84 - 296 = -212, Bruno 84 - 307 = -223. Totals 84, 84, 56, 84.

Hand 3 (Carla deals), entered: Dario closes; Anna holds K♠ Q♠ (20), Bruno 3♣ 7♦ (10),
  Carla A♠ K♦ Q♦ J♥ 9♣ (11+10+10+10+9 = 50). Anna 104: out, her re-entry used. Bruno 94.
  Carla 106: Bruno and Dario are still in, so she re-enters at 94 (94 - 106 = -12).
  Totals 104, 94, 94, 84; Anna is out.

Hand 4 (Dario deals; Anna sits out, so Bruno plays first), entered: Bruno closes;
  Carla holds 7♣ (7): 101, out, her re-entry used; Dario K♠ Q♦ J♣ (30): 114, and with
  only Bruno still in he cannot re-enter. Bruno, the last one in, wins (S40-MATCH).
  Places: Bruno 1; Carla and Dario went out together, the lower first: Carla 2, Dario 3;
  Anna, out a hand earlier, 4. Final totals 104, 94, 101, 114.
"""

from fractions import Fraction

from scoring.events import TABLE_DECIDED
from scoring.standings import match_summary, standings
from scoring.tournaments.results import ByPlace, victory_points
from scoring.tournaments.tables import table_result
from tests.scoring.play_helpers import (
    Table,
    add,
    deal,
    discard,
    draw,
    lay,
    record,
    show,
    swap,
)

SEATS = ["Anna", "Bruno", "Carla", "Dario"]
ANNA, BRUNO, CARLA, DARIO = 0, 1, 2, 3

HAND_1_LEFT = {
    ANNA: "2D 3S 4D 5C 6C 7C 7D 8D 9H 10C JC 2H 3H",
    BRUNO: "2C 3C 4C 5D 6D 6S 7S 4S 5S 2D 3S 10H JH",
    CARLA: "AS AH 5D 9H 10H KC",
}
HAND_2_LEFT = {
    ANNA: "6C 6D 7C 7D 8C 8D 9C 9D 10C 10D JC JD QC",
    BRUNO: "6H 6S 7H 7S 8H 8S 9H 9S 10H 10S JH JS QH",
    DARIO: "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 5C 5D",
}
HAND_2_CLOSE = ("AC 2C 3C", "AD 2D 3D", "AH 2H 3H", "2S 3S 4S 5S")

HAND_1_POINTS = [76, 87, 56, 0]
HAND_2_POINTS = [220, 220, 0, 84]
HAND_3_POINTS = [20, 10, 50, 0]
HAND_4_POINTS = [0, 0, 7, 30]
FINAL_TOTALS = [104, 94, 101, 114]
# The hands alone, without the re-entries: 76+220+20 = 316, 87+220+10 = 317,
# 56+0+50+7 = 113, 0+84+0+30 = 114.
HAND_SUMS = [316, 317, 113, 114]


def entry(*players: dict) -> dict:
    return {"mode": "cards", "players": list(players), "stock_exhausted": False}


def points(*players: dict) -> dict:
    return {"mode": "points", "players": list(players), "stock_exhausted": False}


HAND_1_CARDS = entry(
    {"hand": HAND_1_LEFT[ANNA]},
    {"hand": HAND_1_LEFT[BRUNO], "opening_penalty": 1},
    {"hand": HAND_1_LEFT[CARLA], "melded": "9S 10S QD QH QC QS"},
    {
        "hand": "",
        "melded": "5H 6H 7H 8H KC KS KH JS JK 10D JD QD 8S QS",
        "went_out": True,
    },
)
HAND_2_CARDS = entry(
    {"hand": HAND_2_LEFT[ANNA]},
    {"hand": HAND_2_LEFT[BRUNO]},
    {"hand": "", "melded": " ".join(HAND_2_CLOSE), "went_out": True, "hand_closed": True},
    {"hand": HAND_2_LEFT[DARIO]},
)
HAND_3_CARDS = entry(
    {"hand": "KS QS"},
    {"hand": "3C 7D"},
    {"hand": "AS KD QD JH 9C"},
    {"hand": "", "went_out": True},
)
HAND_4_CARDS = entry(
    {"hand": "", "sitting_out": True},
    {"hand": "", "went_out": True},
    {"hand": "7C"},
    {"hand": "KS QD JC"},
)

HAND_1_BY_POINTS = points(
    {"points": 76},
    {"points": 67, "opening_penalty": 1},
    {"points": 56},
    {"points": 0, "went_out": True},
)
HAND_2_BY_POINTS = points(
    {"points": 110},
    {"points": 110},
    {"points": 0, "went_out": True, "hand_closed": True},
    {"points": 42},
)
HAND_3_BY_POINTS = points(
    {"points": 20}, {"points": 10}, {"points": 50}, {"points": 0, "went_out": True}
)
HAND_4_BY_POINTS = points(
    {"points": 0, "sitting_out": True},
    {"points": 0, "went_out": True},
    {"points": 7},
    {"points": 30},
)


def hand_1_moves():
    return (
        deal("9D"),
        draw(BRUNO),
        lay(BRUNO, "2C 3C 4C"),
        discard(BRUNO, "KD"),
        draw(CARLA),
        lay(CARLA, "9S 10S JK", "QD QH QC"),
        discard(CARLA, "4H"),
        draw(DARIO),
        lay(DARIO, "5H 6H 7H 8H", "KC KS KH"),
        swap(DARIO, 1, "JS"),
        add(DARIO, 3, "JK"),
        discard(DARIO, "2S"),
        draw(ANNA),
        discard(ANNA, "KD"),
        draw(BRUNO),
        discard(BRUNO, "9C"),
        draw(CARLA),
        add(CARLA, 2, "QS"),
        discard(CARLA, "3D"),
        draw(DARIO),
        lay(DARIO, "10D JD QD"),
        add(DARIO, 1, "8S"),
        add(DARIO, 1, "QS"),
        discard(DARIO, "AC"),
        show(HAND_1_LEFT[ANNA], HAND_1_LEFT[BRUNO], HAND_1_LEFT[CARLA], None),
    )


def hand_2_moves():
    return (
        deal("KS"),
        draw(CARLA, "5S"),
        lay(CARLA, *HAND_2_CLOSE),
        discard(CARLA, "KD"),
        show(HAND_2_LEFT[ANNA], HAND_2_LEFT[BRUNO], None, HAND_2_LEFT[DARIO]),
    )


def table() -> Table:
    return Table("scala40", SEATS, {"reentries": 1})


def check_the_match(played: Table) -> None:
    state = played.state
    view = played.view
    assert [hand["result"]["points"] for hand in view["hands"]] == [
        HAND_1_POINTS,
        HAND_2_POINTS,
        HAND_3_POINTS,
        HAND_4_POINTS,
    ]
    match = view["match"]
    assert match["finished"] is True
    assert (match["winners"], match["totals"], match["places"]) == (
        [BRUNO],
        FINAL_TOTALS,
        [4, 1, 2, 3],
    )
    assert match["out"] == [ANNA, CARLA, DARIO]
    assert [(item["seat"], item["points"], item["params"]) for item in match["items"]] == [
        (ANNA, -212, {"hand": 2, "total": 84, "count": 1}),
        (BRUNO, -223, {"hand": 2, "total": 84, "count": 1}),
        (CARLA, -12, {"hand": 3, "total": 94, "count": 1}),
    ]
    assert view["totals"] == FINAL_TOTALS
    assert view["hand_totals"] == HAND_SUMS
    assert played.replayed().to_dict() == view
    # The league reads the places and the counts from the log: Dario closed hands 1 and 3,
    # Carla closed hand 2 in hand, Bruno failed one opening and closed hand 4.
    summary = match_summary(state, ["anna", "bruno", "carla", "dario"])
    assert [seat.place for seat in summary.seats] == [4, 1, 2, 3]
    assert summary.winners == ("bruno",)
    assert [dict(seat.counts) for seat in summary.seats] == [
        {"went_out": 0, "hand_closures": 0, "opening_penalties": 0},
        {"went_out": 1, "hand_closures": 0, "opening_penalties": 1},
        {"went_out": 1, "hand_closures": 1, "opening_penalties": 0},
        {"went_out": 2, "hand_closures": 0, "opening_penalties": 0},
    ]


class TestAHandWorkedMatch:
    def test_entered_hand_by_hand_with_the_cards_s40_match_s40_reentry(self):
        played = table().play(
            record(HAND_1_CARDS), record(HAND_2_CARDS), record(HAND_3_CARDS), record(HAND_4_CARDS)
        )
        check_the_match(played)

    def test_entered_hand_by_hand_by_points_s40_score(self):
        played = table().play(
            record(HAND_1_BY_POINTS),
            record(HAND_2_BY_POINTS),
            record(HAND_3_BY_POINTS),
            record(HAND_4_BY_POINTS),
        )
        check_the_match(played)

    def test_played_move_by_move_then_entered_s40_open_penalty_s40_handclose(self):
        played = table().play(*hand_1_moves())
        assert played.view["hands"][0]["result"]["points"] == HAND_1_POINTS
        played.play(*hand_2_moves())
        assert played.view["hands"][1]["result"]["points"] == HAND_2_POINTS
        # After hand 2 both re-entered at 84; the next deal is Carla's.
        assert played.view["match"]["totals"] == [84, 84, 56, 84]
        assert played.view["dealer"] == CARLA
        played.play(record(HAND_3_CARDS))
        assert played.view["match"]["out"] == [ANNA]
        assert played.view["dealer"] == DARIO
        played.play(record(HAND_4_CARDS))
        check_the_match(played)

    def test_each_move_of_hand_1_is_the_referees_to_check_s40_joker_swap(self):
        """The swap moved the joker: Carla's run is 9♠ 10♠ J♠, then 8♠ to Q♠; Dario's
        hearts hold it as the 9♥. Bruno's failed opening is in his hand again. Dario holds
        13 + 1 - 7 (his opening) - 1 (the J♠) + 1 (the joker) - 1 (added) - 1 (the 2♠) = 5."""
        played = table().play(*hand_1_moves()[:12])
        melds = [meld["meld"] for meld in played.hand["table"]]
        assert melds[0] == "9S 10S JS"
        assert melds[2] == "5H 6H 7H 8H JK=9H"
        assert played.hand["hands"][BRUNO]["penalties"] == 1
        assert played.counts() == [13, 13, 7, 5]
        played.play(*hand_1_moves()[12:24])
        assert played.hand["table"][0]["meld"] == "8S 9S 10S JS QS"
        assert played.hand["ending"] == "out"

    def test_a_hand_that_seats_a_player_out_is_refused_s40_match(self):
        played = table().play(record(HAND_1_CARDS), record(HAND_2_CARDS), record(HAND_3_CARDS))
        anna_playing = points(
            {"points": 5}, {"points": 0, "went_out": True}, {"points": 7}, {"points": 30}
        )
        violation = played.refused(record(anna_playing))
        assert (violation.rule, violation.code) == ("S40-MATCH", "is_out")
        played.play(record(HAND_4_CARDS))
        assert played.refused(record(HAND_4_CARDS)).code == "match_over"


class TestLeaguesAndNights:
    def test_a_night_table_of_four_gives_victory_points_by_the_order_out_s40_match(self):
        """NIGHT-VP by place (4, 2, 1, 0): Bruno 1st 4, Carla 2nd 2, Dario 3rd 1, Anna 0."""
        played = table().play(
            record(HAND_1_CARDS), record(HAND_2_CARDS), record(HAND_3_CARDS), record(HAND_4_CARDS)
        )
        players = ["anna", "bruno", "carla", "dario"]
        read = table_result(played.state, players, round_number=1)
        assert read.places == (4, 1, 2, 3)
        assert victory_points(read, ByPlace()) == {
            "anna": 0,
            "bruno": 4,
            "carla": 2,
            "dario": 1,
        }

    def test_a_table_locked_mid_match_places_those_in_before_those_out_s40_match(self):
        """NIGHT-LOCK after hand 3: Anna is out (104); Dario 84, Bruno and Carla 94 are in.
        Places: Dario 1, Bruno and Carla share 2 (the 2nd and 3rd VP: (2 + 1) / 2 = 3/2
        each), Anna 4."""
        played = table().play(
            record(HAND_1_CARDS),
            record(HAND_2_CARDS),
            record(HAND_3_CARDS),
            (TABLE_DECIDED, {"decision": "lock", "reason": "time"}),
        )
        players = ["anna", "bruno", "carla", "dario"]
        read = table_result(played.state, players, round_number=1)
        assert read.places == (4, 2, 2, 1)
        assert victory_points(read, ByPlace())["bruno"] == Fraction(3, 2)

    def test_a_league_counts_the_match_for_its_winner_s40_match(self):
        played = table().play(
            record(HAND_1_BY_POINTS),
            record(HAND_2_BY_POINTS),
            record(HAND_3_BY_POINTS),
            record(HAND_4_BY_POINTS),
        )
        summary = match_summary(played.state, ["anna", "bruno", "carla", "dario"], match_id=1)
        rows = standings([summary])
        assert (rows[0].player, rows[0].won, rows[0].lost) == ("bruno", 1, 0)

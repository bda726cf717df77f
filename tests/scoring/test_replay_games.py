"""Rummy40, Ramino and Knock Rummy tables replayed hand by hand through the log (docs/rules.md-5).

Every expected total below is worked by hand from the rules, in the comments beside it.
"""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.cards import FULL_DECK, JOKER, parse_cards
from scoring.errors import RuleViolation
from scoring.events import HAND_AMENDED, HAND_RECORDED, HAND_VOIDED, TABLE_CREATED, LogEvent
from scoring.hands import SeatEnd
from scoring.replay import apply, replay
from scoring.variants import knock_rummy, ramino, rummy40
from tests.hypothesis_profiles import examples


def seat(hand="", melded="", **flags):
    """Return one seat's end of hand as the scorekeeper enters it."""
    return {"hand": hand, **({"melded": melded} if melded else {}), **flags}


def hand(*players, stock_exhausted=False):
    """Return a hand_recorded payload in cards mode."""
    payload = {"mode": "cards", "players": list(players)}
    if stock_exhausted:
        payload["stock_exhausted"] = True
    return payload


def log(variant, seats, options, *entries):
    """Return the events of a table: its creation, then each (type, payload) in order."""
    created = LogEvent(1, TABLE_CREATED, {"variant": variant, "options": options, "seats": seats})
    return [created, *(LogEvent(seq, t, p) for seq, (t, p) in enumerate(entries, start=2))]


def rec(payload):
    return (HAND_RECORDED, payload)


def void(number):
    return (HAND_VOIDED, {"hand": number, "reason": "wrong table"})


def amend(number, payload):
    return (HAND_AMENDED, {"hand": number, "reason": "card missed", **payload})


def refused(events, event):
    """Replay ``events``, apply ``event`` and return its violations; the state stays as it was."""
    state = replay(events)
    before = state.to_dict()
    with pytest.raises(RuleViolation) as caught:
        apply(state, event)
    assert state.to_dict() == before
    return caught.value.violations


def next_event(events, payload, kind=HAND_RECORDED):
    return LogEvent(len(events) + 1, kind, payload)


class TestRummy40Tables:
    def test_a_two_player_match_ends_when_a_score_reaches_the_limit_r40_match(self):
        events = log(
            "rummy40",
            ["Anna", "Bruno"],
            {"target": 100},
            # 1: Anna out; Bruno K 10 + Q 10 + 5 = 25.                       [0, 25]
            rec(hand(seat(melded="7H 8H 9H", went_out=True), seat("KS QH 5D"))),
            # 2: Bruno out; Anna JK 25 + 3 = 28, one failed opening +20 = 48. [48, 25]
            rec(hand(seat("JK 3C", opening_penalty=1), seat(went_out=True))),
            # 3: stock out, Anna A+2 = 3, Bruno 10+10+J = 30; voided below.
            rec(hand(seat("AS 2S"), seat("10H 10D JC"), stock_exhausted=True)),
            void(3),  #                                                       [48, 25]
            # 4: Anna out; Bruno K K 9 = 29, amended below to K K 9 8 = 37.
            rec(hand(seat(went_out=True), seat("KD KC 9S"))),
            amend(4, hand(seat(went_out=True), seat("KD KC 9S 8S"))),  #      [48, 62]
            # 5: Bruno out; Anna Q J 4 = 24.                                 [72, 62]
            rec(hand(seat("QS JD 4H"), seat(went_out=True))),
            # 6: Anna out; Bruno JK 25 + 10 = 35.                            [72, 97]
            rec(hand(seat(went_out=True), seat("JK 10S"))),
            # 7: Bruno out; Anna K Q 9 = 29: 101 reaches 100, Anna loses, Bruno (97) wins.
            rec(hand(seat("KH QC 9D"), seat(went_out=True))),
        )
        state = replay(events).to_dict()
        assert state["totals"] == [101, 97]
        assert (state["finished"], state["winner"]) == (True, 1)
        assert state["match"]["loser"] == 0 and state["match"]["winners"] == [1]
        assert [h["voided"] for h in state["hands"]] == [False] * 2 + [True] + [False] * 4
        (violation,) = refused(
            events, next_event(events, hand(seat(went_out=True), seat("2C 3C 4C")))
        )
        assert (violation.rule, violation.code) == ("R40-MATCH", "match_over")

    def test_a_four_player_single_hand_is_won_by_the_lowest_score(self):
        events = log(
            "rummy40",
            ["A", "B", "C", "D"],
            {"target": 1},
            # 1: a hand of another table, voided: the single-hand match opens again.
            rec(hand(seat(went_out=True), seat("KS"), seat("5H 5D"), seat("JK"))),
            void(1),
            # 2: C out; A 2+3 = 5 + 20 (failed opening) = 25; B Q+Q = 20; D ace = 1.
            rec(
                hand(
                    seat("2C 3C", opening_penalty=1),
                    seat("QD QH"),
                    seat(went_out=True),
                    seat("AH"),
                )
            ),
            # A's opening was fine after all: A 5.               [5, 20, 0, 1], C wins
            amend(2, hand(seat("2C 3C"), seat("QD QH"), seat(went_out=True), seat("AH"))),
        )
        state = replay(events).to_dict()
        assert state["options"]["add_to_any_meld"] is True  # R40-ADD with 4 players
        assert state["totals"] == [5, 20, 0, 1]
        assert (state["finished"], state["winner"], state["match"]["loser"]) == (True, 2, None)

    def test_three_players_are_refused_by_r40_setup(self):
        with pytest.raises(RuleViolation) as caught:
            replay(log("rummy40", ["A", "B", "C"], {}))
        assert (caught.value.rule, caught.value.violations[0].code) == ("R40-SETUP", "players")


class TestRaminoTables:
    def test_a_two_player_table_plays_its_hands_with_hand_closure_ram_handclose(self):
        events = log(
            "ramino",
            ["Anna", "Bruno"],
            {"hands": 3},
            # 1: Anna out; Bruno A 11 + K 10 + 3 = 24; amended below.
            rec(hand(seat(went_out=True), seat("AS KD 3C"))),
            # 2: stock out: Anna JK 20 + 2 = 22 lost, Bruno 9 lost; voided below.
            rec(hand(seat("JK 2H"), seat("9S"), stock_exhausted=True)),
            # 3: Bruno closes in hand; Anna Q Q 5 = 25, doubled: Anna -50, Bruno +50.
            rec(hand(seat("QH QS 5C"), seat(went_out=True, hand_closed=True))),
            void(2),
            # 4: Anna out; Bruno 7: Anna +7, Bruno -7.
            rec(hand(seat(went_out=True), seat("7D"))),
            # Bruno also held 4C in hand 1: A K 3 4 = 28.
            amend(1, hand(seat(went_out=True), seat("AS KD 3C 4C"))),
        )
        # Anna 28 - 50 + 7 = -15; Bruno -28 + 50 - 7 = 15; three hands in force: over.
        state = replay(events).to_dict()
        assert state["totals"] == [-15, 15]
        assert (state["finished"], state["winner"]) == (True, 1)
        assert state["match"]["totals"] == [-15, 15] and state["match"]["items"] == []

    def test_three_players_score_casino_and_a_closed_hand_ram_opt_casino(self):
        closing = hand(
            # C closes in hand with 10 J Q K of hearts (casino 40); A 2 3 = 5+5, B ace 15.
            seat("2S 3S"),
            seat("AS"),
            seat(melded="10H JH QH KH", went_out=True, hand_closed=True),
        )
        events = log(
            "ramino",
            ["A", "B", "C"],
            {"hands": 2, "casino_scoring": True},
            rec(hand(seat("5C"), seat("6C"), seat("7C"), stock_exhausted=True)),
            void(1),
            # 2: A out melding Q♠ 40 + Q♥ 10 + Q♦ 10 + 5 6 7♣ 5 each = 75.
            #    B A♥ 15 + 2♦ 5 = 20, C JK 0 + K 10 = 10: A gains 30, B -20, C -10.
            #    Casino 75 split over B, C: 37 each, the odd point to B (next after A):
            #    A +105, B -58, C -47.
            rec(
                hand(
                    seat(melded="QS QH QD 5C 6C 7C", went_out=True),
                    seat("AH 2D"),
                    seat("JK KS"),
                )
            ),
            # 3: C gains 10 + 15 = 25, A -10, B -15; casino 40 split 20/20: A -30, B -35,
            #    C +65; doubled: A -60, B -70, C +130.
            rec(closing),
            # B held 4♦ too in hand 2: 25 lost, A gains 35: A +110, B -63, C -47.
            amend(
                2,
                hand(
                    seat(melded="QS QH QD 5C 6C 7C", went_out=True),
                    seat("AH 2D 4D"),
                    seat("JK KS"),
                ),
            ),
        )
        # A 110 - 60 = 50; B -63 - 70 = -133; C -47 + 130 = 83.
        state = replay(events).to_dict()
        assert state["totals"] == [50, -133, 83]
        assert sum(state["totals"]) == 0
        assert (state["finished"], state["winner"]) == (True, 2)

    def test_six_players_with_the_scala40_opening_ram_match(self):
        six = ["P0", "P1", "P2", "P3", "P4", "P5"]
        closed = [
            seat("9C"),
            seat("10S"),
            seat("4S 4H"),
            seat("QD"),
            seat("AD AH"),
            seat(went_out=True, hand_closed=True),
        ]
        events = log(
            "ramino",
            six,
            {"hands": 1, "scala40": True},
            rec(
                hand(
                    seat("5H"),
                    seat("KC KD"),
                    seat(went_out=True),
                    seat("JK"),
                    seat("AC"),
                    seat("2D 3D"),
                )
            ),
            void(1),
            # P5 closes in hand: 9 + 10 + 8 + 10 + 22 = 59, doubled: +118, others x2.
            rec(hand(*closed)),
            # P5 had melded earlier: no closure. P5 +59; the others lose their hands once.
            amend(2, hand(*closed[:5], seat(went_out=True))),
        )
        state = replay(events).to_dict()
        assert state["options"]["opening_minimum"] == 40
        assert state["totals"] == [-9, -10, -8, -10, -22, 59]
        assert (state["finished"], state["winner"]) == (True, 5)
        assert state["hands"][0]["voided"] and state["hands"][0]["result"] is None

    def test_equal_highest_totals_share_the_win_and_no_single_winner_is_named(self):
        # Anna out, Bruno 9; then Bruno out, Anna 9: 0 each after two hands.
        events = log(
            "ramino",
            ["Anna", "Bruno"],
            {"hands": 2},
            rec(hand(seat(went_out=True), seat("9S"))),
            rec(hand(seat("9H"), seat(went_out=True))),
        )
        state = replay(events).to_dict()
        assert (state["finished"], state["winner"], state["match"]["winners"]) == (
            True,
            None,
            [0, 1],
        )


class TestKnockRummyTables:
    def test_a_two_player_game_ends_with_the_target_and_round_bonuses_kr_match(self):
        events = log(
            "knock_rummy",
            ["Anna", "Bruno"],
            {"target": 50},
            # 1: Anna knocks with A+3 = 4, Bruno K+9 = 19: Anna 15; amended below.
            rec(hand(seat("AS 3D", knocked=True), seat("KH 9C"))),
            # 2: Anna knocks with 5, Bruno holds 2: undercut 3 + 10; voided below.
            rec(hand(seat("5C", knocked=True), seat("2H"))),
            void(2),
            # 3: Anna knocks with 2+2 = 4, Bruno Q Q 3 = 23: Anna 19.        [34, 0]
            rec(hand(seat("2C 2D", knocked=True), seat("QS QD 3H"))),
            # Bruno also held 4♠ in round 1: 23 - 4 = 19.                      [38, 0]
            amend(1, hand(seat("AS 3D", knocked=True), seat("KH 9C 4S"))),
            # 4: Bruno plays every card and knocks; Anna JK 25 + 10 = 35, + 25 out. [38, 60]
            rec(hand(seat("JK 10S"), seat(knocked=True, went_out=True))),
        )
        # Bruno reached 50: +100; Anna won rounds 1 and 3: +50. Final 88 and 160.
        state = replay(events).to_dict()
        assert state["hand_totals"] == [38, 60]
        assert state["match"]["totals"] == state["totals"] == [88, 160]
        assert [(i["seat"], i["code"], i["points"]) for i in state["match"]["items"]] == [
            (0, "rounds_won", 50),
            (1, "target", 100),
        ]
        assert (state["finished"], state["winner"]) == (True, 1)

    def test_four_players_undercut_stock_and_out_bonuses_kr_undercut(self):
        events = log(
            "knock_rummy",
            ["A", "B", "C", "D"],
            {"target": 40},
            # 1: A knocks with 5; B and C hold an ace each, D 6: B and C both undercut,
            #    each (5-1) + 0 + (6-1) = 9, + 10 = 19.                [0, 19, 19, 0]
            rec(hand(seat("5S", knocked=True), seat("AH"), seat("AD"), seat("6H"))),
            # 2: stock used up, no knock: A 4, B 9, C K 10, D 4; A and D win
            #    0 + 5 + 6 + 0 = 11 each, no bonus; amended below.
            rec(hand(seat("4C"), seat("9S"), seat("KC"), seat("4D"), stock_exhausted=True)),
            # 3: another table's round, voided.
            rec(hand(seat("AC", knocked=True), seat("KS"), seat("KD"), seat("KH"))),
            void(3),
            # 4: D knocks with 2+2 = 4; A 10, B J 10, C 3+3 = 6: D 6 + 6 + 2 = 14.
            rec(hand(seat("10C"), seat("JD"), seat("3S 3D"), seat("2S 2H", knocked=True))),
            # C held K 5 = 15 in round 2: A and D each 0 + 5 + 11 + 0 = 16. [16, 19, 19, 30]
            amend(
                2,
                hand(seat("4C"), seat("9S"), seat("KC 5C"), seat("4D"), stock_exhausted=True),
            ),
            # 5: B goes out and knocks: 10 + 25 + 9 = 44, + 25 out = 69.  [16, 88, 19, 30]
            rec(hand(seat("QC"), seat(knocked=True, went_out=True), seat("JK"), seat("9D"))),
        )
        # B reached 40: +100 = 188. Rounds won: A round 2 (+25) 41; C round 1 (+25) 44;
        # D rounds 2 and 4 (+50) 80.
        state = replay(events).to_dict()
        assert state["hand_totals"] == [16, 88, 19, 30]
        assert state["match"]["totals"] == state["totals"] == [41, 188, 44, 80]
        assert (state["finished"], state["winner"]) == (True, 1)

    def test_an_amendment_that_ends_the_game_earlier_is_refused_kr_match(self):
        events = log(
            "knock_rummy",
            ["Anna", "Bruno"],
            {"target": 20},
            rec(hand(seat("AS", knocked=True), seat("5H"))),  # Anna 4
            rec(hand(seat("AD", knocked=True), seat("5D"))),  # Anna 4
        )
        # Round 1 amended to Anna 24 would have ended the game before round 2.
        amended = amend(1, hand(seat("AS", knocked=True), seat("KH QH 5H")))
        (violation,) = refused(events, next_event(events, amended[1], amended[0]))
        assert (violation.rule, violation.code) == ("KR-MATCH", "match_over")


class TestPayloads:
    TABLE = log("knock_rummy", ["Anna", "Bruno"], {})

    @pytest.mark.parametrize(
        ("payload", "field", "code"),
        [
            (hand(seat("AS", knocked=True)), "players[1].hand", "bad_cards"),
            (hand(seat("AS", knocked=True), seat("5H"), seat("6H")), "players[2]", "unknown_field"),
            (hand(seat("AS", knocked="yes"), seat("5H")), "players[0].knocked", "bad_choice"),
            (
                hand(seat("AS", knocked=True), seat("5H", note=1)),
                "players[1].note",
                "unknown_field",
            ),
            (
                {**hand(seat("AS", knocked=True), seat("5H")), "mode": "quick"},
                "mode",
                "bad_choice",
            ),
            (
                {**hand(seat("AS", knocked=True), seat("5H")), "mode": "points"},
                "players[0].hand",
                "unknown_field",
            ),
            (
                {**hand(seat("AS", knocked=True), seat("5H")), "stock_exhausted": 1},
                "stock_exhausted",
                "bad_choice",
            ),
        ],
    )
    def test_a_malformed_hand_is_refused_naming_the_field(self, payload, field, code):
        (violation,) = refused(self.TABLE, next_event(self.TABLE, payload))
        assert (violation.rule, violation.code, violation.params["field"]) == ("EVENT", code, field)

    def test_a_flag_the_game_lacks_is_refused_by_the_game(self):
        payload = hand(seat("AS", knocked=True), seat("5H", opening_penalty=1))
        (violation,) = refused(self.TABLE, next_event(self.TABLE, payload))
        assert (violation.rule, violation.code) == ("KR-SCORE", "flag_not_used")


# Properties ---------------------------------------------------------------------------

GAMES = {
    # variant: (module, options of a match longer than any drawn log, seat counts)
    "rummy40": (rummy40, {"target": 500}, (2, 4)),
    "ramino": (ramino, {"hands": 20}, (2, 3, 6)),
    "knock_rummy": (knock_rummy, {"target": knock_rummy.MAX_TARGET}, (2, 5)),
}
LOW_CARDS = [card for card in FULL_DECK if card.rank <= 2]
SPADES = [card for card in FULL_DECK if card.suit == "S"]


@st.composite
def legal_hands(draw, variant, players):
    """Draw one legal end of hand: a few cards per seat from one deck, one way to end."""
    cards = draw(st.permutations([*FULL_DECK, JOKER]))
    low = draw(st.sampled_from(LOW_CARDS))
    cards = [card for card in cards if card != low]
    ender = draw(st.integers(0, players - 1))
    stock = draw(st.booleans())
    seats = []
    for i in range(players):
        size = draw(st.integers(1, 3))
        held, cards = cards[:size], cards[size:]
        entry = {"hand": " ".join(map(str, held))}
        if i == ender and variant == "knock_rummy":
            entry = {"hand": str(low), "knocked": True}  # 1 or 2 points: always may knock
        elif i == ender and not stock:
            entry = {"hand": "", "went_out": True}
        seats.append(entry)
    return hand(*seats, stock_exhausted=stock)


@st.composite
def tables(draw):
    variant = draw(st.sampled_from(sorted(GAMES)))
    module, options, counts = GAMES[variant]
    players = draw(st.sampled_from(counts))
    payloads = draw(st.lists(legal_hands(variant, players), min_size=1, max_size=6))
    voided = draw(st.sets(st.integers(1, len(payloads))))
    return variant, module, options, players, payloads, voided


def ends(payload, names):
    """Return the seats' ends of hand of a payload, for the module to score directly."""
    return [
        SeatEnd(name, **{**entry, "hand": parse_cards(entry["hand"])})
        for name, entry in zip(names, payload["players"], strict=True)
    ]


class TestReplayProperties:
    @settings(max_examples=examples(60), deadline=None)
    @given(tables())
    def test_totals_are_the_sum_of_the_hand_points_in_force(self, table):
        variant, module, options, players, payloads, voided = table
        names = [f"P{i}" for i in range(players)]
        events = log(
            variant,
            names,
            options,
            *(rec(p) for p in payloads),
            *(void(number) for number in sorted(voided)),
        )
        state = replay(events)
        table_options = type(state.options).from_dict(options, players)
        expected = [0] * players
        for number, payload in enumerate(payloads, start=1):
            if number in voided:
                continue
            result = module.score_hand(
                table_options,
                ends(payload, names),
                stock_exhausted=payload.get("stock_exhausted", False),
            )
            expected = [t + p for t, p in zip(expected, result.points, strict=True)]
        assert list(state.totals) == expected
        assert state.to_dict()["match"]["finished"] is False

    @settings(max_examples=examples(30), deadline=None)
    @given(
        st.lists(st.sampled_from(SPADES), min_size=1, max_size=4, unique=True),
        st.integers(2, 5),
    )
    def test_a_knock_over_five_is_refused_and_changes_nothing_kr_knock(self, held, players):
        count = sum(knock_rummy.card_value(card) for card in held)
        assume(count > knock_rummy.KNOCK_LIMIT)
        names = [f"P{i}" for i in range(players)]
        others = [seat(f"{rank}D") for rank in range(2, players + 1)]
        events = log("knock_rummy", names, {}, rec(hand(seat("AH", knocked=True), *others)))
        payload = hand(seat(" ".join(map(str, held)), knocked=True), *others)
        (violation,) = refused(events, next_event(events, payload))
        assert (violation.rule, violation.code) == ("KR-KNOCK", "over_limit")
        assert violation.params["count"] == count

    @pytest.mark.parametrize(("variant", "rule"), [("rummy40", "R40-END"), ("ramino", "RAM-OUT")])
    def test_two_players_out_are_refused_and_change_nothing(self, variant, rule):
        first = hand(seat("5C"), seat("6C"), seat("7C"), seat(went_out=True))
        events = log(variant, ["A", "B", "C", "D"], {}, rec(first))
        payload = hand(seat(went_out=True), seat(went_out=True), seat("5C"), seat("6C"))
        (violation,) = refused(events, next_event(events, payload))
        assert (violation.rule, violation.code) == (rule, "two_out")

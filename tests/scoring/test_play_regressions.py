"""Short hand-written logs of moves docs/rules.md allows that the engine refused when the table
simulator (play_simulator.py) first played them: the bugs it found, fixed since.
"""

from __future__ import annotations

from scoring.cards import FULL_DECK
from scoring.events import (
    CARD_DISCARDED,
    CARD_DRAWN,
    CARDS_ADDED,
    HAND_RECORDED,
    HAND_STARTED,
    HANDS_SHOWN,
    JOKER_SWAPPED,
    MELDS_LAID,
    TABLE_CREATED,
    TABLE_REARRANGED,
    TURN_PASSED,
    LogEvent,
)
from scoring.replay import replay


def table_log(variant, seats, options, *moves):
    """Return the events of a table: its creation, then each (type, payload) in order."""
    created = {"variant": variant, "options": options, "seats": seats}
    return [
        LogEvent(1, TABLE_CREATED, created),
        *(LogEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(moves, start=2)),
    ]


def draw(seat, card=None):
    return CARD_DRAWN, {"seat": seat, "source": "stock", **({"card": card} if card else {})}


def discard(seat, card):
    return CARD_DISCARDED, {"seat": seat, "card": card}


def lay(seat, *melds):
    return MELDS_LAID, {"seat": seat, "melds": list(melds)}


def pass_turn(seat):
    return TURN_PASSED, {"seat": seat}


class TestMovesRulesAllowedThatTheEngineRefused:
    """Bugs the simulator found: logs docs/rules.md allows that the engine refused.

    Each was fixed while these tests were written (the commit is named); the tests stay as
    guards, each with the shortest log that showed its bug.
    """

    def test_a_joker_taken_from_a_meld_and_melded_again_counts_once_r40_joker_steal(self):
        # Bruno lays both jokers; Anna opens, takes the 6♥ joker (R40-JOKER-STEAL), melds it
        # at once on her run and goes out. The table shows two jokers; the end of the hand
        # counted the stolen one in Bruno's melds and again in Anna's, so CARD-2 refused the
        # hands shown and the hand could never be scored (fixed by 6b23033).
        events = table_log(
            "rummy40",
            ["Anna", "Bruno"],
            {"opening_minimum": 0, "target": 1},
            (HAND_STARTED, {"upcard": "2D"}),
            draw(1),
            lay(1, "5H JK=6H 7H", "9C JK=10C JC"),
            discard(1, "KD"),
            draw(0),
            lay(0, "2S 3S 4S"),
            (JOKER_SWAPPED, {"seat": 0, "meld": 1, "card": "6H"}),
            (CARDS_ADDED, {"seat": 0, "meld": 3, "cards": "JK"}),
            lay(0, "8D 9D 10D", "QC QS QH"),
            discard(0, "4C"),
            (HANDS_SHOWN, {"mode": "cards", "players": [None, {"hand": "3C 4H 8S KS"}]}),
        )
        # R40-END: Anna went out; Bruno adds 3 + 4 + 8 + 10.
        assert replay(events).totals == (0, 25)

    def test_a_knock_rummy_table_of_more_than_twenty_melds_can_be_rearranged_kr_manip(self):
        # Five players lay 3 melds each, then one more each but Bruno (20 melds). Bruno then
        # lays two melds, one with the 4♣ taken from the end of a run (KR-MANIP): 21 melds
        # after the move, which is legal and takes all his cards. table_rearranged carries
        # the whole table and refused more than 20 melds (EVENT bad_melds), where a 106-card
        # table holds up to 35 (fixed by 85b1abf).
        first = {
            1: ["AC 2C 3C 4C", "7D 8D 9D", "KS KH KD"],
            2: ["AS 2S 3S", "4S 5S 6S", "7S 8S 9S"],
            3: ["AH 2H 3H", "4H 5H 6H", "7H 8H 9H"],
            4: ["AD 2D 3D", "4D 5D 6D", "10D JD QD"],
            0: ["10S JS QS", "10H JH QH", "10C JC QC"],
        }
        second = {2: "AC 2C 3C", 3: "AS 2S 3S", 4: "AH 2H 3H", 0: "AD 2D 3D"}
        moves = [(HAND_STARTED, {})]
        for seat, melds in first.items():
            moves += [draw(seat), lay(seat, *melds), pass_turn(seat)]
        moves += [draw(1), draw(1), draw(1), pass_turn(1)]  # KR-TURN: no meld, three draws
        for seat, meld in second.items():
            moves += [draw(seat), draw(seat), lay(seat, meld), pass_turn(seat)]
        table = [m for melds in first.values() for m in melds] + list(second.values())
        table[table.index("AC 2C 3C 4C")] = "AC 2C 3C"
        moves += [
            draw(1),
            (TABLE_REARRANGED, {"seat": 1, "melds": [*table, "4C 5C 6C", "KC KS KH"]}),
        ]
        events = table_log("knock_rummy", ["Anna", "Bruno", "Carla", "Dario", "Elena"], {}, *moves)
        state = replay(events)
        assert state.turn is None  # Bruno played his last card: the round is over

    def test_a_gin_table_without_the_wall_takes_the_discard_that_empties_the_stock(self):
        # wall off (GIN-WALL is a table option): both pass the upcard, then 31 turns of a
        # stock draw and a discard. The last discard leaves the stock empty: play.py ended
        # the hand as a wall, and gin.score_wall refused a wall at a table playing without
        # it (GIN-WALL not_enabled), so the discard was refused and nothing could follow.
        # The hand is void now (fixed by 686770f).
        names = [str(card) for card in FULL_DECK if str(card) != "KC"][:31]
        moves = [(HAND_STARTED, {"upcard": "KC"}), pass_turn(1), pass_turn(0)]
        for turn, card in enumerate(names):
            seat = 1 - turn % 2
            moves += [draw(seat), discard(seat, card)]
        events = table_log("gin", ["Anna", "Bruno"], {"wall": False}, *moves)
        state = replay(events)
        assert [hand.current.points for hand in state.hands] == [(0, 0)]
        assert state.play is None

    def test_a_ramino_opening_may_be_laid_meld_by_meld_in_its_turn_ram_open(self):
        # RAM-OPEN: "several melds in the same turn may be summed". Bruno lays 2♣ 3♣ 4♣ (9)
        # then K♠ K♥ K♦ (30) in the same turn: 39 together. The engine judged the first
        # melds_laid alone as the whole opening and refused it (RAM-OPEN below_minimum;
        # fixed by 511b788).
        events = table_log(
            "ramino",
            ["Anna", "Bruno"],
            {},
            (HAND_STARTED, {"upcard": "5D"}),
            draw(1),
            lay(1, "2C 3C 4C"),
            lay(1, "KS KH KD"),
            discard(1, "9H"),
        )
        assert replay(events).to_dict()["play"]["hands"][1]["opened"] is True

    def test_a_hand_of_eleven_failed_openings_can_be_entered_by_hand_r40_open_penalty(self):
        # Bruno tries to open with 2♣ 3♣ 4♣ (9 < 40) on each of 11 turns: 11 × 20 points
        # (R40-OPEN-PENALTY sets no limit). Played move by move, the hand scored; entered
        # by hand, opening_penalty was capped at 10 "to bound typos" and the same hand was
        # refused (EVENT bad_int): the two paths disagreed and the hand could not be
        # amended (fixed by 85b1abf).
        out = ["10S JS QS KS", "5D 6D 7D", "8C 8H 8D"]
        used = {"2C", "3C", "4C", "9H", "AH", *" ".join(out).split()}
        spare = iter(str(card) for card in FULL_DECK if str(card) not in used)
        moves = [(HAND_STARTED, {"upcard": "AH"})]
        for _ in range(11):
            moves += [draw(1), lay(1, "2C 3C 4C"), discard(1, next(spare)), draw(0)]
            moves.append(discard(0, next(spare)))
        moves[-1:] = [lay(0, *out), discard(0, "9H")]
        bruno = ["2C", "3C", "4C", *(next(spare) for _ in range(7))]
        shown = {"mode": "cards", "players": [None, {"hand": " ".join(bruno)}]}
        options = {"opening_minimum": 40, "target": 1}
        played = replay(
            table_log("rummy40", ["Anna", "Bruno"], options, *moves, (HANDS_SHOWN, shown))
        )
        entry = {
            "mode": "cards",
            "players": [
                {"hand": "", "melded": " ".join(out), "went_out": True},
                {"hand": " ".join(bruno), "opening_penalty": 11},
            ],
        }
        recorded = replay(table_log("rummy40", ["Anna", "Bruno"], options, (HAND_RECORDED, entry)))
        assert recorded.totals == played.totals

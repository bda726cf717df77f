"""Seasons of real logs for the standings and ratings tests (test_standings*.py,
test_ratings.py): tables replayed by the engine, summarised as finished matches.
"""

from scoring.replay import replay
from scoring.standings import match_summary
from tests.scoring.test_replay_games import amend, hand, log, rec, seat, void


def table(variant, players, options, *entries):
    """Replay a table whose seats are named after the players."""
    return replay(log(variant, [player.title() for player in players], options, *entries))


def summary(variant, players, options, *entries, match_id=None):
    """Replay a finished table and summarise it."""
    return match_summary(table(variant, players, options, *entries), players, match_id=match_id)


def by_player(rows):
    return {row.player: row for row in rows}


def line(rows):
    """Return the standings as (rank, player, tiebreak) triples, best first."""
    return [(row.rank, row.player, row.tiebreak) for row in rows]


# A Ramino league: five players, single-hand tables but one of two hands (RAM-MATCH), values
# RAM-VALUE (2-9 face, 10 J Q K 10, ace 11, joker 20), RAM-SCORE: the one out gains what
# the others lose.
RAMINO_SEASON = (
    # M1: Ada out; Bea K 10 + 9 = 19.                             Ada +19, Bea -19
    ("ramino", ["ada", "bea"], {"hands": 1}, rec(hand(seat(went_out=True), seat("KS 9H")))),
    # M2, two hands: hand 1 (Ada out, Cal 7) is voided; hand 2 Cal out, Ada K Q = 20,
    # amended to K Q 3 = 23; hand 3 Ada out, Cal 5.
    # Cal +23 -5 = 18, Ada -23 +5 = -18: Cal wins; Ada won a hand.
    (
        "ramino",
        ["cal", "ada"],
        {"hands": 2},
        rec(hand(seat("7D"), seat(went_out=True))),
        rec(hand(seat(went_out=True), seat("KS QS"))),
        void(1),
        rec(hand(seat("5C"), seat(went_out=True))),
        amend(2, hand(seat(went_out=True), seat("KS QS 3H"))),
    ),
    # M3: Dan out; Eve 9 + 4 = 13.                                Dan +13, Eve -13
    ("ramino", ["dan", "eve"], {"hands": 1}, rec(hand(seat(went_out=True), seat("9C 4C")))),
    # M4: Eve out; Dan 8 + 4 = 12.                                Eve +12, Dan -12
    ("ramino", ["eve", "dan"], {"hands": 1}, rec(hand(seat(went_out=True), seat("8H 4H")))),
    # M5: Bea out; Cal K 10, Dan Q 10: Cal and Dan share 2nd.    Bea +20, Cal -10, Dan -10
    (
        "ramino",
        ["bea", "cal", "dan"],
        {"hands": 1},
        rec(hand(seat(went_out=True), seat("KH"), seat("QD"))),
    ),
    # M6: Bea closes in hand (RAM-HANDCLOSE); Eve 4, doubled.    Bea +8, Eve -8
    (
        "ramino",
        ["bea", "eve"],
        {"hands": 1},
        rec(hand(seat(went_out=True, hand_closed=True), seat("4D"))),
    ),
    # M7: Ada out; Cal 3.                                         Ada +3, Cal -3
    ("ramino", ["ada", "cal"], {"hands": 1}, rec(hand(seat(went_out=True), seat("3S")))),
)
# Records: Ada won M1 M7, lost M2: 2-1. Bea won M5 M6, lost M1: 2-1. Cal won M2, lost M5
# M7: 1-2. Dan won M3, lost M4 M5: 1-2. Eve won M4, lost M3 M6: 1-2.
# Points (gained for, lost against):
#   Ada 19 + 5 + 3 = 27 for, 23 against: +4.    Bea 20 + 8 = 28 for, 19 against: +9.
#   Cal 23 for, 5 + 10 + 3 = 18 against: +5.    Dan 13 for, 12 + 10 = 22 against: -9.
#   Eve 12 for, 13 + 8 = 21 against: -9.
# Head to head: Ada beat Bea (M1). Cal, Dan, Eve: Dan beat Eve (M3), Eve beat Dan (M4),
# Cal and Dan shared 2nd in M5: 0 each.
# Hands won: Ada 3 (M1, M2 hand 3, M7), Bea 2, Cal 1, Dan 1, Eve 1.


def ramino_season():
    return [
        summary(variant, players, options, *entries, match_id=f"M{number}")
        for number, (variant, players, options, *entries) in enumerate(RAMINO_SEASON, start=1)
    ]


# A Knock Rummy league: KR-SCORE, KR-UNDERCUT, KR-OUT, KR-MATCH (target lowered per table).
KNOCK_RUMMY_SEASON = (
    # K1, target 20. Round 1: Ann knocks with 5, Ben and Cat hold an ace each: both undercut,
    # each (5-1) + 0 + (1-1) = 4, + 10 = 14.                                [0, 14, 14]
    # Round 2: Cat plays every card and knocks: (10-0) + (11-0) = 21, + 25 out = 46.
    # Cat 60 reached 20: +100 = 160; Ben won round 1: +25 = 39; Ann 0.  Final [0, 39, 160]
    (
        "knock_rummy",
        ["ann", "ben", "cat"],
        {"target": 20},
        rec(hand(seat("5S", knocked=True), seat("AH"), seat("AD"))),
        rec(hand(seat("KS"), seat("9H 2H"), seat(knocked=True, went_out=True))),
    ),
    # K2, target 10. Ann knocks 2 vs Q 10: Ann 8. Ben knocks 1 vs 3: Ben 2. Ann knocks 1 vs
    # 5: Ann 4, 12 reached 10: +100 = 112; Ben won a round: 2 + 25 = 27.   Final [112, 27]
    (
        "knock_rummy",
        ["ann", "ben"],
        {"target": 10},
        rec(hand(seat("2C", knocked=True), seat("QS"))),
        rec(hand(seat("3H"), seat("AC", knocked=True))),
        rec(hand(seat("AS", knocked=True), seat("5D"))),
    ),
)

# A Rummy40 league: penalty points (R40-VALUE: ace 1, face value, J Q K 10, joker 25).
RUMMY40_SEASON = (
    # R1, single hand, four players: Wes out; Xia 2; Yan 5; Zoe joker 25 + one failed
    # opening 20 = 45 (R40-OPEN-PENALTY). Lowest wins: Wes; places Wes, Xia, Yan, Zoe.
    (
        "rummy40",
        ["wes", "xia", "yan", "zoe"],
        {"target": 1},
        rec(hand(seat(went_out=True), seat("2D"), seat("5C"), seat("JK", opening_penalty=1))),
    ),
    # R2, single hand: a hand of another table is voided; then Xia out, Wes 7. Xia wins.
    (
        "rummy40",
        ["xia", "wes"],
        {"target": 1},
        rec(hand(seat("2C"), seat(went_out=True))),
        void(1),
        rec(hand(seat(went_out=True), seat("7H"))),
    ),
)


def season_of(matches):
    return [
        summary(variant, players, options, *entries, match_id=f"{variant}-{number}")
        for number, (variant, players, options, *entries) in enumerate(matches, start=1)
    ]

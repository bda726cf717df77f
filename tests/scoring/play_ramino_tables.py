"""Ramino tables and hands for the move-by-move Ramino tests (test_play_ramino*.py): the
deal, who holds what, and tables played to a known point.
"""

from scoring.cards import FULL_DECK
from tests.scoring.play_helpers import Table, deal, discard, draw, lay

SEATS = ["Anna", "Bruno"]
THREE = ["Anna", "Bruno", "Carla"]
ANNA, BRUNO, CARLA = 0, 1, 2

# Bruno's 13 melded cards: A♣2♣3♣4♣, 5♦6♦7♦, K♠K♥K♦, 9♥10♥J♥.
BRUNO_MELDS = ("AC 2C 3C 4C", "5D 6D 7D", "KS KH KD", "9H 10H JH")
# Anna's 13 cards: 3 + 4 + 8 + 9 + 10 (Q♠) + 5 + 6 + 8 + 9 + 10 (J♣) + 2 + 10 + 10 = 94.
# Casino values (RAM-OPT-CASINO): nine cards of 2-9 at 5 = 45, Q♠ 40, J♣ 10♦ Q♦ 30: 115.
ANNA_13 = "3S 4S 8S 9S QS 5H 6H 8C 9C JC 2D 10D QD"


def ramino(*, seats=SEATS, **options) -> Table:
    return Table("ramino", seats, options)


def dealt(upcard="9D", *, seats=SEATS, **options) -> Table:
    return ramino(seats=seats, **options).play(deal(upcard))


def seat_view(table: Table, seat: int) -> dict:
    return table.hand["hands"][seat]


def bruno_opens_with_the_kings(**options) -> Table:
    """Bruno opens with K♠K♥K♦ (30) and throws the 2♠; Anna draws and throws the 3♥.

    Bruno holds 13 + 1 - 3 - 1 = 10 cards, Anna 13.
    """
    return dealt(**options).play(
        draw(BRUNO),
        lay(BRUNO, "KS KH KD"),
        discard(BRUNO, "2S"),
        draw(ANNA),
        discard(ANNA, "3H"),
    )


def bruno_out_on_his_second_turn(**options) -> Table:
    """Return the hand after Bruno, opened on his first turn, goes out on his second.

    He draws (11 cards), lays A♣2♣3♣4♣, 5♦6♦7♦ and 9♥10♥J♥ (10 cards) and throws the 4♥.
    """
    return bruno_opens_with_the_kings(**options).play(
        draw(BRUNO),
        lay(BRUNO, "AC 2C 3C 4C", "5D 6D 7D"),
        lay(BRUNO, "9H 10H JH"),
        discard(BRUNO, "4H"),
    )


def bruno_closes_in_hand(**options) -> Table:
    """Bruno's first turn: he draws (14 cards), lays 13 and throws the 2♠ (RAM-HANDCLOSE)."""
    return dealt(**options).play(draw(BRUNO), lay(BRUNO, *BRUNO_MELDS), discard(BRUNO, "2S"))


def joker_in_bruno_run(**options) -> Table:
    """Bruno opens with 7♣ JK(8♣) 9♣ (24) and K♠K♥K♦ (30): 54, then throws the 2♠ (7 left)."""
    return dealt(**options).play(
        draw(BRUNO), lay(BRUNO, "7C JK=8C 9C", "KS KH KD"), discard(BRUNO, "2S")
    )


def claim_table(**options) -> Table:
    """Three players with the knock claim: Bruno draws and throws the 5♦; Carla is next."""
    return dealt(seats=THREE, knock_claim=True, **options).play(draw(BRUNO), discard(BRUNO, "5D"))


def short_stock_run_out() -> Table:
    """Short deck: the A♣ face up, then 34 stock cards drawn and thrown, Bruno first.

    The 35 cards seen are the clubs, the spades and A♥..9♥; left for the hands: 10♥ J♥ Q♥
    K♥, the diamonds and the three jokers.
    """
    names = [str(card) for card in FULL_DECK]
    table = ramino(short_deck=True).play(deal(names[0]))
    for turn, card in enumerate(names[1:35]):
        seat = BRUNO if turn % 2 == 0 else ANNA
        table.play(draw(seat), discard(seat, card))
    return table

"""Cards typed in the reader's language (CARD-3): in Italian the suit letters are C Q F P
(cuori, quadri, fiori, picche), so 7C is the 7 of hearts, and the words are read too."""

import re

import pytest
from django.test import Client

from games.models import Table
from games.rules.card_text import card_typed, typed_cards

ITALIAN = {"HTTP_ACCEPT_LANGUAGE": "it"}


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("7C 10Q QP AF JK", "7H 10D QS AC JK"),  # cuori, quadri, picche, fiori
        ("7 di cuori, donna di picche", "7H, QS"),
        ("asso di fiori re quadri", "AC KD"),
        ("jolly JK=7C", "JK JK=7H"),  # a declared joker's card too
        ("7H 7S 7D", "7H 7S 7D"),  # English letters that mean nothing else in Italian
        ("x9 7Z", "x9 7Z"),  # no card: left for the engine to refuse as typed
    ],
)
def test_italian_cards_are_read_as_italian_players_write_them(typed, read):
    assert typed_cards(typed, "it") == read


def test_english_is_the_engines_own_notation():
    assert typed_cards("7C QQ", "en") == "7C QQ"
    # The card picker types each card as the reader's language reads it back.
    assert [card_typed("7", suit, "it") for suit in "HDCS"] == ["7C", "7Q", "7F", "7P"]
    assert [card_typed("7", suit, "en") for suit in "HDCS"] == ["7H", "7D", "7C", "7S"]
    assert all(typed_cards(card_typed("Q", s, "it"), "it") == "Q" + s for s in "HDCS")


OKLAHOMA = {
    "variant": "gin",
    "gin__preset": "oklahoma",
    "players": "2",
    "question": "score",
    "p0_name": "Anna",
    "p0_hand": "7P 8P 9P KF KC KQ 2F 3F 4F 5C",
    "p0_knocked": "on",
    "p1_name": "Bruno",
    "p1_hand": "5 di picche 6P 10P JP KP 8F 8C 8Q QC 2Q",
}


def test_an_oklahoma_hand_typed_in_italian_is_scored_as_in_english(db):
    """The hand of the referee's Oklahoma test typed the Italian way, the upcard the donna
    di picche: Bruno keeps Q♥ 2♦ = 12 against Anna's 5♥, 7, doubled by the spade: 14."""
    page = Client().post("/referee/", {**OKLAHOMA, "upcard": "QP"}, **ITALIAN).content.decode()
    points = re.search(r'data-testid="points">(.*?)</table>', page, re.S).group(1)
    assert re.findall(r"<th>(\w+)</th><td>(\d+)</td>", points) == [("Anna", "14"), ("Bruno", "0")]
    assert "Q♥" in page and "2♦" in page


def test_a_card_no_one_can_read_is_refused_in_italian_naming_the_field(db):
    response = Client().post("/referee/", {**OKLAHOMA, "upcard": "7Z"}, **ITALIAN)
    page = response.content.decode()
    assert response.status_code == 400
    assert "carta scoperta: “7Z” (carta 1) non è una carta" in page
    assert "7C, 10Q, QP, AF o JK (C cuori, Q quadri, F fiori, P picche)" in page
    assert "7S, 10H" not in page


def test_a_hand_entered_in_italian_is_stored_in_the_engines_notation(db):
    phone = Client(**ITALIAN)
    created = phone.post(
        "/",
        {
            "variant": "scala40",
            "players": "2",
            "player_1": "Anna",
            "player_2": "Bruno",
            "scala40__target": "101",
            "scala40__reentries": "0",
            "scala40__failed_opening_penalty": "20",
            "scala40__max_jokers_per_meld": "1",
        },
    )
    assert created.status_code == 302, created.content.decode()[:2000]
    table = Table.objects.get(pk=created.url.split("/")[2])
    page = phone.get(f"/t/{table.id}/").content.decode()
    fields = {
        name: re.search(rf'name="{name}" value="([^"]+)"', page).group(1)
        for name in ("event_id", "expected_seq")
    }
    # Anna closes; Bruno holds the 7 of cuori and the re di quadri: 7 + 10 = 17 (S40-VALUE).
    entry = {"mode": "cards", "p0_went_out": "on", "p0_melded": "3F 4F 5F", "p1_hand": "7C KQ"}
    assert phone.post(f"/t/{table.id}/hands/", {**fields, **entry}).status_code == 302
    recorded = table.events.get(seq=2).payload["players"]
    assert (recorded[0]["melded"], recorded[1]["hand"]) == ("3C 4C 5C", "7H KD")
    assert table.events.get(seq=2).payload and "17" in phone.get(f"/t/{table.id}/").content.decode()

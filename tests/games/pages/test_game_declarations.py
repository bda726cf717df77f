"""The pages read what a game declares, never its name (docs/design.md, "Adding a game"):
the card picker's hand sizes, the switches that change a form, the words of a hand's line.

Each test here would fail if the page went back to knowing one game: a script quoting a
game's ending, a form asking for a switch by its key, a line worded by a test on an ending.
"""

import html
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from games.models import Table
from games.pages.entries.seats import SeatsHandForm
from games.pages.provisional import provisional_scoring
from games.templatetags.rummy import hand_summary
from scoring.game import MELDED_POINTS, NAMES_UPCARD, SEVERAL_GAMES
from scoring.variants import GAMES

ROOT = Path(__file__).resolve().parents[3]


def _endings_of_every_game() -> set[str]:
    """Return every hand ending a game offers, under any of its presets."""
    endings: set[str] = set()
    for game in GAMES.values():
        for preset in game.presets or {None: None}:
            low = game.players[0]
            options = game.options_from_dict({"preset": preset} if preset else {}, low)
            endings |= set(game.hand_endings(options))
    return endings


def _words_of_every_game() -> set[str]:
    """Return every game's keys, option keys, preset names and hand endings."""
    words = set(GAMES) | _endings_of_every_game()
    for game in GAMES.values():
        words |= {spec.key for spec in game.options} | set(game.presets)
    return words


def test_the_page_script_quotes_no_games_word():
    script = (ROOT / "static/js/app.js").read_text()
    quoted = set(re.findall(r"[\"'`=]([a-z_0-9]+)[\"'`\]]", script))
    assert not quoted & _words_of_every_game()


def test_the_provisional_script_quotes_no_games_own_ending():
    # Its knock_difference shape knows the hand entry's knock and wall; a game's other ways
    # out come in the page's model (games/pages/provisional.py).
    script = (ROOT / "static/js/provisional.js").read_text()
    quoted = set(re.findall(r"[\"'`]([a-z_0-9]+)[\"'`]", script))
    endings = _endings_of_every_game()
    assert {"gin", "big_gin"} <= endings and not quoted & (endings - {"knock", "wall"})


def test_the_provisional_model_names_the_ways_out_the_table_offers():
    # At a Big Gin table gin pays 25 and Big Gin 31 over the defender's count (GIN-GIN,
    # GIN-BIGGIN), a knock keeping nothing is paid as gin (25); Classic offers no Big Gin.
    big = provisional_scoring("gin", {"preset": "big_gin", "target": 100}, 2)
    assert (big["outs"], big["clean_knock"]) == ({"gin": 25, "big_gin": 31}, 25)
    classic = provisional_scoring("gin", {"preset": "classic", "target": 100}, 2)
    assert set(classic["outs"]) == {"gin"}


def test_the_stylesheet_selects_no_games_own_ending():
    # The hand entry knows a knock and the wall (games/pages/entries/knocker_defender.py);
    # every other ending is a game's, and the stylesheet treats them all alike.
    styles = (ROOT / "static/css/app.css").read_text()
    chosen = set(re.findall(r"\[value=([a-z_0-9]+)\]", styles))
    assert chosen and not chosen & (_words_of_every_game() - {"knock", "wall"})


def _create(client: Client, preset: str) -> Table:
    data = {
        "variant": "gin",
        "gin__preset": preset,
        "gin__target": "100",
        "player_1": "Anna",
        "player_2": "Bruno",
    }
    response = client.post("/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.get(pk=response.url.split("/")[2])


def _expect_by_ending(page: str, hand: str) -> dict:
    found = re.search(
        rf'data-hand="{hand}" data-expect="(\d+)" data-expect-by-ending="([^"]*)"', page
    )
    assert found, page[:200]
    return {"": int(found.group(1)), **json.loads(html.unescape(found.group(2)))}


@pytest.mark.django_db
class TestTheCardPicker:
    def test_a_big_gin_table_gives_the_enders_hand_every_card_when_it_goes_big_gin(self):
        # GIN-BIGGIN: out with all 11 cards and no discard; 10 are dealt (GIN-SETUP), so the
        # knocker shows 10 + 1 drawn = 11 for it, 10 otherwise; the defender always 10.
        client = Client()
        page = client.get(f"/t/{_create(client, 'big_gin').id}/").content.decode()
        assert _expect_by_ending(page, "knocker_cards") == {"": 10, "big_gin": 11}
        assert _expect_by_ending(page, "defender_cards") == {"": 10}
        assert "The 10 cards kept after the discard (all 11 going out without one)." in page

    def test_a_classic_table_never_shows_more_than_the_ten_kept(self):
        # GIN-BIGGIN is a Big Gin table's: Classic offers knock, gin and the wall, each kept
        # to the 10 cards after the discard.
        client = Client()
        page = client.get(f"/t/{_create(client, 'classic').id}/").content.decode()
        assert _expect_by_ending(page, "knocker_cards") == {"": 10}
        assert "The 10 cards kept after the discard." in page


class TestSwitchMeanings:
    def test_each_meaning_the_pages_act_on_is_one_games_switch_today(self):
        found = {
            means: [key for key, game in GAMES.items() if game.switch_meaning(means)]
            for means in (NAMES_UPCARD, MELDED_POINTS, SEVERAL_GAMES)
        }
        assert found == {NAMES_UPCARD: ["gin"], MELDED_POINTS: ["ramino"], SEVERAL_GAMES: ["gin"]}

    def test_an_oklahoma_preset_turns_the_upcard_on_through_its_switch(self):
        # GIN-OKLAHOMA: the Oklahoma preset sets the switch; the Big Gin preset leaves it off.
        gin = GAMES["gin"]
        assert gin.takes_upcard({"preset": "oklahoma", "target": 100})
        assert not gin.takes_upcard({"preset": "big_gin", "target": 100})
        assert gin.takes_upcard({"preset": "big_gin", "target": 100, "oklahoma": True})

    def test_a_points_entry_asks_for_melded_points_only_under_casino_scoring(self):
        # RAM-OPT-CASINO: the winner is paid what was melded, so each seat's melded points
        # are asked for; without it they are not.
        names = ["Anna", "Bruno", "Carla"]
        plain = SeatsHandForm(seats=names, options={"hands": 3}, variant="ramino")
        casino = SeatsHandForm(
            seats=names, options={"hands": 3, "casino_scoring": True}, variant="ramino"
        )
        assert "p0_melded_points" not in plain.fields
        assert {f"p{i}_melded_points" for i in range(3)} <= set(casino.fields)

    def test_a_sheet_of_several_games_gets_no_provisional_model(self):
        # GIN-HOLLYWOOD: three games on one sheet, no single running sum to add a hand to.
        assert provisional_scoring("gin", {"preset": "big_gin", "target": 100}, 2) is not None
        assert provisional_scoring("gin", {"preset": "hollywood", "target": 100}, 2) is None


def _gin_result(ending: str, knocker: int = 0, k: int = 0, d: int = 0, **more) -> dict:
    return {
        "ending": ending,
        "knocker": knocker,
        "knocker_count": k,
        "defender_count": d,
        "points": [0, 0],
        **more,
    }


class TestTheHandLine:
    SEATS = ("Anna", "Bruno")

    @pytest.mark.parametrize(
        ("result", "english", "italian"),
        [
            # GIN-KNOCK: Anna knocks with 4, Bruno holds 20: she is under him, a knock.
            (
                _gin_result("knock", 0, 4, 20),
                "Anna knocked with 4 against 20",
                "Anna ha bussato con 4 contro 20",
            ),
            # GIN-UNDERCUT: Bruno knocks with 6, Anna lays off to 5: under him, an undercut.
            (
                _gin_result("knock", 1, 6, 5, undercut=True),
                "Bruno knocked with 6, undercut with 5",
                None,
            ),
            # GIN-GIN and GIN-BIGGIN: the ender keeps 0; the defender's count is named.
            (_gin_result("gin", 1, 0, 12), "Bruno: Gin (defender 12)", None),
            (_gin_result("big_gin", 0, 0, 30), "Anna: Big Gin (defender 30)", None),
            # GIN-WALL: nobody ended the hand.
            ({"ending": "wall", "points": [0, 0]}, "Wall: the stock ran down, no score", None),
        ],
    )
    def test_gin_words_its_hands_from_its_own_package(self, result, english, italian):
        with translation.override("en"):
            assert hand_summary(result, self.SEATS, "gin") == english
        if italian:
            with translation.override("it"):
                assert hand_summary(result, self.SEATS, "gin") == italian

    def test_a_game_without_its_own_line_gets_the_shared_one(self):
        # R40: Carla went out; the shared line names whoever went out.
        result = {"ending": "out", "winners": [2], "points": [-15, -30, 0]}
        assert hand_summary(result, ("Anna", "Bruno", "Carla"), "rummy40") == "Carla went out"

    def test_the_shared_tags_word_no_gin_ending(self):
        # "knock" stays: the shared line of a knock that ends a round (KR-KNOCK) names it.
        tags = (ROOT / "games/templatetags/rummy.py").read_text()
        gin = GAMES["gin"]
        endings = set(gin.hand_endings(gin.options_from_dict({"preset": "big_gin"}, 2)))
        assert endings == {"knock", "gin", "big_gin", "wall"}
        assert not set(re.findall(r'"([a-z_]+)"', tags)) & (endings - {"knock"})

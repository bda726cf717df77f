"""The refusals Burraco and Canasta give through the code they share (scoring/side_sheets.py,
scoring/side_scores.py) each cite the game's own rule and have a sentence.

The shared code takes each game's rule IDs as values, so the source scan of
test_translations.py cannot pair them with their codes; here each refusal is provoked
through the game's registered rules and its (rule, code) looked up in the sentences."""

import pytest

from games.rules.text import MESSAGES
from scoring.errors import RuleViolation
from scoring.variants import GAMES

BURRACO_SHEET = [
    {"melded": 355, "pulito": 1, "closed": True, "pozzetto": True, "in_hand": 0},
    {"melded": 180, "sporco": 1, "pozzetto": True, "in_hand": 45},
]
CANASTA_SHEET = [
    {"melded": 300, "natural": 1, "went_out": True, "in_hand": 0},
    {"melded": 150, "red_threes": 2, "in_hand": 45},
]


def _both_hold(out_key: str) -> list[dict]:
    # The side that ended the hand says both partners still hold a card.
    return [{"melds": [], "hands": ["4C", "5D"], out_key: True}, {}]


# (game, payload, rule, code): a payload the game refuses for one reason, and that reason.
ENTRIES = [
    ("burraco", 3, "BUR-SCORE", "bad_entry"),
    ("burraco", {"pairs": BURRACO_SHEET, "bogus": 1}, "BUR-SCORE", "unknown_field"),
    ("burraco", {"mode": "x", "pairs": BURRACO_SHEET}, "BUR-SCORE", "bad_mode"),
    ("burraco", {"pairs": BURRACO_SHEET[:1]}, "BUR-SETUP", "two_pairs"),
    ("burraco", {"pairs": [{}, BURRACO_SHEET[1]]}, "BUR-SCORE", "missing"),
    ("burraco", {"pairs": [{**BURRACO_SHEET[0], "melded": -5}, {}]}, "BUR-SCORE", "bad_points"),
    (
        "burraco",
        {"pairs": [{**BURRACO_SHEET[0], "melded": 357}, {}]},
        "BUR-SCORE",
        "not_multiple_of_5",
    ),
    (
        "burraco",
        {"pairs": [{**BURRACO_SHEET[0], "melded": 99_995}, {}]},
        "BUR-SCORE",
        "too_many_points",
    ),
    ("burraco", {"mode": "cards", "pairs": [{"melds": 3}, {}]}, "BUR-MELDS", "bad_melds"),
    ("burraco", {"mode": "cards", "pairs": [{"melds": []}, {}]}, "BUR-SCORE", "bad_hands"),
    ("burraco", {"mode": "cards", "pairs": [{"hands": [5, ""]}, {}]}, "CARD-3", "bad_cards"),
    (
        "burraco",
        {"mode": "cards", "pairs": _both_hold("closed")},
        "BUR-CLOSE",
        "closer_holds_cards",
    ),
    ("canasta", 3, "CAN-SCORE-1", "bad_entry"),
    ("canasta", {"pairs": CANASTA_SHEET, "bogus": 1}, "CAN-SCORE-1", "unknown_field"),
    ("canasta", {"mode": "x", "pairs": CANASTA_SHEET}, "CAN-SCORE-1", "bad_mode"),
    ("canasta", {"pairs": CANASTA_SHEET[:1]}, "CAN-SETUP", "two_pairs"),
    ("canasta", {"pairs": [{}, CANASTA_SHEET[1]]}, "CAN-SCORE-1", "missing"),
    ("canasta", {"pairs": [{**CANASTA_SHEET[0], "melded": -5}, {}]}, "CAN-SCORE-1", "bad_points"),
    (
        "canasta",
        {"pairs": [{**CANASTA_SHEET[0], "melded": 302}, {}]},
        "CAN-VALUES",
        "not_multiple_of_5",
    ),
    (
        "canasta",
        {"pairs": [{**CANASTA_SHEET[0], "melded": 99_995}, {}]},
        "CAN-VALUES",
        "too_many_points",
    ),
    ("canasta", {"mode": "cards", "pairs": [{"melds": 3}, {}]}, "CAN-MELD-1", "bad_melds"),
    ("canasta", {"mode": "cards", "pairs": [{"melds": []}, {}]}, "CAN-SCORE-1", "bad_hands"),
    ("canasta", {"mode": "cards", "pairs": [{"hands": [5, ""]}, {}]}, "CARD-3", "bad_cards"),
    (
        "canasta",
        {"mode": "cards", "pairs": [{"hands": ["3H", ""]}, {}]},
        "CAN-RED3-1",
        "red_three_held",
    ),
    (
        "canasta",
        {"mode": "cards", "pairs": _both_hold("went_out")},
        "CAN-OUT-1",
        "out_holds_cards",
    ),
]


def _refusal(call) -> tuple[str, str]:
    with pytest.raises(RuleViolation) as refused:
        call()
    first = refused.value.violations[0]
    return first.rule, first.code


@pytest.mark.parametrize(("game", "payload", "rule", "code"), ENTRIES)
def test_an_entry_is_refused_by_the_games_rule_with_a_sentence(game, payload, rule, code):
    rules = GAMES[game]
    options = rules.options_from_dict({}, 4)
    assert _refusal(lambda: rules.read_entry(options, payload, ())) == (rule, code)
    assert (rule, code) in MESSAGES


@pytest.mark.parametrize(("game", "rule"), [("burraco", "BUR-SETUP"), ("canasta", "CAN-SETUP")])
def test_a_table_of_five_is_refused_by_the_games_setup_rule(game, rule):
    assert _refusal(lambda: GAMES[game].referee.table({"players": 5})) == (rule, "players")
    assert (rule, "players") in MESSAGES


@pytest.mark.parametrize(
    ("game", "sheet", "rule"),
    [("burraco", BURRACO_SHEET, "BUR-MATCH"), ("canasta", CANASTA_SHEET, "CAN-MATCH-1")],
)
def test_a_hand_after_the_match_is_over_is_refused_by_the_games_match_rule(game, sheet, rule):
    # Played to 100: the first hand's 655 (Burraco) or 900 (Canasta) ends the match.
    rules = GAMES[game]
    options = rules.options_from_dict({"target": 100}, 4)
    hand = rules.score_entry(options, rules.read_entry(options, {"pairs": sheet}, ()), ())
    assert _refusal(lambda: rules.match_result(options, [hand, hand])) == (rule, "match_over")
    assert (rule, "match_over") in MESSAGES

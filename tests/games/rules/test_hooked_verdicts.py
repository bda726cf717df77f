"""The refusals the shared meld and table checks give under a rule the game supplies
(MeldRules' joker rules, Knock Rummy's RearrangeRules) each cite the game's own rule and
find its sentence.

The shared code takes those rule IDs as values, so the source scan of test_translations.py
cannot pair them with their codes; here each refusal is provoked through the game's
registered rules and its (rule, code) looked up in the sentences. The expected rules are
worked from docs/rules.md, not read from the code.
"""

import pytest

from games.rules.text import MESSAGES
from scoring.cards import parse_cards, parse_declared, split_declared
from scoring.errors import RuleViolation
from scoring.melds import check_meld
from scoring.rearrange import check_rearrangement
from scoring.variants import GAMES

# (game, options, cards, rule, code): a meld the game refuses for one reason, and that reason.
MELDS = [
    # R40-RUNS: at most one joker in a meld (the default max_jokers_per_meld).
    ("rummy40", {}, "7S 8S JK JK", "R40-RUNS", "too_many_jokers"),
    # RAM-JOKER: never more jokers than natural cards; one natural, two jokers.
    ("ramino", {}, "7S JK JK", "RAM-JOKER", "too_many_jokers"),
    # RAM-OPT-FIXEDJOKER: 7 8 and J of spades leave the jokers for 9 and 10, side by side.
    ("ramino", {"fixed_jokers": True}, "7S 8S JK JK JS", "RAM-OPT-FIXEDJOKER", "adjacent_jokers"),
    # RAM-OPT-FIXEDGROUPS: clubs, hearts, diamonds skip spades.
    ("ramino", {"fixed_groups": True}, "7C 7H 7D", "RAM-OPT-FIXEDGROUPS", "gap"),
    # RAM-OPT-FIXEDGROUPS: hearts, diamonds, then a joker for which no suit is left.
    ("ramino", {"fixed_groups": True}, "7H 7D JK", "RAM-OPT-FIXEDGROUPS", "joker_place"),
]


@pytest.mark.parametrize(("game", "chosen", "text", "rule", "code"), MELDS)
def test_a_meld_is_refused_by_the_games_joker_rule_with_a_sentence(game, chosen, text, rule, code):
    rules = GAMES[game]
    meld_rules = rules.meld_rules(rules.options_from_dict(chosen, 4))
    cards, declarations = split_declared(parse_declared(text))
    with pytest.raises(RuleViolation) as refused:
        check_meld(cards, meld_rules, declarations)
    first = refused.value.violations[0]
    assert (first.rule, first.code) == (rule, code)
    assert (rule, code) in MESSAGES


# (table before, table after, hand, first meld, every (rule, code) the turn breaks).
TURNS = [
    # KR-MELDING: 10♣ reached the table, but the hand did not hold it.
    (["7C 8C 9C"], ["7C 8C 9C 10C"], "", False, {("KR-MELDING", "not_in_hand")}),
    # KR-MANIP: 10♣ left the table, and nothing from the hand joined it.
    (
        ["7C 8C 9C 10C"],
        ["7C 8C 9C"],
        "5D",
        False,
        {("KR-MANIP", "card_left_table"), ("KR-MANIP", "nothing_added")},
    ),
    # KR-MELDING: the first to meld lays no legal meld (two cards are no run, MELD-RUN).
    (
        [],
        ["7C 8C"],
        "7C 8C",
        True,
        {("MELD-RUN", "too_few"), ("KR-MELDING", "first_meld")},
    ),
    # KR-JOKER: the joker that stood for 4♣ now stands for 4♠, and no 4♣ took its place.
    (
        ["4H 4D JK=4C"],
        ["4H 4D JK=4S", "5C 6C 7C"],
        "5C 6C 7C",
        False,
        {("KR-JOKER", "declaration_changed")},
    ),
    # KR-JOKER: 4♣ replaced the joker, which then left the table (KR-MANIP) unused.
    (
        ["4H 4D JK=4C"],
        ["4H 4D 4C", "5C 6C 7C"],
        "4C 5C 6C 7C",
        False,
        {("KR-MANIP", "card_left_table"), ("KR-JOKER", "joker_not_reused")},
    ),
]


@pytest.mark.parametrize(("before", "after", "hand", "first_meld", "broken"), TURNS)
def test_a_rearranged_table_is_refused_by_knock_rummys_rules_with_sentences(
    before, after, hand, first_meld, broken
):
    rules = GAMES["knock_rummy"]
    options = rules.options_from_dict({}, 3)
    play_rules = rules.play_rules(options, 3)
    result = check_rearrangement(
        [parse_declared(text) for text in before],
        [parse_declared(text) for text in after],
        parse_cards(hand),
        play_rules.melds,
        play_rules.rearrange,
        first_meld=first_meld,
    )
    assert {(v.rule, v.code) for v in result.violations} == broken
    assert broken <= set(MESSAGES)

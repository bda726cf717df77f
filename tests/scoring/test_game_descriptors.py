"""What each game tells the pages of itself (GameRules' descriptors, scoring/game.py) is what
its engine does: every option offered exists, its default and every choice are accepted and
the value just past a bound is refused, every seat flag is a field of a seat's end, every
column is a count or figure the game keeps. The pages read only these, so a descriptor that
lied would offer a table the engine then refuses."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.errors import RuleViolation
from scoring.game import (
    ALL_FORMS,
    BOOL,
    CHOICE,
    INT,
    KNOCKER_DEFENDER_ENTRY,
    MEANINGS,
    PAIRS_SHEET_ENTRY,
    SEATS_ENTRY,
    GameRules,
)
from scoring.hands import SeatEnd
from scoring.variants import GAMES

PROVISIONAL_SHAPES = {"", "knock_difference", "penalty", "gain_loss", "lowest_wins", "side_sheet"}
POINTS_TERMS = {"for_against", "penalty", "gained_lost"}
SUMMARIES = {"", "playing_to", "limit", "opening", "hands", "reentries", "named", "choice"}

games = pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))


def _table(game: GameRules, options: dict, players: int | None = None) -> dict:
    players = players or game.seatings[0]
    return game.full_options(game.options_to_dict(game.options_from_dict(options, players)))


@games
def test_every_game_names_itself_and_its_rules(game):
    assert game.name and game.name == game.name.strip()
    assert game.rule_prefix.endswith("-")
    for rule in (game.setup_rule, game.match_rule):
        assert rule.startswith(game.rule_prefix), rule
    assert set(game.seatings) <= set(range(game.players[0], game.players[1] + 1))
    assert min(game.seatings) == game.players[0] and max(game.seatings) == game.players[1]


def test_the_games_names_and_prefixes_are_their_own():
    assert len({game.name for game in GAMES.values()}) == len(GAMES)
    prefixes = [game.rule_prefix for game in GAMES.values()]
    assert len(set(prefixes)) == len(prefixes)
    assert not any(a != b and a.startswith(b) for a in prefixes for b in prefixes)


@games
def test_every_option_offered_is_one_the_table_holds(game):
    written = _table(game, {})
    keys = [spec.key for spec in game.options]
    assert len(keys) == len(set(keys))
    assert set(keys) <= set(written) | set(game.presets.get(written.get("preset"), {}))
    for spec in game.options:
        assert spec.kind in (BOOL, INT, CHOICE), spec
        assert set(spec.forms) <= set(ALL_FORMS), spec
        assert spec.summary in SUMMARIES, spec
        assert spec.rule.startswith(game.rule_prefix), spec
        assert not spec.line_when or game.option(spec.line_when), spec
        assert not spec.choices_by or game.option(spec.choices_by), spec


@games
def test_every_default_and_choice_offered_is_accepted(game):
    for spec in game.options:
        if spec.default is not None and spec.forms:
            assert _table(game, {spec.key: spec.default})[spec.key] == spec.default, spec
        if spec.kind == CHOICE:
            allowed = {value for _by, values in spec.choices_for for value in values}
            assert allowed <= set(spec.choices), spec
            for by, values in spec.choices_for or ((None, spec.choices),):
                base = {spec.choices_by: by} if spec.choices_by else {}
                for value in values:
                    assert _table(game, {**base, spec.key: value})[spec.key] == value
                    assert value in spec.allowed(base)


@games
def test_a_number_past_its_bounds_is_refused(game):
    for spec in game.options:
        if spec.kind != INT or not spec.forms:
            continue
        assert spec.default is None or spec.low <= spec.default <= (spec.high or spec.default)
        _table(game, {spec.key: spec.low})
        with pytest.raises(RuleViolation):
            _table(game, {spec.key: spec.low - 1})
        if spec.high:  # the most the game takes, as the schema and the forms say
            _table(game, {spec.key: spec.high})
            with pytest.raises(RuleViolation):
                _table(game, {spec.key: spec.high + 1})


@games
def test_a_choice_not_offered_is_refused(game):
    for spec in game.options:
        if spec.kind == CHOICE and spec.key != "preset":
            numbers = all(isinstance(choice, int) for choice in spec.choices)
            offered = max(spec.choices) + 1 if numbers else "none of these"
            with pytest.raises(RuleViolation):
                _table(game, {spec.key: offered})


@games
def test_every_seat_flag_is_a_seats_field_and_every_column_a_count(game):
    fields = {field.name for field in dataclasses.fields(SeatEnd)}
    assert {flag.key for flag in game.seat_flags} <= fields
    for flag in game.seat_flags:
        assert not flag.rule or flag.rule.startswith(game.rule_prefix), flag
    reading = game.standings
    kept = set(reading.counts) | set(reading.figures)
    for column in reading.book_columns:
        assert column.name in kept | {"undercuts_taken"}, column
        assert not column.of or column.of in kept, column
    assert reading.points_terms in POINTS_TERMS
    assert game.provisional in PROVISIONAL_SHAPES
    assert game.hand_entry in (SEATS_ENTRY, KNOCKER_DEFENDER_ENTRY, PAIRS_SHEET_ENTRY)
    meanings = [spec.means for spec in game.options if spec.means]
    assert len(meanings) == len(set(meanings)), "one switch a meaning"
    for spec in game.options:
        assert not spec.means or (spec.means in MEANINGS and spec.kind == BOOL), spec


def test_no_game_rules_field_names_one_games_option():
    # A switch the pages act on says so itself (OptionSpec.means); GameRules grew a field per
    # such switch before (upcard_option, melded_points_option), each read by one game alone.
    assert not [f.name for f in dataclasses.fields(GameRules) if f.name.endswith("_option")]


def test_scala40_offers_its_seven_options_and_flags():
    game = GAMES["scala40"]
    assert [spec.key for spec in game.options] == [
        "target",
        "reentries",
        "failed_opening_penalty",
        "max_jokers_per_meld",
        "free_discard",
        "unopened_discard_check",
        "full_suit_run",
    ]
    # A new table is bound by S40-DISCARD before it opens; a log without the option keeps
    # the rule it was played by.
    assert game.new_table_options({"target": 151}) == {
        "unopened_discard_check": True,
        "full_suit_run": True,
        "target": 151,
    }
    assert game.options_from_dict({}, 4).unopened_discard_check is False
    assert game.option("target").choices == (101, 151, 201, 301, 501)
    assert (game.option("reentries").low, game.option("reentries").high) == (0, 3)
    assert game.option("failed_opening_penalty").high == 100
    assert [flag.key for flag in game.seat_flags] == [
        "went_out",
        "hand_closed",
        "opening_penalty",
        "sitting_out",
        "declines_reentry",
    ]
    assert [flag.key for flag in game.seat_flags if flag.from_match] == ["sitting_out"]
    # A decline means something only where the table allows re-entries.
    decline = game.seat_flags[-1]
    assert (decline.asked({"reentries": 1}), decline.asked({"reentries": 0})) == (True, False)
    assert game.seatings == (2, 3, 4, 5, 6)


def test_gins_match_lengths_follow_its_preset():
    target = GAMES["gin"].option("target")
    assert target.allowed({"preset": "classic"}) == (1, 50, 100, 200)
    assert target.allowed({"preset": "oklahoma"}) == (100, 125, 150, 200, 250)
    assert target.allowed({}) == target.choices
    assert GAMES["gin"].full_options({"preset": "american"})["game_bonus"] == 100
    assert GAMES["rummy40"].seatings == (2, 4)

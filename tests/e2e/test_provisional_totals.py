"""Provisional totals while hands wait on the phone: the board marks each seat's total with
the points of the hands kept offline ("37 (+25 pending)"), scored by static/js/provisional.js
with the numbers the server read from the engine (games/pages/provisional.py), and those
totals are the ones the server shows once the hands are sent, for every game's quick entry.
"""

import random
import re
import uuid

import pytest
from playwright.sync_api import expect

from games.pages.entries import entry_of
from games.pages.provisional import provisional_scoring
from scoring.errors import RuleViolation
from scoring.variants import GAMES
from tests.e2e.axe import BLOCKING, axe_violations
from tests.e2e.conftest import fill_seats, start_table
from tests.e2e.test_offline import _start_gin_table, _wait_for_the_worker

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CASES_PER_TABLE = 400


def _gin_fields(rng: random.Random) -> dict[str, str]:
    ending = rng.choice(["knock", "knock", "knock", "gin", "big_gin", "wall"])
    fields = {"mode": "quick", "ending": ending, "knocker": str(rng.randint(0, 1))}
    k = rng.choice([0, rng.randint(0, 10), rng.randint(0, 3)])
    d = rng.choice([k, rng.randint(0, 98), rng.randint(0, 12)])
    if ending == "knock":
        fields["knocker_count"] = str(k)
    if ending != "wall":
        fields["defender_count"] = str(d)
    return fields


def _seat_fields(rng: random.Random, variant: str, seats: int, casino: bool) -> dict[str, str]:
    fields = {"mode": "points"}
    out = rng.choice([None, *range(seats), *range(seats)])
    low = rng.randint(0, 12)
    for seat in range(seats):
        points = 0 if seat == out else rng.choice([low, rng.randint(1, 12), rng.randint(1, 120)])
        fields[f"p{seat}_points"] = str(points)
        if seat == out or (variant == "knock_rummy" and points == 0):
            fields[f"p{seat}_went_out"] = "on"
        if variant == "rummy40" and rng.random() < 0.3:
            fields[f"p{seat}_opening_penalty"] = str(rng.randint(1, 3))
        if variant in ("ramino", "scala40") and seat == out and rng.random() < 0.4:
            fields[f"p{seat}_hand_closed"] = "on"
        if variant == "scala40" and rng.random() < 0.2:
            fields[f"p{seat}_opening_penalty"] = str(rng.randint(1, 3))
        if casino and seat == out:
            fields[f"p{seat}_melded_points"] = str(rng.randint(0, 200))
    if variant == "knock_rummy":
        knocker = rng.choice([None, *range(seats), *range(seats)])
        if knocker is not None:
            fields[f"p{knocker}_knocked"] = "on"
            # A knock needs 10 points or fewer in hand (KR-KNOCK).
            fields[f"p{knocker}_points"] = str(rng.randint(0, 10))
    if out is None or (variant == "knock_rummy" and "knocked" not in str(fields)):
        fields["stock_exhausted"] = "on"
    if variant == "scala40" and seats > 2 and rng.random() < 0.4:
        # A seat out of the match: the page posts its flag and nothing else (S40-MATCH).
        sitting = rng.choice([seat for seat in range(seats) if seat != out])
        for name in [name for name in fields if name.startswith(f"p{sitting}_")]:
            del fields[name]
        fields[f"p{sitting}_sitting_out"] = "on"
    return fields


def _side_fields(rng: random.Random, variant: str, options: dict) -> dict[str, str]:
    """A sheet a side (PAIRS_SHEET_ENTRY) as a phone posts it, each box drawn from the
    game's declaration: points in its steps, small counts, check boxes."""
    sheet = GAMES[variant].side_sheet
    fields = {"mode": "sheet"}
    out = rng.choice([None, 0, 1, 0, 1])
    if out is not None:
        fields[sheet.out_key] = str(out)
    for side in (0, 1):
        for box in sheet.asked(options):
            name = f"s{side}_{box.key}"
            if box.kind == "points":
                fields[name] = str(
                    box.step * rng.choice([0, rng.randint(0, 20), rng.randint(0, 120)])
                )
            elif box.kind == "count":
                if rng.random() < 0.5:
                    fields[name] = str(rng.randint(0, 4 if rng.random() < 0.2 else 2))
            elif side == out or rng.random() < 0.5:
                fields[name] = "on"
    return fields


def _engine_points(variant: str, options: dict, names: list[str], fields: dict) -> list | None:
    """Score the fields as a save does: the page's form, its payload, the game's engine."""
    data = {"event_id": str(uuid.uuid4()), "expected_seq": "0", **fields}
    game = GAMES[variant]
    typed = game.options_from_dict(options, len(names))
    options = game.options_to_dict(typed)  # every option named, as a table keeps them
    out = [seat for seat in range(len(names)) if fields.get(f"p{seat}_sitting_out")]
    form = entry_of(game).record(data, seats=names, options=options, variant=variant, out=out)
    if not form.is_valid():
        return None
    try:
        entry = game.read_entry(typed, form.payload(), tuple(names))
        points = game.score_entry(typed, entry, tuple(names)).points
        # Partners score as one: the board shows one box, and one number, a side.
        return [points[team[0]] for team in game.teams(len(names))]
    except RuleViolation:
        return None


TABLES = [
    ("gin", {"preset": "big_gin", "target": 100}, 2),
    ("gin", {"preset": "classic", "target": 100}, 2),
    ("gin", {"preset": "classic", "target": 100, "undercut_on_tie": True}, 2),
    ("rummy40", {"opening_minimum": 40, "target": 100}, 2),
    ("rummy40", {"opening_minimum": 40, "target": 100}, 4),
    ("ramino", {"hands": 5}, 3),
    ("ramino", {"hands": 5, "casino_scoring": True}, 4),
    ("ramino", {"hands": 5}, 6),
    ("knock_rummy", {"target": 150}, 2),
    ("knock_rummy", {"target": 150}, 3),
    ("knock_rummy", {"target": 150}, 5),
    ("scala40", {"target": 101}, 2),
    ("scala40", {"target": 101, "reentries": 1}, 3),
    ("scala40", {"target": 201, "failed_opening_penalty": 35}, 6),
    ("burraco", {"target": 2005}, 4),
    ("burraco", {"target": 2005, "semipulito": True}, 4),
    ("canasta", {"target": 5000}, 4),
    ("canasta", {"target": 5000, "concealed_bonus": False, "canastas_to_go_out": 2}, 4),
]


class TestTheShapesAgreeWithTheEngine:
    def test_every_games_quick_entry_scores_as_the_engine_scores_it(self, new_phone):
        page = new_phone()
        page.goto("/")
        rng = random.Random(20261127)
        for variant, options, seats in TABLES:
            model = provisional_scoring(variant, options, seats)
            assert model is not None, (variant, options, seats)
            names = [f"P{seat}" for seat in range(seats)]
            casino = bool(options.get("casino_scoring"))
            cases, expected = [], []
            while len(cases) < CASES_PER_TABLE:
                fields = (
                    _gin_fields(rng)
                    if variant == "gin"
                    else _side_fields(rng, variant, options)
                    if GAMES[variant].side_sheet
                    else _seat_fields(rng, variant, seats, casino)
                )
                points = _engine_points(variant, options, names, fields)
                if points is not None:
                    cases.append([[name, value] for name, value in fields.items()])
                    expected.append(points)
            boxes = len(GAMES[variant].teams(seats))
            scored = page.evaluate(
                "([model, cases, boxes]) => cases.map("
                "(fields) => window.rummyrefProvisional.points(model, fields, boxes))",
                [model, cases, boxes],
            )
            wrong = [
                (dict(case), want, got)
                for case, want, got in zip(cases, expected, scored, strict=True)
                if want != got
            ]
            assert not wrong, f"{variant} {options} {seats} seats: {wrong[:3]}"

    def test_every_game_a_table_plays_is_checked_here(self):
        # A game added to the pages needs its shape (games/pages/provisional.py) and its
        # tables above; until then its pending hands show without a number.
        assert {variant for variant, _options, _seats in TABLES} == set(GAMES)

    def test_an_entry_by_cards_is_left_without_a_number(self, new_phone):
        page = new_phone()
        page.goto("/")
        model = provisional_scoring("gin", {"preset": "big_gin", "target": 100}, 2)
        cards = [["mode", "cards"], ["knocker", "0"], ["knocker_typed", "AS 2S 3S"]]
        assert (
            page.evaluate(
                "([model, fields]) => window.rummyrefProvisional.points(model, fields, 2)",
                [model, cards],
            )
            is None
        )


def _pending(page, seat: int):
    return page.get_by_test_id(f"pending-{seat}")


def _provisional(page, seats: int) -> list[int]:
    return [int(_pending(page, seat).get_attribute("data-provisional")) for seat in range(seats)]


def _sent_and_agreeing(page, seats: int) -> None:
    """Go online: the kept hands are sent, and the server's totals are the provisional ones."""
    provisional = _provisional(page, seats)
    page.context.set_offline(False)
    expect(page.get_by_test_id("outbox")).to_be_hidden()
    for seat in range(seats):
        expect(page.get_by_test_id(f"total-{seat}")).to_have_text(str(provisional[seat]))
        expect(_pending(page, seat)).to_be_hidden()


def _offline_table(page) -> None:
    _wait_for_the_worker(page)
    page.reload()
    page.context.set_offline(True)


def _record_points(page, seats: dict[int, dict[str, str | bool]]) -> None:
    form = page.locator("#hand-form")
    form.locator("input[name=mode][value=points]").check()
    fill_seats(page, seats)
    form.get_by_role("button", name="Record hand").click()


class TestProvisionalTotalsOffline:
    def test_gin_hands_kept_offline_show_pending_points_the_server_then_agrees_with(
        self, new_phone
    ):
        page = new_phone()
        _start_gin_table(page)
        _offline_table(page)
        form = page.locator("#hand-form")
        # Anna's gin, Bruno 12 deadwood: 25 + 12 = 37 (GIN-GIN).
        form.get_by_label("Anna", exact=True).check()
        form.get_by_label("Gin", exact=True).check()
        form.get_by_label("Defender's deadwood, after lay-offs").fill("12")
        form.get_by_role("button", name="Record hand").click()
        expect(_pending(page, 0)).to_have_text("(+37 pending)")
        expect(_pending(page, 1)).to_be_hidden()  # no "(+0 pending)" beside a total
        expect(page.get_by_test_id("total-0")).to_have_text("0")
        named = re.compile(r"^\(\+37 pending\): 37 once")
        expect(page.get_by_role("note", name=named)).to_be_visible()

        # Bruno knocks with 3 against 10: 10 - 3 = 7 (GIN-SCORE-KNOCK).
        form.get_by_label("Bruno", exact=True).check()
        form.get_by_label("Knock", exact=True).check()
        form.get_by_label("Knocker's deadwood").fill("3")
        form.get_by_label("Defender's deadwood, after lay-offs").fill("10")
        form.get_by_role("button", name="Record hand").click()
        expect(_pending(page, 1)).to_have_text("(+7 pending)")

        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert axe_violations(page, "#board", impacts=BLOCKING, best_practice=True) == []

        page.reload()  # offline, the worker's copy of the page: still marked
        expect(_pending(page, 0)).to_have_text("(+37 pending)")
        expect(_pending(page, 1)).to_have_text("(+7 pending)")
        assert _provisional(page, 2) == [37, 7]
        _sent_and_agreeing(page, 2)

    def test_a_rummy40_hand_kept_offline_counts_its_failed_opening(self, new_phone):
        page = new_phone()
        start_table(page, "Rummy40", ["Anna", "Bruno"])
        _offline_table(page)
        # Anna goes out; Bruno holds 25 and failed an opening once: 25 + 20 (R40-OPEN-PENALTY).
        _record_points(
            page,
            {
                0: {"went out": True},
                1: {"Points in hand": "25", "failed openings": "1"},
            },
        )
        expect(_pending(page, 1)).to_have_text("(+45 pending)")
        expect(_pending(page, 0)).to_be_hidden()  # no "(+0 pending)" beside a total
        _sent_and_agreeing(page, 2)

    def test_a_ramino_hand_closed_in_one_go_kept_offline_is_doubled(self, new_phone):
        page = new_phone()
        start_table(page, "Ramino", ["Anna", "Bruno", "Carla"])
        _offline_table(page)
        # Bruno closes in one go; Anna holds 10, Carla 5: Bruno +30, Anna -20, Carla -10.
        _record_points(
            page,
            {
                0: {"Points in hand": "10"},
                1: {"went out": True, "closed in one turn": True},
                2: {"Points in hand": "5"},
            },
        )
        expect(_pending(page, 1)).to_have_text("(+30 pending)")
        expect(_pending(page, 0)).to_have_text("(\u221220 pending)")
        expect(_pending(page, 2)).to_have_text("(\u221210 pending)")
        _sent_and_agreeing(page, 3)

    def test_a_scala40_hand_closed_in_hand_kept_offline_doubles_the_others(self, new_phone):
        page = new_phone()
        start_table(page, "Scala 40", ["Anna", "Bruno", "Carla"])
        _offline_table(page)
        # Bruno closes in hand: Anna's 10 and Carla's 5 count twice (S40-HANDCLOSE), and
        # Carla's failed opening adds 20, never doubled (S40-OPEN-PENALTY): 20, 0, 30.
        _record_points(
            page,
            {
                0: {"Points in hand": "10"},
                1: {"went out": True, "closed in one turn": True},
                2: {"Points in hand": "5", "failed openings": "1"},
            },
        )
        expect(_pending(page, 0)).to_have_text("(+20 pending)")
        expect(_pending(page, 1)).to_be_hidden()  # no "(+0 pending)" beside a total
        expect(_pending(page, 2)).to_have_text("(+30 pending)")
        _sent_and_agreeing(page, 3)

    def test_a_knock_rummy_undercut_kept_offline_scores_the_undercut(self, new_phone):
        page = new_phone()
        start_table(page, "Knock Rummy", ["Anna", "Bruno", "Carla"])
        _offline_table(page)
        # Anna knocks on 5, Bruno holds 3: (5-3) + (9-3) = 8, + 10 undercut (KR-UNDERCUT).
        _record_points(
            page,
            {
                0: {"Points in hand": "5", "knocked": True},
                1: {"Points in hand": "3"},
                2: {"Points in hand": "9"},
            },
        )
        expect(_pending(page, 1)).to_have_text("(+18 pending)")
        _sent_and_agreeing(page, 3)

    def test_a_hand_kept_by_cards_is_marked_pending_without_a_number(self, new_phone):
        page = new_phone()
        start_table(page, "Knock Rummy", ["Anna", "Bruno"])
        _offline_table(page)
        fill_seats(
            page,
            {
                0: {"Cards still in hand": "AC 2D", "knocked": True},
                1: {"Cards still in hand": "9C"},
            },
        )
        page.locator("#hand-form").get_by_role("button", name="Record hand").click()
        expect(_pending(page, 0)).to_have_text("(hand pending)")
        assert _pending(page, 0).get_attribute("data-provisional") is None
        page.context.set_offline(False)
        # KR-SCORE: Anna knocks on A♣ 2♦ = 3 against 9: 6.
        expect(page.get_by_test_id("total-0")).to_have_text("6")
        expect(_pending(page, 0)).to_be_hidden()

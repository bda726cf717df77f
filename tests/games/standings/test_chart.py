"""The score chart: its series from a replayed log, its SVG geometry and the page that draws it."""

import re
import uuid

import pytest
from django.test import Client

from games.standings.charts import Step, score_chart, score_progression
from games.tables import services as table_services
from scoring.events import HAND_AMENDED, HAND_RECORDED, HAND_VOIDED, TABLE_CREATED, LogEvent
from scoring.replay import replay


def _state(variant: str, seats: list[str], entries: list[tuple[str, dict]], **options) -> dict:
    """Replay a table's log, its hands and corrections, into the dict the page renders."""
    log = [LogEvent(1, TABLE_CREATED, {"variant": variant, "options": options, "seats": seats})]
    log += [LogEvent(seq, kind, payload) for seq, (kind, payload) in enumerate(entries, start=2)]
    return replay(log).to_dict()


def _points(*seats: dict) -> tuple[str, dict]:
    """Return a hand recorded by the points left in every seat's hand."""
    return HAND_RECORDED, {"mode": "points", "players": list(seats)}


# Ramino, three seats, by points (RAM-SCORE: the others lose their hand, the winner gains it):
# hand 1: Anna out; Bruno 10, Carla 6  -> Anna +16, Bruno -10, Carla -6 -> 16, -10, -6
# hand 2: Carla out; Anna 4, Bruno 6   -> Carla +10, Anna -4, Bruno -6  -> 12, -16,  4
RAMINO_HANDS = [
    _points({"points": 0, "went_out": True}, {"points": 10}, {"points": 6}),
    _points({"points": 4}, {"points": 6}, {"points": 0, "went_out": True}),
]


@pytest.fixture
def ramino_state():
    return _state("ramino", ["Anna", "Bruno", "Carla"], RAMINO_HANDS, hands=3)


class TestScoreProgression:
    def test_each_seat_has_its_running_total_after_every_hand(self, ramino_state):
        assert score_progression(ramino_state) == [
            Step(hand=1, totals=(16, -10, -6)),
            Step(hand=2, totals=(12, -16, 4)),
        ]

    def test_a_voided_hand_is_skipped_and_an_amended_one_counts_as_amended(self):
        # Knock Rummy, two seats (KR-SCORE: the lowest hand scores the difference):
        # hand 1: Anna knocks 3, Bruno 10  -> Anna 10 - 3 = 7                 ->  7,  0
        # hand 2: Anna knocks 4, Bruno 2   -> Bruno 4 - 2 = 2, +10 KR-UNDERCUT ->  7, 12
        # hand 3: Anna 9, Bruno knocks 1   -> Bruno 9 - 1 = 8                 ->  7, 20
        hands = [
            _points({"points": 3, "knocked": True}, {"points": 10}),
            _points({"points": 4, "knocked": True}, {"points": 2}),
            _points({"points": 9}, {"points": 1, "knocked": True}),
        ]
        seats = ["Anna", "Bruno"]
        assert score_progression(_state("knock_rummy", seats, hands)) == [
            Step(1, (7, 0)),
            Step(2, (7, 12)),
            Step(3, (7, 20)),
        ]
        # Hand 2 voided: gone from the lines. Hand 3 amended to Anna 20 against Bruno's
        # knock on 1: Bruno 20 - 1 = 19. Totals after the counted hands 1 and 3: 7, 0 and 7, 19.
        amended = _points({"points": 20}, {"points": 1, "knocked": True})[1]
        corrections = [
            (HAND_VOIDED, {"hand": 2, "reason": "misdeal"}),
            (HAND_AMENDED, {"hand": 3, "reason": "recount", **amended}),
        ]
        state = _state("knock_rummy", seats, hands + corrections)
        assert score_progression(state) == [Step(1, (7, 0)), Step(3, (7, 19))]
        assert state["totals"] == [7, 19]

    def test_the_end_of_match_bonuses_stay_out_of_the_lines(self):
        # Knock Rummy to 20: Anna knocks 3 against 30 and scores 27, reaching 20; KR-MATCH
        # gives her 100 more on the scoreboard (127), but her line ends at 27.
        state = _state(
            "knock_rummy",
            ["Anna", "Bruno"],
            [_points({"points": 3, "knocked": True}, {"points": 30})],
            target=20,
        )
        assert state["match"]["totals"] == [127, 0]
        assert score_progression(state) == [Step(1, (27, 0))]
        chart = score_chart(state)
        assert chart.bonuses_left_out
        assert [line.total for line in chart.lines] == [27, 0]

    def test_a_table_without_a_counted_hand_has_no_chart(self):
        voided = _state(
            "gin",
            ["Anna", "Bruno"],
            [
                (HAND_RECORDED, {"mode": "quick", "ending": "wall"}),
                (HAND_VOIDED, {"hand": 1, "reason": "misdeal"}),
            ],
        )
        assert score_progression(voided) == []
        assert score_chart(voided) is None
        assert score_chart(_state("gin", ["Anna", "Bruno"], [])) is None


class TestChartGeometry:
    # The plot runs from x 36 to 312 (276 wide) and from y 10 to 138 (128 high). With two
    # hands, the points sit at x 36 (the start, every total 0), 36 + 138 = 174 and 312.
    # Totals run from -16 to 16: 128 / 32 = 4 units a point, y = 10 + (16 - total) * 4.

    def test_every_line_starts_at_zero_and_follows_its_totals(self, ramino_state):
        chart = score_chart(ramino_state)
        assert [line.name for line in chart.lines] == ["Anna", "Bruno", "Carla"]
        assert [line.points for line in chart.lines] == [
            "36,74 174,10 312,26",  # 0, 16, 12
            "36,74 174,114 312,138",  # 0, -10, -16
            "36,74 174,98 312,58",  # 0, -6, 4
        ]
        assert [line.total for line in chart.lines] == [12, -16, 4]

    def test_negative_totals_put_the_zero_line_inside_the_plot(self, ramino_state):
        chart = score_chart(ramino_state)
        assert chart.zero_y == "74"
        assert [(label.y, label.text) for label in chart.y_labels] == [
            ("10", "16"),
            ("138", "-16"),
            ("74", "0"),
        ]
        assert [(label.x, label.text, label.anchor) for label in chart.x_labels] == [
            ("174", "#1", "middle"),
            ("312", "#2", "end"),
        ]

    def test_a_zero_label_that_would_overprint_the_top_one_is_left_out(self):
        # Ramino: Anna goes out against Bruno's 1 -> 1, -1; then the stock runs out with
        # Anna holding 50 and Bruno 60, both lose them (RAM-STOCK) -> -49, -61.
        # y = 10 + (1 - total) * 128 / 62: 0 -> 12.1, only 2.1 below the "1" at 10.
        state = _state(
            "ramino",
            ["Anna", "Bruno"],
            [
                _points({"points": 0, "went_out": True}, {"points": 1}),
                (
                    HAND_RECORDED,
                    {
                        "mode": "points",
                        "stock_exhausted": True,
                        "players": [{"points": 50}, {"points": 60}],
                    },
                ),
            ],
            hands=3,
        )
        chart = score_chart(state)
        assert chart.zero_y == "12.1"
        assert [(label.y, label.text) for label in chart.y_labels] == [("10", "1"), ("138", "-61")]

    def test_totals_that_never_go_below_zero_have_the_zero_line_at_the_bottom(self):
        # Rummy40, penalty points: Anna out, Bruno holds K♥ 5♣ = 15 (R40-VALUE) -> 0, 15.
        # y = 10 + (15 - total) * 128 / 15: 15 -> 10, 0 -> 138.
        state = _state(
            "rummy40",
            ["Anna", "Bruno"],
            [
                (
                    HAND_RECORDED,
                    {
                        "mode": "cards",
                        "players": [
                            {"hand": "", "melded": "7S 8S 9S", "went_out": True},
                            {"hand": "KH 5C"},
                        ],
                    },
                )
            ],
        )
        chart = score_chart(state)
        assert [line.points for line in chart.lines] == ["36,138 312,138", "36,138 312,10"]
        assert chart.zero_y == "138"
        assert [(label.y, label.text) for label in chart.y_labels] == [("10", "15"), ("138", "0")]
        assert [label.text for label in chart.x_labels] == ["#1"]

    def test_all_zero_totals_lie_along_the_bottom(self):
        state = _state(
            "gin", ["Anna", "Bruno"], [(HAND_RECORDED, {"mode": "quick", "ending": "wall"})]
        )
        chart = score_chart(state)
        # One hand: the start at x 36 and the hand at 312, both on the bottom line, y 138.
        assert [line.points for line in chart.lines] == ["36,138 312,138", "36,138 312,138"]
        assert chart.zero_y == "138"
        assert [label.text for label in chart.y_labels] == ["0"]

    def test_six_seats_each_get_a_colour_a_dash_and_a_marker_of_their_own(self):
        names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
        state = _state(
            "ramino",
            names,
            [_points({"points": 0, "went_out": True}, *[{"points": 5}] * 5)],
            hands=2,
        )
        lines = score_chart(state).lines
        assert len(lines) == 6
        for attribute in ("colour", "dash", "marker"):
            assert len({getattr(line, attribute) for line in lines}) == 6
        # Anna gains 5 x 5 = 25; the others lose 5 each.
        assert [line.total for line in lines] == [25, -5, -5, -5, -5, -5]


def _recorded(table, payload):
    """Append a hand at the table's head, as a phone would."""
    table.refresh_from_db()
    table_services.event_append(
        table_id=table.id,
        event_id=uuid.uuid4(),
        expected_seq=table.head_seq,
        event_type=HAND_RECORDED,
        payload=payload,
    )
    table.refresh_from_db()


@pytest.mark.django_db
class TestTablePageChart:
    def _table(self, client: Client):
        table = table_services.table_create(
            variant="ramino", options={"hands": 3}, players=["Anna", "Bruno", "Carla"]
        )
        client.get(f"/t/{table.id}/join/{table.viewer_key}/")
        return table

    def test_the_board_has_no_chart_before_the_first_hand(self, client):
        table = self._table(client)
        page = client.get(f"/t/{table.id}/").content.decode()
        assert 'data-testid="chart"' not in page

    def test_the_history_draws_one_line_per_seat_with_a_title_and_a_summary(self, client):
        table = self._table(client)
        for _kind, payload in RAMINO_HANDS:
            _recorded(table, payload)
        page = client.get(f"/t/{table.id}/").content.decode()
        # The chart heads the history, so the board above the form stays small.
        board = page[page.index('id="history"') :]
        assert board.count("<polyline") == 3
        assert 'points="36,74 174,10 312,26"' in board
        assert re.search(r'data-testid="chart-zero"[^>]* y1="74"', board)
        assert re.search(r'<svg[^>]*role="img"[^>]*aria-labelledby="chart-title chart-desc"', board)
        assert "Running totals, hand by hand</title>" in board
        assert '<desc id="chart-desc">After hand 2: Anna 12, Bruno -16, Carla 4.</desc>' in board
        # The hidden table reads the whole series to a screen reader.
        assert "<td>16</td><td>-10</td><td>-6</td>" in board
        assert "<td>12</td><td>-16</td><td>4</td>" in board

    def test_the_poll_brings_the_redrawn_chart(self, client):
        table = self._table(client)
        _recorded(table, RAMINO_HANDS[0][1])
        seen = table.head_seq
        _recorded(table, RAMINO_HANDS[1][1])
        response = client.get(f"/t/{table.id}/?since={seen}", HTTP_HX_REQUEST="true")
        body = response.content.decode()
        assert response.status_code == 200
        assert body.lstrip().startswith('<section id="board"')
        assert "After hand 2: Anna 12, Bruno -16, Carla 4." in body

    def test_the_coordinates_keep_a_decimal_point_in_italian(self, client):
        table = table_services.table_create(variant="knock_rummy", options={}, players=["A", "B"])
        client.get(f"/t/{table.id}/join/{table.viewer_key}/")
        # KR-SCORE: A knocks 3 against 10 -> 7, 0; B knocks 1 against 4 -> 7, 3.
        for a, b, knocker in ((3, 10, 0), (4, 1, 1)):
            players = [{"points": a}, {"points": b}]
            players[knocker]["knocked"] = True
            _recorded(table, {"mode": "points", "players": players})
        page = client.get(f"/t/{table.id}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert '<html lang="it">' in page
        # y = 10 + (7 - total) * 128 / 7: 3 -> 10 + 73.14 = 83.1, never "83,1".
        assert 'points="36,138 174,138 312,83.1"' in page

"""Burraco VP tables: every edge of the 3- and 4-hand tables, and the tables refused.

The expected VP are read off the federation's printed tables (the module's docstring gives
the sources), not off the code: each edge ``e`` of a band and ``e + 5`` (the next band's
first difference), and a difference between the two that is no multiple of 5.
"""

from dataclasses import replace
from fractions import Fraction

import pytest

from scoring.tournaments.results import TableResult
from scoring.tournaments.victory_points import (
    FIBUR_2_HANDS,
    FIBUR_3_HANDS,
    FIBUR_4_HANDS,
    FIBUR_TABLES,
    MAX_BANDS,
    VPBand,
    VPTable,
    VPTableError,
    VPTableScale,
    fibur_table,
    from_dict,
    line_victory_points,
    to_dict,
    validate,
    victory_points,
)

# (difference, winner's VP) from the printed 3-hand table: 10–10 for 0–50, 11–9 for
# 55–150 … 19–1 for 1255–1500, 20–0 above 1500. Each band's last figure, then the next
# band's first (5 more), then one in the 4 unprinted points between them.
THREE_HANDS = [
    (0, 10),
    (50, 10),
    (55, 11),
    (52, 11),
    (150, 11),
    (155, 12),
    (153, 12),
    (250, 12),
    (255, 13),
    (350, 13),
    (355, 14),
    (500, 14),
    (505, 15),
    (650, 15),
    (655, 16),
    (800, 16),
    (805, 17),
    (1000, 17),
    (1005, 18),
    (1250, 18),
    (1255, 19),
    (1500, 19),
    (1505, 20),
    (1501, 20),
    (9000, 20),
]

# The 4-hand table: 10–10 for 0–100, 11–9 for 105–300, then every 200 up to 1700 (18–2),
# 19–1 for 1705–2000 and 20–0 above 2000.
FOUR_HANDS = [
    (0, 10),
    (100, 10),
    (101, 11),
    (105, 11),
    (300, 11),
    (305, 12),
    (500, 12),
    (505, 13),
    (700, 13),
    (705, 14),
    (900, 14),
    (905, 15),
    (1100, 15),
    (1105, 16),
    (1300, 16),
    (1305, 17),
    (1500, 17),
    (1505, 18),
    (1700, 18),
    (1705, 19),
    (2000, 19),
    (2003, 20),
    (2005, 20),
]


class TestTheFederationsTables:
    """BURRACO-VP, and BURRACO-VP-EDGE: both printed figures belong to their band."""

    def test_the_rules_example_a_3_hand_match_won_by_230(self):
        # 1420 - 1190 = 230, in 155–250: 12–8.
        assert line_victory_points(FIBUR_3_HANDS, 1420, 1190) == (12, 8)

    @pytest.mark.parametrize(("difference", "winner"), THREE_HANDS)
    def test_three_hands_on_and_around_each_edge(self, difference, winner):
        assert victory_points(FIBUR_3_HANDS, difference) == (winner, 20 - winner)

    @pytest.mark.parametrize(("difference", "winner"), FOUR_HANDS)
    def test_four_hands_on_and_around_each_edge(self, difference, winner):
        assert victory_points(FIBUR_4_HANDS, difference) == (winner, 20 - winner)

    @pytest.mark.parametrize(("difference", "winner"), THREE_HANDS)
    def test_a_negative_difference_reads_as_its_size(self, difference, winner):
        assert victory_points(FIBUR_3_HANDS, -difference) == (winner, 20 - winner)

    def test_each_sides_vp_follow_who_scored_more(self):
        # 1200 against 1345: the second pair by 145, 11–9 at 3 hands (55–150).
        assert line_victory_points(FIBUR_3_HANDS, 1200, 1345) == (9, 11)
        assert line_victory_points(FIBUR_3_HANDS, 1345, 1200) == (11, 9)
        # 2100 against 0 at 4 hands: by 2100, above 2000: 20–0.
        assert line_victory_points(FIBUR_4_HANDS, 0, 2100) == (0, 20)
        assert line_victory_points(FIBUR_4_HANDS, 700, 700) == (10, 10)

    def test_the_registry_names_the_three_tables_by_hands(self):
        assert [table.hands for table in FIBUR_TABLES.values()] == [2, 3, 4]
        assert fibur_table(3) is FIBUR_3_HANDS
        with pytest.raises(VPTableError, match="not 5"):
            fibur_table(5)

    def test_the_two_hand_table_says_it_is_no_federation_figure(self):
        assert "unverified" in FIBUR_2_HANDS.name and "FIBur" not in FIBUR_2_HANDS.name
        assert FIBUR_TABLES["house-2-hands"] is FIBUR_2_HANDS
        # 2/3 of the 3-hand edges, to a multiple of 5: 50 → 35, 1500 → 1000.
        assert victory_points(FIBUR_2_HANDS, 35) == (10, 10)
        assert victory_points(FIBUR_2_HANDS, 1000) == (19, 1)
        assert victory_points(FIBUR_2_HANDS, 1005) == (20, 0)

    def test_a_tables_scale_gives_each_pair_its_vp_and_a_bye_its_own(self):
        # NS lost by 160 at 3 hands: 155–250, 12–8 to EW.
        result = TableResult(1, ("ns", "ew"), (2, 1), (Fraction(-160), Fraction(160)))
        scale = VPTableScale(FIBUR_3_HANDS, bye=Fraction(12))
        assert scale.points(result) == (8, 12)
        assert scale.bye == 12


def _with_band(table, number, **changes):
    """Return ``table`` with band ``number`` (1 is the first) changed, unchecked."""
    bands = list(table.bands)
    bands[number - 1] = replace(bands[number - 1], **changes)
    return VPTable(table.name, table.hands, tuple(bands))


class TestTablesRefused:
    def test_a_table_not_starting_at_0(self):
        with pytest.raises(VPTableError, match=r"band 1 \(5–50\): .*starts at a difference of 0"):
            validate(_with_band(FIBUR_3_HANDS, 1, low=5))

    def test_a_gap_between_two_bands(self):
        # 0–50 then 60–150: 55 falls in no band.
        with pytest.raises(VPTableError, match=r"band 2 \(60–150\): a gap after 50"):
            validate(_with_band(FIBUR_3_HANDS, 2, low=60))

    def test_two_bands_overlapping(self):
        with pytest.raises(VPTableError, match=r"band 2 \(50–150\): overlaps"):
            validate(_with_band(FIBUR_3_HANDS, 2, low=50))

    def test_vp_not_going_up(self):
        # Band 3 (155–250) at 11–9, as band 2.
        with pytest.raises(VPTableError, match=r"band 3 \(155–250\): .*go up"):
            validate(_with_band(FIBUR_3_HANDS, 3, winner=11, loser=9))

    def test_a_last_band_with_an_end(self):
        with pytest.raises(VPTableError, match=r"band 11 \(1505–3000\): the last band is open"):
            validate(_with_band(FIBUR_3_HANDS, 11, high=3000))

    def test_an_open_band_before_the_last(self):
        with pytest.raises(VPTableError, match=r"band 3 \(≥ 155\): only the last"):
            validate(_with_band(FIBUR_3_HANDS, 3, high=None))

    def test_vp_not_adding_up_to_20(self):
        with pytest.raises(VPTableError, match=r"band 4 \(255–350\): 13–8 VP do not add up"):
            validate(_with_band(FIBUR_3_HANDS, 4, loser=8))

    def test_vp_outside_0_to_20(self):
        # 21 and -1 add up to 20, but no pair scores 21.
        with pytest.raises(VPTableError, match=r"band 11 \(≥ 1505\): .*not 21"):
            validate(_with_band(FIBUR_3_HANDS, 11, winner=21, loser=-1))

    def test_a_difference_of_0_not_at_10_10(self):
        with pytest.raises(VPTableError, match=r"band 1 \(0–50\): .*10–10, not 11"):
            validate(_with_band(FIBUR_3_HANDS, 1, winner=11, loser=9))

    def test_a_band_ending_below_its_start(self):
        with pytest.raises(VPTableError, match=r"band 2 \(55–40\): ends below"):
            validate(_with_band(FIBUR_3_HANDS, 2, high=40))

    @pytest.mark.parametrize(
        ("band", "changes", "code", "params"),
        [
            (3, {"winner": 11, "loser": 9}, "not_rising", {"winner": 11, "loser": 9, "before": 11}),
            (2, {"low": 60}, "gap", {"end": 50, "expected": 55}),
            (4, {"loser": 8}, "not_twenty", {"winner": 13, "loser": 8}),
            (11, {"high": 3000}, "last_closed", {}),
        ],
    )
    def test_a_fault_names_its_band_and_what_is_wrong_for_a_page_to_say(
        self, band, changes, code, params
    ):
        with pytest.raises(VPTableError) as refused:
            validate(_with_band(FIBUR_3_HANDS, band, **changes))
        fault = refused.value
        assert (fault.band, fault.code, fault.params) == (band, code, params)
        changed = _with_band(FIBUR_3_HANDS, band, **changes).bands[band - 1]
        assert fault.label == changed.label()


class TestTheDirectorsCopy:
    @pytest.mark.parametrize("table", list(FIBUR_TABLES.values()))
    def test_every_federation_table_goes_to_json_and_back(self, table):
        assert from_dict(to_dict(table)) == table

    def test_an_edited_copy_is_read(self):
        data = to_dict(FIBUR_4_HANDS)
        data["name"] = "Club 4 hands"
        # 19–1 up to 2500 instead of 2000: the open 20–0 band then starts at 2505.
        data["bands"][9]["to"] = 2500
        data["bands"][10]["from"] = 2505
        table = from_dict(data)
        assert victory_points(table, 2400) == (19, 1)
        assert victory_points(table, 2505) == (20, 0)

    def test_an_edited_copy_with_a_gap_is_refused_naming_its_band(self):
        data = to_dict(FIBUR_4_HANDS)
        data["bands"][9]["to"] = 2500  # 20–0 still starts at 2005: overlaps 1705–2500
        with pytest.raises(VPTableError, match=r"band 11 \(≥ 2005\): overlaps"):
            from_dict(data)

    def test_too_many_bands_are_refused(self):
        data = to_dict(FIBUR_3_HANDS)
        data["bands"] = [
            {"from": 5 * n, "to": 5 * n, "winner": 10, "loser": 10} for n in range(MAX_BANDS + 1)
        ]
        with pytest.raises(VPTableError, match="1 to 40 bands"):
            from_dict(data)

    @pytest.mark.parametrize(
        ("key", "value", "message"),
        [
            ("from", 10**9, "band 2: from: a whole number from 0 to 100000"),
            ("to", "150", "band 2: to: a whole number"),
            ("winner", True, "band 2: winner: a whole number"),
            ("loser", 9.0, "band 2: loser: a whole number"),
        ],
    )
    def test_a_band_field_of_the_wrong_kind_is_refused(self, key, value, message):
        data = to_dict(FIBUR_3_HANDS)
        data["bands"][1][key] = value
        with pytest.raises(VPTableError, match=message):
            from_dict(data)

    def test_unknown_keys_and_a_bad_shape_are_refused(self):
        with pytest.raises(VPTableError, match="exactly: name, hands, bands"):
            from_dict({**to_dict(FIBUR_3_HANDS), "extra": 1})
        with pytest.raises(VPTableError, match="exactly: from, to, winner, loser"):
            from_dict({**to_dict(FIBUR_3_HANDS), "bands": [{"from": 0}]})
        with pytest.raises(VPTableError, match="hands: a whole number from 1 to 10"):
            from_dict({**to_dict(FIBUR_3_HANDS), "hands": 0})
        with pytest.raises(VPTableError, match="name is text"):
            from_dict({**to_dict(FIBUR_3_HANDS), "name": ""})

    def test_a_one_band_table_is_all_draws(self):
        table = validate(VPTable("Friendly", 3, (VPBand(0, None, 10, 10),)))
        assert victory_points(table, 5000) == (10, 10)

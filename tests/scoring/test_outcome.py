"""Settling a match's result after play: players confirm it, a director decides a table."""

import pytest

from scoring.errors import RuleViolation
from scoring.events import LogEvent
from scoring.replay import replay

CLASSIC_TO_50 = {"variant": "gin", "options": {"preset": "classic", "target": 50}}


def _log(*entries: tuple[str, dict]) -> list[LogEvent]:
    created = LogEvent(1, "table_created", {**CLASSIC_TO_50, "seats": ["Anna", "Bruno"]})
    return [created, *(LogEvent(seq, t, p) for seq, (t, p) in enumerate(entries, start=2))]


def _gin(knocker: int, defender_count: int) -> tuple[str, dict]:
    payload = {
        "mode": "quick",
        "knocker": knocker,
        "ending": "gin",
        "knocker_count": 0,
        "defender_count": defender_count,
    }
    return ("hand_recorded", payload)


# Anna goes gin against 30: 25 + 30 = 55 (GIN-SCORE-GIN), past 50: the match is over.
OVER = _gin(0, 30)


def _refused(*entries) -> RuleViolation:
    with pytest.raises(RuleViolation) as refusal:
        replay(_log(*entries))
    return refusal.value.violations[0]


class TestConfirming:
    def test_each_player_confirms_the_finished_result_once(self):
        state = replay(
            _log(OVER, ("result_confirmed", {"seat": 1}), ("result_confirmed", {"seat": 0}))
        )
        assert state.totals == (55, 0) and state.confirmed == (0, 1)
        assert state.to_dict()["confirmed"] == [0, 1]
        again = _refused(OVER, ("result_confirmed", {"seat": 1}), ("result_confirmed", {"seat": 1}))
        assert (again.code, again.params["name"]) == ("already_confirmed", "Bruno")

    def test_a_result_is_confirmed_only_once_the_match_is_over(self):
        refusal = _refused(_gin(0, 10), ("result_confirmed", {"seat": 0}))
        assert refusal.code == "not_finished"

    def test_a_correction_asks_for_the_confirmations_again(self):
        state = replay(
            _log(
                _gin(1, 10),  # Bruno 35
                OVER,  # Anna 55: over
                ("result_confirmed", {"seat": 0}),
                ("hand_voided", {"hand": 1, "reason": "misdeal"}),
            )
        )
        assert state.totals == (55, 0) and state.confirmed == ()
        assert "confirmed" not in state.to_dict()

    def test_a_seat_must_be_at_the_table(self):
        refusal = _refused(OVER, ("result_confirmed", {"seat": 2}))
        assert (refusal.code, refusal.params["high"]) == ("bad_seat", 1)


class TestDeciding:
    def test_a_lock_closes_a_match_in_play_with_its_totals(self):
        lock = ("table_decided", {"decision": "lock", "reason": "time is up"})
        state = replay(_log(_gin(1, 10), lock))
        # Bruno's 25 + 10 stand; the match did not reach 50 but takes no more hands.
        assert state.totals == (0, 35) and not state.finished and state.closed
        assert state.to_dict()["decision"] == {"kind": "lock", "reason": "time is up", "points": []}
        assert _refused(_gin(1, 10), lock, _gin(0, 5)).code == "decided"
        assert _refused(_gin(1, 10), lock, ("hand_voided", {"hand": 1})).code == "decided"
        assert _refused(OVER, lock, ("result_confirmed", {"seat": 0})).code == "decided"

    def test_a_score_gives_each_seat_its_points_and_a_later_decision_replaces_it(self):
        score = ("table_decided", {"decision": "score", "reason": "dispute", "points": [1, 2]})
        void = ("table_decided", {"decision": "void", "reason": "wrong players"})
        assert replay(_log(OVER, score)).decision.points == (1, 2)
        assert replay(_log(OVER, score, void)).decision.decision == "void"

    @pytest.mark.parametrize(
        ("payload", "code", "field"),
        [
            ({"decision": "lock", "reason": ""}, "no_reason", "reason"),
            ({"decision": "lock", "reason": "x", "points": [1, 1]}, "bad_points", "points"),
            ({"decision": "score", "reason": "x", "points": [1]}, "bad_points", "points"),
            ({"decision": "score", "reason": "x", "points": [1, 101]}, "bad_int", "points[1]"),
            ({"decision": "forfeit", "reason": "x"}, "bad_choice", "decision"),
        ],
    )
    def test_a_malformed_decision_names_what_is_wrong(self, payload, code, field):
        refusal = _refused(OVER, ("table_decided", payload))
        assert (refusal.code, refusal.params["field"]) == (code, field)

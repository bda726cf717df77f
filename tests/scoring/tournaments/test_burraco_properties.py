"""Properties of the Burraco pairs movements over random fields.

- Mitchell, 4 to 40 pairs, every rotation the tables allow: no two pairs meet twice, every
  pair plays or sits out once a round, and nobody sits out twice.
- Danese, up to 10 pairs with random past meetings: a repeat meeting is played only when
  no pairing of the field avoids one (checked against every pairing, by brute force).
- VP: any difference gives VP adding up to 20, never fewer for the winner of a wider win.
"""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.tournaments.danese import danese_round
from scoring.tournaments.mitchell import mitchell_lines, mitchell_tables
from scoring.tournaments.pairs_night import PairsNight, match_result, next_round, night_plan
from scoring.tournaments.victory_points import FIBUR_TABLES, victory_points
from tests.hypothesis_profiles import examples

PROPERTIES = settings(max_examples=examples(60), deadline=None)


@PROPERTIES
@given(st.integers(4, 40))
def test_no_two_pairs_meet_twice_in_the_mitchell_rounds(count):
    lines = mitchell_lines(list(range(count)))
    met: Counter[frozenset] = Counter()
    sat_out: Counter[int] = Counter()
    for rotation in range(1, lines.tables + 1):
        seen = []
        for table in mitchell_tables(lines, rotation):
            pairs = [pair for pair in (table.ns, table.ew) if pair is not None]
            seen += pairs
            if len(pairs) == 2:
                met[frozenset(pairs)] += 1
            else:
                sat_out[pairs[0]] += 1
        assert sorted(seen) == list(range(count))
    assert set(met.values()) == {1}
    assert set(sat_out.values()) <= {1}
    # An even field never sits out; an odd one sits out once a round.
    assert sum(sat_out.values()) == (lines.tables if count % 2 else 0)


@PROPERTIES
@given(st.integers(6, 40), st.data())
def test_a_whole_night_plays_every_planned_round_without_a_mitchell_repeat(count, data):
    rounds = data.draw(st.integers(1, min(3, count // 2)))
    plan = night_plan(f"{rounds} Mitchell + 1 Danese")
    night = PairsNight(pairs=tuple(range(count)), plan=plan, table=FIBUR_TABLES["fibur-3-hands"])
    results, byes = [], []
    for _ in plan:
        pairs_round = next_round(night, results, byes)
        margins = data.draw(st.lists(st.integers(-400, 400).map(lambda m: 5 * m), min_size=40))
        results += [
            match_result(pairs_round.round_number, t.ns, t.ew, 1000 + margins[i], 1000)
            for i, t in enumerate(pairs_round.tables)
        ]
        byes += pairs_round.byes()
    mitchell = [r for r in results if r.round_number <= rounds]
    meetings = Counter(frozenset(r.players) for r in mitchell)
    assert set(meetings.values()) == {1}


def _repeat_free_exists(pairs, met):
    """Whether some pairing of ``pairs`` has no repeat: every pairing tried."""
    if not pairs:
        return True
    first, rest = pairs[0], pairs[1:]
    return any(
        frozenset((first, other)) not in met
        and _repeat_free_exists([p for p in rest if p != other], met)
        for other in rest
    )


@PROPERTIES
@given(st.integers(2, 10), st.data())
def test_danese_repeats_a_meeting_only_when_it_cannot_be_avoided(count, data):
    order = list(range(count))
    everyone = [frozenset((a, b)) for a in order for b in order if a < b]
    met = set(data.draw(st.lists(st.sampled_from(everyone), unique=True)))
    byes_had = data.draw(st.dictionaries(st.sampled_from(order), st.integers(0, 2)))
    pairing = danese_round(order, met, byes_had, round_number=5)
    playing = [pair for table in pairing.tables for pair in table]
    assert sorted(playing + ([pairing.bye] if pairing.bye is not None else [])) == order
    repeats = [table for table in pairing.tables if frozenset(table) in met]
    assert (repeats == []) == _repeat_free_exists(playing, met)
    if pairing.bye is not None:
        fewest = min(byes_had.get(pair, 0) for pair in order)
        assert byes_had.get(pairing.bye, 0) == fewest
        assert all(byes_had.get(pair, 0) > fewest for pair in order if pair > pairing.bye)


@PROPERTIES
@given(st.sampled_from(list(FIBUR_TABLES.values())), st.integers(0, 5000), st.integers(0, 500))
def test_vp_add_up_to_20_and_a_wider_win_never_scores_less(table, difference, more):
    winner, loser = victory_points(table, difference)
    assert winner + loser == 20
    assert 10 <= winner <= 20
    assert victory_points(table, difference + more)[0] >= winner

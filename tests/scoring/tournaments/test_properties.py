"""Properties of the pairing engine over random fields of 4 to 64 players."""

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.tournaments.bracket import first_round
from scoring.tournaments.ranking import tournament_standings
from scoring.tournaments.results import Bye, ByPlace, TableResult, WinDrawLoss
from scoring.tournaments.round_robin import round_robin
from scoring.tournaments.seating import met_counts, seat_round
from scoring.tournaments.swiss import swiss_round
from tests.hypothesis_profiles import examples

PROPERTIES = settings(max_examples=examples(30), deadline=None)
WDL = WinDrawLoss()


def _play(pairing, outcomes):
    """Results for a pairing's tables: a draw, or a win for either, by a margin."""
    results = []
    for table in pairing.tables:
        kind, margin = (
            outcomes.draw(st.sampled_from(["first", "second", "draw"])),
            outcomes.draw(st.integers(1, 200)),
        )
        places = {"first": (1, 2), "second": (2, 1), "draw": (1, 1)}[kind]
        signed = {"first": margin, "second": -margin, "draw": 0}[kind]
        results.append(
            TableResult(
                round_number=pairing.round_number,
                players=table,
                places=places,
                margins=(Fraction(signed), Fraction(-signed)),
            )
        )
    return results


@PROPERTIES
@given(size=st.integers(4, 64), seed=st.integers(0, 10_000), data=st.data())
def test_swiss_seats_everyone_once_without_an_avoidable_rematch(size, seed, data):
    players = list(range(size))
    paired = size - size % 2
    # Until a player has met half the others, a round with no rematch exists (the pairs not
    # yet met form a graph of degree at least half its size, which has a perfect matching).
    rounds = min(6, paired // 2 - 1) if paired >= 4 else 1
    results, byes = [], []
    for number in range(1, rounds + 1):
        pairing = swiss_round(players, results, byes, WDL, round_number=number, seed=seed)
        assert sorted(pairing.players) == players
        assert all(len(table) == 2 for table in pairing.tables)
        met = {frozenset(r.players) for r in results}
        assert not [t for t in pairing.tables if frozenset(t) in met]
        assert swiss_round(players, results, byes, WDL, round_number=number, seed=seed) == pairing
        if pairing.bye is not None:
            had = {b.player for b in byes}
            # Nobody has a second bye while somebody has had none.
            assert pairing.bye not in had or had >= set(players)
            byes.append(Bye(round_number=number, player=pairing.bye))
        results += _play(pairing, data)


@PROPERTIES
@given(size=st.integers(5, 21).filter(lambda n: n % 2), seed=st.integers(0, 1000), data=st.data())
def test_in_an_odd_field_the_bye_goes_round_before_anyone_has_two(size, seed, data):
    players = list(range(size))
    results, byes = [], []
    for number in range(1, size + 1):
        pairing = swiss_round(players, results, byes, WDL, round_number=number, seed=seed)
        byes.append(Bye(round_number=number, player=pairing.bye))
        results += _play(pairing, data)
    assert sorted(b.player for b in byes) == players


@PROPERTIES
@given(
    size=st.integers(6, 64),
    table=st.integers(3, 6),
    seed=st.integers(0, 1000),
    rounds=st.integers(1, 3),
)
def test_seating_puts_everyone_at_one_table_of_an_allowed_size(size, table, seed, rounds):
    players = list(range(size))
    results = []
    for number in range(1, rounds + 1):
        met = met_counts(results)
        pairing = seat_round(
            players, met, round_number=number, size=table, smallest=3, largest=6, seed=seed
        )
        assert sorted(pairing.players) == sorted(players)
        assert all(3 <= len(t) <= 6 for t in pairing.tables)
        assert max(len(t) for t in pairing.tables) - min(len(t) for t in pairing.tables) <= 1
        again = seat_round(
            players, met, round_number=number, size=table, smallest=3, largest=6, seed=seed
        )
        assert again == pairing
        for seated in pairing.tables:
            places = tuple(range(1, len(seated) + 1))
            results.append(
                TableResult(
                    round_number=number,
                    players=seated,
                    places=places,
                    margins=tuple(Fraction(0) for _ in seated),
                )
            )
        players = players[seed % size :] + players[: seed % size]  # the standings move


@PROPERTIES
@given(size=st.integers(4, 64))
def test_a_bracket_seats_everyone_once_and_gives_the_byes_to_the_top_seeds(size):
    seeds = [f"s{n}" for n in range(1, size + 1)]
    matches = first_round(seeds)
    places = len(matches) * 2
    assert places >= size > places // 2
    seated = [p for match in matches for p in match if p is not None]
    assert sorted(seated) == sorted(seeds)
    bye_takers = [a or b for a, b in matches if a is None or b is None]
    assert sorted(bye_takers, key=seeds.index) == seeds[: places - size]
    # Seeds 1 and 2 sit in opposite halves: they can meet only in the final.
    half = len(matches) // 2
    top = [p for match in matches[:half] for p in match]
    assert ("s1" in top) != ("s2" in top)


@PROPERTIES
@given(size=st.integers(2, 24))
def test_a_round_robin_meets_every_pair_exactly_once(size):
    players = list(range(size))
    rounds = round_robin(players)
    meetings = [frozenset(t) for pairing in rounds for t in pairing.tables]
    assert sorted(meetings, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(players, 2)), key=sorted
    )
    for pairing in rounds:
        assert len(set(pairing.players)) == len(pairing.players)


@PROPERTIES
@given(size=st.integers(4, 30), seed=st.integers(0, 1000), data=st.data())
def test_standings_rank_by_victory_points_first(size, seed, data):
    players = list(range(size))
    results = []
    for number in range(1, 4):
        pairing = seat_round(
            players,
            met_counts(results),
            round_number=number,
            size=4,
            smallest=3,
            largest=5,
            seed=seed,
        )
        for seated in pairing.tables:
            order = data.draw(st.permutations(range(1, len(seated) + 1)))
            results.append(
                TableResult(
                    round_number=number,
                    players=seated,
                    places=tuple(order),
                    margins=tuple(Fraction(10 * (len(seated) - 2 * p + 1)) for p in order),
                )
            )
    rows = tournament_standings(players, results, [], ByPlace())
    assert sorted(row.player for row in rows) == players
    assert [row.victory_points for row in rows] == sorted(
        (row.victory_points for row in rows), reverse=True
    )
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    assert sum(row.victory_points for row in rows) == sum(
        sum(ByPlace().places[: len(r.players)]) for r in results
    )

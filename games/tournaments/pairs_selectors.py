"""Reads of a pairs night (Burraco): its VP table, the night the engine pairs, each round's
tables, and the players a pair seats.

A pairs night's entrants are pairs (``Entrant.number``, two ``PairMember`` each). At one of
its tables, ``RoundSeat.seat`` is the side the pair sits on: 0 North–South (the table's
seats 0 and 2), 1 East–West (seats 1 and 3), as the game's ``teams`` seats partners across.
"""

from collections.abc import Collection, Sequence
from fractions import Fraction

from games.tournaments.models import Entrant, Tournament
from scoring.tournaments.pairs_night import PairsNight, PairsRound, night_plan, night_round
from scoring.tournaments.results import Bye, TableResult
from scoring.tournaments.victory_points import VPTable, VPTableScale, from_dict
from scoring.variants import game_get


def is_pairs(tournament: Tournament) -> bool:
    """Tell whether the night's entrants are pairs."""
    return tournament.format == Tournament.Format.PAIRS


def vp_table(*, tournament: Tournament) -> VPTable:
    """Return the night's VP table, as pinned when it was created (checked again)."""
    return from_dict(tournament.vp_table)


def pairs_scale(*, tournament: Tournament) -> VPTableScale:
    """Return how the night's results become VP: its table, and its VP for a bye."""
    return VPTableScale(table=vp_table(tournament=tournament), bye=Fraction(tournament.bye_points))


def pairs_in_order(*, tournament: Tournament) -> list[Entrant]:
    """Return the night's pairs by number, with their players."""
    return list(
        tournament.entrants.filter(number__isnull=False)
        .prefetch_related("members__player")
        .order_by("number")
    )


def pairs_night(*, tournament: Tournament) -> PairsNight | None:
    """Return the night as the engine pairs it: the field the first round drew (pairs by
    number, which seats the Mitchell lines), its plan, its VP table and its bye's VP; None
    before the first round."""
    if not tournament.field:
        return None
    return PairsNight(
        pairs=tuple(tournament.field),
        plan=night_plan(tournament.plan),
        table=vp_table(tournament=tournament),
        bye_vp=Fraction(tournament.bye_points),
    )


def pairs_round(
    *,
    tournament: Tournament,
    number: int,
    results: Sequence[TableResult],
    byes: Sequence[Bye],
    present: Collection[int],
) -> PairsRound:
    """Return round ``number`` of the night from the results so far; the field's pairs
    not ``present`` (withdrawn, or checked out) are paired no more."""
    night = pairs_night(tournament=tournament)
    if night is None:
        raise ValueError("the field is drawn at the first round")
    withdrawn = [pair for pair in night.pairs if pair not in set(present)]
    return night_round(night, results, byes, round_number=number, withdrawn=withdrawn)


def table_players(*, tournament: Tournament, seated: Sequence[Entrant]) -> list:
    """Return the players of a table of two pairs seat by seat, each pair on its side's
    seats as the game seats partners (Burraco: the first pair at seats 0 and 2,
    North–South; the second at 1 and 3, East–West)."""
    sides = side_seats(tournament=tournament)
    players: list = [None] * sum(len(seats) for seats in sides)
    for pair, seats in zip(seated, sides, strict=True):
        for seat, member in zip(seats, pair.members.all(), strict=True):
            players[seat] = member.player
    return players


def side_seats(*, tournament: Tournament) -> tuple[tuple[int, ...], ...]:
    """Return the table seats of each side at the night's tables (North–South first)."""
    return game_get(tournament.variant).teams(tournament.league.players)


def seat_of_side(*, tournament: Tournament, side: int) -> int:
    """Return the seat a pair's total is kept at: its side's first (partners carry one
    score, so the director adjusts a pair there)."""
    sides = side_seats(tournament=tournament)
    if not 0 <= side < len(sides):
        raise ValueError(f"a pairs table has {len(sides)} sides, not a side {side}")
    return sides[side][0]


def by_seat(*, tournament: Tournament, values: Sequence[int]) -> list[int]:
    """Return one value a side (the VP a director gives each pair) as one value a seat:
    both partners carry their pair's."""
    side_of = {
        seat: side for side, seats in enumerate(side_seats(tournament=tournament)) for seat in seats
    }
    return [values[side_of[seat]] for seat in sorted(side_of)]

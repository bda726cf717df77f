"""How a night's next round is paired, by its format, from the results so far: the
round's tables (entrants in seat order), their numbers, and a schedule or bracket drawn once
at the first round. Read-only but for the night's field, which the first round fixes."""

from django.utils.translation import gettext, ngettext

from games.shared.errors import ActionRefused
from games.tournaments import pairs_selectors, selectors
from games.tournaments.models import MAX_ROUNDS, Tournament
from scoring.tournaments.pairs_night import MITCHELL, night_plan
from scoring.tournaments.ranking import points_so_far
from scoring.tournaments.round_robin import round_among, round_robin
from scoring.tournaments.seating import met_counts, seat_round
from scoring.tournaments.swiss import Pairing, standing_order, swiss_round
from scoring.variants import game_get


def next_pairing(tournament: Tournament, number: int, entrants: dict, found):
    """Return round ``number``'s pairing of ``entrants`` (by id: those paired) and its
    tables' numbers."""
    if tournament.format == Tournament.Format.KNOCKOUT:
        return _knockout(tournament, number, entrants, found)
    if pairs_selectors.is_pairs(tournament):
        return _pairs_round(tournament, number, entrants, found)
    pairing = _by_standings(tournament, number, entrants, found)
    return pairing, range(1, len(pairing.tables) + 1)


def _by_standings(tournament: Tournament, number: int, entrants: dict, found) -> Pairing:
    """Pair round ``number`` of the night's format from the results so far."""
    players, scale = list(entrants), selectors.scale(tournament)
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        # The schedule is the first round's field, fixed: a player who withdrew since
        # leaves their opponent without a table that round, on a bye's points instead.
        schedule = round_robin(tournament.field or selectors.drawn_field(tournament=tournament))
        if number > len(schedule):
            raise ActionRefused(gettext("Everyone has met everyone: the round robin is over."))
        return round_among(schedule[number - 1], entrants)
    if tournament.format == Tournament.Format.TABLES:
        low, high = game_get(tournament.variant).players
        order = standing_order(players, found.results, found.byes, scale, seed=tournament.seed)
        try:
            return seat_round(
                order,
                met_counts(found.results),
                round_number=number,
                size=tournament.league.players,
                smallest=max(low, 3),
                largest=high,
                seed=tournament.seed,
                points=points_so_far(found.results, found.byes, scale),
                apart=selectors.apart_pairs(tournament=tournament),
            )
        except ValueError:
            raise ActionRefused(gettext("Too few players to seat at this game's tables.")) from None
    return swiss_round(
        players,
        found.results,
        found.byes,
        scale,
        round_number=number,
        seed=tournament.seed,
        apart=selectors.apart_pairs(tournament=tournament),
    )


def _knockout(tournament: Tournament, number: int, entrants: dict, found):
    """Return the bracket's round ``number`` and its matches' numbers: a table for each
    match of two players still in; a bye, or a walkover against a player who has left,
    gets none."""
    rounds = selectors.knockout_rounds(tournament=tournament, found=found)
    if len(rounds) < number:
        level = selectors.knockout_blocking(tournament=tournament, found=found)
        raise ActionRefused(
            ngettext(
                "Table %(tables)s of round %(round)s has no winner yet: when it is over, or "
                "if it ended level, score it from its Decide form (NIGHT-KO-DRAW).",
                "Tables %(tables)s of round %(round)s have no winner yet: when they are over, "
                "or if they ended level, score them from their Decide forms (NIGHT-KO-DRAW).",
                len(level),
            )
            % {"tables": ", ".join(str(number) for number in level), "round": len(rounds)}
        )
    matches = rounds[number - 1]
    if not matches:
        raise ActionRefused(gettext("The knock-out has its winner."))
    played = [(index + 1, m) for index, m in enumerate(matches) if all(p in entrants for p in m)]
    pairing = Pairing(round_number=number, tables=tuple(m for _n, m in played))
    return pairing, [n for n, _m in played]


def _pairs_round(tournament: Tournament, number: int, entrants: dict, found):
    """Return a pairs night's round ``number`` by its plan (the engine's ``night_round``)
    and its tables' numbers (a Mitchell's rest table has none); at the first, draw the
    field: the pairs checked in, by number."""
    if number == 1:
        numbered = sorted(entrants.values(), key=lambda pair: pair.number)
        tournament.field = [pair.pk for pair in numbered]
        tables, mitchell = (len(numbered) + 1) // 2, night_plan(tournament.plan).count(MITCHELL)
        if mitchell > tables:
            raise ActionRefused(
                gettext(
                    "%(pairs)d pairs sit at %(tables)d tables: that makes at most %(tables)d "
                    "Mitchell rounds, and the plan has %(mitchell)d."
                )
                % {"pairs": len(numbered), "tables": tables, "mitchell": mitchell}
            )
    try:
        played = pairs_selectors.pairs_round(
            tournament=tournament,
            number=number,
            results=found.results,
            byes=found.byes,
            present=entrants,
        )
    except ValueError as exc:
        raise ActionRefused(
            gettext("These pairs cannot play this night's plan: %(why)s") % {"why": exc}
        ) from None
    return played.pairing(), [table.table for table in played.tables]


def draw_schedule(tournament: Tournament) -> None:
    """At a round robin's or a knock-out's first round, draw its schedule or bracket from
    the field (``Tournament.field``), once, and set the number of rounds by it; a pairs
    night's field is its pairs by number (their Mitchell lines), its rounds its plan's."""
    if pairs_selectors.is_pairs(tournament):
        return  # drawn before its first round is paired (``_pairs_round``)
    if tournament.format not in (Tournament.Format.ROUND_ROBIN, Tournament.Format.KNOCKOUT):
        return
    # Everyone meets everyone once; a round halves the field until one is left.
    tournament.field = selectors.drawn_field(tournament=tournament)
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        tournament.rounds = min(len(round_robin(tournament.field)), MAX_ROUNDS)
    else:
        tournament.rounds = max(1, (len(tournament.field) - 1).bit_length())

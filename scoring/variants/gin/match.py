"""A Gin match (docs/rules.md): the race to the target (GIN-MATCH) and American scoring's
bonuses when a game ends (GIN-GAME, GIN-BOX, GIN-SHUTOUT), on one sheet or, in Hollywood
(GIN-HOLLYWOOD), on three games at once.

The hands' own scores are scoring/variants/gin/scores.py's; this module only adds them up.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.errors import RuleViolation, Violation
from scoring.hands import GameScore, MatchOutcome, ScoreItem, best_seats, running_totals
from scoring.variants.gin.options import (
    HOLLYWOOD_GAMES,
    SHUTOUT_BOTH,
    SHUTOUT_GAME_BONUS,
    SHUTOUT_HAND_POINTS,
    GinOptions,
)
from scoring.variants.gin.scores import GinHandResult, match_winner

SEATS = 2


def _match_over(hand: int) -> RuleViolation:
    # An amendment made an earlier hand end the match: the hands after it were never part of
    # the match, so the amendment is refused.
    return RuleViolation(
        Violation(
            rule="GIN-MATCH",
            code="match_over",
            message="The match is over; no more hands can be recorded.",
            params={"hand": hand},
        )
    )


def game_end_items(
    options: GinOptions,
    points: Sequence[int],
    wins: Sequence[int],
    reached: int,
    game: int | None = None,
) -> list[ScoreItem]:
    """Return the bonuses of a game that ``reached`` took to the target, given each seat's
    hand points and hands won in it: the game bonus (GIN-GAME), each seat's boxes (GIN-BOX)
    and the shutout (GIN-SHUTOUT). ``game`` numbers a Hollywood game's items."""
    where = {} if game is None else {"game": game}
    items = []
    if options.game_bonus:
        items.append(
            ScoreItem(
                "GIN-GAME",
                reached,
                options.game_bonus,
                {"target": options.target, **where},
                code="bonus",
            )
        )
    if options.box_bonus:
        items += [
            ScoreItem(
                "GIN-BOX",
                seat,
                options.box_bonus * won,
                {"hands": won, "bonus": options.box_bonus, **where},
                code="bonus",
            )
            for seat, won in enumerate(wins)
            if won
        ]
    if options.shutout and points[1 - reached] == 0:
        # The loser scored nothing: what the table's reading doubles counts twice, the boxes
        # once (docs/rules.md, GIN-SHUTOUT).
        doubled = _shutout_doubled(options, points[reached])
        items.append(
            ScoreItem(
                "GIN-SHUTOUT",
                reached,
                sum(doubled.values()),
                {**doubled, **where},
                code=SHUTOUT_CODES[options.shutout_doubles],
            )
        )
    return items


# The shutout item's code says what it doubles, so its line on the pages says it too.
SHUTOUT_CODES = {
    SHUTOUT_BOTH: "double",
    SHUTOUT_GAME_BONUS: "double_game_bonus",
    SHUTOUT_HAND_POINTS: "double_hand_points",
}


def _shutout_doubled(options: GinOptions, hand_points: int) -> dict[str, int]:
    """Return what a shutout counts a second time, by the table's reading (GIN-SHUTOUT)."""
    doubled = {"points": hand_points, "game_bonus": options.game_bonus}
    if options.shutout_doubles == SHUTOUT_GAME_BONUS:
        doubled["points"] = 0
    elif options.shutout_doubles == SHUTOUT_HAND_POINTS:
        doubled["game_bonus"] = 0
    return doubled


def _with_items(points: Sequence[int], items: Sequence[ScoreItem]) -> tuple[int, ...]:
    totals = list(points)
    for item in items:
        totals[item.seat] += item.points
    return tuple(totals)


def _hands_won(results: Sequence[GinHandResult]) -> list[int]:
    wins = [0] * SEATS
    for result in results:
        if result.winner is not None:
            wins[result.winner] += 1
    return wins


def match_result(options: GinOptions, results: Sequence[GinHandResult]) -> MatchOutcome:
    """Stop at the first hand after which a total reached the target (GIN-MATCH), then add
    the game's bonuses; the match goes to the higher total after them (a tie shares it).
    Hollywood scores three games at once (GIN-HOLLYWOOD)."""
    if options.hollywood:
        return _hollywood(options, results)
    totals_after = running_totals(results)
    for index, totals in enumerate(totals_after):
        reached = match_winner(options, totals)
        if reached is None:
            continue
        if index + 1 < len(results):
            raise _match_over(index + 1)
        if not options.match_bonuses:
            return MatchOutcome(finished=True, hands=index + 1, totals=totals, winners=(reached,))
        items = game_end_items(options, totals, _hands_won(results), reached)
        final = _with_items(totals, items)
        return MatchOutcome(
            finished=True,
            hands=index + 1,
            totals=final,
            items=tuple(items),
            winners=best_seats(final, lowest=False),
        )
    totals = totals_after[-1] if totals_after else (0,) * SEATS
    return MatchOutcome(finished=False, hands=len(results), totals=totals)


def _hollywood(options: GinOptions, results: Sequence[GinHandResult]) -> MatchOutcome:
    """Score the hands into three games (GIN-HOLLYWOOD).

    Each hand won opens one more game for its winner, the first still open that they have
    not scored in, and scores in every open game they have opened: so a player's first win
    scores in game 1, the second in games 1 and 2, the rest in all three; a game over takes
    nothing more, and a player shut out of a game opens the next one with their next win.
    Each game ends when a total in it reaches the target, with its own bonuses.
    """
    points = [[0] * SEATS for _ in range(HOLLYWOOD_GAMES)]
    wins = [[0] * SEATS for _ in range(HOLLYWOOD_GAMES)]
    opened: list[set[int]] = [set() for _ in range(SEATS)]
    ended = [0] * HOLLYWOOD_GAMES  # the hand after which each game ended; 0 while open
    reached: list[int | None] = [None] * HOLLYWOOD_GAMES
    for index, result in enumerate(results):
        if all(ended):
            raise _match_over(max(ended))
        seat = result.winner
        if seat is None:
            continue
        still_open = [game for game in range(HOLLYWOOD_GAMES) if not ended[game]]
        scored_in = [game for game in still_open if game in opened[seat]]
        new = next((game for game in still_open if game not in opened[seat]), None)
        if new is not None:
            opened[seat].add(new)
            scored_in.append(new)
        for game in scored_in:
            points[game][seat] += result.points[seat]
            wins[game][seat] += 1
            if points[game][seat] >= options.target:
                ended[game], reached[game] = index + 1, seat
    games, items = _hollywood_games(options, points, wins, ended, reached)
    totals = tuple(sum(game.totals[seat] for game in games) for seat in range(SEATS))
    finished = all(ended)
    return MatchOutcome(
        finished=finished,
        hands=len(results),
        totals=totals,
        items=tuple(items),
        winners=best_seats(totals, lowest=False) if finished else (),
        games=tuple(games),
    )


def _hollywood_games(
    options: GinOptions,
    points: list[list[int]],
    wins: list[list[int]],
    ended: list[int],
    reached: list[int | None],
) -> tuple[list[GameScore], list[ScoreItem]]:
    """Return each Hollywood game's score with its own end bonuses, and those bonuses."""
    items: list[ScoreItem] = []
    games = []
    for game in range(HOLLYWOOD_GAMES):
        winner = reached[game]
        own = (
            []
            if winner is None
            else game_end_items(options, points[game], wins[game], winner, game=game + 1)
        )
        items += own
        totals = _with_items(points[game], own)
        best = best_seats(totals, lowest=False)
        games.append(
            GameScore(
                number=game + 1,
                totals=totals,
                finished=winner is not None,
                winner=best[0] if winner is not None and len(best) == 1 else None,
                hands=ended[game],
            )
        )
    return games, items

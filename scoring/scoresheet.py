"""What Rummy40, Ramino and Knock Rummy share: the checks of every seat's end of hand.

Each game module checks the end state against its own rules and cites them; this module
only holds the checks whose rule and wording the caller gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from scoring.cards import DeckSpec, check_copies
from scoring.errors import RuleViolation
from scoring.errors import refusal as _refuse
from scoring.hands import PlayerEnd, names
from scoring.options import is_int, json_value


def copies_refusals(players: Sequence[PlayerEnd], deck: DeckSpec) -> list[RuleViolation]:
    """Return the CARD-2 refusal for cards shown more often than the decks hold, if any."""
    try:
        check_copies((card for p in players for card in (*p.hand, *p.melded)), deck)
    except RuleViolation as exc:
        return [exc]
    return []


# The rule and the wording are the caller's, so the catalog test in tests/games, which finds
# verdicts by their literal _refuse("RULE", "code", ...) calls, cannot see the pairs these
# build: (R40-END, flag_not_used), (R40-HAND, cards_left), (R40-HAND, empty_hand),
# (RAM-OUT, flag_not_used), (RAM-OUT, cards_left), (RAM-OUT, empty_hand),
# (KR-SCORE, flag_not_used), (KR-OUT, cards_left), (KR-OUT, empty_hand). Each already has
# its sentence in games/rule_text.py MESSAGES; a new caller must add its own there.
# The quick entry by points adds (R40-HAND, points_left), (RAM-OUT, points_left) and
# (KR-OUT, points_left), params {player, count}: these still need their sentences there.
def player_count(players: object, choices: Sequence[int], *, rule: str, game: str) -> int:
    """Return the number of players if the game is played by that many, else refuse it.

    The rule is the game's setup rule (R40-SETUP, RAM-SETUP, KR-SETUP); its (rule, "players")
    sentences are in games/rule_text.py, which the catalog scan cannot see through ``rule``.
    """
    if is_int(players) and players in choices:
        return players
    low, high = choices[0], choices[-1]
    allowed = f"{low} or {high}" if len(choices) == 2 else f"{low} to {high}"
    raise _refuse(
        rule,
        "players",
        f"{game} is for {allowed} players, not {players!r}.",
        count=json_value(players),
        min=low,
        max=high,
        choices=list(choices),
    )


def end_state_problems(
    players: Sequence[PlayerEnd],
    *,
    game_name: str,
    flag_rule: str,
    used_flags: Iterable[str],
    out_rule: str,
    cards_left_message: str,
    empty_hand_message: str,
    extra: Callable[[PlayerEnd], Iterable[RuleViolation]] | None = None,
    worthless_cards: bool = False,
) -> list[RuleViolation]:
    """Return the refusals of each player's end state, player by player, in seat order.

    A player may carry only the flags in ``used_flags`` (``flag_rule``), holds no card after
    going out and goes out on holding none (``out_rule``). ``game_name`` ends the flag
    sentence ("a Rummy40 hand"); the two messages take ``{player}``. ``extra`` gives a
    variant's own refusals of a player, listed after that player's shared ones.

    A hand entered by points is empty when worth 0: a player out holding more is refused
    as ``points_left``, and one not out holding 0 as ``empty_hand``, unless
    ``worthless_cards`` says some card is worth 0 (Ramino casino jokers), when 0 may be a
    hand of them.
    """
    used_flags = tuple(used_flags)
    problems: list[RuleViolation] = []
    for player in players:
        problems += [
            _refuse(
                flag_rule,
                "flag_not_used",
                f"{player.name} is marked {flag!r}, which {game_name} does not have.",
                player=player.name,
                flag=flag,
            )
            for flag in player.flags_set()
            if flag not in used_flags
        ]
        if player.by_points and player.went_out and player.points:
            problems.append(
                _refuse(
                    out_rule,
                    "points_left",
                    f"{player.name} went out, so their hand is worth 0, not {player.points}.",
                    player=player.name,
                    count=player.points,
                )
            )
        if player.went_out and player.hand:
            problems.append(
                _refuse(
                    out_rule,
                    "cards_left",
                    cards_left_message.format(player=player.name),
                    player=player.name,
                    cards=names(player.hand),
                )
            )
        # By points, 0 is an empty hand unless some card is worth 0.
        empty = player.points == 0 and not worthless_cards if player.by_points else not player.hand
        if not player.went_out and empty:
            problems.append(
                _refuse(
                    out_rule,
                    "empty_hand",
                    empty_hand_message.format(player=player.name),
                    player=player.name,
                )
            )
        if extra is not None:
            problems += extra(player)
    return problems


def all_violations(refusals: Iterable[RuleViolation]) -> None:
    """Raise one RuleViolation holding every violation of the refusals, if there are any."""
    violations = [violation for refusal in refusals for violation in refusal.violations]
    if violations:
        raise RuleViolation(*violations)

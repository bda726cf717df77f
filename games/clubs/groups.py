"""Groups: circles of players without a club (a family, friends, a bar's regulars).

Writes go through the services below, reads through the selectors at the end. A group's
players are the same ``Player`` at every table of the group, as a club's roster is at the
club's tables, so history and stats follow the person, whatever they are called later.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.clubs.models import Group, Player
from games.clubs.services import clean_name
from scoring.variants import GAMES

# A group is people around one table, week after week: 40 covers a large family or a bar's
# regulars, and keeps the seat picker one screen of names.
MAX_GROUP_PLAYERS = 40
NAME_MAX = Player._meta.get_field("name").max_length


def _name_taken(name: str) -> ValidationError:
    return ValidationError(
        gettext("The group already has a player called %(name)s.") % {"name": name},
        code="name_taken",
    )


def _clash(group: Group, name: str, *, but: int | None = None) -> bool:
    # Folded in Python: SQLite's LOWER knows only ASCII, and "NICOLÒ" is "nicolò".
    folded = name.casefold()
    others = group.players.exclude(pk=but) if but else group.players.all()
    return any(other.casefold() == folded for other in others.values_list("name", flat=True))


def _player_names(names: Sequence[str]) -> list[str]:
    """Return the names cleaned, refusing blanks, repeats and more than the group holds."""
    cleaned = [clean_name(name, max_length=NAME_MAX) for name in names if str(name).strip()]
    seen: set[str] = set()
    for name in cleaned:
        if name.casefold() in seen:
            raise ValidationError(
                gettext("%(name)s is in the list twice.") % {"name": name}, code="name_repeated"
            )
        seen.add(name.casefold())
    if len(cleaned) > MAX_GROUP_PLAYERS:
        raise ValidationError(
            gettext("A group has at most %(max)d players.") % {"max": MAX_GROUP_PLAYERS},
            code="too_many_players",
        )
    return cleaned


@transaction.atomic
def group_create(
    *, name: str, players: Sequence[str], variant: str, options: dict[str, Any], user=None
) -> Group:
    """Make a group with its players and the game its tables offer first.

    The group's two keys live on the returned instance only (``member_key``,
    ``viewer_key``): the caller gives the member key's role to the browser that made it.
    """
    name = clean_name(name, max_length=Group._meta.get_field("name").max_length)
    names = _player_names(players)
    if variant not in GAMES:
        raise ValidationError(gettext("Choose a game."), code="variant")
    group = Group.objects.create(
        name=name,
        variant=variant,
        options=dict(options),
        created_by=user if user is not None and user.is_authenticated else None,
    )
    Player.objects.bulk_create([Player(group=group, name=player) for player in names])
    return group


def group_defaults_set(*, group_id: int, variant: str, options: dict[str, Any]) -> Group:
    """Change the game and options a group's next table offers first."""
    if variant not in GAMES:
        raise ValidationError(gettext("Choose a game."), code="variant")
    group = Group.objects.get(pk=group_id)
    group.variant, group.options = variant, dict(options)
    group.save(update_fields=["variant", "options"])
    return group


@transaction.atomic
def group_player_add(*, group_id: int, name: str) -> Player:
    """Add a player to a group, refusing a name it has (whatever the capitals) or a 41st."""
    group = Group.objects.select_for_update().get(pk=group_id)
    name = clean_name(name, max_length=NAME_MAX)
    if group.players.count() >= MAX_GROUP_PLAYERS:
        raise ValidationError(
            gettext("A group has at most %(max)d players.") % {"max": MAX_GROUP_PLAYERS},
            code="too_many_players",
        )
    if _clash(group, name):
        raise _name_taken(name)
    try:
        with transaction.atomic():
            return Player.objects.create(group=group, name=name)
    except IntegrityError:
        raise _name_taken(name) from None


@transaction.atomic
def group_player_rename(*, group_id: int, player_id: int, name: str) -> Player:
    """Rename a group's player: every table they sat at shows the new name (the seats point
    at the player; the logs keep the name typed then)."""
    player = Player.objects.select_for_update().get(pk=player_id, group_id=group_id)
    name = clean_name(name, max_length=NAME_MAX)
    if _clash(player.group, name, but=player.pk):
        raise _name_taken(name)
    player.name = name
    try:
        with transaction.atomic():
            player.save(update_fields=["name"])
    except IntegrityError:
        raise _name_taken(name) from None
    return player


def group_player_retire(*, group_id: int, player_id: int, retired: bool = True) -> Player:
    """Retire a group's player (no longer offered for new tables, history kept), or bring
    them back."""
    player = Player.objects.get(pk=player_id, group_id=group_id)
    player.retired_at = timezone.now() if retired else None
    player.save(update_fields=["retired_at"])
    return player


# Selectors ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GroupPlayers:
    """A group's players for its page: those offered for new tables, then the retired."""

    active: list[Player]
    retired: list[Player]


def group_players(*, group: Group) -> GroupPlayers:
    """Return the group's players, each list by name."""
    players = sorted(group.players.all(), key=lambda p: p.name.casefold())
    return GroupPlayers(
        active=[p for p in players if p.retired_at is None],
        retired=[p for p in players if p.retired_at is not None],
    )

"""A finished match's result, shared on a public page of its own (``SharedResult``).

Sharing is opt-in per match: a scorekeeper of the table asks for it once the match is over,
and may revoke it. The page's address is its only credential and opens nothing else: what
the page reads (``SharedMatch``) is the seats' names, the totals, the winner and each hand's
points, never the table's id, keys, join tokens, log or who entered what.
"""

import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max, Min
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.shared.errors import ActionRefused
from games.shared.models import game_label
from games.tables.access import Role, table_role
from games.tables.models import SharedResult, Table
from games.tables.selectors import table_state
from scoring.variants import GAMES

# 24 random bytes: 32 URL-safe characters, 192 bits, unguessable by any number of tries.
TOKEN_BYTES = 24
# What a token can be: token_urlsafe's alphabet, at most the column's width. Anything else
# names no share and is refused before any query, so an address padded to any length, or
# with a NUL (which PostgreSQL refuses in a string), costs nothing.
TOKEN_MAX = SharedResult._meta.get_field("token").max_length
TOKEN_SHAPE = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_MAX}}}")


def _scorekeeper_only(table: Table, digests: Iterable[str], user) -> None:
    if table_role(table, digests=digests, user=user) != Role.SCOREKEEPER:
        raise ActionRefused(gettext("Only the table's scorekeepers can share its result."))


@transaction.atomic
def result_share(*, table: Table, digests: Iterable[str], user=None) -> SharedResult:
    """Return the finished match's live share, made now if it has none."""
    _scorekeeper_only(table, digests, user)
    # The row lock makes two phones that tap at once get the same address, not a refusal
    # of the second by the one-live-share constraint.
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status != Table.Status.FINISHED:
        raise ActionRefused(gettext("A result can be shared once the match is over."))
    live = table.shares.filter(revoked_at__isnull=True).first()
    if live is not None:
        return live
    return SharedResult.objects.create(table=table, token=secrets.token_urlsafe(TOKEN_BYTES))


def result_share_revoke(*, table: Table, digests: Iterable[str], user=None) -> int:
    """Revoke the table's live share, so its address answers 404; return how many were."""
    _scorekeeper_only(table, digests, user)
    return table.shares.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


def live_share(*, table: Table, digests: Iterable[str], user=None) -> SharedResult | None:
    """Return the table's live share for one of its scorekeepers, or None."""
    _scorekeeper_only(table, digests, user)
    return table.shares.filter(revoked_at__isnull=True).first()


@dataclass(frozen=True)
class SharedHand:
    """One hand as the public page shows it: how it ended and what each seat scored."""

    number: int
    result: dict[str, Any] | None  # None: voided
    seat_points: tuple[tuple[str, int], ...]

    @property
    def voided(self) -> bool:
        return self.result is None


@dataclass(frozen=True)
class SharedMatch:
    """What a shared result's page and picture show, read from the table's final state."""

    token: str
    head_seq: int
    variant: str
    seats: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    loser: int | None
    # End-of-match bonuses (Knock Rummy's), as score items.
    items: tuple[dict[str, Any], ...]
    hands: tuple[SharedHand, ...]
    # The state itself, for the score chart; it holds nothing private either.
    state: dict[str, Any]
    # When the match was played: its first and last entries' times (None in a preview).
    started: datetime | None = None
    ended: datetime | None = None

    @property
    def game(self) -> str:
        return game_label(self.variant)

    @property
    def lower_is_better(self) -> bool:
        return GAMES[self.variant].standings.lower_is_better

    @property
    def final_totals(self) -> list[tuple[str, int]]:
        return list(zip(self.seats, self.totals, strict=True))

    @property
    def winner_names(self) -> list[str]:
        return [self.seats[seat] for seat in self.winners]

    @property
    def loser_name(self) -> str:
        return "" if self.loser is None else self.seats[self.loser]

    @property
    def headline(self) -> str:
        """Say who won, in the words of the table page's winner line."""
        names = self.winner_names
        if len(names) > 1:
            return gettext("%(names)s share the win!") % {"names": ", ".join(names)}
        return gettext("%(name)s wins the match!") % {"name": names[0] if names else ""}

    @property
    def summary(self) -> str:
        """Say the final totals and the number of hands in one line (the link's preview)."""
        totals = " · ".join(f"{name} {total}" for name, total in self.final_totals)
        hands = len(self.hands)
        counted = ngettext("%(hands)s hand", "%(hands)s hands", hands) % {"hands": hands}
        return gettext("Final totals: %(totals)s") % {"totals": totals} + f" · {counted}"


def shared_result(*, token: str) -> SharedMatch:
    """Return the result a live share's ``token`` opens; raise SharedResult.DoesNotExist for
    an unknown or revoked one, and while its match is reopened (a void took its winner
    away): the address shows a final result or nothing."""
    if not TOKEN_SHAPE.fullmatch(token):
        raise SharedResult.DoesNotExist
    share = (
        SharedResult.objects.select_related("table")
        .filter(token=token, revoked_at__isnull=True, table__status=Table.Status.FINISHED)
        .first()
    )
    if share is None:
        raise SharedResult.DoesNotExist
    times = share.table.events.aggregate(started=Min("created_at"), ended=Max("created_at"))
    return replace(_shared_match(share.token, table_state(table=share.table)), **times)


def _shared_match(token: str, state: dict[str, Any]) -> SharedMatch:
    seats = tuple(state["seats"])
    match = state.get("match")
    if match is None:  # Gin's state has no match entry: its totals and winner are the match's.
        totals, winners, loser, items = state["totals"], [state["winner"]], None, []
    else:
        # The match's totals hold its end bonuses (KR-MATCH); Rummy40 names who lost (R40-MATCH).
        totals, winners = match["totals"] or state["totals"], match["winners"]
        loser, items = match.get("loser"), match.get("items", [])
    hands = tuple(
        SharedHand(
            number=hand["number"],
            result=hand["result"],
            seat_points=tuple(
                zip(
                    seats,
                    hand["result"]["points"] if hand["result"] else [0] * len(seats),
                    strict=True,
                )
            ),
        )
        for hand in state["hands"]
    )
    return SharedMatch(
        token=token,
        head_seq=state["head_seq"],
        variant=state["variant"],
        seats=seats,
        totals=tuple(totals),
        winners=tuple(seat for seat in winners if seat is not None),
        loser=loser,
        items=tuple(items),
        hands=hands,
        state=state,
    )

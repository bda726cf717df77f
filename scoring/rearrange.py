"""Knock Rummy melding turns on a shared table (KR-MELDING, KR-MANIP, KR-JOKER).

The referee sees the table before and after a turn and the mover's hand, not the moves in
between; only the end of the turn must be legal (KR-MELDING), so a turn is judged by what the
two tables can show. Jokers look alike, so a joker is known only by the card it stands for:
the jokers of a table form a multiset of declarations, and this module reasons on those.

KR-JOKER, as read here:

- A joker *kept* its declaration when some joker after the turn stands for the same card; the
  two need not be the same physical joker, nor in the same meld (a joker may move between
  melds keeping its card).
- Every other joker of the table before was *released*: its declaration changed, which needs
  the real card it stood for to take its place. The real card may come from the hand or from
  another meld (the rule allows both), and only the end of the turn counts, so what must hold
  is that the table after shows, for each card, at least as many natural copies as jokers
  standing for it were released (``declaration_changed``).
- A released joker stays on the table and must be used again in a legal meld with a new
  card: the jokers in legal melds that do not keep an old declaration must be at least as many
  as the released ones (``joker_not_reused``). A joker that left the table is also reported
  as a card that left it (KR-MANIP).
- A joker with no declaration in an illegal meld after the turn may still stand for its old
  card, so it is not counted as released (that meld is refused anyway). An undeclared joker in
  a legal meld takes, where the meld allows, a card a table joker stood for before, so a joker
  moved without repeating its declaration keeps it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.cards import Card, Declared, card_sort_key, split_declared
from scoring.errors import RuleViolation, Violation
from scoring.melds import Meld, MeldRules, check_meld


@dataclass(frozen=True, slots=True)
class RearrangeRules:
    """Name the rules a rearranged table's refusals cite, as the game supplies them: what a
    melding turn lays and from where (``melding``, KR-MELDING), that no card leaves the table
    and one at least joins it (``table``, KR-MANIP), and how a joker keeps or changes the card
    it stands for (``joker``, KR-JOKER)."""

    melding: str
    table: str
    joker: str

    @property
    def cited(self) -> list[str]:
        """Return the rules a judged turn cites, in the order a player reads them."""
        return [self.melding, self.table, self.joker]


@dataclass(frozen=True, slots=True)
class RearrangementResult:
    """Hold the verdict on one melding turn: every violation, the cards added, the new table."""

    valid: bool
    violations: tuple[Violation, ...]
    added: tuple[Card, ...]  # cards the turn put on the table, in display order
    melds_after: tuple[Meld, ...]  # the table after the turn; empty unless valid


def _names(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _sorted_elements(counts: Counter[Card]) -> list[Card]:
    return sorted(counts.elements(), key=card_sort_key)


def _joker_cards(meld: Meld) -> Counter[Card]:
    return Counter(stands for card, stands in meld.declared() if card.is_joker)


def _declared(meld: Meld | Sequence[Declared]) -> tuple[Declared, ...]:
    return meld.declared() if isinstance(meld, Meld) else tuple(meld)


def _table_meld(meld: Meld | Sequence[Declared], rules: MeldRules, number: int) -> Meld:
    """Return a meld of the table before the turn, refusing one that is not legal."""
    if isinstance(meld, Meld):
        return meld
    try:
        cards, declarations = split_declared(meld)
        return check_meld(cards, rules, declarations)
    except RuleViolation as exc:
        # The table before the turn was accepted turn by turn, so this is bad input.
        raise RuleViolation(*(_in_meld(v, number, "before") for v in exc.violations)) from None


def _in_meld(violation: Violation, number: int, table: str = "after") -> Violation:
    """Return the violation of a meld, saying which meld of the table it is."""
    return Violation(
        violation.rule,
        f"Meld {number}: {violation.message}",
        {**violation.params, "meld": number, "table": table},
        violation.code,
    )


def check_rearrangement(
    before: Sequence[Meld | Sequence[Declared]],
    after: Sequence[Meld | Sequence[Declared]],
    hand: Sequence[Card],
    rules: MeldRules,
    cites: RearrangeRules,
    *,
    first_meld: bool,
) -> RearrangementResult:
    """Judge a melding turn on a shared table (Knock Rummy's) from the table before, the
    table after and the hand, each refusal citing the game's rule among ``cites``.

    ``before`` holds the table's melds (Meld, or cards with declarations as parse_declared
    reads them); ``after`` the melds the table holds at the end of the turn, in the same
    forms, each checked anew; ``hand`` the mover's hand before melding. ``first_meld`` says
    the table was empty: nobody had melded. A table joker stands for what its meld says:
    its declaration, or else the card check_meld chose for it. Every violation is reported,
    not only the first. Card counts against the decks (CARD-2) are the caller's check.
    """
    table = [_table_meld(meld, rules, n) for n, meld in enumerate(before, start=1)]
    if first_meld and table:
        raise ValueError("first_meld means the table was empty")
    laid = [_declared(meld) for meld in after]
    shown_before = Counter(card for meld in table for card in meld.cards)
    shown_after = Counter(card for meld in laid for card, _ in meld)
    added = shown_after - shown_before
    violations = _moved_cards(shown_before, shown_after, Counter(hand), cites)

    declared_before = sum((_joker_cards(meld) for meld in table), Counter())
    melds_after, unknown, meld_violations = _after_melds(laid, rules, declared_before)
    violations += meld_violations
    violations += _joker_violations(declared_before, melds_after, unknown, shown_after, cites.joker)
    if first_meld and not any(meld is not None for meld in melds_after):
        violations.append(
            Violation(
                rule=cites.melding,
                code="first_meld",
                message="The first to meld must lay at least one legal set or run of 3+ cards.",
            )
        )
    legal = tuple(meld for meld in melds_after if meld is not None)
    return RearrangementResult(
        valid=not violations,
        violations=tuple(violations),
        added=tuple(_sorted_elements(added)),
        melds_after=legal if not violations else (),
    )


def _moved_cards(
    shown_before: Counter[Card],
    shown_after: Counter[Card],
    held: Counter[Card],
    cites: RearrangeRules,
) -> list[Violation]:
    """Return the violations of the cards moved: none may leave the table (KR-MANIP), at
    least one must come from the hand, and only cards the hand held (KR-MELDING)."""
    violations = []
    for card in _sorted_elements(shown_before - shown_after):
        violations.append(
            Violation(
                rule=cites.table,
                code="card_left_table",
                message=f"{card.label} was on the table and is missing now: no card may leave it.",
                params={"card": str(card)},
            )
        )
    added = shown_after - shown_before
    if not added:
        violations.append(
            Violation(
                rule=cites.table,
                code="nothing_added",
                message="A melding turn must add at least one card from the hand to the table.",
            )
        )
    for card in sorted(added, key=card_sort_key):
        if added[card] > held[card]:
            violations.append(
                Violation(
                    rule=cites.melding,
                    code="not_in_hand",
                    message=(
                        f"{added[card]} × {card.label} put on the table, but the hand held"
                        f" {held[card]}."
                    ),
                    params={"card": str(card), "count": added[card], "held": held[card]},
                )
            )
    return violations


def _after_melds(
    after: Sequence[tuple[Declared, ...]], rules: MeldRules, declared_before: Counter[Card]
) -> tuple[list[Meld | None], Counter[Card | None], list[Violation]]:
    """Check the melds after the turn; return them (None where illegal) and their violations.

    Also returns what the jokers of illegal melds were declared to stand for (None: not
    declared), since those melds have no reading to say it.
    """
    # Undeclared jokers first try the cards that table jokers stood for and that no declared
    # joker took back (KR-JOKER: moving a joker keeps its card).
    free = declared_before - Counter(
        stands for meld in after for _, stands in meld if stands is not None
    )
    melds: list[Meld | None] = []
    unknown: Counter[Card | None] = Counter()
    violations: list[Violation] = []
    for number, declared in enumerate(after, start=1):
        cards, declarations = split_declared(declared)
        try:
            meld = check_meld(cards, rules, declarations, prefer=set(free))
        except RuleViolation as exc:
            violations += (_in_meld(v, number) for v in exc.violations)
            unknown.update(stands for card, stands in declared if card.is_joker)
            melds.append(None)
            continue
        free -= _joker_cards(meld) - Counter(stands for stands in declarations if stands)
        melds.append(meld)
    return melds, unknown, violations


def _joker_violations(
    declared_before: Counter[Card],
    melds_after: Sequence[Meld | None],
    unknown: Counter[Card | None],
    shown_after: Counter[Card],
    rule: str,
) -> list[Violation]:
    """Return the joker's violations, citing the game's ``rule`` (KR-JOKER): declarations
    changed, released jokers not reused."""
    in_legal = sum((_joker_cards(meld) for meld in melds_after if meld is not None), Counter())
    known_after = in_legal + Counter(card for card in unknown.elements() if card is not None)
    released = declared_before - known_after
    fresh_in_legal = in_legal - declared_before
    violations: list[Violation] = []
    # Undeclared jokers of illegal melds might still stand for a released card; let them
    # cover first the releases no real card explains.
    doubt = unknown[None]
    missing = released.total() - min(doubt, released.total()) - fresh_in_legal.total()
    unexplained = Counter(
        {card: n - shown_after[card] for card, n in released.items() if n > shown_after[card]}
    )
    for card in sorted(unexplained, key=card_sort_key):
        covered = min(doubt, unexplained[card])
        doubt -= covered
        if unexplained[card] > covered:
            violations.append(
                Violation(
                    rule=rule,
                    code="declaration_changed",
                    message=(
                        f"A joker stood for {card.label} and now stands for another card, but"
                        f" no {card.label} took its place."
                    ),
                    params={"card": str(card)},
                )
            )
    if missing > 0:
        violations.append(
            Violation(
                rule=rule,
                code="joker_not_reused",
                message=(
                    "A joker replaced by its real card stays on the table and must be used"
                    " again this turn, in a legal meld, for a new card."
                ),
                params={"cards": _names(_sorted_elements(released)), "count": missing},
            )
        )
    return violations

"""The rules players read: every rule the engine cites, with an anchor per rule ID."""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from games.pages.tables import with_table
from games.rules.game_words import game_name
from games.rules.reference import reference
from games.rules.text import table_rules
from games.tables import selectors as table_selectors
from scoring.variants import GAMES


def _games() -> list[tuple[str, str]]:
    """Every game's key and name, for the links to each game's rules."""
    return [(key, game_name(game)) for key, game in GAMES.items()]


@require_safe
def rules_index(request):
    context = {"reference": reference(), "game": None, "games": _games()}
    return render(request, "rules/rules.html", context)


@require_safe
def rules_game(request, game: str):
    if game not in GAMES:
        raise Http404
    return _game_page(request, game)


def _game_page(request, game: str, **extra):
    sections = [section.for_game(game) for section in reference().sections]
    context = {
        "reference": reference(),
        "sections": [s for s in sections if s.entries or s.html],
        "game": game,
        "game_name": game_name(GAMES[game]),
        "games": _games(),
        **extra,
    }
    return render(request, "rules/rules.html", context)


@require_safe
@with_table()
def table_rules_page(request, table, role):
    """A table's game, with the values this table plays under beside the rules they set."""
    state_options = table_selectors.table_state(table=table)["options"]
    at_table: dict[str, list[tuple[str, str]]] = {}
    for title, value, rule in table_rules(table.variant, state_options):
        at_table.setdefault(rule, []).append((title, value))
    return _game_page(request, table.variant, table=table, at_table=at_table)

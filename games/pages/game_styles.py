"""The stylesheet that shows each game's fields when it is chosen: games.css, made from the
registry (scoring/variants/GAMES).

A form offering every game (a new table, a group's table, a league, the referee) marks each
game's fields with ``data-game`` (the games they belong to) and its list of seats and names;
these rules hide the fields of the games not chosen, the number of players of a game of one
table size, the names past the number of players, and the choices another option closes
(Gin's match lengths by preset). It works without JavaScript, and no stylesheet names a
game by hand: a new game gets its rules by being in the registry.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from django.http import HttpResponse
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from scoring.game import NAMES_UPCARD, GameRules
from scoring.variants import GAMES

_SAFE = re.compile(r"[\w-]+")
# The names past the first two are hidden until the number of players shows them (app.css).
FIRST_HIDDEN_NAME = 3


def _safe(value: object) -> str:
    text = str(value)
    if not _SAFE.fullmatch(text):
        raise ValueError(f"not a safe CSS value: {text!r}")
    return text


def _chosen(game: GameRules) -> str:
    return f'form:has(input[name=variant][value="{_safe(game.key)}"]:checked)'


def _game_rules(game: GameRules, most: int) -> list[str]:
    chosen, key = _chosen(game), _safe(game.key)
    # Important: a game's fields never show under another game, whatever else shows them.
    rules = [f'{chosen} [data-game]:not([data-game~="{key}"]) {{ display: none !important; }}']
    if len(game.seatings) == 1:
        rules.append(f"{chosen} [data-seat-count] {{ display: none; }}")
        shown = range(FIRST_HIDDEN_NAME, game.seatings[0] + 1)
        rules += [f'{chosen} .name[data-player="{n}"] {{ display: block; }}' for n in shown]
    else:
        for n in range(FIRST_HIDDEN_NAME, most + 1):
            counts = ", ".join(f'[value="{count}"]' for count in range(n, most + 1))
            rules.append(
                f"{chosen}:has(select[name=players] :is({counts}):checked) "
                f'.name[data-player="{n}"] {{ display: block; }}'
            )
    rules += _upcard_rules(game)
    for spec in game.options:
        if not spec.choices_by:
            continue
        field, by = f"{key}__{_safe(spec.key)}", f"{key}__{_safe(spec.choices_by)}"
        for value, _allowed in spec.choices_for:
            rules.append(
                f'form:has(input[name="{by}"][value="{_safe(value)}"]:checked) '
                f'select[name="{field}"] option:not([data-by~="{_safe(value)}"]) '
                "{ display: none; }"
            )
    return rules


def _chosen_value(name: str, value: object) -> str:
    """Match a form whose field ``name`` holds ``value``, by radio or by select."""
    name, value = _safe(name), _safe(value)
    return (
        f'form:has(input[name="{name}"][value="{value}"]:checked, '
        f'select[name="{name}"] option[value="{value}"]:checked)'
    )


def _upcard_rules(game: GameRules) -> list[str]:
    """Hide the upcard field (``data-upcard``) until a preset or a switch chosen on the form
    makes the game's hands name their upcard (Gin's Oklahoma)."""
    spec = game.switch_meaning(NAMES_UPCARD)
    if spec is None:
        return []
    key, switch = _safe(game.key), _safe(spec.key)
    field = f'[data-upcard~="{key}"]'
    shown_by = [_chosen_value(f"{key}__{switch}", "on")] + [
        _chosen_value(f"{key}__preset", preset)
        for preset, options in game.presets.items()
        if options.get(switch)
    ]
    return [f"{field} {{ display: none; }}"] + [
        f"{chosen} {field} {{ display: block; }}" for chosen in shown_by
    ]


def stylesheet() -> str:
    """Return the stylesheet's text, made once for the games registered."""
    return _stylesheet(tuple(GAMES))


@lru_cache(maxsize=2)
def _stylesheet(keys: tuple[str, ...]) -> str:
    # Kept by the registry's keys: a game registered late (the tests' stub) makes a new one.
    most = max(max(game.seatings) for game in GAMES.values())
    lines = ["/* Made from the games' registry: games/pages/game_styles.py. */"]
    for game in GAMES.values():
        lines += _game_rules(game, most)
    return "\n".join(lines) + "\n"


def version() -> str:
    """Name this stylesheet's content, so a page and the offline shell ask for the new one."""
    return _version(stylesheet())


@lru_cache(maxsize=2)
def _version(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def stylesheet_url() -> str:
    """Return the stylesheet's address, with its version."""
    return f"{reverse('game-styles')}?v={version()}"


@require_safe
@cache_control(max_age=86400, public=True)
def game_styles(request):
    return HttpResponse(stylesheet(), content_type="text/css; charset=utf-8")

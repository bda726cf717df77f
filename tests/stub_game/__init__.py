"""A game that lives outside scoring/variants/: "Stub Rummy", registered by the tests alone.

It plays by Knock Rummy's engine under its own key, name and rule prefix, so every page, form,
script, API schema, export and standings reader that works for it reads the game from the
registry rather than knowing its name (tests/games/test_stub_game.py).
"""

import dataclasses

from scoring.variants import knock_rummy

GAME = dataclasses.replace(
    knock_rummy.GAME, key="stub_rummy", name="Stub Rummy", rule_prefix="STUB-"
)

"""Hypothesis profiles: "default" for `make test` and CI, "fast" for `make test-fast`.

Choose one with `--hypothesis-profile=fast` or HYPOTHESIS_PROFILE=fast. A test that sets its
own number of examples writes it as ``examples(n)``: n under the default profile, scaled with
the profile's ``max_examples`` under another (a tenth under "fast"), so the quick run still
tries every property, only on fewer cases.
"""

import os

from hypothesis import HealthCheck, settings

# Hypothesis's own default: the profile every test's own number is written for.
FULL_RUN_EXAMPLES = 100
# Below this many a property says little; a test that asks for fewer keeps its own number.
FEWEST_EXAMPLES = 5

# The filtering health check looks at a test's first draws whatever its budget, and a quick
# run's few examples trip it by chance (the Gin cards property did in 3 of 9 fast runs, in 0
# of 14 full ones): the full run keeps it, with every other health check.
settings.register_profile(
    "fast",
    max_examples=FULL_RUN_EXAMPLES // 10,
    suppress_health_check=[HealthCheck.filter_too_much],
)


def load_profile_from_environment() -> None:
    """Load the profile HYPOTHESIS_PROFILE names, if any (the pytest option loads its own)."""
    name = os.environ.get("HYPOTHESIS_PROFILE")
    if name:
        settings.load_profile(name)


def examples(full_run: int) -> int:
    """How many examples a test that tries ``full_run`` under the default profile tries now."""
    scaled = full_run * settings.default.max_examples // FULL_RUN_EXAMPLES
    return max(scaled, min(full_run, FEWEST_EXAMPLES))

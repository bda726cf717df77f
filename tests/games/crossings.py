"""What one request crosses of the project: the modules of games/ and scoring/ whose code
runs while it is answered (middleware, view, services, selectors, engine and templates' tags
alike), and how many of their functions, traced with ``sys.setprofile``."""

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# The project's own packages; Django's, DRF's and the standard library's code is not counted.
PROJECT = ("games", "scoring")


@dataclass(frozen=True)
class Crossing:
    """The answer of the traced call, and the project's code it ran."""

    answer: Any
    modules: frozenset[str]
    functions: frozenset[tuple[str, str, int]]  # module, function, its first line
    calls: Counter  # (module, function): how many times it ran

    def under(self, package: str) -> frozenset[str]:
        """Return the modules crossed under ``package`` ("games.pages", "scoring")."""
        return frozenset(m for m in self.modules if m == package or m.startswith(package + "."))


def _in_project(module: str) -> bool:
    return module.split(".", 1)[0] in PROJECT


def crossing(call: Callable[[], Any]) -> Crossing:
    """Run ``call`` and return what of the project it crossed."""
    functions: set[tuple[str, str, int]] = set()
    calls: Counter = Counter()

    def profile(frame, event, _arg):
        if event == "call":
            module = frame.f_globals.get("__name__", "")
            if _in_project(module):
                code = frame.f_code
                functions.add((module, code.co_name, code.co_firstlineno))
                calls[module, code.co_name] += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        answer = call()
    finally:
        sys.setprofile(previous)
    return Crossing(
        answer=answer,
        modules=frozenset(module for module, _name, _line in functions),
        functions=frozenset(functions),
        calls=calls,
    )

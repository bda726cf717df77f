"""What one request crosses of the project: the modules of games/ and scoring/ whose code
runs while it is answered, and how many of their functions, traced with ``sys.setprofile``.

Two counts: everything (middleware, view, service, selectors, engine, the templates' tags),
and the request's own path: what runs beneath the call of its view (its decorators too;
not the middleware around it), outside the drawing of its templates, engine included."""

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# The project's own packages; Django's, DRF's and the standard library's code is not counted.
PROJECT = ("games", "scoring")
# Code run beneath these is the drawing of a template, not the request's path.
RENDERING = "django.template"
# Where Django calls the view, inside every middleware.
VIEW_CALL = "BaseHandler._get_response"


@dataclass(frozen=True)
class Crossing:
    """The answer of the traced call, and the project's code it ran."""

    answer: Any
    modules: frozenset[str]
    functions: frozenset[tuple[str, str, int]]  # module, function, its first line
    calls: Counter  # (module, function): how many times it ran
    path: frozenset[str]  # the modules crossed beneath the view's call, templates left out

    def under(self, package: str, modules: frozenset[str] | None = None) -> frozenset[str]:
        """Return the modules crossed under ``package`` ("games", "scoring"), of all of them
        or of ``modules`` (``path``)."""
        within = self.modules if modules is None else modules
        return frozenset(m for m in within if m == package or m.startswith(package + "."))


def _in_project(module: str) -> bool:
    return module.split(".", 1)[0] in PROJECT


def _on_path(frame) -> bool:
    """Tell whether ``frame`` runs beneath the view's call, and not beneath a template's
    drawing."""
    caller = frame.f_back
    while caller is not None:
        if caller.f_globals.get("__name__", "").startswith(RENDERING):
            return False
        if caller.f_code.co_qualname == VIEW_CALL:
            return True
        caller = caller.f_back
    return False


def crossing(call: Callable[[], Any]) -> Crossing:
    """Run ``call`` and return what of the project it crossed, and of it, what the path of
    the requests it makes crossed."""
    functions: set[tuple[str, str, int]] = set()
    calls: Counter = Counter()
    path: set[str] = set()

    def profile(frame, event, _arg):
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if _in_project(module):
            code = frame.f_code
            functions.add((module, code.co_name, code.co_firstlineno))
            calls[module, code.co_name] += 1
            if _on_path(frame):
                path.add(module)

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
        path=frozenset(path),
    )

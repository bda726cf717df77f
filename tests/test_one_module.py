"""A game is one module: nothing outside scoring/variants/ compares or branches on a game's
name (docs/design.md, "Adding a game").

Pages, forms, templates, scripts, styles, the API and the standings read what they need of a
game from its ``GameRules`` (scoring/game.py): its options, its seat flags, its columns. A
``variant == "ramino"`` anywhere else is a place a new game would have to be added by hand,
and would silently be missed; this test finds them, naming the file and the line.

What it flags, for each key of the registry (scoring/variants/GAMES):

- Python (games/, rummyref/): a comparison with a game's key (``==``, ``!=``, ``is``,
  ``in``/``not in`` a literal holding one), a ``case`` on one, a dict literal keyed by two
  games or more (a per-game lookup table), and an enum member named after one
  (``Variant.GIN``);
- templates: a game's key quoted in a ``{% ... %}`` or ``{{ ... }}`` tag, and the ``only-``/
  ``not-`` classes that showed a game's fields by its name;
- scripts (static/js/): a comparison with a quoted key, a ``case`` on one, a property named
  after one (a per-game table of functions);
- styles (static/css/): a selector on the chosen game (``[name=variant][value=...]``) or
  those classes.

What it allows: naming a game as data, never as a branch. The demo (games/demo.py) creates
tables of named games and the API's examples (games/api/) ask about named games, exactly as a
player would: ``{"variant": "gin", ...}`` is a value, not a decision, and changes nothing a
new game needs. And Gin's endings share its name: an ending compared with "gin" (a name
that says ``ending``) is about how a hand ended, not which game it is.
Migrations (generated) and tests (which name games to play them) are not scanned.

And the shared engine (scoring/ outside scoring/variants/) cites no game's own rule: a rule
ID with a game's prefix (GameRules.rule_prefix: GIN-, R40-, RAM-, KR-, S40-, BUR-, CAN-)
reaches it from the game's package, through a hook named for what it does
(PlayRules.knock_rule, first_turn_rule, out_without_discard, knock_claim, ...;
MeldRules.joker_limit_rule, fixed_groups_rule, ...; RefereeRules.knock_rule; the game's
RearrangeRules). Only strings the code uses count: docstrings and comments may cite a rule
as an example, since they explain and never decide (Python keeps comments out of its syntax
tree, and a docstring is the first statement of its module, class or function, so the two
are told apart cleanly). The test fails on any game's rule ID in the engine's code.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import pytest

from scoring.variants import GAMES

ROOT = Path(__file__).resolve().parents[1]
KEYS = frozenset(GAMES)
PYTHON_TREES = ("games", "rummyref")
SKIPPED = {"migrations", "__pycache__"}
# The hand endings spelled like a game: compared with an ending, they name the ending.
ENDINGS = frozenset({"gin"})


def _files(tree: str, suffix: str) -> list[Path]:
    top = ROOT / tree
    return sorted(p for p in top.rglob(f"*{suffix}") if not SKIPPED & set(p.parts))


def _game_literals(node: ast.AST) -> set[str]:
    """Return the game keys a literal is or holds (a string, or a tuple/list/set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in KEYS:
        return {node.value}
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_game_literals(element) for element in node.elts))
    return set()


def _about_an_ending(keys: set[str], other: ast.AST) -> bool:
    return keys <= ENDINGS and "ending" in ast.unparse(other)


def python_findings(source: str) -> list[tuple[int, str]]:
    """Return (line, what) for each comparison, branch or table on a game's name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for left, right in itertools.pairwise(sides):
                for literal, other in ((left, right), (right, left)):
                    keys = _game_literals(literal)
                    if keys and not _about_an_ending(keys, other):
                        found.append((node.lineno, f"compares with {sorted(keys)}"))
        elif isinstance(node, ast.Dict):
            keys = set().union(*(_game_literals(key) for key in node.keys if key is not None))
            if len(keys) >= 2:
                found.append((node.lineno, f"a table keyed by games {sorted(keys)}"))
        elif isinstance(node, ast.match_case):
            keys = {
                pattern.value.value
                for pattern in ast.walk(node.pattern)
                if isinstance(pattern, ast.MatchValue)
                and isinstance(pattern.value, ast.Constant)
                and pattern.value.value in KEYS
            }
            if keys:
                found.append((node.pattern.lineno, f"a case on {sorted(keys)}"))
        elif isinstance(node, ast.Attribute) and node.attr.isupper() and node.attr.lower() in KEYS:
            found.append((node.lineno, f"names the game {node.attr.lower()!r} as a member"))
    return found


_QUOTED = "|".join(re.escape(key) for key in sorted(KEYS))
_TAG = re.compile(r"\{[%{].*?[%}]\}", re.S)
_QUOTED_KEY = re.compile(rf"""["']({_QUOTED})["']""")
_GAME_CLASS = re.compile(rf"\b(?:only|not)-({_QUOTED})\b")


def template_findings(source: str) -> list[tuple[int, str]]:
    """Return (line, what) for each game's key a template tag names, or class shown by it."""
    found = []
    for tag in _TAG.finditer(source):
        keys = set(_QUOTED_KEY.findall(tag.group()))
        if keys and not (keys <= ENDINGS and "ending" in tag.group()):
            line = source.count("\n", 0, tag.start()) + 1
            found.append((line, f"names {sorted(keys)} in {tag.group()[:60]!r}"))
    for match in _GAME_CLASS.finditer(source):
        line = source.count("\n", 0, match.start()) + 1
        found.append((line, f"shows fields by the game's name: {match.group()!r}"))
    return found


_SCRIPT_RULES = (
    (re.compile(rf"""(?:===?|!==?)\s*["']({_QUOTED})["']"""), "compares with"),
    (re.compile(rf"""["']({_QUOTED})["']\s*(?:===?|!==?)"""), "compares with"),
    (re.compile(rf"""\bcase\s+["']({_QUOTED})["']"""), "a case on"),
    (re.compile(rf"""^\s*["']?({_QUOTED})["']?\s*(?::|\()"""), "a property named"),
)


def script_findings(source: str) -> list[tuple[int, str]]:
    """Return (line, what) for each comparison, case or property on a game's name."""
    found = []
    for number, line in enumerate(source.splitlines(), start=1):
        for pattern, what in _SCRIPT_RULES:
            for key in pattern.findall(line):
                if not (key in ENDINGS and "ending" in line):
                    found.append((number, f"{what} {key!r}"))
    return found


_STYLE_RULES = (
    re.compile(rf"""name=["']?variant["']?\]\[value=["']?({_QUOTED})\b"""),
    _GAME_CLASS,
)


def style_findings(source: str) -> list[tuple[int, str]]:
    """Return (line, what) for each selector on the chosen game or its name's classes."""
    found = []
    for number, line in enumerate(source.splitlines(), start=1):
        for pattern in _STYLE_RULES:
            found += [(number, f"selects by the game {key!r}") for key in pattern.findall(line)]
    return found


def _scan(paths: list[Path], finder) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in paths
        for line, what in finder(path.read_text(encoding="utf-8"))
    ]


SCANS = {
    "python": lambda: _scan(
        [path for tree in PYTHON_TREES for path in _files(tree, ".py")], python_findings
    ),
    "templates": lambda: _scan(_files("templates", ".html"), template_findings),
    "scripts": lambda: _scan(_files("static/js", ".js"), script_findings),
    "styles": lambda: _scan(_files("static/css", ".css"), style_findings),
}


@pytest.mark.parametrize("kind", SCANS)
def test_nothing_outside_the_game_modules_branches_on_a_games_name(kind):
    assert SCANS[kind]() == []


def test_the_scans_read_every_tree():
    # A moved folder would make the scans pass on nothing.
    assert len(_files("games", ".py")) > 50 and _files("rummyref", ".py")
    assert len(_files("templates", ".html")) > 30
    assert _files("static/js", ".js") and _files("static/css", ".css")


class TestTheFindersCatchRealCases:
    """Each way a branch on a game's name was written here once, and what stays allowed."""

    def test_python(self):
        source = "\n".join(
            [
                'if variant == "gin":',  # 1
                "    pass",
                'if table.variant != "ramino": pass',  # 3
                'ok = key in ("rummy40", "knock_rummy")',  # 4
                'LABELS = {"gin": 1, "scala40": 2}',  # 5
                "match variant:",  # 6
                '    case "scala40":',  # 7
                "        pass",
                "x = Variant.KNOCK_RUMMY",  # 9
                'if ending == "gin": pass',  # 10: an ending, allowed
                'if data.get("ending") in ("gin", "big_gin"): pass',  # 11: allowed
                'table = make(variant="gin")',  # 12: a value, allowed
                'RAMINO = {"scala40": "RAM-OPT-SCALA40", "short_deck": 1}',  # 13: one key
                'if kind == "gin": pass',  # 14: not an ending's name
            ]
        )
        assert sorted({line for line, _what in python_findings(source)}) == [1, 3, 4, 5, 7, 9, 14]

    def test_templates(self):
        source = "\n".join(
            [
                '{% if board.variant == "ramino" %}x{% endif %}',  # 1
                "{% elif variant == 'rummy40' %}",  # 2
                "<a href=\"{% url 'rules-game' 'gin' %}\">Gin</a>",  # 3
                '<div class="only-knock_rummy">',  # 4
                "{% if form.ending == 'gin' %}{% endif %}",  # 5: an ending, allowed
                "<p>Gin Rummy</p>",  # 6: text, allowed
            ]
        )
        assert sorted({line for line, _what in template_findings(source)}) == [1, 2, 3, 4]

    def test_scripts(self):
        source = "\n".join(
            [
                'if (model.variant === "scala40") {}',  # 1
                "const SHAPES = {",
                "  gin(model, fields) {",  # 3
                "  ramino: gainLoss,",  # 4
                "};",
                'switch (game) { case "knock_rummy": break; }',  # 6
                'if (fields.ending === "gin") {}',  # 7: an ending, allowed
                'const ginValue = 1; // a name, not the game "gin" itself',  # 8: allowed
            ]
        )
        assert sorted({line for line, _what in script_findings(source)}) == [1, 3, 4, 6]

    def test_styles(self):
        source = "\n".join(
            [
                ".f:has(input[name=variant][value=gin]:checked) .x { display: none; }",  # 1
                ".new-table .only-ramino { display: block; }",  # 2
                ".hand-form:has(input[name=ending][value=gin]:checked) .k { display: none; }",
            ]
        )
        assert sorted({line for line, _what in style_findings(source)}) == [1, 2]


# Rule IDs in the shared engine ---------------------------------------------------------------

ENGINE = "scoring"
GAME_PACKAGES = Path("scoring/variants")
PREFIXES = sorted(game.rule_prefix for game in GAMES.values() if game.rule_prefix)
_RULE_ID = re.compile(rf"\b(?:{'|'.join(map(re.escape, PREFIXES))})[A-Z0-9-]*[A-Z0-9]")
_WITH_DOCSTRING = ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


def rule_id_findings(source: str) -> list[tuple[int, str]]:
    """Return (line, rule ID) for each game's rule ID a string of the code names, leaving
    docstrings (and comments, which the syntax tree does not hold)."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, _WITH_DOCSTRING) and ast.get_docstring(node, clean=False) is not None
    }
    return sorted(
        (node.lineno, rule)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        for rule in _RULE_ID.findall(node.value)
    )


def _engine_files() -> list[Path]:
    return [
        path
        for path in _files(ENGINE, ".py")
        if not path.relative_to(ROOT).is_relative_to(GAME_PACKAGES)
    ]


def test_the_shared_engine_cites_no_games_own_rule():
    # A check's rule is a value its game's package supplies (MeldRules, PlayRules,
    # RefereeRules, RearrangeRules), so no code string of the shared engine names one.
    found = [
        (str(path.relative_to(ROOT)), line, rule)
        for path in _engine_files()
        for line, rule in rule_id_findings(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_engine_scan_reads_the_engine_and_every_games_prefix():
    # A moved folder, or the registry read wrong, would make the scan pass on nothing.
    files = _engine_files()
    assert len(files) > 40 and not any("variants" in path.parts for path in files)
    assert {"GIN-", "R40-", "RAM-", "KR-", "S40-", "BUR-", "CAN-"} <= set(PREFIXES)


def test_the_rule_id_finder_reads_code_not_docstrings_or_comments():
    source = "\n".join(
        [
            '"""Knock (GIN-KNOCK): a module docstring explains."""',  # 1: allowed
            "def check(play):",
            '    """Refuse an Oklahoma knock (GIN-OKLAHOMA), as a docstring says."""',  # 3
            '    rule = "GIN-BIGGIN"  # GIN-GIN in a comment is allowed',  # 4
            '    message = f"A joker moves by rearranging ({play.x}, KR-JOKER)."',  # 5
            '    shared = ("CARD-2", "JOKER-1", "NIGHT-VP", "BURRACO-VP")',  # 6: shared rules
            '    return {"S40-PICKUP": 1, "x": "R40-RUNS, RAM-OPT-FIXEDJOKER"}',  # 7
            "class Rules:",
            '    """CAN-PILE-1 in a class docstring."""',  # 9: allowed
            '    pile_rule = "CAN-PILE-1"',  # 10
        ]
    )
    assert rule_id_findings(source) == [
        (4, "GIN-BIGGIN"),
        (5, "KR-JOKER"),
        (7, "R40-RUNS"),
        (7, "RAM-OPT-FIXEDJOKER"),
        (7, "S40-PICKUP"),
        (10, "CAN-PILE-1"),
    ]

"""The code stays readable: no function of scoring/ or games/ (migrations aside) over
MAX_FUNCTION_LINES lines unless the line just above its ``def`` (or above its first decorator)
is a comment starting ``# long:`` that says why it is better whole; and no module over
MAX_MODULE_CODE_LINES lines of code.

A module is split where its meaning splits, not where a count runs out: its docstrings,
comments and blank lines are not counted, so explaining a module never pushes it over, and the
bound is far enough above today's largest module that only a module doing several jobs meets
it."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The trees held to the limits; migrations are generated, and never read as code is.
TREES = ("scoring", "games")
EXCLUDED = {"migrations"}
MAX_MODULE_CODE_LINES = 600
MAX_FUNCTION_LINES = 60
LONG_MARK = "# long:"


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[tuple[str, int, int]]:
    """Return (name, first line, lines) for each function over ``limit`` lines without a reason.

    A function's lines run from its ``def`` (or first decorator) to its last line; nested
    functions and methods count on their own.
    """
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        length = node.end_lineno - first + 1
        above = {lines[line - 2].strip() for line in (first, node.lineno) if line >= 2}
        if length > limit and not any(text.startswith(LONG_MARK) for text in above):
            found.append((node.name, first, length))
    return found


def code_lines(source: str) -> int:
    """Return how many lines hold code: not blank, not only a comment, not in a docstring."""
    docstring_lines = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if not isinstance(body, list) or not body or not isinstance(body[0], ast.Expr):
            continue
        value = body[0].value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            docstring_lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    code = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (
            tokenize.COMMENT,
            tokenize.NL,
            tokenize.NEWLINE,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.ENDMARKER,
        ):
            continue
        code.update(range(token.start[0], token.end[0] + 1))
    return len(code - docstring_lines)


def _modules(tree: str) -> list[Path]:
    top = ROOT / tree
    modules = sorted(
        path for path in top.rglob("*.py") if not EXCLUDED & set(path.relative_to(top).parts)
    )
    assert modules, f"no modules found under {top}"
    return modules


@pytest.mark.parametrize("tree", TREES)
def test_every_module_is_at_most_600_lines_of_code(tree):
    too_long = {
        str(path.relative_to(ROOT)): count
        for path in _modules(tree)
        if (count := code_lines(path.read_text(encoding="utf-8"))) > MAX_MODULE_CODE_LINES
    }
    assert too_long == {}


@pytest.mark.parametrize("tree", TREES)
def test_every_function_is_at_most_60_lines_or_says_why(tree):
    too_long = {
        f"{path.relative_to(ROOT)}:{line} {name}": length
        for path in _modules(tree)
        for name, line, length in long_functions(path.read_text(encoding="utf-8"))
    }
    assert too_long == {}


def test_migrations_are_left_out_and_nothing_else():
    games = {path.relative_to(ROOT / "games").parts for path in _modules("games")}
    assert not any("migrations" in parts for parts in games)
    assert ("models.py",) in games and ("tables", "services.py") in games
    assert (ROOT / "games" / "migrations" / "0001_initial.py").exists()


def _function(name: str, body_lines: int, above: str = "") -> str:
    body = "".join(f"    x{i} = {i}\n" for i in range(body_lines))
    return f"import functools\n{above}def {name}():\n{body}"


def test_the_checker_flags_a_long_function_and_accepts_a_reason():
    assert long_functions(_function("short", 59)) == []
    assert long_functions(_function("long", 60)) == [("long", 2, 61)]
    assert long_functions(_function("kept", 60, "# long: one table, read top to bottom\n")) == []
    # A comment that gives no reason in the agreed form does not count.
    assert long_functions(_function("vague", 60, "# this is long\n")) == [("vague", 3, 61)]
    decorated = "@functools.cache\n"
    assert long_functions(_function("cached", 60, decorated)) == [("cached", 2, 62)]
    assert long_functions(_function("cached", 60, "# long: a reason\n" + decorated)) == []


def test_code_lines_leave_out_docstrings_comments_and_blank_lines():
    source = (
        '"""A module\n\nthat says what it is."""\n'
        "\n"
        "# why the constant\n"
        "LIMIT = 3\n"
        "def f(x):\n"
        '    """One line."""\n'
        "    return (x +\n"
        "            LIMIT)  # the bound\n"
    )
    # Code: LIMIT, def, and the two lines of the return.
    assert code_lines(source) == 4


def _top_level_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_no_page_view_shares_a_name_with_a_service_or_selector():
    # A view and the service it calls under one name read as one thing in a traceback or
    # a search; the pages' views are named apart (``table_rematch_view`` calls
    # ``services.table_rematch``).
    domain = set()
    for path in (ROOT / "games").rglob("*.py"):
        if not {"pages", "api", "migrations", "management"} & set(path.parts):
            domain |= _top_level_functions(path)
    # The views: what the pages' routes name (``tables.hand_record``).
    routes = ast.parse((ROOT / "games" / "pages" / "urls.py").read_text())
    views = {
        node.attr
        for node in ast.walk(routes)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
    }
    assert len(views) > 50  # the routes were read
    assert sorted(views & domain) == []

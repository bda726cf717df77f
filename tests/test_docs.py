"""Every command and every place the docs name is real.

Fenced shell commands in README.md, docs/*.md and bench/README.md are read line by line:
a make target and its variables must be the Makefile's, ``manage.py <command>`` a management
command that takes the options given, ``python -m bench`` a bench section, every program one
the project ships or a known system tool, every environment variable one the settings read,
every path in the repository one that exists, every local URL one the URLconf resolves. The
same holds for the commands, paths, URLs and settings the prose names in ``inline code``.
"""

import ast
import re
import shlex
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from django.core.management import CommandError, get_commands, load_command_class
from django.urls import Resolver404, resolve

from tests.doc_commands import fenced_commands

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", ROOT / "bench" / "README.md", *ROOT.glob("docs/*.md")])
# Programs the docs may name that are not the project's: the servers' own tools.
SYSTEM_TOOLS = {
    "apt-get",
    "createdb",
    "createuser",
    "pg_dump",
    "pg_restore",
    "psql",
    "redis-cli",
    "nginx",
}
SYSTEM_TOOLS |= {"systemctl", "python3", "cp", "ln", "sudo", "pushpin"}
# Top-level folders outside the repository's tree that docs may name (a server's files).
SYSTEM_ROOTS = {"etc", "usr", "srv", "var", "tmp", "path"}
# Where the constants the prose names (a setting, a game's flag) are defined.
CODE = ("rummyref", "scoring", "games", "bench")
SOME_UUID = "6f1c3e2a-8d4b-4c1e-9a7f-2b5d0e9c4a13"


def _inline_code(text: str) -> list[str]:
    """Return every ``inline code`` span outside fences."""
    prose = re.sub(r"^\s*```.*?^\s*```", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.findall(r"(?<!`)`([^`\n]+)`(?!`)", prose)


def _simple_commands(line: str) -> list[list[str]]:
    """Split a shell line into its simple commands (on &&, ||, ;, |), comments dropped."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    commands, words = [], []
    for token in lexer:
        if token in {"&&", "||", ";", "|", "&"}:
            commands.append(words)
            words = []
        else:
            words.append(token)
    return [words for words in [*commands, words] if words]


def _doc_params():
    return [pytest.param(doc, id=str(doc.relative_to(ROOT))) for doc in DOCS]


def _problems(check, items) -> list[str]:
    """Return what ``check`` finds wrong in each item, each named with its item."""
    problems = []
    for item in items:
        try:
            check(item)
        except (AssertionError, pytest.fail.Exception) as error:
            # The message's first line: pytest adds the compared values under it.
            message = str(error).splitlines()[0]
            problems.append(message if message.startswith(item) else f"{item}: {message}")
    return problems


@cache
def _makefile() -> tuple[set[str], set[str]]:
    text = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([A-Za-z][\w.-]*)\s*:(?!=)", text, flags=re.MULTILINE))
    variables = set(re.findall(r"^([A-Z_]+)\s*[:?]?=", text, flags=re.MULTILINE))
    return targets, variables


@cache
def _settings_names() -> set[str]:
    """Return the environment variables the settings read (by their quoted names) and the
    Makefile's variables."""
    names = set()
    for name in ("rummyref/settings.py", "gunicorn.conf.py"):
        names |= set(re.findall(r"\"([A-Z][A-Z0-9_]+)\"", (ROOT / name).read_text()))
    makefile = (ROOT / "Makefile").read_text()
    return names | _makefile()[1] | set(re.findall(r"\$\(([A-Z_]+)\)", makefile))


@cache
def _bench_sections() -> set[str]:
    tree = ast.parse((ROOT / "bench" / "__main__.py").read_text())
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "bench"
        for alias in node.names
    }
    return imported - {"timing"}


def _resolves(path: str) -> bool:
    """Whether the URLconf serves ``path``, a placeholder (``<id>``, ``{n}``) taking any of a
    UUID, a number or a slug."""
    if path.startswith("/static/"):
        return True  # served by WhiteNoise or nginx, not the URLconf
    holes = re.findall(r"<[^>]+>|\{[^}]+\}", path)
    template = re.sub(r"<[^>]+>|\{[^}]+\}", "{}", path)
    for values in product([SOME_UUID, "1", "x"], repeat=len(holes)):
        try:
            resolve(template.format(*values))
        except Resolver404:
            continue
        return True
    return False


def _check_url(address: str) -> None:
    path = re.split(r"[?#]", address, maxsplit=1)[0]
    assert _resolves(path), f"{address}: no page or endpoint has this address"


def _is_repo_path(word: str) -> bool:
    head = word.split("/", 1)[0]
    visible = bool(head) and (not head.startswith(".") or head == ".ci")
    return "/" in word and visible and (ROOT / head).is_dir() and " " not in word


def _check_place(word: str) -> None:
    if re.match(r"https?://(127\.0\.0\.1|localhost)[:/]", word):
        _check_url("/" + word.split("/", 3)[3])
    elif _is_repo_path(word):
        # A placeholder (scoring/variants/<game>/) stands for any name there.
        pattern = re.sub(r"<[^>]+>", "*", word.rstrip("/"))
        assert next(ROOT.glob(pattern), None), f"{word}: no such file or folder"


def _check_variable(name: str) -> None:
    assert name in _settings_names(), f"{name}: no setting reads this variable"


def _check_constant(name: str) -> None:
    if name in _settings_names():
        return
    assert re.search(rf"\b{name}\b", _code()), f"{name}: not in the code"


@cache
def _code() -> str:
    return "\n".join(path.read_text() for folder in CODE for path in (ROOT / folder).rglob("*.py"))


def _check_make(args: list[str]) -> None:
    targets, variables = _makefile()
    used = set(re.findall(r"\$\(([A-Z_]+)\)", (ROOT / "Makefile").read_text()))
    for arg in args:
        if "=" in arg:
            name = arg.split("=", 1)[0]
            assert name in variables | used, f"make {arg}: the Makefile reads no {name}"
        else:
            assert arg in targets, f"make {arg}: the Makefile has no such target"


def _check_manage(args: list[str]) -> None:
    name, *options = args
    commands = get_commands()
    assert name in commands, f"manage.py {name}: no such management command"
    parser = load_command_class(commands[name], name).create_parser("manage.py", name)
    try:
        parser.parse_args(options)
    except CommandError as error:
        pytest.fail(f"manage.py {' '.join(args)}: {error}")


def _check_bench(args: list[str]) -> None:
    unknown = set(args) - _bench_sections()
    assert not unknown, f"python -m bench: no section {sorted(unknown)}"


def _check_program(program: str, args: list[str]) -> None:
    name = program.removeprefix(".venv/bin/")
    if name == "make":
        _check_make(args)
    elif name in {"python", "python3"} and args[:1] == ["manage.py"]:
        _check_manage(args[1:])
    elif name in {"python", "python3"} and args[:2] == ["-m", "bench"]:
        _check_bench(args[2:])
    elif name == "gunicorn":
        assert (ROOT / (args[0].replace(".", "/") + ".py")).exists(), args[0]
    elif name == "celery":
        assert args[:2] == ["-A", "rummyref"] and args[2] in {"worker", "beat"}, args
    elif program.startswith(".venv/bin/"):
        requirements = (ROOT / "requirements-dev.txt").read_text().lower()
        assert name.split("-")[0] in requirements, f"{program}: not installed by make test"
    else:
        assert name in SYSTEM_TOOLS, f"{program}: not a program the project or a server has"


def _check_command(words: list[str]) -> None:
    words = words[1:] if words[0] == "export" else list(words)
    while words and re.match(r"^[A-Za-z_]\w*=", words[0]):
        _check_variable(words.pop(0).split("=", 1)[0])
    if words:
        _check_program(words[0], words[1:])
        for word in words[1:]:
            _check_place(word)


def _check_line(line: str) -> None:
    for words in _simple_commands(line):
        _check_command(words)


def _check_span(span: str) -> None:
    if "…" in span or "*" in span:
        return  # an elided or wildcard name stands for many
    if re.match(r"(make|manage\.py|\.venv/bin/\S+) ", span):
        words = ["python", *shlex.split(span)] if span.startswith("manage.py") else None
        _check_command(words or shlex.split(span))
    elif span.startswith("/") and span.split("/")[1] not in SYSTEM_ROOTS:
        _check_url(span.split()[0])
    elif re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+(=\S*)?", span):
        _check_constant(span.split("=", 1)[0])
    else:
        _check_place(span)


@pytest.mark.parametrize("doc", _doc_params())
def test_every_shell_command_is_real(doc):
    commands = fenced_commands(doc.read_text(encoding="utf-8"))
    assert _problems(_check_line, commands) == []


@pytest.mark.parametrize("doc", _doc_params())
def test_every_command_path_url_and_setting_the_prose_names_is_real(doc):
    spans = _inline_code(doc.read_text(encoding="utf-8"))
    assert _problems(_check_span, spans) == []


def test_the_docs_commands_are_read():
    readme = fenced_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    operations = fenced_commands((ROOT / "docs" / "operations.md").read_text(encoding="utf-8"))
    assert {"make run", "make test", "make run HTTPS=1"} <= set(readme)
    assert "pg_dump -Fc -h db -U rummyref -d rummyref -f rummyref.dump" in operations
    assert any(line.startswith("pg_restore --no-owner") for line in operations)


class TestTheCheckRefuses:
    def test_a_make_target_the_makefile_lacks(self):
        assert _problems(_check_line, ["make run", "make deploy"]) == [
            "make deploy: the Makefile has no such target"
        ]

    def test_a_make_variable_the_makefile_never_reads(self):
        assert len(_problems(_check_line, ["make run PORTS=8123"])) == 1

    def test_a_management_command_that_does_not_exist(self):
        assert len(_problems(_check_line, [".venv/bin/python manage.py verify_everything"])) == 1

    def test_an_option_a_management_command_does_not_take(self):
        line = ".venv/bin/python manage.py verify_tables --repair"
        assert len(_problems(_check_line, [line])) == 1
        assert _problems(_check_line, [line.replace("--repair", "--checkpoint")]) == []

    def test_a_bench_section_that_does_not_exist(self):
        assert len(_problems(_check_line, [".venv/bin/python -m bench gin speed"])) == 1

    def test_a_setting_no_code_reads(self):
        assert len(_problems(_check_line, ["export RUMMYREF_TURBO=1"])) == 1

    def test_a_path_that_is_not_in_the_repository(self):
        assert len(_problems(_check_span, ["deploy/nginx/rummyref.conf", "deploy/k8s/"])) == 1

    def test_an_address_no_route_serves(self):
        assert _problems(_check_span, ["/api/v1/tables/{id}/state/"]) == []
        assert len(_problems(_check_span, ["/api/v1/tables/{id}/score/"])) == 1

    def test_a_program_nobody_ships(self):
        assert len(_problems(_check_line, ["rummyctl start"])) == 1


def _check_link(doc: Path, target: str) -> None:
    if re.match(r"[a-z]+:", target) or target.startswith("#"):
        return  # another site, or a heading of the same page (the rules' own test reads those)
    if target.startswith("/"):
        _check_url(target)
    else:
        place = target.split("#", 1)[0]
        assert (doc.parent / place).exists(), f"{target}: no such file beside {doc.name}"


@pytest.mark.parametrize("doc", _doc_params())
def test_every_link_and_picture_lands(doc):
    text = doc.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"", text)
    links = [link or picture for link, picture in targets]
    assert _problems(lambda target: _check_link(doc, target), links) == []

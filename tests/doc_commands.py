"""The shell commands the docs give, read from their fenced blocks (```sh and the like).

tests/test_docs.py checks that each is real; tests/deploy/test_operations_guide.py and
tests/deploy/test_make_run.py run them."""

SHELL_FENCES = {"sh", "shell", "bash", "console"}


def shell_blocks(text: str) -> list[list[str]]:
    """Return each shell fence of the text as its command lines, continuations joined."""
    blocks: list[list[str]] = []
    fence, pending = None, ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else stripped[3:].strip() or "text"
            if fence in SHELL_FENCES:
                blocks.append([])
            continue
        if fence not in SHELL_FENCES:
            continue
        pending += stripped
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        if pending:
            blocks[-1].append(pending)
        pending = ""
    return blocks


def fenced_commands(text: str) -> list[str]:
    """Return every command line of the text's shell fences, in order."""
    return [command for block in shell_blocks(text) for command in block]


if __name__ == "__main__":
    # `python -m tests.doc_commands FILE`: one command a line, for a CI step to run.
    import sys
    from pathlib import Path

    print("\n".join(fenced_commands(Path(sys.argv[1]).read_text(encoding="utf-8"))))

"""Run every bench and print its table; exit 1 when a target is missed."""

import sys
from time import perf_counter

from bench import (
    archive,
    book,
    clubnight,
    gin,
    limits,
    pages,
    ramino,
    replay,
    result_card,
    standings,
    tournaments,
)
from bench.timing import RUNS, verdict


def main() -> int:
    """Print the bench report."""
    started = perf_counter()
    print(
        f"RummyRef bench. Gin and Ramino: each hand timed as the best of {RUNS} runs,"
        " gc.collect() before each set of hands and the garbage collector off during each timed"
        " call. Replay and pages: every run timed, the collector on, as in a server.\n"
    )
    passed = True
    sections = (gin, ramino, limits, replay, tournaments, pages, result_card, standings, clubnight)
    sections += (archive,)
    sections += (book,)
    for section in sections:
        report, ok = section.run()
        passed &= ok
        print(report, end="\n\n")
    print(f"Overall: {verdict(passed)} ({perf_counter() - started:.0f} s)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())

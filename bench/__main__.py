"""Run every bench (or those named: ``python -m bench book archive``) and print its table;
exit 1 when a target is missed."""

import sys
from time import perf_counter

from bench import (
    append,
    archive,
    book,
    clubnight,
    gin,
    limits,
    live,
    pages,
    ramino,
    referee,
    replay,
    result_card,
    review,
    standings,
    tournaments,
)
from bench.timing import QUICK, QUICK_NOTE, RUNS, verdict


def main() -> int:
    """Print the bench report."""
    started = perf_counter()
    print(
        f"RummyRef bench. Gin and Ramino: each hand timed as the best of {RUNS} runs,"
        " gc.collect() before each set of hands and the garbage collector off during each timed"
        " call. Replay and pages: every run timed, the collector on, as in a server.\n"
    )
    if QUICK:
        print(f"{QUICK_NOTE}\n")
    passed = True
    sections = (gin, ramino, limits, referee, replay, tournaments, pages, result_card, archive)
    sections += (book, standings, clubnight, live, append, review)
    named = sys.argv[1:]
    unknown = set(named) - {section.__name__.removeprefix("bench.") for section in sections}
    if unknown:
        print(f"No bench section called {', '.join(sorted(unknown))}.")
        return 2
    for section in sections:
        if named and section.__name__.removeprefix("bench.") not in named:
            continue
        report, ok = section.run()
        passed &= ok
        print(report, end="\n\n")
    print(f"Overall: {verdict(passed)} ({perf_counter() - started:.0f} s)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())

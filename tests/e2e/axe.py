"""WCAG checks in the browser tests: axe-core (bundled by axe-playwright-python) run in the
page as it stands. Run through Playwright's evaluate, so the page's CSP does not apply."""

from axe_playwright_python.sync_playwright import Axe

# WCAG 2.0, 2.1 and 2.2 at levels A and AA: the level the app keeps.
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# axe's own advice beyond WCAG's letter (one h1 a page, headings in order, content in
# landmarks) and its rules still marked experimental, such as an accessible name that
# contains the visible text (WCAG 2.5.3).
BEST_PRACTICE = ["best-practice", "experimental"]
# The impacts a page may not have any of; "minor" findings are reported, not failed on.
BLOCKING = ("critical", "serious", "moderate")


def axe_violations(
    page,
    within: str | None = None,
    *,
    impacts: tuple[str, ...] | None = None,
    best_practice: bool = False,
) -> list[str]:
    """Return axe's WCAG A/AA violations on ``page`` (or the part ``within`` selects), one
    line each: the rule, its impact and the elements; only those of ``impacts`` if given,
    and axe's best practices too if ``best_practice``."""
    tags = WCAG_AA + (BEST_PRACTICE if best_practice else [])
    options = {"runOnly": {"type": "tag", "values": tags}, "resultTypes": ["violations"]}
    results = Axe().run(page, context=within, options=options)
    return [
        f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']]}"
        for v in results.response["violations"]
        if impacts is None or v["impact"] in impacts
    ]

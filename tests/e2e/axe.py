"""WCAG checks in the browser tests: axe-core (bundled by axe-playwright-python) run in the
page as it stands. Run through Playwright's evaluate, so the page's CSP does not apply."""

from axe_playwright_python.sync_playwright import Axe

# WCAG 2.0, 2.1 and 2.2 at levels A and AA: the level the app keeps.
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def axe_violations(page, within: str | None = None) -> list[str]:
    """Return axe's WCAG A/AA violations on ``page`` (or the part ``within`` selects), one
    line each: the rule, its impact and the elements."""
    options = {"runOnly": {"type": "tag", "values": WCAG_AA}, "resultTypes": ["violations"]}
    results = Axe().run(page, context=within, options=options)
    return [
        f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']]}"
        for v in results.response["violations"]
    ]

"""Every rule of RULES.md is named by at least one test that checks it."""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The rules live beside the repository (../shared/RULES.md), as on every machine of ours;
# RULES_MD points elsewhere when a checkout sits on its own.
RULES = Path(os.environ.get("RULES_MD", ROOT.parent / "shared" / "RULES.md"))


def _rule_ids() -> set[str]:
    return set(re.findall(r"\*\*([A-Z0-9]+(?:-[A-Z0-9]+)+)\*\*", RULES.read_text()))


def _named_in_tests() -> set[str]:
    """Collect rule IDs written in test names (as ID or id_with_underscores) or docstrings."""
    text = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    found = set()
    for rule in _rule_ids():
        spellings = (rule, rule.replace("-", "_").lower())
        if any(spelling in text for spelling in spellings):
            found.add(rule)
    return found


class TestRuleCoverage:
    def test_rules_md_is_where_the_tests_expect_it(self):
        assert RULES.is_file(), f"RULES.md not found at {RULES}; set RULES_MD"
        assert len(_rule_ids()) > 70

    def test_every_rule_is_named_by_a_test(self):
        missing = _rule_ids() - _named_in_tests()
        assert not missing, f"no test names these rules: {sorted(missing)}"

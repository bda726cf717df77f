"""Every verdict the engine can give has a sentence, and the catalogs are complete and built."""

import ast
from pathlib import Path

import polib
import pytest
from django.utils import translation

from games.rules.text import ITEM_TITLES, MESSAGES, MOVE_MESSAGES, violation_text
from scoring.errors import Violation

ROOT = Path(__file__).resolve().parents[3]
CATALOGS = sorted((ROOT / "locale").glob("*/LC_MESSAGES/django.po"))


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) else None


def _engine_verdicts() -> set[tuple[str, str]]:
    """Find every (rule, code) the engine's source raises, by reading its syntax tree."""
    found = set()
    for path in (ROOT / "scoring").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            keywords = {k.arg: k.value for k in node.keywords}
            if name == "Violation":
                pair = (_literal(keywords.get("rule")), _literal(keywords.get("code")))
            elif name == "_refuse" and len(node.args) >= 2:
                pair = (_literal(node.args[0]), _literal(node.args[1]))
            elif name == "_event_violation" and node.args:
                pair = ("EVENT", _literal(node.args[0]))
            elif name == "payload_error" and len(node.args) >= 3:
                pair = ("EVENT", _literal(node.args[2]))
            else:
                continue
            if pair[0] and pair[1]:
                found.add(pair)
    return found


def _move_verdicts() -> set[str]:
    """Find the codes scoring/play/ raises under the game's rule (a variable, not a literal)."""
    found = set()
    nodes = [
        node
        for path in (ROOT / "scoring" / "play").glob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
    ]
    for node in nodes:
        if not isinstance(node, ast.Call) or len(node.args) < 2:
            continue
        name = getattr(node.func, "id", "")
        if name == "_phase_refusal" or (name == "_refuse" and _literal(node.args[0]) is None):
            code = _literal(node.args[1])
            if code:
                found.add(code)
    return found


def _score_item_rules() -> set[str]:
    rules = set()
    for path in (ROOT / "scoring").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ScoreItem":
                rule = _literal(node.args[0]) if node.args else None
                if rule:
                    rules.add(rule)
    return rules


class TestVerdictSentences:
    def test_the_scan_finds_the_engines_verdicts(self):
        verdicts = _engine_verdicts()
        assert ("GIN-KNOCK", "over_limit") in verdicts and ("CARD-3", "unknown_token") in verdicts

    def test_every_verdict_the_engine_can_give_has_a_sentence(self):
        missing = _engine_verdicts() - set(MESSAGES)
        assert not missing, f"add these to games/rules/verdicts.py MESSAGES: {sorted(missing)}"

    def test_every_move_verdict_of_a_variable_rule_has_a_sentence(self):
        codes = _move_verdicts()
        assert {"not_your_turn", "draw_again", "below_minimum"} <= codes
        assert codes - set(MOVE_MESSAGES) == set()

    @pytest.mark.parametrize("code", sorted(MOVE_MESSAGES))
    def test_every_move_sentence_renders_in_both_languages(self, code):
        violation = Violation(rule="R40-TURN", message="fallback", code=code, params={})
        for language in ("en", "it"):
            with translation.override(language):
                text = violation_text(violation)
            assert text and text != "fallback" and "%(" not in text

    def test_every_score_item_rule_has_a_title(self):
        assert _score_item_rules() - set(ITEM_TITLES) == set()

    @pytest.mark.parametrize(("rule", "code"), sorted(MESSAGES))
    def test_every_sentence_renders_in_both_languages(self, rule, code):
        violation = Violation(rule=rule, message="fallback", code=code, params={})
        for language in ("en", "it"):
            with translation.override(language):
                text = violation_text(violation)
            assert text and text != "fallback" and "%(" not in text


class TestCatalogs:
    @pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parts[-3])
    def test_the_catalog_is_complete(self, path):
        catalog = polib.pofile(str(path))
        assert catalog.percent_translated() == 100, [
            e.msgid for e in catalog.untranslated_entries()
        ]
        assert not catalog.fuzzy_entries()

    @pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parts[-3])
    def test_the_compiled_catalog_matches_its_source(self, path):
        source = {
            (e.msgctxt, e.msgid): (e.msgstr, e.msgstr_plural) for e in polib.pofile(str(path))
        }
        built = {
            (e.msgctxt, e.msgid): (e.msgstr, e.msgstr_plural)
            for e in polib.mofile(str(path.with_suffix(".mo")))
            if e.msgid
        }
        assert built == source, "run: manage.py compilemessages --ignore=.venv"

    def test_a_gin_meld_laid_in_play_reads_gins_own_sentence(self):
        # PlayRules.melds_in_play_code: Gin's code, its sentence in its words (GIN-TURN).
        violation = Violation("GIN-TURN", "x", {}, "gin_melds")
        assert violation_text(violation) == (
            "Gin melds are shown when knocking, not laid during play."
        )
        with translation.override("it"):
            assert violation_text(violation).startswith("Nel Gin le combinazioni si mostrano")

    def test_the_italian_knock_refusal_says_bussare(self):
        violation = Violation("GIN-KNOCK", "x", {"count": 14, "limit": 10}, "over_limit")
        with translation.override("it"):
            assert "bussare" in violation_text(violation)

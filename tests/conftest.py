"""Test root. Django-side fixtures live in tests/games/conftest.py; tests/scoring needs none."""

"""Production settings: check --deploy is clean, and missing or bad values stop start-up."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from rummyref.env import env_bool, env_int

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    # The e2e tests set the last.
    dropped = ("DEBUG", "SECRET_KEY", "LOG_CHAIN_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


class TestProductionSettings:
    def test_check_deploy_is_clean_in_production_mode(self):
        result = _manage(
            "check",
            "--deploy",
            "--fail-level",
            "WARNING",
            DEBUG="0",
            SECRET_KEY="k" * 30 + "-production-secret-from-the-environment",
            LOG_CHAIN_KEY="c" * 16 + "-log-chain-secret-from-the-environment",
            ALLOWED_HOSTS="rummyref.example.org",
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert "no issues" in result.stdout

    def test_production_refuses_to_start_without_a_secret_key(self):
        result = _manage("check", DEBUG="0", ALLOWED_HOSTS="rummyref.example.org")
        assert result.returncode != 0
        assert "SECRET_KEY" in result.stderr

    @pytest.mark.parametrize("key", [None, "short"])
    def test_push_refuses_to_start_without_the_engine_s_signing_key(self, key):
        """Without it no stream could be told from a forged one (games/pages/live.py)."""
        signing = {"PUSH_SIG_KEY": key} if key else {}
        result = _manage("check", PUSH_URL="http://127.0.0.1:5561", **signing)
        assert result.returncode != 0
        assert "PUSH_SIG_KEY" in result.stderr
        with_key = _manage("check", PUSH_URL="http://127.0.0.1:5561", PUSH_SIG_KEY="k" * 32)
        assert with_key.returncode == 0, with_key.stderr

    @pytest.mark.parametrize("key", [None, "short", "dev-only-log-chain-key-of-some-length"])
    def test_production_refuses_to_start_without_a_real_log_chain_key(self, key):
        result = _manage(
            "check",
            DEBUG="0",
            SECRET_KEY="k" * 30 + "-production-secret-from-the-environment",
            ALLOWED_HOSTS="rummyref.example.org",
            **({"LOG_CHAIN_KEY": key} if key else {}),
        )
        assert result.returncode != 0
        assert "LOG_CHAIN_KEY" in result.stderr


class TestEnvironmentValues:
    def test_a_boolean_that_is_not_one_is_refused_by_name(self, monkeypatch):
        monkeypatch.setenv("SOME_FLAG", "maybe")
        with pytest.raises(ImproperlyConfigured, match="SOME_FLAG"):
            env_bool("SOME_FLAG", False)

    def test_an_integer_that_is_not_one_is_refused_by_name(self, monkeypatch):
        monkeypatch.setenv("SOME_NUMBER", "ten")
        with pytest.raises(ImproperlyConfigured, match="SOME_NUMBER"):
            env_int("SOME_NUMBER", 1)


class TestPerRequestCosts:
    def test_gunicorn_reads_the_projects_threaded_settings(self):
        # A poll must not queue behind a slow append in a one-thread worker.
        printed = subprocess.run(
            [sys.executable, "-m", "gunicorn", "--print-config", "rummyref.wsgi"],
            cwd=ROOT,
            env={**os.environ, "GUNICORN_WORKERS": "2"},
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
        config = dict(
            (name.strip(), value.strip())
            for name, _, value in (line.partition("=") for line in printed.splitlines())
        )
        assert config["worker_class"] == "gthread"
        assert int(config["threads"]) >= 4
        assert config["workers"] == "2"

    def test_connections_outlive_a_request_and_sessions_are_the_databases(
        self, settings, client, db
    ):
        assert settings.DATABASES["default"]["CONN_MAX_AGE"] == 60
        assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
        # A table's phone keeps its keys in the session: kept in the database only, under
        # its cookie's digest (games/shared/sessions.py), never in the shared cache.
        response = client.post(
            "/",
            {
                "variant": "gin",
                "gin__preset": "big_gin",
                "gin__target": "100",
                "player_1": "A",
                "player_2": "B",
            },
        )
        assert response.status_code == 302
        from django.contrib.sessions.backends.cached_db import KEY_PREFIX
        from django.contrib.sessions.models import Session
        from django.core.cache import caches

        from games.shared.sessions import stored_key

        session_key = client.cookies["sessionid"].value
        assert caches[settings.SESSION_CACHE_ALIAS].get(KEY_PREFIX + session_key) is None
        assert Session.objects.filter(session_key=stored_key(session_key)).exists()
        assert not Session.objects.filter(session_key=session_key).exists()

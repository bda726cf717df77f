"""Settings for RummyRef, read from the environment with safe local defaults.

Locally (no environment at all) the app runs on SQLite with Celery tasks executed eagerly,
so ``make run`` works on a bare machine. ``DATABASE_URL`` switches to PostgreSQL and
``CELERY_BROKER_URL`` to a real broker with real workers. ``DEBUG=0`` is production mode:
it requires ``SECRET_KEY`` and ``ALLOWED_HOSTS`` and turns on every ``check --deploy`` guard.
"""

import ipaddress
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from rummyref.env import env_bool, env_float, env_int, env_list, env_str
from rummyref.lan import lan_addresses, machine_hostnames
from rummyref.release import code_version

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)

if DEBUG:
    # Only ever used on a developer's machine; production refuses to start without its own.
    SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-key-do-not-use-in-production")
    # This machine's own LAN address too, so phones on the same Wi-Fi can open `make run`
    # (it binds 0.0.0.0), and its own names (hostname, hostname.local), which the HTTPS
    # certificate of `make run HTTPS=1` carries. Only its own, never "*": a page on another
    # site still cannot reach the local server through a hostname of its own (DNS rebinding).
    # Over HTTPS (gunicorn with the local certificate) a form's Origin is https://<host>:<port>,
    # the request's own, which Django's CSRF check accepts with no CSRF_TRUSTED_ORIGINS.
    ALLOWED_HOSTS = env_list(
        "ALLOWED_HOSTS",
        [
            "127.0.0.1",
            "localhost",
            "[::1]",
            "testserver",
            *machine_hostnames(),
            *lan_addresses(),
        ],
    )
else:
    SECRET_KEY = env_str("SECRET_KEY")
    if len(SECRET_KEY) < 50 or SECRET_KEY.startswith("dev-only"):
        raise ImproperlyConfigured("SECRET_KEY must be a random string of 50 characters or more.")
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("Set ALLOWED_HOSTS (comma-separated) when DEBUG=0.")

# Every table's log is hash-chained with an HMAC keyed by this secret, held outside the
# database, so a rewritten log cannot be given a chain that verifies. It must not change
# on a live database: every chain would then fail verification.
if DEBUG:
    LOG_CHAIN_KEY = env_str("LOG_CHAIN_KEY", "dev-only-log-chain-key")
else:
    LOG_CHAIN_KEY = env_str("LOG_CHAIN_KEY")
    if len(LOG_CHAIN_KEY) < 32 or LOG_CHAIN_KEY.startswith("dev-only"):
        raise ImproperlyConfigured(
            "LOG_CHAIN_KEY must be a random string of 32 characters or more."
        )

# The audit's checkpoints also go outside the database: each checkpointing run appends one
# signed line (every table's head and checkpoint count) to this file, which verify_tables
# compares the database with, so a table deleted whole or its checkpoints removed by the
# owner show. Keep it on another disk or ship it elsewhere; empty: no file (nor that check).
CHECKPOINT_LOG = env_str("CHECKPOINT_LOG", str(BASE_DIR / ".audit" / "checkpoints.jsonl"))

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# `make run HTTPS=1` (games/management/commands/local_ca.py): this machine's own certificate
# authority and its server certificate live here (git-ignored; the authority's key never
# leaves it), and the app hands out the authority's certificate at /ca/ while DEBUG is on.
# LAN_HTTPS_PORT is the port that run serves HTTPS on (0: none), for the pages that link to it.
LOCAL_CA_DIR = Path(env_str("LOCAL_CA_DIR", str(BASE_DIR / ".local-ca")))
LAN_HTTPS_PORT = env_int("LAN_HTTPS_PORT", 0)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "rummyref.apps.RummyRefConfig",
    "games",
]

MIDDLEWARE = [
    # Outermost: a body a refusal left unread is read before the connection closes, so that
    # nginx passes the refusal on rather than a 502 (rummyref/request_body.py).
    "rummyref.request_body.UnreadBodyMiddleware",
    # Then: X-Forwarded-* from a peer that is not one of TRUSTED_PROXIES is dropped before
    # anything reads it (the HTTPS redirect, throttles, the login lock-out).
    "rummyref.security.ForwardedHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session: a table's poll that finds nothing new needs neither it nor the
    # database (the security headers above are still added).
    "games.pages.idle_polls.IdlePollMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, so its answer is seen first: an anonymous phone's session that was
    # used is extended, written at most once a day.
    "rummyref.security.SessionRenewalMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before CSRF reads the form: text with NUL, control characters or broken UTF-8 is a 400.
    "games.shared.clean_text.CleanTextMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A domain error a page view lets through: one answer on every page (games/pages/errors.py).
    "games.pages.errors.DomainErrorMiddleware",
    # Gives a browser that logged in its device cookie (games.pages.login_guard).
    "games.pages.login_guard.DeviceCookieMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "rummyref.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "rummyref.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # A new PostgreSQL connection per request was half the database's CPU: keep them open,
        # and check one before reuse, so a restarted database costs one error-free reconnect.
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Appends lock the table row; on SQLite the whole write transaction takes the lock up front.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("it", _("Italian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates day first and 24-hour times (rummyref/formats/en), as at the tables it serves.
FORMAT_MODULE_PATH = ["rummyref.formats"]
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "Europe/Rome")
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic puts the files nginx serves (deploy/nginx/rummyref.conf names it).
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# The cache holds throttle counters, so every process of the app must share it: Redis when
# CACHE_URL names one (production, CI), else files on this machine's disk, which every
# process of one machine shares (make run). Never the per-process memory cache: a limit of
# 120/min across 3 workers would let 360 through.
# While Redis is down the app serves without it (games.shared.cache): reads miss, sessions
# come from the database, throttles let requests through. The timeouts (seconds; the URL's
# ?socket_timeout=… overrides them) bound what an unreachable Redis costs a request; Redis
# answers a healthy one in well under a millisecond.
CACHE_URL = env_str("CACHE_URL", "")
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": {
            "BACKEND": "games.shared.cache.ResilientRedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "rummyref",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    }
elif CACHE_URL:
    raise ImproperlyConfigured(f"CACHE_URL={CACHE_URL!r} is not a redis:// address.")
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": env_str("CACHE_DIR", str(BASE_DIR / ".cache")),
            # Culling drops a third of the entries at random: keep room for every client's counter.
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    }

# The pieces of pages the {% cache %} tag keeps (a hand's entry in the history, the score
# chart) go to the same store under a prefix naming this copy of the code: after a deploy,
# what the old templates drew is never shown (rummyref/release.py).
CACHES["template_fragments"] = {
    **CACHES["default"],
    "KEY_PREFIX": f"{CACHES['default'].get('KEY_PREFIX', '')}:{code_version()}",
}

# The proxies in front of the app (addresses or networks, comma-separated; the same list is
# gunicorn's forwarded_allow_ips). X-Forwarded-* is believed only from a direct peer on this
# list; from anyone else it is dropped (rummyref.security), so a client that reaches the app
# directly cannot choose the address its throttles and lock-outs count. Empty (the default):
# no proxy, every X-Forwarded-* is ignored.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES: {_proxy!r} is not an IP address or network."
        ) from None
# How many proxies append to X-Forwarded-For (read only from a trusted peer): one by default
# when TRUSTED_PROXIES names some. Throttles and the login lock-out both count by the
# address this gives.
NUM_PROXIES = env_int("NUM_PROXIES", 1 if TRUSTED_PROXIES else 0)
if NUM_PROXIES < 0:
    raise ImproperlyConfigured("NUM_PROXIES must be 0 or more.")
if NUM_PROXIES and not TRUSTED_PROXIES:
    # Else every client would count as the proxy's address: one throttle, one lock for all.
    raise ImproperlyConfigured(
        "NUM_PROXIES is set but TRUSTED_PROXIES is empty: set TRUSTED_PROXIES to the "
        "addresses of the proxies whose X-Forwarded-For is believed."
    )

# Security: on everywhere; the HTTPS-only guards only in production, where TLS terminates in front.
SESSION_COOKIE_HTTPONLY = True
# Sessions live in the database, keyed by their cookie's digest (games/shared/sessions.py):
# a copy of the database opens nothing, and no cache can serve one older than the database's.
# Idle polls, most requests at a club night, are answered before the session is read.
SESSION_ENGINE = "games.shared.sessions"
# Table keys live in an anonymous phone's session: it lasts ANON_SESSION_DAYS from its last
# use (rummyref.security renews a used one, at most once a day), so a phone at the table every
# week keeps its keys and a lost phone's keys lapse. A signed-in session lasts
# ACCOUNT_SESSION_DAYS (rummyref.security sets it at login): an account opens more than a table.
ANON_SESSION_DAYS = env_int("ANON_SESSION_DAYS", 30)
ACCOUNT_SESSION_DAYS = env_int("ACCOUNT_SESSION_DAYS", 14)
if min(ANON_SESSION_DAYS, ACCOUNT_SESSION_DAYS) < 1:
    raise ImproperlyConfigured("ANON_SESSION_DAYS and ACCOUNT_SESSION_DAYS must be 1 or more.")
SESSION_COOKIE_AGE = ANON_SESSION_DAYS * 24 * 60 * 60
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Content-Security-Policy: scripts, styles and everything else from this site only; no inline
# script or style (htmx is told not to inject its indicator styles, base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# The page may use none of these devices; the screen wake lock keeps a table's phone awake.
PERMISSIONS_POLICY = {
    "accelerometer": [],
    "camera": [],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "payment": [],
    "usb": [],
    "screen-wake-lock": ["self"],
}
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # The browser keeps a __Host- cookie only if it is Secure, for path / and without a
    # Domain, so no other host of the domain (nor plain HTTP) can set or shadow it. On for a
    # new site; a running one turns it on when it can afford that every phone's session (and
    # with it an anonymous phone's keys) is left behind once: HOST_COOKIES=0 keeps the names.
    if env_bool("HOST_COOKIES", True):
        SESSION_COOKIE_NAME = "__Host-sessionid"
        CSRF_COOKIE_NAME = "__Host-csrftoken"
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

REST_FRAMEWORK = {
    # The schema states the bounds the parsers, serializers and views apply (games/api/schema.py).
    "DEFAULT_SCHEMA_CLASS": "games.api.schema.ApiAutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.BoundedJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "games.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_THROTTLE_ANON", "600/min"),
        "user": env_str("API_THROTTLE_USER", "1200/min"),
        # The referee needs no login, so it is throttled per client address.
        "referee": env_str("API_THROTTLE_REFEREE", "120/min"),
        # Wrong table codes typed at /join/: a code is short, so guessing is held to a trickle.
        "join": env_str("JOIN_THROTTLE", "10/min"),
        # Wrong move codes typed at /keys/receive/ (this phone's keys to another), likewise.
        "transfer": env_str("TRANSFER_THROTTLE", "10/min"),
        # Page writes per client address (games.shared.throttles.page_write_allowed): each
        # stores rows, or sends a mail, for whoever asks.
        "table_create": env_str("TABLE_CREATE_THROTTLE", "30/hour"),
        "group_create": env_str("GROUP_CREATE_THROTTLE", "10/hour"),
        "signup": env_str("SIGNUP_THROTTLE", "10/hour"),
        "invite_create": env_str("INVITE_THROTTLE", "30/hour"),
        "password_reset": env_str("PASSWORD_RESET_THROTTLE", "5/hour"),
        # ...and reset mails per email address, whoever asks: an inbox is not flooded.
        "password_reset_email": env_str("PASSWORD_RESET_EMAIL_THROTTLE", "3/hour"),
    },
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "NUM_PROXIES": NUM_PROXIES,
}

# The largest JSON body the API reads (bytes): a hand or a referee question is a few hundred.
API_MAX_BODY = env_int("API_MAX_BODY", 64 * 1024)

# Imports (games.tables.imports): the largest file taken, a table's log or an archive of
# tables (bytes; an upload is cut off past it, never stored), and the most an archive's
# tables may unpack to in all.
IMPORT_MAX_BYTES = env_int("IMPORT_MAX_BYTES", 20 * 1024 * 1024)
IMPORT_MAX_UNPACKED = env_int("IMPORT_MAX_UNPACKED", 100 * 1024 * 1024)

SPECTACULAR_SETTINGS = {
    "TITLE": "RummyRef API",
    "DESCRIPTION": (
        "Scorekeeping and refereeing for rummy games played with real cards. Every table keeps "
        "an append-only event log; totals, hands and the winner are replayed from it. Send the "
        "table's scorekeeper key (to record) or viewer key (to read) in the `X-Table-Key` header."
    ),
    "VERSION": "1.0.0",
    # OpenAPI 3.1 schemas are JSON Schema (2020-12): they can state the clean-text rule on
    # keys (propertyNames), which 3.0 cannot.
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI served from our own static files: no third-party CDN on the docs page.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Tables and the referee list different games (a game is refereed before it is playable).
    "ENUM_NAME_OVERRIDES": {
        # The games the engine knows: one enum for the tables' and the referee's "variant".
        "VariantEnum": "games.shared.models.game_choices",
    },
}

# Celery: with no broker configured, tasks run in-process (eager) so the app works anywhere.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", "") or None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task taken by a worker that dies without answering (power cut, OOM kill) goes back to
# the queue after this many seconds (Redis broker; RabbitMQ notices the lost connection).
# It must exceed the longest task (a league's full recompute), or a slow task runs twice
# at once: harmless (recomputes are idempotent and serialised per league), only wasteful.
# Workers look for such tasks every CELERY_RESTORE_INTERVAL seconds (one cheap Redis query;
# kombu's default throttle would make it ten times rarer).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600),
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": 1,
}
# A request sends its tasks after its commit (games/shared/task_outbox.py): a broker that is
# down or hung (paused, partitioned) must cost it at most about half a second. Connecting and
# each read or write on the broker's socket are bounded; a task not sent waits in the outbox.
# (The socket options are Redis's; the AMQP transport takes them and ignores them.)
CELERY_BROKER_CONNECTION_TIMEOUT = env_float("CELERY_BROKER_CONNECT_TIMEOUT", 0.25)
CELERY_BROKER_TRANSPORT_OPTIONS |= {
    "socket_connect_timeout": CELERY_BROKER_CONNECTION_TIMEOUT,
    "socket_timeout": env_float("CELERY_BROKER_SOCKET_TIMEOUT", 0.5),
    # A refused connection is tried once more at once, not again after kombu's 2 s pause.
    # (A worker's own consumer reconnects by its own loop, not by these.)
    "max_retries": 1,
    "interval_start": 0,
}
# How often beat has the outbox's tasks sent (those the broker could not take at once).
OUTBOX_DRAIN_SECONDS = env_int("OUTBOX_DRAIN_SECONDS", 30)
# Celery beat (`celery -A rummyref beat`): the nightly audit replays every table's log, and
# the outbox's tasks are sent every OUTBOX_DRAIN_SECONDS.
CELERY_BEAT_SCHEDULE = {
    "nightly-tables-audit": {
        "task": "games.tasks.tables_audit",
        "schedule": crontab(hour=env_int("AUDIT_HOUR", 3), minute=env_int("AUDIT_MINUTE", 30)),
    },
    "outbox-drain": {
        "task": "games.tasks.outbox_drain",
        "schedule": OUTBOX_DRAIN_SECONDS,
        # A drain that waited longer than its period is replaced by the next one.
        "options": {"expires": OUTBOX_DRAIN_SECONDS},
    },
}
# Where beat keeps when each entry last ran (its working folder's celerybeat-schedule by
# default): a folder the process may write, such as /var/lib/rummyref/.
CELERY_BEAT_SCHEDULE_FILENAME = env_str("BEAT_SCHEDULE_FILE", "celerybeat-schedule")
# Error mails to the ADMINS: at most one per this many seconds, all processes together.
ERROR_MAIL_SECONDS = env_int("ERROR_MAIL_SECONDS", 60)
# Who is mailed when the audit finds a table off: "Name <mail>, Other <mail>".
ADMINS = [getaddresses([entry])[0] for entry in env_list("ADMINS", [])]

# Mail (password resets, the audit): printed on the console locally, sent by SMTP in production.
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "RummyRef <noreply@localhost>")

# Accounts: clubs, leagues and seasons need one; casual tables never do.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses every login while its lock holds
    "django.contrib.auth.backends.ModelBackend",
]
# Login lock-out (django-axes with games.pages.login_guard; attempts kept in the database,
# so every process agrees). Over LOGIN_LOCKOUT_MINUTES, LOGIN_FAILURE_LIMIT wrong passwords
# for one account from one address lock that account from that address only, and
# LOGIN_ADDRESS_FAILURE_LIMIT from one address, all accounts together, lock that address;
# the login page and the admin's alike. A browser that logged in to the account before
# (its device cookie lasts LOGIN_DEVICE_DAYS) is under neither: after its own wrong
# passwords it waits 1, 2, 4… seconds instead.
AXES_HANDLER = "games.pages.login_guard.LoginGuard"
# The two counts, and their limits in the same order:
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 30)
if min(AXES_FAILURE_LIMIT, LOGIN_ADDRESS_FAILURE_LIMIT) < 1:
    raise ImproperlyConfigured("LOGIN_FAILURE_LIMIT and LOGIN_ADDRESS_FAILURE_LIMIT must be 1+.")
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15))
LOGIN_DEVICE_DAYS = env_int("LOGIN_DEVICE_DAYS", 365)
AXES_RESET_ON_SUCCESS = True  # the account's count from that address only (LoginGuard)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "rummyref.security.client_address"
AXES_LOCKOUT_CALLABLE = "games.pages.login_guard.login_refused"
AXES_VERBOSE = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "clubs"
LOGOUT_REDIRECT_URL = "home"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Django names a refused request's path (404, 405, CSRF): old links carry secrets. Its
    # own console handler (DEBUG only) is replaced, so its lines reach the root's, redacted.
    "filters": {
        "redact_secrets": {"()": "rummyref.access_log.RedactSecretsFilter"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_secrets"]},
        "mail_admins": {
            "class": "games.shared.error_mail.RateLimitedAdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false", "redact_secrets"],
        },
    },
    "loggers": {"django": {"handlers": ["mail_admins"], "level": "INFO"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
if CELERY_TASK_ALWAYS_EAGER:
    # Tasks run inside the request (`make run`): a line per task done, and kombu's note that
    # no broker host was given, would bury the address and the demo links a person needs.
    LOGGING["loggers"]["celery.app.trace"] = {"level": "WARNING"}
    LOGGING["loggers"]["kombu.connection"] = {"level": "ERROR"}

# How often a table page asks for news (ms): other phones' entries must show within 3 s.
TABLE_POLL_MS = env_int("TABLE_POLL_MS", 2000)
# The room's big screen asks more often: a save must show there within 2 s.
TV_POLL_MS = env_int("TV_POLL_MS", 1000)
# Live updates (docs/live.md): the push engine's publish endpoint (Pushpin's, e.g.
# http://127.0.0.1:5561), with the app served through that engine. Empty: off, the pages
# poll as above. A save never waits for the engine; a publish gives up after PUSH_TIMEOUT.
PUSH_URL = env_str("PUSH_URL", "")
# How often a night's screens (the room's and the members') ask for news (ms), as above.
NIGHT_POLL_MS = env_int("NIGHT_POLL_MS", 2000)
PUSH_TIMEOUT = env_float("PUSH_TIMEOUT", 0.5)
# The secret the engine signs each request it passes on with (Grip-Sig, a JWT by HS256; its
# pushpin.conf's sig_key, issuer sig_iss "pushpin"): a stream is held only for a request
# that signature proves came through the engine. Required with PUSH_URL.
PUSH_SIG_KEY = env_str("PUSH_SIG_KEY", "")
PUSH_SIG_ISSUER = "pushpin"
if PUSH_URL and len(PUSH_SIG_KEY) < 32:
    raise ImproperlyConfigured(
        "With PUSH_URL set, set PUSH_SIG_KEY to the sig_key of pushpin.conf (32+ characters)."
    )

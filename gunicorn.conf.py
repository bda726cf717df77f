"""gunicorn's settings for RummyRef (read from the working directory: `gunicorn rummyref.wsgi`).

Threads, not only processes: an append can take a while, and a poll queued behind it in a
one-thread worker would wait for it. Each setting can be changed from the environment.
"""

import multiprocessing
import os

# Loopback: the proxy in front (TLS, static caching) is what the world reaches. Bind wider
# (GUNICORN_BIND=0.0.0.0:8000) only where that port is firewalled to the proxy.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# The peers whose X-Forwarded-Proto (and the like) gunicorn believes: the proxies Django
# trusts too (TRUSTED_PROXIES), else one on this machine. Other clients cannot pose as HTTPS.
forwarded_allow_ips = os.environ.get("TRUSTED_PROXIES") or "127.0.0.1"
worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("GUNICORN_THREADS", 8))
# A request that runs longer than this is a bug (every input is bounded): kill the worker.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 30))
graceful_timeout = 30
keepalive = 5
# Workers are replaced now and then, so memory held by a long night cannot pile up.
max_requests = 5000
max_requests_jitter = 500
# The access log goes to stdout (GUNICORN_ACCESSLOG names a file instead), through a logger
# that writes the old secret-bearing paths (/j/<token>/, /invite/<token>/, key links) with
# their secret redacted: rummyref.access_log, whose patterns nginx's log mirrors.
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-")
logger_class = "rummyref.access_log.RedactingLogger"

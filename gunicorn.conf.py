"""gunicorn's settings for RummyRef (read from the working directory: `gunicorn rummyref.wsgi`).

Threads, not only processes: an append can take a while, and a poll queued behind it in a
one-thread worker would wait for it. Each setting can be changed from the environment.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
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
accesslog = "-"

"""WSGI entry point (gunicorn rummyref.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyref.settings")
application = get_wsgi_application()

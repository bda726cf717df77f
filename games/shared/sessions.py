"""Sessions stored by the digest of their key (``SESSION_ENGINE``).

A session is a bearer secret: its cookie opens the tables and groups whose keys the phone
holds, and a signed-in account. Django's stores keep the cookie's value itself as the row's
key, so a copy of the database (a backup, a dump) would be a set of live cookies. Here the
row is keyed by the SHA-256 of the cookie's value (its first 40 hex digits, 160 bits, so it
fits Django's own table): a copy holds no cookie, and the cookie finds its row as before.

Sessions are read from the database only, never from the shared cache: a cache that comes back
from an outage with older copies (a Redis restarted from its snapshot, or a write another
process could not make meanwhile) could otherwise serve a session older than the database's,
and writing it back would lose what was added since (a table joined meanwhile).
"""

from django.contrib.sessions.backends import db
from django.core.exceptions import SuspiciousOperation
from django.utils import timezone

from games.shared.models import key_digest

STORED_LENGTH = 40  # Django's session_key column


def stored_key(session_key: str) -> str:
    """Return the key a session's row is stored under: the digest of its cookie's value."""
    return key_digest(session_key)[:STORED_LENGTH]


class SessionStore(db.SessionStore):
    """Django's database session store, its rows keyed by ``stored_key``."""

    def _get_session_from_db(self):
        if self.session_key is None:
            return None
        try:
            return self.model.objects.get(
                session_key=stored_key(self.session_key), expire_date__gt=timezone.now()
            )
        except (self.model.DoesNotExist, SuspiciousOperation):
            self._session_key = None
            return None

    def exists(self, session_key):
        return self.model.objects.filter(session_key=stored_key(session_key)).exists()

    def create_model_instance(self, data):
        return self.model(
            session_key=stored_key(self._get_or_create_session_key()),
            session_data=self.encode(data),
            expire_date=self.get_expiry_date(),
        )

    def delete(self, session_key=None):
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        self.model.objects.filter(session_key=stored_key(session_key)).delete()

    # The app is served by WSGI: the asynchronous paths are not used, and must not be used
    # with the plain key by mistake.
    async def _aget_session_from_db(self):
        raise NotImplementedError("sessions are stored by digest: use the synchronous API")

    async def aexists(self, session_key):
        raise NotImplementedError("sessions are stored by digest: use the synchronous API")

    async def acreate_model_instance(self, data):
        raise NotImplementedError("sessions are stored by digest: use the synchronous API")

    async def adelete(self, session_key=None):
        raise NotImplementedError("sessions are stored by digest: use the synchronous API")

"""The push engine's signature as the tests give it: Pushpin signs each request it passes on
with Grip-Sig, a JWT (HS256) of its sig_key; the app holds a stream only for one it can
verify with PUSH_SIG_KEY (games/pages/live.py)."""

import time

import jwt

# The sig_key of every Pushpin the tests start, and the app's PUSH_SIG_KEY beside it.
SIG_KEY = "test-only-signing-key-of-the-push-engine"


def engine_signature(key: str = SIG_KEY, *, issuer: str = "pushpin", seconds: int = 86_400):
    """A Grip-Sig as the engine makes it: issued by ``issuer``, expiring in ``seconds``."""
    claims = {"iss": issuer, "exp": int(time.time()) + seconds}
    return jwt.encode(claims, key, algorithm="HS256")


def from_the_engine(**signature) -> dict[str, str]:
    """The test client's headers of a request the engine passed on."""
    return {"HTTP_GRIP_SIG": engine_signature(**signature)}

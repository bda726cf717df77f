"""What this copy of the code is, for the key prefix of the rendered pieces of pages.

A piece of a page kept in the shared cache (a hand's entry in the history, the score chart)
outlives a deploy in Redis: kept under a prefix naming the code (settings' CACHES
"template_fragments", which the {% cache %} tag uses), the pieces drawn by the old templates
and tags are never shown by the new code, which draws its own. Read by the settings: no
Django here.
"""

import hashlib
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What draws the cached pieces: the templates, the tags and the sentences, the engine.
DRAWN_BY = ("templates", "games/templatetags", "games/rules", "scoring")


@lru_cache(maxsize=1)
def code_version() -> str:
    """Return a short digest of the files that draw the cached pieces, read once."""
    digest = hashlib.sha256()
    for folder in DRAWN_BY:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".html", ".py", ".txt") and path.is_file():
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]

"""The export and import bench inside Django, on the database DATABASE_URL names
(bench/archive.py runs it).

    DATABASE_URL=... python -m bench.archive_server FIXTURE.json

migrates that database, loads each fixture log as several tables (a file is imported once,
so every timed import takes a table of its own), times the export of each and its import
into a group, and prints one line of JSON: {"database": ..., "times": {figure: [s, ...]}}.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from time import perf_counter
from types import SimpleNamespace
from typing import Any

from bench.server import database_name, django_setup, table_load
from bench.timing import sized

RUNS = sized(5, 1)


def main(fixture_path: str) -> dict[str, Any]:
    """Run the bench on this process's database; return what the report needs."""
    django_setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from games.clubs import groups
    from games.tables import audit, exports, imports, services

    call_command("migrate", interactive=False, verbosity=0)
    # table_verify runs in a worker after the commit, not in the import's request: it is
    # timed apart, as the pages bench times it.
    queued: list[str] = []
    eager = SimpleNamespace(conf=SimpleNamespace(task_always_eager=True))
    services.table_verify = SimpleNamespace(app=eager, delay=queued.append)
    user = User.objects.create(username="bench")
    times: dict[str, list[float]] = {}
    for name, found in json.loads(Path(fixture_path).read_text()).items():
        seats = found["log"][0][1]["seats"]
        group = groups.group_create(
            name=name, players=seats, variant=found["log"][0][1]["variant"], options={}, user=user
        )
        exported, imported, verified = [], [], []
        for _ in range(RUNS):
            table = table_load(found["log"], found["state"])
            start = perf_counter()
            data = b"".join(exports.table_log_lines(table=table))
            exported.append(perf_counter() - start)
            start = perf_counter()
            result = imports.log_import(user=user, data=io.BytesIO(data), group_id=group.pk)
            imported.append(perf_counter() - start)
            if result.tables[0].events != len(found["log"]):
                raise RuntimeError(f"{name}: the import stored {result.tables[0].events} events")
            start = perf_counter()
            for table_id in queued:
                if not audit.table_verify(table_id=table_id).ok:
                    raise RuntimeError(f"{name}: table {table_id} fails verification")
            verified.append(perf_counter() - start)
            queued.clear()
        times[f"export:{name}"], times[f"import:{name}"] = exported, imported
        times[f"verify:{name}"] = verified
        times[f"bytes:{name}"] = [len(data)]
    return {"database": database_name(connection), "times": times}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))

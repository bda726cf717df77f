"""Export and import of a 2,000-event table, on SQLite and on PostgreSQL when it answers.

bench/archive_server.py does the work in a process of its own per database (settings read
DATABASE_URL when Django starts), as bench/pages.py does: SQLite in a temporary directory,
PostgreSQL in a database ``rummyref_bench_archive`` made and dropped here. Two logs of the
replay bench: 2,000 events of hands played move by move, and 2,000 hands entered whole (the
dearer replay). An import checks every line, replays every event and stores the table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench import replay
from bench.pages import ROOT
from bench.postgres import Unavailable, postgres_database
from bench.spread import Spread, seconds
from bench.timing import table, verdict

PG_DATABASE = "rummyref_bench_archive"
EXPORT_TARGET, IMPORT_TARGET = 1.0, 5.0
SERVER_TIMEOUT = 900
LOGS = {
    "moves": "2,000 events, hands played move by move",
    "whole": "2,000 hands entered whole",
}


def fixture_write(path: Path) -> None:
    """Write the two logs and their states for the server process."""
    logs = {"moves": replay.long_table(), "whole": replay.whole_hands_table()}
    path.write_text(
        json.dumps(
            {
                name: {
                    "log": [[e.event_type, e.payload] for e in built.events],
                    "state": built.state.to_dict(),
                }
                for name, built in logs.items()
            }
        )
    )


def database_run(url: str, fixture: Path) -> dict[str, Any]:
    """Run bench/archive_server.py on one database; return its figures or its error."""
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "1"}
    env.pop("CELERY_BROKER_URL", None)  # table_verify runs in the process, after the commit
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bench.archive_server", str(fixture)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=SERVER_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"bench/archive_server.py ran over {SERVER_TIMEOUT} s"}
    if done.returncode != 0:
        return {"error": "\n".join(done.stderr.strip().splitlines()[-15:])}
    return json.loads(done.stdout.strip().splitlines()[-1])


def run() -> tuple[str, bool]:
    """Time exports and imports on each database; return the report and the verdict."""
    with tempfile.TemporaryDirectory(prefix="rummyref-bench-") as tmp:
        fixture = Path(tmp) / "fixture.json"
        fixture_write(fixture)
        runs = {"SQLite": database_run(f"sqlite:///{tmp}/bench.sqlite3", fixture)}
        try:
            with postgres_database(PG_DATABASE) as url:
                runs["PostgreSQL"] = database_run(url, fixture)
        except Unavailable as exc:
            runs["PostgreSQL"] = {"skipped": str(exc)}
    rows, notes, passed = [], [], True
    for database, found in runs.items():
        if "skipped" in found or "error" in found:
            failed = "error" in found
            passed &= not failed
            why = found.get("error") or found["skipped"]
            notes.append(f"{database} {'failed' if failed else 'skipped'}: {why}")
            continue
        notes.append(f"{database}: {found['database']}")
        for name, label in LOGS.items():
            size = found["times"][f"bytes:{name}"][0]
            for kind, target in (("export", EXPORT_TARGET), ("import", IMPORT_TARGET)):
                spread = Spread.of(found["times"][f"{kind}:{name}"])
                ok = spread.p95 < target
                passed &= ok
                rows.append(
                    [
                        f"{database}: {kind} of {label} ({size / 1e6:.1f} MB)",
                        str(spread.runs),
                        seconds(spread.median),
                        seconds(spread.p95),
                        f"p95 < {seconds(target)}",
                        verdict(ok),
                    ]
                )
            spread = Spread.of(found["times"][f"verify:{name}"])
            rows.append(
                [
                    "  then table_verify of the new table (a worker's, after the commit)",
                    str(spread.runs),
                    seconds(spread.median),
                    seconds(spread.p95),
                    "",
                    "",
                ]
            )
    header = ["Export and import of a table", "runs", "median", "p95", "target", "verdict"]
    notes.append(
        "Export: the JSON Lines file written whole in memory (the pages stream it). Import:"
        " log_import of that file into a group: every line checked, every event replayed,"
        " then the table stored in one transaction (new ids, this server's chain)."
    )
    return f"{table(header, rows)}\n" + "\n".join(notes), passed

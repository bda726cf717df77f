"""tests/ports.py: each process of a run, and each of two runs side by side, takes its
servers' ports from a block of its own, below the system's ephemeral ports."""

import os
import subprocess
import sys

from tests.gunicorn import ROOT


def _ports_of(worker: str, blocks_from: str | None, count: int = 20) -> subprocess.CompletedProcess:
    """Import tests.ports as process ``worker`` of a run would, and print its ports."""
    env = {k: v for k, v in os.environ.items() if k != "TEST_PORT_BLOCKS_FROM"}
    env["PYTEST_XDIST_WORKER"] = worker
    if blocks_from is not None:
        env["TEST_PORT_BLOCKS_FROM"] = blocks_from
    code = f"from tests.ports import free_port\nprint(*(free_port() for _ in range({count})))"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_each_process_of_a_run_has_its_own_block():
    # Blocks of 1,500 from port 20,000: gw0 20,000–21,499, gw1 21,500–22,999.
    first = [int(p) for p in _ports_of("gw0", None).stdout.split()]
    second = [int(p) for p in _ports_of("gw1", None).stdout.split()]
    assert all(20_000 <= port < 21_500 for port in first), first
    assert all(21_500 <= port < 23_000 for port in second), second
    assert len(set(first)) == len(first)


def test_a_run_beside_another_starts_at_the_block_it_is_given():
    # Blocks from 4: gw1 takes block 5, 27,500–28,999.
    ports = [int(p) for p in _ports_of("gw1", "4").stdout.split()]
    assert all(27_500 <= port < 29_000 for port in ports), ports


def test_a_block_past_the_last_is_refused():
    ran = _ports_of("gw1", "7")
    assert ran.returncode != 0
    assert "8 port blocks; block 8 was asked for" in ran.stderr

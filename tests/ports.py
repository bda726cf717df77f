"""Loopback ports for the servers the tests start (gunicorn, Pushpin, nginx, fake engines).

A port is chosen here and bound later by another process, so something else may take it in
between. Asking the system for port 0 hands out a port from its ephemeral range, the range
every outgoing connection (to PostgreSQL, Redis, a browser's fetch) also takes its own
port from: under load one of them took a chosen port before Pushpin bound it, and Pushpin
died at start. So the ports come from below that range, and each process of a parallel run
has a block of its own, so two workers never choose the same one, nor two runs side by side
(TEST_PORT_BLOCKS_FROM).
"""

import itertools
import os
import random
import socket

from tests.parallel_workers import worker_number

# Linux's ephemeral ports start at 32768 (/proc/sys/net/ipv4/ip_local_port_range); blocks
# of 1,500 from 20,000 leave room for eight parallel processes below it.
FIRST_PORT = 20_000
BLOCK = 1_500
BLOCKS = 8

# Two test runs side by side (CI's two passes) each start their processes' blocks at their
# own: the run whose TEST_PORT_BLOCKS_FROM is 4 gives its gw0 block 4, its gw1 block 5.
_block = int(os.environ.get("TEST_PORT_BLOCKS_FROM", "0")) + (worker_number() or 0)
assert _block < BLOCKS, f"tests/ports.py has {BLOCKS} port blocks; block {_block} was asked for"
_block_start = FIRST_PORT + BLOCK * _block
# Start at a random place in the block: a run straight after another does not reuse ports
# the last one may still hold in TIME_WAIT.
_offset = random.randrange(BLOCK)
_candidates = (_block_start + (_offset + i) % BLOCK for i in itertools.count())


def free_port() -> int:
    """Return a loopback port nothing holds now, this process's next in its own block."""
    for _attempt in range(BLOCK):
        port = next(_candidates)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue  # a service of the machine's, or a server a test left running
            return port
    raise RuntimeError(f"no free loopback port in {_block_start}–{_block_start + BLOCK - 1}")

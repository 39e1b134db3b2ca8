"""Does the server keep answering while the advisor solves a Yatzy rule set for a hint?

It starts ``python -m kastkopp.server`` with an empty solver cache (a temporary
``KASTKOPP_CACHE``), makes a one-player Yatzy table, and asks for a hint: the first answer
is "preparing" while the rule set is solved in a worker thread. Meanwhile a client times
``GET /api/tables/{id}`` over and over. Printed: how long the advisor took to get ready,
the median and worst latency of those requests during the solve, and the ratio against a
peer measured in the same run — the same requests to the same server once the advisor
is ready (an idle server).

Usage (loopback only; one solve per run)::

    python benchmarks/bench_hints.py                      # Scandinavian Yatzy
    python benchmarks/bench_hints.py --preset tarningspoker
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def timed(client: httpx.Client, url: str) -> float:
    started = time.perf_counter()
    client.get(url).raise_for_status()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="yatzy")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        env = {**os.environ, "KASTKOPP_CACHE": os.path.join(folder, "cache")}
        server = subprocess.Popen(
            [sys.executable, "-m", "kastkopp.server", "--port", str(port), "--db",
             os.path.join(folder, "kastkopp.db"), "--log-level", "warning"], env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            with httpx.Client(base_url=base, timeout=60) as client:
                for _ in range(300):
                    try:
                        client.get("/api/games")
                        break
                    except httpx.HTTPError:
                        time.sleep(0.1)
                client.post("/api/account/guest", json={"nickname": "bench"})
                table = client.post("/api/tables", json={
                    "game": "yatzy", "preset": args.preset, "players": 1}).json()
                client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"})
                url = f"/api/tables/{table['id']}"
                started = time.perf_counter()
                assert client.get(f"{url}/hint").status_code == 202
                during: list[float] = []
                while True:
                    during.append(timed(client, url))
                    if len(during) % 10 == 0 and \
                            client.get(f"{url}/hint").status_code == 200:
                        break
                ready = time.perf_counter() - started
                idle = [timed(client, url) for _ in range(len(during))]
        finally:
            server.terminate()
            server.wait(timeout=10)
    ms = 1000
    print(f"advisor ready after {ready:.2f} s ({args.preset}, cold cache); "
          f"{len(during)} requests meanwhile")
    print(f"during the solve: median {statistics.median(during) * ms:.1f} ms, "
          f"max {max(during) * ms:.1f} ms")
    print(f"idle (peer):      median {statistics.median(idle) * ms:.1f} ms, "
          f"max {max(idle) * ms:.1f} ms")
    print(f"ratio of medians, during / idle: "
          f"{statistics.median(during) / statistics.median(idle):.2f}")


if __name__ == "__main__":
    main()

"""A site on this machine (``scripts/cluster.sh``) and pairs of players playing through it.

Used by the cluster tests and by ``benchmarks/bench_cluster.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from kastkopp.server.client import Player

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "cluster.sh"
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Cluster:
    """PostgreSQL, Redis, ``servers`` server processes and nginx in front of them."""

    servers: int = 2
    env: dict[str, str] = field(default_factory=dict)

    def start(self) -> Cluster:
        environment = {**os.environ, "KASTKOPP_PYTHON": sys.executable,
                       "KASTKOPP_CLUSTER_SERVERS": str(self.servers),
                       "KASTKOPP_GUEST_LIMIT": "100000/minute"}
        result = subprocess.run([str(SCRIPT), "start"], env=environment, text=True,
                                capture_output=True, timeout=300)
        if result.returncode != 0:
            raise RuntimeError(f"cluster.sh start failed:\n{result.stderr[-3000:]}")
        self.env = {**environment, **dict(line.split("=", 1)
                                          for line in result.stdout.split())}
        return self

    def run(self, *command: str) -> None:
        subprocess.run([str(SCRIPT), *command], env=self.env, check=True, timeout=120,
                       capture_output=True)

    def stop(self) -> None:
        if self.env:
            subprocess.run([str(SCRIPT), "stop"], env=self.env, timeout=300,
                           capture_output=True)

    @property
    def url(self) -> str:
        return self.env["KASTKOPP_CLUSTER_URL"]

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")

    @property
    def db(self) -> str:
        return self.env["KASTKOPP_CLUSTER_DB"]

    @property
    def directory(self) -> Path:
        return Path(self.env["KASTKOPP_CLUSTER_DIR"])

    @property
    def ports(self) -> list[int]:
        return [int(port) for port in self.env["KASTKOPP_CLUSTER_PORTS"].split(",")]

    def gauge(self, name: str) -> list[int]:
        """A gauge of each server process's ``/metrics`` (0 for one that is down)."""
        counts = []
        for port in self.ports:
            try:
                text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
            except httpx.ConnectError:
                counts.append(0)
                continue
            found = re.search(rf"^{name} ([0-9.]+)$", text, re.MULTILINE)
            assert found, text
            counts.append(int(float(found[1])))
        return counts

    def pids(self) -> list[int]:
        return [int((self.directory / f"server{n}.pid").read_text())
                for n in range(1, self.servers + 1)]


def cpu_seconds(pid: int) -> float:
    """User and system time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def waited(pid: int) -> float:
    """Seconds the process's threads have waited so far for a CPU (the run queue): on a
    machine shared with other work, the time it was ready to run and could not."""
    total = 0
    for thread in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            total += int((thread / "schedstat").read_text().split()[1])
    return total / 1e9


async def _post(client: httpx.AsyncClient, path: str, **kwargs: Any) -> dict[str, Any]:
    for _ in range(20):  # through the proxy while a process may be restarting
        try:
            response = await client.post(path, **kwargs)
        except httpx.HTTPError:
            await asyncio.sleep(0.2)
            continue
        if response.status_code < 500:
            assert response.status_code in (200, 201), response.text
            data: dict[str, Any] = response.json()
            return data
        await asyncio.sleep(0.2)
    raise AssertionError(f"{path} failed twenty times")


async def pairs(cluster: Cluster, tables: int, seed: int = 0,
                think: tuple[float, float] = (0.2, 0.4)) -> list[Player]:
    """``tables`` tables of Slosch (points, 1,000 rounds: longer than any test), each with
    two people playing random moves through the proxy: two players a table."""
    rng = random.Random(seed)
    players: list[Player] = []
    async with httpx.AsyncClient(base_url=cluster.url, timeout=30) as client:

        async def table(index: int) -> list[Player]:
            tokens = [(await _post(client, "/api/account/guest",
                                   json={"nickname": f"p{index}s{s}"}))["token"]
                      for s in range(2)]
            made = await _post(client, "/api/tables", headers=_bearer(tokens[0]), json={
                "game": "mia", "players": 2, "seats": [None, None],
                "rules": {"scoring": "points", "rounds": 1000}})
            await _post(client, f"/api/tables/{made['id']}/join", headers=_bearer(tokens[1]),
                        json={"seed": f"b{index}"})
            await _post(client, f"/api/tables/{made['id']}/start",
                        headers=_bearer(tokens[0]), json={"seed": f"a{index}"})
            return [Player(cluster.ws_url, made["id"], token, _random_choice(rng),
                           think=rng.uniform(*think)) for token in tokens]

        for start in range(0, tables, 20):  # twenty tables at a time
            for made in await asyncio.gather(*(table(i) for i in
                                               range(start, min(tables, start + 20)))):
                players.extend(made)
    return players


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _random_choice(rng: random.Random) -> Any:
    return lambda frame: rng.choice(frame["legal"])


def logs(db: str, table_ids: Iterable[str]) -> dict[str, list[tuple[int, str, int | None,
                                                                    str | None]]]:
    """Every table's log as stored: (seq, kind, seat, action), in seq order."""
    from sqlalchemy import create_engine, select

    from kastkopp.store import LogEvent

    engine = create_engine(db)
    wanted = list(table_ids)
    found: dict[str, list[tuple[int, str, int | None, str | None]]] = {t: [] for t in wanted}
    with engine.connect() as connection:
        for row in connection.execute(
                select(LogEvent.table_id, LogEvent.seq, LogEvent.kind, LogEvent.seat,
                       LogEvent.action).where(LogEvent.table_id.in_(wanted))
                .order_by(LogEvent.table_id, LogEvent.seq)):
            found[row.table_id].append((row.seq, row.kind, row.seat, row.action))
    engine.dispose()
    return found

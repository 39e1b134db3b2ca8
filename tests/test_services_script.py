"""``scripts/services.sh``: two checkouts testing at once get services of their own, and
``stop`` leaves nothing behind."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "services.sh"

pytestmark = pytest.mark.skipif(
    not glob.glob("/usr/lib/postgresql/*/bin/pg_ctl") or shutil.which("redis-server") is None,
    reason="PostgreSQL and Redis are not installed")


def start() -> dict[str, str]:
    # a start of its own, whatever services the suite itself runs on (make test sets these)
    env = {k: v for k, v in os.environ.items()
           if k not in ("KASTKOPP_PG_PORT", "KASTKOPP_REDIS_PORT", "KASTKOPP_SERVICES_DIR")}
    out = subprocess.run([str(SCRIPT), "start"], capture_output=True, text=True, check=True,
                         timeout=120, env=env).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def stop(env: dict[str, str]) -> None:
    subprocess.run([str(SCRIPT), "stop"], env={"PATH": "/usr/bin:/bin", **env}, check=True,
                   capture_output=True, timeout=120)


def test_two_starts_get_their_own_ports_and_folders_and_stop_cleans_up():
    first = start()
    try:
        second = start()
        try:
            assert first["KASTKOPP_PG_PORT"] != second["KASTKOPP_PG_PORT"]
            assert first["KASTKOPP_REDIS_PORT"] != second["KASTKOPP_REDIS_PORT"]
            assert first["KASTKOPP_SERVICES_DIR"] != second["KASTKOPP_SERVICES_DIR"]
            assert Path(second["KASTKOPP_SERVICES_DIR"], "pg", "PG_VERSION").exists()
        finally:
            stop(second)
        assert not Path(second["KASTKOPP_SERVICES_DIR"]).exists()
        ping = subprocess.run(["redis-cli", "-p", second["KASTKOPP_REDIS_PORT"], "ping"],
                              capture_output=True, text=True, timeout=10)
        assert "PONG" not in ping.stdout
        assert Path(first["KASTKOPP_SERVICES_DIR"]).exists()  # the other one is untouched
    finally:
        stop(first)
    assert not Path(first["KASTKOPP_SERVICES_DIR"]).exists()

"""Fixtures for the server's tests: an app on SQLite or PostgreSQL, clients, real servers.

PostgreSQL and Redis come from ``scripts/services.sh`` (``make test`` starts them and sets
``KASTKOPP_TEST_POSTGRES`` / ``KASTKOPP_TEST_REDIS``). Without them the tests that need them
skip — except under ``CI=true``, where a missing service is a failure.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from servertools import ServerProcess

from kastkopp.server.app import create_app

IN_CI = os.environ.get("CI", "").lower() == "true"


def need(variable: str) -> str:
    value = os.environ.get(variable)
    if not value:
        if IN_CI:
            pytest.fail(f"{variable} is not set: run scripts/services.sh start first")
        pytest.skip(f"{variable} is not set (scripts/services.sh start gives it)")
    return value


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test."""
    import psycopg

    base = need("KASTKOPP_TEST_POSTGRES")
    name = f"kk_{secrets.token_hex(4)}"
    plain = base.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    yield base.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def redis_url() -> str:
    return need("KASTKOPP_TEST_REDIS")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "kastkopp.db")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "kastkopp.db"))) as test_client:
        yield test_client


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    """Started server processes are stopped after the test, whatever happens."""
    started: list[ServerProcess] = []
    yield started
    for server in started:
        server.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # slow: each test starts an app with its own database (about half a second alone, two
    # hundred of them); `make test-fast` leaves the server's tests to `make test`
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.slow)

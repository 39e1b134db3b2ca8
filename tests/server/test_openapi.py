"""Property-based requests against the published OpenAPI spec: no input makes a 5xx.

Schemathesis generates valid and invalid bodies, paths and queries for every operation
(except the endless NDJSON streams, tested in ``test_processes.py``), sent both without
credentials and as a guest with a table of its own.
"""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from servertools import ServerProcess


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    server = ServerProcess(str(tmp_path_factory.mktemp("openapi") / "k.db")).start()
    token = httpx.post(server.url + "/api/account/guest",
                       json={"nickname": "Fuzz"}).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    httpx.post(server.url + "/api/tables", headers=headers,
               json={"game": "mia", "players": 2, "seats": [None, "bot:random"]})
    yield server, headers
    server.stop()


def test_no_request_makes_a_server_error(api):
    server, headers = api
    schema = schemathesis.openapi.from_url(server.url + "/openapi.json").exclude(
        path_regex="^/api/stream/")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 15
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck),
                  database=None)
        def no_server_error(case):
            for extra in ({}, headers):
                response = case.call(base_url=server.url, headers=extra, timeout=10)
                case.validate_response(response, checks=[not_a_server_error])

        no_server_error()


def test_the_spec_is_published(api):
    server, _ = api
    spec = httpx.get(server.url + "/openapi.json").json()
    assert "/api/tables/{table_id}/action" in spec["paths"]

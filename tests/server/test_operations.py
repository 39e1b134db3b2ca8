"""/healthz, /readyz and /metrics, and the catching up of tables another process moved."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient
from servertools import guest, new_table

from kastkopp.server.app import create_app
from kastkopp.store import Store


def metric(text: str, name: str) -> float:
    match = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", text, re.MULTILINE)
    assert match, f"{name} not in the metrics"
    return float(match[1])


def test_health_and_readiness_of_a_migrated_server(tmp_path):
    with TestClient(create_app(str(tmp_path / "k.db"))) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        ready = client.get("/readyz")
        assert ready.status_code == 200 and ready.json() == {"status": "ready"}


def test_a_schema_behind_the_code_is_not_ready(tmp_path):
    db = str(tmp_path / "k.db")
    Store(db).migrate("0005")
    with TestClient(create_app(db, migrate=False)) as client:
        assert client.get("/healthz").status_code == 200
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["problems"] == {
            "migrations": "the schema is not at the newest migration"}


def test_metrics_count_moves_sockets_and_tables_in_the_prometheus_format(tmp_path):
    from prometheus_client.parser import text_string_to_metric_families

    with TestClient(create_app(str(tmp_path / "k.db"))) as client:
        before = client.get("/metrics")
        assert before.headers["content-type"].startswith("text/plain")
        names = {family.name for family in text_string_to_metric_families(before.text)}
        assert {"kastkopp_moves_acknowledged", "kastkopp_moves_acknowledged_again",
                "kastkopp_commit_seconds", "kastkopp_log_flush_seconds",
                "kastkopp_open_sockets", "kastkopp_tables_in_memory",
                "kastkopp_solve_queue"} <= names
        moves = metric(before.text, "kastkopp_moves_acknowledged_total")
        again = metric(before.text, "kastkopp_moves_acknowledged_again_total")
        commits = metric(before.text, "kastkopp_commit_seconds_count")
        flushes = metric(before.text, "kastkopp_log_flush_seconds_count")
        anna = guest(client, "Anna")
        table = new_table(client, anna, "mia", 2, [None, "bot:random"])
        client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=anna)
        with client.websocket_connect(f"/api/tables/{table['id']}/ws",
                                      headers=anna) as ws:
            frame = ws.receive_json()
            while not frame.get("legal"):
                frame = ws.receive_json()
            move = json.dumps({"action": frame["legal"][0], "seq": frame["seq"], "id": 1})
            for _ in range(2):  # the second time: a repeat, acknowledged as made
                ws.send_text(move)
                while frame.get("type") != "ack":
                    frame = ws.receive_json()
                frame = {}
            during = client.get("/metrics").text
            assert metric(during, "kastkopp_open_sockets") == 1
        after = client.get("/metrics").text
    assert metric(during, "kastkopp_moves_acknowledged_total") == moves + 1
    assert metric(during, "kastkopp_moves_acknowledged_again_total") == again + 1
    assert metric(during, "kastkopp_commit_seconds_count") > commits
    # the move's batch written and committed (the repeat wrote nothing)
    assert metric(during, "kastkopp_log_flush_seconds_count") > flushes
    assert metric(during, "kastkopp_tables_in_memory") >= 1
    assert metric(during, "kastkopp_solve_queue") == 0
    assert metric(after, "kastkopp_open_sockets") == 0


def test_a_move_made_on_another_process_reaches_a_watcher_without_redis(postgres_url,
                                                                       servers):
    """With no announcement at all (no Redis here), a process showing a table still
    catches up with the moves another process committed: it compares with the log."""
    import httpx
    from servertools import ServerProcess
    from websockets.sync.client import connect

    first = ServerProcess(postgres_url).start()
    second = ServerProcess(postgres_url).start()
    servers.extend([first, second])
    anna = guest(httpx.Client(base_url=first.url), "Anna")
    table = new_table(httpx.Client(base_url=first.url), anna, "mia", 2, [None, "bot:random"])
    started = httpx.post(f"{first.url}/api/tables/{table['id']}/start", json={"seed": "a1"},
                         headers=anna)
    assert started.status_code == 200, started.text
    with connect(f"{first.ws_url}/api/tables/{table['id']}/ws", additional_headers=anna,
                 open_timeout=10) as ws:
        frame = json.loads(ws.recv(timeout=10))
        while not frame.get("legal"):
            frame = json.loads(ws.recv(timeout=10))
        moved = httpx.post(f"{second.url}/api/tables/{table['id']}/action", headers=anna,
                           json={"action": frame["legal"][0], "seq": frame["seq"]})
        assert moved.status_code == 200, moved.text
        after = json.loads(ws.recv(timeout=10))  # from the first process, told by nobody
        assert after["type"] == "state" and after["seq"] == moved.json()["seq"]

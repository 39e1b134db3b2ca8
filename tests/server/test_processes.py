"""Real server processes: NDJSON streams, kill -9 and restart, two servers on one database."""

from __future__ import annotations

import functools
import json
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from servertools import ServerProcess
from websockets.sync.client import connect

from kastkopp.engine import Table, verify_log

# slow: starts and stops server processes
pytestmark = pytest.mark.slow


def guest(server: ServerProcess, nickname: str) -> dict[str, str]:
    response = httpx.post(server.url + "/api/account/guest", json={"nickname": nickname})
    return {"Authorization": f"Bearer {response.json()['token']}"}


def new_table(server: ServerProcess, headers: dict[str, str], players: int,
              seats: list[str | None], **rules: int) -> str:
    response = httpx.post(server.url + "/api/tables", headers=headers,
                          json={"game": "mia", "players": players, "seats": seats,
                                "rules": rules})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def seat(server: ServerProcess, table_id: str, headers: dict[str, str]) -> Any:
    """A WebSocket to the table as the account of ``headers`` (its bearer token)."""
    return connect(f"{server.ws_url}/api/tables/{table_id}/ws", additional_headers=headers,
                   open_timeout=10)


def next_state(ws) -> dict:
    while True:
        frame = json.loads(ws.recv(timeout=10))
        if frame["type"] == "state":
            return frame


def test_the_ndjson_streams_tell_a_bot_its_turns_and_take_posted_actions(tmp_path, servers):
    server = ServerProcess(str(tmp_path / "k.db")).start()
    servers.append(server)
    anna = guest(server, "Anna")
    table_id = new_table(server, anna, 2, [None, "bot:sensible"])
    rng = random.Random(5)
    events: list[dict] = []
    with httpx.stream("GET", server.url + "/api/stream/event", headers=anna,
                      timeout=20) as stream:
        httpx.post(f"{server.url}/api/tables/{table_id}/start", json={"seed": "a1"}, headers=anna)
        for line in stream.iter_lines():
            if not line.strip():
                continue
            event = json.loads(line)
            events.append(event)
            if event["type"] == "gameFinish":
                break
            if event["type"] == "yourTurn":
                state = httpx.get(f"{server.url}/api/tables/{table_id}/state",
                                  headers=anna).json()
                if state["seq"] != event["seq"]:
                    continue
                response = httpx.post(f"{server.url}/api/tables/{table_id}/action",
                                      headers=anna, json={"action": rng.choice(state["legal"]),
                                                          "seq": state["seq"]})
                assert response.status_code == 200, response.text
    kinds = [e["type"] for e in events]
    assert kinds[0] == "gameStart" and kinds[-1] == "gameFinish" and "yourTurn" in kinds
    with httpx.stream("GET", f"{server.url}/api/stream/table/{table_id}",
                      timeout=10) as stream:
        first = json.loads(next(line for line in stream.iter_lines() if line.strip()))
    assert first["status"] == "over" and first["seat"] is None
    assert verify_log(httpx.get(f"{server.url}/api/tables/{table_id}/log").json()) == []


def play_acknowledged(socket: Callable[[], Any], stop: threading.Event,
                      acked: list[tuple[int, str]], seed: int) -> None:
    """Play random moves, recording (seq sent, action) of every acknowledged one."""
    rng = random.Random(seed)
    try:
        with socket() as ws:
            pending: dict[int, tuple[int, str]] = {}
            while not stop.is_set():
                frame = json.loads(ws.recv(timeout=10))
                if frame["type"] == "ack":
                    acked.append(pending.pop(frame["id"]))
                elif frame["type"] == "state":
                    if frame["status"] == "over":
                        return
                    if frame["legal"]:
                        ref = len(acked) + len(pending)
                        pending[ref] = (frame["seq"], rng.choice(frame["legal"]))
                        ws.send(json.dumps({"action": pending[ref][1], "seq": frame["seq"],
                                            "id": ref}))
    except Exception:
        return  # the server was killed under us


def test_kill_9_in_the_middle_of_games_loses_no_acknowledged_action(db_url, servers):
    db = db_url
    server = ServerProcess(db).start()
    servers.append(server)
    anna = guest(server, "Anna")
    tables = [new_table(server, anna, 3, [None, "bot:random", "bot:random"], lives=6)
              for _ in range(4)]
    for table_id in tables:
        httpx.post(f"{server.url}/api/tables/{table_id}/start", json={"seed": "a1"}, headers=anna)
    stop = threading.Event()
    acked: dict[str, list[tuple[int, str]]] = {t: [] for t in tables}
    players = [threading.Thread(target=play_acknowledged,
                                args=(functools.partial(seat, server, t, anna), stop,
                                      acked[t], i))
               for i, t in enumerate(tables)]
    for thread in players:
        thread.start()
    deadline = time.monotonic() + 20
    while sum(len(a) for a in acked.values()) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()  # kill -9 while the games are being played
    stop.set()
    for thread in players:
        thread.join(timeout=15)
    assert sum(len(a) for a in acked.values()) > 0
    restarted = ServerProcess(db).start()
    servers.append(restarted)
    statuses = [httpx.get(f"{restarted.url}/api/tables/{t}").json()["status"]
                for t in tables]
    assert "playing" in statuses  # the kill came in the middle of games
    for table_id in tables:
        log = httpx.get(f"{restarted.url}/api/tables/{table_id}/log").json()
        for seq, action in acked[table_id]:
            # every acknowledged action is in the log, at the place it was sent for
            assert log["events"][seq] == {"seq": seq, "type": "action", "seat": 0,
                                          "action": action}
        # the table resumes exactly where it was: frames continue from the log
        with seat(restarted, table_id, anna) as ws:
            frame = next_state(ws)
        assert frame["seq"] >= len(log["events"])
        assert frame["status"] in ("playing", "over")
    # and every resumed game can be played to its end, with a fair log
    stop = threading.Event()
    for table_id in tables:
        play_acknowledged(functools.partial(seat, restarted, table_id, anna), stop, [], 99)
        log = httpx.get(f"{restarted.url}/api/tables/{table_id}/log").json()
        assert Table.from_json(log).state.is_over()
        assert verify_log(log) == []


def test_kastkopp_verify_checks_every_roll_of_a_served_log(tmp_path, servers):
    from typer.testing import CliRunner

    from kastkopp.cli import app

    server = ServerProcess(str(tmp_path / "k.db")).start()
    servers.append(server)
    anna = guest(server, "Anna")
    table_id = new_table(server, anna, 2, [None, "bot:random"])
    httpx.post(f"{server.url}/api/tables/{table_id}/start", json={"seed": "a1"}, headers=anna)
    play_acknowledged(functools.partial(seat, server, table_id, anna), threading.Event(),
                      [], 4)
    path = tmp_path / "table.json"
    path.write_text(httpx.get(f"{server.url}/api/tables/{table_id}/log").text)
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert "rolls match the commit-reveal dice" in result.output
    tampered = json.loads(path.read_text())
    roll = next(e for e in tampered["events"] if e["type"] == "roll")
    roll["faces"] = [7 - f for f in roll["faces"]]
    path.write_text(json.dumps(tampered))
    assert CliRunner().invoke(app, ["verify", str(path)]).exit_code != 0


def test_two_processes_on_one_postgresql_serve_one_table(postgres_url, redis_url, servers):
    first = ServerProcess(postgres_url, redis=redis_url).start()
    second = ServerProcess(postgres_url, redis=redis_url).start()
    servers.extend([first, second])
    anna, bo = guest(first, "Anna"), guest(second, "Bo")
    table_id = new_table(first, anna, 3, [None, None, "bot:random"])
    assert httpx.post(f"{second.url}/api/tables/{table_id}/join", json={"seed": "b2"},
                      headers=bo).status_code == 200
    bo_events: list[dict] = []
    listening = threading.Event()

    def listen() -> None:  # Bo's event stream is on the second process
        with httpx.stream("GET", second.url + "/api/stream/event", headers=bo,
                          timeout=30) as stream:
            listening.set()
            for line in stream.iter_lines():
                if line.strip():
                    bo_events.append(json.loads(line))
                    if bo_events[-1]["type"] == "gameFinish":
                        return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert listening.wait(10)
    time.sleep(0.2)  # the stream is registered once its headers are out
    assert httpx.post(f"{first.url}/api/tables/{table_id}/start", json={"seed": "a1"},
                      headers=anna).status_code == 200
    rng = random.Random(11)
    seen: dict[str, list[int]] = {"anna": [], "bo": []}
    with seat(first, table_id, anna) as ws_a, \
            seat(second, table_id, bo) as ws_b:
        sockets = {"anna": ws_a, "bo": ws_b}
        over: set[str] = set()
        deadline = time.monotonic() + 60
        while len(over) < 2 and time.monotonic() < deadline:
            for who, ws in sockets.items():
                if who in over:
                    continue
                try:
                    frame = json.loads(ws.recv(timeout=0.05))
                except TimeoutError:
                    continue
                if frame["type"] != "state":
                    continue
                seen[who].append(frame["seq"])
                if frame["status"] == "over":
                    over.add(who)
                elif frame["legal"]:
                    ws.send(json.dumps({"action": rng.choice(frame["legal"]),
                                        "seq": frame["seq"]}))
    assert over == {"anna", "bo"}
    log = httpx.get(f"{second.url}/api/tables/{table_id}/log").json()
    assert log == httpx.get(f"{first.url}/api/tables/{table_id}/log").json()
    assert verify_log(log) == []
    seats = {e["seat"] for e in log["events"] if e["type"] == "action"}
    assert {0, 1} <= seats  # both people moved, each on their own process
    # each saw the other's moves: the final position reached both processes' clients
    assert seen["anna"][-1] == seen["bo"][-1] == len(log["events"])
    # and the game started and ended on the first process reached Bo's stream on the second
    listener.join(timeout=10)
    kinds = [e["type"] for e in bo_events if e.get("table") == table_id]
    assert kinds[0] == "gameStart" and kinds[-1] == "gameFinish" and "yourTurn" in kinds
    # A chat line said on the first process reaches a watcher on the second.
    with connect(f"{second.ws_url}/api/tables/{table_id}/ws", open_timeout=10) as ws:
        next_state(ws)
        said = httpx.post(f"{first.url}/api/tables/{table_id}/chat", headers=anna,
                          json={"text": "hörs jag där borta?"})
        assert said.status_code == 200, said.text
        assert json.loads(ws.recv(timeout=10)) == said.json()


def test_kastkopp_serve_starts_the_server_on_the_given_port_and_database(tmp_path):
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    from servertools import free_port

    kastkopp = shutil.which("kastkopp") or str(Path(sys.executable).with_name("kastkopp"))
    port, db = free_port(), tmp_path / "served.db"
    process = subprocess.Popen([kastkopp, "serve", "--port", str(port), "--db", str(db)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    games: list[dict] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).json()
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert "mia" in {g["name"] for g in games}
        assert db.exists()  # the schema was migrated into the file named
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_match_goes_on_after_kill_9_between_its_games(tmp_path, servers):
    db = str(tmp_path / "k.db")
    server = ServerProcess(db).start()
    servers.append(server)
    anna = guest(server, "Anna")
    name = httpx.get(server.url + "/api/account", headers=anna).json()["name"]
    series_id = httpx.post(server.url + "/api/series", headers=anna, json={
        "format": "match", "game": "mia", "players": [name, "bot:random"],
        "best_of": 3}).json()["id"]
    first = httpx.get(f"{server.url}/api/series/{series_id}").json()["tables"][0]["id"]
    httpx.post(f"{server.url}/api/tables/{first}/seed", json={"seed": "anna-seed"},
               headers=anna)
    play_acknowledged(functools.partial(seat, server, first, anna), threading.Event(), [], 1)
    server.kill()  # right after the first game ended
    restarted = ServerProcess(db).start()
    servers.append(restarted)
    played = {first}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        summary = httpx.get(f"{restarted.url}/api/series/{series_id}").json()
        if summary["status"] == "over":
            break
        for table in summary["tables"]:
            if table["status"] == "open":  # it starts once Anna has added her seed
                httpx.post(f"{restarted.url}/api/tables/{table['id']}/seed",
                           json={"seed": "anna-seed"}, headers=anna)
            if table["status"] == "playing" and table["id"] not in played:
                played.add(table["id"])
                play_acknowledged(functools.partial(seat, restarted, table["id"], anna),
                                  threading.Event(),
                                  [], len(played))
        time.sleep(0.05)
    assert summary["status"] == "over" and summary["winner"] in (name, "bot:random")
    assert summary["tables"][0]["id"] == first and len(played) >= 2


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended while we looked
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("ending", ["kill -9", "SIGTERM"])
def test_a_server_ended_any_way_leaves_no_process_of_its_own_behind(tmp_path, servers,
                                                                     ending):
    if not Path("/proc/self/stat").exists():
        pytest.skip("reads the processes from /proc")
    server = ServerProcess(f"sqlite:///{tmp_path / 'k.db'}").start()
    servers.append(server)
    assert server.process is not None
    # the hashing process starts with the server (and a solve, were one asked for,
    # would start the workers the same way)
    deadline = time.monotonic() + 30
    while len(children := children_of(server.process.pid)) < 1:
        assert time.monotonic() < deadline, "the server started no hashing process"
        time.sleep(0.1)
    if ending == "kill -9":
        server.kill()
    else:
        server.stop()
    deadline = time.monotonic() + 10
    while left := {pid for pid in children if alive(pid)}:
        assert time.monotonic() < deadline, f"left running after {ending}: {left}"
        time.sleep(0.1)

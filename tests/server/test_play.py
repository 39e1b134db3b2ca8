"""Playing over the WebSocket: every registered game, bots in seats, views as the boundary."""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time

import pytest
from fastapi.testclient import TestClient
from servertools import Frames, guest, new_table, play_by_websocket

from kastkopp.dice import CommitRevealDice
from kastkopp.engine import Table, verify_log
from kastkopp.games import registered
from kastkopp.server.app import create_app

GAMES = sorted(registered())


def humans_and_bots(name: str, humans: int) -> tuple[int, list[str | None]]:
    """The smallest table of a game with ``humans`` people and bots in the other seats."""
    cls = registered()[name]
    players = max(cls.min_players, humans)
    return players, [None] * humans + ["bot:random"] * (players - humans)


def replayed_states(log: dict) -> dict[int, object]:
    """The state after each prefix of a finished log, by sequence number."""
    seed = bytes.fromhex(log["dice"]["server_seed"])
    dice = CommitRevealDice(server_seed=seed, client_seed=log["dice"]["client_seed"])
    states = {}
    for n in range(len(log["events"]) + 1):
        states[n] = Table.from_json({**log, "events": log["events"][:n]},
                                    dice=dice).state
    return states


@pytest.mark.parametrize("game", GAMES)
def test_a_full_game_over_websocket_with_bots_ends_with_a_fair_log(client, game):
    players, seats = humans_and_bots(game, 1)
    anna = guest(client, "Anna")
    table = new_table(client, anna, game, players, seats)
    commitment = table["seed_sha256"]
    assert client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"},
                       headers=anna).status_code == 200
    with client.websocket_connect(f"/api/tables/{table['id']}/ws", headers=anna) as ws:
        last = play_by_websocket(ws, random.Random(1), Frames())
    assert last["outcome"]["ranking"]
    # the seed's hash was shown from the start; the seed itself only now
    assert hashlib.sha256(bytes.fromhex(last["server_seed"])).hexdigest() == commitment
    log = client.get(f"/api/tables/{table['id']}/log").json()
    assert verify_log(log) == []
    assert Table.from_json(log).state.is_over()


People = tuple[dict[str, str], dict[str, str]]


def two_people_at_a_table(client, game: str) -> tuple[str, People]:
    """A started table with Anna in seat 0 and Bo in seat 1 (bots in any other seats)."""
    players, seats = humans_and_bots(game, 2)
    anna, bo = guest(client, "Anna"), guest(client, "Bo")
    table = new_table(client, anna, game, players, seats[1:])
    assert client.post(f"/api/tables/{table['id']}/join", json={"seed": "b2"},
                       headers=bo).status_code == 200
    client.post(f"/api/tables/{table['id']}/start", json={"fill": "random", "seed": "a1"},
                headers=anna)
    return str(table["id"]), (anna, bo)


def play_two(client, table_id: str, people: People) -> dict[int, Frames]:
    """Anna and Bo play to the end, each on a WebSocket of their own; their raw frames."""
    frames = {0: Frames(), 1: Frames()}
    url = f"/api/tables/{table_id}/ws"
    errors: list[BaseException] = []

    def seat(number: int, headers: dict[str, str]) -> None:
        try:
            with client.websocket_connect(url, headers=headers) as ws:
                play_by_websocket(ws, random.Random(number), frames[number])
        except BaseException as exc:  # reported below, in the test's own thread
            errors.append(exc)

    threads = [threading.Thread(target=seat, args=(number, headers))
               for number, headers in enumerate(people)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors and not any(t.is_alive() for t in threads)
    return frames


@pytest.mark.parametrize("game", GAMES)
def test_a_client_never_receives_another_seats_hidden_dice(client, game):
    """Checked on the raw frames: each is exactly the seat's view and public table facts,
    and would be byte for byte the same whatever the dice hidden from that seat."""
    table_id, people = two_people_at_a_table(client, game)
    frames = play_two(client, table_id, people)
    rng = random.Random(7)
    log = client.get(f"/api/tables/{table_id}/log").json()
    states = replayed_states(log)
    checked = 0
    for seat, received in frames.items():
        for raw in received.raw:
            frame = json.loads(raw)
            if frame["type"] != "state" or frame["status"] != "playing":
                continue
            state = states[frame["seq"]]
            assert frame["seat"] == seat
            assert frame["view"] == json.loads(json.dumps(state.view(seat)))
            assert set(frame) <= {"type", "table", "seq", "status", "seat", "seats",
                                  "seed_sha256", "deadline", "to_move", "view", "legal"}
            for _ in range(2):
                other = state.resample_hidden(seat, rng)
                assert json.loads(json.dumps(other.view(seat))) == frame["view"]
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("game", GAMES)
def test_the_log_hides_private_dice_until_the_game_ends(client, game):
    table_id, people = two_people_at_a_table(client, game)
    table = client.get(f"/api/tables/{table_id}").json()
    during = client.get(f"/api/tables/{table_id}/log").json()
    assert table["status"] == "playing" and "server_seed" not in during["dice"]
    assert during["dice"]["server_seed_sha256"] == table["seed_sha256"]
    play_two(client, table_id, people)
    after = client.get(f"/api/tables/{table_id}/log").json()
    assert verify_log(after) == []
    # replaying the complete log tells which rolls were private: only those were blanked
    state = Table.from_json({**after, "events": []}).state
    for hidden, event in zip(during["events"], after["events"], strict=False):
        if event["type"] == "roll":
            chance = state.chance()
            assert chance is not None
            assert hidden["faces"] == (None if chance.private else event["faces"])
            state = state.resolve(tuple(event["faces"]))
        else:
            assert hidden == event
            state = state.apply(event["action"])


def start_two_player_table(client, game="mia"):
    anna, bo = guest(client, "Anna"), guest(client, "Bo")
    table = new_table(client, anna, game, 2)
    client.post(f"/api/tables/{table['id']}/join", json={"seed": "b2"}, headers=bo)
    client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=anna)
    return table["id"], anna, bo


def first_state(ws) -> dict:
    while True:
        frame = json.loads(ws.receive_text())
        if frame["type"] == "state":
            return frame


def test_one_account_cannot_act_for_another_seat(client):
    table_id, anna, bo = start_two_player_table(client)
    carl = guest(client, "Carl")
    url = f"/api/tables/{table_id}/ws"
    with client.websocket_connect(url, headers=anna) as ws_a, \
            client.websocket_connect(url, headers=bo) as ws_b, \
            client.websocket_connect(url, headers=carl) as ws_c:
        frame = first_state(ws_a)
        first_state(ws_b), first_state(ws_c)
        assert frame["to_move"] == 0 and frame["legal"]
        seq = frame["seq"]
        ws_b.send_text(json.dumps({"action": frame["legal"][0], "seq": seq}))
        reply = json.loads(ws_b.receive_text())
        assert reply["type"] == "error" and "not your turn" in reply["error"]
        ws_c.send_text(json.dumps({"action": frame["legal"][0], "seq": seq}))
        reply = json.loads(ws_c.receive_text())
        assert reply["type"] == "error" and "no seat" in reply["error"]
    response = client.post(f"/api/tables/{table_id}/action", headers=bo,
                           json={"action": frame["legal"][0], "seq": seq})
    assert response.status_code == 400 and "not your turn" in response.json()["detail"]
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == seq


def test_a_duplicate_action_is_acknowledged_once_and_a_stale_one_refused(client):
    table_id, anna, _ = start_two_player_table(client)
    with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=anna) as ws:
        frame = first_state(ws)
        message = json.dumps({"action": frame["legal"][0], "seq": frame["seq"], "id": 1})
        ws.send_text(message)
        ws.send_text(message)  # the same action again, as a flaky connection would
        replies = []
        while len(replies) < 2:
            reply = json.loads(ws.receive_text())
            if reply["type"] != "state":
                replies.append(reply)
        # the repeat is the move already made: the same answer, and no second move
        assert replies == [{"type": "ack", "id": 1, "seq": frame["seq"] + 1}] * 2
    after = client.get(f"/api/tables/{table_id}").json()["seq"]
    assert after == frame["seq"] + 1
    response = client.post(f"/api/tables/{table_id}/action", headers=anna,
                           json={"action": frame["legal"][0], "seq": frame["seq"]})
    assert response.status_code == 200 and response.json()["seq"] == after
    assert frame["legal"][-1] != frame["legal"][0]
    response = client.post(f"/api/tables/{table_id}/action", headers=anna,
                           json={"action": frame["legal"][-1], "seq": frame["seq"]})
    assert response.status_code == 409
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == after


MALFORMED = ["", "not json", "[]", "42", "null", '{"seq": 1}', '{"action": "call"}',
             '{"action": 5, "seq": 1}', '{"action": "call", "seq": "one"}',
             '{"action": "call", "seq": true}', '{"action": "", "seq": 1}',
             '{"action": "xyzzy plugh", "seq": 1}', "[" * 5000, '{"action": ["call"]}']


def test_malformed_frames_are_answered_with_an_error_and_change_nothing(client):
    table_id, anna, _ = start_two_player_table(client)
    before = client.get(f"/api/tables/{table_id}/log").json()
    with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=anna) as ws:
        first_state(ws)
        for text in MALFORMED:
            ws.send_text(text)
            reply = json.loads(ws.receive_text())
            assert reply["type"] == "error" and reply["error"], text
    assert client.get(f"/api/tables/{table_id}/log").json() == before


def test_binary_frames_are_read_like_text_frames(client):
    table_id, anna, _ = start_two_player_table(client)
    with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=anna) as ws:
        frame = first_state(ws)
        ws.send_bytes(b"\xff\xfe not json")
        reply = json.loads(ws.receive_text())
        assert reply["type"] == "error" and reply["error"]
        assert client.get(f"/api/tables/{table_id}").json()["seq"] == frame["seq"]
        ws.send_bytes(json.dumps({"action": frame["legal"][0], "seq": frame["seq"],
                                  "id": "b"}).encode())
        while (reply := json.loads(ws.receive_text()))["type"] == "state":
            pass
        assert reply == {"type": "ack", "id": "b", "seq": frame["seq"] + 1}


def test_other_websocket_paths_are_not_a_table(client):
    from starlette.websockets import WebSocketDisconnect

    table_id, anna, _ = start_two_player_table(client)
    for path in (f"/api/tables/{table_id}/ws/more", f"/api/tables/{table_id}/wss",
                 "/api/tables//ws", "/ws"):
        with pytest.raises(WebSocketDisconnect), \
                client.websocket_connect(path, headers=anna) as ws:
            ws.receive_text()


def test_an_illegal_action_is_refused_with_the_games_message(client):
    table_id, anna, _ = start_two_player_table(client)
    with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=anna) as ws:
        frame = first_state(ws)
        ws.send_text(json.dumps({"action": "bid 99x9", "seq": frame["seq"]}))
        reply = json.loads(ws.receive_text())
    assert reply["type"] == "error" and not reply["stale"]
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == frame["seq"]


def test_reconnecting_resumes_exactly_where_the_seat_was(client):
    table_id, anna, _ = start_two_player_table(client)
    url = f"/api/tables/{table_id}/ws"
    with client.websocket_connect(url, headers=anna) as ws:
        frame = first_state(ws)
        ws.send_text(json.dumps({"action": frame["legal"][0], "seq": frame["seq"]}))
        while (reply := json.loads(ws.receive_text()))["type"] != "ack":
            latest = reply
    with client.websocket_connect(url, headers=anna) as ws:
        again = first_state(ws)
    assert again == latest


def test_a_spectator_sees_the_spectators_view(client):
    table_id, _, _ = start_two_player_table(client)
    client.cookies.clear()  # no session: a spectator
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        frame = first_state(ws)
    assert frame["seat"] is None and frame["legal"] == []
    assert isinstance(frame["view"], dict) and frame["to_move"] == 0


def test_the_server_plays_every_game_on_sqlite_and_postgresql(db_url):
    with TestClient(create_app(db_url)) as client:
        anna = guest(client, "Anna")
        for game in GAMES:
            players, seats = humans_and_bots(game, 1)
            table = new_table(client, anna, game, players, seats)
            client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=anna)
            url = f"/api/tables/{table['id']}/ws"
            with client.websocket_connect(url, headers=anna) as ws:
                play_by_websocket(ws, random.Random(3), Frames())
            assert verify_log(client.get(f"/api/tables/{table['id']}/log").json()) == []


def test_a_flood_of_refused_frames_is_then_refused_unread_and_changes_nothing(client):
    table_id, anna, _ = start_two_player_table(client)
    before = client.get(f"/api/tables/{table_id}/log").json()
    with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=anna) as ws:
        frame = first_state(ws)
        move = json.dumps({"action": frame["legal"][0], "seq": frame["seq"], "id": "m"})
        for _ in range(80):
            ws.send_text("{}")
        ws.send_text(move)  # past the burst: not read, so not played
        replies = [json.loads(ws.receive_text()) for _ in range(81)]
        refused = [r for r in replies if r["error"].startswith("too many frames refused")]
        assert len(refused) >= 20 and replies[-1] in refused
        assert client.get(f"/api/tables/{table_id}/log").json() == before
        time.sleep(1.0)  # the budget fills again; a move played costs nothing
        ws.send_text(move)
        while (reply := json.loads(ws.receive_text()))["type"] == "state":
            pass
        assert reply == {"type": "ack", "id": "m", "seq": reply["seq"]}

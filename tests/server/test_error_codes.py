"""Every refusal carries a code, and the code alone picks the HTTP status."""

from __future__ import annotations

import json

from servertools import guest, new_table

from kastkopp.engine import (
    GameOver,
    IllegalAction,
    KastkoppError,
    NotFound,
    NotYourTurn,
    RuleError,
    StaleAction,
    Unreadable,
)
from kastkopp.server.accounts import NotAuthenticated
from kastkopp.server.errors import STATUS, status_of
from kastkopp.server.hub import TableError, TableNotFound
from kastkopp.server.limits import RateLimited
from kastkopp.server.workers import Busy


def test_the_status_comes_from_the_code_not_the_words():
    assert status_of(TableNotFound("there is no table '{table}'", table="x")) == 404
    assert status_of(NotFound("anything at all")) == 404
    assert status_of(TableError("there is no log yet")) == 400  # words alone decide nothing
    assert status_of(StaleAction("too late")) == 409
    assert status_of(NotAuthenticated("log in first")) == 401
    assert status_of(RateLimited(5)) == 429
    assert status_of(Busy("busy")) == 503
    for refusal in (IllegalAction, Unreadable, NotYourTurn, GameOver, RuleError, KastkoppError):
        assert status_of(refusal("no")) == 400
    assert set(STATUS.values()) == {401, 404, 409, 429, 503}


def start(client):
    anna, bo = guest(client, "Anna"), guest(client, "Bo")
    table = new_table(client, anna, "mia", 2)
    client.post(f"/api/tables/{table['id']}/join", json={"seed": "b2"}, headers=bo)
    client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=anna)
    return table["id"], anna, bo


def test_each_refusal_of_a_move_answers_with_its_code_and_status(client):
    table_id, anna, bo = start(client)
    url = f"/api/tables/{table_id}/action"
    seq = client.get(f"/api/tables/{table_id}").json()["seq"]
    to_move = client.get(f"/api/tables/{table_id}").json()["to_move"]
    mover, other = (anna, bo) if to_move == 0 else (bo, anna)

    def refused(headers: dict[str, str], body: dict[str, object]) -> tuple[int, str]:
        response = client.post(url, json=body, headers=headers)
        return response.status_code, response.json()["code"]

    assert refused(other, {"action": "announce 54", "seq": seq}) == (400, "not_your_turn")
    assert refused(mover, {"action": "announce 99", "seq": seq}) == (400, "illegal")
    assert refused(mover, {"action": "announce 54", "seq": seq + 5}) == (409, "stale")
    missing = client.post("/api/tables/nosuchtable/action", headers=mover,
                          json={"action": "call", "seq": 0})
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert client.get(f"/api/tables/{table_id}").json()["seq"] == seq  # nothing changed


def test_the_websocket_tells_the_code_of_a_refused_frame(client):
    table_id, anna, _ = start(client)
    with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=anna) as ws:
        while (frame := json.loads(ws.receive_text()))["type"] != "state":
            pass
        ws.send_text(json.dumps({"action": 5, "seq": frame["seq"], "id": 1}))
        while (reply := json.loads(ws.receive_text()))["type"] == "state":
            pass
    assert reply["type"] == "error" and reply["code"] == "unreadable" and not reply["stale"]

"""An illegal move is answered in the language the client asked for.

A real server process and the ``websockets`` client: the WebSocket takes its language from
``?lang=``, else the page's language cookie, else ``Accept-Language``, else English. The
HTTP API answers the same way (a program that asks for no language gets English) and adds
the template and its parameters for programs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from servertools import ServerProcess, guest, new_table
from websockets.sync.client import connect


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server process for the module's tables."""
    process = ServerProcess(str(tmp_path_factory.mktemp("languages") / "k.db")).start()
    yield process
    process.stop()


@pytest.fixture
def table(server: ServerProcess) -> Iterator[tuple[str, Any, str]]:
    """A started two-player Slosch table: (its WebSocket URL, Anna's headers, server URL)."""
    with httpx.Client(base_url=server.url) as client:
        anna, bo = guest(client, "Anna"), guest(client, "Bo")
        made = new_table(client, anna, "mia", 2)
        table_id = str(made["id"])
        url = f"/api/tables/{table_id}"
        assert client.post(f"{url}/join", json={"seed": "b2"}, headers=bo).is_success
        assert client.post(f"{url}/start", json={"seed": "a1"}, headers=anna).is_success
        yield f"{server.ws_url}/api/tables/{table_id}/ws", anna, server.url


def refusal(url: str, action: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """Send ``action`` at the position the first frame shows; the server's answer."""
    with connect(url, additional_headers=headers or {}, open_timeout=10) as ws:
        while (frame := json.loads(ws.recv(timeout=10)))["type"] != "state":
            pass
        ws.send(json.dumps({"action": action, "seq": frame["seq"], "id": 7}))
        while (reply := json.loads(ws.recv(timeout=10)))["type"] == "state":
            pass
    assert reply["type"] == "error" and reply["id"] == 7
    return reply


def test_an_illegal_move_is_answered_in_the_language_the_client_chose(table) -> None:
    url, anna, base = table
    english = "'99' is not a roll of two dice (write it like 54)"
    assert refusal(url + "?lang=sv", "announce 99", anna)["error"] == \
        "'99' är inget kast med två tärningar (skriv det som 54)"
    assert refusal(url, "announce 99", {**anna, "Cookie": "kastkopp_lang=da"})["error"] == \
        "'99' er ikke et slag med to terninger (skriv det som 54)"
    assert refusal(url, "announce 99", {**anna, "Accept-Language": "sv-SE,sv;q=0.9"})["error"] == \
        "'99' är inget kast med två tärningar (skriv det som 54)"
    assert refusal(url, "announce 99", anna)["error"] == english
    assert refusal(url + "?lang=xx", "announce 99", anna)["error"] == english
    # nothing changed, whatever the language of the refusal
    with httpx.Client(base_url=base) as client:
        seq = client.get(f"/api/tables/{url.split('/')[-2]}").json()["seq"]
        response = client.post(f"/api/tables/{url.split('/')[-2]}/action", headers=anna,
                               json={"action": "announce 99", "seq": seq})
    assert response.status_code == 400
    assert response.json() == {"detail": english, "code": "illegal",
                               "template": "'{text}' is not a roll of two dice (write it "
                                           "like 54)",
                               "params": {"text": "99"}}


def test_the_servers_own_refusals_speak_the_language_too(table) -> None:
    url, anna, _ = table
    reply = refusal(url + "?lang=sv", "roll", anna)  # out of order: Anna has rolled and announces
    assert reply["error"].startswith("du har slagit; utropa nu ett värde (t.ex. 'säg ")
    with connect(url + "?lang=da", additional_headers=anna, open_timeout=10) as ws:
        while (frame := json.loads(ws.recv(timeout=10)))["type"] != "state":
            pass
        ws.send(json.dumps({"action": "roll", "seq": frame["seq"] + 5}))
        while (reply := json.loads(ws.recv(timeout=10)))["type"] == "state":
            pass
    assert reply["stale"] and reply["error"].startswith(
        f"bordet er ved {frame['seq']}, ikke {frame['seq'] + 5}: dit træk gjaldt")


def test_http_refusals_and_the_sockets_own_errors_speak_the_language_too(table) -> None:
    url, _, base = table
    table_id = url.split("/")[-2]
    with httpx.Client(base_url=base) as client:
        cid = guest(client, "Cid")
        full = client.post(f"/api/tables/{table_id}/join", json={"seed": "b2"}, headers=cid)
        in_swedish = client.post(f"/api/tables/{table_id}/join", json={"seed": "b2"},
                                 headers={**cid, "Accept-Language": "sv"})
        in_danish = client.post(f"/api/tables/{table_id}/join?lang=da", json={}, headers=cid)
    assert full.status_code == in_swedish.status_code == 400
    assert full.json()["detail"] == "the game has started; you can watch it"
    assert in_swedish.json() == {**full.json(), "detail": "spelet har börjat; du kan titta på"}
    assert in_danish.json()["detail"] == "spillet er begyndt; du kan se med"
    watching = url.split("?")[0] + "?lang=sv"  # no token: a spectator
    with connect(watching, open_timeout=10) as ws:
        while json.loads(ws.recv(timeout=10))["type"] != "state":
            pass
        ws.send(json.dumps({"action": "roll", "seq": 0}))
        assert json.loads(ws.recv(timeout=10))["error"] == \
            "logga in för att spela; åskådare tittar bara på"
        ws.send("not json")
        assert json.loads(ws.recv(timeout=10))["error"] == \
            'en ram är ett JSON-objekt som {"action": "call", "seq": 12}'

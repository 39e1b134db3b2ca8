"""Chat at a table, on SQLite and PostgreSQL: stored, sent to every watcher, limited."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from servertools import guest, new_table, token

from kastkopp.server.app import create_app
from kastkopp.server.chat import BURST, MAX_LENGTH


@pytest.fixture
def app_client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as test_client:
        yield test_client


def test_players_and_spectators_chat_and_everyone_watching_hears_it(
        app_client: TestClient) -> None:
    anna, cara = guest(app_client, "Anna"), guest(app_client, "Cara")
    table = new_table(app_client, anna, "mia", 2)
    with app_client.websocket_connect(f"/api/tables/{table['id']}/ws") as watcher:
        assert json.loads(watcher.receive_text())["type"] == "state"
        said = app_client.post(f"/api/tables/{table['id']}/chat", headers=anna,
                               json={"text": "  lycka\n till <b>alla</b>  "})
        assert said.status_code == 200, said.text
        heard = json.loads(watcher.receive_text())
        assert heard == said.json()
        assert (heard["type"], heard["text"], heard["seat"]) == \
            ("chat", "lycka till <b>alla</b>", 0)
        assert heard["author"].startswith("Anna~")
    # A spectator (Cara does not sit) may speak too; she is shown without a seat.
    app_client.post(f"/api/tables/{table['id']}/chat", headers=cara, json={"text": "hej"})
    app_client.cookies.clear()
    history = app_client.get(f"/api/tables/{table['id']}/chat").json()
    assert [(m["text"], m["seat"]) for m in history] == \
        [("lycka till <b>alla</b>", 0), ("hej", None)]
    after = app_client.get(f"/api/tables/{table['id']}/chat?after={history[0]['id']}")
    assert [m["text"] for m in after.json()] == ["hej"]


def test_bad_messages_are_refused_with_the_reason_and_nothing_is_kept(
        app_client: TestClient) -> None:
    anna = guest(app_client, "Anna")
    table = new_table(app_client, anna, "mia", 2)
    url = f"/api/tables/{table['id']}/chat"
    long = app_client.post(url, headers=anna, json={"text": "x" * (MAX_LENGTH + 1)})
    assert long.status_code == 400
    assert long.json()["detail"] == f"a message is at most {MAX_LENGTH} characters; this " \
                                    f"one has {MAX_LENGTH + 1}"
    empty = app_client.post(url, headers=anna, json={"text": " \u0000\n "})
    assert empty.status_code == 400 and "empty" in empty.json()["detail"]
    for n in range(BURST):
        assert app_client.post(url, headers=anna, json={"text": f"{n}"}).status_code == 200
    fast = app_client.post(url, headers=anna, json={"text": "again"})
    assert fast.status_code == 400 and fast.json()["detail"].startswith("slow down")
    nowhere = app_client.post("/api/tables/nosuchtable/chat", headers=anna,
                              json={"text": "hello"})
    assert nowhere.status_code == 404
    app_client.cookies.clear()
    anonymous = app_client.post(url, json={"text": "hello"})
    assert anonymous.status_code == 401
    assert [m["text"] for m in app_client.get(url).json()] == [str(n) for n in range(BURST)]
    assert app_client.get(url, params={"after": 2**31 - 1}).json() == []
    too_far = app_client.get(url, params={"after": 2**31})  # past any id the table keeps
    assert too_far.status_code == 422 and "after" in too_far.text
    assert token(anna)  # the guest's token still works after all this
    assert app_client.get("/api/account", headers=anna).status_code == 200


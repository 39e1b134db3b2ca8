"""What crosses the server's boundary: other sites, tokens, malformed bodies, name races.

A browser sends the session cookie with requests other sites make it send; those are
refused. Tokens travel in cookies and headers, never in URLs, and never reach the logs.
Every malformed body gets a 4xx and changes nothing.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from servertools import Frames, ServerProcess, guest, new_table, play_by_websocket, token
from sqlalchemy import event, text
from starlette.testclient import WebSocketDisconnect
from websockets.sync.client import connect

from kastkopp.server.app import create_app

EVIL = "https://evil.example"


def started_table(client: Any) -> tuple[str, dict[str, str], dict[str, str]]:
    """A started Slosch table of Anna and Bo; the client's cookie is Anna's session."""
    bo = guest(client, "Bo")
    anna = guest(client, "Anna")  # the last login: its cookie stays in the client
    table = new_table(client, anna, "mia", 2)
    assert client.post(f"/api/tables/{table['id']}/join", json={"seed": "b2"},
                       headers=bo).is_success
    assert client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}).is_success
    return table["id"], anna, bo


def first_frame(ws: Any) -> dict[str, Any]:
    return dict(json.loads(ws.receive_text()))


# --------------------------------------------------------------------------- other sites


def test_a_cross_origin_websocket_with_a_valid_cookie_is_refused(client):
    table_id, _, _ = started_table(client)
    url = f"/api/tables/{table_id}/ws"
    with client.websocket_connect(url, headers={"Origin": EVIL}) as ws:
        refusal = first_frame(ws)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert refusal["type"] == "error" and refusal["code"] == "cross_origin"
    assert EVIL in refusal["error"] and "seat" not in refusal and "view" not in refusal
    assert closed.value.code == 4403
    # in the language the socket asks for
    with client.websocket_connect(url + "?lang=sv", headers={"Origin": EVIL}) as ws:
        assert first_frame(ws)["error"].startswith("nekat: ")
    # the same cookie from the server's own page (and from a program) plays
    for headers in ({"Origin": "http://testserver"}, {}):
        with client.websocket_connect(url, headers=headers) as ws:
            frame = first_frame(ws)
        assert frame["type"] == "state" and frame["seat"] == 0


def test_a_cross_origin_websocket_with_a_bearer_token_is_a_programs_and_plays(client):
    table_id, anna, _ = started_table(client)
    client.cookies.clear()
    with client.websocket_connect(f"/api/tables/{table_id}/ws",
                                  headers={**anna, "Origin": EVIL}) as ws:
        frame = first_frame(ws)
    assert frame["type"] == "state" and frame["seat"] == 0


def test_an_allowed_other_origin_may_open_the_socket(tmp_path):
    app = create_app(str(tmp_path / "k.db"), origins=["https://kastkopp.example"])
    with TestClient(app) as client:
        table_id, _, _ = started_table(client)
        url = f"/api/tables/{table_id}/ws"
        with client.websocket_connect(url, headers={"Origin": "https://kastkopp.example"}) as ws:
            assert first_frame(ws)["type"] == "state"
        with client.websocket_connect(url, headers={"Origin": EVIL}) as ws:
            assert first_frame(ws)["code"] == "cross_origin"


def test_cross_origin_text_plain_leave_and_logout_are_refused(client):
    table = new_table(client, guest(client, "Bo"), "mia", 3)
    guest(client, "Anna")  # the client's cookie
    leave = f"/api/tables/{table['id']}/leave"
    assert client.post(f"/api/tables/{table['id']}/join", json={}).is_success
    form = {"Content-Type": "text/plain"}
    attempts = [
        (leave, {**form, "Origin": EVIL}, "cross_origin"),
        ("/api/account/logout", {**form, "Origin": EVIL}, "cross_origin"),
        (leave, {"Origin": EVIL}, "cross_origin"),
        (leave, {"Sec-Fetch-Site": "cross-site"}, "cross_origin"),
        ("/api/account/logout", {"Origin": "null"}, "cross_origin"),
        (leave, form, "form_post"),  # a form of another site that sent no Origin
        ("/api/account/logout", {"Content-Type": "application/x-www-form-urlencoded"},
         "form_post"),
    ]
    for path, headers, code in attempts:
        response = client.post(path, content=b"{}", headers=headers)
        assert response.status_code == 403, (path, headers, response.text)
        assert response.json()["code"] == code and response.json()["detail"]
    danish = client.post(leave + "?lang=da", content=b"{}", headers={**form, "Origin": EVIL})
    assert danish.json()["detail"].startswith("afvist: ")
    # nothing changed: still seated, still logged in
    assert client.get("/api/account").status_code == 200
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert any((s["name"] or "").startswith("Anna~") for s in seats), seats
    # the server's own page leaves and logs out
    own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post(leave, headers=own).status_code == 200
    assert client.post("/api/account/logout", headers=own).status_code == 200


def test_a_bearer_token_request_is_not_checked_for_its_origin(client):
    anna = guest(client, "Anna")
    client.cookies.clear()
    made = client.post("/api/tables", json={"game": "mia", "players": 2},
                       headers={**anna, "Origin": EVIL})
    assert made.status_code == 201


def test_logging_in_from_another_sites_form_is_refused(client):
    response = client.post("/api/account/guest", json={"nickname": "Anna"},
                           headers={"Origin": EVIL})
    assert response.status_code == 403 and "set-cookie" not in response.headers


# --------------------------------------------------------------------------- tokens


def test_a_token_in_the_websocket_url_is_refused(client):
    table_id, anna, _ = started_table(client)
    client.cookies.clear()
    with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token(anna)}") as ws:
        refusal = first_frame(ws)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert refusal["code"] == "token_in_url" and "Authorization" in refusal["error"]
    assert closed.value.code == 4400


def test_a_socket_with_a_token_that_opens_no_account_is_refused_in_its_language(client):
    table_id, _, _ = started_table(client)
    client.cookies.clear()
    with client.websocket_connect(f"/api/tables/{table_id}/ws?lang=da",
                                  headers={"Authorization": "Bearer not-a-token"}) as ws:
        refusal = first_frame(ws)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert refusal == {"type": "error", "code": "not_authenticated",
                       "error": "tokenet er ugyldigt; log ind igen"}
    assert closed.value.code == 4401


def test_the_access_log_of_a_played_game_holds_no_token(tmp_path, servers):
    log = tmp_path / "server.log"
    server = ServerProcess(str(tmp_path / "k.db"), log_level="info", log=log).start()
    servers.append(server)
    with httpx.Client(base_url=server.url) as http:
        anna = guest(http, "Anna")
        table = new_table(http, anna, "mia", 2, [None, "bot:sensible"])
        assert http.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"},
                         headers=anna).is_success
        # a client that still puts its token in URLs is refused, and its token not logged
        assert http.get(f"/api/tables/{table['id']}?token={token(anna)}").is_success
    url = f"{server.ws_url}/api/tables/{table['id']}/ws"
    with connect(url + f"?token={token(anna)}", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "token_in_url"
    with connect(url, additional_headers=anna, open_timeout=10) as ws:

        class Socket:  # the helper's receive_text over the websockets client
            def receive_text(self) -> str:
                return str(ws.recv(timeout=10))

            def send_text(self, text: str) -> None:
                ws.send(text)

        last = play_by_websocket(Socket(), random.Random(2), Frames())
    assert last["status"] == "over"
    server.stop()
    written = log.read_text()
    assert f'"WebSocket /api/tables/{table["id"]}/ws" [accepted]' in written
    assert "POST /api/tables" in written and "token=[hidden]" in written
    assert token(anna) not in written


# --------------------------------------------------------------------------- bodies


@pytest.mark.parametrize("seq", ["1", 5.0, True, None, [1]])
def test_a_seq_that_is_not_an_integer_is_refused_with_422(client, seq):
    table_id, anna, _ = started_table(client)
    before = client.get(f"/api/tables/{table_id}/log").json()
    legal = client.get(f"/api/tables/{table_id}/state", headers=anna).json()["legal"]
    response = client.post(f"/api/tables/{table_id}/action", headers=anna,
                           json={"action": legal[0], "seq": seq})
    assert response.status_code == 422
    assert [e["loc"] for e in response.json()["detail"]] == [["body", "seq"]]
    assert client.get(f"/api/tables/{table_id}/log").json() == before


def unsafe_routes(routes: list[Any]) -> list[tuple[str, str]]:
    """(method, path) of every route that takes a body, in the schema or not (the
    routers the pages include among them, which the app lists as one entry each)."""
    found = []
    for route in routes:
        if isinstance(route, APIRoute):
            found += [(m, route.path) for m in route.methods & {"POST", "PUT", "DELETE"}]
        elif hasattr(route, "original_router"):
            found += unsafe_routes(route.original_router.routes)
    return sorted(found)


def filled(path: str, table_id: str) -> str:
    return (path.replace("{table_id}", table_id).replace("{seat}", "1")
            .replace("{sheet_id}", "s1").replace("{name}", "Anna")
            .replace("{series_id}", "x1"))


LONE = [b'{"nickname": "\\ud800"}', b'{"name": "a\\udfff", "password": "x"}',
        b'{"action": "\\ud83c", "seq": 0}', b'{"\\udc00": 1}', b'["\\ud800"]',
        b'{"text": "\\ud800\\ud800"}']
WRONG = [b"[]", b'"x"', b"1", b"null", b"true", b'{"seq": []}', b'{"action": {}}',
         b'{"rules": [1]}', b'{"players": "ab"}', b'{"entries": 5}', b"{", b"\xff\xfe"]


def test_a_lone_surrogate_or_a_wrong_type_gives_4xx_on_every_json_endpoint(client):
    table_id, anna, _ = started_table(client)
    before = client.get(f"/api/tables/{table_id}/log").json()
    routes = unsafe_routes(client.app.routes)
    assert len(routes) >= 15
    kinds = {"Content-Type": "application/json", **anna}
    for method, path in routes:
        url = filled(path, table_id)
        for body in LONE:
            response = client.request(method, url, content=body, headers=kinds)
            assert response.status_code == 422, (method, url, body, response.text)
            assert response.json()["code"] == "malformed_body"
        if path == "/api/account/logout":
            continue  # it reads no body, and would end the session the loop uses
        for body in WRONG:  # a route that reads no body may answer 200
            response = client.request(method, url, content=body, headers=kinds)
            assert response.status_code < 500, (method, url, body, response.text)
    assert client.get(f"/api/tables/{table_id}/log").json() == before
    # a surrogate pair is one character: read as sent
    paired = client.post("/api/account/guest", content='{"nickname": "Bo\\ud83c\\udfb2"}',
                         headers={"Content-Type": "application/json"})
    assert paired.status_code == 400 and "letters" in paired.json()["detail"]


# --------------------------------------------------------------------------- name races


def rival_takes_the_name(client: Any) -> list[str]:
    """Before the next INSERT of an account, another connection commits its name first:
    the race of two requests for one name, made to happen every time."""
    engine = client.app.state.store.engine
    taken: list[str] = []

    @event.listens_for(engine, "before_cursor_execute")
    def rival(connection: Any, cursor: Any, statement: str, parameters: Any,
              context: Any, many: bool) -> None:
        if statement.startswith("INSERT INTO accounts") and not taken:
            name = parameters["name"] if isinstance(parameters, dict) else \
                next(p for p in parameters if isinstance(p, str))  # SQLite's: in order
            taken.append(name)
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as other:
                other.execute(text("INSERT INTO accounts (name, guest, created_at) "
                                   "VALUES (:name, true, CURRENT_TIMESTAMP)"), {"name": name})

    return taken


@pytest.fixture
def any_client(db_url: str) -> Iterator[TestClient]:
    """A client of an app on SQLite, and on PostgreSQL when it is there."""
    with TestClient(create_app(db_url)) as test_client:
        yield test_client


def test_a_name_registered_by_someone_else_at_the_same_moment_is_a_clear_400(any_client):
    client = any_client
    taken = rival_takes_the_name(client)
    response = client.post("/api/account/register",
                           json={"name": "anna", "password": "hemligt-ord"})
    assert taken == ["anna"]
    assert response.status_code == 400
    assert response.json()["detail"] == "the name 'anna' is taken"


def test_a_guest_name_taken_at_the_same_moment_gives_the_guest_another(any_client):
    client = any_client
    taken = rival_takes_the_name(client)
    response = client.post("/api/account/guest", json={"nickname": "Anna"})
    assert response.status_code == 200, response.text
    name = response.json()["account"]["name"]
    assert len(taken) == 1 and taken[0].startswith("Anna~") and name != taken[0]
    assert client.get("/api/account").json()["name"] == name

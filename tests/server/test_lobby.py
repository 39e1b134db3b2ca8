"""Accounts, the lobby, move clocks, statistics and the migrations."""

from __future__ import annotations

import json
import random
import time

import pytest
from servertools import Frames, guest, new_table, play_by_websocket

from kastkopp.engine import Table, verify_log
from kastkopp.games import registered
from kastkopp.store import Store
from kastkopp.store.models import Base


def test_register_log_in_change_password_and_log_out(client):
    response = client.post("/api/account/register",
                           json={"name": "anna", "password": "hemligt-ord"})
    assert response.status_code == 200
    assert "kastkopp_session" in response.headers["set-cookie"]
    assert "httponly" in response.headers["set-cookie"].lower()
    assert client.get("/api/account").json()["name"] == "anna"  # by the cookie
    again = client.post("/api/account/register", json={"name": "anna", "password": "x" * 9})
    assert again.status_code == 400 and "taken" in again.json()["detail"]
    wrong = client.post("/api/account/login", json={"name": "anna", "password": "fel-ord-1"})
    assert wrong.status_code == 400 and wrong.json()["detail"] == "wrong name or password"
    changed = client.post("/api/account/password",
                          json={"old_password": "hemligt-ord", "new_password": "nytt-ord-2"})
    assert changed.status_code == 200
    assert client.post("/api/account/login",
                       json={"name": "anna", "password": "hemligt-ord"}).status_code == 400
    login = client.post("/api/account/login", json={"name": "anna", "password": "nytt-ord-2"})
    bearer = {"Authorization": f"Bearer {login.json()['token']}"}
    assert client.post("/api/account/logout", headers=bearer).status_code == 200
    client.cookies.clear()
    assert client.get("/api/account", headers=bearer).status_code == 401


def test_a_short_password_or_odd_name_is_refused_with_the_reason(client):
    short = client.post("/api/account/register", json={"name": "bo", "password": "kort"})
    assert "at least 8" in short.json()["detail"]
    odd = client.post("/api/account/register", json={"name": "a b", "password": "x" * 10})
    assert odd.status_code == 400 and "letters" in odd.json()["detail"]
    bot = client.post("/api/account/register", json={"name": "botty", "password": "x" * 10})
    assert "house bots" in bot.json()["detail"]


def test_an_api_token_works_without_the_cookie(client):
    anna = guest(client, "Anna")
    api = client.post("/api/account/tokens", json={"label": "my bot"}, headers=anna).json()
    client.cookies.clear()
    me = client.get("/api/account", headers={"Authorization": f"Bearer {api['token']}"})
    assert me.status_code == 200 and me.json()["guest"]
    assert client.get("/api/account").status_code == 401


def test_join_leave_and_start_only_as_the_rules_of_the_lobby_allow(client):
    anna, bo, carl = guest(client, "Anna"), guest(client, "Bo"), guest(client, "Carl")
    table = new_table(client, anna, "mia", 3)
    url = f"/api/tables/{table['id']}"
    assert client.post(url + "/join", json={"seat": 0}, headers=bo).status_code == 400
    assert client.post(url + "/join", json={"seed": "b2"}, headers=bo).json()["seats"][1]["name"]
    assert "already" in client.post(url + "/join", json={"seed": "b2"}, headers=bo).json()["detail"]
    refused = client.post(url + "/start", json={"seed": "a1"}, headers=anna)
    assert "seat 2 is empty" in refused.json()["detail"]
    assert "creator" in client.post(url + "/start", json={"seed": "a1"},
                                    headers=bo).json()["detail"]
    assert client.post(url + "/leave", headers=bo).json()["seats"][1]["name"] is None
    assert client.post(url + "/seats/1/bot", json={"bot": "sensible"},
                       headers=carl).status_code == 400
    assert client.post(url + "/seats/1/bot", json={"bot": "sensible"},
                       headers=anna).json()["seats"][1]["bot"] == "sensible"
    lobby = client.get("/api/tables").json()
    assert [t["id"] for t in lobby] == [table["id"]]
    started = client.post(url + "/start", json={"fill": "random", "seed": "a1"},
                          headers=anna).json()
    assert started["status"] == "playing" and started["seats"][2]["bot"] == "random"
    assert "started" in client.post(url + "/leave", headers=anna).json()["detail"]
    assert client.get("/api/tables").json() == []


def test_bad_table_settings_are_refused_with_a_reason(client):
    anna = guest(client, "Anna")
    cases = [({"game": "schack"}, "unknown game"),
             ({"game": "mia", "preset": "nope"}, "unknown preset"),
             ({"game": "mia", "rules": {"lives": 99}}, "at most"),
             ({"game": "mia", "rules": {"colour": "red"}}, "unknown rule"),
             ({"game": "mia", "players": 1}, "players"),
             ({"game": "mia", "players": 2, "seats": [None, "bot:deep-blue"]}, "no bot"),
             ({"game": "mia", "players": 2, "seats": ["bot:random", "bot:random"]},
              "leave one free")]
    for body, reason in cases:
        response = client.post("/api/tables", json=body, headers=anna)
        assert response.status_code == 400, body
        assert reason in response.json()["detail"], (body, response.json())
    assert client.get("/api/tables/nosuchtable").status_code == 404


def test_the_invite_link_shows_the_table_and_its_commitment(client):
    anna = guest(client, "Anna")
    table = new_table(client, anna, "mia", 2)
    assert table["invite"] == f"/play/{table['id']}"
    page = client.get(table["invite"])
    assert page.status_code == 200 and table["seed_sha256"] in page.text
    assert f'id="invite" href="/play/{table["id"]}"' in page.text
    older = client.get(f"/tables/{table['id']}", follow_redirects=False)
    assert older.status_code == 303 and older.headers["location"] == table["invite"]
    assert client.get("/tables/nosuchtable").status_code == 404


def test_the_table_page_draws_with_the_module_the_game_registers(client):
    anna = guest(client, "Anna")
    named = {name: cls.parts.renderer for name, cls in registered().items()}
    assert any(named.values())
    for name, renderer in named.items():
        table = new_table(client, anna, name, registered()[name].min_players)
        page = client.get(table["invite"]).text
        drawn = json.loads(page.split('<script type="application/json" id="table">', 1)[1]
                           .split("</script>", 1)[0])["renderer"]
        assert drawn == f"/static/{renderer or 'games/default.js'}", name
        served = client.get(drawn)
        assert served.status_code == 200 and "export function render" in served.text, name


def wait_for(predicate, seconds=5.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_on_timeout_the_table_plays_the_games_default_move(client):
    anna = guest(client, "Anna")
    table = new_table(client, anna, "mia", 2, [None, "bot:random"],
                      time_control={"kind": "live", "seconds": 1, "on_timeout": "move"})
    started = client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"},
                          headers=anna).json()
    assert started["deadline"] is not None
    assert wait_for(lambda: client.get(f"/api/tables/{table['id']}").json()["seq"]
                    > started["seq"])
    log = client.get(f"/api/tables/{table['id']}/log").json()
    # Slosch's default for a roller: the lowest value, whatever the dice (everyone sees it)
    assert log["events"][started["seq"]] == {"seq": started["seq"], "type": "action",
                                             "seat": 0, "action": "announce 31"}


def test_on_timeout_the_player_loses_when_the_table_says_so(client):
    anna = guest(client, "Anna")
    table = new_table(client, anna, "mia", 3, [None, "bot:random", "bot:random"],
                      time_control={"kind": "live", "seconds": 1, "on_timeout": "lose"})
    client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=anna)
    assert wait_for(lambda: client.get(f"/api/tables/{table['id']}").json()["status"]
                    == "over")
    over = client.get(f"/api/tables/{table['id']}").json()
    assert over["forfeit_seat"] == 0 and over["outcome"]["ranking"] == [[1, 2], [0]]
    # the forfeit is in the log: a replay and the dice check give the same result
    log = client.get(f"/api/tables/{table['id']}/log").json()
    assert log["events"][-1] == {"seq": len(log["events"]) - 1, "type": "forfeit",
                                 "seat": 0}
    replayed = Table.from_json(log)
    assert replayed.is_over() and replayed.outcome().to_json() == over["outcome"]
    assert verify_log(log) == []
    steps = client.get(f"/api/tables/{table['id']}/replay").json()["steps"]
    assert len(steps) == len(log["events"]) + 1  # the forfeit's step too


def test_correspondence_clock_counts_days(client):
    anna = guest(client, "Anna")
    table = new_table(client, anna, "mia", 2, [None, "bot:random"],
                      time_control={"kind": "correspondence", "days": 2})
    assert table["clock"] == "correspondence" and table["seconds_per_move"] == 2 * 86400


def test_statistics_count_wins_by_seat_and_ratings_rank_the_players(client):
    anna = guest(client, "Anna")
    for seed in range(4):
        table = new_table(client, anna, "mia", 2, [None, "bot:sensible"])
        client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=anna)
        with client.websocket_connect(f"/api/tables/{table['id']}/ws",
                                      headers=anna) as ws:
            play_by_websocket(ws, random.Random(seed), Frames())
    (row,) = client.get("/api/stats/mia").json()
    assert row["games"] == 4 and row["players"] == 2
    assert sum(row["wins"]) + row["draws"] == pytest.approx(100)
    board = client.get("/api/ratings/mia").json()
    assert {entry["name"] for entry in board} == {client.get("/api/account", headers=anna)
                                                  .json()["name"], "bot:sensible"}
    assert board[0]["rating"] >= board[1]["rating"]
    name = client.get("/api/account", headers=anna).json()["name"]
    history = client.get(f"/api/players/{name}/history").json()
    assert len(history) == 4 and all(h["seat"] == 0 for h in history)
    assert all(h["opponents"] == ["bot:sensible"] for h in history)


def test_every_game_is_listed_with_its_presets_and_bots(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert "random" in games["mia"]["bots"]
    assert set(games["mia"]["presets"]) >= {"maexchen"}
    assert json.dumps(games)


def test_the_migrations_build_exactly_the_models(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    store = Store(db_url)
    store.migrate()
    store.migrate()  # applying on every start is harmless
    with store.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    store.dispose()

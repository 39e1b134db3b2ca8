"""A table's bots may carry a budget (``bot:ismcts:sims=150``), within the server's caps:
a guest asking for more is told the cap in its language, and nothing is changed."""

from __future__ import annotations

import random
import time

import pytest
from servertools import Frames, guest, new_table, play_by_websocket

from kastkopp.strategy import bot_names

pytestmark = pytest.mark.skipif("ismcts" not in bot_names("liars_dice"),
                                reason="bot:ismcts needs the openspiel extra")
SV = {"Accept-Language": "sv"}


def test_a_table_seats_a_bot_with_its_budget_written_one_way(client):
    anna = guest(client, "Anna")
    table = new_table(client, anna, "liars_dice", 3, [None, "bot:ismcts:ms=200:sims=0150"])
    assert table["seats"][1]["bot"] == "ismcts:sims=150:ms=200"
    url = f"/api/tables/{table['id']}"
    seated = client.post(url + "/seats/2/bot", json={"bot": "ismcts:sims=200"}, headers=anna)
    assert seated.status_code == 200 and seated.json()["seats"][2]["bot"] == "ismcts:sims=200"


def test_a_budget_above_the_cap_is_refused_saying_the_cap(client):
    anna = guest(client, "Anna")
    response = client.post("/api/tables", headers={**anna, **SV}, json={
        "game": "liars_dice", "players": 2, "seats": [None, "bot:ismcts:sims=1000000000"]})
    assert response.status_code == 400
    assert "sims är ett heltal från 2 till 1000000" in response.json()["detail"]
    response = client.post("/api/tables", headers={**anna, **SV}, json={
        "game": "liars_dice", "players": 2, "seats": [None, "bot:ismcts:sims=100000"]})
    assert response.status_code == 400
    assert response.json()["detail"] == ("på den här servern spelar bot:ismcts med sims upp "
                                         "till 200, inte 100000")
    assert client.get("/api/tables").json() == []  # no table was made


def test_seating_and_filling_with_too_big_a_budget_change_nothing(client):
    anna = guest(client, "Anna")
    table = new_table(client, anna, "liars_dice", 3)
    url = f"/api/tables/{table['id']}"
    refused = client.post(url + "/seats/1/bot", json={"bot": "bot:ismcts:ms=60000"},
                          headers={**anna, "Accept-Language": "da"})
    assert refused.status_code == 400
    assert refused.json()["detail"] == ("på denne server spiller bot:ismcts med ms op til 250, "
                                        "ikke 60000")
    refused = client.post(url + "/start", json={"fill": "ismcts:sims=201", "seed": "a1"},
                          headers=anna)
    assert refused.status_code == 400 and "sims up to 200, not 201" in refused.json()["detail"]
    refused = client.post(url + "/start", json={"fill": "ismcts:speed=9", "seed": "a1"},
                          headers=anna)
    assert refused.status_code == 400 and "no setting 'speed'" in refused.json()["detail"]
    now = client.get(url).json()
    assert now["status"] == "open" and [seat["bot"] for seat in now["seats"]] == [None] * 3


def test_a_series_is_refused_a_bot_above_the_cap(client):
    anna = guest(client, "Anna")
    response = client.post("/api/series", headers=anna, json={
        "format": "match", "game": "liars_dice",
        "players": ["bot:ismcts:sims=5000", "bot:random"]})
    assert response.status_code == 400
    assert "sims up to 200, not 5000" in response.json()["detail"]


def test_the_seated_budget_is_the_budget_the_bot_searches_with(client):
    anna = guest(client, "Anna")
    table = new_table(client, anna, "liars_dice", 2, [None, "bot:ismcts:sims=3"],
                      rules={"dice": 1})
    hub = client.app.state.hub
    live = client.portal.call(hub.get, table["id"])  # a finished table leaves the cache
    client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=anna)
    with client.websocket_connect(f"/api/tables/{table['id']}/ws", headers=anna) as ws:
        assert play_by_websocket(ws, random.Random(2), Frames())["status"] == "over"
    assert live.bots[1].searched and set(live.bots[1].searched) == {3}


def test_the_lobby_offers_each_budget_at_its_cap_and_seats_every_offer(client):
    offers = {game["name"]: game["bots"] for game in client.get("/api/games").json()}
    assert "ismcts:sims=200" in offers["liars_dice"] and "ismcts:ms=250" in offers["mia"]
    assert "ismcts" in offers["liars_dice"] and "random" in offers["yatzy"]
    anna = guest(client, "Anna")
    for name in offers["liars_dice"]:
        table = new_table(client, anna, "liars_dice", 2, [None, f"bot:{name}"])
        assert table["seats"][1]["bot"] == name
    assert '"ismcts:sims=200"' in client.get("/lobby").text  # the lobby form's choices


def test_a_searching_bot_chooses_while_the_server_answers_everyone_else(client):
    # bot:ismcts chooses in a thread: a request made just after a person's move is answered
    # while the bot still searches, not after its move (200 simulations take a good part of
    # a second; the answer, milliseconds)
    anna = guest(client, "Anna")
    table = new_table(client, anna, "liars_dice", 2, [None, "bot:ismcts:sims=200"])
    url = f"/api/tables/{table['id']}"
    client.post(url + "/start", json={"seed": "a1"}, headers=anna)
    live = client.portal.call(client.app.state.hub.get, table["id"])
    frame = wait_for_turn(client, url, anna)
    bid = next(action for action in frame["legal"] if action.startswith("bid"))
    searched = len(live.bot(1).searched)
    moved = client.post(url + "/action", json={"action": bid, "seq": frame["seq"]},
                        headers=anna)
    assert moved.status_code == 200, moved.text
    meanwhile = client.get(url + "/state", headers=anna).json()
    assert meanwhile["seq"] == moved.json()["seq"] and meanwhile["legal"] == []
    after = wait_for_turn(client, url, anna)
    assert after["seq"] > meanwhile["seq"] or after["status"] == "over"
    # one search at least: if its move ends the round and it begins the next, two
    assert len(live.bots[1].searched) >= searched + 1


def wait_for_turn(client, url: str, headers: dict[str, str]) -> dict:
    """The seat's frame once it has a move to make (or the game is over)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        frame = client.get(url + "/state", headers=headers).json()
        if frame["legal"] or frame["status"] == "over":
            return frame
        time.sleep(0.05)
    raise AssertionError("the bot did not move")

"""A table's bots may carry a budget (``bot:ismcts:sims=150``), within the server's caps:
a guest asking for more is told the cap in its language, and nothing is changed."""

from __future__ import annotations

import pytest
from servertools import guest, new_table

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

"""Dice nobody can choose, at the server: the commitment comes first, then every seated
person's seed, and only then the first roll."""

from __future__ import annotations

import hashlib
import random
import threading

from servertools import Frames, guest, new_table, play_by_websocket
from sqlalchemy import select, update

from kastkopp.dice import CommitRevealDice, Contribution
from kastkopp.engine import check_log
from kastkopp.store import GameTable, LogEvent, Seat


def name_of(client, headers) -> str:
    return str(client.get("/api/account", headers=headers).json()["name"])


def test_the_server_commits_before_any_client_seed_is_known(client):
    anna, bo = guest(client, "Anna"), guest(client, "Bo")
    table = new_table(client, anna, "mia", 2, sit=False)
    url = f"/api/tables/{table['id']}"
    # before anybody sits down, the commitment is public and no seed is known
    commitment = table["seed_sha256"]
    assert len(commitment) == 64 and table["contributions"] == []
    seen = [client.get(url).json()["seed_sha256"]]
    assert client.post(url + "/join", json={"seed": "anna-first"}, headers=anna).is_success
    seen.append(client.get(url).json()["seed_sha256"])
    assert client.post(url + "/join", json={}, headers=bo).is_success
    assert client.post(url + "/seed", json={"seed": "bo-second"}, headers=bo).is_success
    seen.append(client.get(url).json()["seed_sha256"])
    assert client.post(url + "/start", json={}, headers=anna).is_success
    with client.websocket_connect(f"{url}/ws", headers=anna) as ws_anna, \
            client.websocket_connect(f"{url}/ws", headers=bo) as ws_bo:
        done: list[dict] = []
        other = threading.Thread(target=lambda: done.append(
            play_by_websocket(ws_bo, random.Random(2), Frames())))
        other.start()
        last = play_by_websocket(ws_anna, random.Random(1), Frames())
        other.join(timeout=120)
    seen.append(last["seed_sha256"])
    assert seen == [commitment] * 4  # it never changes
    assert hashlib.sha256(bytes.fromhex(last["server_seed"])).hexdigest() == commitment
    log = client.get(url + "/log").json()
    assert log["dice"]["server_seed_sha256"] == commitment
    assert log["dice"]["contributions"] == [
        {"seat": 0, "name": name_of(client, anna), "seed": "anna-first"},
        {"seat": 1, "name": name_of(client, bo), "seed": "bo-second"}]
    result = check_log(log)
    assert result.verified and result.complete and len(result.contributions) == 2


def test_a_seed_given_when_the_table_is_made_is_refused(client):
    anna = guest(client, "Anna")
    response = client.post("/api/tables", headers=anna,
                           json={"game": "mia", "players": 2, "client_seed": "chosen"})
    assert response.status_code == 400
    assert "once the table is made" in response.json()["detail"]
    assert client.get("/api/tables").json() == []


def test_a_table_cannot_start_until_all_seated_people_contributed(client):
    anna, bo = guest(client, "Anna"), guest(client, "Bo")
    table = new_table(client, anna, "mia", 3, [None, None, "bot:random"])
    url = f"/api/tables/{table['id']}"
    assert client.post(url + "/join", json={}, headers=bo).is_success
    waiting = client.get(url).json()
    assert waiting["seeds_missing"] == [0, 1]  # the bot adds none
    refused = client.post(url + "/start", json={}, headers=anna)
    assert refused.status_code == 400
    assert refused.json()["detail"] == (f"the dice wait for a seed from {name_of(client, anna)}"
                                        f", {name_of(client, bo)}")
    # the creator's own seed with the start is not enough while Bo's is missing
    refused = client.post(url + "/start", json={"seed": "anna"}, headers=anna)
    assert refused.json()["detail"] == "the dice wait for a seed from " + name_of(client, bo)
    assert client.get(url).json() == waiting  # nothing changed
    # malformed seeds are refused with the reason, in the player's language, and change nothing
    for bad in ["", "with space", "x" * 65, 12, None, ["a"]]:
        answer = client.post(url + "/seed", json={"seed": bad}, headers=bo)
        assert answer.status_code == 400, bad
        assert "a seed is 1 to 64 letters" in answer.json()["detail"]
    swedish = client.post(url + "/seed?lang=sv", json={"seed": "med mellanslag"}, headers=bo)
    assert swedish.json()["detail"].startswith("ett frö är 1 till 64 bokstäver")
    assert client.post(url + "/join", json={"seed": " "}, headers=guest(client, "Cy")
                       ).status_code == 400
    assert client.get(url).json() == waiting
    stranger = client.post(url + "/seed", json={"seed": "mine"}, headers=guest(client, "Di"))
    assert "no seat" in stranger.json()["detail"]
    assert client.post(url + "/seed", json={"seed": "bo-1"}, headers=bo).is_success
    assert client.post(url + "/seed", json={"seed": "bo-2"}, headers=bo).is_success  # replaced
    started = client.post(url + "/start", json={"seed": "anna"}, headers=anna).json()
    assert started["status"] == "playing"
    assert [c["seed"] for c in started["contributions"]] == ["anna", "bo-2"]
    late = client.post(url + "/seed", json={"seed": "bo-3"}, headers=bo)
    assert "already started" in late.json()["detail"]
    log = client.get(url + "/log").json()
    assert log["dice"]["client_seed"] == "0:4:anna,1:4:bo-2"


def test_leaving_takes_the_seed_away(client):
    anna, bo = guest(client, "Anna"), guest(client, "Bo")
    table = new_table(client, anna, "mia", 2)
    url = f"/api/tables/{table['id']}"
    client.post(url + "/join", json={"seed": "bo"}, headers=bo)
    client.post(url + "/leave", headers=bo)
    assert client.get(url).json()["contributions"] == []


def test_the_first_roll_of_a_served_table_is_what_the_contributions_give(client):
    anna, bo = guest(client, "Anna"), guest(client, "Bo")
    table = new_table(client, anna, "mia", 2)
    url = f"/api/tables/{table['id']}"
    client.post(url + "/join", json={"seed": "zz"}, headers=bo)
    client.post(url + "/start", json={"seed": "aa"}, headers=anna)
    names = [s["name"] for s in client.get(url).json()["seats"]]
    # the server seed is revealed only at the end: read it, and the roll, where it is kept
    with client.app.state.hub.store.session() as session:
        seed = bytes.fromhex(session.get(GameTable, table["id"]).server_seed)
        first = session.scalar(select(LogEvent.faces).where(LogEvent.table_id == table["id"],
                                                            LogEvent.seq == 0))
    dice = CommitRevealDice.shared(seed, [Contribution(0, names[0], "aa"),
                                          Contribution(1, names[1], "zz")])
    assert tuple(first) == dice.roll(2)


def test_a_started_table_keeps_the_seeds_it_was_dealt_with(client):
    """A seat's seed written late (by another process, at the moment of the start) does not
    change a started game: it is reloaded with the seeds stored with its first roll."""
    anna = guest(client, "Anna")
    table = new_table(client, anna, "mia", 2, [None, "bot:random"])
    url = f"/api/tables/{table['id']}"
    client.post(url + "/start", json={"seed": "dealt"}, headers=anna)
    hub = client.app.state.hub
    with hub.store.session() as session:
        session.execute(update(Seat).where(Seat.table_id == table["id"], Seat.seat == 0)
                        .values(client_seed="written-late"))
    del hub.tables[table["id"]]  # the next request loads it from the database
    assert [c["seed"] for c in client.get(url).json()["contributions"]] == ["dealt"]
    with client.websocket_connect(f"{url}/ws", headers=anna) as ws:
        play_by_websocket(ws, random.Random(4), Frames())
    log = client.get(url + "/log").json()
    assert log["dice"]["client_seed"] == "0:5:dealt" and check_log(log).verified


def test_a_table_made_before_contributions_plays_with_its_one_client_seed(client):
    anna = guest(client, "Anna")
    table = new_table(client, anna, "mia", 2, [None, "bot:random"])
    url = f"/api/tables/{table['id']}"
    hub = client.app.state.hub
    with hub.store.session() as session:  # as the tables made before were stored
        session.execute(update(GameTable).where(GameTable.id == table["id"])
                        .values(client_seed=table["id"]))
    del hub.tables[table["id"]]
    assert "contributions" not in client.get(url).json()
    assert "without seeds" in client.post(url + "/seed", json={"seed": "x"},
                                          headers=anna).json()["detail"]
    assert client.post(url + "/start", json={}, headers=anna).json()["status"] == "playing"
    with client.websocket_connect(f"{url}/ws", headers=anna) as ws:
        play_by_websocket(ws, random.Random(6), Frames())
    log = client.get(url + "/log").json()
    assert log["dice"]["client_seed"] == table["id"] and "contributions" not in log["dice"]
    assert check_log(log).verified


def test_a_series_table_waits_for_its_players_seed_and_then_starts_by_itself(client):
    anna = guest(client, "Anna")
    name = name_of(client, anna)
    series = client.post("/api/series", headers=anna, json={
        "format": "match", "game": "mia", "players": [name, "bot:random"]}).json()
    table = client.get(f"/api/series/{series['id']}").json()["tables"][0]
    url = f"/api/tables/{table['id']}"
    waiting = client.get(url).json()
    assert waiting["status"] == "open" and len(waiting["seeds_missing"]) == 1
    started = client.post(url + "/seed", json={"seed": "anna-series"}, headers=anna).json()
    assert started["contributions"][0]["seed"] == "anna-series"
    assert client.get(url).json()["status"] == "playing"

"""Matches, chouettes and knockouts run on the server with the library's formats."""

from __future__ import annotations

import random
import time

from servertools import Frames, guest, play_by_websocket

from kastkopp.engine import verify_log


def wait_for_series(client, series_id: str, seconds: float = 30.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        summary = client.get(f"/api/series/{series_id}").json()
        if summary["status"] == "over":
            return summary
        time.sleep(0.05)
    raise AssertionError(f"the series did not end: {summary}")


def test_a_best_of_three_match_of_bots_runs_to_its_end_on_the_server(client):
    anna = guest(client, "Anna")
    response = client.post("/api/series", headers=anna, json={
        "format": "match", "game": "mia", "players": ["bot:sensible", "bot:random"],
        "best_of": 3})
    assert response.status_code == 201, response.text
    summary = wait_for_series(client, response.json()["id"])
    assert summary["winner"] in ("bot:sensible", "bot:random")
    assert summary["score"] in ("2-0", "2-1", "1-2", "0-2")
    assert len(summary["tables"]) >= 2
    for table in summary["tables"]:
        assert table["status"] == "over"
        assert verify_log(client.get(f"/api/tables/{table['id']}/log").json()) == []


def test_a_chouette_keeps_the_winner_at_the_table_for_the_games_asked(client):
    anna = guest(client, "Anna")
    players = ["bot:random", "bot:random#2", "bot:sensible"]
    response = client.post("/api/series", headers=anna, json={
        "format": "chouette", "game": "mia", "players": players, "games": 5})
    summary = wait_for_series(client, response.json()["id"])
    state = summary["state"]
    assert len(state["results"]) == 5
    assert sum(s["won"] for s in state["standings"]) == 5
    for earlier, later in zip(summary["tables"], summary["tables"][1:], strict=False):
        first = client.get(f"/api/tables/{earlier['id']}").json()["outcome"]["ranking"][0]
        if len(first) == 1:
            # the winner stays at the table
            assert earlier["players"][first[0]] in later["players"]


def test_a_knockout_with_a_bye_crowns_a_champion(client):
    anna = guest(client, "Anna")
    players = ["bot:sensible", "bot:random", "bot:random#2"]
    response = client.post("/api/series", headers=anna, json={
        "format": "knockout", "game": "mia", "players": players})
    summary = wait_for_series(client, response.json()["id"])
    assert summary["champion"] in players
    assert len(summary["tables"]) >= 2  # the first round's one match and the final
    assert any("final" in line.lower() or summary["champion"] in line
               for line in summary["bracket"])


def test_a_person_plays_a_match_against_a_bot_table_by_table(client):
    anna = guest(client, "Anna")
    name = client.get("/api/account", headers=anna).json()["name"]
    response = client.post("/api/series", headers=anna, json={
        "format": "match", "game": "mia", "players": [name, "bot:random"], "best_of": 3})
    series_id = response.json()["id"]
    played: set[str] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        summary = client.get(f"/api/series/{series_id}").json()
        if summary["status"] == "over":
            break
        for table in summary["tables"]:
            if table["status"] == "open":  # it starts once Anna has added her seed
                client.post(f"/api/tables/{table['id']}/seed", json={"seed": "anna-seed"},
                            headers=anna)
            if table["status"] == "playing" and table["id"] not in played:
                played.add(table["id"])
                with client.websocket_connect(f"/api/tables/{table['id']}/ws",
                                              headers=anna) as ws:
                    play_by_websocket(ws, random.Random(len(played)), Frames())
        time.sleep(0.02)
    assert summary["status"] == "over" and summary["winner"] in (name, "bot:random")
    assert len(played) >= 2


def test_a_series_refuses_unknown_players_and_formats_with_a_reason(client):
    anna = guest(client, "Anna")
    cases = [({"format": "match", "game": "mia", "players": ["nobody", "bot:random"]},
              "no player"),
             ({"format": "match", "game": "mia", "players": ["bot:x", "bot:random"]},
              "no bot"),
             ({"format": "match", "game": "mia", "players": ["bot:random", "bot:random"]},
              "twice"),
             ({"format": "match", "game": "mia", "players": ["bot:random", "bot:random#2"],
               "best_of": 2}, "odd"),
             ({"format": "chouette", "game": "mia",
               "players": ["bot:random", "bot:random#2", "bot:random#3"]}, "how many games")]
    for body, reason in cases:
        response = client.post("/api/series", headers=anna, json=body)
        assert response.status_code == 400, body
        assert reason in response.json()["detail"], (body, response.json())


def registered(client, name: str) -> dict[str, str]:
    response = client.post("/api/account/register",
                           json={"name": name, "password": "hemligt-ord"})
    assert response.status_code == 200, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def seated_accounts(client, table_id: str) -> list[int | None]:
    return [s["account"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]]


def test_a_registered_player_is_seated_in_a_series_only_after_accepting(client):
    bo = registered(client, "bo")
    bo_id = client.get("/api/account", headers=bo).json()["id"]
    anna = guest(client, "Anna")
    name = client.get("/api/account", headers=anna).json()["name"]
    made = client.post("/api/series", headers=anna, json={
        "format": "match", "game": "mia", "players": [name, "bo"], "best_of": 3})
    assert made.status_code == 201, made.text
    series = made.json()
    assert series["status"] == "inviting" and series["tables"] == []
    assert series["invitations"] == {"bo": "invited"}
    assert client.get("/api/tables", params={"status": "open"}).json() == []
    # Bo is asked; nobody else can answer for him
    assert [s["id"] for s in client.get("/api/account/invitations", headers=bo).json()] == \
        [series["id"]]
    assert client.get("/api/account/invitations", headers=anna).json() == []
    for_him = client.post(f"/api/series/{series['id']}/accept", headers=anna)
    assert for_him.status_code == 400
    assert for_him.json()["detail"] == f"you are not invited to the series '{series['id']}'"
    assert client.get(f"/api/series/{series['id']}").json()["tables"] == []
    # he accepts: the first game is made with him in it, and starts once both add a seed
    accepted = client.post(f"/api/series/{series['id']}/accept", headers=bo)
    assert accepted.status_code == 200, accepted.text
    summary = accepted.json()
    assert summary["status"] == "playing" and summary["invitations"] == {"bo": "accepted"}
    (table,) = summary["tables"]
    assert bo_id in seated_accounts(client, table["id"])
    for who, seed in ((anna, "a1"), (bo, "b2")):
        assert client.post(f"/api/tables/{table['id']}/seed", json={"seed": seed},
                           headers=who).is_success
    assert client.get(f"/api/tables/{table['id']}").json()["status"] == "playing"
    assert client.get("/api/account/invitations", headers=bo).json() == []
    again = client.post(f"/api/series/{series['id']}/accept", headers=bo)
    assert again.status_code == 400 and "answered" in again.json()["detail"]


def test_a_declined_invitation_means_the_series_is_never_played(client):
    bo, carl = registered(client, "bo"), registered(client, "carl")
    anna = guest(client, "Anna")
    made = client.post("/api/series", headers=anna, json={
        "format": "knockout", "game": "mia", "players": ["bo", "carl", "bot:random"]})
    series_id = made.json()["id"]
    assert made.json()["invitations"] == {"bo": "invited", "carl": "invited"}
    declined = client.post(f"/api/series/{series_id}/decline?lang=sv", headers=carl)
    assert declined.status_code == 200
    assert declined.json()["status"] == "declined" and declined.json()["tables"] == []
    late = client.post(f"/api/series/{series_id}/accept?lang=sv", headers=bo)
    assert late.status_code == 400
    assert late.json()["detail"] == f"inbjudan till serien '{series_id}' är redan besvarad"
    assert client.get(f"/api/series/{series_id}").json()["tables"] == []


def test_guests_and_bots_named_by_someone_else_are_seated_at_once(client):
    cid = client.get("/api/account", headers=guest(client, "Cid")).json()["name"]
    anna = guest(client, "Anna")
    made = client.post("/api/series", headers=anna, json={
        "format": "match", "game": "mia", "players": [cid, "bot:random"]})
    assert made.json()["status"] == "playing" and made.json()["invitations"] == {}
    assert len(made.json()["tables"]) == 1

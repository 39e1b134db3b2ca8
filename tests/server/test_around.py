"""Around the table: its pace, the lobby leaving abandoned tables out, identical bots rated
apart, and the words the statistics count with."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from servertools import Frames, guest, new_table, play_by_websocket
from sqlalchemy import update

from kastkopp.server.app import create_app
from kastkopp.store import GameTable, LogEvent, TableSetting


def frames_after_my_move(client: TestClient, headers: dict[str, str],
                         table_id: str) -> list[dict[str, Any]]:
    """The state frames from the person's first move to their next turn (or the end)."""
    with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=headers) as ws:
        while True:
            frame = json.loads(ws.receive_text())
            if frame["type"] == "state" and frame["legal"]:
                break
        ws.send_text(json.dumps({"action": frame["legal"][0], "seq": frame["seq"]}))
        after = []
        while True:
            frame = json.loads(ws.receive_text())
            if frame["type"] != "state":
                continue
            after.append(frame)
            if frame["legal"] or frame["status"] == "over":
                return after


def test_a_paced_table_shows_each_bot_move_in_a_frame_of_its_own(client: TestClient) -> None:
    anna = guest(client, "Anna")
    paced = new_table(client, anna, "liars_dice", 4, [None, "bot:random", "bot:random",
                                                      "bot:random"], pace=0.05)
    assert paced["pace"] == 0.05
    client.post(f"/api/tables/{paced['id']}/start", json={"seed": "a1"}, headers=anna)
    after = frames_after_my_move(client, anna, paced["id"])
    # her own move is shown at once, before the first bot has moved; then each bot's move
    assert after[0]["to_move"] == 1 and not after[0]["legal"]
    seqs = [f["seq"] for f in after]
    assert seqs == sorted(set(seqs)) and len(after) >= 2  # in order, none twice

    # without a pace of its own the table takes the server's: here 0, the bots answer at once
    quick = new_table(client, anna, "liars_dice", 4, [None, "bot:random", "bot:random",
                                                      "bot:random"])
    assert quick["pace"] is None
    client.post(f"/api/tables/{quick['id']}/start", json={"seed": "a1"}, headers=anna)
    (only,) = frames_after_my_move(client, anna, quick["id"])
    assert only["to_move"] == 0 or only["status"] == "over"


def test_a_pace_out_of_range_is_refused_and_makes_no_table(client: TestClient) -> None:
    anna = guest(client, "Anna")
    before = client.get("/api/tables").json()
    refused = client.post("/api/tables", headers=anna,
                          json={"game": "mia", "players": 2, "pace": 9})
    assert refused.status_code == 422 and "pace" in json.dumps(refused.json()["detail"])
    assert client.get("/api/tables").json() == before


def test_the_pace_is_kept_with_the_table_and_the_hints_choice(tmp_path: Path) -> None:
    db = str(tmp_path / "kastkopp.db")
    with TestClient(create_app(db)) as client:
        anna = guest(client, "Anna")
        table = new_table(client, anna, "yatzy", 2, [None, "bot:random"], pace=1.5,
                          hints=False)
        store = client.app.state.store  # type: ignore[attr-defined]
        with store.session() as session:
            setting = session.get(TableSetting, table["id"])
            assert setting is not None and (setting.pace, setting.hints) == (1.5, False)
    with TestClient(create_app(db)) as again:  # another process reads it from the database
        assert again.get(f"/api/tables/{table['id']}").json()["pace"] == 1.5


@pytest.fixture
def patient(tmp_path: Path) -> Iterator[TestClient]:
    """A server where a table is abandoned after an hour without a move."""
    with TestClient(create_app(str(tmp_path / "kastkopp.db"), abandoned_after=3600)) as client:
        yield client


def age(client: TestClient, table_id: str, hours: float) -> None:
    """Make every move of the table (and the table) ``hours`` older."""
    then = datetime.now(UTC) - timedelta(hours=hours)
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as session:
        session.execute(update(LogEvent).where(LogEvent.table_id == table_id).values(at=then))
        session.execute(update(GameTable).where(GameTable.id == table_id)
                        .values(created_at=then))


def test_a_table_nobody_moved_at_for_long_leaves_the_lobby_but_stays(patient: TestClient) -> None:
    anna = guest(patient, "Anna")
    ids = {}
    for name, clock in (("fresh", None), ("idle", None), ("clocked", "correspondence")):
        extra = {"time_control": {"kind": clock, "days": 3}} if clock else {}
        table = new_table(patient, anna, "mia", 2, [None, "bot:random"], **extra)
        patient.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=anna)
        ids[name] = table["id"]
    age(patient, ids["idle"], 2)
    age(patient, ids["clocked"], 2)  # its clock moves for Anna: never abandoned
    playing = {t["id"] for t in patient.get("/api/tables?status=playing").json()}
    assert playing == {ids["fresh"], ids["clocked"]}
    lobby = patient.get("/lobby").text
    assert ids["fresh"] in lobby and ids["clocked"] in lobby and ids["idle"] not in lobby
    # not deleted: its page, its log and a move all still work
    table = patient.get(f"/api/tables/{ids['idle']}").json()
    assert table["status"] == "playing"
    assert patient.get(f"/play/{ids['idle']}").status_code == 200
    # an open table waits for players however long: it is not being played
    waiting = new_table(patient, anna, "mia", 2)
    age(patient, waiting["id"], 5)
    assert waiting["id"] in {t["id"] for t in patient.get("/api/tables").json()}


def test_a_move_brings_an_abandoned_table_back_to_the_lobby(patient: TestClient) -> None:
    anna = guest(patient, "Anna")
    table = new_table(patient, anna, "mia", 2, [None, "bot:random"])
    patient.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=anna)
    age(patient, table["id"], 2)
    assert patient.get("/api/tables?status=playing").json() == []
    frames_after_my_move(patient, anna, table["id"])
    assert [t["id"] for t in patient.get("/api/tables?status=playing").json()] == [table["id"]]


def test_identical_bots_are_players_of_their_own_on_the_leaderboard(client: TestClient) -> None:
    anna = guest(client, "Anna")
    table = new_table(client, anna, "mia", 3, [None, "bot:random", "bot:random"])
    client.post(f"/api/tables/{table['id']}/start", json={"seed": "a1"}, headers=anna)
    with client.websocket_connect(f"/api/tables/{table['id']}/ws", headers=anna) as ws:
        import random

        play_by_websocket(ws, random.Random(3), Frames())
    board = client.get("/api/ratings/mia").json()
    anna_name = client.get("/api/account", headers=anna).json()["name"]
    assert {e["name"] for e in board} == {anna_name, "bot:random", "bot:random 2"}
    assert all(e["games"] == 1 for e in board)
    page = client.get("/stats/mia").text
    assert "No finished games yet." not in page
    assert "3 players · 1 game</caption>" in page and "bot:random 2" in page
    assert "3 spelare · 1 parti</caption>" in client.get("/stats/mia?lang=sv").text
    assert "3 spillere · 1 spil</caption>" in client.get("/stats/mia?lang=da").text
    history = client.get("/api/players/bot:random 2/history").json()
    assert [h["seat"] for h in history] == [2]


def test_bots_alone_keep_their_own_quick_pace_unless_the_table_asks(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path / "kastkopp.db"), bot_delay=0.8)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        anna = guest(client, "Anna")
        alone = new_table(client, anna, "mia", 2, ["bot:random", "bot:random"], sit=False)
        watched = new_table(client, anna, "mia", 2, ["bot:random", "bot:random"], sit=False,
                            pace=0.5)
        person = new_table(client, anna, "mia", 2, [None, "bot:random"])
        paces = {}
        for name, table in (("alone", alone), ("watched", watched), ("person", person)):
            paces[name] = hub.pace_of(client.portal.call(hub.get, table["id"]))
        assert paces == {"alone": 0.0, "watched": 0.5, "person": 0.8}

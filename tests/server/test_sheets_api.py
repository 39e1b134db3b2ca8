"""Score sheets kept for an account, on SQLite and PostgreSQL: every number derived again
by the server, impossible entries refused with nothing saved, conflicts never lose a copy."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from servertools import guest

from kastkopp.server.app import create_app

SEED_CELLS = ["0 1 0", "1 0 0", "0 1 0", "0 0 1", "-1 0 0", "0 1 0", "0 0 1", "0 1 0",
              "0 1 0", "0 - 1", "1 - 0", "0 - 1", "0 - 1"]
SEED = {"game": "liars_dice", "players": ["Anna", "Ben", "Cara"], "entries": SEED_CELLS}


@pytest.fixture
def app_client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as test_client:
        yield test_client


def test_a_sheet_is_saved_listed_read_replaced_and_deleted(app_client: TestClient) -> None:
    anna = guest(app_client, "Anna")
    saved = app_client.put("/api/sheets/s1", json=SEED, headers=anna)
    assert saved.status_code == 200, saved.text
    assert saved.json()["revision"] == 1
    assert saved.json()["derived"]["winner"] == "Anna"
    listed = app_client.get("/api/sheets", headers=anna).json()
    assert [(s["id"], s["entries"], s["finished"], s["winner"]) for s in listed] == \
        [("s1", 13, True, "Anna")]
    read = app_client.get("/api/sheets/s1", headers=anna).json()
    assert read["sheet"]["entries"] == SEED_CELLS
    assert {p["name"]: p["dice"] for p in read["derived"]["players"]} == \
        {"Anna": 4, "Cara": 0, "Ben": 0}
    # A change of house rule is saved as typed and every count derived again.
    replaced = app_client.put("/api/sheets/s1", headers=anna, json={
        **SEED, "entries": SEED_CELLS[:3], "rules": {"dice": 3}, "base_revision": 1})
    assert replaced.status_code == 200
    assert replaced.json()["revision"] == 2
    assert {p["name"]: p["dice"] for p in replaced.json()["derived"]["players"]} == \
        {"Anna": 2, "Ben": 1, "Cara": 3}
    assert app_client.delete("/api/sheets/s1", headers=anna).json() == {"ok": True}
    assert app_client.get("/api/sheets", headers=anna).json() == []
    gone = app_client.get("/api/sheets/s1", headers=anna)
    assert gone.status_code == 404 and "no sheet 's1'" in gone.json()["detail"]


def test_an_impossible_entry_is_refused_with_its_reason_and_nothing_is_saved(
        app_client: TestClient) -> None:
    anna = guest(app_client, "Anna")
    app_client.put("/api/sheets/s1", json=SEED, headers=anna)
    bad = app_client.put("/api/sheets/s1", headers=anna, json={
        **SEED, "entries": [*SEED_CELLS, "loss Zed"], "base_revision": 1})
    assert bad.status_code == 400
    assert bad.json()["detail"].startswith("entry 14 (loss Zed): 'Zed' is not a player")
    yatzy = app_client.put("/api/sheets/y1", headers=anna, json={
        "game": "yatzy", "players": ["Anna", "Ben"], "entries": ["Anna fours 4 4 4 1 5"]})
    assert yatzy.status_code == 200
    assert app_client.put("/api/sheets/y1", headers=anna, json={
        "game": "yatzy", "players": ["Anna", "Ben"], "base_revision": 1,
        "entries": ["Anna fours 4 4 4 1 5", "Ben fours 13"]}).status_code == 400
    kept = app_client.get("/api/sheets/s1", headers=anna).json()
    assert kept["revision"] == 1 and kept["sheet"]["entries"] == SEED_CELLS
    assert app_client.get("/api/sheets/y1", headers=anna).json()["revision"] == 1
    assert app_client.put("/api/sheets/x1", headers=anna, json={
        "game": "chess", "players": ["Anna"]}).status_code == 400
    assert [s["id"] for s in app_client.get("/api/sheets", headers=anna).json()] == \
        ["y1", "s1"]


def test_a_save_over_a_newer_copy_is_refused_with_that_copy(app_client: TestClient) -> None:
    anna = guest(app_client, "Anna")
    app_client.put("/api/sheets/s1", json={**SEED, "entries": SEED_CELLS[:2]}, headers=anna)
    # The phone saves revision 2; the laptop, still at revision 1, tries to save its copy.
    app_client.put("/api/sheets/s1", headers=anna,
                   json={**SEED, "entries": SEED_CELLS[:3], "base_revision": 1})
    late = app_client.put("/api/sheets/s1", headers=anna,
                          json={**SEED, "entries": SEED_CELLS[:1], "base_revision": 1})
    assert late.status_code == 409
    assert "changed elsewhere" in late.json()["detail"]
    assert late.json()["current"]["sheet"]["entries"] == SEED_CELLS[:3]
    assert app_client.get("/api/sheets/s1", headers=anna).json()["revision"] == 2


def test_sheets_and_players_belong_to_their_account(app_client: TestClient) -> None:
    anna, ben = guest(app_client, "Anna"), guest(app_client, "Ben")
    app_client.put("/api/sheets/s1", json=SEED, headers=anna)
    assert app_client.get("/api/sheets", headers=ben).json() == []
    assert app_client.get("/api/sheets/s1", headers=ben).status_code == 404
    assert app_client.delete("/api/sheets/s1", headers=ben).status_code == 404
    assert app_client.get("/api/sheets/s1", headers=anna).status_code == 200
    # Saving remembers the sheet's players; more can be added and forgotten.
    assert app_client.get("/api/account/players", headers=anna).json() == \
        ["Anna", "Ben", "Cara"]
    assert app_client.put("/api/account/players", headers=anna,
                          json={"names": ["Dag", "Anna"]}).json() == \
        ["Anna", "Ben", "Cara", "Dag"]
    assert app_client.delete("/api/account/players/Ben", headers=anna).json() == \
        ["Anna", "Cara", "Dag"]
    assert app_client.get("/api/account/players", headers=ben).json() == []
    app_client.cookies.clear()  # the guest logins left their session cookie
    anonymous = app_client.get("/api/sheets")
    assert anonymous.status_code == 401 and "log in" in anonymous.json()["detail"]
    assert app_client.put("/api/sheets/bad%20id", json=SEED, headers=anna).status_code == 422

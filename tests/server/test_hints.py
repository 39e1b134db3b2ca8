"""The advisor's hint at a table: for the seat to move only, from its own view; the
first question of a rule set is answered "preparing" while the table is solved in a
worker thread; a table can be made without hints."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from servertools import guest, new_table

from kastkopp.engine import Game
from kastkopp.games import load
from kastkopp.server.app import create_app
from kastkopp.strategy import yatzy_optimal
from kastkopp.strategy.work import LRU

# slow: solves Tärningspoker once, then prepares it in a worker process
pytestmark = pytest.mark.slow


@pytest.fixture
def hint_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                solved_tarningspoker: Path) -> Iterator[TestClient]:
    # An advisor not yet ready: no solved table in this process, so the first question is
    # answered "preparing" while a worker loads it from the disk cache.
    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copy(solved_tarningspoker, cache / solved_tarningspoker.name)
    monkeypatch.setenv("KASTKOPP_CACHE", str(cache))
    monkeypatch.setattr(yatzy_optimal, "_TABLES", LRU(yatzy_optimal.TABLES_KEPT))
    with TestClient(create_app(str(tmp_path / "kastkopp.db"))) as test_client:
        yield test_client


def started(client: TestClient, headers: dict[str, str], **extra: Any) -> dict[str, Any]:
    table = new_table(client, headers, "yatzy", 2, preset="tarningspoker", **extra)
    response = client.post(f"/api/tables/{table['id']}/start", headers=headers, json={"seed": "a1"})
    assert response.status_code == 200, response.text
    return table


def test_the_player_to_move_gets_ranked_legal_choices_after_preparing(
        hint_client: TestClient) -> None:
    anna, ben = guest(hint_client, "Anna"), guest(hint_client, "Ben")
    table = started(hint_client, anna, seats=[None, "bot:random"])
    url = f"/api/tables/{table['id']}/hint"
    first = hint_client.get(url, headers=anna)
    assert first.status_code == 202 and first.json() == {"status": "preparing"}
    # While the table is prepared, the server goes on answering.
    assert hint_client.get(f"/api/tables/{table['id']}").status_code == 200
    deadline = time.monotonic() + 60
    while (answer := hint_client.get(url, headers=anna)).status_code == 202:
        assert time.monotonic() < deadline, "the advisor never got ready"
        time.sleep(0.1)
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    frame = hint_client.get(f"/api/tables/{table['id']}/state", headers=anna).json()
    assert hint["seq"] == frame["seq"]
    choices = [c["choice"] for c in hint["choices"]]
    expected = [c["expected"] for c in hint["choices"]]
    assert expected == sorted(expected, reverse=True)
    assert set(choices) <= set(frame["legal"])
    assert {a for a in frame["legal"] if a.startswith("score")} <= set(choices)
    # An expected final score of a whole sheet (Tärningspoker's optimum averages 229.6).
    assert 100 < expected[0] < 13 * 50
    # A spectator gets no hint.
    refused = hint_client.get(url, headers=ben)
    assert refused.status_code == 400
    assert refused.json()["detail"] == "hints are for the players at this table"


def test_hints_only_on_your_turn_only_where_allowed_and_only_with_an_advisor(
        hint_client: TestClient) -> None:
    anna, ben = guest(hint_client, "Anna"), guest(hint_client, "Ben")
    table = new_table(hint_client, anna, "yatzy", 2, preset="tarningspoker")
    assert hint_client.post(f"/api/tables/{table['id']}/join", headers=ben,
                            json={"seed": "b2"}).status_code == 200
    hint_client.post(f"/api/tables/{table['id']}/start", headers=anna, json={"seed": "a1"})
    waiting = hint_client.get(f"/api/tables/{table['id']}/hint", headers=ben)
    assert waiting.status_code == 400
    assert waiting.json()["detail"] == "a hint is for your own turn; wait until it is yours"
    closed = started(hint_client, anna, seats=[None, "bot:random"], hints=False)
    off = hint_client.get(f"/api/tables/{closed['id']}/hint", headers=anna)
    assert off.status_code == 400 and off.json()["detail"] == "this table was made without hints"
    maxi = new_table(hint_client, anna, "yatzy", 2, preset="maxi", seats=[None, "bot:random"])
    hint_client.post(f"/api/tables/{maxi['id']}/start", headers=anna, json={"seed": "a1"})
    beyond = hint_client.get(f"/api/tables/{maxi['id']}/hint", headers=anna)
    # Maxi is beyond the solver: its hint is the score this turn, by greedy play
    assert beyond.status_code == 200 and beyond.json()["unit"] == "turn", beyond.text
    hint_client.cookies.clear()
    assert hint_client.get(f"/api/tables/{table['id']}/hint").status_code == 401


# One table of every family: the seat to move is told the odds and the ranked choices in the
# game's unit, nothing outside its legal moves.
FAMILIES = [("mia", None, "lives"), ("liars_dice", "perudo", "chance"),
            ("poker_dice", None, "chance"), ("knack", None, "chips"), ("linka", None, "chips")]


@pytest.mark.parametrize(("name", "preset", "unit"), FAMILIES)
def test_every_family_hints_in_its_own_unit(hint_client: TestClient, name: str,
                                            preset: str | None, unit: str) -> None:
    anna = guest(hint_client, "Anna")
    extra = {"preset": preset} if preset else {}
    game = load(name, preset=preset)
    said, deadline = 0, time.monotonic() + 90
    # a random bot may fold a pot game before Anna has a bet to weigh: then another table
    for _ in range(5):
        if said:
            break
        said = hint_at_one_table(hint_client, anna, game, unit, extra, deadline)
    assert said > 0, "the hint never told anything"


def hint_at_one_table(client: TestClient, anna: dict[str, str], game: Game, unit: str,
                      extra: dict[str, str], deadline: float) -> int:
    """Anna's turns at one new table against a random bot: how many hints told something,
    each checked (the unit, legal choices best first, chances, the choices in Danish)."""
    table = new_table(client, anna, game.name, 2, seats=[None, "bot:random"], **extra)
    started = client.post(f"/api/tables/{table['id']}/start", headers=anna,
                          json={"seed": "a1"})
    assert started.status_code == 200, started.text
    url, said = f"/api/tables/{table['id']}/hint?lang=da", 0
    for _ in range(30):  # a few of one's own turns, moving on by a legal move
        frame = client.get(f"/api/tables/{table['id']}/state", headers=anna).json()
        if frame["status"] != "playing":
            break
        if frame["to_move"] != frame["view"]["seat"]:
            time.sleep(0.05)
            continue
        while (answer := client.get(url, headers=anna)).status_code == 202:
            assert time.monotonic() < deadline, "the advisor never got ready"
            time.sleep(0.2)
        assert answer.status_code == 200, answer.text
        hint = answer.json()
        assert hint["unit"] == unit and hint["seq"] == frame["seq"]
        assert {c["choice"] for c in hint["choices"]} <= set(frame["legal"])
        worth = [c["expected"] for c in hint["choices"]]
        assert worth == sorted(worth, reverse=True)
        assert all(0 <= p <= 1 for p in hint["facts"].values())
        # each choice in the player's words (Danish here), read back as the same move
        assert set(hint["said"]) == {c["choice"] for c in hint["choices"]}
        for choice, words in hint["said"].items():
            assert game.parse_action(words) == game.parse_action(choice), (choice, words)
        said += bool(hint["choices"] or hint["facts"])
        # play on (a fold would end a pot game before a bet is weighed)
        move = next((a for a in frame["legal"] if a != "fold"), frame["legal"][0])
        moved = client.post(f"/api/tables/{table['id']}/action", headers=anna,
                            json={"action": move, "seq": frame["seq"]})
        assert moved.status_code == 200, moved.text
    return said

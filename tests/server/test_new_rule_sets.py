"""A guest asking for rule sets nobody has solved (each a solve in a worker and a file in
the disk cache) is limited per account and per address; the standard presets and rule sets
already solved are not counted, and a refusal changes nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from servertools import guest

from kastkopp.games import load
from kastkopp.server.app import create_app
from kastkopp.server.limits import RateLimits
from kastkopp.strategy import yatzy_optimal
from kastkopp.strategy.work import LRU
from kastkopp.strategy.yatzy_solver import cache_path

SV = {"Accept-Language": "sv"}
DA = {"Accept-Language": "da"}


@pytest.fixture
def make_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                ) -> Iterator[Callable[..., TestClient]]:
    # nothing solved in this process, nothing in the (empty) disk cache
    monkeypatch.setenv("KASTKOPP_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(yatzy_optimal, "_TABLES", LRU(yatzy_optimal.TABLES_KEPT))
    clients: list[TestClient] = []

    def make(**limits: Any) -> TestClient:
        client = TestClient(create_app(str(tmp_path / f"k{len(clients)}.db"),
                                       rate_limits=RateLimits(**limits), warm_up=False))
        clients.append(client.__enter__())
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def ask(client: TestClient, headers: dict[str, str], yatzy_score: int | None,
        seats: list[str | None], **extra: Any) -> Any:
    """Ask for a Tärningspoker table (a house ``yatzy_score``, or the preset as it is)."""
    rules = {} if yatzy_score is None else {"yatzy_score": yatzy_score}
    return client.post("/api/tables", headers={**headers, **extra.pop("lang", {})},
                       json={"game": "yatzy", "preset": "tarningspoker", "players": 2,
                             "rules": rules, "seats": seats, **extra})


def open_tables(client: TestClient) -> int:
    return len(client.get("/api/tables", params={"status": "open"}).json())


def test_a_guest_asking_for_more_new_rule_sets_than_the_limit_is_refused_and_nothing_made(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(new_rules_per_account="2/minute")
    workers = client.app.state.workers  # type: ignore[attr-defined]
    anna = guest(client, "Anna")
    assert [ask(client, anna, score, ["bot:optimal", None]).status_code
            for score in (101, 102)] == [201, 201]
    refused = ask(client, anna, 103, ["bot:optimal", None], lang=SV)
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited"
    seconds = int(refused.headers["Retry-After"])
    assert 0 < seconds <= 60
    assert refused.json()["detail"] == (f"för många nya regler att lösa; försök igen om "
                                        f"{seconds} s eller spela regler som redan är lösta")
    danish = ask(client, anna, 104, ["bot:optimal", None], lang=DA)
    assert danish.json()["detail"].startswith("for mange nye regler at løse")
    assert open_tables(client) == 2 and workers.started == 0
    # the same house rules without a bot need no solve: still allowed
    assert ask(client, anna, 103, [None, None]).status_code == 201


def test_a_cached_rule_set_and_a_standard_preset_are_not_counted(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(new_rules_per_account="1/minute")
    rules = load("yatzy", "tarningspoker", 2, yatzy_score=111).rules
    yatzy_optimal.solve_to_disk(rules, str(cache_path(rules).parent))  # solved before
    anna = guest(client, "Anna")
    for _ in range(3):
        assert ask(client, anna, 111, ["bot:optimal", None]).status_code == 201
        assert ask(client, anna, None, ["bot:optimal", None]).status_code == 201
    assert ask(client, anna, 112, ["bot:optimal", None]).status_code == 201  # the one new
    assert ask(client, anna, 113, ["bot:optimal", None]).status_code == 429


def test_new_rule_sets_are_limited_per_address_whichever_guest_asks(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(new_rules_per_account="10/minute", new_rules_per_address="2/minute")
    anna, ben = guest(client, "Anna"), guest(client, "Ben")
    assert ask(client, anna, 121, ["bot:optimal", None]).status_code == 201
    assert ask(client, ben, 122, ["bot:optimal", None]).status_code == 201
    assert ask(client, ben, 123, ["bot:optimal", None]).status_code == 429
    assert ask(client, anna, 124, ["bot:optimal", None]).status_code == 429


def test_a_bot_seated_later_or_filled_at_the_start_is_counted_and_refused_alike(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(new_rules_per_account="1/minute")
    workers = client.app.state.workers  # type: ignore[attr-defined]
    anna = guest(client, "Anna")
    first = ask(client, anna, 131, [None, None]).json()["id"]
    second = ask(client, anna, 132, [None, None]).json()["id"]
    seated = client.post(f"/api/tables/{first}/seats/1/bot", headers=anna,
                         json={"bot": "optimal"})
    assert seated.status_code == 200, seated.text
    refused = client.post(f"/api/tables/{second}/seats/1/bot", headers=anna,
                          json={"bot": "optimal"})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    filled = client.post(f"/api/tables/{second}/start", headers=anna,
                         json={"fill": "optimal", "seed": "a1"})
    assert filled.status_code == 429
    table = client.get(f"/api/tables/{second}").json()
    assert table["status"] == "open" and workers.started == 0
    # a bot that needs no solve is seated and started as ever
    played = client.post(f"/api/tables/{second}/start", headers=anna,
                         json={"fill": "greedy", "seed": "a1"})
    assert played.status_code == 200, played.text


def test_a_hint_asking_for_a_new_rule_set_is_counted(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(new_rules_per_account="1/minute")
    workers = client.app.state.workers  # type: ignore[attr-defined]
    anna = guest(client, "Anna")
    tables = []
    for score in (141, 142):
        table = ask(client, anna, score, [None, "bot:random"]).json()["id"]
        started = client.post(f"/api/tables/{table}/start", headers=anna, json={"seed": "a1"})
        assert started.status_code == 200, started.text
        tables.append(table)
    assert client.get(f"/api/tables/{tables[0]}/hint", headers=anna).status_code == 202
    # asked again while it is solved: the same solve, not counted again
    assert client.get(f"/api/tables/{tables[0]}/hint", headers=anna).status_code in (200, 202)
    refused = client.get(f"/api/tables/{tables[1]}/hint", headers=anna)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert workers.started == 1

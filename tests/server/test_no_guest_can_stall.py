"""No guest can stall the server: solves run in worker processes (one per rule set, a
bounded queue), logins and guests are rate-limited, series are bounded, and finished
tables leave memory."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import Parameters, PasswordHasher, Type, extract_parameters
from argon2.exceptions import VerificationError
from fastapi.testclient import TestClient
from servertools import guest, new_table
from sqlalchemy import select

from kastkopp.engine import verify_log
from kastkopp.server import accounts
from kastkopp.server.app import create_app
from kastkopp.server.limits import Limiter, RateLimits
from kastkopp.server.service import cache as table_cache
from kastkopp.server.workers import WORKER_NICENESS, Busy, Workers
from kastkopp.store import Account
from kastkopp.strategy import yatzy_optimal
from kastkopp.strategy.work import LRU, Work, warm_up_works
from kastkopp.strategy.yatzy_solver import cache_path, standard_rules

SV = {"Accept-Language": "sv"}


@pytest.fixture
def make_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                ) -> Iterator[Callable[..., TestClient]]:
    # A cold solver: no solved table in this process, none in the (empty) disk cache.
    monkeypatch.setenv("KASTKOPP_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(yatzy_optimal, "_TABLES", LRU(yatzy_optimal.TABLES_KEPT))
    clients: list[TestClient] = []

    def make(**options: Any) -> TestClient:
        client = TestClient(create_app(str(tmp_path / f"k{len(clients)}.db"), **options))
        clients.append(client.__enter__())
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


def house_table(client: TestClient, headers: dict[str, str], yatzy_score: int,
                seats: list[str | None]) -> str:
    """A started Tärningspoker table under a house rule nobody has solved before."""
    table = new_table(client, headers, "yatzy", 2, preset="tarningspoker", seats=seats,
                      rules={"yatzy_score": yatzy_score})
    response = client.post(f"/api/tables/{table['id']}/start", headers=headers,
                           json={"seed": "a1"})
    assert response.status_code == 200, response.text
    return str(table["id"])


def until(condition: Callable[[], Any], seconds: float = 120.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.05)
    return value


def test_a_fresh_rule_set_is_solved_once_for_concurrent_requests_without_stalling_others(
        make_client: Callable[..., TestClient]) -> None:
    # one solve (a whole Tärningspoker table) serves both halves of the question
    client = make_client()
    workers = client.app.state.workers  # type: ignore[attr-defined]
    anna, ben = guest(client, "Anna"), guest(client, "Ben")
    first = house_table(client, anna, 42, ["bot:optimal", None])
    # the bot, first to move, needs its rule set solved: the solve has started
    solve = until(lambda: next(iter(workers.pending.values()), None))
    # asked after the solve started, answered before it finished
    answer = client.get(f"/api/tables/{first}")
    assert answer.status_code == 200 and answer.json()["to_move"] == 0
    assert not solve.done()
    assert client.get(f"/api/tables/{first}/state", headers=anna).status_code == 200
    assert not solve.done()
    # the same rule set asked for again, by another bot and by a hint: no second solve
    second = house_table(client, ben, 42, ["bot:optimal", None])
    own = house_table(client, anna, 42, [None, "bot:random"])
    hint = client.get(f"/api/tables/{own}/hint", headers=anna)
    assert hint.status_code == 202, hint.text
    assert workers.started == 1 and len(workers.pending) == 1
    until(lambda: client.get(f"/api/tables/{own}/hint", headers=anna).status_code == 200)
    # and the bots play once it is solved (or, after a while, greedily meanwhile)
    for table_id in (first, second):
        until(lambda t=table_id: client.get(f"/api/tables/{t}").json()["to_move"] == 1)
    until(solve.done)
    assert solve.exception() is None
    assert workers.started == 1


def test_a_full_work_queue_refuses_a_hint_and_the_bot_plays_without_its_solve(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(work_queue=1)
    workers = client.app.state.workers  # type: ignore[attr-defined]
    anna = guest(client, "Anna")
    house_table(client, anna, 43, ["bot:optimal", None])  # takes the one place
    until(lambda: workers.pending)
    own = house_table(client, anna, 44, [None, "bot:random"])
    refused = client.get(f"/api/tables/{own}/hint", headers=anna)
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    assert refused.json()["detail"] == "the server is busy solving; ask again in a minute"
    swedish = client.get(f"/api/tables/{own}/hint", headers={**anna, **SV})
    assert swedish.json()["detail"] == "servern är upptagen med att lösa; fråga igen om en minut"
    # a bot whose rule set cannot be solved now plays at once, by its cheap choice
    cheap = house_table(client, anna, 45, ["bot:optimal", None])
    until(lambda: client.get(f"/api/tables/{cheap}").json()["to_move"] == 1, seconds=10)
    assert workers.started == 1


def test_a_login_flood_gets_429_with_retry_after(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limits=RateLimits(login_per_address="5/minute",
                                                refused_login_pause=0))
    registered = client.post("/api/account/register",
                             json={"name": "anna", "password": "a long secret"})
    assert registered.status_code == 200
    codes = [client.post("/api/account/login", json={"name": "anna", "password": "wrong!!"},
                         headers=SV).status_code for _ in range(8)]
    assert codes[:5] == [400] * 5 and codes[5:] == [429] * 3
    refused = client.post("/api/account/login",
                          json={"name": "anna", "password": "a long secret"}, headers=SV)
    assert refused.status_code == 429
    seconds = int(refused.headers["Retry-After"])
    assert 0 < seconds <= 60
    assert refused.json()["detail"] == f"för många försök; försök igen om {seconds} s"


def test_a_login_from_an_address_used_up_is_refused_before_its_body_is_read(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limits=RateLimits(login_per_address="2/minute",
                                                refused_login_pause=0))
    wrong = {"name": "nobody", "password": "wrong!!"}
    # a body no route would take is refused as malformed while logins are left...
    assert client.post("/api/account/login", content=b"{").status_code == 422
    codes = [client.post("/api/account/login", json=wrong).status_code for _ in range(3)]
    assert codes == [400, 400, 429]
    # ...and once they are used up, refused unread, as the route refuses it, in Danish
    refused = client.post("/api/account/login", content=b"{", headers={
        "Accept-Language": "da", "Content-Type": "application/json"})
    assert refused.status_code == 429
    seconds = int(refused.headers["Retry-After"])
    assert 0 < seconds <= 60
    assert refused.json()["detail"] == f"for mange forsøg; prøv igen om {seconds} s"
    assert refused.json()["template"] == "too many attempts; try again in {seconds} s"
    # other routes and other kinds of request are not touched by it
    assert client.post("/api/account/guest", json={"nickname": "Ulla"}).status_code == 200


def test_a_login_refused_unread_is_answered_after_a_pause_so_a_flood_comes_slower(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limits=RateLimits(login_per_address="1/minute",
                                                refused_login_pause=0.3))
    wrong = {"name": "nobody", "password": "wrong!!"}
    assert [client.post("/api/account/login", json=wrong).status_code
            for _ in range(2)] == [400, 429]  # the second refused by the route: used up
    started = time.monotonic()
    refused = client.post("/api/account/login", json=wrong, headers=SV)
    assert time.monotonic() - started >= 0.3
    assert refused.status_code == 429
    seconds = int(refused.headers["Retry-After"])
    assert 0 < seconds <= 60
    assert refused.json()["detail"] == f"för många försök; försök igen om {seconds} s"


def test_password_hashes_run_in_a_process_of_the_lowest_priority_not_in_the_servers(
        ) -> None:
    if sys.platform != "linux":
        pytest.skip("the idle class is Linux's")
    hasher = accounts.LowlyHasher()
    hashed = hasher.hash("a long secret")
    assert hasher.verify(hashed, "a long secret")
    with pytest.raises(VerificationError):
        hasher.verify(hashed, "a wrong one")
    # where the hashes are made: another process, at the lowest priority
    assert hasher.run(os.getpid) != os.getpid()
    assert hasher.run(os.getpriority, os.PRIO_PROCESS, 0) == accounts.HASHING_NICENESS
    assert hasher.run(os.sched_getscheduler, 0) == os.SCHED_OTHER  # never starved
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) < \
        accounts.HASHING_NICENESS


def test_the_hashing_process_starts_with_the_server_before_the_first_login(
        make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    hasher = accounts.LowlyHasher()
    monkeypatch.setattr(accounts, "_hasher", hasher)
    try:
        make_client()
        until(lambda: hasher._pool is not None and hasher._pool._processes)
    finally:
        hasher.close()


def test_password_hashes_are_made_with_owasps_parameters_in_one_thread() -> None:
    hashed = accounts.LowlyHasher().hash("a long secret")
    assert extract_parameters(hashed) == Parameters(
        type=Type.ID, version=19, salt_len=16, hash_len=32, time_cost=2,
        memory_cost=19 * 1024, parallelism=1)


def test_a_hash_made_with_the_old_parameters_still_logs_in_and_is_made_anew(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    client.post("/api/account/register", json={"name": "anna", "password": "a long secret"})
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.session() as session:
        anna = session.scalar(select(Account).where(Account.name == "anna"))
        anna.password_hash = PasswordHasher().hash("a long secret")  # 64 MiB, four lanes
    wrong = client.post("/api/account/login", json={"name": "anna", "password": "not it!!"})
    assert wrong.status_code == 400
    right = client.post("/api/account/login", json={"name": "anna", "password": "a long secret"})
    assert right.status_code == 200, right.text
    with store.session() as session:
        anna = session.scalar(select(Account).where(Account.name == "anna"))
        assert extract_parameters(anna.password_hash).memory_cost == 19 * 1024
    again = client.post("/api/account/login", json={"name": "anna", "password": "a long secret"})
    assert again.status_code == 200


def test_solves_run_in_worker_processes_below_the_server_never_starved() -> None:
    if sys.platform != "linux":
        pytest.skip("scheduling classes are Linux's")
    workers = Workers()
    seen: list[int] = []

    async def ask() -> None:
        # os's own functions, run in the worker: its scheduling class and its niceness
        await workers.run(Work("class", os.sched_getscheduler, (0,), seen.append))
        await workers.run(Work("nice", os.getpriority, (os.PRIO_PROCESS, 0), seen.append))

    try:
        asyncio.run(ask())
    finally:
        workers.close()
    # a niceness, not the idle class: there a solve got nothing while the cores were busy
    assert seen == [os.SCHED_OTHER, WORKER_NICENESS]


def test_logins_to_one_account_are_limited_whoever_tries(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limits=RateLimits(login_per_account="3/minute"))
    for name in ("anna", "ben"):
        client.post("/api/account/register", json={"name": name, "password": "a long secret"})
    wrong = {"name": "anna", "password": "guessing"}
    assert [client.post("/api/account/login", json=wrong).status_code
            for _ in range(4)] == [400, 400, 400, 429]
    other = client.post("/api/account/login", json={"name": "ben", "password": "a long secret"})
    assert other.status_code == 200


def test_guest_creation_is_limited_per_address(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client(rate_limits=RateLimits(guest_per_address="3/minute"))
    codes = [client.post("/api/account/guest", json={"nickname": f"g{i}"}).status_code
             for i in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    refused = client.post("/api/account/guest", json={"nickname": "g9"},
                          headers={"Accept-Language": "da"})
    assert refused.json()["detail"].startswith("for mange forsøg")
    assert "Retry-After" in refused.headers


def test_password_hashing_runs_a_few_at_a_time_and_refuses_a_crowd() -> None:
    limiter = Limiter(RateLimits(hashing_at_once=1, hashing_waiting=2))

    async def crowd() -> list[str]:
        inside: list[str] = []
        release = asyncio.Event()

        async def hash_one(name: str) -> None:
            async with limiter.hashing():
                inside.append(name)
                await release.wait()

        first = asyncio.create_task(hash_one("first"))
        second = asyncio.create_task(hash_one("second"))
        await asyncio.sleep(0)
        assert inside == ["first"]  # one at a time: the second waits its turn
        with pytest.raises(Busy):
            await hash_one("third")  # two are there already: refused at once
        release.set()
        await asyncio.gather(first, second)
        return inside

    assert asyncio.run(crowd()) == ["first", "second"]


def test_a_series_past_the_size_limit_is_refused(client: TestClient) -> None:
    anna = guest(client, "Anna")
    seventeen = [f"bot:random#{i}" for i in range(17)]
    too_many = client.post("/api/series", headers=anna, json={
        "format": "knockout", "game": "mia", "players": seventeen})
    assert too_many.status_code == 400
    assert too_many.json()["detail"] == "a series has at most 16 players, not 17"
    too_long = client.post("/api/series", headers=anna, json={
        "format": "knockout", "game": "mia", "players": seventeen[:16], "best_of": 21})
    assert too_long.status_code == 400 and "at most 200" in too_long.json()["detail"]
    fine = client.post("/api/series", headers=anna, json={
        "format": "knockout", "game": "mia", "players": seventeen[:4]})
    assert fine.status_code == 201, fine.text


def test_finished_tables_read_again_are_evicted_and_still_readable(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_cache, "FINISHED_KEPT", 2)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    anna = guest(client, "Anna")
    ids = []
    for _ in range(4):
        table = new_table(client, anna, "liars_dice", 2, preset="lognare", rules={"dice": 1},
                          seats=["bot:random", "bot:random"], sit=False)
        client.post(f"/api/tables/{table['id']}/start", headers=anna, json={})
        ids.append(table["id"])
    for table_id in ids:
        until(lambda t=table_id: client.get(f"/api/tables/{t}").json()["status"] == "over")
    for table_id in ids:  # each read once more, the earliest first
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"
    assert [t for t in ids if t in hub.tables] == ids[2:]
    log = client.get(f"/api/tables/{ids[0]}/log").json()
    assert verify_log(log) == [] and log["table"] == ids[0]
    assert {t for t in ids if t in hub.tables} == {ids[3], ids[0]}


def test_a_fresh_server_answers_at_once_while_the_standard_tables_are_made(
        make_client: Callable[..., TestClient]) -> None:
    standard = {work.key for work in warm_up_works()}
    assert len(standard) == len(standard_rules()) >= 4  # nothing cached yet
    client = make_client(warm_up=True)
    workers = client.app.state.workers  # type: ignore[attr-defined]
    making = until(lambda: next(iter(workers.pending.values()), None))
    assert set(workers.pending) <= standard  # one at a time, in the background
    assert client.get("/api/games").status_code == 200
    assert not making.done()
    for rules in standard_rules():  # once on disk, nothing is left to make
        cache_path(rules).parent.mkdir(parents=True, exist_ok=True)
        cache_path(rules).touch()
    assert warm_up_works() == []


def test_a_table_of_ten_strong_bots_is_paced_not_played_at_once(client: TestClient) -> None:
    anna = guest(client, "Anna")
    table = new_table(client, anna, "liars_dice", 10, seats=["bot:strong"] * 10, sit=False)
    client.post(f"/api/tables/{table['id']}/start", headers=anna, json={})
    # asked right after the start, answered while the bots are still playing, move by move
    first = client.get(f"/api/tables/{table['id']}").json()
    assert first["status"] == "playing"
    later = until(lambda: (s := client.get(f"/api/tables/{table['id']}").json())["seq"]
                  > first["seq"] and s)
    assert later["status"] == "playing"


def test_compiled_code_runs_without_the_interpreters_lock() -> None:
    """A bot's choice or a hint in a server's thread runs compiled code: every such
    function lets the event loop go on meanwhile (numba's ``nogil``)."""
    import importlib
    import pkgutil

    import numba

    import kastkopp.strategy

    compiled = {}
    for module in pkgutil.iter_modules(kastkopp.strategy.__path__):
        loaded = importlib.import_module(f"kastkopp.strategy.{module.name}")
        for name, value in vars(loaded).items():
            if isinstance(value, numba.core.registry.CPUDispatcher) and \
                    value.__module__ == loaded.__name__:
                compiled[f"{module.name}.{name}"] = value.targetoptions.get("nogil", False)
    assert len(compiled) >= 20
    assert [name for name, nogil in compiled.items() if not nogil] == []


def test_the_code_bots_choose_with_is_loaded_before_the_server_answers_anybody(
        tmp_path: Path) -> None:
    """Loading a compiled function holds the interpreter's lock for a third of a second:
    at a bot's first choice it stalled every table of the server, and loaded beside the
    first requests it kept a crowd sent to a process just started waiting. A server has
    it loaded before it answers anybody (in a process of its own here: nothing loaded
    before)."""
    import subprocess

    script = ("import sys\n"
              "from fastapi.testclient import TestClient\n"
              "from kastkopp.server.app import create_app\n"
              "from kastkopp.strategy import yatzy_solver\n"
              "before = len(yatzy_solver._turn.overloads)\n"
              "with TestClient(create_app(sys.argv[1])):\n"
              "    print(before, len(yatzy_solver._turn.overloads))\n")
    shown = subprocess.run([sys.executable, "-c", script, str(tmp_path / "k.db")],
                           capture_output=True, text=True, check=True, timeout=120)
    assert shown.stdout.split() == ["0", "1"]

"""Hidden dice stay hidden at the server's boundary, for every game and preset.

Two servers, each on a database of its own, hold the same table in two worlds that differ
only in other seats' hidden dice and hidden choices (``worlds.py``: the twin of a random
game's log). At every position until the next reveal, everything a seat, a spectator or a
stranger can ask for is fetched from both — the table, the frame, the log, the replay, the
hint, the chat, the WebSocket's first frame and its answer to the seat's own move — and must
be the same byte for byte. (The NDJSON table stream sends the very frame the WebSocket does.)
Every game has a hint, prepared beforehand, so the seat to move is really told one there.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kastkopp.dice import SeededDice, seed_commitment
from kastkopp.engine import Game, Table
from kastkopp.games import load, registered
from kastkopp.server.app import create_app
from kastkopp.store import GameTable, LogEvent, Seat
from kastkopp.store.log_writer import event_row
from kastkopp.strategy.advice import advisor_for
from worlds import differs, revealed, step, twin

CONFIGS = [
    pytest.param(name, preset, players, id=f"{name}-{preset or 'default'}-{players}")
    for name, cls in sorted(registered().items())
    for preset, players in cls.conformance_configs()
]

NAMES = ["Anna", "Bo", "Cai", "Dag", "Eva", "Finn", "Gun", "Hans", "Ida", "Jon"]


@pytest.fixture
def worlds(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    with TestClient(create_app(str(tmp_path / "a.db"))) as a, \
            TestClient(create_app(str(tmp_path / "b.db"))) as b:
        yield a, b


def seated(client: TestClient, players: int) -> list[dict[str, str]]:
    """The headers of one guest per seat and then of a spectator (account ids alike in
    both worlds, since both are made in the same order)."""
    return [member(client, name) for name in [*NAMES[:players], "Spy"]]


def member(client: TestClient, name: str) -> dict[str, str]:
    """A registered account (a guest's name has a random tail, unlike in the other world)."""
    response = client.post("/api/account/register",
                           json={"name": name, "password": "a long passphrase"})
    assert response.status_code == 200, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def account_id(client: TestClient, headers: dict[str, str]) -> int:
    return int(client.get("/api/account", headers=headers).json()["id"])


def put_table(client: TestClient, table_id: str, game: Game, accounts: list[int],
              seed: bytes, events: list[dict]) -> None:
    """The table as a game in progress, written to the server's database as its own code
    writes one (the server reads it back through its own loading path)."""
    store = client.app.state.hub.store
    with store.session() as session:
        session.add(GameTable(id=table_id, game=game.name, preset=game.preset,
                              rules=game.rules.to_json(), players=game.players,
                              status="playing", owner_id=accounts[0],
                              server_seed=seed.hex(), seed_sha256=seed_commitment(seed),
                              client_seed=table_id, clock="none", on_timeout="move"))
        session.flush()
        for seat, account in enumerate(accounts):
            session.add(Seat(table_id=table_id, seat=seat, account_id=account))
        for event in events:
            session.add(LogEvent(table_id=table_id, **event_row(event)))


def random_log(game: Game, seed: int, steps: int = 80) -> list[dict]:
    table, rng = Table(game, dice=SeededDice(seed)), random.Random(seed)
    for _ in range(steps):
        if table.state.is_over():
            break
        table.act(table.state.to_move(), rng.choice(table.state.legal_actions()))
    return table.events


def hidden_stretch(game: Game, events: list[dict], keep: int,
                   rng: random.Random) -> tuple[int, int]:
    """A stretch ``[start, end)`` of the log between two reveals, holding dice hidden from
    seat ``keep`` (a long one by preference: more to leak)."""
    state, start, hidden, stretches = game.new_state(), 0, 0, []
    for index, event in enumerate(events):
        chance = state.chance()
        state = step(state, event)
        if event["type"] == "roll" and chance is not None and chance.private \
                and chance.seat != keep:
            hidden += 1
        if revealed(game, event, state) or index == len(events) - 1:
            if hidden:
                stretches.append((start, index + 1))
            start, hidden = index + 1, 0
    assert stretches, "a game with hidden dice showed none"
    return rng.choice(sorted(stretches, key=lambda s: s[1] - s[0])[-3:])


def observed(client: TestClient, table_id: str, headers: dict[str, str] | None,
             move: str | None, seq: int) -> list[tuple[str, object]]:
    """Everything ``headers`` (None: a stranger) can fetch of the table, as sent."""
    h = headers or {}
    seen: list[tuple[str, object]] = []
    for path in ("", "/state", "/log", "/replay", "/chat", "/hint"):
        response = client.get(f"/api/tables/{table_id}{path}", headers=h)
        seen.append((path, (response.status_code, response.content)))
    with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=h) as ws:
        seen.append(("ws", ws.receive_text()))
        if move is not None:
            ws.send_json({"action": move, "seq": seq})
            seen.append(("ws move", (ws.receive_text(), ws.receive_text())))
    return seen


@pytest.mark.parametrize(("name", "preset", "players"), CONFIGS)
def test_every_answer_is_the_same_in_worlds_that_differ_in_hidden_dice(
        worlds, name, preset, players):
    if not registered()[name].hidden_information:
        pytest.skip(f"{name} has no hidden dice")
    a, b = worlds
    game = load(name, preset=preset, players=players)
    rng = random.Random(f"{name}{preset}{players}")
    people = {world: seated(world, players) for world in (a, b)}
    accounts = [account_id(a, h) for h in people[a][:players]]
    assert accounts == [account_id(b, h) for h in people[b][:players]]
    events = random_log(game, seed=rng.randrange(1000))
    advisor = advisor_for(game)
    assert advisor is not None, "every game gives hints"
    advisor.prepare()  # a hint told, not "preparing", in both worlds
    varied, compared, hinted = 0, 0, 0
    for keep in range(min(players, 2)):  # a twin keeps this seat's dice and varies the rest
        start, end = hidden_stretch(game, events, keep, rng)
        other = twin(game, events[:end], keep, rng, start)
        assert other is not None
        varied += differs(events[:end], other)
        for k in range(start, end):
            state = game.new_state()
            for event in events[:k]:
                state = step(state, event)
            if state.is_over() or state.chance() is not None:
                continue
            table_id, seed = f"t{keep}x{k}", secrets.token_bytes(32)
            put_table(a, table_id, game, accounts, seed, events[:k])
            put_table(b, table_id, game, accounts, seed, other[:k])
            # the seat's own next move is made too, unless it lifts the cups
            own = events[k] if k < len(events) and events[k]["type"] == "action" and \
                events[k]["seat"] == keep else None
            if own is not None and revealed(game, own, step(state, own)):
                own = None
            for who in (keep, players, None):  # the seat kept, a spectator, a stranger
                move = str(own["action"]) if own is not None and who == keep else None
                seen_a = observed(a, table_id, None if who is None else people[a][who],
                                  move, k)
                seen_b = observed(b, table_id, None if who is None else people[b][who],
                                  move, k)
                for (what, answer_a), (_, answer_b) in zip(seen_a, seen_b, strict=True):
                    assert answer_a == answer_b, (
                        f"{what} differs for {'a stranger' if who is None else who} "
                        f"at event {k}")
                compared += 1
                hinted += who == keep and dict(seen_a)["/hint"][0] == 200
    assert compared > 0
    assert hinted > 0, "the seat was never told a hint: the hint went unchecked"
    assert varied > 0, "the worlds never differed: the check would prove nothing"

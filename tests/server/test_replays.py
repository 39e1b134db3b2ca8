"""Replays: every position of a finished game from every seat, and none before the end."""

from __future__ import annotations

import random

from servertools import Frames, guest, new_table, play_by_websocket

from kastkopp.engine import Table


def test_a_finished_game_replays_position_by_position_from_every_seat(client) -> None:
    anna = guest(client, "Anna")
    table = new_table(client, anna, "liars_dice", 3, [None, "bot:random", "bot:random"],
                      rules={"dice": 2})
    url = f"/api/tables/{table['id']}"
    client.post(f"{url}/start", json={"seed": "a1"}, headers=anna)
    early = client.get(f"{url}/replay")
    assert early.status_code == 400
    assert early.json()["detail"] == "the replay opens when the game is over"
    with client.websocket_connect(f"{url}/ws", headers=anna) as ws:
        last = play_by_websocket(ws, random.Random(4), Frames())
    replay = client.get(f"{url}/replay").json()
    log = client.get(f"{url}/log").json()
    steps = replay["steps"]
    assert len(steps) == len(log["events"]) + 1
    assert replay["outcome"] == last["outcome"]
    # Each step is the position after that many events, seen from each seat in turn.
    played = Table.from_json({**log, "events": []})
    for n, event in enumerate(log["events"], start=1):
        played._replay_event(event)
        assert steps[n]["views"] == [played.state.view(s) for s in range(3)]
    assert steps[-1]["views"][0] == last["view"]
    assert steps[-1]["to_move"] is None
